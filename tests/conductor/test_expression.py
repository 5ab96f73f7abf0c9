"""Expression: the strictly even default, seeded humanizing, and WAV and MIDI agreeing."""

from __future__ import annotations

import io

import mido
import numpy as np
import pytest
import soundfile as sf

from drumscore.conductor.expression import MAX_HUMANIZE_MS, Expression, default_velocity
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.model import Drum
from drumscore.render.kit import load_kit
from drumscore.render.midi import TICKS_PER_BEAT, midi_bytes
from drumscore.render.mix import render_audio
from drumscore.timing import Tempo


def timeline(expression=None, bpm="90", repeats=3):
    return arrange(resolve("lu"), tempo=Tempo.from_bpm(bpm), repeats=repeats, expression=expression)


def test_default_is_strictly_even():
    for ex in (None, Expression()):
        events = list(Track.single(timeline(ex)).hits(44100))
        assert all(e.offset == 0 for e in events)
        assert {(e.drum, e.velocity) for e in events} == {(Drum.PI, 72), (Drum.GU, 112)}
        assert [e.k for e in events] == list(range(len(events)))


def test_velocity_per_drum():
    events = list(Track.single(timeline(Expression(pi_velocity=30, gu_velocity=100))).hits(44100))
    assert {e.velocity for e in events if e.drum is Drum.PI} == {30}
    assert {e.velocity for e in events if e.drum is Drum.GU} == {100}
    assert all(e.offset == 0 for e in events)


def test_humanize_is_reproducible_from_its_seed_and_bounded():
    a = list(Track.single(timeline(Expression(humanize_ms=12, seed=7))).hits(44100))
    b = list(Track.single(timeline(Expression(humanize_ms=12, seed=7))).hits(44100))
    c = list(Track.single(timeline(Expression(humanize_ms=12, seed=8))).hits(44100))
    assert a == b
    assert [e.offset for e in a] != [e.offset for e in c]
    assert len({e.offset for e in a}) > len(a) // 2
    assert all(abs(e.offset) <= 0.012 for e in a) and a[0].offset >= 0
    for e in a:
        base = default_velocity(e.drum)
        assert abs(e.velocity - base) <= round(base * 0.1) + 1


def click_kit(folder, rate):
    sf.write(str(folder / "c.wav"), np.array([[1.0]], np.float32), rate, subtype="FLOAT")
    (folder / "kit.toml").write_text("[pi]\nsamples=['c.wav']\n[gu]\nsamples=['c.wav']\n")
    return load_kit(folder)


def midi_notes(data: bytes, interval: float) -> list[tuple[float, int]]:
    """(seconds, velocity) of each note-on, read back with mido."""
    found, tick = [], 0
    for msg in mido.MidiFile(file=io.BytesIO(data)).tracks[1]:
        tick += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            found.append((tick / TICKS_PER_BEAT * interval, msg.velocity))
    return found


@pytest.mark.parametrize("ex", [Expression(), Expression(50, 90, humanize_ms=15, seed=3)])
def test_wav_and_midi_agree_on_times_and_velocities(tmp_path, ex):
    rate = 48000
    tl = timeline(ex, bpm="75")
    interval = float(tl.tempo.interval)
    audio = render_audio(tl, click_kit(tmp_path, rate), rate)
    where = np.flatnonzero(audio[:, 0])
    notes = midi_notes(midi_bytes(tl), interval)
    assert len(where) == len(notes) == len(tl)
    tick = interval / TICKS_PER_BEAT
    for sample, (seconds, _) in zip(where, notes, strict=True):
        assert abs(sample / rate - seconds) <= tick / 2 + 1 / rate
    # Heights follow velocity relative to each drum's default velocity.
    events = list(Track.single(tl).hits(44100))
    relative = [e.velocity / {Drum.PI: 72, Drum.GU: 112}[e.drum] for e in events]
    heights = audio[where, 0]
    assert np.allclose(heights / heights[0], np.array(relative) / relative[0], rtol=1e-5)
    assert [v for _, v in notes] == [e.velocity for e in events]


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"velocity": "72"}, "1 item where it takes 2"),
        ({"velocity": "a,b"}, "two MIDI velocities"),
        ({"velocity": "0,100"}, "outside 1-127"),
        ({"velocity": "72,128"}, "outside 1-127"),
        ({"humanize": "-1"}, "humanize"),
        ({"humanize": "x"}, "humanize"),
        ({"humanize": str(MAX_HUMANIZE_MS + 1)}, "humanize"),
        ({"humanize": "nan"}, "humanize"),
        ({"humanize": "5", "seed": "-1"}, "seed"),
        ({"humanize": "5", "seed": "x"}, "seed"),
        ({"seed": "3"}, "humanize"),
    ],
)
def test_bad_expression_options(kwargs, needle):
    with pytest.raises(OptionError) as info:
        Expression.from_options(**kwargs)
    assert needle in str(info.value)
    assert "--" not in str(info.value)  # the library names parameters, not flags
    assert info.value.option in kwargs


def test_humanize_too_wide_for_the_tempo():
    with pytest.raises(OptionError, match="too much"):
        timeline(Expression(humanize_ms=40), bpm="900")
