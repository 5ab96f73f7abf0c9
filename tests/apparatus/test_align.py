"""The multiple alignment: every witness read back, the places of variation, the run rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore.apparatus.align import SCORES, build, build_all
from drumscore.corpus import edition_from_dict, editions


def eds(*patterns: str):
    """Editions e0, e1, … each printing one 魯 pattern of figure 1."""
    return [
        edition_from_dict(
            {"id": f"e{i}", "name": f"E{i}", "score": [{"figure": 1, "state": "魯", "printed": p}]}
        )
        for i, p in enumerate(patterns)
    ]


def one(*patterns: str):
    return build(eds(*patterns), 1, "魯", base="e0")


def sigla_where(figure, state, keep):
    return {e.id for e in editions() if keep(e.score(state, figure))}


def test_every_witness_reads_back_from_the_alignment_of_every_score():
    for a in build_all():
        assert len(a.witnesses) == len(editions())
        for i, w in enumerate(a.witnesses):
            assert a.text_of(i) == w.score.pattern.notation


def test_yishu_notes_are_readings_of_wu_cheng_and_da_dai_li_or_stay_notes():
    lu1, lu2 = build_all(scores=[(1, "魯"), (2, "魯")])
    (place,) = [p for p in lu1.places if p.reported]
    (v,) = place.reported
    assert (place.label, place.lemma.text, v.text, v.sigla, v.reported_by) == (
        "8",
        "□",
        "○",
        ("吳澄本",),
        "yishu",
    )
    (note,) = lu1.notes
    assert note.siglum == "yishu" and "少" in note.text
    (added,) = [p for p in lu2.places if not p.editions_part]
    assert added.label == "after 21" and added.reported[0].text == "□○"


def test_lu_2_has_a_place_for_the_circle_five_editions_lack():
    (a,) = build_all(scores=[(2, "魯")])
    thirteen = sigla_where(2, "魯", lambda s: s.pattern.counts().pi == 13)
    assert thirteen == {"xunzuan", "weishi", "yueshu", "rijiang", "zuantu"}
    # 儀禮經傳通解 (tongjie) has a single ○ there too, in a reading that parts elsewhere as well
    single = sigla_where(2, "魯", lambda s: s.pattern.notation.split("半")[1].startswith("○□○□"))
    assert single == thirteen | {"tongjie"}
    (place,) = [p for p in a.parting if p.position == 11]
    (variant,) = [v for v in place.variants if not v.reported_by and v.text == ""]
    assert thirteen <= set(variant.sigla) <= single
    assert set(place.lemma.sigla) == {e.id for e in editions()} - single
    assert place.lemma.text == "○"
    # the base reads ○○ at strokes 11-12 (after 半), and the place is the first of that run
    base = a.base.score.pattern
    assert [s.drum.symbol for s in base.strokes[10:12]] == ["○", "○"]
    assert base.strokes[9].drum.symbol != "○" and base.strokes[12].drum.symbol != "○"
    assert place.position == 11 and place.section.value == "touhu" and base.half < 11
    # the run rule names the run where every reading at the place is a gap or the lemma
    if all(v.text in ("", "○") for v in place.variants if not v.reported_by):
        assert (place.run.first, place.run.last) == (11, 12)
    assert variant.description in ("one ○ fewer in the run 11–12", "omits ○")


def test_xue_2_places_are_where_liji_benyi_parts_from_the_rest():
    (a,) = build_all(scores=[(2, "薛")])
    base = a.base.notation
    differ = sigla_where(2, "薛", lambda s: s.pattern.notation != base)
    assert differ == {"benyi", "benyi-skqs"}
    assert a.parting
    for place in a.parting:
        assert [set(v.sigla) for v in place.variants if not v.reported_by] == [differ]
    (place,) = a.parting
    assert place.variants[0].description.startswith("one ○ more in the run")


def test_the_first_figure_parts_only_where_wuli_yuhai_and_zuantu_do():
    """五禮通考 □ for ○ at stroke 4 of 魯; 玉海 before 半 in both; 纂圖互註禮記 one ○ more."""
    lu1, xue1 = build_all(scores=[(1, "魯"), (1, "薛")])
    for a, parting in ((lu1, {"wuli", "yuhai", "zuantu"}), (xue1, {"yuhai"})):
        state, base = a.witnesses[0].score.state, a.base.notation
        assert {e.id for e in editions() if e.score(state, 1).pattern.notation != base} == parting
        sigla = {s for p in a.parting for v in p.variants if not v.reported_by for s in v.sigla}
        assert sigla == parting
        assert all(p.position < a.base.score.pattern.half + 2 for p in a.parting)


def test_another_base_makes_its_reading_the_lemma():
    (a,) = [build(editions(), 2, "薛", base="benyi")]
    assert a.base.siglum == "benyi"
    (place,) = a.parting
    assert place.lemma.text == "○" and "benyi-skqs" in place.lemma.sigla
    assert "zhushu" in place.variants[0].sigla and place.variants[0].text == ""


def test_a_stroke_missing_anywhere_in_a_run_is_reported_once_at_its_first_position():
    # the run ○○○ is strokes 3-5; each witness drops a different one of its strokes
    a = one("○□○○○□", "○□○○□", "○□○○□", "○□○○□")
    (place,) = a.places
    assert place.position == 3 and (place.run.first, place.run.last) == (3, 5)
    assert place.variants[0].sigla == ("e1", "e2", "e3")
    assert place.variants[0].description == "one ○ fewer in the run 3–5"


def test_a_stroke_added_to_a_run_is_reported_at_its_first_position():
    a = one("□○○○□", "□○○○○□")
    (place,) = a.places
    assert place.position == 2 and place.variants[0].description == "one ○ more in the run 2–4"


def test_half_moved_is_one_place():
    a = one("○□半○□", "○□○半□")
    (place,) = a.places
    assert place.lemma.text == "半○" and place.variants[0].text == "○半"
    assert place.variants[0].description == "半 after stroke 3"


def test_strokes_added_after_half_stay_after_half():
    a = one("○□○□○半", "○□○□○半□○")
    (place,) = a.places
    assert place.label == "after 5" and place.variants[0].text == "□○"


def test_a_substitution_names_both_strokes():
    (place,) = one("○□○○□", "○□□○□").places
    assert place.label == "3" and place.variants[0].description == "□ for ○"


def test_sections_follow_the_base():
    a = one("○□半○○□", "○□半○□")
    (place,) = a.places
    assert place.section.value == "touhu"
    a = one("○○□半○□", "○□半○□")
    assert a.places[0].section.value == "head"


patterns = st.text(alphabet="○□", min_size=1, max_size=20)


@settings(max_examples=60, deadline=None)
@given(st.lists(patterns, min_size=2, max_size=5), st.data())
def test_any_witnesses_read_back_and_every_place_accounts_for_every_witness(found, data):
    with_half = [p[: data.draw(st.integers(0, len(p)))] + "半" + p[len(p) // 2 :] for p in found]
    printed = [h if data.draw(st.booleans()) else p for h, p in zip(with_half, found, strict=True)]
    # at most one 半 each: the drawn prefix plus the back half can hold only strokes
    a = one(*printed)
    for i, w in enumerate(a.witnesses):
        assert a.text_of(i) == w.notation
    for place in a.places:
        sigla = [*place.lemma.sigla, *(s for v in place.variants for s in v.sigla)]
        assert sorted(sigla) == sorted(w.siglum for w in a.witnesses)
        assert all(v.text != place.lemma.text for v in place.variants)
    varying = {k for k, c in enumerate(a.columns) if c.varies}
    covered = {k for p in a.places for k in range(p.start, p.stop)}
    assert varying <= covered


def test_scores_are_the_four():
    assert [a.key for a in build_all()] == ["lu/1", "xue/1", "lu/2", "xue/2"]
    assert len(SCORES) == 4
