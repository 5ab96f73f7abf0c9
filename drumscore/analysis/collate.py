"""Each figure and drum across the editions: readings grouped, checked against stated counts."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from drumscore.analysis.compare import ONLY_A, ONLY_B, SUBSTITUTED, compare
from drumscore.corpus import editions
from drumscore.model import (
    SECTION_ORDER,
    Counts,
    Drum,
    Edition,
    Pattern,
    Score,
    Section,
    StatedCount,
)

PAIRS = ((1, "魯"), (1, "薛"), (2, "魯"), (2, "薛"))


@dataclass(frozen=True, slots=True)
class Difference:
    """How a reading departs from the majority at one place (counting the majority's strokes)."""

    position: int
    section: Section
    kind: str  # "substituted", "missing", "extra" or "half-moved"
    majority: str
    reading: str

    def describe(self) -> str:
        where = f"stroke {self.position} ({self.section.value})"
        if self.kind == "substituted":
            return f"{where}: {self.reading} where the majority has {self.majority}"
        if self.kind == "missing":
            return f"{where}: {self.majority} missing"
        if self.kind == "extra":
            return f"after stroke {self.position} ({self.section.value}): an extra {self.reading}"
        return (
            f"半 after stroke {self.reading} where the majority has it after stroke {self.majority}"
        )


@dataclass(frozen=True, slots=True)
class Reading:
    """One distinct reading (notation) and the editions that print it."""

    pattern: Pattern
    scores: tuple[Score, ...]
    differences: tuple[Difference, ...]

    @property
    def notation(self) -> str:
        return self.pattern.notation

    @property
    def editions(self) -> tuple[str, ...]:
        return tuple(s.edition_id for s in self.scores)


@dataclass(frozen=True, slots=True)
class Check:
    """One reading against one stated count: the reading's own counts and whether they agree."""

    reading: int
    actual: Counts

    def agrees(self, stated: StatedCount) -> bool:
        return (self.actual.pi, self.actual.gu) == (stated.pi, stated.gu)

    def disagreements(self, stated: StatedCount) -> tuple[str, ...]:
        """E.g. '鼙 22 where 徐伯魯 counts 21'."""
        out = []
        for drum, have, want in (
            (Drum.PI, self.actual.pi, stated.pi),
            (Drum.GU, self.actual.gu, stated.gu),
        ):
            if have != want:
                out.append(f"{drum.value} {have} where {stated.by} counts {want}")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class CountCheck:
    """A count stated by a commentator (quoted in one or more editions), checked on each reading."""

    stated: StatedCount
    quoted_in: tuple[str, ...]
    checks: tuple[Check, ...]

    @property
    def agreeing(self) -> tuple[int, ...]:
        return tuple(c.reading for c in self.checks if c.agrees(self.stated))


@dataclass(frozen=True, slots=True)
class Collation:
    """One figure and drum across the editions: readings (majority first) and count checks."""

    figure: int
    state: str
    readings: tuple[Reading, ...]
    counts: tuple[CountCheck, ...]

    @property
    def editions(self) -> int:
        return sum(len(r.scores) for r in self.readings)


def collate(
    pool: Iterable[Edition] | None = None, pairs: Iterable[tuple[int, str]] = PAIRS
) -> tuple[Collation, ...]:
    """Collate each (figure, state) pair over the editions in `pool` (default: the corpus)."""
    if pool is None:
        pool = editions()
    pool = tuple(pool)
    return tuple(_collate_pair(pool, figure, state) for figure, state in pairs)


def _collate_pair(pool: tuple[Edition, ...], figure: int, state: str) -> Collation:
    groups: dict[str, list[Score]] = {}
    for edition in pool:
        score = edition.score(state, figure)
        if score is not None:
            groups.setdefault(score.pattern.notation, []).append(score)
    ordered = sorted(groups.values(), key=lambda g: -len(g))
    majority = ordered[0][0] if ordered else None
    readings = tuple(
        Reading(
            group[0].pattern,
            tuple(group),
            _differences(majority, group[0]) if i and majority is not None else (),
        )
        for i, group in enumerate(ordered)
    )
    counts = tuple(
        CountCheck(
            count,
            where,
            tuple(
                Check(i, r.pattern.counts(count.section))
                for i, r in enumerate(readings)
                if count.section in r.pattern.sections()
            ),
        )
        for count, where in stated_counts(pool, figure, state)
    )
    return Collation(figure, state, readings, counts)


def stated_counts(
    pool: Iterable[Edition], figure: int, state: str
) -> list[tuple[StatedCount, tuple[str, ...]]]:
    """Each distinct count stated for a figure and drum, with the ids of the editions quoting it."""
    stated: dict[StatedCount, list[str]] = {}
    for edition in pool:
        for count in edition.counts:
            if (count.figure, count.state) == (figure, state):
                key = StatedCount(
                    count.by, count.figure, count.state, count.section, count.pi, count.gu
                )
                stated.setdefault(key, []).append(edition.id)
    ordered = sorted(stated.items(), key=lambda kv: (kv[0].by, SECTION_ORDER.index(kv[0].section)))
    return [(count, tuple(dict.fromkeys(where))) for count, where in ordered]


def check_score(score: Score, pool: Iterable[Edition] | None = None) -> tuple[CountCheck, ...]:
    """Every count stated anywhere in the corpus for this score's figure and drum, checked on it."""
    if score.figure is None or not score.state:
        return ()
    if pool is None:
        pool = editions()
    return tuple(
        CountCheck(count, where, (Check(0, score.pattern.counts(count.section)),))
        for count, where in stated_counts(pool, score.figure, score.state)
        if count.section in score.pattern.sections()
    )


def _differences(majority: Score, other: Score) -> tuple[Difference, ...]:
    comparison = compare(majority, other)
    half = majority.pattern.half
    found = []
    last = 0
    for column in comparison.columns:
        if column.a is not None:
            last = column.a.index + 1
        position = last if column.a is None else column.a.index + 1
        index = position - 1 if column.a is not None else position
        section = Section.HEAD if half is not None and index < half else Section.TOUHU
        if half is None:
            section = Section.SHE
        if column.kind == SUBSTITUTED:
            assert column.a is not None and column.b is not None
            found.append(
                Difference(
                    position, section, "substituted", column.a.drum.symbol, column.b.drum.symbol
                )
            )
        elif column.kind == ONLY_A:
            assert column.a is not None
            found.append(Difference(position, section, "missing", column.a.drum.symbol, ""))
        elif column.kind == ONLY_B:
            assert column.b is not None
            found.append(Difference(position, section, "extra", "", column.b.drum.symbol))
    a_half, b_half = comparison.half_column("a"), comparison.half_column("b")
    if a_half != b_half:
        found.append(
            Difference(
                0, Section.SHE, "half-moved", str(majority.pattern.half), str(other.pattern.half)
            )
        )
    return tuple(found)
