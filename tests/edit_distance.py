"""The edit distance, written out as its recurrence: what the alignments are checked against."""

import functools
from collections.abc import Sequence


def levenshtein(a: Sequence[str], b: Sequence[str]) -> int:
    """The fewest substitutions, insertions and deletions that turn `a` into `b`."""

    @functools.cache
    def d(i: int, j: int) -> int:
        if i == 0 or j == 0:
            return i + j
        return min(d(i - 1, j) + 1, d(i, j - 1) + 1, d(i - 1, j - 1) + (a[i - 1] != b[j - 1]))

    return d(len(a), len(b))
