"""What `drumscore compare` prints: the two patterns aligned stroke by stroke, and a row per
section with its edit distance and verdict; columns are numbered from 1."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drumscore import display
from drumscore.apparatus.places import MARKS, ONLY_A, ONLY_B, SUBSTITUTED
from drumscore.display import table
from drumscore.i18n import _, headed, list_text, ngettext, written
from drumscore.model import HALF

if TYPE_CHECKING:
    from drumscore.analysis.compare import Comparison


def alignment_lines(c: Comparison) -> list[str]:
    """The two rows, one above the other, and the marks below; each stroke takes one cell (two
    columns, three where the terminal draws ○ □ · wide), 半 stands in a cell of its own."""
    halves = {"a": c.half_column("a"), "b": c.half_column("b")}
    shared = {h for h in halves.values() if h is not None}
    step = max(display.width(s) for s in ("○", "□", "·")) + 1  # 半, two columns, fills a cell

    def cell(text: str) -> str:
        return display.pad(text, step)

    def row(side: str) -> str:
        cells = []
        for index, column in enumerate([*c.columns, None]):
            if index in shared:
                cells.append(cell(HALF if halves[side] == index else ""))
            if column is None:
                break
            stroke = column.a if side == "a" else column.b
            cells.append(cell(stroke.drum.symbol if stroke else "·"))
        return "".join(cells).rstrip()

    marks = []
    for index, column in enumerate([*c.columns, None]):
        if index in shared:
            marks.append(cell(""))
        if column is None:
            break
        marks.append(cell(MARKS[column.kind]))
    return [f"A  {row('a')}", f"B  {row('b')}", f"   {''.join(marks).rstrip()}"]


def format_comparison(c: Comparison) -> str:
    lines = [f"A  {headed(c.title('a'), c.a.key)}", f"B  {headed(c.title('b'), c.b.key)}", ""]
    lines += alignment_lines(c)
    kinds = {k: sum(1 for col in c.columns if col.kind == k) for k in MARKS}
    if c.identical:
        verdict = [_("identical")]
    elif c.strokes_identical:
        verdict = [_("strokes identical; {half}").format(half=c.describe_half())]
    else:
        # each kind that occurs, with its mark (a kind with none is left out)
        said = {
            SUBSTITUTED: _("{n} changed ({mark})"),
            ONLY_A: _("{n} only in A ({mark})"),
            ONLY_B: _("{n} only in B ({mark})"),
        }
        parts = [
            said[k].format(n=kinds[k], mark=MARKS[k])
            for k in (SUBSTITUTED, ONLY_A, ONLY_B)
            if kinds[k]
        ]
        verdict = [
            ngettext("{n} difference — {kinds}", "{n} differences — {kinds}", c.distance).format(
                n=c.distance, kinds=list_text(parts)
            )
        ]
        if c.half_moved:
            verdict.append(c.describe_half())
    lines += ["", *verdict, ""]
    rows = [
        [
            written(s.section.shown),
            str(s.a),
            str(s.b),
            str(s.distance),
            _("identical") if s.identical else _("differs"),
        ]
        for s in c.sections
    ]
    lines.append(table(rows, [_("section"), "A", "B", _("edit distance"), _("verdict")]))
    return "\n".join(lines)
