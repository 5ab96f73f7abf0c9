"""MEI: Verovio loads each score's file and draws every edition's reading, selected through
appXPathQuery, with that edition's strokes and 半 in order."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from apparatus_checks import drawn, eds, notations, render
from hypothesis import given, settings
from hypothesis import strategies as st

from drumscore.apparatus.gather import build, collate
from drumscore.apparatus.mei import mei_bytes
from drumscore.corpus import editions

verovio = pytest.importorskip("verovio")

MEI = "{http://www.music-encoding.org/ns/mei}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return {a.key: mei_bytes(a).decode("utf-8") for a in collate()}


def test_pi_stands_below_gu_on_the_staff(files):
    root = ET.fromstring(files["lu/1"])
    loc = {}
    for note in root.iter(f"{MEI}note"):
        loc.setdefault(note.get("label"), set()).add(int(note.get("loc")))
    ((pi,), (gu,)) = loc["○"], loc["□"]
    assert pi < gu  # 鼙 the lower drum, as in the kit, MIDI and MusicXML


def test_verovio_draws_every_reading_of_every_score_as_its_edition_prints_it(files):
    checked = 0
    for edition in editions():
        for score in edition.scores:
            svg, log = render(files[score.key.split("@")[0]], edition.id)
            assert "Error" not in log
            assert drawn(svg) == score.pattern.notation, (score.key, log)
            assert svg.count(">半<") == (score.pattern.half is not None)
            checked += 1
    assert checked == 4 * len(editions()) == 68


def test_the_reading_selected_differs_where_the_editions_part(files):
    lemma, _ = render(files["lu/2"], "zhushu")
    variant, _ = render(files["lu/2"], "xunzuan")
    assert len(drawn(lemma)) == len(drawn(variant)) + 1


def test_sources_in_the_header_and_heads_in_the_file(files):
    root = ET.fromstring(files["xue/2"])
    sources = {s.get(XML_ID) for s in root.iter(f"{MEI}source")}
    assert sources >= {e.id for e in editions()}
    for ref in root.iter():
        if ref.tag in (f"{MEI}lem", f"{MEI}rdg"):
            assert {s[1:] for s in ref.get("source").split()} <= sources
    shapes = {n.get("label"): n.get("head.shape") for n in root.iter(f"{MEI}note")}
    assert shapes == {"○": "circle", "□": "rectangle"}


@settings(max_examples=15, deadline=None)
@given(st.lists(notations, min_size=2, max_size=4))
def test_verovio_draws_any_witness_as_printed(printed):
    data = mei_bytes(build(eds(*printed), 1, "魯", base="e0")).decode("utf-8")
    for i, notation in enumerate(printed):
        svg, _ = render(data, f"e{i}")
        assert drawn(svg) == notation


def test_the_document_is_the_same_whatever_the_reader_speaks():
    from drumscore import i18n

    (lu2,) = collate(scores=[(2, "魯")])
    with i18n.speaking("en"):
        english = mei_bytes(lu2)
    with i18n.speaking("zh_Hans"):
        assert mei_bytes(lu2) == english
    assert "adds □○".encode() in english
