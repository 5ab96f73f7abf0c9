"""MusicXML export: read back with music21 (strokes, noteheads, 半, tempo, lyrics) and as XML."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
import zipfile

import mido
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore import i18n
from drumscore.conductor.expression import Expression
from drumscore.conductor.timeline import arrange
from drumscore.corpus import SCORES_DIR, find_edition, resolve, scores
from drumscore.errors import DrumscoreError, OptionError
from drumscore.files.atomic import write_bytes
from drumscore.model import Drum, Score, Section
from drumscore.notation import parse
from drumscore.render.midi import midi_bytes
from drumscore.render.midimap import MidiMap
from drumscore.render.musicxml import (
    LYRICS,
    bars,
    build_score,
    musicxml_bytes,
    mxl_bytes,
    page_head,
    with_words,
)
from drumscore.timing import Tempo

music21 = pytest.importorskip("music21")


def read_back(data: bytes):
    return music21.converter.parse(data, format="musicxml", forceSource=True)


def drums_read(parsed) -> list[Drum]:
    """The drum of each note, told apart by its notehead shape alone."""
    shapes = {"so": Drum.PI, "la": Drum.GU}
    notes = list(parsed.flatten().notes)
    assert all(n.noteheadFill is False for n in notes)
    return [shapes[n.notehead] for n in notes]


def stroke_notes(root) -> list:
    """The <note>s that sound, in the order they sound: each part's notes by beat, merged."""
    timed = []
    for part in root.findall("part"):
        for beat, note in enumerate(part.iter("note")):
            if note.find("rest") is None:
                timed.append((beat, note))
    assert len({b for b, _ in timed}) == len(timed), "two strokes on one beat"
    return [n for _, n in sorted(timed, key=lambda t: t[0])]


def half_offsets(parsed) -> list[float]:
    flat = parsed.flatten()
    return [m.offset for m in flat.getElementsByClass("RehearsalMark") if m.content == "半"]


ALL_SCORES = [s.key for s in scores()]


# --- round trip ---------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ALL_SCORES)
def test_every_score_reads_back_with_the_same_strokes_and_half(key):
    timeline = arrange(resolve(key))
    parsed = read_back(musicxml_bytes(timeline))
    assert drums_read(parsed) == [s.drum for s in timeline.strokes]
    assert half_offsets(parsed) == [float(timeline.score.pattern.half)]


@pytest.mark.parametrize("section", ["touhu", "head"])
def test_a_section_alone_has_no_half_mark(section):
    timeline = arrange(resolve("xue/2"), section)
    parsed = read_back(musicxml_bytes(timeline))
    assert drums_read(parsed) == [s.drum for s in timeline.strokes]
    assert half_offsets(parsed) == []
    assert len(parsed.parts[0].getElementsByClass("Measure")) == 1


def test_the_bar_before_half_ends_with_a_double_barline_and_the_last_with_a_final_one():
    timeline = arrange(resolve("lu"))
    measures = list(read_back(musicxml_bytes(timeline)).parts[0].getElementsByClass("Measure"))
    half = timeline.score.pattern.half
    assert [m.duration.quarterLength for m in measures] == [half, len(timeline) - half]
    assert measures[0].rightBarline.type == "double"
    assert measures[-1].rightBarline.type == "final"


def test_the_metre_is_hidden_and_each_bar_holds_one_section():
    timeline = arrange(resolve("xue"))
    root = ET.fromstring(musicxml_bytes(timeline))
    times = root.find("part").findall(".//time")
    assert times and all(t.get("print-object") == "no" for t in times)
    beats = [int(t.findtext("beats")) for t in times]
    half = timeline.score.pattern.half
    assert beats == [half, len(timeline) - half]


def test_repeats_are_written_out_each_with_its_own_half():
    timeline = arrange(resolve("lu/2"), "she", repeats=3)
    parsed = read_back(musicxml_bytes(timeline))
    strokes = [s.drum for s in timeline.score.pattern.strokes]
    assert drums_read(parsed) == strokes * 3
    n, half = len(strokes), timeline.score.pattern.half
    assert half_offsets(parsed) == [float(r * n + half) for r in range(3)]
    words = [e.content for e in parsed.flatten().getElementsByClass("TextExpression")]
    assert [w for w in words if "pass" in w or "repeat" in w] == ["pass 2", "pass 3"]


@pytest.mark.parametrize(("language", "second"), [("zh_Hant", "第二遍"), ("zh_Hans", "第二遍")])
def test_a_repeat_is_engraved_in_the_readers_language_and_its_midi_marker_stays(language, second):
    """The staff is read: a repeat's start is 第二遍 there; a MIDI marker is kept for other
    tools and says `repeat 2` in every language."""
    timeline = arrange(resolve("lu/2"), "she", repeats=2)
    with i18n.speaking(language):
        parsed = read_back(musicxml_bytes(timeline))
        midi = mido.MidiFile(file=io.BytesIO(midi_bytes(timeline)))
    words = [e.content for e in parsed.flatten().getElementsByClass("TextExpression")]
    assert [w for w in words if "遍" in w or "pass" in w or "repeat" in w] == [second]
    markers = [m.text for t in midi.tracks for m in t if m.type == "marker"]
    assert "repeat 2" in markers


def _any_notation(examples: int):
    """The property below drawn `examples` times: any notation of 2 to 40 strokes and its half."""

    @settings(max_examples=examples, deadline=None)
    @given(
        st.lists(st.sampled_from("○□"), min_size=2, max_size=40).flatmap(
            lambda s: st.tuples(st.just(s), st.integers(1, len(s) - 1))
        )
    )
    def test(case):
        symbols, half = case
        text = "".join(symbols[:half]) + "半" + "".join(symbols[half:])
        timeline = arrange(Score(parse(text), printed=text))
        parsed = read_back(musicxml_bytes(timeline))
        assert "".join(d.symbol for d in drums_read(parsed)) == "".join(symbols)
        assert half_offsets(parsed) == [float(half)]

    return test


# README's command draws 10 notations, the slow run (-m slow) 25 of its own.
test_any_notation_reads_back = _any_notation(10)
test_any_notation_reads_back_at_length = pytest.mark.slow(_any_notation(25))


def test_pi_sounds_lower_than_gu_in_the_instruments():
    root = ET.fromstring(musicxml_bytes(arrange(resolve("lu"))))
    sound = {
        part.findtext("score-instrument/instrument-name"): int(
            part.findtext("midi-instrument/midi-unpitched")
        )
        for part in root.iter("score-part")
    }
    assert sound["Pi (small drum)"] < sound["Gu (big drum)"]  # 鼙 其聲下, as in the kit and MIDI
    assert sound["Pi (small drum)"] == MidiMap().note(Drum.PI) + 1  # counted from 1


def test_music21_reads_two_instruments_and_its_midi_export_keeps_both_drums():
    midimap = MidiMap.from_option("38,36")
    timeline = arrange(resolve("lu/2@benyi"))
    parsed = read_back(musicxml_bytes(timeline, midimap))
    by_beat = {}
    for part in parsed.parts:
        for n in part.flatten().notes:
            instrument = n.getInstrument()
            by_beat[n.offset] = (instrument.instrumentName, instrument.percMapPitch)
    names = {Drum.PI: "Pi (small drum)", Drum.GU: "Gu (big drum)"}
    expected = [(names[s.drum], midimap.note(s.drum)) for s in timeline.strokes]
    assert [by_beat[k] for k in sorted(by_beat)] == expected
    # music21's own MIDI export plays each stroke on its drum
    exported = music21.midi.translate.streamToMidiFile(parsed)
    data = exported.writestr()
    midi = mido.MidiFile(file=io.BytesIO(data))
    now, heard = 0, []
    for msg in mido.merge_tracks(midi.tracks):
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            heard.append((now, msg.note))
    assert [n for _, n in sorted(heard)] == [midimap.note(s.drum) for s in timeline.strokes]


def test_the_same_render_gives_the_same_bytes_with_fixed_part_ids():
    timeline = arrange(resolve("xue/2"), "she", repeats=2)
    first, second = musicxml_bytes(timeline), musicxml_bytes(timeline)
    assert first == second and mxl_bytes(timeline) == mxl_bytes(timeline)
    root = ET.fromstring(first)
    assert [p.get("id") for p in root.iter("score-part")] == ["P1", "P2"]
    assert [p.get("id") for p in root.findall("part")] == ["P1", "P2"]
    assert root.find("identification/encoding/encoding-date") is None
    with zipfile.ZipFile(io.BytesIO(mxl_bytes(timeline))) as archive:
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}


def test_the_page_head_cites_the_reading():
    timeline = arrange(resolve("xue/2@benyi"), "touhu")
    root = ET.fromstring(musicxml_bytes(timeline))
    words = " | ".join(c.findtext("credit-words") for c in root.iter("credit"))
    score = timeline.score
    for part in ("禮經本義", "figure 2", "薛鼓", "投壺", score.printed.strip(), "xue/2@benyi"):
        assert part in words
    assert all(line in words for line in score.source.citation_lines)
    said = "drumscore's name of this reading: xue/2@benyi; section: touhu; 60 strokes a minute"
    assert said in words


def test_the_page_head_line_names_another_reading_of_the_signs():
    from drumscore.model import Reading

    timeline = arrange(resolve("lu"), reading=Reading.parse("mao"))
    root = ET.fromstring(musicxml_bytes(timeline))
    credits = {c.findtext("credit-type"): c.findtext("credit-words") for c in root.iter("credit")}
    assert credits["rights"] == (
        "drumscore's name of this reading: lu/1@zhushu; section: she; 60 strokes a minute; "
        "read as mao"
    )


@pytest.mark.parametrize(
    ("language", "said"), [("zh_Hant", "依毛奇齡說"), ("zh_Hans", "依毛奇龄说")]
)
def test_a_chinese_page_head_names_the_reading_not_its_id(language, said):
    """In Chinese the line names the reading as a summary cites it (毛奇齡說), not by the id the
    command line takes (mao), as it names the section 射, not she."""
    from drumscore.i18n import speaking
    from drumscore.model import Reading

    timeline = arrange(resolve("lu"), reading=Reading.parse("mao"))
    with speaking(language):
        root = ET.fromstring(musicxml_bytes(timeline))
    rights = next(
        c.findtext("credit-words")
        for c in root.iter("credit")
        if c.findtext("credit-type") == "rights"
    )
    parts = rights.split("：", 1)[1].split("；")
    assert parts[0] == "lu/1@zhushu" and parts[-1] == said and "mao" not in rights


def test_mxl_is_a_zip_that_music21_reads_to_the_same_strokes(tmp_path):
    timeline = arrange(resolve("xue/2@benyi"))
    data = mxl_bytes(timeline)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert archive.namelist()[0] == "mimetype"
        assert archive.read("mimetype") == b"application/vnd.recordare.musicxml"
        container = ET.fromstring(archive.read("META-INF/container.xml"))
        inner = container.find(".//rootfile").get("full-path")
        assert archive.read(inner).startswith(b"<?xml")
    path = tmp_path / "x.mxl"
    path.write_bytes(data)
    parsed = music21.converter.parse(path)
    assert drums_read(parsed) == [s.drum for s in timeline.strokes]


# --- what the page says -------------------------------------------------------------------------


def test_title_names_edition_state_figure_and_section():
    timeline = arrange(resolve("xue/2@benyi"), "touhu")
    parsed = read_back(musicxml_bytes(timeline))
    heading = parsed.metadata.movementName
    for part in ("禮經本義", "薛鼓", "figure 2", "投壺"):
        assert part in heading


def test_the_heading_counts_the_repeats_like_the_description():
    timeline = arrange(resolve("lu/2"), "she", repeats=3)
    heading = read_back(musicxml_bytes(timeline)).metadata.movementName
    assert heading == "禮記注疏 · 魯鼓 · figure 2 · 射 (the whole pattern) ×3"
    assert " · she ×3" in timeline.description


def test_source_cites_the_edition_and_the_printed_text():
    score = resolve("lu@benyi")
    root = ET.fromstring(musicxml_bytes(arrange(score)))
    source = root.findtext("identification/source")
    citation = find_edition(score.edition_id).provenance.citation
    assert citation and citation in source and score.printed in source
    assert not [c for c in root.iter("creator") if c.text == "Music21"]


@pytest.mark.parametrize(
    ("language", "printed", "given"),
    [
        ("zh_Hant", "蔡德晉《禮經本義》所印第二圖薛鼓：", "所寫的譜字：○□半○"),
        ("zh_Hans", "蔡德晋《礼经本义》所印第二图薛鼓：", "所写的谱字：○□半○"),
    ],
)
def test_the_page_head_speaks_the_readers_language_and_the_metadata_stays_english(
    language, printed, given
):
    timeline = arrange(resolve("xue/2@benyi"), "touhu")
    raw = arrange(Score(parse("○□半○"), printed="○□半○"))
    with i18n.speaking(language):
        root = ET.fromstring(musicxml_bytes(timeline))
        raw_root = ET.fromstring(musicxml_bytes(raw))
    words = [c.findtext("credit-words") for c in root.iter("credit")]
    assert words[1] == printed + timeline.score.printed.strip()
    # the reading's name stays as typed; its label, section and tempo in the reader's language
    _label, named = words[-1].split("：", 1)
    assert named.startswith("xue/2@benyi；") and "touhu" not in named and "bpm" not in named
    assert not words[-1].startswith("drumscore's")
    assert [c.findtext("credit-words") for c in raw_root.iter("credit")][1] == given
    # the document's identification is metadata: English whatever the reader speaks
    assert "xue/2@benyi as printed: " in root.findtext("identification/source")


@pytest.mark.parametrize("language", ["zh_Hans", "zh_Hant", "en"])
def test_the_staff_names_the_state_魯鼓_as_printed_in_every_language(language):
    """禮經本義 prints its label 鲁鼓 in simplified script; the staff's title and head lines say
    魯鼓 as every other view does, in 简体 prose 鲁鼓 (a name in prose is simplified there)."""
    timeline = arrange(resolve("lu@benyi"))
    assert 'label = "鲁鼓"' in (SCORES_DIR / "benyi.toml").read_text("utf-8")
    with i18n.speaking(language):
        root = ET.fromstring(musicxml_bytes(timeline))
        shown = [timeline.score.title, timeline.heading, timeline.description]
    texts = [
        root.findtext("work/work-title"),
        root.findtext("movement-title"),
        *(c.findtext("credit-words") for c in root.iter("credit")),
    ]
    label, other = ("鲁鼓", "魯") if language == "zh_Hans" else ("魯鼓", "鲁")
    assert all(label in t for t in texts[:3]) and all(label in t for t in shown)
    assert not [t for t in [*texts, *shown] if other in t]


@pytest.mark.parametrize("bpm", ["60", "72", "37.5"])
def test_tempo_mark_follows_bpm(bpm):
    timeline = arrange(resolve("lu"), tempo=Tempo.from_bpm(bpm))
    parsed = read_back(musicxml_bytes(timeline))
    marks = list(parsed.flatten().getElementsByClass("MetronomeMark"))
    assert [m.number for m in marks] == [float(bpm)]
    assert marks[0].referent.type == "quarter"


def test_a_one_line_percussion_staff_per_drum_with_only_its_own_strokes():
    timeline = arrange(resolve("lu"))
    parsed = read_back(musicxml_bytes(timeline))
    assert len(parsed.parts) == 2
    for part, drum, head in zip(parsed.parts, Drum, ("so", "la"), strict=True):
        clefs = part.flatten().getElementsByClass("Clef")
        assert isinstance(clefs[0], music21.clef.PercussionClef)
        assert {n.notehead for n in part.flatten().notes} == {head}
        beats = [n.offset for n in part.flatten().notes]
        assert beats == [float(k) for k, s in enumerate(timeline.strokes) if s.drum is drum]
        rests = list(part.flatten().getElementsByClass("Rest"))
        assert rests and all(r.style.hideObjectOnPrint for r in rests)
    root = ET.fromstring(musicxml_bytes(timeline))
    assert [int(t.text) for t in root.iter("staff-lines")] == [1, 1]


@pytest.mark.parametrize("mode", sorted(LYRICS))
def test_lyrics_name_each_stroke(mode):
    timeline = arrange(resolve("xue"))
    parsed = read_back(musicxml_bytes(timeline, lyrics=mode))
    words = [n.lyric for n in parsed.flatten().notes]
    assert words == [LYRICS[mode][s.drum] for s in timeline.strokes]


def test_no_lyrics_unless_asked():
    parsed = read_back(musicxml_bytes(arrange(resolve("lu"))))
    assert all(n.lyric is None for n in parsed.flatten().notes)


# --- the drums a notation program plays ---------------------------------------------------------


def instruments(root) -> dict[str, int]:
    unpitched = {}
    for midi in root.iter("midi-instrument"):
        assert midi.findtext("midi-channel") == "10"
        unpitched[midi.get("id")] = int(midi.findtext("midi-unpitched"))
    return unpitched


@pytest.mark.parametrize("notes", [None, "60,61", "38,36"])
def test_every_note_plays_the_midi_note_of_the_midi_file(notes):
    midimap = MidiMap.from_option(notes)
    timeline = arrange(resolve("lu/2"), repeats=2)
    root = ET.fromstring(musicxml_bytes(timeline, midimap))
    unpitched = instruments(root)
    declared = {i.get("id") for i in root.iter("score-instrument")}
    assert declared == set(unpitched) and len(declared) == 2
    played = [unpitched[n.find("instrument").get("id")] - 1 for n in stroke_notes(root)]

    midi = mido.MidiFile(file=io.BytesIO(midi_bytes(timeline, midimap)))
    from_midi = [m.note for m in midi.tracks[1] if m.type == "note_on" and m.velocity > 0]
    assert played == from_midi
    assert played[0] == midimap.note(timeline.strokes[0].drum)


def test_note_dynamics_follow_the_midi_velocities():
    midimap = MidiMap()
    timeline = arrange(resolve("lu"))
    root = ET.fromstring(musicxml_bytes(timeline, midimap))
    dynamics = [float(n.get("dynamics")) for n in stroke_notes(root)]
    expected = [midimap.velocity(s.drum) / 90 * 100 for s in timeline.strokes]
    assert dynamics == pytest.approx(expected, abs=0.01)


def test_velocity_option_reaches_the_note_dynamics():
    timeline = arrange(resolve("lu"), expression=Expression.from_options("30,127"))
    root = ET.fromstring(musicxml_bytes(timeline))
    dynamics = [float(n.get("dynamics")) for n in stroke_notes(root)]
    given = {Drum.PI: 30, Drum.GU: 127}
    expected = [given[s.drum] / 90 * 100 for s in timeline.strokes]
    assert dynamics == pytest.approx(expected, abs=0.01)


def test_humanizing_leaves_the_notation_on_the_even_beat():
    even = arrange(resolve("lu"), expression=Expression.from_options("30,127"))
    humanized = arrange(resolve("lu"), expression=Expression.from_options("30,127", "20", "5"))

    def notes(timeline) -> list[bytes]:
        return [ET.tostring(n) for n in ET.fromstring(musicxml_bytes(timeline)).iter("note")]

    assert notes(humanized) == notes(even)


def test_note_elements_keep_musicxml_order():
    root = ET.fromstring(musicxml_bytes(arrange(resolve("lu")), lyrics="drum"))
    for n in stroke_notes(root):
        tags = [c.tag for c in n]
        assert tags.index("duration") < tags.index("instrument") < tags.index("type")
        assert tags.index("type") < tags.index("notehead") < tags.index("lyric")


def test_every_direction_stands_above_the_staff():
    root = ET.fromstring(musicxml_bytes(arrange(resolve("lu"))))
    assert {d.get("placement") for d in root.iter("direction")} == {"above"}


# --- bad input ----------------------------------------------------------------------------------


def test_unknown_lyrics_mode_is_an_option_error():
    with pytest.raises(OptionError, match="'hanzi'"):
        musicxml_bytes(arrange(resolve("lu")), lyrics="hanzi")


def test_a_section_without_strokes_is_refused_and_nothing_is_written(tmp_path):
    score = Score(parse("半○□"), printed="半○□")  # 半 first: the head section is empty
    out = tmp_path / "head.musicxml"
    with pytest.raises(DrumscoreError):
        write_bytes(out, musicxml_bytes(arrange(score, "head")))
    assert list(tmp_path.iterdir()) == []


def test_too_many_repeats_for_notation_are_refused():
    with pytest.raises(OptionError, match="repeats 201") as info:
        musicxml_bytes(arrange(resolve("lu"), repeats=201))
    assert info.value.option == "repeats"


def test_a_pattern_without_half_is_one_bar_with_no_mark():
    timeline = arrange(Score(parse("○□○○□"), printed="○□○○□"))
    assert len(bars(timeline)) == 1
    assert half_offsets(read_back(musicxml_bytes(timeline))) == []


def test_build_score_asks_for_no_section_the_pattern_lacks():
    with pytest.raises(OptionError, match="no 半"):
        build_score(arrange(Score(parse("○□"), printed="○□"), Section.TOUHU))


def test_for_an_engraver_a_long_section_is_cut_into_bars_joined_by_invisible_lines():
    """Engravers break lines only between bars, so a long section is cut for them; the strokes,
    in order, and the 半 double bar are the same, and the file written stays a bar a section."""
    import xml.etree.ElementTree as ET

    from drumscore.conductor.timeline import arrange
    from drumscore.render.musicxml import musicxml_bytes as document

    notation = "○□" * 15 + "半" + "□○○" * 30  # 30 strokes, then 90
    timeline = arrange(resolve(notation))
    cut = ET.fromstring(document(timeline, engraved_bar=40))
    whole = ET.fromstring(document(timeline))
    part = cut.find("part")
    measures = part.findall("measure")
    assert [len(m.findall("note")) for m in measures] == [30, 40, 40, 10]
    styles = [m.findtext("barline/bar-style") for m in measures]
    assert styles == ["light-light", "none", "none", "light-heavy"]
    assert len(whole.find("part").findall("measure")) == 2

    def strokes(root):
        return [
            n.findtext("unpitched/display-step")
            for p in root.findall("part")
            for n in p.iter("note")
            if n.find("rest") is None
        ]

    assert strokes(cut) == strokes(whole)


def test_the_tempo_words_and_the_metronome_mark_are_one_direction_words_first():
    """間若一 ♩ = 60 on one line, as a tempo text and its mark are printed: never stacked."""
    root = ET.fromstring(musicxml_bytes(arrange(resolve("lu"), None, Tempo.from_bpm(72))))
    directions = [
        d for d in root.iter("direction") if d.find("direction-type/metronome") is not None
    ]
    assert len(directions) == 1
    kinds = [child[0].tag for child in directions[0].findall("direction-type")]
    assert kinds == ["words", "metronome"]
    assert directions[0].findtext("direction-type/words").strip() == "間若一"
    assert directions[0].findtext("direction-type/metronome/per-minute") == "72"
    assert sum("間若一" in (w.text or "") for w in root.iter("words")) == 1


def test_one_music_s_documents_with_the_same_words_are_the_same_bytes():
    one, other = (arrange(resolve(key)) for key in ("lu/1@benyi", "lu/1@zhushu"))
    assert one.strokes == other.strokes and one.score.title != other.score.title
    documents = [musicxml_bytes(one), musicxml_bytes(other)]
    with i18n.speaking("zh_Hant"):
        documents.append(musicxml_bytes(one))
    lines = [text for _, text in page_head(one)]
    assert [w.text for w in ET.fromstring(documents[0]).iter("credit-words")] == lines
    stood_in = {with_words(d, ["a & <b>"] * len(lines), "t") for d in documents}
    assert len(stood_in) == 1 and len(set(documents)) == 3
    root = ET.fromstring(stood_in.pop())
    assert [w.text for w in root.iter("credit-words")] == ["a & <b>"] * len(lines)
    assert {root.findtext(p) for p in ("work/work-title", "movement-title")} == {"t"}
    assert root.findtext("identification/source") == "t"
    assert parsed_strokes(root) == parsed_strokes(ET.fromstring(documents[0])) != []
    with pytest.raises(ValueError):
        with_words(documents[0], lines[1:])


def parsed_strokes(root) -> list[tuple[str, str]]:
    """Each part's notes: the instrument and the notehead, in order."""
    return [
        (n.find("instrument").get("id"), n.findtext("notehead"))
        for part in root.iter("part")
        for n in part.iter("note")
        if n.find("rest") is None
    ]


def test_each_document_of_one_music_carries_its_own_score_s_words():
    """One music, exported once, written for several scores and languages (its head made once
    for each shape of lines): every document's titles, source and credits are its own score's,
    read back as XML, whatever they hold (& < > and quotes)."""
    odd = Score(parse("○□○○□"), edition_name='A & B <c> "d"', printed="○□ & <x>")
    plain = Score(parse("○□○○□"))
    timelines = [arrange(resolve(k)) for k in ("lu/1@benyi", "lu/1@zhushu")]
    timelines += [arrange(odd), arrange(plain)]
    for language in ("en", "zh_Hant", "en"):
        with i18n.speaking(language):
            for timeline in timelines:
                root = ET.fromstring(musicxml_bytes(timeline))
                want = [text for _, text in page_head(timeline)]
                assert [w.text for w in root.iter("credit-words")] == want
                kinds = [c.findtext("credit-type") for c in root.iter("credit")]
                assert kinds == [kind for kind, _ in page_head(timeline)]
                assert root.findtext("work/work-title") == timeline.score.title
                assert root.findtext("movement-title") == timeline.heading
                source = root.findtext("identification/source")
                assert timeline.score.printed.strip() in source or "notation" in source


@pytest.mark.parametrize(
    ("notation", "lyrics", "engraved_bar", "repeats"),
    [
        ("○□○○□半□○□□", None, None, 1),
        ("□□○半○", "glyph", 2, 3),
        ("○○□半□", "glyph", 2, 3),  # the same form (its export shared), other strokes
        ("○" * 7 + "半" + "□○" * 20, "pinyin", 8, 1),
        ("□", "drum", None, 2),
        ("○半□○□○", None, None, 2),  # a bar of one beat (a part's whole-bar rest), then of four
    ],
)
def test_the_written_out_beats_are_music21_s_own_export_of_every_note(
    notation, lyrics, engraved_bar, repeats
):
    """music21 writes a model stroke and silent beat a bar and part (once for each form of a
    music, whatever its strokes), copied for each beat: the music is what music21 writes of the
    whole score, note by note, under each reading."""
    from music21.musicxml.helpers import dumpString
    from music21.musicxml.m21ToXml import ScoreExporter

    from drumscore.model import READINGS
    from drumscore.render import musicxml as mx

    for reading in READINGS:
        timeline = arrange(Score(parse(notation)), repeats=repeats, reading=reading)
        score = build_score(timeline, MidiMap(), lyrics, engraved_bar=engraved_bar)
        root = ScoreExporter(score, makeNotation=False).parse()
        mx._add_instruments(root, MidiMap())
        mx._place_directions(root)
        mx._tempo_in_one_line(root)
        whole = dumpString(root)
        ours = musicxml_bytes(timeline, lyrics=lyrics, engraved_bar=engraved_bar).decode("utf-8")
        assert ours[ours.index("<part-list") :] == whole[whole.index("<part-list") :]
        notes = re.findall(r"<note[ >]", ours)  # not <notehead>
        assert len(notes) == 2 * len(timeline.strokes) * repeats
