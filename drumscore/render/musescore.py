"""PDF, PNG and SVG through MuseScore 3, run headless on a MusicXML document."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from drumscore.errors import EngraveError, MissingDependencyError, OptionError
from drumscore.i18n import N_, _, list_text

#: Executable names tried in order; DRUMSCORE_MUSESCORE overrides them with a path or name.
MUSESCORE_NAMES = ("mscore3", "musescore3", "mscore", "musescore")
PAGE_FORMATS = ("pdf", "png", "svg")
TIMEOUT_SECONDS = 300
#: MuseScore's word for a file it could not read at all (it still writes a blank page).
UNREADABLE = "empty score"
MUSESCORE_INSTALL = N_(
    "install MuseScore 3 (Debian/Ubuntu: sudo apt-get install musescore3; elsewhere "
    "https://musescore.org) or set DRUMSCORE_MUSESCORE to its executable; "
    "or write MusicXML and open it in any notation program"
)
#: The MuseScore style of every engraving. The time signatures are hidden (the scores have no
#: metre), and MuseScore would still draw a courtesy time signature at the end of a line before a
#: bar of another length; genCourtesyTimesig turns those off. MuseScore 3 applies a style (-S) to
#: a score it reads from its own format, not to one it imports, so engrave converts the MusicXML
#: to .mscx first and engraves that, in one run of MuseScore (a job file, -j).
#: The time signature is hidden, so the first stroke would stand against the clef: the clef's
#: right margin and the distance from a line's header to its first note are widened.
#: The page is A4 with 1.5 cm margins (in inches, as MuseScore counts), so the ink, staff labels
#: included, stays at least 1 cm from each edge.
#: MuseScore's own settings for the run: PNG pages on white, readable on dark slides and viewers.
SETTINGS = "[export]\npng\\useTransparency=false\n"

STYLE = """<?xml version="1.0" encoding="UTF-8"?>
<museScore version="3.01">
  <Style>
    <genCourtesyTimesig>0</genCourtesyTimesig>
    <frameSystemDistance>16</frameSystemDistance>
    <clefKeyRightMargin>2.5</clefKeyRightMargin>
    <systemHeaderDistance>3.5</systemHeaderDistance>
    <systemHeaderTimeSigDistance>3.5</systemHeaderTimeSigDistance>
    <pageWidth>8.26772</pageWidth>
    <pageHeight>11.6929</pageHeight>
    <pagePrintableWidth>7.08661</pagePrintableWidth>
    <pageEvenLeftMargin>0.590551</pageEvenLeftMargin>
    <pageOddLeftMargin>0.590551</pageOddLeftMargin>
    <pageEvenTopMargin>0.590551</pageEvenTopMargin>
    <pageEvenBottomMargin>0.590551</pageEvenBottomMargin>
    <pageOddTopMargin>0.590551</pageOddTopMargin>
    <pageOddBottomMargin>0.590551</pageOddBottomMargin>
  </Style>
</museScore>
"""


@dataclass(frozen=True, slots=True)
class Engraving:
    """The pages MuseScore made (one PDF, or one PNG per page), what it said on stderr, and its
    own score file (.mscx) as it read the MusicXML, with the style applied."""

    pages: tuple[bytes, ...]
    log: str
    mscx: bytes = b""


def find_musescore() -> str:
    """The MuseScore executable, or a MissingDependencyError saying how to install it."""
    override = os.environ.get("DRUMSCORE_MUSESCORE")
    if override:
        found = shutil.which(override)
        if found is None:
            raise MissingDependencyError(
                _("DRUMSCORE_MUSESCORE={value!r} is not an executable").format(value=override),
                _("point it at mscore3, or unset it to search the PATH"),
            )
        return found
    for name in MUSESCORE_NAMES:
        found = shutil.which(name)
        if found:
            return found
    raise MissingDependencyError(
        _("engraving with MuseScore needs MuseScore 3, which is not installed"),
        _(
            "{install}; or engrave with Verovio, the default engraver, which needs no program"
        ).format(install=_(MUSESCORE_INSTALL)),
    )


def engrave(
    musicxml: bytes, kind: str, *, dpi: int = 150, trim: float | None = 1.2, executable: str = ""
) -> Engraving:
    """Engrave a MusicXML document to 'pdf', 'png' or 'svg'.

    PNG pages are `dpi` dots per inch; PNG and SVG pages are trimmed to the music with a margin
    of `trim` centimetres, for print (None keeps the whole page).
    """
    if kind not in PAGE_FORMATS:
        raise OptionError(
            _("kind {kind!r} cannot be engraved; MuseScore writes {formats}").format(
                kind=kind, formats=list_text(PAGE_FORMATS)
            ),
            option="kind",
        )
    program = executable or find_musescore()
    try:
        return _engrave(musicxml, kind, dpi, trim, program)
    except OSError as exc:
        # the working folder: a full /tmp, a file-size limit
        raise EngraveError(
            _(
                "MuseScore's working files cannot be written in the temporary folder: {reason}"
            ).format(reason=exc.strerror or exc)
        ) from None


#: A4 in MusicXML tenths at the 7 mm staff height the documents use (40 tenths = 7 mm).
A4_TENTHS = (1200, 1697)


def _credits_in_one(musicxml: bytes) -> bytes:
    """The title and the lines under it as one credit, each line its own words at its own size.

    MuseScore 3 imports one title and one subtitle at fixed places: further credits, and any
    without a position on the page, are dropped or drawn over the title. One credit whose
    credit-words follow each other on lines keeps every line of the citation, in order."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(musicxml)
    except ET.ParseError:  # not a document: MuseScore says so in its own words
        return musicxml
    credits = root.findall("credit")
    if len(credits) < 2:
        return musicxml
    first = credits[0]
    words = first.find("credit-words")
    if words is None:
        return musicxml
    width, height = A4_TENTHS
    words.set("default-x", str(width // 2))
    words.set("default-y", str(height - 100))
    gap = ET.SubElement(first, "credit-words", {"font-size": "4"})  # title and lines apart
    gap.text = "\n"
    for credit in credits[1:]:
        for line in credit.findall("credit-words"):
            extra = ET.SubElement(first, "credit-words", {"font-size": line.get("font-size", "9")})
            extra.text = "\n" + (line.text or "")
        root.remove(credit)
    defaults = root.find("defaults")
    if defaults is not None and defaults.find("page-layout") is None:
        layout = ET.Element("page-layout")
        ET.SubElement(layout, "page-height").text = str(height)
        ET.SubElement(layout, "page-width").text = str(width)
        at = 1 if defaults.find("scaling") is not None else 0
        defaults.insert(at, layout)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8")


def _engrave(musicxml: bytes, kind: str, dpi: int, trim: float | None, program: str) -> Engraving:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.setdefault("XDG_RUNTIME_DIR", "")
    with tempfile.TemporaryDirectory(prefix="drumscore-engrave-") as folder:
        work = Path(folder)
        env["XDG_RUNTIME_DIR"] = env["XDG_RUNTIME_DIR"] or str(work)
        env["HOME"] = str(work)  # MuseScore writes settings there; keep the user's untouched
        env["XDG_CONFIG_HOME"] = str(work / ".config")  # Qt reads settings here when it is set
        settings = work / ".config" / "MuseScore" / "MuseScore3.ini"
        settings.parent.mkdir(parents=True)
        settings.write_text(SETTINGS, encoding="utf-8")
        source = work / "score.musicxml"
        source.write_bytes(_credits_in_one(musicxml))
        style = work / "style.mss"
        style.write_text(STYLE, encoding="utf-8")
        styled = work / "score.mscx"
        target = work / f"score.{kind}"
        job = work / "job.json"
        steps = [{"in": str(source), "out": str(styled)}, {"in": str(styled), "out": str(target)}]
        job.write_text(json.dumps(steps), encoding="utf-8")
        command = [program, "-S", str(style)]
        if kind == "png":
            command += ["-r", str(dpi)]
            if trim is not None:
                # MuseScore counts the trim margin in pixels at 360 dpi, whatever -r says
                command += ["-T", str(round(trim / 2.54 * 360))]
        command += ["-j", str(job)]
        try:
            done = subprocess.run(
                command, env=env, capture_output=True, timeout=TIMEOUT_SECONDS, check=False
            )
        except OSError as exc:
            raise EngraveError(
                _("cannot run MuseScore {program!r}: {reason}").format(
                    program=program, reason=exc.strerror
                )
            ) from None
        except subprocess.TimeoutExpired:
            raise EngraveError(
                _("MuseScore {program!r} did not finish within {seconds} s").format(
                    program=program, seconds=TIMEOUT_SECONDS
                )
            ) from None
        log = (done.stdout + done.stderr).decode("utf-8", "replace")
        pages = _pages(work, kind)
        if done.returncode != 0 or not pages or UNREADABLE in log:
            last = " | ".join(line for line in log.splitlines()[-5:] if line.strip())
            raise EngraveError(
                _("MuseScore {program!r} failed (exit {status}) to write {kind}: {said}").format(
                    program=program,
                    status=done.returncode,
                    kind=kind.upper(),
                    said=last or _("no message"),
                )
            )
        mscx = styled.read_bytes() if styled.is_file() else b""
        made = tuple(p.read_bytes() for p in pages)
        if kind == "svg" and trim is not None:  # -T trims PNG pages only
            made = tuple(trim_svg(page, trim) for page in made)
        return Engraving(made, log, mscx)


#: MuseScore's SVG units: pixels at 360 dots per inch, whatever -r says.
SVG_DPI = 360
_SVG_TAG = re.compile(rb"<svg\b[^>]*>")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def trim_svg(svg: bytes, margin_cm: float) -> bytes:
    """MuseScore's SVG page trimmed to its ink with a margin of `margin_cm`: its root's width,
    height and viewBox set to the box of every stroke, glyph and line drawn, the rest as
    MuseScore wrote it. A page with nothing drawn is left whole."""
    import xml.etree.ElementTree as ET

    box = _ink_box(ET.fromstring(svg))
    tag = _SVG_TAG.search(svg)
    if box is None or tag is None:
        return svg
    margin = margin_cm / 2.54 * SVG_DPI
    left, top = box[0] - margin, box[1] - margin
    width, height = box[2] - box[0] + 2 * margin, box[3] - box[1] + 2 * margin
    root = tag.group()
    for name, value in (
        (b"width", f"{width:.2f}px"),
        (b"height", f"{height:.2f}px"),
        (b"viewBox", f"{left:.2f} {top:.2f} {width:.2f} {height:.2f}"),
    ):
        root = re.sub(
            rb"\s" + name + rb'="[^"]*"', b" " + name + b'="' + value.encode() + b'"', root
        )
    return svg[: tag.start()] + root + svg[tag.end() :]


def _ink_box(root: object) -> tuple[float, float, float, float] | None:
    """The box (left, top, right, bottom) of what MuseScore's SVG draws: its paths (absolute
    M, L and C commands, a curve's control points bounding it), polylines and polygons, each
    through its transform matrix and widened by half its stroke."""
    import xml.etree.ElementTree as ET

    assert isinstance(root, ET.Element)
    xs: list[float] = []
    ys: list[float] = []
    for element in root.iter():
        kind = element.tag.rsplit("}", 1)[-1]
        if kind == "path":
            numbers = [float(n) for n in _NUMBER.findall(element.get("d", ""))]
        elif kind in ("polyline", "polygon"):
            numbers = [float(n) for n in _NUMBER.findall(element.get("points", ""))]
        else:
            continue
        a, b, c, d, e, f = 1.0, 0.0, 0.0, 1.0, 0.0, 0.0
        matrix = re.fullmatch(r"\s*matrix\(([^)]*)\)\s*", element.get("transform", ""))
        if matrix:
            a, b, c, d, e, f = (float(n) for n in _NUMBER.findall(matrix.group(1)))
        half = float(element.get("stroke-width", "0") or 0) / 2 if element.get("stroke") else 0.0
        for x, y in zip(numbers[::2], numbers[1::2], strict=False):
            px, py = a * x + c * y + e, b * x + d * y + f
            xs += (px - half, px + half)
            ys += (py - half, py + half)
    if not xs:
        return None
    return min(xs), min(ys), max(xs), max(ys)


def _pages(folder: Path, kind: str) -> list[Path]:
    """MuseScore writes score.pdf, but score-1.png, score-2.png… (and .svg) one per page."""
    if kind == "pdf":
        single = folder / "score.pdf"
        return [single] if single.is_file() else []
    numbered = folder.glob(f"score-*.{kind}")
    return sorted(numbered, key=lambda p: int(p.stem.rsplit("-", 1)[1]))
