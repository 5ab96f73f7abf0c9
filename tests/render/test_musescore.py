"""Engraving with MuseScore 3: PDF and PNG pages, MuseScore's own reading of the drums, failures."""

from __future__ import annotations

import functools
import os
import struct
import subprocess
import xml.etree.ElementTree as ET

import pytest

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import EngraveError, MissingDependencyError, OptionError
from drumscore.model import Drum
from drumscore.render.midimap import MidiMap
from drumscore.render.musescore import Engraving, engrave, find_musescore
from drumscore.render.musicxml import musicxml_bytes

#: What MuseScore 3 prints when a file does not read cleanly.
COMPLAINTS = ("unmapped drum", "not a valid musicxml", "error at line", "not found in part")


def musescore() -> str:
    return find_musescore()


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def assert_clean(log: str) -> None:
    found = [c for c in COMPLAINTS if c in log.lower()]
    assert not found, log


@functools.cache
def engraved_lu(kind: str, dpi: int = 150) -> Engraving:
    """The first 魯 score engraved as `kind` (PNG at `dpi`), trimmed: once in this module,
    however many of its tests read it (MuseScore takes a second or two to start and engrave)."""
    return engrave(musicxml_bytes(arrange(resolve("lu"))), kind, dpi=dpi)


# --- PDF and PNG --------------------------------------------------------------------------------


@pytest.mark.parametrize("key", ["lu", "xue", "lu/2@benyi", "xue/2"])
@pytest.mark.requires("musescore")
def test_pdf_converts_without_errors_or_unmapped_drums(key):
    musescore()
    engraving = engrave(musicxml_bytes(arrange(resolve(key)), lyrics="drum"), "pdf")
    assert len(engraving.pages) == 1
    assert engraving.pages[0].startswith(b"%PDF-")
    assert_clean(engraving.log)


@pytest.mark.requires("musescore")
def test_png_is_one_trimmed_system_that_scales_with_dpi():
    musescore()
    low, high = engraved_lu("png", dpi=72), engraved_lu("png", dpi=150)
    (w1, h1), (w2, _) = png_size(low.pages[0]), png_size(high.pages[0])
    assert w1 > h1, "a trimmed single system is wider than it is tall"
    assert w2 == pytest.approx(150 / 72 * w1, rel=0.05)
    assert_clean(low.log)


@pytest.mark.requires("musescore")
def test_png_pages_are_white_not_transparent():
    import io

    from matplotlib import image

    musescore()
    engraving = engrave(musicxml_bytes(arrange(resolve("○□半○"))), "png", dpi=50)
    pixels = image.imread(io.BytesIO(engraving.pages[0]), format="png")
    corners = [pixels[0, 0], pixels[0, -1], pixels[-1, 0], pixels[-1, -1]]
    for corner in corners:
        assert list(corner[:3]) == [1.0, 1.0, 1.0]
        assert len(corner) == 3 or corner[3] == 1.0  # opaque


@pytest.mark.requires("musescore")
def test_untrimmed_png_is_a_whole_page():
    musescore()
    engraving = engrave(musicxml_bytes(arrange(resolve("lu"))), "png", dpi=72, trim=None)
    width, height = png_size(engraving.pages[0])
    assert height > width  # a portrait page


@pytest.mark.slow  # pages enough for a series: engraving them takes long
@pytest.mark.requires("musescore")
def test_a_long_score_gives_one_png_per_page():
    musescore()
    engraving = engrave(musicxml_bytes(arrange(resolve("xue"), repeats=40)), "png", dpi=50)
    assert len(engraving.pages) > 1
    assert all(png_size(p)[0] > 0 for p in engraving.pages)


@pytest.mark.requires("musescore")
def test_pdf_and_png_keep_the_ink_a_centimetre_from_every_edge():
    import io

    import numpy as np
    from page_ink import margins_cm
    from PIL import Image

    pdfium = pytest.importorskip("pypdfium2")
    (pdf,) = engraved_lu("pdf").pages
    pixels = pdfium.PdfDocument(pdf)[0].render(scale=2).to_numpy()
    assert min(margins_cm(pixels, 144).values()) >= 1.0, margins_cm(pixels, 144)
    for dpi in (72, 150):
        (png,) = engraved_lu("png", dpi=dpi).pages
        pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
        assert min(margins_cm(pixels, dpi).values()) >= 1.0, (dpi, margins_cm(pixels, dpi))


@pytest.mark.requires("musescore")
def test_svg_is_trimmed_to_the_music_with_the_margin_of_a_png():
    """MuseScore's -T trims PNG pages only: its SVG was a whole blank A4 page (2976×4209 px)
    with the music at the top. The SVG drawn is the music with 1.2 cm round it, as the PNG."""
    import io

    import numpy as np
    from page_ink import margins_cm
    from PIL import Image

    cairosvg = pytest.importorskip("cairosvg")
    (svg,) = engraved_lu("svg").pages
    root = ET.fromstring(svg)
    width, height = (float(root.get(side, "0").removesuffix("px")) for side in ("width", "height"))
    assert [float(n) for n in root.get("viewBox", "").split()[2:]] == [width, height]
    assert height < width < 2976, (width, height)  # one system, not a page
    png = cairosvg.svg2png(bytestring=svg, scale=150 / 360, background_color="white")
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    margins = margins_cm(pixels, 150)
    assert all(1.0 <= m <= 1.4 for m in margins.values()), margins
    (trimmed,) = engraved_lu("png", dpi=150).pages
    assert png_size(trimmed)[0] == pytest.approx(pixels.shape[1], rel=0.05)


@pytest.mark.requires("musescore")
def test_an_untrimmed_svg_is_the_whole_page():
    (svg,) = engrave(musicxml_bytes(arrange(resolve("○□半○"))), "svg", trim=None).pages
    root = ET.fromstring(svg)
    assert root.get("viewBox", "").split()[:2] == ["0", "0"]
    assert float(root.get("height", "0").removesuffix("px")) > 4000  # A4 at 360 dpi


# --- how MuseScore itself reads the file --------------------------------------------------------


def convert(tmp_path, source_name: str, data: bytes, target_name: str) -> str:
    """Run MuseScore on `data` to make `target_name`; what it said."""
    source = tmp_path / source_name
    source.write_bytes(data)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "HOME": str(tmp_path)}
    done = subprocess.run(
        [musescore(), "-o", str(tmp_path / target_name), str(source)],
        env=env,
        capture_output=True,
        timeout=300,
        check=True,
    )
    return (done.stdout + done.stderr).decode("utf-8", "replace")


def musescore_reading(tmp_path, document: bytes) -> ET.Element:
    """MuseScore's own score file (.mscx) made from the MusicXML document."""
    assert_clean(convert(tmp_path, "in.musicxml", document, "out.mscx"))
    return ET.parse(tmp_path / "out.mscx").getroot()


def chords_in_time(root: ET.Element) -> list[ET.Element]:
    """Every staff's chords by beat (each chord or rest one beat), merged in time."""
    timed = []
    for staff in root.findall("Score/Staff"):
        beat = 0
        for element in staff.iter():
            if element.tag in ("Chord", "Rest"):
                if element.tag == "Chord":
                    timed.append((beat, element))
                beat += 1
    return [c for _, c in sorted(timed, key=lambda t: t[0])]


@pytest.mark.parametrize("notes", [None, "60,61"])
@pytest.mark.requires("musescore")
def test_musescore_plays_each_stroke_on_its_drum_with_its_shape(tmp_path, notes):
    midimap = MidiMap.from_option(notes)
    timeline = arrange(resolve("lu"))
    root = musescore_reading(tmp_path, musicxml_bytes(timeline, midimap))

    drumset = {int(d.get("pitch")): d.findtext("head") for d in root.iter("Drum")}
    assert drumset == {midimap.note(Drum.PI): "sol", midimap.note(Drum.GU): "la"}

    chords = chords_in_time(root)
    pitches = [int(c.findtext("Note/pitch")) for c in chords]
    assert pitches == [midimap.note(s.drum) for s in timeline.strokes]
    heads = [c.findtext("Note/head") or "normal" for c in chords]
    assert heads == ["sol" if s.drum is Drum.PI else "la" for s in timeline.strokes]
    assert {c.findtext("Note/headType") for c in chords} == {"half"}  # drawn hollow
    assert all(c.findtext("noStem") == "1" for c in chords)


@pytest.mark.requires("musescore")
def test_musescore_shows_the_half_mark_at_the_second_bar(tmp_path):
    root = musescore_reading(tmp_path, musicxml_bytes(arrange(resolve("xue/2"))))
    measures = root.find("Score/Staff").findall("Measure")
    assert len(measures) == 2
    marks = [
        ["".join(t.find("text").itertext()) for t in m.iter("RehearsalMark")] for m in measures
    ]
    assert marks == [[], ["半"]]
    assert measures[0].find(".//BarLine/subtype").text == "double"


@pytest.mark.requires("musescore")
def test_no_time_signature_is_drawn_not_even_a_courtesy_one(tmp_path):
    musescore()
    # Bars of 8 and 13 strokes: the first line ends before a 13-stroke bar, where MuseScore would
    # draw a courtesy 13/4 unless its style says otherwise.
    engraving = engrave(musicxml_bytes(arrange(resolve("lu/2"), repeats=3)), "png", dpi=50)
    root = ET.fromstring(engraving.mscx)
    assert root.findtext("Score/Style/genCourtesyTimesig") == "0"
    # room between the clef and the first stroke, on the first line and on every other
    assert float(root.findtext("Score/Style/clefKeyRightMargin")) >= 2
    assert float(root.findtext("Score/Style/systemHeaderDistance")) >= 3
    signatures = list(root.iter("TimeSig"))
    assert len(signatures) == 12 and all(t.findtext("visible") == "0" for t in signatures)
    # What is drawn: MuseScore's SVG tags every drawn element with its kind.
    convert(tmp_path, "engraved.mscx", engraving.mscx, "page.svg")
    drawn = (tmp_path / "page-1.svg").read_text(encoding="utf-8")
    assert drawn.count('class="Note"') == 63
    assert 'class="TimeSig"' not in drawn


# --- bad input and a missing MuseScore ----------------------------------------------------------


def test_missing_musescore_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.delenv("DRUMSCORE_MUSESCORE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingDependencyError, match="apt-get install musescore3") as err:
        find_musescore()
    assert "engraving with MuseScore needs MuseScore 3" in str(err.value)
    assert "engrave with Verovio, the default engraver" in str(err.value)  # the other way


def test_missing_verovio_suggests_the_other_engraver(monkeypatch):
    import importlib.util

    from drumscore.render import verovio

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "verovio" else real(name, *a)
    )
    with pytest.raises(MissingDependencyError) as err:
        verovio.check_installed("pdf")
    assert "pip install 'drumscore[notation]'" in str(err.value)
    assert "engrave with MuseScore 3" in str(err.value)


def test_a_bad_override_is_named(monkeypatch):
    monkeypatch.setenv("DRUMSCORE_MUSESCORE", "/no/such/mscore")
    with pytest.raises(MissingDependencyError, match="'/no/such/mscore'"):
        find_musescore()


def test_a_failing_program_is_an_engrave_error():
    with pytest.raises(EngraveError, match="failed"):
        engrave(b"<score-partwise/>", "pdf", executable="false")


def test_unknown_kind_is_refused():
    with pytest.raises(OptionError, match="'ly'"):
        engrave(b"", "ly", executable="true")


@pytest.mark.requires("musescore")
def test_musescore_rejects_a_document_that_is_not_musicxml():
    musescore()
    with pytest.raises(EngraveError, match="empty score"):
        engrave(b"this is not xml", "pdf")


@pytest.mark.requires("musescore")
def test_the_musescore_page_carries_the_whole_citation_in_bands_that_do_not_touch():
    """Title, the text as printed, the source, drumscore's name of the reading: each its own
    line of text on the page, read back from the PDF, and each a band of ink of its own."""
    pdfium = pytest.importorskip("pypdfium2")
    (pdf,) = engraved_lu("pdf").pages
    page = pdfium.PdfDocument(pdf)[0]
    text = page.get_textpage().get_text_range()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    wanted = [
        "as printed in 禮記注疏",
        "Kanseki Repository KR1d0053",
        "drumscore's name of this reading: lu/1@zhushu",
    ]
    for part in wanted:
        assert any(part in line for line in lines), (part, lines)
    at = [next(i for i, line in enumerate(lines) if part in line) for part in wanted]
    assert at == sorted(at) and len(set(at)) == 3  # in order, each on its own line
    from page_ink import ink_bands

    dpi = 300
    pixels = page.render(scale=dpi / 72).to_numpy()
    bands = ink_bands((pixels[..., :3].min(axis=2) < 128).any(axis=1))
    heights = [(last - first + 1) / dpi for first, last in bands[:4]]
    assert len(bands) > 4 and max(heights) < 0.25, heights  # two touching lines are taller
