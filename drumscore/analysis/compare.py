"""Two scores side by side: the apparatus of two witnesses (A the base), read as aligned strokes,
places of difference, and per section their counts and distance.

The alignment is the apparatus's (apparatus.gather.pair), so `compare A B` and `collate` give the
same places, the same kind of each difference and the same stroke numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drumscore.apparatus.align import differences
from drumscore.apparatus.gather import cited_title, pair
from drumscore.apparatus.places import SAME, Apparatus, difference
from drumscore.apparatus.table import place_data
from drumscore.i18n import _
from drumscore.model import HALF, Counts, Score, Section, Stroke


@dataclass(frozen=True, slots=True)
class Column:
    """One stroke column of the alignment: the stroke on each side (None for a gap), and the
    number (from 1) of the apparatus's place it belongs to (None where both agree)."""

    a: Stroke | None
    b: Stroke | None
    place: int | None = None

    @property
    def kind(self) -> str:
        return difference(
            self.a.drum.symbol if self.a else "", self.b.drum.symbol if self.b else ""
        )

    @property
    def differs(self) -> bool:
        return self.kind != SAME


@dataclass(frozen=True, slots=True)
class SectionComparison:
    """One section on both sides: its ○/□ counts, edit distance, and whether it is identical."""

    section: Section
    a: Counts
    b: Counts
    distance: int

    @property
    def identical(self) -> bool:
        return self.distance == 0


@dataclass(frozen=True, slots=True)
class Comparison:
    """The result of compare(): the two-witness apparatus, its stroke columns (半 left out; see
    half_column) and the per-section figures."""

    a: Score
    b: Score
    apparatus: Apparatus
    columns: tuple[Column, ...]
    sections: tuple[SectionComparison, ...]
    halves: tuple[int | None, int | None] = (None, None)

    @property
    def identical(self) -> bool:
        return self.a.pattern.notation == self.b.pattern.notation

    def title(self, side: str) -> str:
        """Side `a` or `b` as the reader's view names it (gather.cited_title): its title
        (禮記注疏 · 魯鼓 · figure 2); in Chinese an edition of the corpus by its short name, as
        the apparatus cites it (通解魯鼓第二圖)."""
        return cited_title(self.a if side == "a" else self.b)

    @property
    def distance(self) -> int:
        return sum(1 for c in self.columns if c.differs)

    @property
    def strokes_identical(self) -> bool:
        """Whether the strokes agree one for one (半 may still stand elsewhere)."""
        return self.distance == 0

    @property
    def half_moved(self) -> bool:
        """Whether 半 stands at another place of the alignment in B than in A, or on one side."""
        return self.halves[0] != self.halves[1]

    def describe_half(self) -> str:
        """Where 半 stands on each side: '半 moved: after stroke 2 in A, after stroke 1 in B'
        (in the reader's language)."""

        def place(half: int | None) -> str:
            if half == 0:
                return _("before the first stroke")
            return _("after stroke {n}").format(n=half)

        ha, hb = self.a.pattern.half, self.b.pattern.half
        if ha is None and hb is None:
            return _("no 半 in A or B")
        if hb is None:
            return _("半 only in A, {place}").format(place=place(ha))
        if ha is None:
            return _("半 only in B, {place}").format(place=place(hb))
        if self.half_moved:
            return _("半 moved: {a} in A, {b} in B").format(a=place(ha), b=place(hb))
        return _("半 in the same place: {a} in A, {b} in B").format(a=place(ha), b=place(hb))

    def half_column(self, side: str) -> int | None:
        """The stroke column before which that side's 半 falls (len(columns) if 半 ends the
        pattern; None without 半)."""
        return self.halves[0 if side == "a" else 1]


def _strokes(apparatus: Apparatus, a: Score, b: Score) -> tuple[tuple[Column, ...], list]:
    """The apparatus's stroke columns as pairs of strokes, and where each side's 半 falls."""
    place_of = apparatus.place_of_column()
    columns: list[Column] = []
    halves: list[int | None] = [None, None]
    next_stroke = [0, 0]
    sides = (a.pattern.strokes, b.pattern.strokes)
    for k, column in enumerate(apparatus.columns):
        if column.is_half:
            for side in (0, 1):
                if column.cells[side] == HALF:
                    halves[side] = len(columns)
            continue
        strokes: list[Stroke | None] = []
        for side in (0, 1):
            if column.cells[side]:
                strokes.append(sides[side][next_stroke[side]])
                next_stroke[side] += 1
            else:
                strokes.append(None)
        columns.append(Column(strokes[0], strokes[1], place_of.get(k)))
    return tuple(columns), halves


def compare(a: Score, b: Score) -> Comparison:
    """A and B as the apparatus of two witnesses (apparatus.gather.pair), and every section both
    have compared."""
    apparatus = pair(a, b)
    columns, halves = _strokes(apparatus, a, b)
    shared = [s for s in a.pattern.sections() if s in b.pattern.sections()]
    sections = tuple(
        SectionComparison(
            section,
            a.pattern.counts(section),
            b.pattern.counts(section),
            differences(
                [s.drum.symbol for s in a.pattern.section(section)],
                [s.drum.symbol for s in b.pattern.section(section)],
            ),
        )
        for section in shared
    )
    return Comparison(a, b, apparatus, columns, sections, (halves[0], halves[1]))


def comparison_data(c: Comparison) -> dict[str, Any]:
    """A comparison as JSON-ready data: what the compare command prints as JSON and the compare
    page reads (strokes numbered from 1; `half_after_column` counts aligned stroke columns from
    0; `places` as collate's JSON writes them, each column's `place` its number there)."""
    return {
        "a": {
            "key": c.a.key,
            "title": c.a.title,
            "cited": c.title("a"),
            "notation": c.a.pattern.notation,
        },
        "b": {
            "key": c.b.key,
            "title": c.b.title,
            "cited": c.title("b"),
            "notation": c.b.pattern.notation,
        },
        "identical": c.identical,
        "strokes_identical": c.strokes_identical,
        "distance": c.distance,
        "alignment": [
            {
                "a": col.a.drum.symbol if col.a else None,
                "b": col.b.drum.symbol if col.b else None,
                "a_stroke": col.a.index + 1 if col.a else None,
                "b_stroke": col.b.index + 1 if col.b else None,
                "kind": col.kind,
                "place": col.place,
            }
            for col in c.columns
        ],
        "places": [place_data(n, p) for n, p in enumerate(c.apparatus.places, 1)],
        "half_after_column": {"a": c.half_column("a"), "b": c.half_column("b")},
        "half": {
            "a": c.a.pattern.half,
            "b": c.b.pattern.half,
            "moved": c.half_moved,
            "description": c.describe_half(),
        },
        "sections": {
            s.section.value: {
                "a": {"pi": s.a.pi, "gu": s.a.gu},
                "b": {"pi": s.b.pi, "gu": s.b.gu},
                "distance": s.distance,
                "identical": s.identical,
            }
            for s in c.sections
        },
    }
