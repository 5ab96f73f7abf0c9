"""A picture of a comparison: both scores on one time line, differences and 半 marked.

Needs matplotlib (the optional extra `plot`); it is imported only here.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drumscore.analysis.compare import Comparison
from drumscore.errors import OptionError, require
from drumscore.files.format_choice import PLOT
from drumscore.i18n import _, chinese, language, list_text, ngettext, speaking
from drumscore.model import HALF, Drum, Score, Section

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: The CJK fonts a plot is drawn with, the first installed, for each language: the face of the
#: reader's script first (TC draws 吳, SC 吴's forms), traditional for English (the sources' names).
CJK_FONTS = {
    "zh_Hant": ("Noto Sans CJK TC", "Noto Sans CJK SC", "AR PL UMing TW", "WenQuanYi Zen Hei"),
    "zh_Hans": ("Noto Sans CJK SC", "Noto Sans CJK TC", "WenQuanYi Zen Hei", "AR PL UMing TW"),
    "en": ("Noto Sans CJK TC", "Noto Sans CJK SC", "AR PL UMing TW", "WenQuanYi Zen Hei"),
}
COLOURS = {Drum.PI: "#1f5fa8", Drum.GU: "#b5371f"}
DIFF_COLOUR = "#f2d45c"
#: The width of an aligned column, and of the whole picture at most, in inches (at 120 dpi).
COLUMN_INCHES = 0.32
MAX_INCHES = 160.0
#: The longest row label, in characters.
LABEL_CHARACTERS = 32


def plot_comparison(comparison: Comparison, fmt: str = "png") -> bytes:
    """The comparison drawn as PNG or SVG bytes: ○ as circles, □ as squares, one row per score.

    matplotlib's global state (its backend, its rcParams) is left as it was: the figure is made
    without pyplot, and the fonts are set for this drawing only.
    """
    return drawn(fmt, lambda cjk: saved(comparison_figure(comparison, cjk), fmt))


def drawn(fmt: str, draw: Callable[[str | None], bytes]) -> bytes:
    """What `draw` makes of the CJK font found (None: romanise), with that font set for this
    drawing only; `fmt` (png or svg) and matplotlib checked first, as every plot needs. The
    words are in the reader's language, or in English where no CJK font can draw Chinese."""
    if fmt not in PLOT.values():
        raise OptionError(
            _("plot format {format!r} is not one drumscore draws; use {formats}").format(
                format=fmt, formats=list_text(PLOT.values())
            ),
            option="plot",
        )
    require("matplotlib", extra="plot", needed=_("plotting needs matplotlib"), option="plot")
    import matplotlib

    cjk = cjk_font()
    fonts: Any = {"font.family": ["sans-serif"], "svg.fonttype": "path"}  # SVG text as outlines
    if cjk:
        fonts["font.sans-serif"] = [cjk, "DejaVu Sans"]
    with matplotlib.rc_context(fonts):
        if cjk is None:
            with speaking("en"):
                return draw(cjk)
        return draw(cjk)


def saved(fig: Figure, fmt: str, **options: Any) -> bytes:
    """A figure as PNG or SVG bytes."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, **options)
    return buffer.getvalue()


def comparison_figure(comparison: Comparison, cjk: str | None) -> Figure:
    """The matplotlib figure of plot_comparison, its words in Chinese characters when a CJK font
    (`cjk`) can draw them; to be drawn inside `drawn`, which sets that font."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    labels = _labels(cjk)
    columns = comparison.columns
    # a column is COLUMN_INCHES wide up to MAX_INCHES in all; past that the marks shrink, so
    # the picture (and the memory it takes) stays bounded however long the patterns are
    step = min(COLUMN_INCHES, (MAX_INCHES - 2.5) / max(1, len(columns)))
    scale = step / COLUMN_INCHES
    fig = Figure(figsize=(max(8.0, step * len(columns) + 2.5), 2.8), dpi=120)
    ax = fig.subplots()
    # aligned columns are numbered from 1, as strokes are everywhere else; each kind of mark
    # is drawn as one collection (one artist per stroke costs time as the square of the count)
    differs = [x for x, column in enumerate(columns, start=1) if column.differs]
    if differs:
        ax.broken_barh(
            [(x - 0.45, 0.9) for x in differs], (-0.8, 2.6), color=DIFF_COLOUR, alpha=0.6, lw=0
        )
    for y, side in ((1, "a"), (0, "b")):
        strokes = [(x, getattr(column, side)) for x, column in enumerate(columns, start=1)]
        gaps = [x for x, stroke in strokes if stroke is None]
        if gaps:
            xs = [v for x in gaps for v in (x - 0.2, x + 0.2, float("nan"))]
            ax.plot(xs, [y if v == v else float("nan") for v in xs], color="#888888", lw=1.5)
        for drum, marker in ((Drum.PI, "o"), (Drum.GU, "s")):
            xs = [x for x, stroke in strokes if stroke is not None and stroke.drum is drum]
            if xs:
                ax.scatter(
                    xs,
                    [y] * len(xs),
                    marker=marker,
                    s=110 * scale**2,
                    facecolors="white",
                    edgecolors=COLOURS[drum],
                    linewidths=2 * scale,
                    zorder=3,
                )
    for y, side in ((1, "a"), (0, "b")):
        half = comparison.half_column(side)
        if half is None:
            continue
        at = half + 0.5  # between column `half` and the next, counting from 1
        ax.plot([at, at], [y - 0.35, y + 0.35], color="black", lw=2)
        ax.text(at, y + 0.42, labels["half"], ha="center", va="bottom", fontsize=9)
        # each section's name under the middle of its strokes
        for mid, name in (((half + 1) / 2, "head"), ((half + len(columns) + 1) / 2, "touhu")):
            ax.text(mid, y - 0.42, labels[name], ha="center", va="top", fontsize=7, color="#555")
    ax.set_yticks(
        [1, 0],
        [_name(comparison.a, cjk, "A", comparison), _name(comparison.b, cjk, "B", comparison)],
    )
    ax.set_ylim(-0.8, 1.8)
    ax.set_xlim(*_axis_limits(len(columns)))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(_("stroke (aligned; an even beat, 間若一)") if cjk else "stroke (aligned)")
    ax.set_title(
        _(
            "differences: {count} (highlighted); circle = pi (small drum), square = gu (big drum)"
        ).format(count=comparison.distance),
        fontsize=9,
    )
    for spine in ("top", "right", "left"):
        ax.spines[spine].set_visible(False)
    fig.tight_layout()
    return fig


def _axis_limits(columns: int) -> tuple[int, int]:
    """The x axis: columns 1..n (numbered from 1, as strokes are), a column of margin each side."""
    return 0, columns + 1


def cjk_font() -> str | None:
    """The installed CJK font of the reader's language (CJK_FONTS), so 半 and edition names
    show; else None (romanise). A family of a collection (NotoSansCJK-Regular.ttc holds JP, KR,
    SC, TC and HK) names its face: matplotlib draws that face of the file, not its first."""
    available = _installed_fonts()
    return next((name for name in CJK_FONTS[language()] if name in available), None)


@functools.cache
def _installed_fonts() -> frozenset[str]:
    """The families matplotlib can draw with. Its cache skips font collections (.ttc), where
    CJK fonts usually are: those are registered here, once."""
    from matplotlib import font_manager

    wanted = {name for names in CJK_FONTS.values() for name in names}
    available = {f.name for f in font_manager.fontManager.ttflist}
    if not available.intersection(wanted):
        for path in font_manager.findSystemFonts():
            if "cjk" in path.lower() or "wqy" in path.lower():
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        available = {f.name for f in font_manager.fontManager.ttflist}
    return frozenset(available)


def _labels(cjk: str | None) -> dict[str, str]:
    if cjk:
        return {"half": HALF, "head": Section.HEAD.label, "touhu": Section.TOUHU.label}
    return {"half": "ban (half)", "head": Section.HEAD.value, "touhu": Section.TOUHU.value}


def _name(score: Score, cjk: str | None, side: str, comparison: Comparison | None = None) -> str:
    """The row's label: the score's name (in Chinese an edition's short name, as compare's
    text names it from `comparison`), or "notation" for raw notation without a CJK font; long
    notation is cut to its start and its stroke count, so the label fits the picture."""
    name = score.key if cjk or score.edition_id else "notation"
    if cjk and score.edition_id and chinese() and comparison is not None:
        name = comparison.title(side.lower())
    if len(name) > LABEL_CHARACTERS:
        strokes = len(score.pattern)
        name = ngettext(
            "{start}… ({count:,} stroke)", "{start}… ({count:,} strokes)", strokes
        ).format(start=name[: LABEL_CHARACTERS - 12], count=strokes)
    return f"{side}: {name}"
