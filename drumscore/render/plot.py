"""A picture of a comparison: both scores on one time line, differences and 半 marked.

Needs matplotlib (the optional extra `plot`); it is imported only here.
"""

from __future__ import annotations

import io

from drumscore.analysis.compare import Comparison
from drumscore.errors import OptionError
from drumscore.model import Drum

FORMATS = {".png": "png", ".svg": "svg"}
_CJK_FONTS = ("Noto Sans CJK TC", "Noto Sans CJK SC", "WenQuanYi Zen Hei", "AR PL UMing TW")
COLOURS = {Drum.PI: "#1f5fa8", Drum.GU: "#b5371f"}
DIFF_COLOUR = "#f2d45c"


def plot_comparison(comparison: Comparison, fmt: str = "png") -> bytes:
    """The comparison drawn as PNG or SVG bytes: ○ as circles, □ as squares, one row per score."""
    try:
        import matplotlib
    except ImportError:
        raise OptionError("--plot needs matplotlib: pip install 'drumscore[plot]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import font_manager

    cjk = _cjk_font(font_manager)
    labels = _labels(cjk)
    columns = comparison.columns
    width = max(8.0, 0.32 * len(columns) + 2.5)
    fig, ax = plt.subplots(figsize=(width, 2.8), dpi=120)
    try:
        for x, column in enumerate(columns):
            if column.differs:
                ax.axvspan(x - 0.45, x + 0.45, color=DIFF_COLOUR, alpha=0.6, lw=0, zorder=0)
            for y, stroke in ((1, column.a), (0, column.b)):
                if stroke is None:
                    ax.plot([x - 0.2, x + 0.2], [y, y], color="#888888", lw=1.5)
                    continue
                marker = "o" if stroke.drum is Drum.PI else "s"
                ax.scatter(
                    [x],
                    [y],
                    marker=marker,
                    s=110,
                    facecolors="white",
                    edgecolors=COLOURS[stroke.drum],
                    linewidths=2,
                    zorder=3,
                )
        for y, side in ((1, "a"), (0, "b")):
            half = comparison.half_column(side)
            if half is None:
                continue
            ax.plot([half - 0.5, half - 0.5], [y - 0.35, y + 0.35], color="black", lw=2)
            ax.text(half - 0.5, y + 0.42, labels["half"], ha="center", va="bottom", fontsize=9)
            # each section's name under the middle of its strokes
            for x, name in (((half - 0.5) / 2, "head"), ((half + len(columns) - 1) / 2, "touhu")):
                ax.text(x, y - 0.42, labels[name], ha="center", va="top", fontsize=7, color="#555")
        ax.set_yticks([1, 0], [_name(comparison.a, cjk, "A"), _name(comparison.b, cjk, "B")])
        ax.set_ylim(-0.8, 1.8)
        ax.set_xlim(-1, len(columns))
        ax.set_xlabel("stroke (aligned; an even beat, 間若一)" if cjk else "stroke (aligned)")
        ax.set_title(
            f"differences: {comparison.distance} (highlighted); circle = pi (small drum), "
            "square = gu (big drum)",
            fontsize=9,
        )
        for spine in ("top", "right", "left"):
            ax.spines[spine].set_visible(False)
        fig.tight_layout()
        buffer = io.BytesIO()
        fig.savefig(buffer, format=fmt)
        return buffer.getvalue()
    finally:
        plt.close(fig)


def _cjk_font(font_manager) -> str | None:
    """Use a CJK font if one is installed, so 半 and edition names show; else romanise."""
    import matplotlib

    available = {f.name for f in font_manager.fontManager.ttflist}
    if not available.intersection(_CJK_FONTS):
        # matplotlib's cache skips font collections (.ttc), where CJK fonts usually are.
        for path in font_manager.findSystemFonts():
            if "cjk" in path.lower() or "wqy" in path.lower():
                try:
                    font_manager.fontManager.addfont(path)
                except (OSError, RuntimeError, ValueError):
                    continue
        available = {f.name for f in font_manager.fontManager.ttflist}
    for name in _CJK_FONTS:
        if name in available:
            matplotlib.rcParams["font.family"] = ["sans-serif"]
            matplotlib.rcParams["font.sans-serif"] = [name, "DejaVu Sans"]
            return name
    return None


def _labels(cjk: str | None) -> dict[str, str]:
    if cjk:
        return {"half": "半", "head": "head", "touhu": "投壺 touhu"}
    return {"half": "ban (half)", "head": "head", "touhu": "touhu"}


def _name(score, cjk: str | None, side: str) -> str:
    if cjk:
        return f"{side}: {score.key}"
    slug = {"魯": "lu", "薛": "xue"}.get(score.state, "")
    if score.edition_id:
        return f"{side}: {slug}/{score.figure}@{score.edition_id}"
    return f"{side}: notation"
