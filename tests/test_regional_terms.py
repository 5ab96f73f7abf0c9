"""Each Chinese catalog in its own region's words and script: the table of regional terms of
docs/languages.md holds over every entry (no 简体 entry uses a Taiwan word of the table, no 繁體
entry a mainland one), and every 简体 entry is written in simplified characters outside its
quotations, score signs, variant lists and what is typed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
opencc = pytest.importorskip("opencc", reason="the script test converts with OpenCC (i18n extra)")

from babel.messages.pofile import read_po  # noqa: E402

from drumscore import i18n  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs" / "languages.md"
#: The table's columns: the words a script uses, and those it never uses.
USES = {"zh_Hant": 1, "zh_Hans": 2}
NEVER = {"zh_Hant": 3, "zh_Hans": 4}


def table() -> list[list[str]]:
    """The rows of the regional terms: English, 繁體, 简体, not in 繁體, not in 简体."""
    text = DOCS.read_text(encoding="utf-8").split("## Regional terms", 1)[1].split("\n## ", 1)[0]
    rows = [
        line.strip().strip("|").split("|") for line in text.splitlines() if line.startswith("|")
    ]
    return [[cell.strip() for cell in row] for row in rows[2:]]


def words(cell: str) -> list[str]:
    return [w.strip() for w in cell.split(",") if w.strip() and w.strip() != "—"]


def entries(language: str) -> list[tuple[str, str]]:
    """(msgid, msgstr) of every entry of a catalog, each plural form on its own."""
    path = i18n.LOCALE_DIR / language / "LC_MESSAGES" / "drumscore.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=language, domain="drumscore")
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        found += [(ids[0], s) for s in strings]
    return found


def test_the_table_is_read_and_says_each_thing_once_per_script():
    rows = table()
    assert len(rows) >= 40 and all(len(row) == 5 for row in rows), rows
    for row in rows:
        for language in USES:
            used, never = words(row[USES[language]]), words(row[NEVER[language]])
            assert not [w for w in never for u in used if w in u], row  # not both at once


@pytest.mark.parametrize("language", sorted(USES))
def test_no_entry_uses_the_other_regions_word(language):
    found = [
        (word, msgstr)
        for row in table()
        for word in words(row[NEVER[language]])
        for _msgid, msgstr in entries(language)
        if word in msgstr
    ]
    assert not found, "\n".join(f"{w}: {s}" for w, s in found)


def test_the_table_writes_each_script_in_its_own_characters():
    to_simplified = opencc.OpenCC("t2s")
    for row in table():
        for word in words(row[USES["zh_Hans"]]) + words(row[NEVER["zh_Hans"]]):
            assert to_simplified.convert(word) == word, row


#: What keeps its printed form in a 简体 entry: a quotation 「…」, what is typed (a flag's value,
#: a name such as 魯/2@benyi or X=魯, HTML's code), and a variant list (魯／鲁).
KEPT = re.compile(
    r"「[^「」]*」|<code>.*?</code>|<kbd>.*?</kbd>"
    r"|[^\s，、；：（）「」]*[A-Za-z{}=@/][^\s，、；：（）「」]*"
)


#: A variant list: forms of one character, written one beside the other (魯／鲁、薛／辥).
VARIANTS = re.compile(r"(?<![^\s，、；：（）])\w(?:／\w)+(?![^\s，、；：（）])")


def prose(text: str) -> str:
    """`text` without what keeps its printed form."""
    return VARIANTS.sub("", KEPT.sub("", text))


def test_every_simplified_entry_is_in_simplified_characters_outside_quotations():
    to_simplified = opencc.OpenCC("t2s")
    found = []
    for msgid, msgstr in entries("zh_Hans"):
        text = prose(msgstr)
        if to_simplified.convert(text) != text:
            found.append(f"{msgid[:50]!r}: {msgstr}")
    assert not found, f"{len(found)} entries:\n" + "\n".join(found)


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ("鲁鼓、薛鼓的「魯鼓」", "鲁鼓、薛鼓的"),
        ("也可写 魯／鲁、薛／辥", "也可写 、"),
        ("lu、魯/2@benyi 或 --label X=魯", "、 或  "),
        ("投壶／射", "投壶／射"),
    ],
)
def test_what_keeps_its_printed_form_is_set_aside_and_nothing_else(text, left):
    assert prose(text) == left


def test_the_script_check_finds_traditional_prose():
    to_simplified = opencc.OpenCC("t2s")
    text = prose("禮記注疏・魯鼓・第一图")
    assert to_simplified.convert(text) != text


def _names_of_the_sources() -> list[str]:
    """Every name the corpus shows in prose: editions, their works and labels, the readings'
    names and citations, the commentators who count, the rites."""
    from drumscore import corpus
    from drumscore.model import READINGS, SECTION_TABLE

    found = {r.name for r in READINGS} | {s.rite for s in SECTION_TABLE.values() if s.rite}
    for edition in corpus.editions():
        found |= {edition.name, edition.provenance.work}
        for score in edition.scores:
            found |= {score.edition_name, str(score.state) + "鼓"}
        found |= {count.by for count in edition.counts}
    return sorted(n for n in found if n)


def test_the_names_table_writes_each_character_as_opencc_does():
    to_simplified = opencc.OpenCC("t2s")
    table = i18n.SIMPLIFIED_NAMES
    assert len(table) >= 80
    for traditional, simplified in table.items():
        assert to_simplified.convert(chr(traditional)) == chr(simplified)


def test_every_name_of_the_sources_is_written_in_simplified_for_a_simplified_reader():
    to_simplified = opencc.OpenCC("t2s")
    names = _names_of_the_sources()
    assert len(names) > 20 and "禮記注疏" in names and "鄭玄" in " ".join(names)
    with i18n.speaking("zh_Hans"):
        wrong = [(n, i18n.written(n)) for n in names if i18n.written(n) != to_simplified.convert(n)]
    kept = [(n, w) for n, w in wrong if set(n) & {"乾", "榦"}]  # 乾隆, 黃榦: kept as written
    assert wrong == kept, wrong
    with i18n.speaking("zh_Hant"):
        assert [i18n.written(n) for n in names] == names  # 繁體: as printed


@pytest.mark.parametrize(
    ("language", "shown"),
    [
        ("zh_Hant", "benyi-skqs（禮經本義〔四庫全書本〕）"),
        ("zh_Hans", "benyi-skqs（礼经本义〔四库全书本〕）"),
        ("en", "benyi-skqs (禮經本義（四庫全書本）)"),
    ],
)
def test_a_note_inside_a_note_is_bracketed_as_chinese_nests_them(language, shown):
    with i18n.speaking(language):
        assert i18n.aside("benyi-skqs", i18n.written("禮經本義（四庫全書本）")) == shown
