"""The apparatus's alignment engine for large problems: global alignment in linear memory.

The apparatus (apparatus.align) aligns printed patterns with its own ranked table; patterns too
long for that table (a user's edition of thousands of strokes) and the small alignments of added
strokes are aligned here, at the same costs.

Small problems are solved by Needleman–Wunsch with a full cost table; larger ones by Hirschberg's
divide and conquer, which keeps two rows of the table (computed with numpy) and splits the problem
at its middle row until the parts are small. Memory grows with len(a) + len(b), not their product.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

#: One aligned column: an index into each sequence, or None where that side has a gap.
Pair = tuple[int | None, int | None]

#: Problems of at most this many table cells are solved with the full table.
TABLE_CELLS = 5_000


def _unequal(x: Hashable, y: Hashable) -> int:
    return int(x != y)


def align(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    substitution: Callable[[Any, Any], float] = _unequal,
) -> tuple[Pair, ...]:
    """An alignment of `a` and `b` with the fewest substitutions plus gaps (Levenshtein cost).

    `substitution(x, y)` is the cost of putting x and y in one column (default: 0 if equal, else
    1); a gap costs 1. Within the full table (up to TABLE_CELLS cells) ties are broken the same
    way every time: a substitution or match first, then a gap in `b`, then a gap in `a`. Larger
    problems are split at the first optimal column of their middle row, so they are just as
    reproducible.
    """
    if (len(a) + 1) * (len(b) + 1) <= TABLE_CELLS:
        return needleman_wunsch(a, b, substitution)
    codes_a, codes_b, costs = _codes(a, b, substitution)
    pairs: list[Pair] = []
    _hirschberg(a, b, substitution, (codes_a, codes_b, costs), 0, len(a), 0, len(b), pairs)
    return tuple(pairs)


def needleman_wunsch(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    substitution: Callable[[Any, Any], float] = _unequal,
) -> tuple[Pair, ...]:
    """The alignment of `align` from the full (len(a)+1) × (len(b)+1) cost table."""
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


def _codes(
    a: Sequence[Hashable], b: Sequence[Hashable], substitution: Callable[[Any, Any], float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Both sequences as integer arrays (equal items, equal codes), and the substitution cost of
    every pair of codes."""
    import numpy as np

    table: dict[Hashable, int] = {}
    codes_a = np.fromiter((table.setdefault(x, len(table)) for x in a), np.int64, len(a))
    codes_b = np.fromiter((table.setdefault(x, len(table)) for x in b), np.int64, len(b))
    items = list(table)
    costs = np.array([[substitution(x, y) for y in items] for x in items], dtype=np.float64)
    return codes_a, codes_b, costs


def _last_row(codes_a: np.ndarray, codes_b: np.ndarray, costs: np.ndarray) -> np.ndarray:
    """The last row of the cost table of `codes_a` against `codes_b`, keeping one row at a time.

    A row is the row above plus a substitution or a gap in `b`, then gaps in `a` taken along the
    row: row[j] = min over k ≤ j of (t[k] + j - k), a running minimum of t[k] - k.
    """
    import numpy as np

    m = len(codes_b)
    steps = np.arange(m + 1, dtype=np.float64)
    row = steps.copy()
    t = np.empty(m + 1, dtype=np.float64)
    for x in codes_a:
        t[0] = row[0] + 1
        np.minimum(row[:-1] + costs[x, codes_b], row[1:] + 1, out=t[1:])
        t -= steps
        np.minimum.accumulate(t, out=t)
        row = t + steps
    return row


def _hirschberg(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    substitution: Callable[[Any, Any], float],
    coded: tuple[np.ndarray, np.ndarray, np.ndarray],
    i0: int,
    i1: int,
    j0: int,
    j1: int,
    pairs: list[Pair],
) -> None:
    """Append the alignment of a[i0:i1] with b[j0:j1] to `pairs`, with indices into a and b."""
    n, m = i1 - i0, j1 - j0
    if (n + 1) * (m + 1) <= TABLE_CELLS or n < 2 or m < 2:
        pairs.extend(
            (None if i is None else i + i0, None if j is None else j + j0)
            for i, j in needleman_wunsch(a[i0:i1], b[j0:j1], substitution)
        )
        return
    codes_a, codes_b, costs = coded
    mid = i0 + n // 2
    top = _last_row(codes_a[i0:mid], codes_b[j0:j1], costs)
    bottom = _last_row(codes_a[mid:i1][::-1], codes_b[j0:j1][::-1], costs)[::-1]
    split = j0 + int((top + bottom).argmin())
    _hirschberg(a, b, substitution, coded, i0, mid, j0, split, pairs)
    _hirschberg(a, b, substitution, coded, mid, i1, split, j1, pairs)
