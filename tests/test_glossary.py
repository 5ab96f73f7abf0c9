"""The glossary of docs/languages.md holds in both Chinese catalogs: one word for each thing."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

babel = pytest.importorskip("babel")
from catalog_entries import entries  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs" / "languages.md"
COLUMNS = {"zh_Hant": 1, "zh_Hans": 2}


def glossary() -> list[list[str]]:
    """The glossary's rows: English, 繁體中文, 简体中文, the words not to use."""
    text = DOCS.read_text(encoding="utf-8").split("## Glossary", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in text.splitlines() if line.startswith("|")]
    rows = [line.strip().strip("|").split("|") for line in lines]
    return [[cell.strip() for cell in row] for row in rows[2:]]


def test_the_glossary_is_read():
    rows = glossary()
    assert len(rows) >= 15 and all(len(row) == 4 for row in rows), rows


@pytest.mark.parametrize("language", sorted(COLUMNS))
def test_no_translation_uses_a_word_the_glossary_sets_aside(language):
    found = []
    for row in glossary():
        banned = [w.strip() for w in row[3].split(",") if w.strip()]
        for msgid, msgstr in entries(language):
            found += [(w, msgid) for w in banned if w in msgstr]
    assert not found, found


@pytest.mark.parametrize("language", sorted(COLUMNS))
def test_every_message_with_a_glossary_term_says_it_with_its_word(language):
    missing = []
    for row in glossary():
        term = re.fullmatch(r"`([^`]+)`", row[0])
        if term is None:
            continue
        word = row[COLUMNS[language]].replace(" … ", "")
        for msgid, msgstr in entries(language):
            used = re.search(rf"(?<![-\w]){re.escape(term.group(1))}\b", msgid, re.IGNORECASE)
            if used and word not in msgstr:
                missing.append((term.group(1), msgid, msgstr))
    assert not missing, missing
