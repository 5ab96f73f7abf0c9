from edit_distance import levenshtein
from hypothesis import given
from hypothesis import strategies as st

from drumscore.apparatus.linear import align

seqs = st.lists(st.sampled_from("○□"), max_size=12)


@given(seqs, seqs)
def test_alignment_is_optimal_and_complete(a, b):
    pairs = align(a, b)
    assert [i for i, _ in pairs if i is not None] == list(range(len(a)))
    assert [j for _, j in pairs if j is not None] == list(range(len(b)))
    cost = sum(1 for i, j in pairs if i is None or j is None or a[i] != b[j])
    assert cost == levenshtein(a, b)


def test_single_deletion():
    assert align("○□○", "○○") == ((0, 0), (1, None), (2, 1))


# --- bad input ---


def test_empty_sequences():
    assert align("", "") == ()
    assert align("", "○□") == ((None, 0), (None, 1))


@given(st.lists(st.sampled_from("○□"), max_size=300), st.lists(st.sampled_from("○□"), max_size=300))
def test_the_linear_memory_alignment_is_as_good_as_the_full_table(a, b):
    from drumscore.apparatus import linear as module

    full = module.needleman_wunsch(a, b)
    old = module.TABLE_CELLS
    module.TABLE_CELLS = 16  # force the divide and conquer on all but the smallest parts
    try:
        split = align(a, b)
    finally:
        module.TABLE_CELLS = old
    assert [i for i, _ in split if i is not None] == list(range(len(a)))
    assert [j for _, j in split if j is not None] == list(range(len(b)))

    def cost(pairs):
        return sum(1 for i, j in pairs if i is None or j is None or a[i] != b[j])

    assert cost(split) == cost(full) == levenshtein(a, b)
