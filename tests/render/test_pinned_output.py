"""What the renders say stays what it said: decoded samples, MIDI messages and MusicXML notes.

tests/render/pinned_output.json was recorded with tools/pin_render_output.py from the code of
commit e764080 (main, before the single-score and the track renders became one path), so it
pins the old behaviour, not the code under test: every case here (`lu`, `xue/2@benyi`, the
`rite` programme, count-in and loopable files, sections, tempo, repeats, humanize with a seed,
MIDI notes, a batch, a SoundFont) must decode to exactly the same samples, messages and notes.
A deliberate change of output re-pins with that script and says why in its commit: the MIDI and
SoundFont cases were re-pinned when the General MIDI map made 鼙 the lower drum (41, 鼓 45);
rendered with `--midi-notes 45,41` they gave exactly the old pins.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import render_pins
from cli_run import run_cli

PINNED = json.loads((Path(__file__).with_name("pinned_output.json")).read_text())


def test_every_case_is_pinned():
    assert set(PINNED) == set(render_pins.CASES)


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=pytest.mark.requires("fluidsynth", "soundfont"))
        if render_pins.needs_soundfont(n)
        else n
        for n in sorted(render_pins.CASES)
    ],
)
def test_render_says_what_it_said(name, tmp_path, capsys):
    found = render_pins.fingerprint(name, tmp_path / "out", lambda argv: run_cli(argv, capsys)[0])
    assert found == PINNED[name]


# --- bad input ---------------------------------------------------------------------------------


def test_a_changed_file_changes_its_fingerprint(tmp_path, capsys):
    """The fingerprints can fail: one stroke more, or another tempo, gives another."""
    a = render_pins.fingerprint("lu.mid", tmp_path / "a", lambda argv: run_cli(argv, capsys)[0])
    other = ["render", "--quiet", "lu", "--bpm", "61", "-o", str(tmp_path / "b.mid")]
    assert run_cli(other, capsys)[0] == 0
    assert render_pins.midi_print(tmp_path / "b.mid") != a["lu.mid"]


def test_an_unknown_format_has_no_fingerprint(tmp_path):
    with pytest.raises(ValueError):
        render_pins.file_print(tmp_path / "x.ogg")
