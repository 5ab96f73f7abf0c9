"""Every stored edition checked against the passage it was extracted from."""

import re

import pytest
from sourcefiles import SOURCES, source_text

from drumscore import corpus
from drumscore.editions import lexer
from drumscore.editions.extract import extract

EDITIONS = corpus.builtin_editions()


def test_every_witness_with_notation_has_an_edition():
    files = {e.provenance.file for e in EDITIONS}
    # the TLS 禮記 and 吳澄's 儀禮逸經 lost the shapes in transcription: nothing to extract
    shapeless = ("KR1d0052", "KR1d0034")
    witnesses = {p.name for p in SOURCES.glob("KR*.txt") if not p.name.startswith(shapeless)}
    assert witnesses <= files
    assert {"001_a32c6902e9fda003.txt", "003_69e158327cd5ca34.txt"} <= files


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.id)
def test_edition_matches_its_source(edition):
    text = source_text(edition.provenance.file)
    found = extract(text, glyph_map=dict(edition.glyphs))
    printed = {(f.score.figure, f.score.state): f.score.printed for f in found.scores}
    stored = {(s.figure, s.state): s.printed for s in edition.scores}
    assert stored == printed


@pytest.mark.parametrize(
    "edition", [e for e in EDITIONS if e.provenance.kanripo], ids=lambda e: e.id
)
def test_provenance_matches_header(edition):
    source = lexer.header(source_text(edition.provenance.file))["source"]
    prov = edition.provenance
    assert f"{prov.kanripo}," in source
    assert f"lines {prov.lines}," in source
    assert source.endswith(f"commit {prov.commit}")


@pytest.mark.parametrize("edition", [e for e in EDITIONS if e.counts], ids=lambda e: e.id)
def test_stated_counts_are_quoted_from_the_source(edition):
    text = printed_text(source_text(edition.provenance.file))
    for count in edition.counts:
        assert count.quote and count.quote in text, count


def printed_text(source):
    """The passage's text and its notes' text, without markup, breaks and spaces."""
    toks = lexer.tokens(source, lexer.Tables())
    skip = {lexer.Kind.LINE, lexer.Kind.PAGE, lexer.Kind.MARKUP, lexer.Kind.HEADER}
    text = "".join(
        t.value if t.kind == lexer.Kind.NOTE else source[t.start : t.end]
        for t in toks
        if t.kind not in skip
    )
    return re.sub(r"\s", "", text)


@pytest.mark.parametrize("edition", EDITIONS, ids=lambda e: e.id)
def test_notes_inside_the_patterns_match_the_source(edition):
    found = extract(source_text(edition.provenance.file), glyph_map=dict(edition.glyphs))
    notes = {(f.score.figure, f.score.state): f.score.notes for f in found.scores}
    for score in edition.scores:
        assert score.notes == notes[(score.figure, score.state)]
