"""MIDI rendering: a Track (or one score's Timeline) to a type-1 Standard MIDI File.

The file's bytes are written here directly (midi_bytes), as mido writes them (running status,
the same meta events), a few times faster than through mido's message objects; `to_midi`
gives the same file as a mido.MidiFile, read back from those bytes.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import BEAT_RATE, Hit, Item, Role, Track, as_track
from drumscore.i18n import in_english
from drumscore.model import HALF, Drum, Reading
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timing import Tempo

if TYPE_CHECKING:
    import mido

TICKS_PER_BEAT = 480

#: One event of a track: its bytes after the delta time (a meta event whole, a channel message
#: with its status byte; running status is applied as the track is written).
Event = bytes


def _number(value: int) -> bytes:
    """A variable-length quantity (a delta time, a meta event's length)."""
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def _meta(kind: int, data: bytes) -> Event:
    return b"\xff" + bytes((kind,)) + _number(len(data)) + data


_END_OF_TRACK = _meta(0x2F, b"")


def _track_chunk(events: list[tuple[int, Event]], end: int | None) -> bytes:
    """A track's chunk from (absolute tick, event) pairs, stable-sorted, with delta times and
    running status as mido writes them; its end of track at tick `end` if the last event comes
    earlier (None: right after the last event)."""
    data = bytearray()
    now = 0
    running = None
    for tick, event in sorted(events, key=lambda e: e[0]):
        data += _number(tick - now)
        now = tick
        status = event[0]
        if status == running:
            data += event[1:]
        else:
            data += event
            running = status if status < 0xF0 else None
    data += _number(max(0, end - now) if end is not None else 0) + _END_OF_TRACK
    return b"MTrk" + struct.pack(">I", len(data)) + data


#: A MIDI time signature holds at most 255 beats; a longer bar gets none (see docs/rendering.md).
MAX_NUMERATOR = 255


def drums_name(readings: Sequence[Reading]) -> str:
    """The drums with the signs that strike them in each of `readings` (one, as a rule):
    "鼙 ○ / 鼓 □" as 鄭玄 reads them, "鼙 □ / 鼓 ○" as 毛奇齡 does."""
    named = dict.fromkeys(" / ".join(r.label(d) for d in Drum) for r in readings)
    return "; ".join(named)


def bar_starts(timeline: Timeline) -> list[tuple[int, int]]:
    """(first stroke k, length) of each bar: a new bar at every marker, as in the MusicXML."""
    total = len(timeline)
    cuts = sorted({0, *(m.k for m in timeline.markers() if 0 < m.k < total)})
    return [(k, end - k) for k, end in zip(cuts, [*cuts[1:], total], strict=True)]


def ascii_name(timeline: Timeline) -> str:
    """The track name for tools that read MIDI text as Latin-1: the score's key, section, tempo,
    repeats and (when it is not 鄭玄's) reading."""
    score = timeline.score
    if score.edition_id:
        name = score.key
    else:
        name = "notation " + score.pattern.notation.translate(ASCII_GLYPHS)
    repeats = f" x{timeline.repeats}" if timeline.repeats > 1 else ""
    reading = "" if timeline.reading.is_default else f" reading {timeline.reading.id}"
    return f"{name} {timeline.section.value} {float(timeline.tempo.bpm):g} bpm{repeats}{reading}"


#: ○ → o (鼙, pi), □ → # (鼓, gu), 半 → |.
ASCII_GLYPHS = str.maketrans({Drum.PI.symbol: "o", Drum.GU.symbol: "#", HALF: "|"})


#: The meta events of text, by name; their text in UTF-8 (CJK names and citations), which the
#: file is read back with (mido's default is Latin-1).
_TEXTS = {"text": 0x01, "track_name": 0x03, "marker": 0x06}


def _text(kind: str, text: str) -> Event:
    return _meta(_TEXTS[kind], text.encode("utf-8"))


def _metres(item: Item, first: int) -> list[tuple[int, Event]]:
    """A time signature at each bar whose length changes (none past MAX_NUMERATOR beats): a bar
    per section of each pass, as in the MusicXML, and one for each count-in."""
    found, previous = [], None
    for beat, length in _bars(item):
        if length != previous and length <= MAX_NUMERATOR:
            # length/4, a click each quarter (24 clocks), eight 32nd notes a quarter
            metre = _meta(0x58, bytes((length, 2, 24, 8)))
            found.append((first + beat * TICKS_PER_BEAT, metre))
        previous = length
    return found


def _bars(item: Item) -> list[tuple[int, int]]:
    """(first beat from the item's start, length in beats) of each bar of an item: its count-ins
    (before the first pass, or each) and the bars of its timeline (bar_starts)."""
    n = len(item.timeline.strokes)
    bars = []
    for k, length in bar_starts(item.timeline):
        counted = k == 0 or (item.practice.count_each and k % n == 0)
        if item.count_in and counted:
            bars.append((item.beat_of(k) - item.count_in, item.count_in))
        bars.append((item.beat_of(k), length))
    return bars


def _tempo(tempo: Tempo) -> Event:
    return _meta(0x51, round(tempo.interval * 1_000_000).to_bytes(3, "big"))


def item_texts(item: Item) -> list[str]:
    """What the MIDI file says of an item beyond its citation, in English: the reading (always,
    鄭玄's too) and the practice options (ramp, click, count-in every pass, silent passes, one
    drum); its count-ins are marked where they start."""
    reading = item.timeline.reading
    texts = [f"reading: {reading.id} ({reading.name})"]
    if not item.practice.plain:
        texts.append(f"practice: {item.practice.parameters}")
    return texts


def _beat_tick(hit: Hit, starts: Sequence[tuple[int, int]]) -> int:
    """The tick of a hit's beat: its item's first tick, a beat a quarter, a click's share of a
    beat added (where the markers and bars stand)."""
    item_tick, item_beat = starts[hit.item]
    return item_tick + (hit.beat - item_beat) * TICKS_PER_BEAT + round(hit.sub * TICKS_PER_BEAT)


def _stroke_markers(hit: Hit) -> list[str]:
    """The markers that stand at a stroke: its section's at the first stroke of the first pass,
    a repeat's at the first stroke of each later pass, and 半 at the stroke after it."""
    if hit.role is not Role.STROKE:
        return []
    found = []
    if hit.index == 0:
        found.append(hit.timeline.section.label if hit.pass_no == 1 else f"repeat {hit.pass_no}")
    if hit.index == hit.timeline.half_index:
        found.append(HALF)
    return found


#: A note's start on the percussion channel, and each note's end (its velocity 64, as mido
#: writes a note_off).
_NOTE_ON = 0x90 | PERCUSSION_CHANNEL
_NOTE_OFF = tuple(bytes((0x80 | PERCUSSION_CHANNEL, note, 64)) for note in range(128))


def to_midi(played: Timeline | Track, midimap: MidiMap | None = None) -> mido.MidiFile:
    """The file of midi_bytes as a mido.MidiFile (read back from its bytes, its texts in UTF-8)."""
    import mido

    return mido.MidiFile(file=io.BytesIO(midi_bytes(played, midimap)), charset="utf-8")


@in_english
def midi_bytes(played: Timeline | Track, midimap: MidiMap | None = None) -> bytes:
    """A track (or one score's timeline) as a type-1 file: items one after another, each at its
    tempo, one beat (a quarter note of TICKS_PER_BEAT ticks) per stroke; its names and texts in
    English whatever the reader's language, so that a render is the same file in every one.

    Track 0 holds the track name, the citation, a set_tempo at each item (each pass of a ramp)
    and, whatever the options, for each item its citation, its name in ASCII, its reading and
    its practice options (item_texts) as text events; a marker of each count-in at its first
    count stroke, and on the beats of the strokes they name a marker of the section (its first
    stroke after the count-in), of each repeat and of each 半; and a time signature per bar
    (one bar per section and per count-in, as the MusicXML's hidden metre); a track of several
    items also marks each item (its label). A track with a count-in, a practice option, a loop
    or several items ends both tracks at its last beat (and pause), so a loopable track loops
    on the beat in a sequencer too. Track 1 holds the hits as the conductor lays them out, on
    the General MIDI percussion channel (count strokes and clicks on the map's count_note), each
    note as long as the hit's note_beats; a pause lasts its seconds at the tempo of the item
    before it.
    """
    midimap = midimap or MidiMap()
    track = as_track(played)
    plain = track.plain
    single = len(track.items) == 1
    conductor = [(0, _text("track_name", track.description))]
    if single:
        name = ascii_name(track.first)
        conductor += [(0, _text("text", track.first.citation)), (0, _text("text", name))]
        notes = [
            (0, _text("track_name", f"Pi and Gu drums ({name})")),
            (0, _text("text", drums_name([track.first.reading]))),
        ]
    else:
        conductor += [(0, _text("text", str(track.citation)))] if track.citation else []
        readings = [item.timeline.reading for item in track.items]
        notes = [(0, _text("track_name", f"{drums_name(readings)} / count"))]
    starts: list[tuple[int, int]] = []
    beat, tick = 0, 0
    for item in track.items:
        timeline = item.timeline
        starts.append((tick, beat))
        passes = range(timeline.repeats) if item.practice.ramp is not None else range(1)
        at = tick
        for p in passes:  # one tempo for the item, or one for each pass of a ramp
            conductor.append((at, _tempo(item.tempo_of(p))))
            at += item.pass_beats(p) * TICKS_PER_BEAT
        if not single:
            conductor.append((tick, _text("marker", str(item.label))))
            conductor.append((tick, _text("text", timeline.citation)))
            conductor.append((tick, _text("text", ascii_name(timeline))))
        conductor += [(tick, _text("text", text)) for text in item_texts(item)]
        conductor += _metres(item, tick)
        last = item.tempo_of(timeline.repeats - 1)
        tick += item.beats * TICKS_PER_BEAT + round(item.pause / last.interval * TICKS_PER_BEAT)
        beat += item.beats
    marked, sounded = _hit_events(track, starts, midimap)
    conductor += marked
    notes += sounded
    header = b"MThd" + struct.pack(">Ihhh", 6, 1, 2, TICKS_PER_BEAT)
    end = None if plain else tick
    return header + _track_chunk(conductor, end) + _track_chunk(notes, end)


#: The events of a plain track's hits (_hit_events), by what they are made of, for the scores
#: that play the same strokes (a site's editions that print one reading): made once.
_HIT_EVENTS: dict[tuple, tuple[list[tuple[int, Event]], list[tuple[int, Event]]]] = {}
HIT_EVENTS_KEPT = 64


def _hit_events(
    track: Track, starts: Sequence[tuple[int, int]], midimap: MidiMap
) -> tuple[list[tuple[int, Event]], list[tuple[int, Event]]]:
    """The markers (count-ins, sections, repeats, 半) and the notes of the track's hits. A plain
    track's (one timeline, no expression) are made once for its strokes, section, tempo,
    repeats, 半 and map, whatever score prints them."""
    key: tuple | None = None
    timeline = track.first
    if track.plain and timeline.expression is None:
        drums = tuple(s.drum for s in timeline.strokes)
        key = (drums, timeline.section, timeline.tempo, timeline.repeats, timeline.half_index)
        key += (midimap,)
        found = _HIT_EVENTS.get(key)
        if found is not None:
            return found
    conductor: list[tuple[int, Event]] = []
    notes: list[tuple[int, Event]] = []
    for hit in track.hits(BEAT_RATE):
        at = _beat_tick(hit, starts)
        if hit.role is Role.COUNT and hit.k == 0:
            conductor.append((at, _text("marker", f"count-in {hit.count_in}")))
        conductor += [(at, _text("marker", text)) for text in _stroke_markers(hit)]
        if hit.muted:
            continue
        if hit.offset:  # humanized: the note moves from its beat, at the tempo it is laid at
            at = max(0, at + round(hit.offset / hit.timeline.tempo.interval * TICKS_PER_BEAT))
        note = midimap.hit_note(hit.drum)
        on = bytes((_NOTE_ON, note, hit.velocity))
        notes += [(at, on), (at + round(hit.note_beats * TICKS_PER_BEAT), _NOTE_OFF[note])]
    if key is not None:
        if len(_HIT_EVENTS) >= HIT_EVENTS_KEPT:
            del _HIT_EVENTS[next(iter(_HIT_EVENTS))]
        _HIT_EVENTS[key] = (conductor, notes)
    return conductor, notes
