"""MIDI rendering with mido: a Track (or one score's Timeline) to a type-1 Standard MIDI File."""

from __future__ import annotations

import io
import threading
from collections.abc import Sequence

import mido

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import BEAT_RATE, Hit, Item, Role, Track, as_track
from drumscore.i18n import in_english
from drumscore.model import HALF, Drum, Reading
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timing import Tempo

TICKS_PER_BEAT = 480


def _delta_track(events: list[tuple[int, mido.Message | mido.MetaMessage]]) -> mido.MidiTrack:
    """A track from (absolute tick, message) pairs, stable-sorted, with delta times: each
    message, made for this track alone, takes its delta time itself (a copy costs 30 times more)."""
    track = mido.MidiTrack()
    now = 0
    for tick, msg in sorted(events, key=lambda e: e[0]):
        msg.time = tick - now
        track.append(msg)
        now = tick
    track.append(mido.MetaMessage("end_of_track", time=0))
    return track


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


def _end_at(track: mido.MidiTrack, tick: int) -> None:
    """Move a track's end_of_track to `tick` if the track's last event comes earlier."""
    last = sum(msg.time for msg in track[:-1])
    track[-1] = track[-1].copy(time=max(0, tick - last))


def _text(kind: str, text: str) -> mido.MetaMessage:
    return (
        mido.MetaMessage(kind, text=text)
        if kind != "track_name"
        else mido.MetaMessage(kind, name=text)
    )


def _metres(item: Item, first: int) -> list[tuple[int, mido.MetaMessage]]:
    """A time signature at each bar whose length changes (none past MAX_NUMERATOR beats): a bar
    per section of each pass, as in the MusicXML, and one for each count-in."""
    found, previous = [], None
    for beat, length in _bars(item):
        if length != previous and length <= MAX_NUMERATOR:
            metre = mido.MetaMessage("time_signature", numerator=length, denominator=4)
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


def _tempo(tempo: Tempo) -> mido.MetaMessage:
    return mido.MetaMessage("set_tempo", tempo=round(tempo.interval * 1_000_000))


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


@in_english
def to_midi(played: Timeline | Track, midimap: MidiMap | None = None) -> mido.MidiFile:
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
    return _midi_file(as_track(played), midimap or MidiMap(), shared=False)


def midi_bytes(played: Timeline | Track, midimap: MidiMap | None = None) -> bytes:
    """to_midi as the bytes of a Standard MIDI File. The music of one score's timeline (all
    but the score's words: its name and citation) is laid out once (see _music_key), however
    many scores print it: a site writes each music for every edition, section and reading."""
    buffer = io.BytesIO()
    midi = in_english(_midi_file)(as_track(played), midimap or MidiMap(), shared=True)
    with _SAVING:
        midi.save(file=buffer)
    return buffer.getvalue()


#: One save at a time: mido sets the charset of meta messages in a module global for the length
#: of a save and then puts the old one back, so two saves on two threads (a batch's files) could
#: leave one writing its CJK text in mido's Latin-1.
_SAVING = threading.Lock()


#: A music's tracks after their words, by _music_key (the messages after the head's, with their
#: delta times): shared only by the files midi_bytes writes, which no caller can change.
_musics: dict[tuple[object, ...], tuple[mido.MidiTrack, mido.MidiTrack]] = {}
#: The most musics kept (a site holds a dozen musics, each in three sections and two readings).
MUSICS_KEPT = 64


def _music_key(played: Track, midimap: MidiMap) -> tuple[object, ...] | None:
    """What the MIDI of a score's plain timeline depends on besides the score's words: its
    notation (the drums struck and where 半 stands), section, span, tempo, repeats, expression
    and reading, and the map; None for a track of several items or practice options."""
    if not played.plain:
        return None
    timeline = played.first
    return (
        timeline.score.pattern.notation,
        timeline.section,
        timeline.span,
        timeline.tempo,
        timeline.repeats,
        timeline.expression,
        timeline.reading,
        midimap,
    )


def _midi_file(played: Track, midimap: MidiMap, *, shared: bool) -> mido.MidiFile:
    """The file of to_midi: each track's words (_heads), then its music (_music), made once
    for every score of one music where `shared` (the file's messages are then shared)."""
    key = _music_key(played, midimap) if shared else None
    music = _musics.get(key) if key is not None else None
    if music is None:
        music = _music(played, midimap)
        if key is not None:
            for oldest in list(_musics)[: max(0, len(_musics) - MUSICS_KEPT + 1)]:
                _musics.pop(oldest, None)  # (a batch's threads may let the same one go)
            _musics[key] = music
    # track names, text and markers hold CJK text: UTF-8 rather than mido's default Latin-1
    midi = mido.MidiFile(type=1, ticks_per_beat=TICKS_PER_BEAT, charset="utf-8")
    for head, rest in zip(_heads(played), music, strict=True):
        midi.tracks.append(mido.MidiTrack([*head, *rest]))
    return midi


def _heads(played: Track) -> tuple[list[mido.MetaMessage], list[mido.MetaMessage]]:
    """The words at the start of each track (at tick 0, before all else): the track's name and
    the score's citation and name (or the programme's), and the drums' track's name."""
    conductor = [_text("track_name", played.description)]
    if len(played.items) == 1:
        name = ascii_name(played.first)
        conductor += [_text("text", played.first.citation), _text("text", name)]
        notes = [
            _text("track_name", f"Pi and Gu drums ({name})"),
            _text("text", drums_name([played.first.reading])),
        ]
    else:
        conductor += [_text("text", str(played.citation))] if played.citation else []
        readings = [item.timeline.reading for item in played.items]
        notes = [_text("track_name", f"{drums_name(readings)} / count")]
    return conductor, notes


def _music(track: Track, midimap: MidiMap) -> tuple[mido.MidiTrack, mido.MidiTrack]:
    """Each track's messages after its words (_heads), their delta times from the words' tick 0."""
    plain = track.plain
    single = len(track.items) == 1
    conductor: list[tuple[int, mido.Message | mido.MetaMessage]] = []
    notes: list[tuple[int, mido.Message | mido.MetaMessage]] = []
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
        on = mido.Message("note_on", channel=PERCUSSION_CHANNEL, note=note, velocity=hit.velocity)
        off = mido.Message("note_off", channel=PERCUSSION_CHANNEL, note=note)
        notes += [(at, on), (at + round(hit.note_beats * TICKS_PER_BEAT), off)]
    tracks = []
    for events in (conductor, notes):
        tracks.append(_delta_track(events))
        if not plain:
            _end_at(tracks[-1], tick)
    return tracks[0], tracks[1]
