"""Who goes with whom: for each place the editions sharing each reading, and over a whole score
how often every two editions read alike, with a grouping drawn from that.

Agreement of two printed editions is the share of the aligned columns (where either has a sign)
in which they have the same sign; the grouping is average linkage (UPGMA) on 1 − agreement,
which joins first the editions that read most alike — the stemmatologist's first look at which
editions copy which. Texts known only from notes are left out of the matrix (their rows are
their reporters' but where the note speaks), and kept in the places.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from drumscore.apparatus.places import Apparatus, Place
from drumscore.apparatus.wording import alike_text, between, sharing


@dataclass(frozen=True, slots=True)
class Merge:
    """Two groups joined at `height` (average distance between their members)."""

    left: tuple[str, ...]
    right: tuple[str, ...]
    height: float


@dataclass(frozen=True, slots=True)
class Groups:
    """One score's editions: the places, the agreement matrix and its average-linkage merges."""

    apparatus: Apparatus
    sigla: tuple[str, ...]
    agreement: tuple[tuple[float, ...], ...]
    merges: tuple[Merge, ...]

    @property
    def places(self) -> tuple[Place, ...]:
        return self.apparatus.places

    @property
    def alike(self) -> tuple[tuple[str, ...], ...]:
        """The editions that read the score alike, in groups (the largest first)."""
        return tuple(r.sigla for r in self.apparatus.readings)

    @property
    def tree(self) -> str:
        """The grouping as a Newick string, its leaves the sigla (see newick)."""
        return self.newick()

    def newick(self, label: Callable[[str], str] | None = None) -> str:
        """The grouping as a Newick string, branch lengths the difference of merge heights;
        groups joined at the same height (editions that read alike) are one node; each leaf
        its siglum, or `label` of it (the short name a Chinese view cites)."""
        nodes: dict[tuple[str, ...], tuple[list, float]] = {(s,): ([], 0.0) for s in self.sigla}
        names: dict[tuple[str, ...], str] = {(s,): label(s) if label else s for s in self.sigla}

        def children(key: tuple[str, ...], height: float) -> list[tuple[tuple[str, ...], float]]:
            kids, own = nodes[key]
            if kids and own == height:  # the same height: its children join this node
                return kids
            return [(key, own)]

        for m in self.merges:
            kids = children(m.left, m.height) + children(m.right, m.height)
            nodes[m.left + m.right] = (kids, m.height)

        def newick(key: tuple[str, ...], parent: float) -> str:
            kids, own = nodes[key]
            body = f"({','.join(newick(k, own) for k, _ in kids)})" if kids else names[key]
            return f"{body}:{parent - own:.3f}"

        if not self.sigla:
            return ";"
        root = (
            tuple(self.sigla) if not self.merges else self.merges[-1].left + self.merges[-1].right
        )
        kids, own = nodes[root]
        inner = ",".join(newick(k, own) for k, _ in kids) if kids else names[root]
        return f"({inner});" if kids else f"{inner};"


#: Average distances closer than this are equal: a tie, which goes to the pair met first (the
#: same averages, summed in another order, may differ in their last bits).
TIE = 1e-9


def agreement(a: Apparatus) -> tuple[tuple[float, ...], ...]:
    """The share of aligned columns two printed witnesses read alike, for every two: columns
    where either has a sign, in which both have the same one (matrix products, so the cost
    grows as witnesses × witnesses × columns without a Python loop over the pairs)."""
    import numpy as np

    rows = [a.row(i) for i, w in enumerate(a.witnesses) if not w.reported]
    if not rows:
        return ()
    signs = sorted({cell for row in rows for cell in row if cell})
    code = {sign: k for k, sign in enumerate(signs, 1)}
    cells = np.array([[code.get(cell, 0) for cell in row] for row in rows], dtype=np.int64)
    cells = cells.reshape(len(rows), len(a.columns))
    present = (cells > 0).astype(np.float64)
    same = np.zeros((len(rows), len(rows)))
    for k in code.values():
        has = (cells == k).astype(np.float64)
        same += has @ has.T
    count = present.sum(axis=1)
    used = count[:, None] + count[None, :] - present @ present.T
    share = np.divide(same, used, out=np.ones_like(same), where=used > 0)
    return tuple(map(tuple, share.tolist()))


def average_linkage(sigla: tuple[str, ...], distance: list[list[float]]) -> tuple[Merge, ...]:
    """UPGMA: join the two closest groups (average distance of their members; on a tie, the
    pair met first in the order of `sigla`) until one group is left.

    Each group keeps the sum of its members' distances to every other group, updated when two
    join, and each row the nearest group after it: a join costs time in proportion to the
    number of groups, so the whole grows as its square, not its cube."""
    import numpy as np

    n = len(sigla)
    if n < 2:
        return ()
    sums = np.array(distance, dtype=np.float64)
    sizes = np.ones(n, dtype=np.int64)
    alive = np.ones(n, dtype=bool)
    members: list[tuple[str, ...]] = [(s,) for s in sigla]
    best = np.full(n, np.inf)  # each row's least average distance to a later group
    nearest = np.zeros(n, dtype=np.int64)  # and the first later group at it

    def heights(i: int) -> np.ndarray:
        h = sums[i] / (float(sizes[i]) * sizes)
        h[: i + 1] = np.inf
        h[~alive] = np.inf
        return h

    def refresh(i: int) -> None:
        h = heights(i)
        k = int(h.argmin())  # the first of the least
        best[i], nearest[i] = h[k], k

    for i in range(n - 1):
        refresh(i)
    merges: list[Merge] = []
    for _ in range(n - 1):
        least = float(best.min())
        i = int(np.flatnonzero(best <= least + TIE)[0])  # the first row at the least height
        row = heights(i)
        j = int(np.flatnonzero(row <= least + TIE)[0])  # and the first group in it
        height = float(row[j])
        merges.append(Merge(members[i], members[j], height))
        members[i] = members[i] + members[j]
        alive[j] = False
        best[j] = np.inf
        sums[i] += sums[j]
        sums[:, i] = sums[i]
        sizes[i] += sizes[j]
        refresh(i)
        stale = [k for k in np.flatnonzero(alive[:j] & np.isin(nearest[:j], (i, j))) if k != i]
        for k in stale:
            refresh(int(k))
        before = np.flatnonzero(alive[:i])
        if len(before):
            h = sums[before, i] / (sizes[before].astype(np.float64) * float(sizes[i]))
            closer = (h < best[before]) | ((h == best[before]) & (i < nearest[before]))
            best[before[closer]] = h[closer]
            nearest[before[closer]] = i
        if i == n - 1 or not alive[i + 1 :].any():
            best[i] = np.inf
    return tuple(merges)


def groups(a: Apparatus) -> Groups:
    """Who goes with whom in one score's apparatus."""
    sigla = tuple(w.siglum for w in a.witnesses if not w.reported)
    matrix = agreement(a)
    distance = [[1 - v for v in row] for row in matrix]
    return Groups(a, sigla, matrix, average_linkage(sigla, distance))


def groups_data(g: Groups) -> dict:
    """JSON-ready: the places with the editions sharing each reading, the matrix, the merges,
    the tree and the editions that read alike; its words in the reader's language."""
    a = g.apparatus
    return {
        "score": a.key,
        "summary": a.summary,
        "sigla": list(g.sigla),
        "cited": [a.cite(s) for s in g.sigla],
        "places": [
            {
                "place": n,
                "label": p.label,
                "section": p.section_name,
                "section_shown": p.section_shown,
                "readings": [
                    {"text": v.text, "sigla": list(v.sigla), "shared": sharing(a, v)}
                    for v in (p.lemma, *p.variants)
                ],
                "between": between(),
            }
            for n, p in enumerate(g.places, 1)
        ],
        "agreement": [[round(v, 4) for v in row] for row in g.agreement],
        "merges": [
            {"left": list(m.left), "right": list(m.right), "height": round(m.height, 4)}
            for m in g.merges
        ],
        "tree": g.tree,
        "tree_cited": g.newick(a.cite),
        "alike": [list(s) for s in g.alike],
        "alike_text": alike_text(g),
    }
