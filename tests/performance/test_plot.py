"""The picture of a check: a marker per stroke, in the shape of its drum."""

import re

import pytest

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.model import Drum
from drumscore.performance.check import check
from drumscore.performance.heard import HeardStroke, Performance

pytest.importorskip("matplotlib")

from drumscore.performance.plot import plot_check
from drumscore.render import plot as render_plot


def result():
    drums = [s.drum for s in resolve("lu").pattern.strokes]
    strokes = [
        HeardStroke(1.0 + 0.8 * k + (0.01 if k % 2 else -0.01), d) for k, d in enumerate(drums)
    ]
    del strokes[3]  # a missed stroke
    strokes.append(HeardStroke(1.0 + 0.8 * 9.5, Drum.GU))  # an extra one
    strokes.sort(key=lambda s: s.time)
    performance = Performance("t.mid", "midi", tuple(strokes), 30.0, "test")
    return check(performance, arrange(resolve("lu")))


def test_every_stroke_has_a_marker_and_circles_and_squares_follow_the_drums():
    svg = plot_check(result(), "svg").decode("utf-8")
    groups = re.findall(r'<g id="PathCollection_\d+">(.*?)</g>', svg, re.S)
    counts = sorted(g.count("<use") for g in groups)
    # ○ strokes heard, □ strokes heard, the missed one, the extra one
    drums = [s.drum for s in resolve("lu").pattern.strokes]
    pi, gu = drums.count(Drum.PI), drums.count(Drum.GU)
    missed = drums[3]
    assert counts == sorted([pi - (missed is Drum.PI), gu - (missed is Drum.GU), 1, 1])


def test_a_format_it_cannot_draw_is_refused():
    with pytest.raises(OptionError) as info:
        plot_check(result(), "jpg")
    assert info.value.option == "plot"


@pytest.fixture
def texts(monkeypatch):
    """What the picture writes: every string passed to the axes' title and labels."""
    from matplotlib.axes import Axes

    said: dict[str, str] = {}
    for name in ("set_title", "set_xlabel", "set_ylabel"):
        original = getattr(Axes, name)

        def record(ax, text, *args, _name=name, _original=original, **kwargs):
            said[_name] = text
            return _original(ax, text, *args, **kwargs)

        monkeypatch.setattr(Axes, name, record)
    return said


def test_the_title_and_axes_speak_traditional_chinese(texts):
    if render_plot.cjk_font() is None:
        pytest.skip("no CJK font (fonts-noto-cjk) to draw Chinese with")
    checked = result()
    with i18n.speaking("zh_Hant"):
        png = plot_check(checked, "png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    figures, marks = texts["set_title"].split("\n")
    assert figures.startswith(f"每分鐘 {checked.tempo_bpm:.2f} 擊；|偏差| 平均 ")
    assert figures.endswith("漏擊 1，多擊 1，擊錯鼓 0")
    assert marks.startswith("圓 = 鼙（小鼓），方 = 鼓（大鼓），紅色實心")
    assert texts["set_xlabel"] == "鼓譜的第幾擊（間若一：橫線即均勻的節拍）"
    assert texts["set_ylabel"] == "與均勻節拍的偏差（毫秒；+ 為偏晚）"


def test_without_a_cjk_font_the_picture_speaks_english_not_empty_boxes(texts, monkeypatch):
    monkeypatch.setattr(render_plot, "cjk_font", lambda: None)
    with i18n.speaking("zh_Hant"):
        plot_check(result(), "svg")
        assert i18n.language() == "zh_Hant"  # the reader's language again after the drawing
    assert "strokes a minute" in texts["set_title"] and "missed 1" in texts["set_title"]
    assert texts["set_xlabel"] == "stroke of the score"
