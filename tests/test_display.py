"""Text display helpers: widths of CJK text, tables that line up, the caret under a fault."""

import pytest

from drumscore import parse
from drumscore.display import caret_display, centre, char_name, cut, divided, table, width


def test_width_counts_ideographs_twice_and_combining_marks_not_at_all():
    assert width("○□") == 2 and width("魯鼓") == 4 and width("e\u0301") == 1


def test_table_columns_line_up_in_terminal_columns():
    text = table([["魯鼓", "1"], ["x", "22"]], ["drum", "n"])
    lines = text.splitlines()
    assert [width(line[: line.index("1") if "1" in line else 0]) for line in lines[2:3]] == [6]
    assert lines[1].startswith("----")


def test_divided_sets_half_apart():
    assert divided(parse("○□半○")) == "○□ │半│ ○"
    assert divided(parse("○□")) == "○□"


def test_the_caret_stands_under_the_character_even_after_ideographs():
    shown = caret_display("魯鼓X", 1, 3)
    line, caret = shown.splitlines()
    assert width(line[: line.index("X")]) == width(caret[: caret.index("^")])


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("ch", ["\x07", "\u200b", "\u200c", "\u200d", "\ufeff", "\xad", "\u202e"])
def test_an_invisible_or_control_character_is_shown_by_its_code_point_under_the_caret(ch):
    line, caret = caret_display(f"{ch}○{ch}□", 1, 3).splitlines()
    assert ch not in line and line.count(f"⟨U+{ord(ch):04X}⟩") == 2
    assert width(line[: line.index("⟨", 3)]) == caret.index("^")


def test_a_lone_surrogate_is_shown_as_a_replacement():
    line = caret_display("○\ud800□", 1, 2).splitlines()[0]
    assert "\ufffd" in line and "\ud800" not in line


@pytest.mark.parametrize("ch", ["X", "\x07", "\U000e0001"])
def test_char_name_gives_the_code_point_of_anything(ch):
    assert f"U+{ord(ch):04X}" in char_name(ch)


def test_a_fault_beyond_the_text_shows_an_empty_line_not_an_error():
    assert caret_display("○□", 5, 1).splitlines()[1].strip() == "^"


def test_widths_count_cjk_as_two_columns_and_controls_as_none():
    assert width("吳澄本") == 6 and width("lu/2") == 4 and width("e\u0301") == 1
    assert width("\x07") == 0


@pytest.mark.parametrize("columns", [1, 5, 6, 7, 12])
def test_cut_and_centre_keep_to_the_columns_and_never_halve_a_wide_character(columns):
    text = "禮記注疏 · 魯鼓"
    short = cut(text, columns)
    assert width(short) <= columns
    assert short == text or short.endswith("…")
    assert short.rstrip("…") == text[: len(short.rstrip("…"))]  # whole characters, in order
    assert width(centre(text, columns)) <= columns
    assert centre("鼓", 6) == "  鼓"


def test_the_columns_told_without_wcwidth_are_wcwidth_s_for_every_character_so_told():
    """display.plain_columns answers from Python's Unicode tables so that help and English text
    need not load wcwidth's; wherever it answers, it must say what wcwidth says (a newer Python
    or wcwidth that parts from it fails here, naming the characters)."""
    import wcwidth

    from drumscore.display import plain_columns

    told, differ = 0, []
    for code in range(0x20, 0x40000):
        ch = chr(code)
        columns = plain_columns(ch)
        if columns is None:
            continue
        told += 1
        if columns != wcwidth.wcwidth(ch):
            differ.append(f"U+{code:04X}")
    assert differ == []
    assert told > 90_000  # the CJK blocks are among them, not left to wcwidth
    assert [plain_columns(c) for c in "半○□「」，A—"] == [2, 1, 1, 2, 2, 2, 1, 1]
    assert plain_columns("\u0301") is None and plain_columns("😀") is None
