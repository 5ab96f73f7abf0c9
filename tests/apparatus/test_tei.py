"""TEI: well-formed (xmllint), witnesses and method in the header, every witness read back."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET

import pytest
from apparatus_checks import NS, eds, notations, read_witness
from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore.apparatus.gather import build, collate
from drumscore.apparatus.tei import tei_bytes
from drumscore.corpus import editions

XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def document() -> bytes:
    return tei_bytes(collate())


@pytest.mark.requires("xmllint")
def test_xmllint_finds_it_well_formed(document, tmp_path):
    path = tmp_path / "apparatus.xml"
    path.write_bytes(document)
    result = subprocess.run(["xmllint", "--noout", str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_every_witness_reads_back_exactly_as_its_edition_prints_it(document):
    root = ET.fromstring(document)
    abs_ = {ab.get("n"): ab for ab in root.iterfind(".//t:body//t:ab", NS)}
    assert set(abs_) == {"lu/1", "xue/1", "lu/2", "xue/2"}
    checked = 0
    for edition in editions():
        for score in edition.scores:
            key = score.key.split("@")[0]
            assert read_witness(abs_[key], edition.id) == score.pattern.notation
            checked += 1
    assert checked == 4 * len(editions()) == 68


def test_the_header_lists_each_edition_with_source_and_provenance(document):
    root = ET.fromstring(document)
    method = root.find(".//t:encodingDesc/t:variantEncoding", NS)
    assert method.get("method") == "parallel-segmentation" and method.get("location") == "internal"
    witnesses = {w.get(XML_ID): w for w in root.iterfind(".//t:sourceDesc/t:listWit/t:witness", NS)}
    for edition in editions():
        w = witnesses[edition.id]
        assert w.findtext("t:title", namespaces=NS) == edition.name
        assert edition.provenance.citation in "".join(w.find("t:bibl", NS).itertext())
        if edition.provenance.kanripo:
            ids = [i.text for i in w.iterfind("t:bibl/t:idno", NS)]
            assert edition.provenance.kanripo in ids
        if edition.provenance.commit:
            assert edition.provenance.commit in w.findtext("t:note", namespaces=NS)
    for ref in root.iterfind(".//t:app/*[@wit]", NS):
        assert all(s.removeprefix("#") in witnesses for s in ref.get("wit").split())


def test_the_places_are_apps_and_the_base_is_the_lemma(document):
    root = ET.fromstring(document)
    ab = next(a for a in root.iterfind(".//t:ab", NS) if a.get("n") == "lu/2")
    # the ○ that five editions lack after 半 (禮記訓纂, 衛湜, 樂書 卷三十五, 日講, 纂圖互註)
    (app,) = [
        app
        for app in ab.iterfind("t:app", NS)
        if app.find("t:witDetail", NS) is None
        and any("#xunzuan" in (r.get("wit") or "").split() for r in app.iterfind("t:rdg", NS))
    ]
    lem = app.find("t:lem", NS)
    assert lem.text == "○" and "#zhushu" in lem.get("wit").split()
    (rdg,) = [r for r in app.iterfind("t:rdg", NS) if "#xunzuan" in r.get("wit").split()]
    lacking = {"#xunzuan", "#weishi", "#yueshu", "#rijiang", "#zuantu"}
    assert (rdg.text or "") == "" and lacking <= set(rdg.get("wit").split()) <= lacking | {
        "#tongjie"
    }


@settings(max_examples=40, deadline=None)
@given(st.lists(notations, min_size=2, max_size=5))
def test_any_witnesses_read_back_out_of_the_tei(printed):
    a = build(eds(*printed), 1, "魯", base="e0")
    (ab,) = ET.fromstring(tei_bytes([a])).iterfind(".//t:body//t:ab", NS)
    for i, notation in enumerate(printed):
        assert read_witness(ab, f"e{i}") == notation


def test_the_document_is_the_same_whatever_the_reader_speaks():
    from drumscore import i18n

    apparatuses = collate(scores=[(1, "魯"), (2, "魯")])
    with i18n.speaking("en"):
        english = tei_bytes(apparatuses)
    with i18n.speaking("zh_Hant"):
        assert tei_bytes(apparatuses) == english
    assert b"places where the printed editions part" in english
