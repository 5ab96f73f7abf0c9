"""cli/reports/apparatus.py: collate's text and groups as a Chinese reader reads them (editions by
their short names, the readings in the terms of a 校勘記: 衍, 脫, 作), the CSV and the site alike;
English keeps its own words."""

from __future__ import annotations

import csv
import html
import io
import re

import pytest
from speaking import column_of

from drumscore import corpus, i18n
from drumscore.apparatus.gather import SCORES, collate
from drumscore.apparatus.groups import groups
from drumscore.apparatus.table import csv_text
from drumscore.cli.reports.apparatus import format_apparatuses, format_groups, where_of
from drumscore.model import HALF

CHINESE = ("zh_Hant", "zh_Hans")
#: The base as each script's 校勘記 names it (in 简体 prose in simplified characters).
BASE = {"zh_Hant": "底本《禮記注疏》", "zh_Hans": "底本《礼记注疏》"}
#: What a 校勘記 says of a reading that adds strokes, lacks them, or has others.
KIND_WORDS = {"adds": ("衍", "末多"), "omits": ("脫", "脱"), "substitutes": ("作",)}


@pytest.fixture(scope="module")
def apparatuses():
    return collate(scores=SCORES)


def edition_ids() -> set[str]:
    return {e.id for e in corpus.editions()}


def ids_in(text: str) -> list[str]:
    """The edition ids that stand as words in `text` (not inside a file name or a longer id)."""
    return [i for i in edition_ids() if re.search(rf"(?<![\w.-]){re.escape(i)}(?![\w.-])", text)]


def kind(lemma: str, reading: str) -> str:
    """What a reading does to the lemma, read off the data: adds, omits or substitutes."""
    lem, rdg = lemma.replace(HALF, ""), reading.replace(HALF, "")
    if len(rdg) > len(lem):
        return "adds"
    if len(rdg) < len(lem):
        return "omits"
    return "substitutes"


@pytest.mark.parametrize("language", CHINESE)
def test_the_chinese_apparatus_names_no_edition_by_its_id(apparatuses, language):
    with i18n.speaking(language):
        for a in apparatuses:
            text = format_apparatuses([a])
            assert ids_in(text) == [], a.key
            assert text.startswith(f"{a.title}　{a.base_named}；")
            assert BASE[language] in text and " = " not in text
            groups_text = format_groups([groups(a)])
            assert ids_in(groups_text) == [], a.key
            assert "（Newick 格式；" in groups_text and " | " not in groups_text


@pytest.mark.parametrize("language", CHINESE)
def test_each_reading_says_衍_脫_or_作_as_it_adds_omits_or_substitutes(apparatuses, language):
    seen = set()
    with i18n.speaking(language):
        for a in apparatuses:
            lines = format_apparatuses([a]).splitlines()
            for p in a.parting:
                # the place's line (a note's reading at the same place follows, further down)
                line = next(ln for ln in lines if ln.startswith(f"  {where_of(p)}："))
                for v in p.variants:
                    if not v.printed:
                        continue
                    said = kind(p.lemma.text, v.text)
                    sentence = line.split(a.named(v.printed), 1)[1]
                    assert any(w in sentence.split("；")[0] for w in KIND_WORDS[said]), line
                    seen.add(said)
    assert seen == set(KIND_WORDS)  # the corpus has all three


def test_zuantu_s_extra_circle_reads_衍_and_yuhai_s_missing_square_脫(apparatuses):
    lu1 = apparatuses[0]
    with i18n.speaking("zh_Hant"):
        text = format_apparatuses([lu1])
    assert "纂圖本第 3～4 擊處衍一 ○" in text
    assert "玉海第 11 擊處脫一 □" in text
    assert "第 4 擊（半以前）：五禮通考 ○ 作 □（" in text
    assert "吳澄本，見義疏所引：「吳澄本作○」" in text
    assert "義疏第 15 擊後注云「吳澄本少一○一□」，未指其處，不列為異文" in text
    with i18n.speaking("zh_Hans"):
        assert "纂图本第 3～4 击处衍一 ○" in format_apparatuses([lu1])
    (lu2,) = [a for a in apparatuses if a.key == "lu/2"]
    with i18n.speaking("zh_Hant"):
        text = format_apparatuses([lu2])
    assert "通解末多 □○，與大戴禮合" in text
    assert text.splitlines()[0] == (
        "魯鼓第二圖　底本《禮記注疏》；校本 16 種；刊本異文 3 處；注文所載異文 1 處"
    )


def test_english_keeps_its_own_words_and_the_ids(apparatuses):
    with i18n.speaking("en"):
        text = format_apparatuses(apparatuses[:1])
        lu2 = format_apparatuses([a for a in apparatuses if a.key == "lu/2"])
    assert "after 2 (head)  — zhushu " in text
    assert "○ zuantu (one ○ more in the run 3–4; first in zuantu, 1127-1279)" in text
    assert "□ wuli (□ for ○; first in wuli, 1702-1764)" in text
    assert "□○ tongjie = 大戴禮 (adds □○; first in tongjie, 1130-1200)" in lu2
    assert not re.search("[衍脫脱]|底本", text + lu2)


@pytest.mark.parametrize("language", CHINESE)
def test_the_chinese_csv_keeps_ids_in_its_id_columns_only(apparatuses, language):
    with i18n.speaking(language):
        rows = list(csv.reader(io.StringIO(csv_text(apparatuses))))
    tables, table = [], []
    for row in rows:
        if row:
            table.append(row)
        else:
            tables.append(table)
            table = []
    tables.append(table)
    alignment, _counts, places = tables
    witnesses = [r for r in alignment if r[1] not in ("column", "section", "place")]
    assert {r[1] for r in witnesses} >= edition_ids()  # the id column
    assert [r for r in witnesses if ids_in(r[2])] == []  # the names
    assert BASE[language] in {r[2] for r in witnesses}
    header, *described = places
    assert header[6:] == ["sigla", "description"]
    with i18n.speaking(language):  # a reported text's siglum is a name: 大戴礼 in 简体
        reported = {i18n.written("吳澄本"), i18n.written("大戴禮")}
    assert all(set(r[6].split()) <= edition_ids() | reported for r in described)
    assert [r for r in described if ids_in(r[7]) or ids_in(r[2])] == []
    for r in described:
        if r[5] != r[4] and r[7] and "底本" not in r[7]:
            assert any(w in r[7] for w in KIND_WORDS[kind(r[4], r[5])]), r


@pytest.fixture(scope="module")
def index_pages():
    """The site's index (its 校勘記, groups and counts) in each Chinese script."""
    from drumscore.site import data
    from drumscore.site.build import index_page

    pool = corpus.editions()
    pages = {}
    for language in CHINESE:
        with i18n.speaking(language):
            pages[language] = "".join(index_page([], data.apparatuses(pool, []), pool))
    return pages


@pytest.mark.parametrize("language", CHINESE)
def test_the_site_s_apparatus_cites_editions_by_short_name_and_says_衍_脫_作(index_pages, language):
    page = index_pages[language]
    sections = re.findall(r'<section class="collation".*?</section>', page, re.S)
    assert len(sections) == 4
    for section in sections:
        text = html.unescape(re.sub(r"<[^>]+>", " ", section))
        assert ids_in(text) == []
    places = " ".join(re.findall(r'<ol class="places">.*?</ol>', page, re.S))
    said = html.unescape(re.sub(r"<[^>]+>", "", places))
    assert "底本" not in said  # the editions with the base are implied (諸本同)
    assert ("首見於" if language == "zh_Hant" else "首见于") in said
    assert "始見於" not in said and "始见于" not in said
    for words in KIND_WORDS.values():
        assert any(w in said for w in words)


def test_collate_in_traditional_chinese_keeps_names_and_cites_the_editions(monkeypatch, cli):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, _ = cli("collate", "lu")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("魯鼓第一圖　底本《禮記注疏》；校本 16 種；")
    key = lines[lines.index("版本簡稱：") + 1 : lines.index("所述擊數：") - 1]
    names = {line.split()[0]: line for line in key}
    # editions by their short names, edition names as printed
    for cited, name in [
        ("底本《禮記注疏》", "禮記注疏（642～653）——"),
        ("本義四庫本", "禮經本義（四庫全書本）"),
        ("樂書卷百十八", "樂書（卷一百十八）"),
        ("吳澄本", "見義疏所引"),
    ]:
        assert name in names[cited], cited
    # the descriptions line up, 吳澄本 counted six columns wide
    assert len({column_of(line, line.split()[1]) for line in key}) == 1
    assert "相符：底本《禮記注疏》、本義、本義四庫本" in out
    assert "不符：五禮通考——" in out
    assert "第 8 擊（半以前）：吳澄本，見義疏所引：「吳澄本作○」；□ 作 ○" in out
    assert "sigla:" not in out and "agree:" not in out


# --- a 校勘記 names the editions that depart (諸本同 for the rest) -----------------------------


def few_with_the_base():
    """A score where the base and one other edition read ○ and three read □: the base stands
    with few."""
    printed = {"e0": "○□○□", "e1": "○□○□", "e2": "○□□□", "e3": "○□□□", "e4": "○□□□"}
    return [
        corpus.edition_from_dict(
            {"id": i, "name": f"古本{i[1]}", "score": [{"figure": 1, "state": "魯", "printed": p}]}
        )
        for i, p in printed.items()
    ]


def named_in(line: str, names: set[str]) -> set[str]:
    """The editions a 校勘記 line names: in each clause (after 唯), the names listed with 、 up
    to what they read; notes in （） left out."""
    body = re.sub(r"（[^（）]*）", "", line.split("：", 1)[1])
    found = set()
    for clause in body.split("；"):
        *listed, last = clause.removeprefix("唯").split("、")
        assert set(listed) <= names, clause
        found |= set(listed)
        found.add(max((n for n in names if last.startswith(n)), key=len, default=last))
    return found


def expected_names(a, p) -> set[str]:
    """Who departs at a place, and the editions with the base when they are no more than those."""
    departing = [s for v in p.variants for s in v.printed]
    named = set(departing)
    if len(p.lemma.printed) <= len(departing):
        named |= set(p.lemma.printed)
    return {a.cite(s) for s in named}


@pytest.mark.parametrize("language", CHINESE)
def test_a_chinese_place_names_the_editions_that_depart_and_the_base_only_with_few(
    apparatuses, language
):
    from drumscore.apparatus.gather import build

    few = build(few_with_the_base(), 1, "魯", base="e0")
    with i18n.speaking(language):
        seen_lemma = seen_implied = 0
        for a in (*apparatuses, few):
            names = {a.cite(w.siglum) for w in a.witnesses}
            lines = format_apparatuses([a]).splitlines()
            for p in a.parting:
                line = next(ln for ln in lines if ln.startswith(f"  {where_of(p)}："))
                assert named_in(line, names) == expected_names(a, p), line
                lemma_named = a.cite(p.lemma.printed[0]) in named_in(line, names)
                assert line.split("：", 1)[1].startswith("唯") == lemma_named, line
                seen_lemma += lemma_named
                seen_implied += not lemma_named
        assert seen_lemma and seen_implied  # both kinds of line were read
        text = format_apparatuses([few])
    assert (
        "第 3 擊（射）：唯底本《古本0》、《古本1》作 ○；《古本2》、《古本3》、《古本4》 ○ 作 □"
        in (text.replace("击", "擊"))
    )


@pytest.mark.parametrize("language", CHINESE)
def test_the_site_s_chinese_places_name_the_same_editions_as_the_text(apparatuses, language):
    from drumscore.site import data
    from drumscore.site.build import index_page

    pool = (*corpus.editions(), *few_with_the_base())
    with i18n.speaking(language):
        shown = data.apparatuses(tuple(corpus.editions()), [])
        page = "".join(index_page([], shown, corpus.editions()))
        items = re.findall(r'<ol class="places">(.*?)</ol>', page, re.S)
        few_page = "".join(index_page([], data.apparatuses(tuple(few_with_the_base()), []), pool))
    assert len(items) == len(apparatuses)
    for a, listed in zip(apparatuses, items, strict=True):
        lines = [
            html.unescape(re.sub(r"<[^>]+>", "", li))
            for li in re.findall(r"<li.*?</li>", listed, re.S)
        ]
        with i18n.speaking(language):
            names = {a.cite(w.siglum) for w in a.witnesses}
            for p, line in zip(a.places, lines, strict=True):
                if p.editions_part:
                    assert named_in(line, names) == expected_names(a, p), line
    (listed,) = re.findall(r'<ol class="places">(.*?)</ol>', few_page, re.S)
    said = html.unescape(re.sub(r"<[^>]+>", "", listed))
    assert "唯底本《古本0》、《古本1》作 ○；《古本2》、《古本3》、《古本4》 ○ 作 □" in said


def test_english_json_and_csv_keep_every_edition_at_every_place(apparatuses):
    import json

    from drumscore.cli.reports.apparatus import apparatus_text

    with i18n.speaking("en"):
        text = format_apparatuses(apparatuses)
        shown = json.loads(apparatus_text(apparatuses, "json"))
    for a, data in zip(apparatuses, shown, strict=True):
        for p, place in zip(a.places, data["places"], strict=True):
            assert place["lemma"]["printed"] == list(p.lemma.printed)
            if p.editions_part:
                line = next(ln for ln in text.splitlines() if ln.startswith(f"  {where_of(p)}  "))
                assert set(line.split()) >= set(p.lemma.printed) | {
                    s for v in p.variants for s in v.printed
                }
    with i18n.speaking("zh_Hant"):
        rows = list(csv.reader(io.StringIO(csv_text(apparatuses))))
    lemmas = [r for r in rows if len(r) == 8 and r[7] == "底本讀法"]
    assert {len(r[6].split()) for r in lemmas} >= {16}  # the editions with the base, all listed


def test_no_traditional_form_is_left_in_简体_prose(apparatuses):
    """Outside quotations 「…」 and the notation, 简体 apparatus is as OpenCC's t2s writes it."""
    opencc = pytest.importorskip("opencc")
    convert = opencc.OpenCC("t2s").convert
    with i18n.speaking("zh_Hans"):
        text = format_apparatuses(apparatuses) + format_groups([groups(a) for a in apparatuses])
        rows = list(csv.reader(io.StringIO(csv_text(apparatuses))))
    prose_cells = [r[2] for r in rows if len(r) > 2 and r[1] not in ("column", "section", "place")]
    prose_cells += [r[7] for r in rows if len(r) == 8]
    for line in [*text.splitlines(), *prose_cells]:
        line = re.sub(r"「[^」]*」", "", line)
        assert convert(line) == line, line
    assert "底本《礼记注疏》" in text and "与大戴礼合" in text and "吴澄本" in text


@pytest.mark.parametrize(
    ("language", "said"), [("zh_Hant", "第 1 擊處衍一 ○"), ("zh_Hans", "第 1 击处衍一 ○")]
)
def test_a_stroke_added_to_a_run_of_one_reads_衍(language, said):
    from drumscore.apparatus.gather import build

    pool = [
        corpus.edition_from_dict(
            {"id": i, "name": f"古本{n}", "score": [{"figure": 1, "state": "魯", "printed": p}]}
        )
        for n, (i, p) in enumerate({"e0": "○□○", "e1": "○○□○"}.items())
    ]
    a = build(pool, 1, "魯", base="e0")
    (place,) = a.parting
    (variant,) = place.variants
    assert len(variant.text) == len(place.lemma.text) + 1  # the data: one ○ more
    with i18n.speaking(language):
        assert f"；《古本1》{said}" in format_apparatuses([a])  # after 唯底本…無
