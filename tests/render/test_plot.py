"""The comparison picture: strokes numbered from 1, matplotlib's global state left alone."""

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("matplotlib")

import matplotlib

from drumscore import MissingDependencyError, OptionError
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
