"""The notation parser: strokes, 半, lookalikes, positions, and every kind of bad input."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from speaking import refused

from drumscore import Drum, DrumscoreError, NotationError, Section, parse, tokenize
from drumscore.glyphs import CIRCLE_LOOKALIKES, SQUARE_LOOKALIKES

LU1 = "○□○○□□○□○○□半○□○□○○○□□○□○"


def symbols(pattern):
    return "".join(s.drum.symbol for s in pattern.strokes)


def test_circle_strikes_pi_and_square_strikes_gu():
    p = parse("○□")
    assert [s.drum for s in p.strokes] == [Drum.PI, Drum.GU]
    assert [s.index for s in p.strokes] == [0, 1]


def test_half_divides_the_pattern():
    p = parse(LU1)
    assert p.half == 11
    assert symbols(p) == LU1.replace("半", "")
    assert len(p.section("touhu")) == 12
    assert len(p.section(Section.HEAD)) == 11
    assert len(p.section("she")) == 23
    assert p.notation == LU1


def test_counts_per_section_match_xu_bolu_for_the_first_lu():
    p = parse(LU1)
    assert (p.counts("touhu").pi, p.counts("touhu").gu) == (7, 5)
    assert (p.counts("she").pi, p.counts("she").gu) == (13, 10)


def test_whitespace_ascii_and_full_width_is_ignored():
    assert parse("○ □\t○\u3000半\n○□").notation == "○□○半○□"


def test_the_lookalikes_in_readme_are_read_as_their_drum():
    # the table in README.md, written out independently of drumscore.glyphs
    assert {s.drum for s in parse("○〇◯").strokes} == {Drum.PI}
    assert {s.drum for s in parse("□口囗⼝⼞▢◻☐").strokes} == {Drum.GU}
    assert len(CIRCLE_LOOKALIKES) == 3 and len(SQUARE_LOOKALIKES) == 8


def test_mixed_accepted_lookalikes_normalise_to_one_pattern():
    assert parse("〇口◯□半○囗").notation == "○□○□半○□"


def test_tokens_keep_line_and_column():
    tokens = list(tokenize("○□\n  半○"))
    assert [(t.kind, t.pos.line, t.pos.column, t.pos.offset) for t in tokens] == [
        ("○", 1, 1, 0),
        ("□", 1, 2, 1),
        ("半", 2, 3, 5),
        ("○", 2, 4, 6),
    ]


def test_strokes_keep_their_source_position():
    p = parse("○ □")
    assert p.strokes[1].pos.column == 3
    assert p.half_pos is None


def test_a_pattern_without_half_is_only_she():
    p = parse("○□○")
    assert p.half is None
    assert p.sections() == (Section.SHE,)
    with pytest.raises(DrumscoreError) as err:
        p.section("touhu")
    assert "no 半" in str(err.value) and "section she" in str(err.value)
    assert err.value.option == "section"


def test_sections_come_in_one_order():
    assert Section.in_order() == (Section.HEAD, Section.TOUHU, Section.SHE)
    assert parse("○半□").sections() == Section.in_order()


def test_half_at_either_end_gives_an_empty_section():
    assert parse("半○□").section("head") == ()
    assert len(parse("○□半").section("touhu")) == 0


def test_the_model_is_immutable():
    p = parse("○□")
    with pytest.raises(AttributeError):
        p.half = 1  # type: ignore[misc]


# --- bad input ------------------------------------------------------------------------------

BAD = [
    ("", "empty pattern", None),
    ("   \u3000\n", "empty pattern", None),
    ("半", "only a 半", (1, 1)),
    (" 半 ", "only a 半", (1, 2)),
    ("○半□半○", "second 半", (1, 4)),
    ("○□abc", "'a' (U+0061 LATIN SMALL LETTER A)", (1, 3)),
    ("○□😀", "U+1F600", (1, 3)),
    ("○\ud800□", "unpaired surrogate", (1, 2)),
    ("○" * 1_000_000, "1,000,000 characters", None),
    ("○□O□", "LATIN CAPITAL LETTER O", (1, 3)),
    ("○□0", "DIGIT ZERO", (1, 3)),
    ("○□ロ", "KATAKANA LETTER RO", (1, 3)),
    ("○■□", "BLACK SQUARE", (1, 2)),
    ("○●□", "BLACK CIRCLE", (1, 2)),
    ("○◇□", "WHITE DIAMOND", (1, 2)),
    ("○□\n□○魯鼓", "'魯'", (2, 3)),
    ("○□,○□", "COMMA", (1, 3)),
    ("○□\x00", "U+0000", (1, 3)),
    ("○\u200b□", "ZERO WIDTH SPACE", (1, 2)),
]


@pytest.mark.parametrize(("text", "expected", "where"), BAD, ids=range(len(BAD)))
def test_bad_input_is_a_clear_notation_error(text, expected, where):
    with pytest.raises(NotationError) as err:
        parse(text)
    message = str(err.value)
    assert expected in message
    if where is not None:
        assert (err.value.line, err.value.column) == where
        assert f"line {where[0]}, column {where[1]}" in message
        assert "^" in message.splitlines()[2]
    assert isinstance(err.value, ValueError)


def test_caret_points_under_the_bad_character():
    with pytest.raises(NotationError) as err:
        parse("○□X○")
    shown, caret = str(err.value).splitlines()[1:3]
    assert shown.strip() == "○□X○"
    assert caret.index("^") == shown.index("X")


def test_symbol_like_characters_get_a_hint():
    with pytest.raises(NotationError) as err:
        parse("○△")
    assert "replace it with ○ (鼙) or □ (鼓)" in str(err.value)


def test_not_text_is_an_error():
    with pytest.raises(NotationError):
        parse(b"\xe2\x97\x8b")  # type: ignore[arg-type]


# --- properties -----------------------------------------------------------------------------

ALPHABET = st.sampled_from([*CIRCLE_LOOKALIKES, *SQUARE_LOOKALIKES, "半", " ", "\n", "\u3000"])


@given(st.text())
def test_any_text_gives_a_pattern_or_a_notation_error(text):
    try:
        pattern = parse(text)
    except NotationError:
        return
    assert len(pattern) > 0


@given(st.text(alphabet=ALPHABET))
def test_notation_text_round_trips_through_the_canonical_form(text):
    try:
        pattern = parse(text)
    except NotationError as err:
        assert "半" in str(err) or "empty" in str(err)
        return
    again = parse(pattern.notation)
    assert again.notation == pattern.notation
    assert [s.drum for s in again.strokes] == [s.drum for s in pattern.strokes]
    assert again.half == pattern.half


@given(st.lists(st.sampled_from("○□"), min_size=1, max_size=40), st.data())
def test_half_position_is_the_number_of_strokes_before_it(strokes, data):
    at = data.draw(st.integers(0, len(strokes)))
    pattern = parse("".join(strokes[:at]) + "半" + "".join(strokes[at:]))
    assert pattern.half == at
    assert len(pattern.section("head")) + len(pattern.section("touhu")) == len(strokes)


# --- in each reader's language ------------------------------------------------------------------

#: The reason and the hint of "○X○" in each catalog, as the translations word them.
UNEXPECTED = {
    "zh_Hant": (
        "第 1 行第 2 欄：不應出現的字元「X」",
        "提示：譜字只有 ○（鼙）、□（鼓）與「半」，空白會略過。",
    ),
    "zh_Hans": (
        "第 1 行第 2 列：不应出现的字符「X」",
        "提示：谱字只有 ○（鼙）、□（鼓）与「半」，空格会略过。",
    ),
    "en": (
        "line 1, column 2: unexpected character 'X'",
        "hint: notation is ○ (鼙), □ (鼓) and 半;",
    ),
}


@pytest.mark.parametrize("language", sorted(UNEXPECTED))
def test_a_notation_error_speaks_the_readers_language_with_caret_and_hint(
    cli, monkeypatch, tmp_path, language
):
    reason, hint = UNEXPECTED[language]
    err = refused(cli, monkeypatch, language, tmp_path, "render", "○X○", "-o", tmp_path / "x.wav")
    first, shown, caret, advice = err.splitlines()
    assert first.startswith(reason)
    assert shown == "  ○X○" and caret == "   ^"  # the caret under X, whatever the language
    assert advice.startswith(hint)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh_Hant", ["第二個「半」（第一個在第 1 行第 2 欄）", "提示：一個鼓譜只分一次"]),
        ("zh_Hans", ["第二个「半」（第一个在第 1 行第 2 列）", "提示：一个鼓谱只分一次"]),
        (
            "en",
            ["a second 半 mark (the first is at line 1, column 2)", "hint: a pattern is divided"],
        ),
    ],
)
def test_a_second_half_mark_in_each_language(cli, monkeypatch, tmp_path, language, words):
    err = refused(
        cli, monkeypatch, language, tmp_path, "render", "○半□半○", "-o", tmp_path / "x.wav"
    )
    for word in words:
        assert word in err


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh_Hant", "提示：「●」是實心圖形；鼓譜只用空心的 ○（鼙）與 □（鼓）。"),
        ("zh_Hans", "提示：「●」是实心图形；鼓谱只用空心的 ○（鼙）与 □（鼓）。"),
        ("en", "hint: '●' is a filled shape; the scores use only the open ○ (鼙) and □ (鼓)."),
    ],
)
def test_the_hint_for_a_filled_shape_in_each_language(cli, monkeypatch, tmp_path, language, words):
    err = refused(cli, monkeypatch, language, tmp_path, "render", "○●□", "-o", tmp_path / "x.wav")
    assert err.splitlines()[-1].startswith(words)
