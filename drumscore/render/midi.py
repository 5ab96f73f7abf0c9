"""MIDI rendering with mido: a Timeline to a type-1 Standard MIDI File."""

from __future__ import annotations

import io

import mido

from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timeline import Timeline

TICKS_PER_BEAT = 480
#: A stroke's note lasts half the interval, so notes never overlap.
NOTE_TICKS = TICKS_PER_BEAT // 2


def _delta_track(events: list[tuple[int, mido.Message | mido.MetaMessage]]) -> mido.MidiTrack:
    """A track from (absolute tick, message) pairs, stable-sorted, with delta times."""
    track = mido.MidiTrack()
    now = 0
    for tick, msg in sorted(events, key=lambda e: e[0]):
        track.append(msg.copy(time=tick - now))
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=0))
    return track


def to_midi(timeline: Timeline, midimap: MidiMap | None = None) -> mido.MidiFile:
    """One beat (a quarter note of TICKS_PER_BEAT ticks) per stroke, the tempo set to match.

    Track 0 holds the tempo, track name and markers (半, each repeat); track 1 the strokes on the
    General MIDI percussion channel.
    """
    midimap = midimap or MidiMap()
    tempo_us = round(timeline.tempo.interval * 1_000_000)
    conductor: list[tuple[int, mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name=timeline.description)),
        (0, mido.MetaMessage("text", text=timeline.citation)),
        (0, mido.MetaMessage("set_tempo", tempo=tempo_us)),
    ]
    conductor += [
        (m.k * TICKS_PER_BEAT, mido.MetaMessage("marker", text=m.text)) for m in timeline.markers()
    ]
    notes: list[tuple[int, mido.Message | mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name="鼙 ○ / 鼓 □"))
    ]
    for event in timeline.events():
        tick = event.k * TICKS_PER_BEAT
        if event.offset:
            tick = max(0, tick + round(event.offset / timeline.tempo.interval * TICKS_PER_BEAT))
        note = midimap.note(event.drum)
        notes.append(
            (
                tick,
                mido.Message(
                    "note_on", channel=PERCUSSION_CHANNEL, note=note, velocity=event.velocity
                ),
            )
        )
        notes.append(
            (tick + NOTE_TICKS, mido.Message("note_off", channel=PERCUSSION_CHANNEL, note=note))
        )
    # track names and markers hold CJK text: UTF-8 rather than mido's default Latin-1
    midi = mido.MidiFile(type=1, ticks_per_beat=TICKS_PER_BEAT, charset="utf-8")
    midi.tracks.append(_delta_track(conductor))
    midi.tracks.append(_delta_track(notes))
    return midi


def midi_bytes(timeline: Timeline, midimap: MidiMap | None = None) -> bytes:
    """The Standard MIDI File as bytes."""
    buffer = io.BytesIO()
    to_midi(timeline, midimap).save(file=buffer)
    return buffer.getvalue()
