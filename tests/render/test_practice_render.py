"""Practice options rendered (click and subdivisions, count-in every pass, silent passes, a tempo
ramp, one drum, a range of strokes): MIDI read back with mido, audio by its onsets."""

from __future__ import annotations

from fractions import Fraction

import mido
import numpy as np
import pytest
import soundfile as sf
from audio_checks import count_strokes, strokes
from cli_run import expect_error, run_cli

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Practice, Ramp, Track
from drumscore.corpus import resolve
from drumscore.model import Drum
from drumscore.render.midimap import MidiMap
from drumscore.render.mix import mix_range, plan
from drumscore.timing import Tempo

RATE = 44100

MAP = MidiMap()
#: General MIDI 76, Hi Wood Block: the note the count strokes sound on.
HI_WOOD_BLOCK = 76


def notes(path) -> list[tuple[float, int, int]]:
    """(seconds, note, velocity) of every note-on, read back with mido (its tempo map applied)."""
    found, now = [], 0.0
    for msg in mido.MidiFile(path, charset="utf-8"):
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            found.append((round(now, 6), msg.note, msg.velocity))
    return found


def tempi(path) -> list[tuple[int, float]]:
    """(tick, strokes a minute) of every set_tempo in track 0."""
    found, tick = [], 0
    for msg in mido.MidiFile(path, charset="utf-8").tracks[0]:
        tick += msg.time
        if msg.type == "set_tempo":
            found.append((tick, round(mido.tempo2bpm(msg.tempo), 6)))
    return found


def render(capsys, tmp_path, name, *argv):
    out = tmp_path / name
    code, _, err = run_cli(["render", *argv, "-q", "-o", str(out)], capsys)
    assert code == 0, err
    return out


def drums_of(score: str, section: str = "she") -> list[Drum]:
    return [s.drum for s in resolve(score).pattern.section(section)]


def test_a_ramp_puts_one_tempo_event_at_each_pass_and_plays_each_pass_at_it(tmp_path, capsys):
    out = render(
        capsys, tmp_path, "t.mid", "lu", "--section", "touhu", "--repeat", "5", "--ramp", "40:60:5"
    )
    n = len(drums_of("lu", "touhu"))
    expected = [(p * n * 480, bpm) for p, bpm in enumerate([40, 45, 50, 55, 60])]
    assert [t for t, _ in tempi(out)] == [t for t, _ in expected]
    assert [b for _, b in tempi(out)] == pytest.approx([b for _, b in expected], abs=1e-3)
    onsets = [t for t, _, _ in notes(out)]
    expected, now = [], Fraction(0)
    for bpm in (40, 45, 50, 55, 60):
        for _ in range(n):
            expected.append(float(now))
            now += Fraction(60, bpm)
    assert onsets == pytest.approx(expected, abs=1e-4)  # tempi are whole microseconds


def test_a_ramp_without_repeats_plays_the_passes_that_reach_its_stop(tmp_path, capsys):
    out = render(capsys, tmp_path, "t.mid", "xue/2", "--ramp", "90:60:-10:2")
    assert [bpm for _, bpm in tempi(out)] == pytest.approx([90, 90, 80, 80, 70, 70, 60], abs=1e-3)


def mix(notation: str, bpm: int = 60, repeats: int = 1, **practice) -> np.ndarray:
    """The unnormalised mix of a score's track with `practice`, as render lays it out: mixes
    add, so one mix minus another leaves what one has and the other has not."""
    timeline = arrange(resolve(notation), None, Tempo.from_bpm(bpm), repeats)
    if "ramp" in practice:
        timeline = arrange(resolve(notation), None, practice["ramp"].tempo(1), repeats)
    p = plan(Track.single(timeline, practice=Practice(**practice)), rate=RATE)
    return mix_range(p, 0, p.length)


def minus(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = a.copy()
    n = min(len(a), len(b))
    out[:n] -= b[:n]
    return out


def test_a_ramp_in_audio_puts_each_pass_on_its_own_beat():
    clicks = mix("○□", repeats=2, ramp=Ramp.parse("120:240:120"), silent_every=1)
    half, quarter = RATE // 2, RATE // 4  # 120 then 240 strokes a minute
    assert count_strokes(clicks, RATE) == [0, half, 2 * half, 2 * half + quarter]


def test_only_one_drum_keeps_the_other_silent(tmp_path, capsys):
    out = render(capsys, tmp_path, "pi.mid", "lu", "--only", "鼙")
    pis = [i for i, d in enumerate(drums_of("lu")) if d is Drum.PI]
    assert [(t, note) for t, note, _ in notes(out)] == [(float(i), MAP.note(Drum.PI)) for i in pis]
    out = render(capsys, tmp_path, "gu.wav", "lu", "--only", "gu", "--bpm", "240")
    audio, rate = sf.read(out, dtype="float32", always_2d=True)
    heard = strokes(audio, rate)
    gus = [i for i, d in enumerate(drums_of("lu")) if d is Drum.GU]
    assert [d for _, d in heard] == [Drum.GU] * len(gus)
    assert [round(f / (rate / 4)) for f, _ in heard] == gus


def test_click_two_puts_a_click_on_each_stroke_and_one_halfway(tmp_path, capsys):
    out = render(
        capsys, tmp_path, "c.mid", "lu", "--section", "touhu", "--click", "2", "--click-level", "90"
    )
    n = len(drums_of("lu", "touhu"))
    clicks = [(t, v) for t, note, v in notes(out) if note == HI_WOOD_BLOCK]
    assert clicks == [(k / 2, 90) for k in range(2 * n)]
    drums = [t for t, note, _ in notes(out) if note != HI_WOOD_BLOCK]
    assert drums == [float(k) for k in range(n)]


def test_clicks_sound_between_the_strokes_in_audio():
    clicks = minus(mix("○□○", click=3), mix("○□○"))
    assert count_strokes(clicks, RATE) == [k * RATE // 3 for k in range(9)]


def test_count_in_before_each_pass_and_every_second_pass_silent(tmp_path, capsys):
    out = render(
        capsys,
        tmp_path,
        "s.mid",
        "○□○",
        "--count-in",
        "2",
        "--count-in-each",
        "--repeat",
        "4",
        "--silent-every",
        "2",
    )
    found = notes(out)
    drum_notes = {MAP.note(Drum.PI), MAP.note(Drum.GU)}
    per_pass = 5  # two count strokes, three strokes
    for p in range(4):
        beats = [
            (t - p * per_pass, note)
            for t, note, _ in found
            if p * per_pass <= t < (p + 1) * per_pass
        ]
        heard = sorted(b for b, note in beats if note in drum_notes)
        counted = sorted(b for b, note in beats if note == HI_WOOD_BLOCK)
        assert heard == ([] if p % 2 else [2.0, 3.0, 4.0]), p
        assert counted == [0.0, 1.0, 2.0, 3.0, 4.0]  # the count-in, then a click on each stroke


def test_a_range_of_strokes_plays_only_those(tmp_path, capsys):
    out = render(capsys, tmp_path, "r.mid", "lu", "--strokes", "5-12", "--repeat", "2")
    wanted = drums_of("lu")[4:12] * 2
    assert [note for _, note, _ in notes(out)] == [MAP.note(d) for d in wanted]
    assert [t for t, _, _ in notes(out)] == [float(k) for k in range(16)]
    markers = [m.text for m in mido.MidiFile(out, charset="utf-8").tracks[0] if m.type == "marker"]
    assert "半" in markers  # 半 stands after stroke 11, inside the range


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--ramp", "40:60:-5"], "positive step"),
        (["--ramp", "40:60"], "START:STOP:STEP"),
        (["--ramp", "1:60:5"], "out of range"),
        (["--ramp", "40:60:5", "--bpm", "50"], "leave out --bpm"),
        (["--ramp", "40:60:5", "--duration", "1m"], "--repeat N"),
        (["--click", "0"], "from 1 to 16"),
        (["--click-level", "50"], "add --click"),
        (["--count-in-each"], "add --count-in"),
        (["--only", "drum"], "鼙 (pi, ○)"),
        (["--strokes", "12-5"], "runs backwards; give the lower stroke first: 5-12"),
        (["--strokes", "12-30"], "1 ≤ A ≤ B ≤ 23"),
        (["--strokes", "x"], "such as 5-12"),
        (["--silent-every", "-1"], "--silent-every"),
    ],
)
def test_bad_practice_options_are_one_line(tmp_path, capsys, argv, needle):
    err = expect_error(["render", "lu", *argv, "-o", str(tmp_path / "x.mid")], capsys)
    assert needle in err
    assert not (tmp_path / "x.mid").exists()


def test_practice_options_are_refused_in_notation(tmp_path, capsys):
    err = expect_error(["render", "lu", "--click", "2", "-o", str(tmp_path / "x.musicxml")], capsys)
    assert "--click" in err and ".mid" in err


def test_a_programme_refuses_a_range_and_a_ramp(capsys, tmp_path):
    for argv in (["--strokes", "1-2"], ["--ramp", "40:60:5"]):
        err = expect_error(
            ["render", "--programme", "rite", *argv, "-o", str(tmp_path / "x.mid")], capsys
        )
        assert "applies to one score" in err


def test_audio_of_silent_passes_is_clicks_only():
    """Every second pass silent, minus every pass silent: the first pass's strokes alone."""
    strokes_only = minus(mix("○□○", 120, 2, silent_every=2), mix("○□○", 120, 2, silent_every=1))
    heard = strokes(strokes_only, RATE)
    assert heard == [(0, Drum.PI), (RATE // 2, Drum.GU), (RATE, Drum.PI)]
