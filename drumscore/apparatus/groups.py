"""Who goes with whom: for each place the editions sharing each reading, and over a whole score
how often every two editions read alike, with a grouping drawn from that.

Agreement of two printed editions is the share of the aligned columns (where either has a sign)
in which they have the same sign; the grouping is average linkage (UPGMA) on 1 − agreement,
which joins first the editions that read most alike — the stemmatologist's first look at which
editions copy which. Texts known only from notes are left out of the matrix (their rows are
their reporters' but where the note speaks), and kept in the places.
"""

from __future__ import annotations

from dataclasses import dataclass

from drumscore.apparatus.align import Apparatus, Place


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
        """The grouping as a Newick string, branch lengths the difference of merge heights;
        groups joined at the same height (editions that read alike) are one node."""
        nodes: dict[tuple[str, ...], tuple[list, float]] = {(s,): ([], 0.0) for s in self.sigla}
        names: dict[tuple[str, ...], str] = {(s,): s for s in self.sigla}

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


def agreement(a: Apparatus) -> tuple[tuple[float, ...], ...]:
    """The share of aligned columns two printed witnesses read alike, for every two."""
    rows = [a.row(i) for i, w in enumerate(a.witnesses) if not w.reported]
    out = []
    for x in rows:
        line = []
        for y in rows:
            used = [(p, q) for p, q in zip(x, y, strict=True) if p or q]
            same = sum(1 for p, q in used if p == q)
            line.append(same / len(used) if used else 1.0)
        out.append(tuple(line))
    return tuple(out)


def average_linkage(sigla: tuple[str, ...], distance: list[list[float]]) -> tuple[Merge, ...]:
    """UPGMA: join the two closest groups (average distance of their members; on a tie, the
    pair met first in the order of `sigla`) until one group is left."""
    groups: list[tuple[str, ...]] = [(s,) for s in sigla]
    index = {s: i for i, s in enumerate(sigla)}

    def between(g: tuple[str, ...], h: tuple[str, ...]) -> float:
        return sum(distance[index[x]][index[y]] for x in g for y in h) / (len(g) * len(h))

    merges: list[Merge] = []
    while len(groups) > 1:
        height, i, j = min(
            (between(groups[i], groups[j]), i, j)
            for i in range(len(groups))
            for j in range(i + 1, len(groups))
        )
        merges.append(Merge(groups[i], groups[j], height))
        groups[i] = groups[i] + groups[j]
        del groups[j]
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
    return {
        "score": g.apparatus.key,
        "summary": g.apparatus.summary,
        "sigla": list(g.sigla),
        "places": [
            {
                "place": n,
                "label": p.label,
                "section": p.section_name,
                "readings": [
                    {"text": v.text, "sigla": list(v.sigla)} for v in (p.lemma, *p.variants)
                ],
            }
            for n, p in enumerate(g.places, 1)
        ],
        "agreement": [[round(v, 4) for v in row] for row in g.agreement],
        "merges": [
            {"left": list(m.left), "right": list(m.right), "height": round(m.height, 4)}
            for m in g.merges
        ],
        "tree": g.tree,
        "alike": [list(s) for s in g.alike],
    }
