import pytest

from drumscore import i18n
from drumscore.analysis.compare import compare, comparison_data
from drumscore.corpus import resolve
from drumscore.errors import NotationError, ScoreNotFoundError
from drumscore.model import Score
from drumscore.notation import parse


def test_lu2_editions_differ_by_one_circle_in_touhu():
    c = compare(resolve("lu/2"), resolve("lu/2@xunzuan"))
    kinds = [col.kind for col in c.columns if col.differs]
    assert kinds == ["only-a"]
    by = {s.section.value: s for s in c.sections}
    assert by["head"].identical
    assert by["touhu"].distance == 1
    assert (by["she"].a.pi - by["she"].b.pi) == 1


def test_half_positions_in_alignment():
    c = compare(resolve("○半□○"), resolve("○□半○"))
    assert c.distance == 0
    assert (c.half_column("a"), c.half_column("b")) == (1, 2)
    assert not c.identical


def test_identical():
    c = compare(resolve("lu"), resolve("lu@benyi"))
    assert c.identical and c.distance == 0
    assert all(s.identical for s in c.sections)


def test_no_half_compares_whole_only():
    c = compare(resolve("○□○"), resolve("○半□○"))
    assert [s.section.value for s in c.sections] == ["she"]


def test_strokes_count_from_1_in_the_data():
    a, b = Score(parse("○□○半○")), Score(parse("○□□半○"))
    c = compare(a, b)
    data = comparison_data(c)
    strokes = [col["a_stroke"] for col in data["alignment"]]
    assert strokes == [1, 2, 3, 4]
    changed = [col for col in data["alignment"] if col["kind"] == "substituted"]
    assert [col["a_stroke"] for col in changed] == [3]  # the third stroke, as a reader counts


def test_the_half_column_counts_the_columns_before_it():
    c = compare(resolve("lu"), resolve("lu/2"))
    data = comparison_data(c)
    before = data["half_after_column"]["a"]
    # that many aligned strokes of A stand before its 半
    a_strokes = [col["a_stroke"] for col in data["alignment"][:before] if col["a_stroke"]]
    assert len(a_strokes) == resolve("lu").pattern.half


# --- bad input ---


def test_unknown_score():
    with pytest.raises(ScoreNotFoundError):
        resolve("lu/3")


def test_bad_notation():
    with pytest.raises(NotationError):
        resolve("○□x")


@pytest.mark.parametrize(
    ("language", "moved", "only"),
    [
        (
            "en",
            "半 moved: after stroke 1 in A, after stroke 2 in B",
            "半 only in A, after stroke 1",
        ),
        (
            "zh_Hant",
            "「半」移動了：A 在第 1 擊之後，B 在第 2 擊之後",
            "只有 A 有「半」，在第 1 擊之後",
        ),
        (
            "zh_Hans",
            "「半」移动了：A 在第 1 击之后，B 在第 2 击之后",
            "只有 A 有「半」，在第 1 击之后",
        ),
    ],
)
def test_where_half_stands_is_said_in_the_readers_language(language, moved, only):
    with i18n.speaking(language):
        assert compare(resolve("○半□○"), resolve("○□半○")).describe_half() == moved
        assert compare(resolve("○半□○"), resolve("○□○")).describe_half() == only
