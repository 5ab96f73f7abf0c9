"""The apparatus of one score as MEI 5: unpitched notes with ○ and □ heads, 半, <app>/<rdg>.

- The header's `<sourceDesc>` has one `<source xml:id="SIGLUM">` per edition (its name, citation
  and identifiers), and one per text known only from an edition's note.
- One percussion staff, one bar (the texts have no metre; `metcon="false"`), one layer. Each
  stroke is a quarter note without stem: ○ (鼙) `head.shape="circle"` in the third space, □ (鼓)
  `head.shape="rectangle"` in the first space, both `head.fill="void"` — the same heights as the
  MusicXML output. Verovio draws `rectangle` as an open square and has no circle head: it draws
  ○ as its ordinary open oval.
- 半 is a double bar line inside the layer (`<barLine form="dbl">`), with a `<dir>半</dir>` above
  it.
- Each place of variation is an `<app>` in the layer, numbered (`n`) and named (`label`) as in
  every view: `<lem source="#…">` the base's reading,
  `<rdg source="#…">` each other reading (an empty `<rdg>` where a witness has nothing). Where
  the place holds 半, a second `<app>` in the bar holds each reading's `<dir>半</dir>`, with the
  same sources, so a renderer that selects one source's readings (Verovio's `appXPathQuery`,
  e.g. `./rdg[contains(concat(' ', @source, ' '), ' #benyi ')]`) shows that edition's
  pattern whole.
- A note an edition prints that names no reading is an `<annot>` on the stroke it follows.
- A text known only from a note is a `<source>` whose annotation names the edition reporting it;
  a reading it reports has that edition in its `resp`, and where a printed edition reads the
  same an `<annot type="agreement">` says so. `<notesStmt>` states the places where the
  printed editions part and the readings reported by notes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from drumscore.apparatus.places import Apparatus, Place, Variant, Witness
from drumscore.apparatus.tei import namespaced, short_names, xml_id
from drumscore.i18n import in_english
from drumscore.model import HALF

MEI = "http://www.music-encoding.org/ns/mei"
ID = "{http://www.w3.org/XML/1998/namespace}id"
LANG = "{http://www.w3.org/XML/1998/namespace}lang"

#: Staff positions (from the bottom line, 0) of each drum on the five-line percussion staff.
LOC = {"○": "1", "□": "5"}  # ○ 鼙 the lower drum, as in every output (README)
HEAD = {"○": "circle", "□": "rectangle"}


def _e(parent: ET.Element | None, tag: str, text: str = "", **attrs: str) -> ET.Element:
    names = {"xml_id": ID, "xml_lang": LANG}
    attrs = {names.get(k, k.replace("_", ".")): v for k, v in attrs.items() if v != ""}
    return namespaced(MEI, parent, tag, text, attrs)


def _source(parent: ET.Element, w: Witness) -> None:
    source = _e(parent, "source", xml_id=xml_id(w.siglum), label=w.siglum)
    bibl = _e(source, "bibl")
    _e(bibl, "title", w.name)
    for tag, short in short_names(w):  # what a Chinese view cites it by (注疏本)
        _e(bibl, "title", short, type="abbreviated", xml_lang=tag)
    if w.reported:
        note = f"known from a note printed in {w.reported_by}: 「{w.quote}」"
        _e(bibl, "annot", note, type="citation")
        return
    p = w.provenance
    if p is None:
        return
    if p.citation:
        _e(bibl, "annot", p.citation, type="citation")
    for kind, value in (("Kanripo", p.kanripo), ("file", p.file), ("lines", p.lines)):
        if value:
            _e(bibl, "identifier", value, type=kind)
    details = [f"commit {p.commit}" if p.commit else "", p.licence]
    if any(details):
        _e(bibl, "annot", "; ".join(d for d in details if d), type="provenance")


def _header(root: ET.Element, a: Apparatus) -> None:
    head = _e(root, "meiHead")
    file_desc = _e(head, "fileDesc")
    title_stmt = _e(file_desc, "titleStmt")
    _e(title_stmt, "title", f"{a.title}: the readings of {len(a.printed)} editions")
    _e(file_desc, "pubStmt")
    _e(_e(file_desc, "notesStmt"), "annot", a.summary, type="summary")
    source_desc = _e(file_desc, "sourceDesc")
    for w in a.witnesses:
        _source(source_desc, w)


class _Ids:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, kind: str) -> str:
        self.n += 1
        return f"{kind}{self.n}"


def _signs(parent: ET.Element, text: str, ids: _Ids) -> list[str]:
    """Add a note or a bar line for each sign of `text`; the ids of the bar lines (半)."""
    halves = []
    for sign in text:
        if sign == HALF:
            halves.append(ids("half"))
            _e(parent, "barLine", xml_id=halves[-1], form="dbl")
        else:
            _e(
                parent,
                "note",
                xml_id=ids("s"),
                dur="4",
                loc=LOC[sign],
                head_shape=HEAD[sign],
                head_fill="void",
                stem_visible="false",
                label=sign,
            )
    return halves


def _sources(v: Variant) -> str:
    return " ".join(f"#{xml_id(s)}" for s in v.sigla)


def _place(
    layer: ET.Element, number: int, place: Place, ids: _Ids
) -> list[tuple[Variant, list[str]]]:
    app = _e(layer, "app", n=str(number), label=place.label)
    found = []
    for v, tag in ((place.lemma, "lem"), *((v, "rdg") for v in place.variants)):
        reading = _e(
            app,
            tag,
            xml_id=ids("r"),
            source=_sources(v),
            resp=" ".join(dict.fromkeys(f"#{xml_id(r.reported_by)}" for r in v.reports)),
            label=v.description,
        )
        found.append((v, _signs(reading, v.text, ids)))
    return found


@in_english
def mei_document(a: Apparatus) -> ET.Element:
    """The MEI document of one score's apparatus, in English."""
    ET.register_namespace("", MEI)
    root = _e(None, "mei", meiversion="5.0")
    _header(root, a)
    score = _e(_e(_e(_e(root, "music"), "body"), "mdiv"), "score")
    staff_grp = _e(_e(score, "scoreDef"), "staffGrp")
    staff_def = _e(staff_grp, "staffDef", n="1", lines="5", clef_shape="perc")
    _e(staff_def, "label", f"{a.state}鼓")
    measure = _e(_e(score, "section"), "measure", n="1", metcon="false", right="end")
    layer = _e(_e(measure, "staff", n="1"), "layer", n="1")
    ids = _Ids()
    places: dict[int, list[tuple[int, Place]]] = {}  # start column → its places, numbered
    for n, p in enumerate(a.places, 1):
        places.setdefault(p.start, []).append((n, p))
    directions: list = []  # (None, bar line id) or (place, [(variant, bar line ids)])
    stroke_ids: dict[int, str] = {}
    k = 0
    while k <= len(a.columns):
        stop = k
        for number, place in places.get(k, ()):
            readings = _place(layer, number, place, ids)
            if any(halves for _, halves in readings):
                directions.append((place, readings))
            stop = max(stop, place.stop)
        if stop > k:
            k = stop
            continue
        if k == len(a.columns):
            break
        sign = a.columns[k].cells[0]
        for half in _signs(layer, sign, ids):
            directions.append((None, half))
        if sign and sign != HALF:
            stroke_ids[k] = f"s{ids.n}"
        k += 1
    for place, where in directions:
        if place is None:
            _e(measure, "dir", HALF, staff="1", place="above", startid=f"#{where}")
            continue
        app = _e(measure, "app")
        for v, halves in where:
            reading = _e(app, "lem" if v is place.lemma else "rdg", source=_sources(v))
            for half in halves:
                _e(reading, "dir", HALF, staff="1", place="above", startid=f"#{half}")
    for note in a.notes:
        target = max((c for c in stroke_ids if c < note.column), default=None)
        _e(
            measure,
            "annot",
            note.text,
            type="printed",
            source=f"#{xml_id(note.siglum)}",
            plist=f"#{stroke_ids[target]}" if target is not None else "",
            label=f"after stroke {note.after}",
        )
    for said in a.agreements:
        _e(measure, "annot", said, type="agreement")
    return root


def mei_bytes(a: Apparatus) -> bytes:
    """The MEI document as UTF-8 bytes with an XML declaration."""
    root = mei_document(a)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
