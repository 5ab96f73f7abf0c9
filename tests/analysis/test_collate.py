from drumscore.analysis.collate import collate
from drumscore.corpus import find_edition


def xu_whole(c):
    return next(
        cc for cc in c.counts if cc.stated.by == "徐伯魯" and cc.stated.section.value == "she"
    )


def pair(figure, state):
    return collate(pairs=[(figure, state)])[0]


def test_benyi_second_xue_has_22_pi_where_xu_counts_21():
    c = pair(2, "薛")
    she = next(
        cc for cc in c.counts if cc.stated.by == "徐伯魯" and cc.stated.section.value == "she"
    )
    (stated_pi, bad) = she.stated.pi, [ch for ch in she.checks if not ch.agrees(she.stated)]
    assert stated_pi == 21
    assert len(bad) == 1 and bad[0].actual.pi == 22
    assert "benyi" in c.readings[bad[0].reading].editions


def test_second_lu_of_five_editions_has_13_pi_where_xu_counts_14():
    c = pair(2, "魯")
    she = next(
        cc for cc in c.counts if cc.stated.by == "徐伯魯" and cc.stated.section.value == "she"
    )
    bad = [ch for ch in she.checks if not ch.agrees(she.stated)]
    assert she.stated.pi == 14 and [ch.actual.pi for ch in bad] == [13]
    names = {find_edition(e).name for e in c.readings[bad[0].reading].editions}
    assert {"禮記訓纂", "衛湜禮記集說", "樂書", "日講禮記解義", "纂圖互註禮記"} == names


def test_xu_first_xue_half_disagrees_with_every_edition():
    c = pair(1, "薛")
    half = next(cc for cc in c.counts if cc.stated.section.value == "touhu")
    assert half.stated.gu == 7
    assert half.agreeing == ()
    assert all(ch.actual.gu != 7 for ch in half.checks)


def test_majority_first_and_differences_located():
    c = pair(2, "魯")
    assert len(c.readings[0].scores) > len(c.readings[1].scores)
    (diff,) = c.readings[1].differences
    assert diff.kind == "missing" and diff.section.value == "touhu"
    majority = c.readings[0].pattern
    assert diff.position > majority.half


# --- bad input ---


def test_empty_pool():
    (c,) = collate(pool=[], pairs=[(1, "魯")])
    assert c.readings == () and c.counts == ()
