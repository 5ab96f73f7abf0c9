"""Staff notation: a Timeline as MusicXML through music21, ○ and □ kept as note shapes.

One percussion staff; 鼙 and 鼓 are two unpitched instruments on their own staff positions, with
the MIDI notes of the MidiMap so notation programs play what the MIDI file plays. A note stands on
the staff of the drum it strikes and has the head of the sign it was printed as, which differ
under another reading of the signs (model.Reading). The scores have
no metre, so each section is one bar under a hidden time signature (see docs/notation.md).
music21 is imported only inside these functions.
"""

from __future__ import annotations

import copy
import functools
import io
import re
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import BEAT_RATE, Track
from drumscore.errors import OptionError
from drumscore.i18n import (
    _,
    chinese,
    clause_text,
    labelled,
    list_text,
    numeral,
    pgettext,
    written,
)
from drumscore.model import HALF, Drum
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap

if TYPE_CHECKING:
    from xml.etree.ElementTree import Element

    from music21 import instrument, meter, note, stream


@dataclass(frozen=True, slots=True)
class StaffVoice:
    """How one drum is written: its part, staff position and instrument (its part's name and its
    notes' head are those of the sign that strikes it, see NOTEHEADS and Reading.label)."""

    part_id: str
    step: str
    octave: int
    instrument_id: str
    name: str


#: One part per drum, each a one-line percussion staff. Notation programs would also take the two
#: drums as two instruments of one part, but music21 (and so everything built on it) reads only
#: the first instrument of a part: two parts keep both drums in every reader. The other drum's
#: beats are rests that are not printed, so each staff shows only its own strokes.
#: Instrument names stay ASCII: MuseScore 3 keeps drum names in Latin-1.
VOICES = {
    Drum.PI: StaffVoice("P1", "E", 4, "P1-PI", "Pi (small drum)"),
    Drum.GU: StaffVoice("P2", "E", 4, "P2-GU", "Gu (big drum)"),
}

#: The notehead of each sign as printed, whichever drum the reading strikes with it: "so" (the
#: round shape-note head) drawn hollow is a round ○; "la" (the square one) is a □.
NOTEHEADS = {Drum.PI.symbol: "so", Drum.GU.symbol: "la"}

#: What each lyrics choice writes under each stroke.
LYRICS = {
    "drum": {Drum.PI: "鼙", Drum.GU: "鼓"},
    "glyph": {drum: drum.symbol for drum in Drum},
    "pinyin": {Drum.PI: "pí", Drum.GU: "gǔ"},
}

#: The words of the tempo mark: 「間若一」, the strokes evenly spaced.
TEMPO_WORDS = "間若一"
#: Repeats are written out; beyond this many the export takes minutes and no one reads the page.
MAX_WRITTEN_REPEATS = 200
#: The most strokes written out, all repeats together (README, "Limits"): the export's time grows
#: with them, 20,000 taking half a minute.
MAX_WRITTEN_STROKES = 20_000


#: The most strokes in a bar of a document for an engraver (see build_score).
ENGRAVED_BAR = 40


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
            _(
                "repeats {repeats} is too many to write out as notation; use at most {most}, or "
                "write MIDI or audio for a longer backing track"
            ).format(repeats=timeline.repeats, most=MAX_WRITTEN_REPEATS),
            option="repeats",
        )
    if total > MAX_WRITTEN_STROKES:
        raise OptionError(
            _(
                "repeats {repeats} of {n:,} strokes are {total:,} strokes to write out as "
                "notation, over the limit of {most:,}; repeat it fewer times, or write MIDI or "
                "audio for a longer backing track"
            ).format(
                repeats=timeline.repeats,
                n=len(timeline.strokes),
                total=total,
                most=MAX_WRITTEN_STROKES,
            ),
            option="repeats",
        )
    if total == 0:
        raise OptionError(
            _("{played!r} has no strokes, so there is nothing to write").format(
                played=timeline.description
            )
        )
    cuts = {0: ""}
    for marker in timeline.markers():
        if 0 < marker.k < total:
            # engraved for the reader: a repeat's start in the reader's language (第二遍)
            cuts[marker.k] = (
                pgettext("engraved", "pass {number}").format(number=numeral(marker.pass_no))
                if marker.pass_no
                else marker.text
            )
    starts = sorted(cuts)
    ends = [*starts[1:], total]
    return tuple(Bar(s, e - s, cuts[s]) for s, e in zip(starts, ends, strict=True))


def _cut(layout: tuple[Bar, ...], most: int) -> tuple[tuple[Bar, ...], set[int]]:
    """Bars of at most `most` strokes; the numbers (from 1) of those that a cut bar goes on from."""
    cut: list[Bar] = []
    joined: set[int] = set()
    for whole in layout:
        for offset in range(0, whole.length, most):
            if offset:
                joined.add(len(cut))
            length = min(most, whole.length - offset)
            cut.append(Bar(whole.start + offset, length, "" if offset else whole.marker))
    return tuple(cut), joined


def check_lyrics(lyrics: str | None) -> str | None:
    """The lyrics choice, or an OptionError naming the choices."""
    if lyrics is None or lyrics in LYRICS:
        return lyrics
    choices = list_text(repr(k) for k in LYRICS)
    raise OptionError(
        _("lyrics {value!r} is not known; choose one of {choices}").format(
            value=lyrics, choices=choices
        ),
        option="lyrics",
    )


def _bpm_number(timeline: Timeline) -> int | float:
    bpm = timeline.tempo.bpm
    return int(bpm) if bpm.denominator == 1 else float(round(bpm, 3))


def build_score(
    timeline: Timeline,
    midimap: MidiMap | None = None,
    lyrics: str | None = None,
    *,
    engraved_bar: int | None = None,
    models: bool = False,
) -> stream.Score:
    """The music21 Score: a part per drum, a bar per section, 半 marked after a double bar.

    The title, tempo and marks stand on the first part; both parts have the same bars. With
    `engraved_bar` (for engraving), a section longer than that many strokes is cut into bars of
    that many, joined by invisible bar lines: engravers break lines only between bars, and take
    a time that grows as the square of a bar's length. With `models`, each bar of a part holds
    only a stroke of its drum and then a silent beat, the models of every beat of that part,
    which the export copies into each bar (see _stamped), under a metre of at most two beats (a
    bar of N beats is written with N beats to its metre all the same).
    """
    from music21 import bar, clef, expressions, layout, metadata, note, stream, tempo

    midimap = midimap or MidiMap()
    chosen = check_lyrics(lyrics)
    reading = timeline.reading
    words = LYRICS[chosen] if chosen else None
    if chosen == "glyph":  # the sign as printed, whichever drum it strikes
        words = {drum: reading.sign(drum) for drum in Drum}
    score = stream.Score()
    score.metadata = metadata.Metadata()
    score.metadata.title = timeline.score.title
    # MuseScore heads the page with the movement title alone, so it carries the whole heading.
    score.metadata.movementName = timeline.heading

    # the strokes as every render lays them out
    hits = Track.single(timeline).hits(BEAT_RATE) if not models else []
    velocity = velocities(timeline, midimap)
    metres: dict[int, meter.TimeSignature] = {}
    layout_bars = bars(timeline)
    joined: set[int] = set()  # the bars that go on in the next one, behind an invisible line
    if engraved_bar is not None:
        layout_bars, joined = _cut(layout_bars, engraved_bar)
    parts = []
    for drum in Drum:
        voice = VOICES[drum]
        part = stream.Part(id=voice.part_id)
        part.partName = reading.label(drum)
        part.partAbbreviation = drum.value
        part.insert(0, _instrument(drum, midimap))
        previous_length = None
        for number, span in enumerate(layout_bars, 1):
            measure = stream.Measure(number=number)
            if number == 1:
                measure.insert(0, layout.StaffLayout(staffLines=1))
                measure.insert(0, clef.PercussionClef())
            if span.length != previous_length:
                # a longer bar of models is one of two beats, its metre's set again (_stamped);
                # a bar of one beat keeps its own (its silent beat is a whole bar's rest)
                beats = min(span.length, MODEL_BEATS) if models else span.length
                measure.insert(0, _hidden_metre(beats, metres))
                previous_length = span.length
            if drum is Drum.PI:
                if number == 1:
                    mark = tempo.MetronomeMark(
                        text=TEMPO_WORDS,
                        number=_bpm_number(timeline),
                        referent=note.Note(type="quarter"),
                    )
                    measure.insert(0, mark)
                if span.marker == HALF:
                    measure.insert(0, expressions.RehearsalMark(HALF))
                elif span.marker:
                    measure.insert(0, expressions.TextExpression(span.marker))
            if models:
                stroke = _stroke_note(drum, velocity[drum], words, reading.sign(drum))
                measure.append([stroke, _silent_beat()])
            else:
                measure.append(
                    [
                        _stroke_note(e.drum, velocity[e.drum], words, reading.sign(e.drum))
                        if e.drum is drum
                        else _silent_beat()
                        for e in hits[span.start : span.start + span.length]
                    ]
                )
            following = layout_bars[number] if number < len(layout_bars) else None
            if number in joined:
                measure.rightBarline = bar.Barline("none")
            elif following is None:
                measure.rightBarline = bar.Barline("final")
            elif following.marker == HALF:
                measure.rightBarline = bar.Barline("double")
            part.append(measure)
        parts.append(part)
    for part in parts:
        score.insert(0, part)
    score.insert(0, layout.StaffGroup(parts, symbol="bracket", barTogether=True))
    return score


def _instrument(drum: Drum, midimap: MidiMap) -> instrument.UnpitchedPercussion:
    from music21 import instrument

    kit = instrument.UnpitchedPercussion()
    kit.instrumentName = VOICES[drum].name
    kit.instrumentId = VOICES[drum].instrument_id
    kit.midiChannel = PERCUSSION_CHANNEL
    kit.percMapPitch = midimap.note(drum)
    return kit


def _silent_beat() -> note.Rest:
    """The other drum's beat: a quarter rest that is not printed."""
    from music21 import note

    rest = note.Rest(type="quarter")
    rest.style.hideObjectOnPrint = True
    return rest


def _hidden_metre(length: int, made: dict[int, meter.TimeSignature]) -> meter.TimeSignature:
    """A time signature of `length` quarters, not printed; copies are far cheaper than new ones.

    Its beats are given (one a quarter): music21 would otherwise work out a hierarchy of accents
    whose cost grows as the square of the bar (minutes for a bar of 1,000 strokes).
    """
    import copy

    from music21 import meter

    if length not in made:
        made[length] = meter.TimeSignature(f"{length}/4", divisions=length)
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


def _stroke_note(
    drum: Drum, velocity: int, words: dict[Drum, str] | None, sign: str
) -> note.Unpitched:
    """A stroke on `drum`'s staff, headed as `sign` (the sign that struck it) is printed."""
    from music21 import note

    voice = VOICES[drum]
    n = note.Unpitched(displayName=f"{voice.step}{voice.octave}", type="quarter")
    n.notehead = NOTEHEADS[sign]
    n.noteheadFill = False
    n.stemDirection = "noStem"
    n.volume.velocity = velocity  # written as the note's dynamics, velocity / 90 × 100
    if words:
        n.addLyric(words[drum])
    return n


def musicxml_bytes(
    timeline: Timeline,
    midimap: MidiMap | None = None,
    lyrics: str | None = None,
    *,
    engraved_bar: int | None = None,
) -> bytes:
    """An uncompressed MusicXML 4.0 document (UTF-8) for the timeline; the same bytes each time.

    `engraved_bar`: the document for an engraver, long sections cut (see build_score). music21
    exports a music's form once (its bars' shape, tempo, velocities, map, lyrics, reading; see
    _Form), whatever its strokes, which are written into its text (_stamped), and whatever the
    score's title and citation, which are set in its head (made once for each shape of the
    head's lines)."""
    midimap = midimap or MidiMap()
    check_lyrics(lyrics)
    velocity = velocities(timeline, midimap)
    layout = bars(timeline)
    joined: set[int] = set()
    if engraved_bar is not None:
        layout, joined = _cut(layout, engraved_bar)
    form = _Form(
        tuple(
            (
                min(bar.length, MODEL_BEATS),
                bar.marker,
                k == 0 or bar.length != layout[k - 1].length,  # its metre written
                k + 1 in joined,  # going on in the next bar
            )
            for k, bar in enumerate(layout)
        ),
        (velocity[Drum.PI], velocity[Drum.GU]),
        _bpm_number(timeline),
        midimap,
        lyrics,
        timeline.reading.mapping,
    )
    export = _exported(form, timeline, engraved_bar)
    # each stroke's drum, pass after pass: the drums of the strokes Track.single lays out
    drums = tuple(s.drum for s in timeline.strokes) * timeline.repeats
    music = _stamped(export.music, drums, layout)
    lines = page_head(timeline)
    kinds = tuple(kind for kind, _text in lines)
    head = export.heads.get(kinds)
    if head is None:
        head = export.heads[kinds] = _head(export.root, kinds)
    # the head's words for this score, in the order the document holds them
    words = {
        "work-title": iter([timeline.score.title]),
        "movement-title": iter([timeline.heading]),
        "source": iter([_source_text(timeline)]),
        "credit-words": iter([text for _kind, text in lines]),
    }

    def put(match: re.Match[str]) -> str:
        said = next(words[match.group(2)])
        if not said:  # as ElementTree writes an empty element
            return match.group(1)[:-1] + " />"
        return match.group(1) + escape_text(said) + match.group(3)

    return _xml_header() + (_WORDED.sub(put, head) + music).encode("utf-8")


@functools.cache
def _xml_header() -> bytes:
    """The XML declaration and document type music21 writes before a document."""
    from music21.musicxml.m21ToXml import ScoreExporter

    return ScoreExporter().xmlHeader()


def _head(exported: Element, kinds: tuple[str, ...]) -> str:
    """The text of a document's head (titles, identification, credits of `kinds`) before the
    music of `exported`: the head ends where the part list, the first element of the music,
    begins. Its words stand as one letter each, for musicxml_bytes to set (see _WORDED)."""
    from xml.etree.ElementTree import Element, SubElement

    from music21.musicxml.helpers import dumpString

    head = Element(exported.tag, exported.attrib)
    for child in exported:
        if child.tag == "part-list":
            break
        head.append(copy.deepcopy(child))
    SubElement(head, "part-list")
    for path in ("work/work-title", "movement-title"):
        found = head.find(path)
        if found is not None:
            found.text = "x"
    _identify(head, "x")
    _add_credits(head, [(kind, "x") for kind in kinds])
    text = dumpString(head, noCopy=True)
    return text[: text.index(_MUSIC_STARTS)]


def escape_text(text: str) -> str:
    """`text` as the text of an XML element (ElementTree writes it so)."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def unescape_text(text: str) -> str:
    """The text of an XML element as escape_text wrote it."""
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


#: The elements of a document's head that carry its score's words (its printed lines last).
_WORDED = re.compile(r"(<(work-title|movement-title|source|credit-words)\b[^>]*>)[^<]*(</\2>)")


def with_words(document: bytes, lines: Sequence[str], title: str = "") -> bytes:
    """`document` (of musicxml_bytes) with its page's printed lines (page_head) set to `lines`,
    in order, and its titles and source to `title`; the music as it was. Of two scores or two
    languages of one music, the documents with the same `lines` are the same bytes: an engraving
    of one serves both, its head's words set anew (verovio.retitle)."""
    text = document.decode("utf-8")
    at = text.index(_MUSIC_STARTS)
    head = text[:at]
    if head.count("<credit-words") != len(lines):
        raise ValueError(f"{len(lines)} lines for a head of {head.count('<credit-words')}")
    words = iter(lines)

    def put(match: re.Match[str]) -> str:
        said = next(words) if match.group(2) == "credit-words" else title
        return match.group(1) + escape_text(said) + match.group(3)

    return (_WORDED.sub(put, head) + text[at:]).encode("utf-8")


@dataclass(frozen=True, slots=True)
class _Form:
    """What music21's export of a music (build_score's `models`) depends on: the key of its
    export. Each bar's shape (its beats up to MODEL_BEATS, its marker, whether its metre is
    written, whether it goes on in the next bar), the velocities, tempo, map, lyrics and the
    reading; not the strokes, which are written into the export's text (_stamped), nor the
    score's words."""

    shape: tuple[tuple[int, str, bool, bool], ...]
    velocities: tuple[int, int]
    bpm: int | float
    midimap: MidiMap
    lyrics: str | None
    #: The reading's signs and drums: each part's name and its notes' head.
    signs: tuple[tuple[str, Drum], ...]


@dataclass(frozen=True, slots=True)
class _Export:
    """One form exported: its MusicXML tree's root and what stands before the music in it
    (the caller changes only copies of them), its text from the part list on (a model stroke
    and silent beat a bar and part), and the text of its heads by the kinds of their lines."""

    root: Element
    music: str
    heads: dict[tuple[str, ...], str]


_exports: dict[_Form, _Export] = {}
#: The most exports kept (a site holds a few dozen forms; each is a few kB).
EXPORTS_KEPT = 64
#: Where the music of a document begins: the part list, then the parts.
_MUSIC_STARTS = "<part-list"


def _exported(form: _Form, timeline: Timeline, engraved_bar: int | None) -> _Export:
    """The MusicXML of `form` (exported from `timeline`, which has it), made once."""
    from xml.etree.ElementTree import Element

    from music21.musicxml.helpers import dumpString
    from music21.musicxml.m21ToXml import ScoreExporter

    found = _exports.get(form)
    if found is None:
        score = build_score(
            timeline, form.midimap, form.lyrics, engraved_bar=engraved_bar, models=True
        )
        # The bars are complete as built; music21's makeNotation pass would only copy them again.
        root = ScoreExporter(score, makeNotation=False).parse()
        _add_instruments(root, form.midimap)
        _place_directions(root)
        _tempo_in_one_line(root)
        text = dumpString(root)
        head = Element(root.tag, root.attrib)  # the root and its head, not its music
        for child in root:
            if child.tag == "part-list":
                break
            head.append(child)
        found = _Export(head, text[text.index(_MUSIC_STARTS) :], {})
        if len(_exports) >= EXPORTS_KEPT:
            del _exports[next(iter(_exports))]
        _exports[form] = found
    return found


#: The beats of a bar of models (build_score's `models`): a stroke and a silent beat.
MODEL_BEATS = 2
_MEASURE = re.compile(r"<measure[ >]")
_MODEL_METRE = f"<beats>{MODEL_BEATS}</beats>"
_NOTE = re.compile(r"<note[ >]")
_NOTE_ENDS = "</note>"


def _stamped(document: str, drums: Sequence[Drum], layout: Sequence[Bar]) -> str:
    """The music of build_score's `models` (`document`) with each bar's beats written out: in
    each part, a bar holds a model stroke of the part's drum and a model silent beat (as music21
    writes them, each beat of a part being written alike), copied for each of the `drums` the
    bar of `layout` holds, in order, and its metre's beats its own. So music21 writes four
    notes, however long the music: its time grows with each note, the copies' only with their
    text."""
    out = []
    at = 0
    for drum in Drum:  # the parts in order, each with every bar
        previous = None
        for span in layout:
            found = _MEASURE.search(document, at)
            assert found is not None
            stroke = _NOTE.search(document, found.start())
            assert stroke is not None
            head = document[at : stroke.start()]
            if span.length != previous:  # the bar's metre, of its own beats
                head = head.replace(_MODEL_METRE, f"<beats>{span.length}</beats>", 1)
                previous = span.length
            stroke_end = document.index(_NOTE_ENDS, stroke.start()) + len(_NOTE_ENDS)
            silent = _NOTE.search(document, stroke_end)
            assert silent is not None
            silent_end = document.index(_NOTE_ENDS, silent.start()) + len(_NOTE_ENDS)
            model = document[stroke.start() : stroke_end]
            between = document[stroke_end : silent.start()]
            rest = document[silent.start() : silent_end]
            beats = drums[span.start : span.start + span.length]
            out.append(head)
            out.append(between.join(model if d is drum else rest for d in beats))
            at = silent_end
    out.append(document[at:])
    return "".join(out)


def _tempo_in_one_line(root: Element) -> None:
    """間若一 and ♩ = N as one direction, the words first, as a tempo text and its metronome mark
    are printed: music21 writes two directions, which engravers stack with the ♩ on the words."""
    for measure in root.iter("measure"):
        directions = measure.findall("direction")
        metronomes = [d for d in directions if d.find("direction-type/metronome") is not None]
        words = [d for d in directions if d.findtext("direction-type/words") == TEMPO_WORDS]
        if not metronomes or not words:
            continue
        wording = words[0].find("direction-type")
        assert wording is not None
        text = wording.find("words")
        assert text is not None
        text.attrib.pop("default-y", None)
        text.text = f"{TEMPO_WORDS}\u00a0"  # a space the engravers keep
        metronomes[0].insert(0, wording)
        measure.remove(words[0])


def _identify(root: Element, source_text: str) -> None:
    """The source cited; no date (the same render gives the same bytes) and no music21 creator."""
    from xml.etree.ElementTree import Element

    identification = root.find("identification")
    if identification is None:
        return
    for creator in identification.findall("creator"):
        if creator.text == "Music21":
            identification.remove(creator)
    encoding = identification.find("encoding")
    if encoding is not None:
        for date in encoding.findall("encoding-date"):
            encoding.remove(date)
    source = Element("source")
    source.text = source_text
    at = list(identification).index(encoding) + 1 if encoding is not None else 0
    identification.insert(at, source)


def _place_directions(root: Element) -> None:
    """Every direction placed (above, unless music21 said otherwise), as notation programs want."""
    for direction in root.iter("direction"):
        direction.set("placement", direction.get("placement", "above"))


def _add_instruments(root: Element, midimap: MidiMap) -> None:
    """Fixed part ids, each part's drum as its instrument, and every note tagged with it.

    music21 names parts with random ids and writes its own instrument entries; both are replaced.
    """
    from xml.etree.ElementTree import Element, SubElement

    score_parts = root.findall("part-list/score-part")
    parts = root.findall("part")
    for drum, score_part, part in zip(Drum, score_parts, parts, strict=True):
        voice = VOICES[drum]
        score_part.set("id", voice.part_id)
        part.set("id", voice.part_id)
        for old in score_part.findall("score-instrument") + score_part.findall("midi-instrument"):
            score_part.remove(old)
        tags = [child.tag for child in score_part]
        at = tags.index("part-name") + 1
        if "part-abbreviation" in tags:
            at = tags.index("part-abbreviation") + 1
        inst = Element("score-instrument", id=voice.instrument_id)
        SubElement(inst, "instrument-name").text = voice.name
        midi = Element("midi-instrument", id=voice.instrument_id)
        SubElement(midi, "midi-channel").text = str(PERCUSSION_CHANNEL + 1)
        SubElement(midi, "midi-unpitched").text = str(midimap.note(drum) + 1)
        score_part[at:at] = [inst, midi]
        for xml_note in part.iter("note"):
            if xml_note.find("rest") is not None:
                continue
            for old in xml_note.findall("instrument"):
                xml_note.remove(old)
            tags = [child.tag for child in xml_note]
            at = max(tags.index(t) for t in ("duration", "tie") if t in tags) + 1
            xml_note.insert(at, Element("instrument", id=voice.instrument_id))


def _add_credits(root: Element, lines: Sequence[tuple[str, str]]) -> None:
    """The heading and the citation (page_head's lines) as printed text (credits) at the head
    of the page."""
    from xml.etree.ElementTree import Element, SubElement

    credits = []
    for number, (kind, text) in enumerate(lines, 1):
        credit = Element("credit", page="1")
        SubElement(credit, "credit-type").text = kind
        words = SubElement(credit, "credit-words", justify="center", halign="center")
        words.set("valign", "top")
        words.set("font-size", "16" if number == 1 else "9")
        words.text = text
        credits.append(credit)
    tags = [child.tag for child in root]
    at = tags.index("part-list")
    if "defaults" in tags:
        at = tags.index("defaults") + 1
    root[at:at] = credits


def page_head(timeline: Timeline) -> list[tuple[str, str]]:
    """The lines at the head of the page, (MusicXML credit type, text): the title, then the
    citation's lines (citation_lines)."""
    return [("title", timeline.heading), *citation_lines(timeline)]


def citation_lines(timeline: Timeline) -> list[tuple[str, str]]:
    """What the page prints under its title: (MusicXML credit type, text) pairs.

    The title names edition, state, figure and section; these lines add the text as printed, the
    source with its file and lines, and drumscore's name of the score with the section and tempo.
    The page is read, so its lines are in the reader's language; the command stays as typed.
    """
    score = timeline.score
    parts = [score.key, labelled(_("section"), timeline.section.shown)]
    if timeline.span is not None:
        first, last = timeline.span[0] + 1, timeline.span[1]
        parts.append(_("strokes {first} to {last}").format(first=first, last=last))
    parts.append(_("{bpm:g} strokes a minute").format(bpm=float(timeline.tempo.bpm)))
    if timeline.reading.id != "zheng":
        # TRANSLATORS: the reading of the signs played, as Reading.shown names it: its id in
        # English (read as mao), in Chinese the name a summary cites it by (依毛奇齡說)
        parts.append(_("read as {reading}").format(reading=timeline.reading.shown))
    played = clause_text(parts)
    command = ("rights", _("drumscore's name of this reading: {played}").format(played=played))
    signs = []
    if timeline.reading.id != "zheng":
        # two lines: the reading, then where it stands, each short enough for the page's width
        signs = [
            (
                "subtitle",
                _("the signs read as {name} reads them").format(name=timeline.reading.name),
            ),
            ("subtitle", str(timeline.reading.citation)),
        ]
    if not score.edition_id:
        return [
            (
                "subtitle",
                _("notation as given: {notation}").format(
                    notation=score.printed or score.pattern.notation
                ),
            ),
            *signs,
            command,
        ]
    lines = [
        (
            "subtitle",
            _("as printed in {edition}, figure {figure}, {state}鼓: {printed}").format(
                # in Chinese the book in 書名號 with its author (衛湜《禮記集說》所印)
                edition=score.source.work.named
                if chinese() and score.source and score.source.work
                else written(score.edition_name),
                figure=numeral(score.figure) if score.figure is not None else "?",
                state=written(str(score.state)),
                printed=score.printed.strip(),
            ),
        )
    ]
    if score.source and score.source.citation:
        # the work, then where in it: one line would run past the page's width
        lines.extend(("subtitle", line) for line in score.source.citation_lines)
    lines.extend(signs)
    lines.append(command)
    return lines


def _source_text(timeline: Timeline) -> str:
    score = timeline.score
    if not score.edition_id:
        return f"notation {score.pattern.notation}"
    citation = score.source.citation if score.source and score.source.citation else ""
    return f"{citation or score.edition_name}; {score.key} as printed: {score.printed}"


#: The date of every entry of an .mxl archive (the earliest a zip can hold).
ZIP_DATE = (1980, 1, 1, 0, 0, 0)

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
    entries = [
        ("mimetype", b"application/vnd.recordare.musicxml", zipfile.ZIP_STORED),
        ("META-INF/container.xml", CONTAINER.encode(), zipfile.ZIP_DEFLATED),
        ("score.musicxml", document, zipfile.ZIP_DEFLATED),
    ]
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data, method in entries:
            # a fixed date and permissions: the same render gives the same bytes
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = method
            info.external_attr = 0o644 << 16
            archive.writestr(info, data)
    return buffer.getvalue()
