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


# --- compare is the apparatus of two witnesses ---


def _readings():
    """Each figure and drum: one edition for each distinct reading of the corpus."""
    from drumscore.apparatus.gather import SCORES
    from drumscore.corpus import builtin_editions

    out = []
    for figure, state in SCORES:
        seen: dict[str, object] = {}
        for edition in builtin_editions():
            score = edition.score(state, figure)
            if score is not None:
                seen.setdefault(score.pattern.notation, edition)
        out.append((figure, state, list(seen.values())))
    return out


def _from_rows(rows):
    """Kinds and stroke numbers (from 1) of each stroke column, read off two apparatus rows."""
    kinds, numbers, counted = [], [], [0, 0]
    for cells in zip(*rows, strict=True):
        if "半" in cells:
            continue
        here = []
        for side, cell in enumerate(cells):
            if cell:
                counted[side] += 1
                here.append(counted[side])
            else:
                here.append(None)
        a, b = cells
        kinds.append(
            "same" if a == b else "only-a" if not b else "only-b" if not a else "substituted"
        )
        numbers.append(tuple(here))
    return kinds, numbers


def _restricted(apparatus, i, j):
    """Rows i and j of an apparatus, without the columns where both have nothing, and the
    index in the apparatus of each column kept."""
    kept = [k for k, c in enumerate(apparatus.columns) if c.cells[i] or c.cells[j]]
    rows = [[apparatus.columns[k].cells[w] for k in kept] for w in (i, j)]
    return rows, kept


def test_compare_places_every_stroke_where_collate_places_it():
    """compare ↔ collate: for every two editions of the corpus that print a figure and drum,
    compare's aligned columns are collate's rows of the two, and its places lie each within
    one of collate's places, one at least in every place of collate where the two part."""
    from drumscore.apparatus.gather import SCORES, collate

    pairs = 0
    for figure, state in SCORES:
        (a,) = collate(scores=[(figure, state)])
        home = a.place_of_column()
        for i, wa in enumerate(a.printed):
            for j, wb in enumerate(a.printed):
                if i == j:
                    continue
                rows, kept = _restricted(a, i, j)
                c = compare(wa.score, wb.score)
                got = c.apparatus
                assert [list(got.row(0)), list(got.row(1))] == rows, (wa.siglum, wb.siglum)
                held = set()
                for p in got.places:
                    homes = {home.get(kept[k]) for k in range(p.start, p.stop)}
                    assert len(homes) == 1 and None not in homes, (wa.siglum, wb.siglum)
                    held |= homes
                parted = {
                    n
                    for n, p in enumerate(a.places, 1)
                    if any(a.row(i)[k] != a.row(j)[k] for k in range(p.start, p.stop))
                }
                assert held == parted, (wa.siglum, wb.siglum)
                pairs += 1
    assert pairs > 4 * 200  # 17 editions print each score: every ordered pair of them


def test_compare_json_reads_its_strokes_off_collate_s_rows(capsys):
    import json

    from cli_run import run_cli

    from drumscore.apparatus.gather import collate

    pairs = 0
    for figure, state, editions in _readings():
        assert len(editions) > 1
        slug = {"魯": "lu", "薛": "xue"}[state]
        (a,) = collate(scores=[(figure, state)])
        index = {w.siglum: n for n, w in enumerate(a.witnesses)}
        for ea in editions:
            for eb in editions:
                if ea is eb:
                    continue
                code, out, err = run_cli(
                    ["compare", f"{slug}/{figure}@{ea.id}", f"{slug}/{figure}@{eb.id}", "--json"],
                    capsys,
                )
                assert code == 0, err
                got = json.loads(out)
                rows, _kept = _restricted(a, index[ea.id], index[eb.id])
                kinds, numbers = _from_rows(rows)
                assert [c["kind"] for c in got["alignment"]] == kinds
                assert [(c["a_stroke"], c["b_stroke"]) for c in got["alignment"]] == numbers
                # every differing column lies in a place, and every place has a difference
                marked = {c["place"] for c in got["alignment"] if c["kind"] != "same"}
                assert marked == set(range(1, len(got["places"]) + 1))
                assert got["distance"] == sum(k != "same" for k in kinds)
                pairs += 1
    assert pairs >= 12


def test_compare_puts_tongjie_s_added_strokes_where_collate_does():
    """yishu's note that the 大戴禮 ends with □○ places tongjie's two added strokes after
    stroke 21 in collate; compare, reading the two editions' rows of collate, agrees."""
    from drumscore.apparatus.gather import collate

    c = compare(resolve("lu/2@zhushu"), resolve("lu/2@tongjie"))
    kinds = [col.kind for col in c.columns if col.differs]
    assert kinds == ["only-a", "only-a", "only-b", "only-b"]  # no substitution, as in collate
    labels = [p.label for p in c.apparatus.places]
    (lu2,) = collate(scores=[(2, "魯")])
    theirs = [p.label for p in lu2.places if any("tongjie" in v.sigla for v in p.variants)]
    assert labels == theirs == ["2", "11", "after 21"]
    assert [col.kind for col in c.columns[-2:]] == ["only-b", "only-b"]
    assert "".join(col.b.drum.symbol for col in c.columns[-2:] if col.b) == "□○"
    # two readings no edition prints are aligned on their own: the added □ at the first place
    # of the run of □ it joins (after stroke 4), the added ○ after the last stroke
    free = compare(resolve("○□○○□"), resolve("○□○○□□○"))
    assert [p.label for p in free.apparatus.places] == ["after 4", "after 5"]


def test_a_chinese_comparison_cites_editions_by_their_short_names():
    c = compare(resolve("lu/2@zhushu"), resolve("lu/2@tongjie"))
    with i18n.speaking("zh_Hant"):
        data = comparison_data(c)
        assert (c.title("a"), c.title("b")) == ("注疏本魯鼓第二圖", "通解魯鼓第二圖")
    assert (data["a"]["cited"], data["b"]["key"]) == ("注疏本魯鼓第二圖", "lu/2@tongjie")
    with i18n.speaking("zh_Hans"):
        assert compare(resolve("lu/2@weishi"), resolve("○□○")).title("a") == "卫氏集说鲁鼓第二图"
    with i18n.speaking("en"):
        assert c.title("b") == c.b.title == "儀禮經傳通解 · 魯鼓 · figure 2"
