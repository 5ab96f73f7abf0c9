"""A picture of a check: each stroke's offset from the performer's even beat, ○ for 鼙 and □
for 鼓, the missed, extra and wrong strokes marked.

Needs matplotlib (the optional extra `plot`); it is imported only here.
"""

from __future__ import annotations

import io

from drumscore.i18n import _
from drumscore.model import Drum
from drumscore.performance.check import Check
from drumscore.render.plot import COLOURS, drawn

WRONG_COLOUR = "#d62728"
EXTRA_COLOUR = "#7a7a7a"


def plot_check(result: Check, fmt: str = "png") -> bytes:
    """The check drawn as PNG or SVG bytes: a marker per stroke of the score at its offset (ms)
    from the fitted beat, in the shape of the drum the score asks for (○ 鼙, □ 鼓), filled red
    where the other drum was heard; on the line, a cross for a missed stroke and a grey triangle
    where an extra one was heard. matplotlib's global state is left as it was.

    The text is in the reader's language, or in English when no CJK font is found (Chinese
    would be drawn as empty boxes)."""
    return drawn(fmt, lambda cjk: _draw(result, fmt, cjk))


def labels(result: Check, cjk: str | None) -> dict[str, str]:
    """The text of the picture, in the current language: its axes and its title (the figures,
    then what each mark means)."""
    if cjk:
        xlabel = _("stroke of the score (間若一: the line is the even beat)")
    else:
        xlabel = _("stroke of the score")
    figures = _(
        "{tempo:.2f} strokes a minute; |offset| mean {mean:.1f} ms, largest {largest:.1f} ms; "
        "missed {missed}, extra {extra}, wrong drum {wrong}"
    ).format(
        tempo=result.tempo_bpm,
        mean=result.mean_abs_ms,
        largest=abs(result.largest.offset_ms or 0),
        missed=len(result.missing),
        extra=len(result.extra),
        wrong=len(result.wrong),
    )
    marks = _(
        "circle = pi (small drum), square = gu (big drum), filled red = the other drum heard, "
        "x = missed, triangle = extra (where heard)"
    )
    return {
        "xlabel": xlabel,
        "ylabel": _("offset from the even beat (ms; + late)"),
        "title": f"{figures}\n{marks}",
    }


def _draw(result: Check, fmt: str, cjk: str | None) -> bytes:
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    # the last stroke's number: strokes left to the player (play --check --only) are not drawn
    count = max((s.index for s in result.strokes), default=0)
    fig = Figure(figsize=(max(8.0, min(0.28 * count + 2.5, 40.0)), 3.6), dpi=120)
    ax = fig.subplots()
    ax.axhline(0, color="#444444", lw=1, zorder=1)
    size = 70 if count <= 100 else 25
    for drum in Drum:
        marker = "o" if drum is Drum.PI else "s"
        for wrong in (False, True):
            chosen = [s for s in result.matched if s.expected is drum and s.wrong is wrong]
            if not chosen:
                continue
            ax.scatter(
                [s.index for s in chosen],
                [s.offset_ms or 0.0 for s in chosen],
                marker=marker,
                s=size,
                facecolors=WRONG_COLOUR if wrong else "white",
                edgecolors=COLOURS[drum],
                linewidths=1.5,
                zorder=3,
            )
    missed = result.missing
    if missed:
        ax.scatter(
            [s.index for s in missed], [0] * len(missed), marker="x", s=size, c="black", zorder=4
        )
    if result.extra:
        # an extra stroke stands on the line where it was heard, in strokes of the score
        xs = [(e.time - result.start) / result.interval + 1 for e in result.extra]
        ax.scatter(xs, [0] * len(xs), marker="^", s=size, c=EXTRA_COLOUR, zorder=3)
    ax.set_xlim(0, count + 1)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    text = labels(result, cjk)
    ax.set_xlabel(text["xlabel"])
    ax.set_ylabel(text["ylabel"])
    ax.set_title(text["title"], fontsize=8)
    for spine in ("top", "right"):
        ax.spines[spine].set_visible(False)
    fig.tight_layout()
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt)
    return buffer.getvalue()
