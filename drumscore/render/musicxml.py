"""Staff notation: a Timeline as MusicXML through music21, ○ and □ kept as note shapes.

One percussion staff; 鼙 and 鼓 are two unpitched instruments on their own staff positions, with
the MIDI notes of the MidiMap so notation programs play what the MIDI file plays. The scores have
no metre, so each section is one bar under a hidden time signature (see docs/notation.md).
music21 is imported only inside these functions.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drumscore.errors import OptionError
from drumscore.model import Drum
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timeline import Timeline

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from music21 import stream


@dataclass(frozen=True, slots=True)
class StaffVoice:
    """How one drum is written: MusicXML notehead, staff position and instrument id."""

    notehead: str
    step: str
    octave: int
    instrument_id: str
    name: str


#: "normal" drawn hollow is a round ○; "la" (the shape-note square) drawn hollow is a □.
#: MuseScore 3 reads neither "square" nor "rectangle", but draws "la" square. Instrument names
#: stay ASCII: MuseScore 3 keeps drum names in Latin-1.
VOICES = {
    Drum.PI: StaffVoice("normal", "C", 5, "P1-PI", "Pi (small drum)"),
    Drum.GU: StaffVoice("la", "F", 4, "P1-GU", "Gu (big drum)"),
}
PART_ID = "P1"

#: What each lyrics choice writes under each stroke.
LYRICS = {
    "drum": {Drum.PI: "鼙", Drum.GU: "鼓"},
    "glyph": {Drum.PI: "○", Drum.GU: "□"},
    "pinyin": {Drum.PI: "pí", Drum.GU: "gǔ"},
}

HALF_MARK = "半"
#: Repeats are written out; beyond this many the export takes minutes and no one reads the page.
MAX_WRITTEN_REPEATS = 200


@dataclass(frozen=True, slots=True)
class Bar:
    """A run of strokes between markers: the first stroke's k, how many, the marker it opens."""

    start: int
    length: int
    marker: str = ""


def bars(timeline: Timeline) -> tuple[Bar, ...]:
    """The bars of a timeline: a new bar at every marker (半, each repeat)."""
    total = len(timeline)
    if timeline.repeats > MAX_WRITTEN_REPEATS:
        raise OptionError(
            f"repeats {timeline.repeats} is too many to write out as notation; use at most "
            f"{MAX_WRITTEN_REPEATS}, or write MIDI or audio for a longer backing track",
            option="repeats",
        )
    if total == 0:
        raise OptionError(f"{timeline.description!r} has no strokes, so there is nothing to write")
    cuts = {0: ""}
    for marker in timeline.markers():
        if 0 < marker.k < total:
            cuts[marker.k] = marker.text
    starts = sorted(cuts)
    ends = [*starts[1:], total]
    return tuple(Bar(s, e - s, cuts[s]) for s, e in zip(starts, ends, strict=True))


def check_lyrics(lyrics: str | None) -> str | None:
    """The lyrics choice, or an OptionError naming the choices."""
    if lyrics is None or lyrics in LYRICS:
        return lyrics
    choices = ", ".join(repr(k) for k in LYRICS)
    raise OptionError(f"lyrics {lyrics!r} is not known; choose one of {choices}", option="lyrics")


def _bpm_number(timeline: Timeline) -> int | float:
    bpm = timeline.tempo.bpm
    return int(bpm) if bpm.denominator == 1 else float(round(bpm, 3))


def build_score(
    timeline: Timeline, midimap: MidiMap | None = None, lyrics: str | None = None
) -> stream.Score:
    """The music21 Score: percussion clef, a bar per section, 半 marked after a double bar."""
    from music21 import bar, clef, expressions, instrument, metadata, meter, note, stream, tempo

    midimap = midimap or MidiMap()
    chosen = check_lyrics(lyrics)
    words = LYRICS[chosen] if chosen else None
    score = stream.Score()
    score.metadata = metadata.Metadata()
    score.metadata.title = timeline.score.title
    # MuseScore heads the page with the movement title alone, so it carries the whole heading.
    score.metadata.movementName = timeline.heading

    part = stream.Part(id=PART_ID)
    kit = instrument.UnpitchedPercussion()
    kit.partName = "鼙 ○ 鼓 □"
    kit.partAbbreviation = "鼓"
    part.insert(0, kit)

    events = list(timeline.events())
    velocity = velocities(timeline, midimap)
    metres: dict[int, meter.TimeSignature] = {}
    layout = bars(timeline)
    previous_length = None
    for number, span in enumerate(layout, 1):
        measure = stream.Measure(number=number)
        if number == 1:
            measure.insert(0, clef.PercussionClef())
        if span.length != previous_length:
            measure.insert(0, _hidden_metre(span.length, metres))
            previous_length = span.length
        if number == 1:
            mark = tempo.MetronomeMark(
                text="間若一", number=_bpm_number(timeline), referent=note.Note(type="quarter")
            )
            measure.insert(0, mark)
        if span.marker == HALF_MARK:
            measure.insert(0, expressions.RehearsalMark(HALF_MARK))
        elif span.marker:
            measure.insert(0, expressions.TextExpression(span.marker))
        strokes = events[span.start : span.start + span.length]
        measure.append([_stroke_note(e.drum, velocity[e.drum], words) for e in strokes])
        following = layout[number] if number < len(layout) else None
        if following is None:
            measure.rightBarline = bar.Barline("final")
        elif following.marker == HALF_MARK:
            measure.rightBarline = bar.Barline("double")
        part.append(measure)
    score.insert(0, part)
    return score


def _hidden_metre(length: int, made: dict):
    """A time signature of `length` quarters, not printed; copies are far cheaper than new ones."""
    import copy

    from music21 import meter

    if length not in made:
        made[length] = meter.TimeSignature(f"{length}/4")
        made[length].style.hideObjectOnPrint = True
    return copy.deepcopy(made[length])


def velocities(timeline: Timeline, midimap: MidiMap) -> dict[Drum, int]:
    """Each drum's velocity in the notation: the timeline's expression, else the MidiMap's.

    Notation is written on the even beat, so humanizing (which varies each stroke) is left out.
    """
    expression = timeline.expression
    given: dict[Drum, int | None] = {Drum.PI: None, Drum.GU: None}
    if expression is not None:
        given = {Drum.PI: expression.pi_velocity, Drum.GU: expression.gu_velocity}
    return {d: v if (v := given[d]) is not None else midimap.velocity(d) for d in Drum}


def _stroke_note(drum: Drum, velocity: int, words: dict[Drum, str] | None):
    from music21 import note

    voice = VOICES[drum]
    n = note.Unpitched(displayName=f"{voice.step}{voice.octave}", type="quarter")
    n.notehead = voice.notehead
    n.noteheadFill = False
    n.stemDirection = "noStem"
    n.volume.velocity = velocity  # written as the note's dynamics, velocity / 90 × 100
    if words:
        n.addLyric(words[drum])
    return n


def musicxml_bytes(
    timeline: Timeline, midimap: MidiMap | None = None, lyrics: str | None = None
) -> bytes:
    """An uncompressed MusicXML 4.0 document (UTF-8) for the timeline."""
    from music21.musicxml.m21ToXml import ScoreExporter

    midimap = midimap or MidiMap()
    # The bars are complete as built; music21's makeNotation pass would only copy them again.
    exporter = ScoreExporter(build_score(timeline, midimap, lyrics), makeNotation=False)
    root = exporter.parse()
    _add_instruments(root, timeline, midimap)
    return exporter.asBytes()


def _add_instruments(root: Element, timeline: Timeline, midimap: MidiMap) -> None:
    """Give the part one instrument per drum and tag every note with its drum's instrument.

    music21 writes a single instrument per part, so the two drums are added to the tree here.
    """
    from xml.etree.ElementTree import Element, SubElement

    identification = root.find("identification")
    if identification is not None:
        for creator in identification.findall("creator"):
            if creator.text == "Music21":
                identification.remove(creator)
        source = Element("source")
        source.text = _source_text(timeline)
        encoding = identification.find("encoding")
        at = list(identification).index(encoding) + 1 if encoding is not None else 0
        identification.insert(at, source)

    for direction in root.iter("direction"):
        direction.set("placement", direction.get("placement", "above"))

    score_part = root.find("part-list/score-part")
    assert score_part is not None  # music21 always writes one
    for old in score_part.findall("score-instrument") + score_part.findall("midi-instrument"):
        score_part.remove(old)
    at = [child.tag for child in score_part].index("part-name") + 1
    abbreviation = score_part.find("part-abbreviation")
    if abbreviation is not None:
        at = list(score_part).index(abbreviation) + 1
    entries = []
    for drum in Drum:
        voice = VOICES[drum]
        inst = Element("score-instrument", id=voice.instrument_id)
        SubElement(inst, "instrument-name").text = voice.name
        entries.append(inst)
    for drum in Drum:
        midi = Element("midi-instrument", id=VOICES[drum].instrument_id)
        SubElement(midi, "midi-channel").text = str(PERCUSSION_CHANNEL + 1)
        SubElement(midi, "midi-unpitched").text = str(midimap.note(drum) + 1)
        entries.append(midi)
    score_part[at:at] = entries

    by_position = {(v.step, str(v.octave)): v.instrument_id for v in VOICES.values()}
    for xml_note in root.iter("note"):
        position = (
            xml_note.findtext("unpitched/display-step"),
            xml_note.findtext("unpitched/display-octave"),
        )
        ident = by_position[position]  # type: ignore[index]
        for old in xml_note.findall("instrument"):
            xml_note.remove(old)
        tags = [child.tag for child in xml_note]
        at = max(tags.index(t) for t in ("duration", "tie") if t in tags) + 1
        xml_note.insert(at, Element("instrument", id=ident))


def _source_text(timeline: Timeline) -> str:
    score = timeline.score
    if not score.edition_id:
        return f"notation {score.pattern.notation}"
    citation = score.source.citation if score.source and score.source.citation else ""
    return f"{citation or score.edition_name}; {score.key} as printed: {score.printed}"


CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container>
  <rootfiles>
    <rootfile full-path="score.musicxml" media-type="application/vnd.recordare.musicxml+xml"/>
  </rootfiles>
</container>
"""


def mxl_bytes(
    timeline: Timeline, midimap: MidiMap | None = None, lyrics: str | None = None
) -> bytes:
    """Compressed MusicXML (.mxl): a zip with the mimetype first, container, and the score."""
    document = musicxml_bytes(timeline, midimap, lyrics)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("mimetype", "application/vnd.recordare.musicxml")
        archive.writestr("META-INF/container.xml", CONTAINER, zipfile.ZIP_DEFLATED)
        archive.writestr("score.musicxml", document, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()
