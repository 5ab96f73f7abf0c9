"""Hostile notation: long strings, line breaks of every kind, patterns past the stroke limit."""

import time
import tracemalloc

import pytest
from cli_run import expect_error, run_cli
from hostile_checks import refused

from drumscore.apparatus.linear import align, needleman_wunsch
from drumscore.display import width
from drumscore.errors import NotationError
from drumscore.notation import LINE_BREAKS, MAX_STROKES, parse


@pytest.mark.parametrize("brk", sorted(LINE_BREAKS | {"\r\n"}))
def test_the_caret_stands_under_the_bad_character_after_any_line_break(brk):
    text = f"○□{brk}□○X○"
    with pytest.raises(NotationError) as caught:
        parse(text)
    error = caught.value
    assert (error.line, error.column) == (2, 3)
    shown, caret = str(error).splitlines()[1:3]
    # the caret's column, counting the wide ○ and □ as two, is the column of X
    assert caret.index("^") == width(shown[: shown.index("X")])
    assert brk not in shown


@pytest.mark.parametrize("glyphs", [86, 300, 4095, 5000])
def test_long_raw_notation_is_read_as_notation_not_as_a_file_name(glyphs, capsys, tmp_path):
    notation = "○□" * (glyphs // 2) + "○" * (glyphs % 2)
    start = time.thread_time()
    code, out, err = run_cli(["show", notation], capsys)
    assert code == 0, err
    assert f"{glyphs} " in out or str(glyphs) in out
    bad = notation[:-1] + "X"
    err = expect_error(["show", bad], capsys)
    assert "unexpected character 'X'" in err and "File name too long" not in err
    assert time.thread_time() - start < 1


def test_a_pattern_past_the_stroke_limit_is_refused_at_once(capsys, tmp_path):
    argv = ["compare", "○" * (MAX_STROKES + 1), "□" * MAX_STROKES, "--audio", f"{tmp_path}/c.wav"]
    assert f"more than {MAX_STROKES:,} strokes" in refused(argv, capsys, tmp_path)


def test_alignment_memory_grows_linearly():
    a = ["○□"[(i * 7) % 3 == 0] for i in range(1200)]
    b = a[100:] + ["○"] * 50
    tracemalloc.start()
    pairs = align(a, b)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the full table alone would be 1201 × 1151 Python ints in lists: over 10 MB
    assert peak < 2 * 1024**2, peak
    small_a, small_b = a[:150], b[:140]
    assert align(small_a, small_b) == needleman_wunsch(small_a, small_b)
    assert len([p for p in pairs if p[0] is not None]) == len(a)
