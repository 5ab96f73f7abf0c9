"""The apparatus as a TEI P5 document, parallel segmentation with the apparatus inline.

The header lists every witness (`<listWit>`: siglum as xml:id, the edition's name, its citation,
Kanripo id, file, lines, commit and licence) and states the method
(`<variantEncoding method="parallel-segmentation" location="internal"/>`). The body has one
`<div type="score">` per score, whose `<ab>` is the base's notation — ○, □ and 半 as printed
characters — with an `<app>` at each place of variation: `<lem wit="…">` the base's reading,
`<rdg wit="…">` each other reading (empty where a witness has nothing). Every witness is in
exactly one `<lem>` or `<rdg>` of every `<app>`, so each witness's pattern can be read back out.
A text known only from an edition's note is a witness too (its `<witness>` says which edition
reports it); where the note gives its reading, a `<witDetail type="reported">` in the `<app>`
quotes the note, with `source` pointing at the edition, and where a printed edition reads the
same, a `<note type="agreement">` says so. A note that names no reading is a
`<note type="printed">` where it stands. Each score's `<div>` opens with a
`<note type="summary">` stating the places where the printed editions part and the readings
reported by notes.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from drumscore import __version__
from drumscore.apparatus.places import Apparatus, Witness
from drumscore.i18n import LANGUAGES, in_english

TEI = "http://www.tei-c.org/ns/1.0"
XML = "http://www.w3.org/XML/1998/namespace"
ID = f"{{{XML}}}id"
LANG = f"{{{XML}}}lang"


def _e(parent: ET.Element | None, tag: str, text: str = "", **attrs: str) -> ET.Element:
    attrs = {("xml:" + k[4:] if k.startswith("xml_") else k): v for k, v in attrs.items()}
    names = {"xml:id": ID, "xml:lang": LANG}
    attrs = {names.get(k, k): v for k, v in attrs.items() if v != ""}
    return namespaced(TEI, parent, tag, text, attrs)


def namespaced(
    namespace: str, parent: ET.Element | None, tag: str, text: str, attrs: dict[str, str]
) -> ET.Element:
    """A namespaced element (under `parent`, if any) with its attributes and text."""
    name = f"{{{namespace}}}{tag}"
    made = ET.Element(name, attrs) if parent is None else ET.SubElement(parent, name, attrs)
    if text:
        made.text = text
    return made


def xml_id(siglum: str) -> str:
    """A siglum as an xml:id (an NCName): characters outside it become '-'."""
    out = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in siglum)
    return out if out and (out[0].isalpha() or out[0] == "_") else f"w-{out}"


def _refs(sigla: Sequence[str]) -> str:
    return " ".join(f"#{xml_id(s)}" for s in sigla)


def short_names(w: Witness) -> list[tuple[str, str]]:
    """The witness's short names by language tag (zh-Hant, zh-Hans), as its edition gives them."""
    return [(LANGUAGES[c][0], text) for c, text in w.short.texts if c in LANGUAGES]


def _witness(parent: ET.Element, w: Witness) -> None:
    element = _e(parent, "witness", xml_id=xml_id(w.siglum), n=w.siglum)
    if w.reported:
        element.text = f"{w.name}, known from the notes printed in "
        ref = _e(element, "ref", w.reported_by, target=f"#{xml_id(w.reported_by)}")
        ref.tail = f": 「{w.quote}」"
        return
    title = _e(element, "title", w.name)
    title.tail = " "
    for tag, short in short_names(w):  # what a Chinese view cites it by (注疏本)
        _e(element, "abbr", short, type="short", xml_lang=tag).tail = " "
    p = w.provenance
    if p is None:
        return
    bibl = _e(element, "bibl", p.citation)
    if p.kanripo:
        _e(bibl, "idno", p.kanripo, type="Kanripo")
    if p.file:
        _e(bibl, "idno", p.file, type="file")
    if p.lines:
        _e(bibl, "citedRange", p.lines, unit="line")
    details = [f"commit {p.commit}" if p.commit else "", p.licence]
    if any(details):
        _e(element, "note", "; ".join(d for d in details if d), type="provenance")


def _header(root: ET.Element, apparatuses: Sequence[Apparatus]) -> None:
    header = _e(root, "teiHeader")
    file_desc = _e(header, "fileDesc")
    title_stmt = _e(file_desc, "titleStmt")
    scores = ", ".join(a.title for a in apparatuses)
    _e(title_stmt, "title", f"禮記 投壺, the drum scores: a critical apparatus ({scores})")
    publication = _e(file_desc, "publicationStmt")
    _e(publication, "p", f"Written by drumscore {__version__} from the editions it collates.")
    source_desc = _e(file_desc, "sourceDesc")
    list_wit = _e(source_desc, "listWit")
    seen: set[str] = set()
    for a in apparatuses:
        for w in a.witnesses:
            if w.siglum not in seen:
                seen.add(w.siglum)
                _witness(list_wit, w)
    encoding = _e(header, "encodingDesc")
    _e(encoding, "variantEncoding", method="parallel-segmentation", location="internal")
    _e(
        _e(encoding, "editorialDecl"),
        "p",
        "○ is a stroke on 鼙, □ a stroke on 鼓, 半 the division of the pattern. The lemma is the "
        f"reading of {apparatuses[0].base.name} ({apparatuses[0].base.siglum}). A stroke missing "
        "from, or added to, a run of equal strokes is placed at the first position of the run.",
    )


def _text(parent: ET.Element, last: ET.Element | None, text: str) -> ET.Element | None:
    """Append text to `parent` after its child `last` (or as its text)."""
    if not text:
        return last
    if last is None:
        parent.text = (parent.text or "") + text
    else:
        last.tail = (last.tail or "") + text
    return last


def _score(body: ET.Element, a: Apparatus) -> None:
    div = _e(body, "div", type="score", n=a.key)
    _e(div, "head", f"{a.title} (base: {a.base.name})")
    _e(div, "note", a.summary, type="summary")
    ab = _e(div, "ab", type="pattern", n=a.key)
    notes_at: dict[int, list] = {}
    for note in a.notes:
        notes_at.setdefault(note.column, []).append(note)
    places: dict[int, list] = {}  # start column → its places (one with no columns comes first)
    for n, p in enumerate(a.places, 1):
        places.setdefault(p.start, []).append((n, p))
    last: ET.Element | None = None
    k = 0

    def put_notes(column: int) -> None:
        nonlocal last
        for note in notes_at.pop(column, ()):
            last = _e(
                ab,
                "note",
                note.text,
                type="printed",
                source=f"#{xml_id(note.siglum)}",
                n=f"after stroke {note.after}",
            )

    while k <= len(a.columns):
        put_notes(k)
        stop = k
        for number, place in places.get(k, ()):
            app = _e(ab, "app", n=str(number), loc=place.label)
            _e(app, "lem", place.lemma.text, wit=_refs(place.lemma.sigla))
            for v in place.variants:
                _e(app, "rdg", v.text, wit=_refs(v.sigla))
            for v in place.reported:
                for r in v.reports:
                    _e(
                        app,
                        "witDetail",
                        r.quote,
                        wit=_refs([r.siglum]),
                        source=f"#{xml_id(r.reported_by)}",
                        type="reported",
                    )
                if v.printed:
                    said = " = ".join([*(str(r) for r in v.reports), " ".join(v.printed)])
                    _e(app, "note", said, type="agreement")
            described = [v.description for v in place.variants if v.description]
            if described:
                _e(app, "note", "; ".join(dict.fromkeys(described)), type="variation")
            last = app
            stop = max(stop, place.stop)
        if stop > k:
            for skipped in range(k + 1, stop):
                put_notes(skipped)
            k = stop
            continue
        if k < len(a.columns):
            last = _text(ab, last, a.columns[k].cells[0])
        k += 1


@in_english
def tei_document(apparatuses: Sequence[Apparatus]) -> ET.ElementTree:
    """The TEI document for one or more scores (their witnesses listed once), in English."""
    ET.register_namespace("", TEI)
    root = _e(None, "TEI")
    _header(root, apparatuses)
    body = _e(_e(root, "text"), "body")
    for a in apparatuses:
        _score(body, a)
    header = root.find(f"{{{TEI}}}teiHeader")
    assert header is not None
    ET.indent(header, space="  ", level=1)
    return ET.ElementTree(root)


def tei_bytes(apparatuses: Sequence[Apparatus]) -> bytes:
    """The TEI document as UTF-8 bytes with an XML declaration."""
    tree = tei_document(apparatuses)
    root = tree.getroot()
    assert root is not None
    return ET.tostring(root, encoding="utf-8", xml_declaration=True) + b"\n"
