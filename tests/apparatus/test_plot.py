"""The picture of the apparatus: its title and legend in the reader's language, every character
drawn from the CJK font (no missing glyphs), English where no CJK font is installed."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("matplotlib")

import itertools

from drumscore import i18n
from drumscore.apparatus.gather import collate
from drumscore.apparatus.plot import figure, plot_apparatus
from drumscore.render import plot as render_plot


def drawn_figure(apparatuses):
    """The figure plot_apparatus draws, made the way it is made (fonts and language set)."""
    made = []

    def draw(cjk):
        made.append(figure(apparatuses, cjk))
        return b""

    render_plot.drawn("png", draw)
    return made[0]


@pytest.fixture
def cjk():
    font = render_plot.cjk_font()
    if font is None:
        pytest.skip("needs a CJK font (Debian: fonts-noto-cjk)")
    return font


@pytest.fixture(scope="module")
def lu2():
    (found,) = collate(scores=[(2, "魯")])
    return found


def test_the_title_and_legend_are_in_traditional_chinese(cjk, lu2):
    with i18n.speaking("zh_Hant"):
        fig = drawn_figure([lu2])
    title = fig.axes[0].get_title(loc="left")
    n, m = len(lu2.parting), len(lu2.reports)
    assert title == f"魯鼓第二圖（lu/2）　底本《禮記注疏》；刊本異文 {n} 處；注文所載異文 {m} 處"
    legend = fig.texts[0].get_text()
    assert (
        legend.startswith("圓 = ○ 鼙，方 = □ 鼓，豎線 = 半")
        and "藍色 = 僅有注文所述的異文" in legend
    )
    names = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    # the rows are named as the Chinese apparatus cites the editions, never by their ids
    assert names[0] == "底本《禮記注疏》" and "通解" in names and "樂書卷百十八" in names
    assert "大戴禮  見義疏所引" in names
    assert not [n for n in names if any(w.siglum in n for w in lu2.printed)]


def test_every_chinese_character_is_drawn_from_a_font_that_has_it(cjk, lu2):
    for language in ("zh_Hant", "zh_Hans"):
        with i18n.speaking(language), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            png = plot_apparatus([lu2], "png")
        assert png.startswith(b"\x89PNG")
        missing = [str(w.message) for w in caught if "missing from" in str(w.message)]
        assert not missing, missing[:3]


@pytest.mark.filterwarnings("ignore:Glyph")  # the siglum 大戴禮 has no other spelling
def test_without_a_cjk_font_the_words_stay_english(monkeypatch, lu2):
    monkeypatch.setattr(render_plot, "cjk_font", lambda: None)
    with i18n.speaking("zh_Hant"):
        fig = drawn_figure([lu2])
        assert i18n.language() == "zh_Hant"  # the reader's language is back after drawing
    title = fig.axes[0].get_title(loc="left")
    assert title.startswith("lu/2 · lu drum, figure 2 · base zhushu · ")
    assert title.endswith("; 1 reading reported by notes")
    assert fig.texts[0].get_text().startswith("circle = pi (small drum)")


@pytest.mark.parametrize("language", ["en", "zh_Hant"])
def test_no_two_column_labels_overlap_and_a_run_of_insertions_is_labelled_once(language, lu2):
    """lu/2 has two strokes inserted after its 21st: their columns were both labelled
    `after 21`, drawn on top of each other (`after 21after 21`); now once, between them, on
    two lines, and no label's box (as matplotlib's renderer draws it) touches another's."""
    if language != "en" and render_plot.cjk_font() is None:
        pytest.skip("needs a CJK font (Debian: fonts-noto-cjk)")
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    measured = []

    def draw(cjk):  # measured as drawn: in the fonts render.plot.drawn sets
        fig = figure([lu2], cjk)
        canvas = FigureCanvasAgg(fig)
        canvas.draw()
        ticks = [t for t in fig.axes[0].get_xticklabels() if t.get_text()]
        renderer = canvas.get_renderer()
        measured.extend((t.get_text(), t.get_window_extent(renderer)) for t in ticks)
        return b""

    with i18n.speaking(language):
        render_plot.drawn("png", draw)
    texts = [text.replace("\n", " ") for text, _ in measured]
    after = [t for t in texts if "21" in t and t != "21"]
    assert len(after) == 1, texts
    boxes = sorted((box for _, box in measured), key=lambda box: box.x0)
    for left, right in itertools.pairwise(boxes):
        assert left.x1 < right.x0, (left, right)


def test_without_a_cjk_font_every_word_is_one_a_latin_font_draws(lu2):
    """With no CJK font the plot is drawn in English, and no label may need one: a text a note
    reports (大戴禮) is named by the edition that prints the note."""
    with i18n.speaking("en"):
        fig = figure([lu2], None)
    texts = [
        t.get_text()
        for ax in fig.axes
        for t in [ax.title, *ax.get_xticklabels(), *ax.get_yticklabels(), *ax.texts]
    ] + [t.get_text() for t in fig.texts]
    assert any(t.startswith("reported in ") for t in texts), texts
    assert not [t for t in texts if any(ord(c) >= 0x2E80 for c in t)], texts
