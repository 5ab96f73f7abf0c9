"""The picture of a check: a marker per stroke, in the shape of its drum."""

import re

import pytest

from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.model import Drum
from drumscore.performance.check import check
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.timeline import arrange

pytest.importorskip("matplotlib")

from drumscore.performance.plot import plot_check


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
