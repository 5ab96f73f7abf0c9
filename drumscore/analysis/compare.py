"""Two scores side by side: their aligned strokes, and per section their counts and distance."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from drumscore.analysis.align import align, distance
from drumscore.i18n import _
from drumscore.model import Counts, Score, Section, Stroke

SAME, SUBSTITUTED, ONLY_A, ONLY_B = "same", "substituted", "only-a", "only-b"


@dataclass(frozen=True, slots=True)
class Column:
    """One column of the alignment: the stroke on each side (None for a gap) and how they differ."""

    a: Stroke | None
    b: Stroke | None

    @property
    def kind(self) -> str:
        if self.a is None:
            return ONLY_B
        if self.b is None:
            return ONLY_A
        return SAME if self.a.drum is self.b.drum else SUBSTITUTED

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
    """The result of compare(): the alignment columns and the per-section figures."""

    a: Score
    b: Score
    columns: tuple[Column, ...]
    sections: tuple[SectionComparison, ...]

    @property
    def identical(self) -> bool:
        return self.a.pattern.notation == self.b.pattern.notation

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
        return self.half_column("a") != self.half_column("b")

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
        """The column before which that side's 半 falls (len(columns) if 半 ends the pattern)."""
        pattern = (self.a if side == "a" else self.b).pattern
        if pattern.half is None:
            return None
        for index, column in enumerate(self.columns):
            stroke = column.a if side == "a" else column.b
            if stroke is not None and stroke.index == pattern.half:
                return index
        return len(self.columns)


def compare(a: Score, b: Score) -> Comparison:
    """Align the strokes of `a` and `b` (align.align) and compare every section both have."""
    drums_a = [s.drum for s in a.pattern.strokes]
    drums_b = [s.drum for s in b.pattern.strokes]
    columns = tuple(
        Column(
            a.pattern.strokes[i] if i is not None else None,
            b.pattern.strokes[j] if j is not None else None,
        )
        for i, j in align(drums_a, drums_b)
    )
    shared = [s for s in a.pattern.sections() if s in b.pattern.sections()]
    sections = tuple(
        SectionComparison(
            section,
            a.pattern.counts(section),
            b.pattern.counts(section),
            distance(
                [s.drum for s in a.pattern.section(section)],
                [s.drum for s in b.pattern.section(section)],
            ),
        )
        for section in shared
    )
    return Comparison(a, b, columns, sections)


def comparison_data(c: Comparison) -> dict[str, Any]:
    """A comparison as JSON-ready data: what the compare command prints as JSON and the compare
    page reads (strokes numbered from 1; `half_after_column` counts aligned columns from 0)."""
    return {
        "a": {"key": c.a.key, "title": c.a.title, "notation": c.a.pattern.notation},
        "b": {"key": c.b.key, "title": c.b.title, "notation": c.b.pattern.notation},
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
            }
            for col in c.columns
        ],
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
