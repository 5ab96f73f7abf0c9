"""Every edition's reading of one score in one multiple alignment.

The alignment is progressive against the base (禮記注疏 unless another is chosen): each witness is
aligned with the base alone (Needleman–Wunsch, unit costs, drumscore.apparatus.linear), then the
pairwise alignments are laid over the base's strokes. Strokes that witnesses add between the same
two base strokes are aligned with each other, the longest addition first.

**The run rule.** A stroke missing from, or added to, a run of equal strokes could stand at any
point of the run with the same cost. It is always placed at the first position of the run (the
gap is moved left while the stroke beside it is the same), so every witness that lacks one ○ of
a run lacks it in the same column, the place is reported once, and its description names the
run: `one ○ fewer in the run 11–12`, `one ○ more in the run 12–14`.

**半** is aligned after the strokes: in each witness it stands between two of its strokes, and
among the columns that allows it takes the one nearest the base's 半. Each distinct place of 半
is a column of its own, so a witness that puts 半 elsewhere differs at two 半 columns, which form
one place of variation with the strokes between them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from drumscore.apparatus.linear import align
from drumscore.apparatus.notes import ReportedReading
from drumscore.apparatus.places import GAP, Column, Witness
from drumscore.model import HALF, Section


def __getattr__(name: str) -> object:
    """`collate`, which the public API once named here, from where it now lives."""
    if name == "collate":
        from drumscore.apparatus.gather import collate

        return collate
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _cost(x: str, y: str) -> float:
    """0 for the same stroke, 1 for ○ against □; 半 against a stroke is never one column, and 半
    against 半 costs ½, so 半 standing one or more strokes further on reads as 半 moved (two
    gaps) rather than as a stroke added on one side of it and lost on the other."""
    if x == y:
        return 0.5 if x == HALF else 0
    return 3 if HALF in (x, y) else 1


#: What the notes report, in the base's signs: ("add", slot, sign) for a sign a reported text
#: adds after the base's first `slot` signs, ("read", i, sign) for a sign it reads at base sign i.
Evidence = frozenset[tuple[str, int, str]]

#: Pairwise problems up to this many table cells get the tie-break rule; larger ones (never a
#: printed pattern) the plain alignment.
RULE_CELLS = 40_000

#: The states of the tie-break table: the last column pairs two signs, lacks a base sign, or
#: adds a sign.
_PAIR, _LACK, _ADD = 0, 1, 2


#: The radix that packs a rank (cost, substitutions, gaps opened, −evidence) into one integer,
#: compared as the tuple would be while each count stays under half of it (RULE_CELLS ensures).
_RADIX = 1 << 12


def _rank(cost: float, substituted: int, opened: int, seen: int) -> int:
    return ((int(cost * 2) * _RADIX + substituted) * _RADIX + opened) * _RADIX - seen


def _ranked(
    base: Sequence[str], other: Sequence[str], evidence: Evidence
) -> list[tuple[int | None, int | None]]:
    """An alignment of least cost (`_cost`; a gap costs 1) and, among those, the one a scholar
    would choose: the fewest substitutions (a stroke lacking and one added rather than two
    changed), then the fewest separate gaps (strokes added or lacking together rather than one
    by one), then the most agreement with what the notes report (`evidence`). Each cell ranks
    (cost, substitutions, gaps opened, −evidence) in that order, in three tables (Gotoh's), so
    that a gap's opening is counted exactly; ties left after that fall as in `align`."""
    n, m = len(base), len(other)
    worst = _rank(10 * (n + m + 1), 0, 0, 0)
    states = (_PAIR, _LACK, _ADD)
    score = [[[worst] * (m + 1) for _ in range(n + 1)] for _ in states]
    came = [[[0] * (m + 1) for _ in range(n + 1)] for _ in states]
    score[_PAIR][0][0] = 0
    gap, opened = _rank(1, 0, 0, 0), _rank(1, 0, 1, 0)
    pair, lack, add = score
    steps: dict[tuple[str, str], int] = {}
    # each min packs (rank, state) as rank * 4 + state: ints compare as the pairs would
    for i in range(n + 1):
        row_p, row_l, row_a = pair[i], lack[i], add[i]
        came_p, came_l, came_a = came[_PAIR][i], came[_LACK][i], came[_ADD][i]
        up_p, up_l, up_a = (pair[i - 1], lack[i - 1], add[i - 1]) if i else (row_p, row_l, row_a)
        for j in range(m + 1):
            if i and j:
                x, y = base[i - 1], other[j - 1]
                step = steps.get((x, y))
                if step is None:
                    step = steps[(x, y)] = _rank(_cost(x, y), int(x != y), 0, 0)
                if evidence and x != y and ("read", i - 1, y) in evidence:
                    step -= 1
                best = min(up_p[j - 1] * 4, up_l[j - 1] * 4 + 1, up_a[j - 1] * 4 + 2)
                row_p[j], came_p[j] = (best >> 2) + step, best & 3
            if i:
                best = min(
                    (up_p[j] + opened) * 4, (up_l[j] + gap) * 4 + 1, (up_a[j] + opened) * 4 + 2
                )
                row_l[j], came_l[j] = best >> 2, best & 3
            if j:
                best = min(
                    (row_p[j - 1] + opened) * 4,
                    (row_l[j - 1] + opened) * 4 + 1,
                    (row_a[j - 1] + gap) * 4 + 2,
                )
                seen = int(bool(evidence) and ("add", i, other[j - 1]) in evidence)
                row_a[j], came_a[j] = (best >> 2) - seen, best & 3
    state = min(states, key=lambda k: (score[k][n][m], k))
    pairs: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        before = came[state][i][j]
        if state == _PAIR:
            i, j = i - 1, j - 1
            pairs.append((i, j))
        elif state == _LACK:
            i -= 1
            pairs.append((i, None))
        else:
            j -= 1
            pairs.append((None, j))
        state = before
    pairs.reverse()
    return pairs


def _pairwise(
    base: Sequence[str], other: Sequence[str], evidence: Evidence = frozenset()
) -> list[tuple[int | None, int | None]]:
    """The base and one witness aligned by the tie-break rule (`_ranked`), then gaps moved to
    the first position of their run; the same two readings are aligned once (editions that
    copy one another share readings)."""
    return list(_aligned(tuple(base), tuple(other), evidence))


@functools.lru_cache(maxsize=512)
def _aligned(
    base: tuple[str, ...], other: tuple[str, ...], evidence: Evidence
) -> tuple[tuple[int | None, int | None], ...]:
    """`_pairwise`'s alignment, computed."""
    if base == other:
        pairs: list[tuple[int | None, int | None]] = [(i, i) for i in range(len(base))]
    elif (len(base) + 1) * (len(other) + 1) <= RULE_CELLS:
        pairs = _ranked(base, other, evidence)
    else:
        pairs = list(align(base, other, _cost))
    moved = True
    while moved:
        moved = False
        for k in range(1, len(pairs)):
            (i0, j0), (i1, j1) = pairs[k - 1], pairs[k]
            if i0 is None or j0 is None or base[i0] != other[j0]:
                continue
            if j1 is None and i1 is not None and base[i1] == base[i0]:
                # base stroke i1 missing after an equal matched stroke: the gap moves left
                pairs[k - 1], pairs[k] = (i0, None), (i1, j0)
                moved = True
            elif i1 is None and j1 is not None and other[j1] == other[j0]:
                # an added stroke after an equal matched stroke: the addition moves left
                pairs[k - 1], pairs[k] = (None, j0), (i0, j1)
                moved = True
    return tuple(pairs)


def _merge_additions(
    additions: dict[int, list[int]], tokens: Sequence[Sequence[str]]
) -> list[dict[int, int]]:
    """Columns for the signs some witnesses add at one slot: [{witness: token index}]."""
    order = sorted(additions, key=lambda w: (-len(additions[w]), w))
    columns: list[dict[int, int]] = []
    symbols: list[str] = []
    for w in order:
        seq = [tokens[w][j] for j in additions[w]]
        placed: list[dict[int, int]] = []
        placed_symbols: list[str] = []
        for ci, k in align(symbols, seq, _cost):
            if ci is None:
                assert k is not None  # a column is never a gap on both sides
                placed.append({w: additions[w][k]})
                placed_symbols.append(seq[k])
            else:
                column = dict(columns[ci])
                if k is not None:
                    column[w] = additions[w][k]
                placed.append(column)
                placed_symbols.append(symbols[ci])
        columns, symbols = placed, placed_symbols
    return columns


def _token_columns(
    tokens: Sequence[Sequence[str]], evidence: Evidence = frozenset()
) -> list[dict[int, int]]:
    """The multiple alignment of the witnesses' signs (witness 0 the base)."""
    base = tokens[0]
    matched: list[dict[int, int]] = [{0: i} for i in range(len(base))]
    added: dict[int, dict[int, list[int]]] = {}  # slot (base signs before) → witness → signs
    for w in range(1, len(tokens)):
        slot = 0
        for i, j in _pairwise(base, tokens[w], evidence):
            if i is not None:
                if j is not None:
                    matched[i][w] = j
                slot = i + 1
            elif j is not None:
                added.setdefault(slot, {}).setdefault(w, []).append(j)
    columns: list[dict[int, int]] = []
    for i in range(len(base) + 1):
        if i in added:
            columns.extend(_merge_additions(added[i], tokens))
        if i < len(base):
            columns.append(matched[i])
    return columns


def lay_out(witnesses: Sequence[Witness], evidence: Evidence = frozenset()) -> list[list[str]]:
    """Strokes and 半 of the printed witnesses aligned, column by column: 半 is a sign of its
    own that only meets 半."""
    tokens = [list(w.notation) for w in witnesses]
    return [
        [tokens[w][col[w]] if w in col else GAP for w in range(len(witnesses))]
        for col in _token_columns(tokens, evidence)
    ]


def evidence_from(
    laid: Sequence[Sequence[str]], found: Sequence[tuple[int, ReportedReading, int]]
) -> Evidence:
    """What the reported readings (reporter, reading, stroke after) say, in the base's signs:
    the strokes a text adds after a base sign, or reads at one."""
    out: set[tuple[str, int, str]] = set()
    for w, reading, after in found:
        where = strokes_at(laid, w)
        end = where[after - 1] + 1 if after > 0 else 0

        def signs_before(column: int) -> int:
            return sum(1 for cells in laid[:column] if cells[0])

        if not reading.replaces:
            out.update(("add", signs_before(end), sign) for sign in reading.text)
        elif len(reading.text) == reading.replaces:
            for sign, k in zip(reading.text, where[after - reading.replaces : after], strict=True):
                if laid[k][0]:
                    out.add(("read", signs_before(k), sign))
    return frozenset(out)


def strokes_at(laid: Sequence[Sequence[str]], w: int) -> list[int]:
    """The column of each stroke (not 半) of witness `w`, in order."""
    return [k for k, cells in enumerate(laid) if cells[w] and cells[w] != HALF]


def _fits(signs: frozenset[str], sign: str) -> float:
    """The cost of a reported stroke in a column holding `signs` (printed witnesses')."""
    if sign in signs:
        return 0
    return 3 if HALF in signs else 1


def put_reported(
    laid: list[list[str]], printed: int, reporter: int, row: int, note: ReportedReading, after: int
) -> list[list[str]]:
    """The columns with witness `row` (a copy of the reporter's row) reading `note.text` in
    place of the `note.replaces` strokes of the reporter that end after its stroke `after`.

    The reading takes the columns of the strokes it replaces and every column right after them
    where the reporter has nothing (strokes other witnesses add there), aligned to the signs the
    printed witnesses have in them; a stroke that fits none gets a column of its own. So a
    reported addition and a printed one at the same place share their columns.
    """
    where = strokes_at(laid, reporter)
    end = where[after - 1] + 1 if after > 0 else 0
    start = where[after - note.replaces] if note.replaces else end
    stop = end
    while stop < len(laid) and laid[stop][reporter] == GAP:
        stop += 1
    region = laid[start:stop]
    signs = [frozenset(c for c in cells[:printed] if c) for cells in region]
    made = []
    for ci, k in align(signs, list(note.text), _fits):
        cells = [GAP] * len(laid[0]) if ci is None else list(region[ci])
        cells[row] = note.text[k] if k is not None else GAP
        made.append(cells)
    return [*laid[:start], *made, *laid[stop:]]


def column_objects(laid: Sequence[Sequence[str]]) -> tuple[Column, ...]:
    """Each laid column with the base's stroke number and the section it falls in."""
    base_half = next((k for k, cells in enumerate(laid) if cells[0] == HALF), None)
    out = []
    after = 0
    for k, row in enumerate(laid):
        cells = tuple(row)
        if HALF in cells:
            section = None
        elif base_half is None:
            section = Section.SHE
        else:
            section = Section.HEAD if k < base_half else Section.TOUHU
        number = after + 1 if cells[0] and cells[0] != HALF else None
        out.append(Column(cells, number, after, section))
        if number is not None:
            after += 1
    return tuple(out)


def differences(first: Sequence[str], second: Sequence[str]) -> int:
    """How many columns differ when `second` is aligned with `first` as the apparatus aligns a
    witness with its base (for strokes alone, the edit distance)."""
    return sum(
        1 for i, j in _pairwise(first, second) if i is None or j is None or first[i] != second[j]
    )
