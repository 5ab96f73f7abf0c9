"""Staff notation on the site: the engravings Verovio makes of a score's MusicXML (the page's
and a phone's), what the page reads of them (their width in staff spaces, where the first head
stands), and the words of the page's language set in their heads."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from xml.etree import ElementTree as ET

from drumscore.errors import DrumscoreError

SVG_NS = "http://www.w3.org/2000/svg"

#: The words a staff's head is engraved with, in each of its lines, for the page to set its
#: own (Verovio's lines are as high as they would be for a title and a citation).
STAFF_HEAD = "投壺 · figure (Ag)"
#: A phone's engraving: the page's margins and labels, and so much page a stroke (Verovio's
#: units), so a line, set to the page's width, shows 8 strokes or more in a phone's width at a
#: staff space to the notation's glyph.
NARROW_BASE, NARROW_STROKE = 360, 28


def staff_svgs(musicxml: bytes, strokes: int) -> tuple[bytes | None, bytes | None]:
    """Staff notation as SVG files, engraved in-process by Verovio where it is installed: the
    page's, and a phone's, where `strokes` are the most on one line: a page as wide as they
    need at a phone's spacing (NARROW_STROKE each), without the title and citation the page
    shows. The document is read once, and laid out for each."""
    from drumscore.render.verovio import PAGE_WIDTH, svg_layouts

    width = min(NARROW_BASE + NARROW_STROKE * strokes, PAGE_WIDTH)
    try:
        wide, narrow = svg_layouts(musicxml, ((PAGE_WIDTH, True), (width, False)))
    except (ImportError, DrumscoreError):  # no Verovio: the page goes without staff notation
        return None, None
    return (wide[0].encode("utf-8") if wide else None), (
        narrow[0].encode("utf-8") if narrow else None
    )


@dataclass(frozen=True, slots=True)
class Staff:
    """What a page's staff needs of an engraving: the page's and the phone's, each's key, and
    what the page says of them (read once: the same in every language)."""

    key: str
    phone_key: str
    svg: bytes
    phone: bytes | None
    spaces: float | None
    phone_spaces: float | None
    phone_first: float | None


def staff_spaces(svg: bytes) -> float | None:
    """The width of an engraving in staff spaces (SMuFL: a glyph's em is four staff spaces), read
    from Verovio's SVG: the page's width over the size of a notehead's glyph. The page shows it
    at a staff space per em of its box, so on a phone the heads are as large as the glyphs."""
    root = ET.fromstring(svg)
    outer = (root.get("viewBox") or "").split()
    inner, head = _music_and_first_head(root)
    use = head.find(f"{{{SVG_NS}}}use") if head is not None else None
    if len(outer) != 4 or inner is None or use is None:
        return None
    scale = re.search(r"scale\(([\d.]+)", use.get("transform", ""))
    inner_width = float((inner.get("viewBox") or "0 0 0 0").split()[2])
    if scale is None or not inner_width:
        return None
    space = 1000 * float(scale.group(1)) / 4 * float(outer[2]) / inner_width
    return math.ceil(10 * float(outer[2]) / space) / 10  # up: a head never below a glyph


def _music_and_first_head(root: ET.Element) -> tuple[ET.Element | None, ET.Element | None]:
    """Verovio's SVG: the inner svg of the music (its definition scale) and the first notehead."""
    inner = next(
        (e for e in root.iter(f"{{{SVG_NS}}}svg") if "definition-scale" in e.get("class", "")),
        None,
    )
    head = next(
        (e for e in root.iter(f"{{{SVG_NS}}}g") if "notehead" in e.get("class", "").split()),
        None,
    )
    return inner, head


def first_head(svg: bytes) -> float | None:
    """Where the first notehead of an engraving stands, as a share of its width (read from
    Verovio's SVG), so a phone's scrolling staff can open on the notes, not on the clef."""
    root = ET.fromstring(svg)
    inner, head = _music_and_first_head(root)
    margin = next(
        (e for e in root.iter(f"{{{SVG_NS}}}g") if "page-margin" in e.get("class", "").split()),
        None,
    )
    use = head.find(f"{{{SVG_NS}}}use") if head is not None else None
    if inner is None or use is None or margin is None:
        return None
    shift = re.search(r"translate\(([\d.]+)", margin.get("transform", ""))
    x = re.search(r"translate\(([\d.]+)", use.get("transform", ""))
    width = float((inner.get("viewBox") or "0 0 0 0").split()[2])
    if not (x and shift and width):
        return None
    return round((float(shift.group(1)) + float(x.group(1))) / width, 4)


def page_staff(staff: Staff, lines: list[str], whole: Callable[[], bytes]) -> bytes:
    """The page's staff: the engraving of its music with the page's `lines` (its title and
    citation in the current language) set in its head, or, where that cannot be done, the
    page's own document (`whole()` makes it) engraved."""
    from drumscore.render.verovio import retitle

    page = retitle(staff.svg.decode("utf-8"), lines)
    if page is not None:
        return page.encode("utf-8")
    return staff_svgs(whole(), 1)[0] or staff.svg


def phone_staff(svg: bytes) -> bytes:
    """The phone's staff, its words (the staff labels, the tempo) in the current language's
    font."""
    from drumscore.render.verovio import in_text_font

    return in_text_font(svg.decode("utf-8")).encode("utf-8")
