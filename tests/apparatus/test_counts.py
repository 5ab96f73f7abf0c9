"""The counts the commentators state, checked on every witness of a score and on one score."""

from __future__ import annotations

from drumscore.apparatus.gather import collate


def stated(a, by, section):
    return next(c for c in a.counts if c.stated.by == by and c.stated.section.value == section)


def test_benyi_second_xue_has_22_pi_where_xu_counts_21():
    (a,) = collate(scores=[(2, "薛")])
    she = stated(a, "徐伯魯", "she")
    assert she.stated.pi == 21
    ((_, why),) = [d for d in she.disagreeing() if d[0] == "benyi"]
    assert why == ("鼙 22 where 徐伯魯 counts 21",)
    assert [q.text for q in she.quotes if q.siglum == "benyi"] != [""]


def test_second_lu_of_five_editions_has_13_pi_where_xu_counts_14():
    (a,) = collate(scores=[(2, "魯")])
    she = stated(a, "徐伯魯", "she")
    bad = {s for s, c in she.results if c.pi != she.stated.pi}
    assert she.stated.pi == 14 and {c.pi for s, c in she.results if s in bad} == {13}
    names = {a.witnesses[a.siglum_index(s)].name for s in bad}
    assert names == {"禮記訓纂", "衛湜禮記集說", "樂書", "日講禮記解義", "纂圖互註禮記"}


def test_xu_first_xue_half_disagrees_with_every_edition():
    (a,) = collate(scores=[(1, "薛")])
    half = stated(a, "徐伯魯", "touhu")
    assert half.stated.gu == 7 and half.agreeing == ()
    assert all(c.gu != 7 for _, c in half.results)


def test_stated_counts_keep_the_quote_of_every_edition_that_prints_them():
    (a,) = collate(scores=[(1, "魯")])
    whole = stated(a, "徐伯魯", "she")
    assert {q.siglum: q.text for q in whole.quotes} == {
        "benyi": "其全则鼙声十三鼔声十",
        "benyi-skqs": "其全則鼙聲十三鼔聲十",
    }


def test_check_score_checks_one_score_with_the_quotes():
    from drumscore.apparatus.counts import check_score
    from drumscore.corpus import resolve

    checks = check_score(resolve("xue/2@benyi"))
    she = next(c for c in checks if c.stated.by == "徐伯魯" and c.stated.section.value == "she")
    ((key, counts),) = she.results
    assert key == "xue/2@benyi" and counts.pi == 22 and she.agreeing == ()
    assert all(q.text for q in she.quotes)
