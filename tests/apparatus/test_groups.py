"""Who goes with whom: the editions sharing each reading, their agreement, average linkage."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore.apparatus.gather import collate
from drumscore.apparatus.groups import average_linkage, groups, groups_data
from drumscore.corpus import editions


def test_agreement_counts_the_aligned_strokes_read_alike():
    (a,) = collate(scores=[(2, "魯")])
    g = groups(a)
    i, j = g.sigla.index("zhushu"), g.sigla.index("weishi")
    strokes = len(a.base.notation)  # 21 strokes and 半; weishi lacks one ○ of them
    assert g.agreement[i][j] == g.agreement[j][i] == pytest.approx((strokes - 1) / strokes)
    assert all(g.agreement[k][k] == 1 for k in range(len(g.sigla)))
    assert len(g.sigla) == len(editions()) and "大戴禮" not in g.sigla


def test_the_editions_that_read_alike_join_first_and_at_height_zero():
    (a,) = collate(scores=[(2, "魯")])
    g = groups(a)
    standard, lacking, tongjie = (set(x) for x in g.alike)
    assert lacking == {"weishi", "xunzuan", "yueshu", "rijiang", "zuantu"}
    assert tongjie == {"tongjie"} and "zhushu" in standard
    # the two groups that differ in one ○ join before 儀禮經傳通解, which parts in three places
    *joined, last = g.merges[-2:]
    assert {frozenset(last.left), frozenset(last.right)} == {
        frozenset(standard | lacking),
        frozenset(tongjie),
    }
    assert all(m.height == 0 for m in g.merges[:-2]) and last.height > joined[0].height > 0
    assert g.tree.startswith("(((") and "weishi:0.000" in g.tree


def test_average_linkage_is_scipy_s():
    scipy = pytest.importorskip("scipy.cluster.hierarchy")
    from scipy.spatial.distance import squareform

    sigla = ("a", "b", "c", "d", "e")
    distance = [
        [0, 0.2, 0.5, 0.6, 0.9],
        [0.2, 0, 0.4, 0.7, 0.8],
        [0.5, 0.4, 0, 0.3, 0.6],
        [0.6, 0.7, 0.3, 0, 0.5],
        [0.9, 0.8, 0.6, 0.5, 0],
    ]
    ours = [m.height for m in average_linkage(sigla, distance)]
    theirs = scipy.linkage(squareform(distance), method="average")[:, 2]
    assert ours == pytest.approx(list(theirs))


def test_every_place_lists_every_witness_once():
    for a in collate():
        data = groups_data(groups(a))
        for place in data["places"]:
            listed = [s for r in place["readings"] for s in r["sigla"]]
            assert sorted(listed) == sorted(w.siglum for w in a.witnesses)


# --- bad input ---


def test_no_printed_witness_but_the_base_is_one_group():
    from drumscore.corpus import edition_from_dict

    base = edition_from_dict(
        {"id": "e0", "name": "E0", "score": [{"figure": 1, "state": "魯", "printed": "○□"}]}
    )
    (a,) = collate([base], scores=[(1, "魯")], base="e0")
    g = groups(a)
    assert g.merges == () and g.tree == "e0;" and g.agreement == ((1.0,),)


def test_the_data_keeps_its_numbers_and_speaks_the_reader_s_language():
    from drumscore import i18n

    (lu2,) = collate(scores=[(2, "魯")])
    with i18n.speaking("en"):
        english = groups_data(groups(lu2))
    with i18n.speaking("zh_Hant"):
        chinese = groups_data(groups(lu2))
    assert chinese["agreement"] == english["agreement"]
    assert len(chinese["places"]) == len(english["places"])
    assert "第 21 擊後" in [p["label"] for p in chinese["places"]]
    assert english["summary"].endswith("; 1 reading reported by notes")
    assert "after 21" in [p["label"] for p in english["places"]]


def _any_distances(examples: int):
    """The property below drawn `examples` times: any distances in eighths between up to 14
    sigla."""

    @settings(max_examples=examples)
    @given(
        st.integers(1, 14),
        st.lists(st.sampled_from([0.0, 0.125, 0.25, 0.5, 0.75, 1.0]), min_size=196, max_size=196),
    )
    def test(n, values):
        """Each join is of the two groups at the least average distance, the first pair in the
        order of the sigla on a tie (distances of eighths: averages exact, ties exact)."""
        sigla = tuple(f"s{k}" for k in range(n))
        distance = [[0.0] * n for _ in range(n)]
        for x in range(n):
            for y in range(x + 1, n):
                distance[x][y] = distance[y][x] = values[x * 14 + y]
        groups = [(s,) for s in sigla]
        index = {s: k for k, s in enumerate(sigla)}
        for merge in average_linkage(sigla, distance):
            from fractions import Fraction

            def between(g, h):
                return sum(Fraction(distance[index[x]][index[y]]) for x in g for y in h) / (
                    len(g) * len(h)
                )

            height, i, j = min(
                (between(groups[i], groups[j]), i, j)
                for i in range(len(groups))
                for j in range(i + 1, len(groups))
            )
            assert (merge.left, merge.right) == (groups[i], groups[j])
            assert merge.height == float(height)
            groups[i] += groups[j]
            del groups[j]
        assert len(groups) == 1

    return test


# README's command draws 30 tables of distances, the slow run (-m slow) 100 of its own.
test_average_linkage_joins_as_the_closest_pair_first_rule_says = _any_distances(30)
test_average_linkage_joins_as_the_closest_pair_first_rule_says_at_length = pytest.mark.slow(
    _any_distances(100)
)
