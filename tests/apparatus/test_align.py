"""The multiple alignment: every witness read back, the places of variation, the run rule."""

from __future__ import annotations

import pytest
from edit_distance import levenshtein
from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore import i18n
from drumscore.apparatus.gather import SCORES, build, collate
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
    for a in collate():
        assert len(a.printed) == len(editions())
        for i, w in enumerate(a.witnesses):
            assert a.text_of(i) == w.score.pattern.notation


def test_yishu_notes_are_readings_of_wu_cheng_and_da_dai_li_or_stay_notes():
    lu1, lu2 = collate(scores=[(1, "魯"), (2, "魯")])
    (place,) = [p for p in lu1.places if p.reported]
    (v,) = place.reported
    (r,) = v.reports
    assert (place.label, place.lemma.text, v.text, v.sigla, r.reported_by) == (
        "8",
        "□",
        "○",
        ("吳澄本",),
        "yishu",
    )
    (note,) = lu1.notes
    assert note.siglum == "yishu" and "少" in note.text
    # after the last stroke: 大戴禮's □○ as the note reports it, and 儀禮經傳通解 printing it
    (added,) = [p for p in lu2.places if p.label == "after 21"]
    assert added.reported[0].text == "□○" and added.editions_part
    assert [v.sigla for v in added.variants] == [("tongjie", "大戴禮")]
    # each text a note reports is a row of its own: its reporter's row with the reading put in
    (wu,) = lu1.reported
    assert (wu.siglum, wu.reported_by) == ("吳澄本", "yishu")
    yishu = lu1.siglum_index("yishu")
    assert (
        lu1.text_of(lu1.siglum_index("吳澄本"))
        == lu1.text_of(yishu)[:7] + "○" + (lu1.text_of(yishu)[8:])
    )
    (da,) = lu2.reported
    assert da.notation == lu2.witnesses[lu2.siglum_index("yishu")].notation + "□○"
    assert (added.start, added.stop) == (len(lu2.columns) - 2, len(lu2.columns))


def test_lu_2_has_a_place_for_the_circle_five_editions_lack():
    (a,) = collate(scores=[(2, "魯")])
    thirteen = sigla_where(2, "魯", lambda s: s.pattern.counts().pi == 13)
    assert thirteen == {"xunzuan", "weishi", "yueshu", "rijiang", "zuantu"}
    # 儀禮經傳通解 (tongjie) has a single ○ there too, in a reading that parts elsewhere as well
    single = sigla_where(2, "魯", lambda s: s.pattern.notation.split("半")[1].startswith("○□○□"))
    assert single == thirteen | {"tongjie"}
    (place,) = [p for p in a.parting if p.position == 11]
    (variant,) = [v for v in place.variants if not v.reports and v.text == ""]
    # gaps rather than substitutions: 儀禮經傳通解 lacks the same ○
    assert set(variant.sigla) == single
    assert set(place.lemma.printed) == {e.id for e in editions()} - single
    assert place.lemma.text == "○"
    # the base reads ○○ at strokes 11-12 (after 半), and the place is the first of that run
    base = a.base.score.pattern
    assert [s.drum.symbol for s in base.strokes[10:12]] == ["○", "○"]
    assert base.strokes[9].drum.symbol != "○" and base.strokes[12].drum.symbol != "○"
    assert place.position == 11 and place.section.value == "touhu" and base.half < 11
    assert (place.run.first, place.run.last) == (11, 12)
    assert variant.description == "one ○ fewer in the run 11–12"


def test_xue_2_places_are_where_liji_benyi_parts_from_the_rest():
    (a,) = collate(scores=[(2, "薛")])
    base = a.base.notation
    differ = sigla_where(2, "薛", lambda s: s.pattern.notation != base)
    assert differ == {"benyi", "benyi-skqs"}
    assert a.parting
    for place in a.parting:
        assert [set(v.printed) for v in place.variants if v.printed] == [differ]
    (place,) = a.parting
    assert place.variants[0].description.startswith("one ○ more in the run")


def test_the_first_figure_parts_only_where_wuli_yuhai_and_zuantu_do():
    """五禮通考 □ for ○ at stroke 4 of 魯; 玉海 before 半 in both; 纂圖互註禮記 one ○ more."""
    lu1, xue1 = collate(scores=[(1, "魯"), (1, "薛")])
    for a, parting in ((lu1, {"wuli", "yuhai", "zuantu"}), (xue1, {"yuhai"})):
        state, base = a.witnesses[0].score.state, a.base.notation
        assert {e.id for e in editions() if e.score(state, 1).pattern.notation != base} == parting
        sigla = {s for p in a.parting for v in p.variants if not v.reports for s in v.sigla}
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
    assert [a.key for a in collate()] == ["lu/1", "xue/1", "lu/2", "xue/2"]
    assert len(SCORES) == 4


# --- the majority view ---------------------------------------------------------------------------


def test_majority_first_and_differences_located():
    (a,) = collate(scores=[(2, "魯")])
    majority, other, tongjie = a.readings
    assert len(majority.witnesses) > len(other.witnesses) > len(tongjie.witnesses)
    assert set(other.sigla) == {"weishi", "xunzuan", "yueshu", "rijiang", "zuantu"}
    (diff,) = other.differences
    assert diff == "11 (touhu): one ○ fewer in the run 11–12"
    assert tongjie.sigla == ("tongjie",) and len(tongjie.differences) == 3
    assert majority.differences == ()
    assert all(not w.reported for r in a.readings for w in r.witnesses)


def test_one_reading_exactly_when_no_place_parts_the_printed_editions():
    for a in collate():
        assert (len(a.readings) == 1) == (a.parting == ())


def test_the_majority_is_read_off_the_alignment_for_any_witnesses():
    a = one("○□○○□", "○□□○□", "○□□○□", "○□□○□○")
    majority, *rest = a.readings
    assert majority.sigla == ("e1", "e2") and majority.notation == "○□□○□"
    assert [r.sigla for r in rest] == [("e0",), ("e3",)]
    assert rest[0].differences == ("3 (she): ○ for □",)
    assert rest[1].differences == ("after 5 (she): adds ○",)


# --- among alignments of equal cost: the tie-break rule -----------------------------------------


def test_a_stroke_lacking_and_one_added_rather_than_two_changed():
    # ○□ against □○: two substitutions cost 2, as do one ○ lacking and one added
    a = one("○□", "□○")
    assert len(a.columns) == 3 and all("" in c.cells for c in a.columns if c.varies)
    described = [v.description for p in a.places for v in p.variants]
    # the reader sees one place: the two strokes transposed (倒), not two changed
    assert described == ["○□ transposed as □○"]
    with i18n.speaking("zh_Hant"):
        assert [v.description for p in a.places for v in p.variants] == ["○□ 倒作 □○"]
    assert [p.label for p in a.places] == ["1–2"]


def test_a_transposition_is_one_place_only_where_a_witness_reads_the_pair_reversed():
    a = one("□○□□○", "○□□□○", "□□□○")  # e1 transposes strokes 1–2; e2 lacks ○ at 2
    (place,) = a.places
    assert place.label == "1–2" and place.lemma.text == "□○"
    by_text = {v.text: v for v in place.variants}
    assert by_text["○□"].description == "□○ transposed as ○□"
    assert by_text["□"].sigla == ("e2",)
    apart = one("□○□□○", "○□□○○")  # a ○ added at the start and one lacking at 2, but not
    assert len(apart.places) == 2  # the pair reversed: two places


def test_strokes_lacking_together_rather_than_one_by_one():
    # two of ○□○□○□ lacking: ○□ together, not a ○ here and a □ there
    a = one("○□○□○□", "○□○□")
    (place,) = a.places
    assert place.stop - place.start == 2 and place.variants[0].text == ""


def test_a_reported_reading_is_evidence_where_a_witness_adds_the_same():
    base = "○□○○□□○○半○□○○□○○○○□○□○"
    tongjie = "○○○□□○○半○□○□○○○○□○□○□○"  # 儀禮經傳通解's second 魯
    note = {"after": 21, "text": "大戴禮下尚有一□一○朱子從之"}
    pool = [
        edition_from_dict(
            {"id": ident, "name": ident, "score": [{"figure": 2, "state": "魯", **score}]}
        )
        for ident, score in (
            ("base", {"printed": base}),
            ("noted", {"printed": base, "notes": [note]}),
            ("tongjie", {"printed": tongjie}),
        )
    ]
    a = build(pool, 2, "魯", base="base")
    assert [p.label for p in a.parting] == ["2", "11", "after 21"]
    added = a.parting[-1]
    (v,) = added.variants
    assert (v.text, v.printed, [r.siglum for r in v.reports]) == ("□○", ("tongjie",), ["大戴禮"])
    assert a.agreements == (
        "大戴禮 (reported in noted: 「大戴禮下尚有一□一○朱子從之」) = tongjie (tongjie)",
    )
    # without the note, the rule alone already prefers gaps to the three substitutions
    b = build(pool[::2], 2, "魯", base="base")
    assert all("for" not in v.description for p in b.places for v in p.variants)


# --- the order of the witnesses ---------------------------------------------------------------


def dated(*pairs: tuple[str, int | None]):
    """Editions e0, e1, … each printing one 魯 pattern of figure 1, dated as given."""
    return [
        edition_from_dict(
            {
                "id": f"e{i}",
                "name": f"E{i}",
                "score": [{"figure": 1, "state": "魯", "printed": p}],
                **({"date": {"year": year, "basis": "test"}} if year is not None else {}),
            }
        )
        for i, (p, year) in enumerate(pairs)
    ]


def test_by_date_the_base_comes_first_then_the_earliest_and_the_cells_stay():
    pool = dated(("○□○○□", 1700), ("○□□○□", 1500), ("○□○○□", None), ("○□□○□", 1200))
    corpus_order = build(pool, 1, "魯", base="e0")
    by_date = build(pool, 1, "魯", base="e0", order="date")
    assert [w.siglum for w in corpus_order.witnesses] == ["e0", "e1", "e2", "e3"]
    assert [w.siglum for w in by_date.witnesses] == ["e0", "e3", "e1", "e2"]  # undated last
    rows = {w.siglum: by_date.row(i) for i, w in enumerate(by_date.witnesses)}
    assert rows == {w.siglum: corpus_order.row(i) for i, w in enumerate(corpus_order.witnesses)}
    (place,) = by_date.places
    (variant,) = place.variants
    assert variant.sigla == ("e3", "e1") and (variant.first, variant.first_date) == ("e3", "1200")
    # the earliest edition is named whatever the order of the rows
    assert corpus_order.places[0].variants[0].first == "e3"


def test_the_corpus_by_date_keeps_every_place_and_count():
    for plain, by_date in zip(collate(), collate(order="date"), strict=True):
        keys = [w.date for w in by_date.printed[1:]]
        assert all(k is not None for k in keys)
        assert [w.date_key for w in by_date.printed[1:]] == sorted(
            w.date_key for w in by_date.printed[1:]
        )
        assert by_date.base.siglum == plain.base.siglum
        assert [(p.start, p.stop, p.label) for p in by_date.places] == [
            (p.start, p.stop, p.label) for p in plain.places
        ]
        for p, q in zip(plain.places, by_date.places, strict=True):
            assert sorted(len(v.sigla) for v in p.variants) == sorted(
                len(v.sigla) for v in q.variants
            )
            assert {v.text: set(v.sigla) for v in p.variants} == {
                v.text: set(v.sigla) for v in q.variants
            }
        assert [c.pi for c in (s.stated for s in plain.counts)] == [
            c.pi for c in (s.stated for s in by_date.counts)
        ]


# --- in the reader's language ---


#: The summary's two clauses in each Chinese catalog: the count, its measure word and the words;
#: and what each says when there is none (no 0 處).
SUMMARY = {
    "zh_Hant": ("刊本異文 {n} 處", "注文所載異文 {m} 處", "刊本無異文", "注文無異文"),
    "zh_Hans": ("刊本异文 {n} 处", "注文所载异文 {m} 处", "刊本无异文", "注文无异文"),
}


@pytest.mark.parametrize("language", list(SUMMARY))
def test_the_summary_states_both_counts_in_chinese(language):
    alike = one("○□○", "○□○")
    single = one("○□○", "○□□")
    several = one("○□○□○", "□□○□□")
    (lu2,) = collate(scores=[(2, "魯")])
    assert not alike.parting and len(single.parting) == 1 and len(several.parting) > 1
    assert len(lu2.reports) == 1 and not single.reports
    places, readings, no_places, no_readings = SUMMARY[language]
    for a in (alike, single, several, lu2):
        n, m = len(a.parting), len(a.reports)
        with i18n.speaking(language):
            said = a.summary
        parted = places.format(n=n) if n else no_places
        reported = readings.format(m=m) if m else no_readings
        assert said == f"{parted}；{reported}"
        assert " 0 " not in said


def test_the_summary_in_english_has_the_plural_where_the_count_asks_for_it():
    alike = one("○□○", "○□○")
    single = one("○□○", "○□□")
    several = one("○□○□○", "□□○□□")
    (lu2,) = collate(scores=[(2, "魯")])
    with i18n.speaking("en"):
        assert alike.summary == (
            "no place where the printed editions part; no reading reported by notes"
        )
        assert single.summary == (
            "1 place where the printed editions part; no reading reported by notes"
        )
        n = len(several.parting)
        assert several.summary.startswith(f"{n} places where the printed editions part; ")
        assert lu2.summary.endswith("; 1 reading reported by notes")


@pytest.mark.parametrize(
    ("language", "fewer", "after", "substituted"),
    [
        ("zh_Hant", "第 1 擊（射）：第 1～2 擊處脫一 ○", "第 2 擊後", "○ 作 □"),
        ("zh_Hans", "第 1 击（射）：第 1～2 击处脱一 ○", "第 2 击后", "○ 作 □"),
        ("en", "1 (she): one ○ fewer in the run 1–2", "after 2", "□ for ○"),
    ],
)
def test_readings_and_places_are_written_in_the_language_they_are_read_in(
    language, fewer, after, substituted
):
    lacking, adding, changing = one("○○□", "○□"), one("○□", "○□○"), one("○□", "□□")
    with i18n.speaking(language):
        assert lacking.readings[1].differences == (fewer,)
        assert [p.label for p in adding.places] == [after]
        assert changing.places[0].variants[0].description == substituted
    # the model holds where and how, not words: the same apparatus reads in any language
    with i18n.speaking("en"):
        assert lacking.places[0].variants[0].description == "one ○ fewer in the run 1–2"


# --- bad input ---


def test_no_edition_has_the_score():
    import pytest

    from drumscore.errors import OptionError

    with pytest.raises(OptionError, match="has no 魯鼓 of figure 2"):
        build(eds("○□"), 2, "魯", base="e0")


def test_an_unknown_order_names_the_parameter_and_the_choices():
    import pytest

    from drumscore.errors import OptionError

    with pytest.raises(OptionError, match="'age' is not one of corpus, date") as e:
        build(eds("○□"), 1, "魯", base="e0", order="age")
    assert e.value.option == "order"


@given(st.lists(st.sampled_from("○□"), max_size=14), st.lists(st.sampled_from("○□"), max_size=14))
def test_the_apparatus_alignment_of_strokes_is_an_optimal_edit_script(a, b):
    from drumscore.apparatus.align import differences

    assert differences(a, b) == levenshtein(a, b)
