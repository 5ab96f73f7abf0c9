"""The live display: the stroke being heard is highlighted, and 半 stays visible."""

from __future__ import annotations

import re

import pytest

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.display import width
from drumscore.model import Section
from drumscore.play import liveview
from drumscore.timing import Tempo

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
NOTATION = "○□○○半□○□"  # five strokes before 半, three after


def timeline(section=None, repeats=1, notation=NOTATION):
    return arrange(resolve(notation), section, Tempo.from_bpm(120), repeats)


def highlighted(line: str) -> tuple[int, str]:
    """(index among the strokes shown, symbol) of the highlighted stroke in a notation line."""
    before, _, after = line.partition(liveview.HIGHLIGHT)
    assert after, f"nothing highlighted in {line!r}"
    assert liveview.HIGHLIGHT not in after
    shown = ANSI.sub("", before)
    return sum(shown.count(s) for s in "○□"), after[0]


def plain(text: str) -> str:
    return ANSI.sub("", text)


# --- the stroke being heard ------------------------------------------------------------------


@pytest.mark.parametrize("section", [None, "touhu", "head"])
def test_each_stroke_in_turn_is_the_one_highlighted(section):
    t = timeline(section)
    for k, event in enumerate(Track.single(t).hits(44100)):
        index, symbol = highlighted(liveview.notation_line(t, k))
        assert index == k
        assert symbol == event.drum.symbol


def test_strokes_already_heard_are_dimmed_and_the_rest_are_not():
    t = timeline()
    line = liveview.notation_line(t, 3)
    before, _, after = line.partition(liveview.HIGHLIGHT)
    assert before.count(liveview.DIM) == 3
    assert liveview.DIM not in after


def test_the_notation_line_shows_the_pattern_itself():
    t = timeline()
    text = plain(liveview.notation_line(t, 0)).replace(" ", "").replace("│", "")
    assert text == resolve(NOTATION).pattern.notation


def test_the_half_division_stands_between_the_strokes_before_and_after_it():
    t = timeline()
    half = resolve(NOTATION).pattern.half
    text = plain(liveview.notation_line(t, 0))
    before, sep, after = text.partition(liveview.HALF_CELL)
    assert sep
    assert sum(before.count(s) for s in "○□") == half
    assert sum(after.count(s) for s in "○□") == len(t.strokes) - half


def test_a_section_on_one_side_of_half_shows_half_on_the_other():
    touhu = plain(liveview.notation_line(timeline("touhu"), 0)).strip()
    head = plain(liveview.notation_line(timeline("head"), 0)).strip()
    assert touhu.startswith(liveview.HALF_CELL)
    assert head.endswith(liveview.HALF_CELL)


def test_status_names_the_stroke_its_drum_and_its_side_of_half():
    t = timeline()
    half = resolve(NOTATION).pattern.half
    for k, event in enumerate(Track.single(t).hits(44100)):
        status = liveview.hit_status(event, liveview.LiveState(bpm=120))
        assert f"stroke {k + 1}/{len(t.strokes)}" in status
        assert f"{event.drum.symbol} {event.drum.value}" in status
        assert ("before 半" in status) == (k < half)


def test_a_long_pattern_is_cut_to_a_window_that_keeps_the_heard_stroke():
    t = arrange(resolve("xue/2"), None, Tempo.from_bpm(60))
    for columns in (20, 30):
        for k in range(len(t)):
            line = liveview.notation_line(t, k, columns)
            assert width(plain(line)) <= columns
            _, symbol = highlighted(line)
            assert symbol == t.strokes[k].drum.symbol


def test_a_wide_terminal_shows_the_whole_pattern():
    t = arrange(resolve("xue/2"), None, Tempo.from_bpm(60))
    line = plain(liveview.notation_line(t, 0, 200))
    assert "…" not in line
    assert sum(line.count(s) for s in "○□") == len(t.strokes)


# --- repeats and loops -----------------------------------------------------------------------


def test_repeats_and_loops_start_the_highlight_again_with_the_pass_counted():
    t = timeline(repeats=2)
    n = len(t.strokes)
    assert highlighted(liveview.notation_line(t, n))[0] == 0
    hits = Track.single(t).hits(44100)
    assert "pass 2/2" in liveview.hit_status(hits[n], liveview.LiveState(bpm=120))
    looped = Track.single(timeline(repeats=5)).hits(44100)[4 * n + 1]
    status = liveview.hit_status(looped, liveview.LiveState(bpm=120, loop=True))
    assert "pass 5" in status and "/5" not in status.split("pass")[1]


def test_the_time_shown_is_the_conductors_with_the_count_in():
    """The status and the plain lines show when the conductor lays the stroke out: stroke 6
    after a count-in of 3 at 120 a minute sounds at 4 s, not at 2.5 s (k beats in)."""
    t = timeline()
    hit = Track.single(t, 3).hits(44100)[3 + 5]
    assert hit.k == 5 and hit.frame == 4 * 44100
    seconds = hit.frame / 44100
    assert "4.00 s" in liveview.hit_status(hit, liveview.LiveState(bpm=120, seconds=seconds))
    assert "4.000 s" in liveview.plain_lines(hit.timeline, hit.k, seconds)[-1]


# --- plain output ----------------------------------------------------------------------------


def test_plain_output_has_a_line_per_stroke_and_marks_half_and_each_pass():
    t = timeline(repeats=2)
    hits = Track.single(t).hits(44100)
    lines = [line for h in hits for line in liveview.plain_lines(t, h.k, h.frame / 44100)]
    strokes = [line for line in lines if not line.startswith("--")]
    assert len(strokes) == len(t)
    assert [line.split()[3] for line in strokes] == [
        e.drum.symbol for e in Track.single(t).hits(44100)
    ]
    half = resolve(NOTATION).pattern.half
    first = lines.index("-- 半 --")
    assert lines[first + 1].split()[0] == str(half + 1)
    assert lines.count("-- 半 --") == 2
    assert lines.count("-- pass 2 --") == 1
    assert all(ANSI.search(line) is None for line in lines)


# --- painting the terminal -------------------------------------------------------------------


def test_repaint_goes_back_over_the_lines_it_painted():
    first = liveview.repaint(["a", "b"], 0)
    again = liveview.repaint(["c", "d"], 2)
    assert "\x1b[" not in first.replace(liveview.CLEAR_LINE, "").replace("\x1b[J", "")
    assert again.startswith("\r\x1b[1A")
    assert again.count(liveview.CLEAR_LINE) == 2


def test_restore_shows_the_cursor_and_resets_attributes():
    text = liveview.restore()
    assert liveview.SHOW_CURSOR in text
    assert liveview.RESET in text


# --- bad input -------------------------------------------------------------------------------


def test_a_negative_stroke_number_is_refused():
    with pytest.raises(ValueError, match="-1"):
        liveview.notation_line(timeline(), -1)


def test_a_terminal_too_narrow_still_shows_the_heard_stroke():
    t = arrange(resolve("lu"), Section.SHE, Tempo.from_bpm(60))
    line = liveview.notation_line(t, 12, columns=1)
    assert highlighted(line)[1] == t.strokes[12].drum.symbol


def test_a_pattern_without_half_shows_no_division():
    t = arrange(resolve("○□○□"), None, Tempo.from_bpm(60))
    assert liveview.HALF_CELL not in liveview.notation_line(t, 0)
    assert "射" in liveview.hit_status(Track.single(t).hits(44100)[0], liveview.LiveState(bpm=120))


# --- live play: the status with the tempo in force, and the big display -------------------------


def _hit(notation="○□○半○□", count_in=0, beat=0):
    from drumscore.conductor.track import Track

    t = arrange(resolve(notation), None, Tempo.from_interval("0.5"), 2)
    return Track.single(t, count_in).hits(44100)[beat]


def test_the_status_shows_the_tempo_in_force_and_what_waits():
    state = liveview.LiveState(bpm=97, paused=True, waiting=("stop at end of pass",))
    line = liveview.hit_status(_hit(beat=4), state)
    assert "stroke 5/5" in line and "97/min" in line
    assert "PAUSED" in line and "[stop at end of pass]" in line
    assert "count 2/3" in liveview.hit_status(_hit(count_in=3, beat=1), state)


def test_the_keys_are_on_screen_and_fit():
    lines = liveview.hit_frame(_hit(), liveview.LiveState(bpm=60), 100, keys=True)
    keys = "\n".join(lines[lines.index(next(x for x in lines if "keys:" in x)) :])
    assert "tap" in keys and "Esc" in keys
    for columns in (60, 100, 140):
        assert width(liveview.keys_line(columns)) <= columns


def filled(rows, r, c):
    """Whether the cell (row r, column c of two-character cells) is drawn."""
    line = rows[r]
    return line[2 * c : 2 * c + 2] == liveview.FULL * 2


@pytest.mark.parametrize("size", [9, 21, 30])
def test_a_ring_for_pi_and_a_square_for_gu(size):
    ring, square = liveview.big_shape("○", size), liveview.big_shape("□", size)
    assert len(ring) == len(square) == size
    mid = size // 2
    # the square's corners are drawn, the ring's are not; both are hollow
    assert filled(square, 0, 0) and filled(square, size - 1, size - 1)
    assert not filled(ring, 0, 0) and not filled(ring, size - 1, size - 1)
    assert not filled(square, mid, mid) and not filled(ring, mid, mid)
    # the ring touches the middle of each side
    assert any(filled(ring, r, mid) for r in (0, 1)) and any(filled(ring, mid, c) for c in (0, 1))


def test_the_big_display_fills_the_terminal_and_gives_way_on_a_small_one():
    state = liveview.LiveState(bpm=60)
    screen = liveview.big_frame(_hit(beat=1), state, 100, 34)
    assert len(screen) == 34
    assert all(width(line) <= 100 for line in screen)
    text = "\n".join(screen)
    assert "□ 鼓" in text and "stroke 2 of 5" in text and "60/min" in text
    assert sum(line.count(liveview.FULL) for line in screen) > 500  # drawn large
    assert "keys:" in screen[-1]
    counting = "\n".join(liveview.big_frame(_hit(count_in=4, beat=2), state, 100, 34))
    assert "count 3 of 4" in counting
    assert liveview.big_frame(_hit(), state, 100, 12) is None
    assert liveview.big_frame(_hit(), state, 30, 34) is None


@pytest.mark.parametrize("columns", [20, 40, 60, 80, 120])
def test_every_line_fits_and_no_field_is_split(columns):
    waiting = ("switch at end of pass", "stop at end of pass")
    state = liveview.LiveState(
        bpm=123.5, paused=True, waiting=waiting, items=3, label="初投 figure 1"
    )
    lines = liveview.hit_frame(_hit(beat=4), state, columns, keys=True)
    assert all(liveview.shown_width(line) <= columns - 1 for line in lines)
    text = "\n".join(lines)
    for field in ("PAUSED", "123.5/min", "[switch at end of pass]", "[stop at end of pass]"):
        assert field in text or columns < width(field) + 3
    assert text.count("stroke 5/5") == 1


# --- in the reader's language -------------------------------------------------------------------


def test_the_status_and_keys_in_traditional_chinese():
    state = liveview.LiveState(bpm=97, paused=True, waiting=(liveview.STOP_WAITS,), seconds=2)
    with i18n.speaking("zh-Hant"):
        line = liveview.hit_status(_hit(beat=4), state)
        keys = liveview.keys_line(200)
        counting = liveview.hit_status(_hit(count_in=3, beat=1), state)
    assert line.split("  ")[1:2] == ["第 5 擊（共 5）"]
    for field in ("每分鐘 97 擊", "已暫停", "〔本遍結束時停止〕", "2.00 秒"):
        assert f"  {field}" in line, field
    assert keys.startswith("  按鍵：空白鍵 暫停 · +/- 速度 ±1")
    assert "Esc 立即停止" in keys and "next" not in keys
    assert "預備拍第 2 下（共 3）" in counting


def test_the_big_display_in_simplified_chinese():
    with i18n.speaking("zh-Hans"):
        screen = liveview.big_frame(_hit(beat=1), liveview.LiveState(bpm=60), 100, 34)
    assert screen is not None
    text = "\n".join(screen)
    assert "第 2 击，共 5 击" in text and "每分钟 60 击" in text and "第 1 遍，共 2 遍" in text
    assert "按键：" in screen[-1]
    assert all(liveview.shown_width(line) <= 99 for line in screen)


@pytest.mark.parametrize("columns", [20, 40, 80])
def test_every_chinese_line_fits_and_no_field_is_split(columns):
    waiting = (liveview.SWITCH_WAITS, liveview.STOP_WAITS)
    state = liveview.LiveState(bpm=123.5, paused=True, waiting=waiting, items=3, label="初投")
    with i18n.speaking("zh-Hant"):
        lines = liveview.hit_frame(_hit(beat=4), state, columns, keys=True)
    assert all(liveview.shown_width(line) <= columns - 1 for line in lines)
    text = "\n".join(lines)
    fields = ("已暫停", "每分鐘 123.5 擊", "〔本遍結束時切換〕", "〔本遍結束時停止〕")
    fields += ("第 1 項（共 3）：初投",)
    for field in fields:
        assert field in text or columns < width(field) + 3, field


def test_a_span_of_strokes_is_labelled_where_its_strokes_stand():
    """Strokes 15-17 of 魯 (半 after stroke 11) are after 半 though they are the first three
    played; strokes 10-12 straddle it."""
    from drumscore import corpus
    from drumscore.play.liveview import part

    lu = corpus.resolve("lu")
    late = arrange(lu, Section.SHE, strokes_range="15-17")
    assert [part(late, i) for i in range(3)] == ["after 半 (投壺)"] * 3
    across = arrange(lu, Section.SHE, strokes_range="10-12")
    assert [part(across, i) for i in range(3)] == ["before 半", "before 半", "after 半 (投壺)"]


def test_under_another_reading_every_view_shows_the_sign_as_printed_with_the_drum_it_strikes():
    """毛奇齡 reads ○ as 鼓 and □ as 鼙: the notation line keeps the pattern's signs, and the
    status, the plain lines and the big display show each stroke's printed sign with that drum."""
    from drumscore.model import Reading

    mao = arrange(resolve(NOTATION), None, Tempo.from_bpm(120), reading=Reading.parse("mao"))
    strokes = resolve(NOTATION).pattern.strokes
    read = {"○": "鼓", "□": "鼙"}
    line = plain(liveview.notation_line(mao, 0, 200))
    assert "".join(c for c in line if c in "○□") == NOTATION.replace("半", "")
    state = liveview.LiveState(bpm=120)
    for hit in Track.single(mao).hits(44100):
        sign = strokes[hit.index].drum.symbol
        shown = f"{sign} {read[sign]}"
        assert shown in liveview.hit_status(hit, state)
        assert shown in liveview.plain_lines(mao, hit.k, 0.0)[-1]
        assert shown in "\n".join(liveview.big_frame(hit, state, 100, 34))
        assert highlighted(liveview.notation_line(mao, hit.k, 200))[1] == sign


def _painted(screen: list[str], text: str) -> list[str]:
    """`screen` after a terminal draws `text` of paint_screen (home, a row moved to, a line
    cleared, a new line)."""
    rows = list(screen)
    row = 0
    at = 0
    pattern = re.compile(r"\x1b\[H|\x1b\[(\d+);1H|\x1b\[2K|\n|[^\x1b\n]+")
    while at < len(text):
        m = pattern.match(text, at)
        assert m is not None, text[at:]
        piece = m.group(0)
        if piece == "\x1b[H":
            row = 0
        elif m.group(1):
            row = int(m.group(1)) - 1
        elif piece == liveview.CLEAR_LINE:
            rows[row] = ""
        elif piece == "\n":
            row += 1
        else:
            rows[row] += piece
        at = m.end()
    return rows


def test_the_big_screen_repaints_only_the_rows_that_changed():
    t = arrange(resolve("○□○"), None, Tempo.from_interval("0.5"), 1)
    hit = Track.single(t).hits(44100)[1]
    first = liveview.big_frame(
        hit, liveview.LiveState(bpm=120, heard=("stroke 1: 鼙 +0 ms",)), 100, 34
    )
    then = liveview.big_frame(
        hit, liveview.LiveState(bpm=120, heard=("stroke 2: 鼓 +3 ms",)), 100, 34
    )
    assert first is not None and then is not None
    whole = liveview.paint_screen(first)
    assert _painted([""] * 34, whole) == first
    change = liveview.paint_screen(then, first)
    assert _painted(first, change) == then
    assert len(change) < len(whole) / 10  # a row, not the screenful of blocks
    assert liveview.paint_screen(then, then) == ""
    # a screen of another size is painted whole
    assert liveview.paint_screen(then, first[:-1]) == liveview.paint_screen(then)
