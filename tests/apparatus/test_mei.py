"""MEI: Verovio loads each score's file and draws every edition's reading, selected through
appXPathQuery, with that edition's strokes and 半 in order."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from drumscore.apparatus.align import build_all
from drumscore.apparatus.mei import mei_bytes
from drumscore.corpus import editions

verovio = pytest.importorskip("verovio")

SVG = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"
MEI = "{http://www.music-encoding.org/ns/mei}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
#: SMuFL noteheads Verovio uses: the square (open, filled) and the ordinary oval (open, filled).
SQUARE, OVAL = ("E0B8", "E0B9"), ("E0A3", "E0A4")


def drawn(svg: str) -> str:
    """What Verovio drew in the layer, in order: ○ for an oval head, □ for a square, 半 for a
    bar line inside the layer."""
    out = []
    for layer in ET.fromstring(svg).iter(f"{SVG}g"):
        if layer.get("class") != "layer":
            continue
        for g in layer.iter(f"{SVG}g"):
            kind = g.get("class", "").split()
            if "note" in kind:
                glyphs = {u.get(HREF, "")[1:5] for u in g.iter(f"{SVG}use")}
                assert len(glyphs & {*SQUARE, *OVAL}) == 1, glyphs
                out.append("□" if glyphs & set(SQUARE) else "○")
            elif "barLine" in kind:
                out.append("半")
    return "".join(out)


def render(data: str, siglum: str) -> tuple[str, str]:
    tk = verovio.toolkit()
    query = f"./*[contains(concat(' ', @source, ' '), ' #{siglum} ')]"
    tk.setOptions({"appXPathQuery": [query], "breaks": "none"})
    assert tk.loadData(data), tk.getLog()
    return tk.renderToSVG(1), tk.getLog()


@pytest.fixture(scope="module")
def files() -> dict[str, str]:
    return {a.key: mei_bytes(a).decode("utf-8") for a in build_all()}


def test_verovio_draws_every_reading_of_every_score_as_its_edition_prints_it(files):
    checked = 0
    for edition in editions():
        for score in edition.scores:
            svg, log = render(files[score.key.split("@")[0]], edition.id)
            assert "Error" not in log
            assert drawn(svg) == score.pattern.notation, (score.key, log)
            assert svg.count(">半<") == (score.pattern.half is not None)
            checked += 1
    assert checked == 44


def test_the_reading_selected_differs_where_the_editions_part(files):
    lemma, _ = render(files["lu/2"], "zhushu")
    variant, _ = render(files["lu/2"], "xunzuan")
    assert len(drawn(lemma)) == len(drawn(variant)) + 1


def test_sources_in_the_header_and_heads_in_the_file(files):
    root = ET.fromstring(files["xue/2"])
    sources = {s.get(XML_ID) for s in root.iter(f"{MEI}source")}
    assert sources == {e.id for e in editions()}
    for ref in root.iter():
        if ref.tag in (f"{MEI}lem", f"{MEI}rdg"):
            assert {s[1:] for s in ref.get("source").split()} <= sources
    shapes = {n.get("label"): n.get("head.shape") for n in root.iter(f"{MEI}note")}
    assert shapes == {"○": "circle", "□": "rectangle"}
