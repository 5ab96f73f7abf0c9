"""The lexer: typed tokens with their places in the file, notes and markup told from the text."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sourcefiles import SOURCES

from drumscore.editions import lexer
from drumscore.editions.lexer import Kind
from drumscore.errors import NotationError
from drumscore.model import LINE_BREAKS, Position, line_starts


def kinds(text, **tables):
    return [(t.kind, t.value) for t in lexer.tokens(text, lexer.Tables(**tables))]


def text_of(text):
    """What the tokens call text (prose, strokes, 半), joined: the passage without markup."""
    toks = lexer.tokens(text, lexer.Tables())
    keep = {Kind.OTHER, Kind.STROKES, Kind.HALF}
    return "".join(text[t.start : t.end] for t in toks if t.kind in keep)


def test_header_fields():
    text = (SOURCES / "KR1d0053_058_禮記注疏.txt").read_text(encoding="utf-8")
    fields = lexer.header(text)
    assert fields["edition"] == "禮記注疏"
    assert "KR1d0053" in fields["source"]
    assert lexer.body_start(text) == 5


def test_markup_and_notes_apart_from_the_text_positions_kept():
    text = "# edition: x\n　　甲(注/文)乙¶\n<pb:X_1-2a>¶\n丙¶\n"
    assert text_of(text) == "甲乙丙"
    starts = line_starts(text)
    for token in lexer.tokens(text, lexer.Tables()):
        if token.kind == Kind.OTHER:
            pos = Position.at(token.start, starts)
            assert text.split("\n")[pos.line - 1][pos.column - 1] == token.value[0]
    assert (Kind.NOTE, "注文") in kinds(text)
    assert kinds(text)[0][0] == Kind.HEADER


def test_a_page_break_line_is_a_page_break_not_a_blank_line():
    found = [k for k, _ in kinds("○□¶\n<pb:KR_1-1a>¶\n○半¶")]
    assert Kind.PAGE in found and Kind.BLANK not in found
    assert text_of("○□¶\n<pb:KR_1-1a>¶\n○半¶\n") == "○□○半"


def test_a_blank_line_is_a_blank_line():
    assert Kind.BLANK in [k for k, _ in kinds("○□\n\n○□\n")]


def test_note_text_without_brackets_and_column_marks():
    assert kinds("甲(乙/丙)丁") == [
        (Kind.OTHER, "甲"),
        (Kind.NOTE, "乙丙"),
        (Kind.OTHER, "丁"),
    ]


def test_notes_spanning_lines_and_nested_notes():
    assert [v for k, v in kinds("甲(乙¶\n丙)丁¶\n") if k == Kind.NOTE] == ["乙丙"]
    assert [v for k, v in kinds("甲(乙(丙)丁)戊") if k == Kind.NOTE] == ["乙(丙)丁"]


def test_strokes_are_read_canonical_with_a_glyph_mapping():
    assert (Kind.STROKES, "○□□○") in kinds("〇◍囗○魯鼓", glyph_map={"◍": "□"})


def test_a_long_passage_is_few_tokens_and_positions_are_exact():
    line = "甲乙丙丁" * 25_000
    text = f"{line}(注/文){line}¶\n{line}"
    toks = list(lexer.tokens(text, lexer.Tables()))
    assert [t.kind for t in toks] == [
        Kind.OTHER, Kind.NOTE, Kind.OTHER, Kind.LINE, Kind.OTHER,
    ]  # fmt: skip
    starts = line_starts(text)
    assert len(starts) == 2
    last = toks[4]
    assert Position.at(last.start, starts).line == 2
    assert Position.at(last.end - 1, starts).column == len(line)


PIECES = [
    "○", "□", "口", "囗", "?", "<pb:KR1d0053_WYG_058-1a>", "¶\n", "\n", "\n\n", "半", "魯鼓",
    "薛鼓", "薜鼓", "鼓", "。", "，", "甲", "(注/文)", "（甲（乙）丙）", "　", "[1]", "①", "¹", "※",
    "\u200b", "\ufeff", "魯\u200b鼓", "# source: x\n",
]  # fmt: skip


def _any_passage(examples: int):
    """The property below drawn `examples` times: any passage of the pieces above."""

    @settings(max_examples=examples, deadline=None)
    @given(st.lists(st.sampled_from(PIECES), min_size=1, max_size=30))
    def test(pieces):
        """Every character of a passage is in exactly one token, in order: nothing the parser reads
        is lost or read twice (an unknown label takes the 鼓 after it)."""
        text = "".join(pieces)
        position = 0
        for token in lexer.tokens(text, lexer.Tables()):
            assert token.start == position <= token.end
            assert token.end > token.start or token.kind == Kind.BLANK  # an empty line is empty
            position = token.end
        assert position == len(text)

    return test


# README's command draws 100 passages, the slow run (-m slow) 300 of its own.
test_the_tokens_cover_the_passage_in_order_without_overlap = _any_passage(100)
test_the_tokens_cover_the_passage_in_order_without_overlap_at_length = pytest.mark.slow(
    _any_passage(300)
)


# --- bad input ---


@pytest.mark.parametrize(("text", "line", "column"), [("○□○\n甲(乙丙\n", 2, 2), ("（甲", 1, 1)])
def test_unclosed_note_is_an_error_at_its_bracket(text, line, column):
    with pytest.raises(NotationError) as info:
        list(lexer.tokens(text, lexer.Tables()))
    assert (info.value.line, info.value.column) == (line, column)
    assert "never closed" in str(info.value)


@pytest.mark.parametrize("brk", sorted(LINE_BREAKS | {"\r\n"}))
def test_an_unclosed_note_after_any_line_break_is_reported_on_its_line_with_the_caret_under_it(brk):
    """A form feed (or any break str.splitlines breaks at) starts a line for the lexer as for the
    notation and the caret: the error names the bracket's line and the caret stands under it."""
    text = f"○□○{brk}甲乙（丙丁"
    with pytest.raises(NotationError) as info:
        list(lexer.tokens(text, lexer.Tables()))
    assert (info.value.line, info.value.column) == (2, 3)
    shown, caret = str(info.value).splitlines()[1:3]
    assert shown.strip() == "甲乙（丙丁"
    # the caret's terminal column is the bracket's: each ideograph before it is two columns wide
    assert caret.index("^") == shown.index("甲") + 4
