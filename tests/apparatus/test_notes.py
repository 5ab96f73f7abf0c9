"""Notes printed inside a pattern: readings of the text they name where they say which strokes,
notes otherwise; carried into the TEI and MEI."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from apparatus_checks import NS, drawn, read_witness, render

from drumscore.apparatus.gather import build
from drumscore.apparatus.mei import mei_bytes
from drumscore.apparatus.notes import interpret
from drumscore.apparatus.places import Report
from drumscore.apparatus.tei import tei_bytes
from drumscore.corpus import edition_from_dict
from drumscore.model import PrintedNote
from drumscore.notation import parse

BASE = "○□○○□□○□○○□半○□○□○○○"


def pool(notes):
    """A base edition and one that prints the same pattern with notes inside it."""
    return [
        edition_from_dict(
            {"id": "base", "name": "Base", "score": [{"figure": 1, "state": "魯", "printed": BASE}]}
        ),
        edition_from_dict(
            {
                "id": "noted",
                "name": "Noted",
                "score": [{"figure": 1, "state": "魯", "printed": BASE, "notes": notes}],
            }
        ),
    ]


def test_reads_is_a_reading_in_place_of_the_strokes_before_the_note():
    reading, _ = interpret(PrintedNote(8, "吳澄本/作○"), parse(BASE), "noted")
    assert (reading.witness, reading.text, reading.replaces, reading.quote) == (
        "吳澄本",
        "○",
        1,
        "吳澄本作○",
    )


def test_has_more_is_an_addition_at_the_note():
    reading, _ = interpret(PrintedNote(18, "大戴禮下尚有一□一○朱子從之"), parse(BASE), "noted")
    assert (reading.witness, reading.text, reading.replaces) == ("大戴禮", "□○", 0)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("吳澄本少一○一□", "not which ones"),
        ("此句衍", "does not say"),
        ("某本作○○○", "more strokes"),
    ],
)
def test_a_note_that_names_no_strokes_stays_a_note(text, why):
    after = 2 if "○○○" in text else 8
    reading, reason = interpret(PrintedNote(after, text), parse(BASE), "noted")
    assert reading is None and why in reason


def test_the_apparatus_shows_reported_readings_and_leftover_notes():
    notes = [
        {"after": 8, "text": "吳澄本作○"},
        {"after": 15, "text": "吳澄本少一○一□"},
        {"after": 18, "text": "大戴禮下尚有一□一○"},
    ]
    a = build(pool(notes), 1, "魯", base="base")
    assert a.parting == ()
    substituted, added = a.places
    (v,) = substituted.reported
    assert (substituted.label, substituted.lemma.text, v.text, v.sigla) == (
        "8",
        "□",
        "○",
        ("吳澄本",),
    )
    assert v.reports == (Report("吳澄本", "noted", "吳澄本作○"),)
    (v,) = added.reported
    assert (added.label, v.text, v.sigla) == ("after 18", "□○", ("大戴禮",))
    (note,) = a.notes
    assert (note.siglum, note.after, note.text) == ("noted", 15, "吳澄本少一○一□")


def test_tei_and_mei_give_each_reported_text_as_the_note_says():
    pytest.importorskip("verovio")
    notes = [{"after": 8, "text": "吳澄本作○"}, {"after": 18, "text": "大戴禮下尚有一□一○"}]
    a = build(pool(notes), 1, "魯", base="base")
    expected = {
        "吳澄本": BASE[:7] + "○" + BASE[8:],
        "大戴禮": BASE + "□○",
        "noted": BASE,
        "base": BASE,
    }
    root = ET.fromstring(tei_bytes([a]))
    (ab,) = root.iterfind(".//t:body//t:ab", NS)
    listed = {w.get("n") for w in root.iterfind(".//t:listWit/t:witness", NS)}
    assert listed == set(expected)
    for siglum, text in expected.items():
        assert read_witness(ab, siglum, lemma_if_absent=True) == text
    data = mei_bytes(a).decode("utf-8")
    for siglum, text in expected.items():
        svg, _ = render(data, siglum)
        assert drawn(svg) == text
