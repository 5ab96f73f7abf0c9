"""Reading the apparatus back: witnesses out of the TEI, what Verovio drew from the MEI."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import strategies as st

from drumscore.corpus import edition_from_dict

NS = {"t": "http://www.tei-c.org/ns/1.0"}
SVG = "{http://www.w3.org/2000/svg}"
HREF = "{http://www.w3.org/1999/xlink}href"
#: SMuFL noteheads Verovio uses: the square (open, filled) and the ordinary oval (open, filled).
SQUARE, OVAL = ("E0B8", "E0B9"), ("E0A3", "E0A4")


def read_witness(ab: ET.Element, siglum: str, lemma_if_absent: bool = False) -> str:
    """The text outside the apps, and in each app the one lem or rdg that lists the witness (or,
    for a text known only from some notes, the lem of an app that does not list it)."""
    out = [ab.text or ""]
    for child in ab:
        if child.tag == f"{{{NS['t']}}}app":
            readings = [
                r
                for r in child
                if r.tag in (f"{{{NS['t']}}}lem", f"{{{NS['t']}}}rdg")
                and f"#{siglum}" in r.get("wit", "").split()
            ]
            if not readings and lemma_if_absent:
                readings = [child.find("t:lem", NS)]
            assert len(readings) == 1, (siglum, child.get("n"))
            out.append(readings[0].text or "")
        else:
            assert child.tag == f"{{{NS['t']}}}note"
        out.append(child.tail or "")
    return "".join(out)


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
    """Verovio's SVG and log for one witness's readings, selected through appXPathQuery."""
    import verovio

    tk = verovio.toolkit()
    query = f"./*[contains(concat(' ', @source, ' '), ' #{siglum} ')]"
    tk.setOptions({"appXPathQuery": [query], "breaks": "none"})
    assert tk.loadData(data), tk.getLog()
    return tk.renderToSVG(1), tk.getLog()


def eds(*patterns: str):
    """Editions e0, e1, … each printing one 魯 pattern of figure 1."""
    return [
        edition_from_dict(
            {"id": f"e{i}", "name": f"E{i}", "score": [{"figure": 1, "state": "魯", "printed": p}]}
        )
        for i, p in enumerate(patterns)
    ]


#: Notation with or without 半, at least one stroke after it.
notations = st.builds(
    lambda head, tail, half: head + ("半" if half else "") + tail,
    st.text(alphabet="○□", max_size=10),
    st.text(alphabet="○□", min_size=1, max_size=10),
    st.booleans(),
)
