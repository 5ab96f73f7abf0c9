"""Engraving with Verovio in-process: two drums read back, round and square heads, the citation."""

from __future__ import annotations

import base64
import io
import re
import struct
import xml.etree.ElementTree as ET

import mido
import pytest
from page_ink import ink_bands, margins_cm
from svg_heads import heads_in_order, round_head_size

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import EngraveError, OptionError
from drumscore.model import Drum, Reading
from drumscore.render.midimap import MidiMap
from drumscore.render.musicxml import musicxml_bytes, page_head
from drumscore.render.verovio import (
    MEI,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    PX_PER_INCH,
    ROUND_ID,
    SVG,
    TEXT_FONTS,
    engrave,
    head_lines,
    retitle,
    staff_drums,
    svg_layouts,
    svg_pages,
    to_mei,
)

verovio = pytest.importorskip("verovio")

LU = arrange(resolve("lu"))


def test_verovio_reads_two_instruments_with_the_right_note_per_stroke():
    midimap = MidiMap.from_option("38,36")
    document = musicxml_bytes(LU, midimap)
    root = ET.fromstring(to_mei(document))
    drums = staff_drums(root)
    assert sorted(drums.values(), key=lambda d: d.value) == sorted(Drum, key=lambda d: d.value)
    labels = {d.get("n"): d.findtext(f"{{{MEI}}}label") for d in root.iter(f"{{{MEI}}}staffDef")}
    assert {labels[n] for n, d in drums.items() if d is Drum.PI} == {"鼙 ○"}
    for staff in root.iter(f"{{{MEI}}}staff"):
        pitches = {int(n.get("pnum")) for n in staff.iter(f"{{{MEI}}}note")}
        assert pitches == {midimap.note(drums[staff.get("n")])}
    # Verovio's own MIDI of the same document, stroke by stroke
    toolkit = verovio.toolkit()
    assert toolkit.loadData(document.decode("utf-8"))
    midi = mido.MidiFile(file=io.BytesIO(base64.b64decode(toolkit.renderToMIDI())))
    now, heard = 0, []
    for msg in mido.merge_tracks(midi.tracks):
        now += msg.time
        if msg.type == "note_on" and msg.velocity > 0:
            heard.append((now, msg.note))
    assert [n for _, n in sorted(heard)] == [midimap.note(s.drum) for s in LU.strokes]


def test_the_mei_gives_pi_the_lower_pitch():
    root = ET.fromstring(to_mei(musicxml_bytes(LU)))
    drums = staff_drums(root)
    pitch = {
        drums[staff.get("n")]: {int(n.get("pnum")) for n in staff.iter(f"{{{MEI}}}note")}
        for staff in root.iter(f"{{{MEI}}}staff")
    }
    ((pi,), (gu,)) = pitch[Drum.PI], pitch[Drum.GU]
    assert pi < gu  # 鼙 其聲下, 鼓 其聲高, as in the kit


@pytest.mark.parametrize("key", ["lu", "xue/2@benyi"])
def test_svg_has_round_and_square_heads_in_pattern_order_and_the_citation(key):
    timeline = arrange(resolve(key))
    (page,) = engrave(musicxml_bytes(timeline), "svg").pages
    assert heads_in_order(page) == "".join(s.drum.symbol for s in timeline.strokes)
    text = "".join(ET.fromstring(page).itertext())
    score = timeline.score
    for part in (score.edition_name, f"figure {score.figure}", "射", score.printed.strip()):
        assert part in text
    assert score.source.citation in text and score.key in text and "半" in text
    # the round head is a ring: two concentric circles, filled even-odd
    round_head = ET.fromstring(page).find(f".//{{{SVG}}}g[@id='{ROUND_ID}']/{{{SVG}}}path")
    assert round_head.get("fill-rule") == "evenodd" and round_head.get("d").count("a") == 4


def _without_head(svg: str) -> bytes:
    root = ET.fromstring(svg)
    for parent in root.iter():
        for child in list(parent):
            if child.get("class") == "pgHead":
                parent.remove(child)
    return ET.tostring(root)


def test_a_page_in_another_language_is_the_engraving_with_the_head_s_words_set_anew():
    timeline = arrange(resolve("xue/2@benyi"))
    with i18n.speaking("en"):
        english = svg_pages(musicxml_bytes(timeline))[0]
        words = [text for _, text in page_head(timeline)]
    with i18n.speaking("zh_Hant"):
        chinese = svg_pages(musicxml_bytes(timeline))[0]
        translated = [text for _, text in page_head(timeline)]
    assert head_lines(english) == words and head_lines(chinese) == translated
    assert words != translated and len(words) == 4
    assert retitle(english, words) == english  # Verovio sets the words as given
    page = retitle(english, translated)
    assert page is not None and head_lines(page) == translated
    # the music as engraved once, the head's lines where they were
    assert _without_head(page) == _without_head(english)
    assert heads_in_order(page) == heads_in_order(chinese) != ""
    assert len(page) - len(english) == len("".join(translated)) - len("".join(words))
    # each language's text font, as its own engraving names it
    with i18n.speaking("zh_Hans"):
        simplified = retitle(english, translated)
    assert simplified is not None and f'font-family="{TEXT_FONTS["zh_Hans"]}"' in simplified
    assert TEXT_FONTS["zh_Hans"] not in english and TEXT_FONTS["zh_Hans"] not in page
    assert simplified.count("font-family=") == english.count("font-family=") > 0
    # words that are markup stay words
    marked = retitle(english, ["<b> & </b>", *translated[1:]])
    assert marked is not None and head_lines(marked)[0] == "<b> & </b>"
    assert "".join(ET.fromstring(marked).itertext()).count("<b> & </b>") == 1


def test_a_head_of_other_lines_or_none_is_not_set_anew():
    english = svg_pages(musicxml_bytes(LU))[0]
    lines = head_lines(english)
    assert retitle(english, lines[:-1]) is None and retitle(english, [*lines, "x"]) is None
    phone = svg_pages(musicxml_bytes(LU), page_width=600, head=False)[0]
    assert head_lines(phone) == [] and retitle(phone, lines) is None


def test_a_phone_s_layout_of_the_document_read_once_shows_what_its_own_engraving_shows():
    document = musicxml_bytes(LU)
    page, phone = svg_layouts(document, ((PAGE_WIDTH, True), (600, False)))
    assert page == svg_pages(document)
    alone = svg_pages(document, page_width=600, head=False)
    assert [re.sub(r'id="[^"]*"', "", p) for p in phone] == [
        re.sub(r'id="[^"]*"', "", p) for p in alone
    ]
    assert heads_in_order(phone[0]) == "".join(s.drum.symbol for s in LU.strokes)
    width = float(ET.fromstring(phone[0]).get("viewBox").split()[2])
    assert width < float(ET.fromstring(page[0]).get("viewBox").split()[2]) and not head_lines(
        phone[0]
    )


def test_text_is_set_in_a_cjk_font_and_needs_no_music_font():
    (page,) = engrave(musicxml_bytes(LU), "svg").pages
    svg = page.decode("utf-8")
    assert "Leipzig" not in svg and "@font-face" not in svg
    assert "Noto Serif CJK" in svg and "♩" in svg


@pytest.mark.parametrize(
    ("language", "first"),
    [
        ("zh_Hans", "Noto Serif CJK SC"),
        ("zh_Hant", "Noto Serif CJK TC"),
        ("en", "Noto Serif CJK TC"),
    ],
)
def test_the_staff_text_asks_first_for_the_face_of_the_readers_script(language, first):
    with i18n.speaking(language):
        (page,) = engrave(musicxml_bytes(LU), "svg").pages
    families = {e.get("font-family") for e in ET.fromstring(page).iter() if e.get("font-family")}
    assert families and {f.split(",")[0] for f in families} == {first}


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_png_scales_with_dpi_and_pdf_is_an_a4_page():
    pytest.importorskip("cairosvg")
    document = musicxml_bytes(LU)
    (low,) = engrave(document, "png", dpi=100).pages
    (high,) = engrave(document, "png", dpi=200).pages
    (w1, h1), (w2, h2) = png_size(low), png_size(high)
    assert w1 > h1 and w2 == pytest.approx(2 * w1, abs=2) and h2 == pytest.approx(2 * h1, abs=2)
    assert w1 == round(210 / 25.4 * 100)  # the A4 width at 100 dpi
    (pdf,) = engrave(document, "pdf").pages
    assert pdf.startswith(b"%PDF-")
    box = re.search(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)", pdf)
    assert box and float(box.group(1)) == pytest.approx(595.3, abs=1)
    assert float(box.group(2)) == pytest.approx(841.9, abs=1)


@pytest.mark.slow  # pages enough for a series: engraving them takes long
def test_a_long_score_gives_several_pdf_pages():
    pytest.importorskip("cairosvg")
    (pdf,) = engrave(musicxml_bytes(arrange(resolve("xue"), repeats=30)), "pdf").pages
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) >= 2


@pytest.mark.parametrize("kind", ["svg", "png", "pdf"])
def test_the_same_engraving_gives_the_same_bytes(kind):
    if kind != "svg":
        pytest.importorskip("cairosvg")
    document = musicxml_bytes(arrange(resolve("xue/2"), "touhu"))
    assert engrave(document, kind).pages == engrave(document, kind).pages


def test_unknown_kind_and_unreadable_input_are_engrave_errors():
    with pytest.raises(OptionError, match="'ly'"):
        engrave(b"", "ly")
    with pytest.raises(EngraveError, match="could not read"):
        engrave(b"this is not xml", "svg")


# --- for print and for pasting into HTML ----------------------------------------------------------


def test_svg_is_plain_svg_even_after_mei_was_written():
    to_mei(musicxml_bytes(LU))  # MEI is written with its own default namespace first
    (page,) = engrave(musicxml_bytes(LU), "svg").pages
    assert page.startswith(b'<svg xmlns="http://www.w3.org/2000/svg"')
    assert ET.fromstring(page).tag == f"{{{SVG}}}svg"
    assert not re.search(rb"</?ns\d+:", page)


def test_svg_names_no_namespace_but_svg_s_and_its_links_are_plain_href():
    """docs/notation.md: no prefixes. Verovio links each notehead to its glyph with xlink:href;
    the SVG has SVG 2's href, each naming a glyph the document defines."""
    (page,) = engrave(musicxml_bytes(LU), "svg").pages
    root = ET.fromstring(page)
    assert b"xmlns:" not in page and b"xlink" not in page and b"xml:" not in page
    foreign = [
        name
        for element in root.iter()
        for name in (element.tag, *element.attrib)
        if name.startswith("{") and not name.startswith(f"{{{SVG}}}")
    ]
    assert foreign == []
    ids = {element.get("id") for element in root.iter()}
    links = [use.get("href") for use in root.iter(f"{{{SVG}}}use")]
    assert len(links) > 23 and all(link and link[1:] in ids for link in links)


@pytest.mark.parametrize("key", ["lu", "xue/2@benyi"])
def test_pdf_ink_is_at_least_a_centimetre_from_every_edge(key):
    pytest.importorskip("cairosvg")
    pdfium = pytest.importorskip("pypdfium2")
    (pdf,) = engrave(musicxml_bytes(arrange(resolve(key))), "pdf").pages
    dpi = 144
    pixels = pdfium.PdfDocument(pdf)[0].render(scale=dpi / 72).to_numpy()
    assert min(margins_cm(pixels, dpi).values()) >= 1.0, margins_cm(pixels, dpi)


@pytest.mark.parametrize(
    ("language", "reading"), [("en", "zheng"), ("zh_Hant", "zheng"), ("en", "mao")]
)
def test_png_has_print_margins_and_the_head_lines_do_not_touch(language, reading):
    pytest.importorskip("cairosvg")
    import numpy as np
    from PIL import Image

    dpi = 150  # the default resolution
    timeline = arrange(resolve("lu"), reading=Reading.parse(reading))
    with i18n.speaking(language):  # the head lines in the reader's language, in the CJK font
        (png,) = engrave(musicxml_bytes(timeline), "png", dpi=dpi).pages
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    # a head line too long for the page would run into the margin (毛奇齡's citation once did)
    assert min(margins_cm(pixels, dpi).values()) >= 1.0, margins_cm(pixels, dpi)
    # title, "as printed in …", the source, (the reading, where it stands,) the drumscore name:
    # bands of ink, each one line
    lines = 4 if reading == "zheng" else 6
    bands = ink_bands((pixels.min(axis=2) < 128).any(axis=1))
    heights = [(last - first + 1) / dpi for first, last in bands[:lines]]
    assert len(bands) > lines and max(heights) < 0.25, heights  # two touching lines are taller


def test_a_notehead_of_the_png_at_the_default_resolution_is_some_twenty_pixels():
    """SVG and PNG draw the staff twice the printed size (the PDF's: a staff space of 1.8 mm),
    on the same A4 width, so that a head of the PNG at 150 dpi is legible at its own size."""
    pytest.importorskip("cairosvg")
    document = musicxml_bytes(LU)
    (svg,) = engrave(document, "svg").pages
    printed = svg_pages(document, page_height=PAGE_HEIGHT, fit=False)[0]  # as the PDF has it
    assert round_head_size(printed) == pytest.approx(19.4, abs=0.5)  # 1.9 mm
    assert round_head_size(svg) == pytest.approx(2 * round_head_size(printed), rel=0.01)
    (png,) = engrave(document, "png").pages  # the default 150 dpi
    width, _height = png_size(png)
    page = float(ET.fromstring(svg).get("viewBox").split()[2])
    assert page == 2100 and width == round(page * 150 / PX_PER_INCH)  # A4 wide, as before
    assert round_head_size(svg) * width / page >= 20  # pixels of the PNG, not 11
    # the page head is kept at its size (the margins above see no line run off the page)
    text = "".join(ET.fromstring(svg).itertext())
    assert LU.score.source.citation in text
