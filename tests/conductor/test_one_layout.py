"""The conductor's laid-out strokes are the one truth: whatever the practice options, reading and
section, the same strokes (times to the sample, signs, drums, roles, levels) are found in the MIDI
file (read back with mido), in the rendered WAV file (each hit's sound found by analysis), in what a
live play sends to a MIDI port, and in the takes check and play --check expect.

The audio is mixed from a kit of impulses: 鼙 a unit sample on the left channel, 鼓 on the right,
the count sound (count strokes and clicks) on both two frames later; so every onset, its sound
and its gain can be read off the samples without knowing how the mix was made.
"""

from __future__ import annotations

import io
import tempfile
from fractions import Fraction
from pathlib import Path

import mido
import numpy as np
import pytest
import soundfile as sf
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from virtual_time import on_virtual_time

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Hit, Practice, Ramp, Role, Track
from drumscore.corpus import resolve
from drumscore.files.audio import stream_audio
from drumscore.model import READINGS, Drum
from drumscore.performance.check import CLICK, COUNT, LAYOUT_RATE, STROKE, Expected
from drumscore.play.midiport import MICROSECONDS
from drumscore.render.kit import Kit, Layer, Sample, Voice
from drumscore.render.midi import midi_bytes
from drumscore.render.midimap import MidiMap
from drumscore.render.mix import blocks, plan
from drumscore.timing import Tempo

#: The audio's rate: low, for speed; every time is compared at it to the sample.
RATE = 16_000
#: Short patterns, with and without 半 (so every section comes up).
NOTATIONS = ("○□○半□○", "□○○□", "○○□半□")
#: Tempi a MIDI file holds exactly (a whole number of microseconds a beat).
BPMS = (120, 150, 200, 240)
#: The count sound's impulse comes this many frames after its onset.
COUNT_DELAY = 2


def _impulse(at: int, left: float, right: float) -> Voice:
    data = np.zeros((COUNT_DELAY + 1, 2), dtype=np.float32)
    data[at] = (left, right)
    return Voice((Layer(1, (Sample(data, RATE, "impulse"),)),))


KIT = Kit(
    "impulses",
    RATE,
    {Drum.PI: _impulse(0, 1.0, 0.0), Drum.GU: _impulse(0, 0.0, 1.0)},
    count=_impulse(COUNT_DELAY, 1.0, 1.0),
)


@st.composite
def tracks(draw: st.DrawFn) -> Track:
    """A one-item track: a short pattern's section (or a span of it) under a reading, with any
    practice options: click 0–2 at a level, a count-in once or before every pass, silent passes,
    one drum, a ramp, 1–2 passes."""
    score = resolve(draw(st.sampled_from(NOTATIONS)))
    sections = ["she", "head", "touhu"] if score.pattern.half is not None else ["she"]
    section = draw(st.sampled_from(sections))
    n = len(score.pattern.section(section))
    span = None
    if draw(st.booleans()):
        first = draw(st.integers(1, n))
        span = f"{first}-{draw(st.integers(first, n))}"
    repeats = draw(st.integers(1, 2))
    ramp = Ramp.parse("120:240:40") if draw(st.booleans()) else None
    tempo = ramp.tempo(1) if ramp else Tempo.from_bpm(draw(st.sampled_from(BPMS)))
    reading = draw(st.sampled_from(READINGS))
    timeline = arrange(score, section, tempo, repeats, strokes_range=span, reading=reading)
    drums = sorted({s.drum for s in timeline.strokes}, key=lambda d: d.value)
    practice = Practice(
        click=draw(st.integers(0, 2)),
        click_velocity=draw(st.integers(30, 127)),
        count_each=draw(st.booleans()),
        silent_every=draw(st.integers(0, 2)),
        only=draw(st.sampled_from([None, *drums])),
        ramp=ramp,
    )
    return Track.single(timeline, draw(st.integers(0, 2)), practice=practice)


def heard(hits: list[Hit]) -> list[Hit]:
    return [hit for hit in hits if not hit.muted]


def midi_found(track: Track) -> tuple[list[tuple], list[tuple[float, str]]]:
    """From the MIDI file read back: (seconds, note, velocity, seconds the note lasts) of every
    note, and (seconds, text) of every marker, timed by mido from the file's tempo map."""
    midi = mido.MidiFile(file=io.BytesIO(midi_bytes(track)), charset="utf-8")
    now, notes, markers, sounding = 0.0, [], [], {}
    for msg in midi:
        now += msg.time
        if msg.type == "note_on" and msg.velocity:
            sounding[msg.note] = len(notes)
            notes.append([now, msg.note, msg.velocity, None])
        elif msg.type in ("note_off", "note_on"):
            at = sounding.pop(msg.note)
            notes[at][3] = now - notes[at][0]
        elif msg.type == "marker":
            markers.append((now, msg.text))
    return [tuple(n) for n in notes], markers


def audio_found(track: Track) -> list[tuple[int, str, float]]:
    """(onset frame, sound, gain) of every sound in the WAV file rendered (float samples at the
    kit's level, read back with soundfile), read off the impulses."""
    p = plan(track, KIT, RATE)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "take.wav"
        stream_audio(path, blocks(p, normalize=False), RATE, p.frames, subtype="FLOAT")
        audio, rate = sf.read(path, dtype="float32", always_2d=True)
    assert rate == RATE and len(audio) == p.frames
    found = []
    for f in np.flatnonzero(np.any(audio != 0, axis=1)):
        left, right = (float(x) for x in audio[f])
        if left == right:
            found.append((int(f) - COUNT_DELAY, "count", left))
        elif right == 0:
            found.append((int(f), Drum.PI.value, left))
        else:
            assert left == 0, (f, left, right)
            found.append((int(f), Drum.GU.value, right))
    return sorted(found)


def sound_of(hit: Hit) -> str:
    return "count" if hit.drum is None else hit.drum.value


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tracks())
def test_every_writer_player_and_checker_finds_the_strokes_the_conductor_laid_out(track):
    midimap = MidiMap()
    at_rate = track.hits(RATE)
    item = track.items[0]

    # the conductor's own hits: a stroke's sign as printed, its drum under the reading
    for hit in at_rate:
        if hit.role is Role.STROKE:
            printed = hit.timeline.printed[hit.index]
            assert hit.sign == printed.drum.symbol
            assert hit.drum is hit.timeline.reading.drum(printed)
            assert hit.number == hit.timeline.first_stroke + hit.in_pass
        else:
            assert hit.sign == "" and hit.drum is None

    # MIDI: every heard hit's note at its frame (to the sample), its velocity and note length
    notes, markers = midi_found(track)
    want = [
        (hit.frame, midimap.hit_note(hit.drum), hit.velocity, float(hit.note_seconds))
        for hit in heard(at_rate)
    ]
    got = [(round(t * RATE), note, v, length) for t, note, v, length in notes]
    assert sorted(g[:3] for g in got) == sorted(w[:3] for w in want)
    assert [g[3] for g in sorted(got)] == pytest.approx([w[3] for w in sorted(want)], abs=1e-6)
    section_at = next(h for h in at_rate if h.role is Role.STROKE)
    assert (section_at.frame, item.timeline.section.label) in [
        (round(t * RATE), text) for t, text in markers
    ]

    # audio: each heard hit's sound at its frame with its gain
    wav = audio_found(track)
    expected = sorted((hit.frame, sound_of(hit), hit.gain) for hit in heard(at_rate))
    assert [w[:2] for w in wav] == [e[:2] for e in expected]
    assert [w[2] for w in wav] == pytest.approx([e[2] for e in expected], rel=1e-5)

    # a live play on a MIDI port: each heard hit sent at its time (to the microsecond), each note
    # ended after its note length or when the next begins; every hit but a click yielded
    live = track.hits(MICROSECONDS)
    player, port = on_virtual_time(track, midimap)
    with player:
        yielded = [hit for hit in player.hits() if hit is not None]
    assert yielded == [hit for hit in live if hit.role is not Role.CLICK]
    ons = [(t, m) for t, m in port.sent if m.type == "note_on" and m.velocity]
    assert [(round(t * MICROSECONDS), m.note, m.velocity) for t, m in ons] == [
        (hit.frame, midimap.hit_note(hit.drum), hit.velocity) for hit in heard(live)
    ]
    sounding = heard(live)
    offs = [
        t for t, m in port.sent if m.type == "note_off" or (m.type == "note_on" and not m.velocity)
    ]
    assert len(offs) == len(sounding)
    for i, (hit, off) in enumerate(zip(sounding, offs, strict=True)):
        end = hit.frame / MICROSECONDS + float(hit.note_seconds)
        cut = sounding[i + 1].frame / MICROSECONDS if i + 1 < len(sounding) else end
        assert off == pytest.approx(min(end, cut), abs=1e-9)

    # check's expected take: the heard hits, at their times (to the sample at RATE)
    take = Expected.of_track(track)
    by_role = {STROKE: Role.STROKE, COUNT: Role.COUNT, CLICK: Role.CLICK}
    laid = track.hits(LAYOUT_RATE)
    assert sorted(
        (round(s.time * RATE), by_role[s.kind].value, s.drum, s.sign, s.index) for s in take.sounds
    ) == sorted(
        (
            hit.frame,
            hit.role.value,
            hit.drum,
            hit.sign,
            hit.k + 1 if hit.role is Role.STROKE else 0,
        )
        for hit in heard(at_rate)
    )
    assert take.silent == sum(hit.muted for hit in laid)
    assert [s.time for s in take.sounds] == sorted(s.time for s in take.sounds)

    # play --check's take, from what the live play yielded: every stroke the pads are to play
    # (all but those on the drum --only leaves to the player), at the same times as check's
    only = item.practice.only
    along = Expected.of_hits(
        yielded,
        MICROSECONDS,
        item.timeline,
        item=item,
        played=lambda hit: only is None or hit.drum is not only,
    )
    strokes = [s for s in along.sounds if s.kind == STROKE]
    want_strokes = [
        h for h in live if h.role is Role.STROKE and (only is None or h.drum is not only)
    ]
    assert [(s.index, s.drum, s.sign) for s in strokes] == [
        (h.k + 1, h.drum, h.sign) for h in want_strokes
    ]
    times = {s.index: s.time for s in take.sounds if s.kind == STROKE}
    for s in strokes:
        if s.index in times:
            assert s.time == pytest.approx(times[s.index], abs=1e-6)
        else:  # a stroke laid out silent in a render, played along live
            assert s.time == pytest.approx(
                next(h.frame for h in laid if h.role is Role.STROKE and h.k + 1 == s.index)
                / LAYOUT_RATE,
                abs=1e-6,
            )


def test_a_note_lasts_half_a_beat_and_a_click_half_its_subdivision():
    timeline = arrange(resolve("○□"), tempo=Tempo.from_bpm(120))
    track = Track.single(timeline, 1, practice=Practice(click=2))
    lengths = {(hit.role, hit.sub): hit.note_seconds for hit in track.hits(RATE)}
    assert lengths == {
        (Role.COUNT, 0): Fraction(1, 4),
        (Role.STROKE, 0): Fraction(1, 4),
        (Role.CLICK, 0): Fraction(1, 8),
        (Role.CLICK, Fraction(1, 2)): Fraction(1, 8),
    }
