"""The 简体 site's names (site/script.py): every name of the corpus its pages write in prose is
written as OpenCC's t2s writes it, and nothing changes on the other languages' pages."""

from __future__ import annotations

import pytest

from drumscore import corpus, i18n
from drumscore.apparatus.counts import check_score
from drumscore.model import READINGS
from drumscore.site.data import reading_name
from drumscore.site.script import prose


def _names() -> set[str]:
    """The corpus's names the pages show in prose: editions, their citations, the scores'
    titles, their states' drums, the commentators who state counts and the readings."""
    pool = corpus.editions()
    found: set[str] = set()
    for edition in pool:
        found |= {edition.name, edition.provenance.citation}
        for score in edition.scores:
            found |= {score.title, f"{score.state}鼓"}
            if score.source:
                found.add(score.source.citation)
            found |= {check.stated.by for check in check_score(score, pool)}
    for reading in READINGS:
        found |= {reading.name, reading.citation, reading_name(reading)}
    return {name for name in found if name}


def test_the_simplified_names_are_opencc_s():
    opencc = pytest.importorskip("opencc")
    convert = opencc.OpenCC("t2s").convert
    with i18n.speaking("zh_Hans"):
        names = _names()
        assert len(names) > 50
        wrong = {name: prose(name) for name in names if prose(name) != convert(name)}
    assert wrong == {}


def test_only_a_simplified_page_changes_its_names():
    with i18n.speaking("zh_Hans"):
        assert prose("禮記注疏 · 魯鼓 · 第 1 圖") == "礼记注疏 · 鲁鼓 · 第 1 图"
        assert prose("徐伯魯") == "徐伯鲁" and prose("鄭玄") == "郑玄"
    for language in ("zh_Hant", "en"):
        with i18n.speaking(language):
            assert prose("禮記注疏 · 魯鼓") == "禮記注疏 · 魯鼓"
