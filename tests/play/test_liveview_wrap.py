"""play's status line and header at every terminal width from 40 to 200 columns, in English and
both Chinese scripts: no line wider than the terminal allows (its last column free), and every
break between two phrases — a field of the status, a clause of the header — never inside one.

The phrases are written out here as a reader reads them, not taken from the code that breaks."""

from __future__ import annotations

import argparse
import functools

import pytest

from drumscore import i18n
from drumscore.cli.commands.play import fitted, playing_line
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Hit, Track
from drumscore.corpus import resolve
from drumscore.display import set_ambiguous_wide
from drumscore.model import Section
from drumscore.play import liveview
from drumscore.timing import Tempo

WIDTHS = range(40, 201)

#: The status line's fields for stroke 2 of lu's 投壺 section (□ 鼓) in pass 1 of 4, paused,
#: with a switch to 投壺 and a stop waiting; the notation line comes before them.
STATUS = {
    "en": [
        "stroke 2/12",
        "□ 鼓",
        "after 半 (投壺)",
        "pass 1/4",
        "65/min",
        "4.85 s",
        "PAUSED",
        "[switch to touhu at end of pass]",
        "[stop at end of pass]",
    ],
    "zh-Hant": [
        "第 2 擊（共 12）",
        "□ 鼓",
        "半以後（投壺）",
        "第 1 遍（共 4）",
        "每分鐘 65 擊",
        "4.85 秒",
        "已暫停",
        "〔本遍結束時切換至投壺〕",
        "〔本遍結束時停止〕",
    ],
    "zh-Hans": [
        "第 2 击（共 12）",
        "□ 鼓",
        "半以后（投壶）",
        "第 1 遍（共 4）",
        "每分钟 65 击",
        "4.85 秒",
        "已暂停",
        "〔本遍结束时切换至投壶〕",
        "〔本遍结束时停止〕",
    ],
}

#: The header of lu's 投壺 section four times, after a count-in of 4, as (what stands before,
#: phrase): a line that breaks before a phrase drops what stood before it.
HEADER = {
    "en": [
        ("", "playing 禮記注疏 ·"),
        (" ", "魯鼓 ·"),
        (" ", "figure 1 ·"),
        (" ", "touhu ×4 [lu/1@zhushu]:"),
        (" ", "48 strokes after 4 count strokes,"),
        (" ", "60/min (1 s apart) on 「default」;"),
        (" ", "q or Esc stops"),
    ],
    "zh-Hant": [
        ("", "在「default」上演奏"),
        ("", "《禮記注疏》魯鼓第一圖・"),
        ("", "投壺 ×4（lu/1@zhushu）："),
        ("", "4 下預備拍後 48 擊，"),
        ("", "每分鐘 60 擊（相隔 1 秒）；"),
        ("", "按 q 或 Esc 停止"),
    ],
    "zh-Hans": [
        ("", "在「default」上演奏"),
        ("", "《礼记注疏》鲁鼓第一图・"),
        ("", "投壶 ×4（lu/1@zhushu）："),
        ("", "4 下预备拍后 48 击，"),
        ("", "每分钟 60 击（相隔 1 秒）；"),
        ("", "按 q 或 Esc 停止"),
    ],
}


@pytest.fixture(params=[False, True], ids=["narrow", "ambiguous-wide"])
def ambiguous(request):
    """Each test in a terminal that draws ○ □ · narrow, and in one that draws them wide."""
    before = set_ambiguous_wide(request.param)
    yield request.param
    set_ambiguous_wide(before)


def _lu_touhu(count_in: int = 0) -> Track:
    timeline = arrange(resolve("lu"), Section.TOUHU, Tempo.from_bpm(60), 4)
    return Track.single(timeline, count_in)


@functools.cache
def _status_hit() -> Hit:
    """Stroke 2 of lu's 投壺 section, laid out once for every width the status is fitted to."""
    return _lu_touhu().hits(44100)[1]


def _status_lines(language: str, columns: int) -> list[str]:
    hit = _status_hit()
    state = liveview.LiveState(
        bpm=65,
        paused=True,
        waiting=(liveview.SWITCH_WAITS, liveview.STOP_WAITS),
        switch_to=Section.TOUHU,
        seconds=4.85,
    )
    with i18n.speaking(language):
        return liveview.hit_frame(hit, state, columns)[1:]  # the notation line before them


def _in_phrases(lines: list[str], phrases: list[tuple[str, str]]) -> bool:
    """Whether `lines` are `phrases` in order, each line whole phrases joined as they stood."""
    at = 0
    for line in lines:
        text = ""
        while at < len(phrases) and text != line:
            before, phrase = phrases[at]
            text = text + before + phrase if text else phrase
            at += 1
            if not line.startswith(text):
                return False
        if text != line:
            return False
    return at == len(phrases)


@pytest.mark.parametrize("language", list(STATUS))
def test_the_status_line_breaks_only_between_its_fields(language, ambiguous):
    from drumscore.play.liveview import shown_width

    fields = [("  ", field) for field in STATUS[language]]
    for columns in WIDTHS:
        lines = _status_lines(language, columns)
        assert all(shown_width(line) <= columns - 1 for line in lines), (columns, lines)
        assert all(line.startswith("  ") for line in lines)  # each indented as the first
        assert _in_phrases([line[2:] for line in lines], fields), (columns, lines)
        if columns >= 150:
            assert len(lines) == 1  # wide enough: one line
    narrowest = _status_lines(language, 40)
    assert len(narrowest) > 2  # the test has breaks to judge


@pytest.mark.parametrize("language", list(HEADER))
def test_the_header_breaks_only_between_its_clauses(language, ambiguous):
    from drumscore.display import width

    with i18n.speaking(language):
        line = playing_line(argparse.Namespace(loop=False), _lu_touhu(4), "「default」", True)
    for columns in WIDTHS:
        lines = fitted(line, columns)
        assert all(width(part) <= columns - 1 for part in lines), (columns, lines)
        assert _in_phrases(lines, HEADER[language]), (columns, lines)
    assert len(fitted(line, 40)) >= 4 and len(fitted(line, 200)) == 1


def test_the_big_view_wraps_what_waits_between_its_notes(ambiguous):
    from drumscore.play.liveview import shown_width

    hit = _lu_touhu().hits(44100)[1]
    state = liveview.LiveState(
        bpm=65,
        paused=True,
        waiting=(liveview.SWITCH_WAITS, liveview.STOP_WAITS),
        switch_to=Section.TOUHU,
    )
    for language in STATUS:
        with i18n.speaking(language):
            for columns in WIDTHS[::8]:  # a big frame draws its shape: every eighth width
                screen = liveview.big_frame(hit, state, columns, 40)
                assert screen is not None
                assert all(shown_width(line) <= columns - 1 for line in screen)
                text = "\n".join(screen)
                for note in STATUS[language][-2:]:
                    assert note in text, (columns, screen)  # whole, on one line
