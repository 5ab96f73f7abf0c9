"""A picture of the apparatus: editions as rows, aligned positions as columns.

○ is drawn as a circle, □ as a square, 半 as a bar between strokes; a place where the printed
editions part is highlighted yellow and numbered, a place where only a text known from a note
differs is highlighted blue; such a text has its own row (grey, marked "reported"). The title
states the apparatus's summary. The words are in the reader's language (English where no CJK
font is installed). Needs matplotlib (the optional extra `plot`), imported only here; its
settings are changed only while drawing (render.plot.drawn).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drumscore.apparatus.places import Apparatus, Witness
from drumscore.i18n import _, chinese
from drumscore.model import HALF
from drumscore.render.plot import MAX_INCHES, drawn, saved

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

COLOURS = {"○": "#1f5fa8", "□": "#b5371f"}
PLACE_COLOUR = "#f2d45c"
REPORTED_COLOUR = "#bcd6f0"
#: The most columns labelled (past them, every n-th is), so a long reading's plot stays within
#: MAX_INCHES wide and quick to draw.
LABELLED_COLUMNS = int(MAX_INCHES / 0.27)


def _draw(ax: Axes, a: Apparatus, cjk: bool) -> None:
    rows = len(a.witnesses)
    place_of = a.place_of_column()
    points: dict[str, tuple[list[int], list[int]]] = {"○": ([], []), "□": ([], [])}
    halves: tuple[list[int], list[int]] = ([], [])
    gaps: tuple[list[int], list[int]] = ([], [])
    for k, column in enumerate(a.columns):
        for r, cell in enumerate(column.cells):
            y = rows - 1 - r
            where = halves if cell == HALF else points[cell] if cell else gaps
            where[0].append(k)
            where[1].append(y)
    for p in a.places:
        colour = PLACE_COLOUR if p.editions_part else REPORTED_COLOUR
        ax.axvspan(p.start - 0.48, p.stop - 0.52, color=colour, alpha=0.7, lw=0, zorder=0)
    for symbol, (xs, ys) in points.items():
        ax.scatter(
            xs,
            ys,
            marker="o" if symbol == "○" else "s",
            s=70,
            facecolors="white",
            edgecolors=COLOURS[symbol],
            linewidths=1.8,
            zorder=3,
        )
    # bars and dashes as markers (one path, drawn at each point): quick for a long reading too;
    # a column is 0.27 inch (19.4 points) wide, a row about 20 points high
    ax.scatter(*halves, marker="|", s=15.0**2, color="black", linewidths=2.2, zorder=2)
    ax.scatter(*gaps, marker="_", s=5.8**2, color="#999999", linewidths=1.2, zorder=2)
    labels = [a.column_where(k).tick for k in range(len(a.columns))]
    if not cjk:
        labels = ["ban" if label == HALF else label for label in labels]
    step = max(1, math.ceil(len(a.columns) / LABELLED_COLUMNS))  # a long reading: every step-th
    ticks = _ticks(labels, step)
    ax.set_xticks([tick[0] for tick in ticks], [tick[1] for tick in ticks], fontsize=6)
    for (_at, _text, columns), tick in zip(ticks, ax.get_xticklabels(), strict=True):
        if any(k in place_of for k in columns):
            tick.set_fontweight("bold")

    def named(w: Witness) -> str:
        if cjk and chinese():  # as the Chinese apparatus cites it: 注疏本, 底本《禮記注疏》
            return a.cite(w.siglum)
        return f"{w.siglum}  {w.name}" if cjk else w.siglum

    names = [
        (
            _("{siglum}  reported in {edition}").format(
                siglum=w.siglum, edition=a.cite(w.reported_by)
            )
            if cjk
            # no CJK font: a note's own name (大戴禮) would be empty boxes; its edition's siglum
            else f"{w.siglum} (reported)"
            if w.siglum.isascii()
            else f"reported in {w.reported_by}"
        )
        if w.reported
        else named(w)
        for w in a.witnesses
    ]
    ax.set_yticks(range(rows - 1, -1, -1), names, fontsize=8)
    for w, tick in zip(a.witnesses, ax.get_yticklabels(), strict=True):
        if w.reported:
            tick.set_color("#666666")
            tick.set_fontstyle("italic")
    ax.set_xlim(-0.8, len(a.columns) - 0.2)
    ax.set_ylim(-0.7, rows + 0.15)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    for n, p in enumerate(a.places, 1):
        middle = (p.start + p.stop - 1) / 2
        ax.text(middle, rows - 0.5, f"{n}", ha="center", va="bottom", fontsize=7, weight="bold")
    state = a.title if cjk else f"{a.key.split('/')[0]} drum, figure {a.figure}"
    ax.set_title(
        _("{score} · {title} · base {base} · {summary}").format(
            score=a.key,
            title=state,
            base=f"《{a.base.name}》" if cjk and chinese() else a.base.siglum,
            summary=a.summary,
        ),
        fontsize=9,
        loc="left",
    )


def _ticks(labels: Sequence[str], step: int) -> list[tuple[float, str, list[int]]]:
    """Each tick's place, label and columns: every `step`-th column's label, columns in a row
    with one label (strokes inserted after one stroke: `after 21`) labelled once in their
    middle, and a label of several words on two lines, to stay within its column."""
    ticks: list[tuple[float, str, list[int]]] = []
    for k in range(0, len(labels), step):
        if ticks and ticks[-1][1] == labels[k]:
            ticks[-1][2].append(k)
        else:
            ticks.append((k, labels[k], [k]))
    laid = []
    for _first, label, columns in ticks:
        words = label.split(" ")
        if len(words) > 1:  # broken at the space nearest its middle
            cut = min(
                range(1, len(words)), key=lambda n: abs(2 * len(" ".join(words[:n])) - len(label))
            )
            label = " ".join(words[:cut]) + "\n" + " ".join(words[cut:])
        laid.append(((columns[0] + columns[-1]) / 2, label, columns))
    return laid


def plot_apparatus(apparatuses: Sequence[Apparatus], fmt: str = "png") -> bytes:
    """The apparatus of each score drawn one above the other, as PNG or SVG bytes."""
    return drawn(fmt, lambda cjk: saved(figure(apparatuses, cjk), fmt, facecolor="white"))


def figure(apparatuses: Sequence[Apparatus], cjk: str | None) -> Figure:
    """The matplotlib figure of plot_apparatus, its words in Chinese characters when a CJK font
    (`cjk`) can draw them; to be drawn inside render.plot.drawn, which sets that font."""
    from matplotlib.figure import Figure

    columns = max(len(a.columns) for a in apparatuses)
    heights = [len(a.witnesses) * 0.28 + 0.9 for a in apparatuses]
    width = min(max(7.0, 0.27 * columns + 3.2), MAX_INCHES)
    fig = Figure(figsize=(width, sum(heights)), dpi=130)
    axes = fig.subplots(len(apparatuses), 1, squeeze=False, height_ratios=heights)[:, 0]
    for ax, a in zip(axes, apparatuses, strict=True):
        _draw(ax, a, cjk is not None)
    caption = (
        _(
            "circle = ○ 鼙, square = □ 鼓, bar = 半, dash = nothing there; yellow = the printed "
            "editions part, blue = only a reading reported by a note"
        )
        if cjk
        else (
            "circle = pi (small drum), square = gu (big drum), bar = ban (half), "
            "dash = nothing there; yellow = the printed editions part, blue = only a reading "
            "reported by a note"
        )
    )
    fig.text(0.01, 0.003, caption, fontsize=7, color="#444444", va="bottom")
    fig.tight_layout(rect=(0, 0.02, 1, 1))
    return fig
