"""Where every stroke falls: sections, repeats, markers, and what a timeline names."""

import itertools
import re
from fractions import Fraction

import pytest

from drumscore import OptionError, Tempo
from drumscore.conductor.timeline import MAX_REPEAT, arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve


def test_the_touhu_section_is_the_strokes_after_half():
    score = resolve("lu")
    timeline = arrange(score, "touhu")
    assert len(timeline) == len(score.pattern) - score.pattern.half


def test_repeats_continue_the_even_beat():
    timeline = arrange(resolve("lu"), "touhu", Tempo.from_bpm(120), repeats=3)
    assert len(timeline) == 3 * len(timeline.strokes)
    starts = [hit.frame for hit in Track.single(timeline).hits(44100)]  # the conductor's
    assert len(starts) == len(timeline)
    assert {b - a for a, b in itertools.pairwise(starts)} == {22050}  # ½ s, every repeat


def test_a_duration_gives_whole_repeats_that_fit():
    timeline = arrange(resolve("lu"), "touhu", Tempo.from_bpm(60), duration=Fraction(60))
    assert timeline.repeats == 60 // len(timeline.strokes)


def test_the_citation_names_parameters_not_flags():
    citation = arrange(resolve("lu"), "touhu", Tempo.from_bpm(90), repeats=2).citation
    assert citation.startswith("lu/1@zhushu, section touhu, bpm 90, repeats 2;")
    assert "--" not in citation


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize("repeats", [0, -1, MAX_REPEAT + 1, 1.5, True])
def test_a_bad_repeat_count_names_the_parameter(repeats):
    with pytest.raises(OptionError) as info:
        arrange(resolve("lu"), repeats=repeats)
    assert info.value.option == "repeats"


def test_an_empty_section_is_refused():
    from drumscore import Score, parse

    with pytest.raises(OptionError, match="is empty"):
        arrange(Score(parse("半○□")), "head")


def test_fixtures_run_the_command_line(cli, expect_error, source_text):
    code, out, _ = cli("show", "lu")
    assert code == 0 and "lu/1@zhushu" in out
    assert "--repeat" in expect_error("render", "lu", "--repeat", "0", "-o", "x.wav")
    assert "魯鼓" in source_text("KR1d0053_058_禮記注疏.txt")


def test_a_reversed_stroke_range_is_named_reversed_with_the_range_that_works():
    from drumscore.conductor.timeline import parse_span
    from drumscore.errors import OptionError

    with pytest.raises(OptionError) as err:
        parse_span("12-5", 23)
    assert "runs backwards" in str(err.value) and "5-12" in str(err.value)
    with pytest.raises(OptionError) as err:
        parse_span("30-5", 23)  # out of range as well: the range is what is wrong
    assert "outside" in str(err.value)


@pytest.mark.parametrize(
    ("language", "lu1", "figure", "reading"),
    [
        ("zh-Hant", "《禮記注疏》魯鼓第一圖・射 ×2（lu/1@zhushu）", "圖", "毛奇齡說"),
        ("zh-Hans", "《礼记注疏》鲁鼓第一图・射 ×2（lu/1@zhushu）", "图", "毛奇龄说"),
    ],
)
def test_a_chinese_title_cites_the_edition_and_writes_the_figure_in_numerals(
    language, lu1, figure, reading
):
    """Every score's title and description as a Chinese reader writes them: the book in 《》,
    the figure 第一圖/第二圖, the section after ・, the name in （）; no ` · `, no [ ]."""
    from drumscore import i18n
    from drumscore.corpus import editions
    from drumscore.model import READINGS

    with i18n.speaking(language):
        assert arrange(resolve("lu"), "she", repeats=2).description == lu1
        mao = arrange(resolve("lu"), reading=next(r for r in READINGS if r.id == "mao")).description
        assert mao.endswith(f"（lu/1@zhushu，{reading}）"), mao
        for edition in editions():
            for score in edition.scores:
                timeline = arrange(score, "touhu", repeats=3)
                for text in (score.title, timeline.description, timeline.heading):
                    assert " · " not in text and "[" not in text and "]" not in text, text
                    assert re.search("《[^》]+》", text), text
                    number = "一" if score.figure == 1 else "二"
                    assert f"鼓第{number}{figure}" in text, text
        named = {e.id: e.scores[0].title for e in editions()}
    assert named["chenhao"].startswith(("陳澔《禮記集說》", "陈澔《礼记集说》"))
    skqs = ("《禮經本義》（四庫全書本）", "《礼经本义》（四库全书本）")
    assert named["benyi-skqs"].startswith(skqs)


def test_an_english_title_keeps_its_form():
    lu = arrange(resolve("lu"), "she", repeats=2).description
    assert lu == "禮記注疏 · 魯鼓 · figure 1 · she ×2 [lu/1@zhushu]"
