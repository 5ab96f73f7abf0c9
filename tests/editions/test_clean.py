import pytest
from sourcefiles import SOURCES

from drumscore.editions import clean as kanripo
from drumscore.errors import NotationError


def test_header_fields():
    text = (SOURCES / "KR1d0053_058_禮記注疏.txt").read_text(encoding="utf-8")
    fields = kanripo.header(text)
    assert fields["edition"] == "禮記注疏"
    assert "KR1d0053" in fields["source"]
    assert kanripo.body_start(text) == 5


def test_markup_and_notes_removed_positions_kept():
    text = "# edition: x\n　　甲(注/文)乙¶\n<pb:X_1-2a>¶\n丙¶\n"
    cleaned = kanripo.clean(text)
    assert cleaned.text.replace(kanripo.BREAK, "") == "甲乙丙"
    start = cleaned.text.index("乙")
    pos = cleaned.position(start)
    assert text.split("\n")[pos.line - 1][pos.column - 1] == "乙"
    assert text[pos.offset] == "乙"


def test_page_break_line_joins_without_break():
    cleaned = kanripo.clean("○□¶\n<pb:KR_1-1a>¶\n○半¶\n")
    assert cleaned.text == "○□○半"


def test_blank_line_breaks_the_text():
    cleaned = kanripo.clean("○□\n\n○□\n")
    assert kanripo.BREAK in cleaned.text


def test_keep_notes_drops_brackets_and_column_marks():
    cleaned = kanripo.clean("甲(乙/丙)丁", keep_notes=True)
    assert cleaned.text == "甲乙丙丁"


def test_notes_spanning_lines():
    assert kanripo.clean("甲(乙¶\n丙)丁¶\n").text == "甲丁"


# --- bad input ---


def test_unclosed_note_is_an_error_at_its_bracket():
    with pytest.raises(NotationError) as info:
        kanripo.clean("○□○\n甲(乙丙\n")
    assert info.value.line == 2
    assert info.value.column == 2


def test_positions_are_stored_per_run_not_per_character():
    line = "甲乙丙丁" * 25_000
    text = f"{line}(注/文){line}¶\n{line}\n"
    cleaned = kanripo.clean(text)
    assert cleaned.text == line * 3
    # three runs copied from the source (before the note, after it, the next line)
    assert len(cleaned.run_starts) == len(cleaned.run_offsets) == 3
    for index in (0, len(line) - 1, len(line), 2 * len(line) - 1, 2 * len(line), 3 * len(line) - 1):
        pos = cleaned.position(index)
        assert text[pos.offset] == cleaned.text[index]
        assert text.split("\n")[pos.line - 1][pos.column - 1] == cleaned.text[index]
    assert cleaned.position(2 * len(line)).line == 2
