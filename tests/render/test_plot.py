"""The comparison picture: strokes numbered from 1, matplotlib's global state left alone."""

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")

import matplotlib

from drumscore import MissingDependencyError, OptionError, i18n
from drumscore.analysis.compare import compare
from drumscore.corpus import resolve
from drumscore.render import plot


def comparison():
    return compare(resolve("lu/2"), resolve("lu/2@xunzuan"))


def test_a_png_is_drawn_and_the_global_settings_are_unchanged():
    backend, fonts = matplotlib.get_backend(), list(matplotlib.rcParams["font.sans-serif"])
    data = plot.plot_comparison(comparison(), "png")
    assert data.startswith(b"\x89PNG")
    assert matplotlib.get_backend() == backend
    assert list(matplotlib.rcParams["font.sans-serif"]) == fonts


def test_the_axis_counts_strokes_from_1():
    svg = plot.plot_comparison(comparison(), "svg")
    ET.fromstring(svg)  # well-formed
    c = comparison()
    # the x axis spans the columns 1..n with half a column of margin either side
    assert b"xtick" in svg
    limits = plot._axis_limits(len(c.columns))
    assert limits == (0, len(c.columns) + 1)


def test_the_rows_are_named_by_the_scores_keys():
    c = comparison()
    assert plot._name(c.a, "Noto Sans CJK TC", "A") == "A: lu/2@zhushu"
    assert plot._name(c.a, None, "A") == "A: lu/2@zhushu"


# --- in the reader's language ----------------------------------------------------------------


def drawn_figure(c, cjk_font=None):
    """The figure plot_comparison draws, made the way it is made (fonts and language set)."""
    made = []
    plot.drawn("png", lambda cjk: made.append(plot.comparison_figure(c, cjk)) or b"")
    return made[0]


@pytest.mark.parametrize(
    ("language", "title", "xlabel"),
    [
        (
            "zh_Hant",
            "差異：{n}（醒目顯示處）；圓 = 鼙（小鼓），方 = 鼓（大鼓）",
            "擊（已對齊；每擊等長，間若一）",
        ),
        (
            "zh_Hans",
            "差异：{n}（高亮处）；圆 = 鼙（小鼓），方 = 鼓（大鼓）",
            "击（已对齐；每击等长，间若一）",
        ),
    ],
)
def test_the_title_and_axis_speak_chinese_with_a_cjk_font(language, title, xlabel):
    if plot.cjk_font() is None:
        pytest.skip("needs a CJK font (Debian: fonts-noto-cjk)")
    c = comparison()
    with i18n.speaking(language):
        fig = drawn_figure(c)
    ax = fig.axes[0]
    assert ax.get_title() == title.format(n=c.distance)
    assert ax.get_xlabel() == xlabel


def test_without_a_cjk_font_the_words_stay_english(monkeypatch):
    monkeypatch.setattr(plot, "cjk_font", lambda: None)
    c = comparison()
    with i18n.speaking("zh_Hant"):
        fig = drawn_figure(c)
        assert i18n.language() == "zh_Hant"
    assert fig.axes[0].get_title().startswith(f"differences: {c.distance} (highlighted)")
    assert fig.axes[0].get_xlabel() == "stroke (aligned)"


def test_a_bad_format_is_refused_in_the_readers_language():
    with i18n.speaking("zh_Hant"), pytest.raises(OptionError) as info:
        plot.plot_comparison(comparison(), "gif")
    assert str(info.value) == "繪圖格式「gif」不是 drumscore 能畫的；請用 png、svg"


# --- bad input and a missing matplotlib -------------------------------------------------------


def test_without_matplotlib_the_error_says_how_to_install(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    with pytest.raises(MissingDependencyError, match=r"drumscore\[plot\]") as info:
        plot.plot_comparison(comparison())
    assert isinstance(info.value, ImportError) and info.value.exit_status == 1


def test_an_unknown_format_is_refused():
    with pytest.raises(OptionError) as info:
        plot.plot_comparison(comparison(), "gif")
    assert info.value.option == "plot"


@pytest.mark.parametrize(
    ("language", "family"),
    [("zh_Hant", "Noto Sans CJK TC"), ("zh_Hans", "Noto Sans CJK SC"), ("en", "Noto Sans CJK TC")],
)
def test_each_language_draws_with_the_face_of_its_script(language, family):
    """NotoSansCJK-Regular.ttc holds the faces JP, KR, SC, TC and HK: the face drawn is the one
    of the reader's script (吳 in its traditional form, 吴's forms in SC), not the file's first."""
    from matplotlib import font_manager
    from matplotlib.ft2font import FT2Font

    with i18n.speaking(language):
        chosen = plot.cjk_font()
        if chosen is None or not chosen.startswith("Noto Sans CJK"):
            pytest.skip("needs Noto Sans CJK (Debian: fonts-noto-cjk)")
        found = []
        plot.drawn(
            "png",
            lambda cjk: found.append(font_manager.findfont(font_manager.FontProperties())) or b"",
        )
    assert chosen == family
    face = FT2Font(str(found[0]), face_index=getattr(found[0], "face_index", 0))
    assert face.family_name == family


def test_the_two_scripts_draw_吳_in_different_outlines():
    """The glyph of 吳 as the SVG draws it (text as outlines) differs between 繁體 and 简体: each
    is drawn from its own face of the collection."""
    from matplotlib.figure import Figure

    def outline(language: str) -> bytes:
        with i18n.speaking(language):
            if plot.cjk_font() is None:
                pytest.skip("needs a CJK font (Debian: fonts-noto-cjk)")

            def draw(cjk):
                fig = Figure(figsize=(1, 1))
                fig.text(0.1, 0.1, "吳", fontsize=40)
                return plot.saved(fig, "svg")

            svg = plot.drawn("svg", draw)
        root = ET.fromstring(svg)
        return b"".join(
            (p.get("d") or "").encode() for p in root.iter("{http://www.w3.org/2000/svg}path")
        )

    hant, hans = outline("zh_Hant"), outline("zh_Hans")
    assert hant and hans and hant != hans
