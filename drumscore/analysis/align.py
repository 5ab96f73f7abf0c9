"""Needleman–Wunsch global alignment with unit edit costs: an optimal, reproducible alignment."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

#: One aligned column: an index into each sequence, or None where that side has a gap.
Pair = tuple[int | None, int | None]


def _unequal(x: Hashable, y: Hashable) -> int:
    return int(x != y)


def align(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    substitution: Callable[[Any, Any], float] = _unequal,
) -> tuple[Pair, ...]:
    """An alignment of `a` and `b` with the fewest substitutions plus gaps (Levenshtein cost).

    `substitution(x, y)` is the cost of putting x and y in one column (default: 0 if equal, else
    1); a gap costs 1. Ties are broken the same way every time: a substitution or match first,
    then a gap in `b`, then a gap in `a`.
    """
    n, m = len(a), len(b)
    cost: list[list[float]] = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(1, n + 1):
        cost[i][0] = i
    for j in range(1, m + 1):
        cost[0][j] = j
    for i in range(1, n + 1):
        row, above = cost[i], cost[i - 1]
        for j in range(1, m + 1):
            row[j] = min(
                above[j - 1] + substitution(a[i - 1], b[j - 1]),
                above[j] + 1,
                row[j - 1] + 1,
            )
    pairs: list[Pair] = []
    i, j = n, m
    while i or j:
        if i and j and cost[i][j] == cost[i - 1][j - 1] + substitution(a[i - 1], b[j - 1]):
            i, j = i - 1, j - 1
            pairs.append((i, j))
        elif i and cost[i][j] == cost[i - 1][j] + 1:
            i -= 1
            pairs.append((i, None))
        else:
            j -= 1
            pairs.append((None, j))
    return tuple(reversed(pairs))


def distance(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """The edit (Levenshtein) distance: substitutions, insertions and deletions, one each."""
    return sum(1 for i, j in align(a, b) if i is None or j is None or a[i] != b[j])
