"""A terminal that draws the East Asian Ambiguous characters (○ □ — · │ █) two columns wide:
--ambiguous-wide (or DRUMSCORE_AMBIGUOUS_WIDE=1) keeps compare's marks under their strokes, the
tables' columns and the play display in line there. Columns are measured here as such a
terminal draws them (unicodedata's East Asian Width), not with drumscore's own counting."""

from __future__ import annotations

import re
import unicodedata

import pytest

from drumscore import display
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.play import liveview
from drumscore.timing import Tempo

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def drawn(ch: str, wide: bool) -> int:
    """The columns a terminal draws `ch` in: wide and full-width two, ambiguous two in a CJK
    terminal (`wide`), combining marks none, the rest one."""
    if unicodedata.combining(ch):
        return 0
    kind = unicodedata.east_asian_width(ch)
    return 2 if kind in "WF" or (wide and kind == "A") else 1


def starts(line: str, wide: bool) -> dict[int, str]:
    """Each character that is not a space, by the column it starts at."""
    at, found = 0, {}
    for ch in line:
        if not ch.isspace():
            found[at] = ch
        at += drawn(ch, wide)
    return found


@pytest.fixture(autouse=True)
def _narrow_unless_asked(monkeypatch):
    monkeypatch.delenv("DRUMSCORE_AMBIGUOUS_WIDE", raising=False)
    monkeypatch.delenv("WT_SESSION", raising=False)
    before = display.set_ambiguous_wide(None)
    yield
    display.set_ambiguous_wide(before)


def _alignment(out: str) -> tuple[str, str, str]:
    lines = out.splitlines()
    a, b, marks = lines[3], lines[4], lines[5]
    assert a.startswith("A  ") and b.startswith("B  ") and marks.startswith("   ")
    return a, b, marks


@pytest.mark.parametrize(
    ("argv", "env", "wide"),
    [
        (["compare", "lu", "xue"], None, False),
        (["--ambiguous-wide", "compare", "lu", "xue"], None, True),
        (["compare", "lu/2", "lu/2@tongjie", "--ambiguous-wide"], None, True),
        (["compare", "lu", "xue"], "1", True),
        (["compare", "lu", "xue"], "0", False),
    ],
)
def test_every_mark_stands_under_a_stroke_of_both_rows(cli, monkeypatch, argv, env, wide):
    if env is not None:
        monkeypatch.setenv("DRUMSCORE_AMBIGUOUS_WIDE", env)
    code, out, err = cli(*argv)
    assert code == 0, err
    a, b, marks = (starts(line, wide) for line in _alignment(out))
    assert len(marks) >= 2
    for column, mark in marks.items():
        assert mark in "*+-"
        assert a.get(column) in ("○", "□", "·") and b.get(column) in ("○", "□", "·"), column
    # and every stroke of A has B's stroke (or its gap) in the same column, 半 aside
    assert {c for c, s in a.items() if s != "半"} == {c for c, s in b.items() if s != "半"}


def test_without_the_option_a_wide_terminal_sees_the_marks_drift(cli):
    """What the option is for: the narrow layout, drawn by a CJK terminal, puts the marks of the
    end of the line under no stroke."""
    code, out, _ = cli("compare", "lu", "xue")
    assert code == 0
    a, _b, marks = (starts(line, True) for line in _alignment(out))
    assert any(a.get(column) not in ("○", "□", "·") for column in marks)


@pytest.mark.parametrize("wide", [False, True])
def test_the_list_table_keeps_its_columns(cli, wide):
    code, out, _ = cli(*(["--ambiguous-wide"] if wide else []), "list")
    assert code == 0
    lines = out.splitlines()
    rule = lines[1]
    assert set(rule) <= {"-", " "}
    # the columns start where the rule's dashes start, in every row, as a wide terminal draws
    columns = [m.start() for m in re.finditer(r"-+", rule)]
    for line in lines[2:]:
        cells = re.split(r"(?<=\S)  +(?=\S)", line)
        at, found = 0, []
        text = line
        for cell in cells:
            index = text.index(cell)
            at += sum(drawn(ch, wide) for ch in text[:index])
            found.append(at)
            at += sum(drawn(ch, wide) for ch in cell)
            text = text[index + len(cell) :]
        assert found == columns[: len(found)], line


@pytest.mark.parametrize("shape", ["○", "□", "3"])
def test_the_play_display_fits_and_keeps_its_shape_on_a_wide_terminal(shape):
    t = arrange(resolve("○□○半○□"), None, Tempo.from_interval("0.5"), 2)
    hits = Track.single(t, count_in=3).hits(44100)
    hit = next(
        h
        for h in hits
        if (h.is_count and str(h.k + 1) == shape)
        or (not h.is_count and t.strokes[h.index].drum.symbol == shape)
    )
    state = liveview.LiveState(bpm=120)
    narrow = liveview.big_frame(hit, state, 80, 30)
    display.set_ambiguous_wide(True)
    wide = liveview.big_frame(hit, state, 80, 30)
    header = liveview.hit_frame(hit, state, 60, keys=True)
    assert narrow is not None and wide is not None
    for line in wide:
        assert sum(drawn(ch, True) for ch in line) <= 79, line
    for line in header:
        assert sum(drawn(ch, True) for ch in ANSI.sub("", line)) <= 60, line
    # the big shape takes the same columns, drawn with blocks two columns wide
    shaped = [(n, w) for n, w in zip(narrow, wide, strict=True) if "█" in n]
    assert shaped
    for n, w in shaped:
        assert starts(n, False).keys() >= starts(w, True).keys()
        assert sum(drawn(ch, False) for ch in n) == sum(drawn(ch, True) for ch in w)


def test_the_width_of_each_kind_of_character():
    assert display.width("○□—·│█") == 6 and display.width("鼓半") == 4
    display.set_ambiguous_wide(True)
    assert display.width("○□—·│█") == 12 and display.width("鼓半") == 4
    assert display.width("lu/2") == 4 and display.pad("○", 3) == "○ "
    assert display.cut("○□○□", 6) == "○□…" and display.cut("○□○□", 5) == "○…"


@pytest.mark.parametrize(
    ("environ", "code_page", "wide"),
    [
        ({"DRUMSCORE_AMBIGUOUS_WIDE": "1"}, None, True),
        ({"DRUMSCORE_AMBIGUOUS_WIDE": "0"}, 950, False),
        ({}, 950, True),  # a Windows console in Big5
        ({}, 936, True),
        ({}, 437, False),
        ({"WT_SESSION": "x"}, 936, False),  # Windows Terminal draws them narrow
        ({"LANG": "zh_TW.UTF-8", "TERM": "xterm-256color"}, None, False),  # tells nothing
    ],
)
def test_what_the_environment_tells(environ, code_page, wide):
    assert display.from_environment(environ, code_page=code_page) is wide


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["yes", "2", "wide"])
def test_bad_input_a_value_of_the_variable_that_is_neither_1_nor_0(
    monkeypatch, expect_error, value
):
    monkeypatch.setenv("DRUMSCORE_AMBIGUOUS_WIDE", value)
    err = expect_error("list")
    assert f"DRUMSCORE_AMBIGUOUS_WIDE={value!r}" in err and "set it to 1 or 0" in err
    with pytest.raises(OptionError):
        display.from_environment()
    assert display.ambiguous_wide() is False  # the library, asked without the CLI, goes on
