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

from catalog_entries import entries  # noqa: E402

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


ROOT = DOCS.parents[1]
#: The Chinese guides, every one, held to the table and to their script, with README's Chinese
#: sections.
GUIDES = ("check", "compare", "extract", "kits", "languages", "notation", "play", "rendering")
GUIDE_DIR = {"zh_Hant": "zh-Hant", "zh_Hans": "zh-Hans"}
README_SECTION = {"zh_Hant": "## 繁體中文", "zh_Hans": "## 简体中文"}
#: Ordinary words that hold a word of the table without being that word (使用時: "when used").
ORDINARY = ("使用時", "使用时")
FENCE = re.compile(r"^( *)```.*?^\1```", re.S | re.M)
CODE = re.compile(r"`[^`\n]+`")
LINK = re.compile(r"(!?\[[^\]\n]*\])\([^)\s]+\)")
QUOTATION = re.compile(r"「[^「」\n]*」")


def guides(language: str) -> list[tuple[str, str]]:
    """(name, prose) of each guide in `language` and of README's section: no link targets,
    no table rows of docs/<script>/languages.md (its glossary and its table of regional terms
    name the words of both regions), no language links on the first line (each in its own
    script), and no quotations (a quotation keeps its printed form)."""
    found = []
    for guide in GUIDES:
        path = ROOT / "docs" / GUIDE_DIR[language] / f"{guide}.md"
        lines = path.read_text(encoding="utf-8").splitlines()[1:]
        if guide == "languages":
            lines = [line for line in lines if not line.startswith("|")]
        found.append((path.relative_to(ROOT).as_posix(), "\n".join(lines)))
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split(README_SECTION[language], 1)[1].split("\n## ", 1)[0]
    found.append((f"README.md {README_SECTION[language][3:]}", section))
    return [(name, QUOTATION.sub("「」", LINK.sub(r"\1", text))) for name, text in found]


@pytest.mark.parametrize("language", sorted(USES))
def test_no_guide_uses_the_other_regions_word(language):
    found = []
    for name, text in guides(language):
        for ordinary in ORDINARY:
            text = text.replace(ordinary, "")
        found += [
            f"{name}: {word} ({row[0]}): {line.strip()[:80]}"
            for row in table()
            for word in words(row[NEVER[language]])
            for line in text.splitlines()
            if word in line
        ]
    assert not found, "\n".join(found)


def test_every_simplified_guide_is_in_simplified_characters_outside_quotations():
    """As the catalog is: code, what is typed, quotations and variant lists keep their form."""
    to_simplified = opencc.OpenCC("t2s")
    found = []
    for name, text in guides("zh_Hans"):
        for line in CODE.sub("", FENCE.sub("", text)).splitlines():
            left = prose(line)
            if to_simplified.convert(left) != left:
                found.append(f"{name}: {line.strip()[:80]}")
    assert not found, f"{len(found)} lines:\n" + "\n".join(found)


def test_the_guide_checks_find_the_other_regions_word_and_traditional_prose():
    """The guide checks could fail: a 简体 guide's 预设 and 禮記 are found, a quotation is not."""
    to_simplified = opencc.OpenCC("t2s")
    line = QUOTATION.sub("「」", "预设为底本《禮記注疏》，引文「禮記」照录")
    assert [w for row in table() for w in words(row[NEVER["zh_Hans"]]) if w in line] == ["预设"]
    assert to_simplified.convert(prose(line)) != prose(line)
    assert "禮" not in QUOTATION.sub("「」", "引文「禮記」照录")
