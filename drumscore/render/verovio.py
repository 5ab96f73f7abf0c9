"""SVG, PNG and PDF in-process with Verovio (the `notation` extra); no MuseScore needed.

The MusicXML document is read by Verovio and taken to MEI, where the 鼓 staff's noteheads are
given the square shape (`head.shape="rectangle"`, SMuFL noteheadSquareWhite). Verovio has no round
notehead (every other shape falls back to its oval head), so after rendering the SVG the 鼙
staff's heads are pointed at a round head of drumscore's own, drawn as a ring the size of a
notehead. Text is set in a CJK font (Noto Serif CJK, Debian `fonts-noto-cjk`), and the metronome
mark's note is the text character ♩, so PNG and PDF (through cairosvg) need no music font.
verovio and cairosvg are imported only inside these functions.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from drumscore.conductor.timeline import Timeline
from drumscore.errors import (
    EngraveError,
    MissingDependencyError,
    OptionError,
    install_line,
    require,
)
from drumscore.i18n import _, language, list_text
from drumscore.model import Drum
from drumscore.render.midimap import MidiMap
from drumscore.render.musescore import Engraving
from drumscore.render.musicxml import (
    NOTEHEADS,
    VOICES,
    escape_text,
    musicxml_bytes,
    unescape_text,
)

if TYPE_CHECKING:
    import verovio

KINDS = ("svg", "png", "pdf")
MEI = "http://www.music-encoding.org/ns/mei"
SVG = "http://www.w3.org/2000/svg"
XLINK = "http://www.w3.org/1999/xlink"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
#: The text font named in the SVG, for each language: the face of the reader's script first (SC
#: for 简体; TC for 繁體, and for English, whose Chinese is the sources' names); any CJK font will
#: do where it is missing.
TEXT_FONTS = {
    "zh_Hans": "Noto Serif CJK SC, Noto Serif CJK TC, Noto Sans CJK SC, serif",
    "zh_Hant": "Noto Serif CJK TC, Noto Serif CJK SC, Noto Sans CJK TC, serif",
    "en": "Noto Serif CJK TC, Noto Serif CJK SC, Noto Sans CJK TC, serif",
}
#: The MEI @type given to 鼙 notes; Verovio writes it into the SVG class of the note.
ROUND_TYPE = "drumscore-round"
ROUND_ID = "drumscore-round-head"
SQUARE_GLYPH = "E0B8"  # SMuFL noteheadSquareWhite
#: A ring of notehead height in Verovio's glyph units (a staff space is 250), centred like the
#: oval head E0A3 that it replaces.
ROUND_PATH = (
    "M22 0a135 135 0 1 0 270 0a135 135 0 1 0 -270 0zM60 0a97 97 0 1 0 194 0a97 97 0 1 0 -194 0z"
)
#: Verovio's page (tenths of a millimetre at scale 100): A4 width; SVG and PNG are cut to the music.
PAGE_WIDTH, PAGE_HEIGHT = 2100, 2970
TALL_PAGE = 60000
PX_PER_INCH = 254  # 1 px of Verovio's SVG is a tenth of a millimetre
#: Page margins in Verovio's units: 1.2 cm, and room for the staff labels ("鼙 ○", "鼓 □").
MARGIN, LABEL_WIDTH = 120, 60
#: The page head's font sizes, in percent of Verovio's text at scale 100: the title, the other
#: lines, and the thin blank line between two lines that keeps one's descenders off the next.
TITLE_SIZE, LINE_SIZE, HEAD_GAP = 110, 80, 50
#: SVG and PNG are looked at on a screen at their own size: their staff is drawn this much
#: larger (percent) than on the printed page (PDF: a staff space of 1.8 mm, the usual size), on
#: the same page width, the page head kept at its size, the two staves of a system closer
#: (in staff spaces, Verovio's default 12). A notehead of the PNG at the default 150 dpi is
#: some 23 pixels high, not 11.
SCREEN_SCALE = 200
SCREEN_STAFF_SPACING = 8
OPTIONS = {
    "xmlIdSeed": 1,  # the same ids, so the same bytes, every time
    "footer": "none",
    "header": "auto",
    "breaks": "auto",
    "pageWidth": PAGE_WIDTH,
    "scale": 100,
    "svgRemoveXlink": False,
    # print margins of at least 1 cm around the ink; the staff labels stand in the left margin
    "pageMarginTop": MARGIN,
    "pageMarginBottom": MARGIN,
    "pageMarginRight": MARGIN,
    "pageMarginLeft": MARGIN + LABEL_WIDTH,
}
#: The ♩ of the metronome mark: the size of the text beside it.
METRONOME_NOTE_SIZE = "405px"


def _serialise(root: ET.Element, namespace: str) -> str:
    """The document with `namespace` as its default (no ns0: prefixes), xlink as xlink (an MEI
    document's; an SVG's links are plain href)."""
    ET.register_namespace("xlink", XLINK)
    ET.register_namespace("", namespace)  # the prefix map is global: claim "" for this one
    return ET.tostring(root, encoding="unicode")


def check_installed(kind: str) -> None:
    """A MissingDependencyError now, before any work, if Verovio (or cairosvg) is missing."""
    import importlib.util

    needed = ["verovio"] + (["cairosvg"] if kind != "svg" else [])
    missing = [name for name in needed if importlib.util.find_spec(name) is None]
    if missing:
        message = (
            _("{kind} engraved by Verovio needs {package}, not installed")
            if len(missing) == 1
            else _("{kind} engraved by Verovio needs {package} and {other}, not installed")
        )
        raise MissingDependencyError(
            message.format(kind=kind.upper(), package=missing[0], other=missing[-1]),
            _(
                "{install}; or engrave with MuseScore 3 where it is installed (engraver musescore)"
            ).format(install=install_line("notation", "fonts-noto-cjk")),
        )


def _toolkit() -> verovio.toolkit:
    verovio = require("verovio", extra="notation", needed=_("engraving needs Verovio"))
    verovio.enableLog(verovio.LOG_OFF)
    return verovio.toolkit()


def to_mei(musicxml: bytes, toolkit: verovio.toolkit | None = None, scale: int = 100) -> str:
    """The MEI document Verovio reads from drumscore's MusicXML, with the two drums' noteheads,
    its page head sized to stay as large on a page drawn at `scale` percent."""
    toolkit = toolkit or _toolkit()
    toolkit.setOptions(OPTIONS)
    text = musicxml.decode("utf-8")
    if not toolkit.loadData(text):
        raise EngraveError(_("Verovio could not read the MusicXML document"))
    return _shape_heads(toolkit.getMEI(), head_signs(text), scale)


def staff_drums(root: ET.Element) -> dict[str, Drum]:
    """MEI staff number → drum, from the staff ids that the MusicXML part ids become."""
    by_part = {VOICES[d].part_id: d for d in Drum}
    found: dict[str, Drum] = {}
    for staff_def in root.iter(f"{{{MEI}}}staffDef"):
        drum = by_part.get(staff_def.get(XML_ID, ""))
        if drum is not None:
            found[staff_def.get("n", "")] = drum
    return found


def head_signs(musicxml: str) -> dict[Drum, str]:
    """Each drum's sign as its notes are headed in drumscore's MusicXML (the one sign that
    strikes it in the document's reading); a drum with no stroke is left out. Verovio keeps
    neither head, so the MEI's are set from these."""
    signs = {head: sign for sign, head in NOTEHEADS.items()}
    found: dict[Drum, str] = {}
    for drum in Drum:
        at = musicxml.find(f'<part id="{VOICES[drum].part_id}"')
        head = _NOTEHEAD.search(musicxml, at) if at >= 0 else None
        if head is not None and head.group(1) in signs:
            found[drum] = signs[head.group(1)]
    return found


#: A notehead of drumscore's MusicXML and its shape.
_NOTEHEAD = re.compile(r"<notehead\b[^>]*>([^<]*)</notehead>")


def _shape_heads(mei: str, signs: dict[Drum, str], scale: int = 100) -> str:
    root = ET.fromstring(mei)

    def size(percent: int) -> str:  # the same size on the page whatever the scale
        return f"{round(percent * 100 / scale)}%"

    drums = staff_drums(root)
    if set(drums.values()) != set(Drum):
        raise EngraveError(_("Verovio's reading of the MusicXML lacks the 鼙 and 鼓 staves"))
    for head in root.iter(f"{{{MEI}}}pgHead"):
        lines = head.findall(f"{{{MEI}}}rend")
        for number, rend in enumerate(lines):
            rend.set("fontsize", size(TITLE_SIZE if number == 0 else LINE_SIZE))
        for line in lines[1:]:  # a thin blank line keeps each line's descenders off the next
            gap = ET.Element(f"{{{MEI}}}rend", {**line.attrib, "fontsize": size(HEAD_GAP)})
            gap.attrib.pop(XML_ID, None)
            gap.text = "\u00a0"
            head.insert(list(head).index(line), gap)
    for staff in root.iter(f"{{{MEI}}}staff"):
        drum = drums.get(staff.get("n", ""))
        sign = signs.get(drum) if drum is not None else None
        for note in staff.iter(f"{{{MEI}}}note"):
            if sign == Drum.GU.symbol:
                note.set("head.shape", "rectangle")
                note.set("head.fill", "void")
            elif sign == Drum.PI.symbol:
                note.set("type", ROUND_TYPE)
    return _serialise(root, MEI)


def svg_pages(
    musicxml: bytes,
    *,
    page_height: int = TALL_PAGE,
    fit: bool = True,
    page_width: int = PAGE_WIDTH,
    head: bool = True,
    scale: int = 100,
) -> list[str]:
    """The SVG pages: one tall page cut to the music (`fit`), or pages of `page_height`;
    `page_width` narrower than A4 for lines a phone shows (a bar is set to the width), and
    without the page's `head` (title and citation) where the page around it says them. At
    `scale` percent the music is drawn that much larger on the same page (fewer strokes a
    line), its margins and page head as they were."""
    layouts = ((page_width, head),)
    return svg_layouts(musicxml, layouts, page_height=page_height, fit=fit, scale=scale)[0]


def svg_layouts(
    musicxml: bytes,
    layouts: Sequence[tuple[int, bool]],
    *,
    page_height: int = TALL_PAGE,
    fit: bool = True,
    scale: int = 100,
) -> list[list[str]]:
    """The SVG pages of each layout, a (page width, head) pair as svg_pages takes them: the
    document read and its noteheads shaped once, then laid out again for each. A layout after
    the first differs from svg_pages' alone only in the ids Verovio gives its systems."""
    toolkit = _toolkit()  # one toolkit: making one loads Verovio's fonts
    mei = to_mei(musicxml, toolkit, scale)
    k = 100 / scale  # Verovio lays the page out in units drawn scale/100 as large
    margin = round(MARGIN * k)
    engraved = []
    for number, (page_width, head) in enumerate(layouts):
        size = {
            "pageHeight": round(page_height * k),
            "pageWidth": round(page_width * k),
            "adjustPageHeight": fit,
            "scale": scale,
            "pageMarginTop": margin,
            "pageMarginBottom": margin,
            "pageMarginRight": margin,
            "pageMarginLeft": margin + LABEL_WIDTH,  # the labels are drawn at scale too
        }
        if scale != 100:
            size["spacingStaff"] = SCREEN_STAFF_SPACING
        heading = {"header": "auto" if head else "none"}
        toolkit.setOptions({**OPTIONS, **size, **heading, "svgViewBox": True})
        if number == 0 and not toolkit.loadData(mei):
            raise EngraveError(_("Verovio could not read its own MEI"))
        if number:
            toolkit.redoLayout()
        pages = range(1, toolkit.getPageCount() + 1)
        engraved.append([_finish_svg(toolkit.renderToSVG(n)) for n in pages])
    return engraved


#: A line of text in an engraving's head, as _finish_svg writes it: the size, then the words.
_HEAD_TEXT = re.compile(r'(<tspan font-size="[\d.]+px">)([^<]*)(</tspan>)')
_HEAD_STARTS = 'class="pgHead">'
#: The text font of an engraving, as _finish_svg names it on every element that sets text.
_FONT = re.compile(r'font-family="[^"]*"')


def head_lines(svg: str) -> list[str]:
    """The lines of text in the head of an engraving of svg_pages (none without a head), the
    blank lines between them left out."""
    start = svg.find(_HEAD_STARTS)
    if start < 0:
        return []
    head = svg[start : svg.index("</g>", start)]
    return [unescape_text(m.group(2)) for m in _HEAD_TEXT.finditer(head) if m.group(2) != "\u00a0"]


def retitle(svg: str, lines: Sequence[str]) -> str | None:
    """The engraving `svg` (a page of svg_pages with its head) with the head's lines of text
    replaced by `lines`, in order, and its text font the current language's (TEXT_FONTS), all
    else as it was: the music engraved once serves the page in each language, its title and
    citation in the page's words. None where the head has not as many lines (Verovio set one
    in parts): engrave that page itself."""
    start = svg.find(_HEAD_STARTS)
    if start < 0 or len(head_lines(svg)) != len(lines):
        return None
    end = svg.index("</g>", start)
    words = iter(lines)

    def put(match: re.Match[str]) -> str:
        if match.group(2) == "\u00a0":
            return match.group(0)
        return match.group(1) + escape_text(next(words)) + match.group(3)

    return in_text_font(svg[:start] + _HEAD_TEXT.sub(put, svg[start:end]) + svg[end:])


def in_text_font(svg: str) -> str:
    """An engraving of svg_pages with its text in the current language's font (TEXT_FONTS), as
    its language's own engraving has it: the font is named after the layout, which it leaves
    as it was."""
    return _FONT.sub(f'font-family="{TEXT_FONTS[language()]}"', svg)


def _finish_svg(svg: str) -> str:
    """Round heads for 鼙, text in a CJK font, the metronome's note as text."""
    root = ET.fromstring(svg)
    defs = root.find(f"{{{SVG}}}defs")
    if defs is None:
        defs = ET.SubElement(root, f"{{{SVG}}}defs")
    round_head = ET.SubElement(defs, f"{{{SVG}}}g", id=ROUND_ID)
    ET.SubElement(round_head, f"{{{SVG}}}path", {"d": ROUND_PATH, "fill-rule": "evenodd"})
    href = f"{{{XLINK}}}href"
    for group in root.iter(f"{{{SVG}}}g"):
        classes = group.get("class", "").split()
        if "note" in classes and ROUND_TYPE in classes:
            for use in group.iter(f"{{{SVG}}}use"):
                use.set(href, f"#{ROUND_ID}")
    for element in root.iter():
        family = element.get("font-family")
        if family is None:
            continue
        if family == "Leipzig":  # a SMuFL note in running text: the metronome mark
            element.text = re.sub(r"[\ue000-\uf8ff]+", "♩", element.text or "")
            element.set("font-size", METRONOME_NOTE_SIZE)
        element.set("font-family", TEXT_FONTS[language()])
    for style in root.iter(f"{{{SVG}}}style"):
        # the embedded music font serves only the metronome's note, now text
        style.text = re.sub(r"@font-face\s*\{[^}]*\}", "", style.text or "")
    for element in root.iter():  # SVG 2's plain href: no xlink: prefix, no namespace but SVG's
        link = element.attrib.pop(href, None)
        if link is not None:
            element.set("href", link)
        element.attrib.pop(XML_LANG, None)  # Verovio's "it" of the tempo and 半: the page's own
    return _serialise(root, SVG)


def engrave(musicxml: bytes, kind: str, *, dpi: int = 150) -> Engraving:
    """Engrave to 'svg', 'png' (cut to the music, the staff at SCREEN_SCALE) or 'pdf' (A4
    pages at the printed staff's size)."""
    if kind not in KINDS:
        raise OptionError(
            _("kind {kind!r} cannot be engraved; Verovio writes {formats}").format(
                kind=kind, formats=list_text(KINDS)
            ),
            option="kind",
        )
    if kind == "svg":
        pages = svg_pages(musicxml, scale=SCREEN_SCALE)
        return Engraving(tuple(p.encode("utf-8") for p in pages), "")
    cairosvg = require(
        "cairosvg",
        extra="notation",
        needed=_("{kind} needs cairosvg").format(kind=kind.upper()),
    )
    if kind == "png":
        pages = svg_pages(musicxml, scale=SCREEN_SCALE)
        return Engraving(tuple(_png(cairosvg, p, dpi) for p in pages), "")
    pages = svg_pages(musicxml, page_height=PAGE_HEIGHT, fit=False)
    return Engraving((_pdf(pages),), "")


def _size(svg: str) -> tuple[float, float]:
    box = ET.fromstring(svg).get("viewBox", "").split()
    if len(box) != 4:
        raise EngraveError(_("Verovio's SVG has no page size"))
    return float(box[2]), float(box[3])


def _png(cairosvg: ModuleType, svg: str, dpi: int) -> bytes:
    width, height = _size(svg)
    scale = dpi / PX_PER_INCH
    return cairosvg.svg2png(
        bytestring=svg.encode("utf-8"),
        output_width=round(width * scale),
        output_height=round(height * scale),
        background_color="white",
    )


def _pdf(pages: list[str]) -> bytes:
    """One A4 PDF page per SVG page, drawn by cairosvg onto one shared cairo PDF surface."""
    import io

    import cairocffi
    import cairosvg.surface

    buffer = io.BytesIO()
    width, height = _size(pages[0])
    points = 72 / PX_PER_INCH
    shared = cairocffi.PDFSurface(buffer, width * points, height * points)
    # no creation date, so the same render gives the same bytes
    shared.set_metadata(cairocffi.PDF_METADATA_CREATE_DATE, "")

    class Page(cairosvg.surface.PDFSurface):
        def _create_surface(
            self, width: float, height: float
        ) -> tuple[cairocffi.PDFSurface, float, float]:
            shared.set_size(width, height)
            return shared, width, height

    for svg in pages:
        Page(cairosvg.parser.Tree(bytestring=svg.encode("utf-8")), None, PX_PER_INCH)
        shared.show_page()
    shared.finish()
    return buffer.getvalue()


def svg_bytes(
    timeline: Timeline, midimap: MidiMap | None = None, lyrics: str | None = None
) -> bytes:
    """The timeline engraved as one SVG page (the first, if the music needs more)."""
    return svg_pages(musicxml_bytes(timeline, midimap, lyrics))[0].encode("utf-8")
