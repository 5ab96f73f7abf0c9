"""The data model: states, sections, patterns and scores, immutable."""

import dataclasses

import pytest
from speaking import LOCALES

from drumscore import OptionError, Score, Section, State, parse
from drumscore.model import STATE_SLUGS, STATE_SPELLINGS, Dating


def test_a_state_is_its_character_and_knows_its_slug_and_spellings():
    assert State.LU == "魯" and f"{State.XUE}鼓" == "薛鼓"
    assert (State.LU.slug, State.XUE.slug) == ("lu", "xue")
    assert "辥" in State.XUE.spellings and State.XUE.spellings[0] == "薛"


@pytest.mark.parametrize(
    ("text", "state"), [("鲁", State.LU), (" LU ", State.LU), ("辪", State.XUE)]
)
def test_every_spelling_parses_to_its_state(text, state):
    assert State.parse(text) is state


def test_the_spelling_tables_are_made_from_the_one_table():
    assert set(STATE_SPELLINGS.values()) == set(State)
    assert STATE_SLUGS == {"魯": "lu", "薛": "xue"}
    for state in State:
        assert all(STATE_SPELLINGS[s] is state for s in (*state.spellings, state.slug))


def test_a_score_given_a_spelling_holds_the_state():
    score = Score(parse("○□"), edition_id="x", edition_name="x", figure=1, state="辥")
    assert score.state is State.XUE and score.key == "xue/1@x"


def test_str_of_a_pattern_is_its_notation_and_repr_the_dataclass():
    pattern = parse("○ □ 〇 半 口")
    assert str(pattern) == "○□○半□"
    assert repr(pattern).startswith("Pattern(")


def test_the_model_is_immutable():
    pattern = parse("○□")
    with pytest.raises(dataclasses.FrozenInstanceError):
        pattern.half = 1  # type: ignore[misc]


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["", "qi", "鼓"])
def test_an_unknown_state_is_an_option_error_naming_the_parameter(text):
    with pytest.raises(OptionError) as info:
        State.parse(text)
    assert info.value.option == "state" and "魯" in str(info.value)


@pytest.mark.parametrize(
    ("text", "section"),
    [
        ("touhu", "TOUHU"),
        ("投壺", "TOUHU"),
        ("投壶", "TOUHU"),
        ("射", "SHE"),
        ("all", "SHE"),
        ("she", "SHE"),
        ("head", "HEAD"),
    ],
)
def test_every_spelling_of_a_section_reads_as_it(text, section):
    assert Section.parse(text) is Section[section]


def test_the_section_table_names_each_section_in_characters_and_words():
    assert [s.label for s in Section.in_order()] == ["head", "投壺 touhu", "射 she"]
    assert [s.heading for s in Section.in_order()] == ["head", "touhu 投壺", "she 射"]
    assert Section.TOUHU.description == "投壺 (the strokes after 半)"
    assert Section.HEAD.description == "the strokes before 半"
    assert [s.span for s in Section.in_order()] == ["before 半", "after 半", "the whole"]


def test_an_unknown_section_is_refused():
    with pytest.raises(OptionError, match="unknown section 'middle'"):
        Section.parse("middle")


def test_a_section_a_pattern_does_not_have_is_refused():
    with pytest.raises(OptionError) as info:
        parse("○□○").section("touhu")
    assert info.value.option == "section"


# --- dates ---


@pytest.mark.parametrize(
    ("text", "earliest", "latest", "shown"),
    [
        ("1748", 1748, 1748, "1748"),
        ("1736-1748", 1736, 1748, "1736-1748"),
        (" 642 – 653 ", 642, 653, "642-653"),
    ],
)
def test_a_date_is_a_year_or_a_range(text, earliest, latest, shown):
    date = Dating.parse(text, "preface")
    assert (date.earliest, date.latest, date.text, str(date.basis)) == (
        earliest,
        latest,
        shown,
        "preface",
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("", "e.g. 1748 or 1736-1748"),
        ("1748?", "e.g. 1748 or 1736-1748"),
        ("Qianlong", "e.g. 1748 or 1736-1748"),
        ("1736-", "e.g. 1748 or 1736-1748"),
        ("12345", "e.g. 1748 or 1736-1748"),
        ("1748-1736", "ends before it begins"),
    ],
)
def test_a_date_that_is_not_a_year_or_a_range_is_refused(text, said):
    with pytest.raises(OptionError) as info:
        Dating.parse(text)
    assert info.value.option == "date" and said in str(info.value)


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "touhu", "head"),
    [
        ("zh_Hant", "「touhu」：投壺，半以後的各擊", "「head」：半以前的各擊"),
        ("zh_Hans", "「touhu」：投壶，半以后的各击", "「head」：半以前的各击"),
        ("en", "touhu: 投壺, the strokes after 半", "head: the strokes before 半"),
    ],
)
def test_the_section_table_speaks_the_readers_language(language, touhu, head):
    from drumscore import i18n

    assert language in LOCALES
    with i18n.speaking(language):
        assert Section.TOUHU.help == touhu
        assert Section.HEAD.help == head
        described = Section.SHE.description
    assert described == {"zh_Hant": "射（整個鼓譜）", "zh_Hans": "射（整个鼓谱）"}.get(
        language, "射 (the whole pattern)"
    )


def test_a_sound_file_records_the_same_words_in_every_language():
    """The reader's language titles what is shown (and engraved); what an audio or MIDI file
    records is English whatever the reader's language, so a render is the same file."""
    from drumscore import i18n
    from drumscore.conductor.timeline import arrange
    from drumscore.conductor.track import Track
    from drumscore.corpus import resolve
    from drumscore.files.audio import tags_for
    from drumscore.render.midi import to_midi

    track = Track.single(arrange(resolve("lu"), "touhu"))
    english = (tags_for(track), [str(m) for m in to_midi(track).tracks[0]], track.cues(44100))
    with i18n.speaking("zh-Hant"):
        assert track.heading.startswith("《禮記注疏》魯鼓第一圖・投壺（半以後的各擊）")
        assert Section.TOUHU.description == "投壺（半以後的各擊）"
        chinese = (tags_for(track), [str(m) for m in to_midi(track).tracks[0]], track.cues(44100))
    assert chinese == english
    assert english[0]["title"].endswith("figure 1 · 投壺 (the strokes after 半)")


@pytest.mark.parametrize(
    "text",
    ["", "a", "a\nb", "a\r\nb\rc", "a\x0cb\x0b\x1c", "a\u2028\u2029b\x85", "\n\n", "a\n", "\r\n\r"],
)
def test_line_starts_break_where_splitlines_does(text):
    from drumscore.model import Position, line_starts, line_text

    starts = line_starts(text)
    lines = text.splitlines()
    for number, line in enumerate(lines, 1):
        assert line_text(text, starts, number) == line
        first = starts[number - 1]
        if line:
            assert Position.at(first, starts) == Position(first, number, 1)
            last = first + len(line) - 1
            assert text[last] == line[-1]
            assert Position.at(last, starts) == Position(last, number, len(line))
    assert line_text(text, starts, len(starts) + 1) == ""
