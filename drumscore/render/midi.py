"""MIDI rendering with mido: a Timeline to a type-1 Standard MIDI File."""

from __future__ import annotations

import io

import mido

from drumscore.model import Section
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timeline import Timeline
from drumscore.track import Track

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


#: A MIDI time signature holds at most 255 beats; a longer bar gets none (see docs/rendering.md).
MAX_NUMERATOR = 255
SECTION_MARKERS = {Section.SHE: "射 she", Section.TOUHU: "投壺 touhu", Section.HEAD: "head"}
DRUMS_NAME = "鼙 ○ / 鼓 □"


def bar_starts(timeline: Timeline) -> list[tuple[int, int]]:
    """(first stroke k, length) of each bar: a new bar at every marker, as in the MusicXML."""
    total = len(timeline)
    cuts = sorted({0, *(m.k for m in timeline.markers() if 0 < m.k < total)})
    return [(k, end - k) for k, end in zip(cuts, [*cuts[1:], total], strict=True)]


def ascii_name(timeline: Timeline) -> str:
    """The track name for tools that read MIDI text as Latin-1: the score's key, section, tempo."""
    score = timeline.score
    if score.edition_id:
        name = score.key
    else:
        name = "notation " + score.pattern.notation.translate(ASCII_GLYPHS)
    return f"{name} {timeline.section.value} {float(timeline.tempo.bpm):g} bpm" + (
        f" x{timeline.repeats}" if timeline.repeats > 1 else ""
    )


#: ○ → o (鼙, pi), □ → # (鼓, gu), 半 → |.
ASCII_GLYPHS = str.maketrans({"○": "o", "□": "#", "半": "|"})


def to_midi(timeline: Timeline, midimap: MidiMap | None = None) -> mido.MidiFile:
    """One beat (a quarter note of TICKS_PER_BEAT ticks) per stroke, the tempo set to match.

    Track 0 holds the track name (UTF-8, then the same in ASCII as a text event), the citation,
    the tempo, a time signature per bar (one bar per section: the strokes before 半, after it, each
    repeat, as the MusicXML's hidden metre) and markers at the start of the section, at 半 and
    at each repeat. Track 1 holds the strokes on the General MIDI percussion channel and is named
    in ASCII, with the drums' names in UTF-8 as a text event.
    """
    midimap = midimap or MidiMap()
    tempo_us = round(timeline.tempo.interval * 1_000_000)
    conductor: list[tuple[int, mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name=timeline.description)),
        (0, mido.MetaMessage("text", text=timeline.citation)),
        (0, mido.MetaMessage("text", text=ascii_name(timeline))),
        (0, mido.MetaMessage("set_tempo", tempo=tempo_us)),
        (0, mido.MetaMessage("marker", text=SECTION_MARKERS[timeline.section])),
    ]
    previous = None
    for k, length in bar_starts(timeline):
        if length != previous and length <= MAX_NUMERATOR:
            metre = mido.MetaMessage("time_signature", numerator=length, denominator=4)
            conductor.append((k * TICKS_PER_BEAT, metre))
        previous = length
    conductor += [
        (m.k * TICKS_PER_BEAT, mido.MetaMessage("marker", text=m.text)) for m in timeline.markers()
    ]
    notes: list[tuple[int, mido.Message | mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name=f"Pi and Gu drums ({ascii_name(timeline)})")),
        (0, mido.MetaMessage("text", text=DRUMS_NAME)),
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
    # track names, text and markers hold CJK text: UTF-8 rather than mido's default Latin-1
    midi = mido.MidiFile(type=1, ticks_per_beat=TICKS_PER_BEAT, charset="utf-8")
    midi.tracks.append(_delta_track(conductor))
    midi.tracks.append(_delta_track(notes))
    return midi


def midi_bytes(timeline: Timeline, midimap: MidiMap | None = None) -> bytes:
    """The Standard MIDI File as bytes."""
    buffer = io.BytesIO()
    to_midi(timeline, midimap).save(file=buffer)
    return buffer.getvalue()


#: General MIDI 76, Hi Wood Block: the count-in's note, apart from both drums' notes.
COUNT_NOTE = 76


def _end_at(track: mido.MidiTrack, tick: int) -> None:
    """Move a track's end_of_track to `tick` if the track's last event comes earlier."""
    last = sum(msg.time for msg in track[:-1])
    track[-1] = track[-1].copy(time=max(0, tick - last))


def track_to_midi(track: Track, midimap: MidiMap | None = None) -> mido.MidiFile:
    """A drumscore.track.Track as a type-1 file: items one after another, each at its tempo.

    One beat is a quarter note of TICKS_PER_BEAT ticks and a set_tempo at each item gives its
    interval; a pause lasts its seconds at the tempo of the item before it. Track 0 holds a marker
    at each item (its label) and at each count-in, with the markers of each timeline; count
    strokes sound on COUNT_NOTE. Both tracks end at the track's last beat (and pause), so a
    loopable track loops on the beat in a sequencer too.
    """
    midimap = midimap or MidiMap()
    conductor: list[tuple[int, mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name=track.description)),
    ]
    if track.citation:
        conductor.append((0, mido.MetaMessage("text", text=track.citation)))
    notes: list[tuple[int, mido.Message | mido.MetaMessage]] = [
        (0, mido.MetaMessage("track_name", name="鼙 ○ / 鼓 □ / count"))
    ]
    starts, beat, tick = [], 0, 0
    for item in track.items:
        timeline = item.timeline
        starts.append((tick, beat))
        conductor.append(
            (tick, mido.MetaMessage("set_tempo", tempo=round(timeline.tempo.interval * 1_000_000)))
        )
        if len(track.items) > 1:
            conductor.append((tick, mido.MetaMessage("marker", text=item.label)))
        conductor.append((tick, mido.MetaMessage("text", text=timeline.citation)))
        if item.count_in:
            conductor.append((tick, mido.MetaMessage("marker", text=f"count-in {item.count_in}")))
        first = tick + item.count_in * TICKS_PER_BEAT
        conductor += [
            (first + m.k * TICKS_PER_BEAT, mido.MetaMessage("marker", text=m.text))
            for m in timeline.markers()
        ]
        tick = first + len(timeline) * TICKS_PER_BEAT
        tick += round(item.pause / timeline.tempo.interval * TICKS_PER_BEAT)
        beat += item.beats
    for hit in track.hits(48000):
        item_tick, item_beat = starts[hit.item]
        at = item_tick + (hit.beat - item_beat) * TICKS_PER_BEAT
        if hit.offset:
            at = max(0, at + round(hit.offset / hit.timeline.tempo.interval * TICKS_PER_BEAT))
        note = COUNT_NOTE if hit.drum is None else midimap.note(hit.drum)
        on = mido.Message("note_on", channel=PERCUSSION_CHANNEL, note=note, velocity=hit.velocity)
        notes.append((at, on))
        notes.append(
            (at + NOTE_TICKS, mido.Message("note_off", channel=PERCUSSION_CHANNEL, note=note))
        )
    midi = mido.MidiFile(type=1, ticks_per_beat=TICKS_PER_BEAT, charset="utf-8")
    for events in (conductor, notes):
        midi.tracks.append(_delta_track(events))
        _end_at(midi.tracks[-1], tick)
    return midi


def midi_bytes_of(track: Track, midimap: MidiMap | None = None) -> bytes:
    """track_to_midi as the bytes of a Standard MIDI File."""
    buffer = io.BytesIO()
    track_to_midi(track, midimap).save(file=buffer)
    return buffer.getvalue()
