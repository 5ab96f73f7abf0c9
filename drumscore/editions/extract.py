"""Finding the drum scores in a passage as an edition prints it, with their labels and lines.

The passage is read in two steps. The lexer (`lexer.tokens`) turns it into typed tokens with their
source offsets; `runs` reads them into runs of strokes and labels, and `figures` reads figures
from those:

- a *run* is strokes and 半 (`runs`);
- a *figure* is an unbroken chain of runs and labels: the first figure is a heading 鼓, then each
  pattern followed by its label; the second has each label before its pattern. 魯 comes first,
  then 薛, which settles a label that is not recognised.

Every diagnostic points at a token's own position in the file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from drumscore import glyphs
from drumscore.apparatus.names import script_of
from drumscore.editions import lexer
from drumscore.editions.diagnostics import check_unique, no_notation
from drumscore.editions.figures import Reader
from drumscore.editions.found import Extraction, Found, Joined, line_range
from drumscore.editions.readings import parse_glyph_options, parse_label_options
from drumscore.editions.runs import Run
from drumscore.model import Provenance, Work
from drumscore.timing import whole_text

__all__ = [
    "Extraction",
    "Found",
    "Joined",
    "extract",
    "line_range",
    "parse_glyph_options",
    "parse_label_options",
    "title_of",
]


def extract(
    text: str,
    *,
    source_name: str = "",
    glyph_map: Mapping[str, str] | None = None,
    edition_id: str = "",
    edition_name: str = "",
    labels: Mapping[str, str] | None = None,
    partial: bool = False,
) -> Extraction:
    """The drum scores printed in `text`: a Kanripo witness, a punctuated or plain-text passage,
    or a whole chapter or 卷 in which the passage stands.

    Raises ExtractError when the passage holds no notation, and NotationError (with line and
    column in the file) for anything that makes the reading doubtful: a glyph beside the notation
    that is not in the glyph table, a run of strokes interrupted or divided, a pattern without a
    label or without the other pattern of its figure. With `partial`, what can be read is returned
    instead, each doubtful pattern with its `doubts`. `labels` maps more characters to a state
    (`{"薜": "薛"}`), for labels the texts miscopy.
    """
    fields = lexer.header(text)
    name = edition_name or fields.get("edition", "") or title_of(text) or source_name
    reader = Reader(text, lexer.Tables(glyph_map, labels), partial)
    reader.read()
    runs = [i for i in reader.items if isinstance(i, Run) and i.is_pattern]
    if not runs:
        raise no_notation(reader, source_name)
    extraction = Extraction((), name, _provenance(fields, source_name, name), _offset(text))
    found = [
        reader.found(run, extraction, dict(glyph_map or {}), edition_id, name)
        for run in reader.figures(runs)
    ]
    check_unique(found, source_name)
    skipped = reader.skipped + sum(
        len(i.strokes) for i in reader.items if isinstance(i, Run) and not i.is_pattern
    )
    return Extraction(
        tuple(found),
        name,
        extraction.provenance,
        extraction.source_lines,
        skipped=skipped,
        glyphs=tuple(sorted((glyph_map or {}).items())),
        script=script_of(text) or "",
    )


#: A title line is short and holds no sentence: the page title of a web copy, a book's heading.
MAX_TITLE = 40
#: What a web page adds to a book's title: " - 第 38 页/共 40 页", " | site", " — site".
_TITLE_TAIL = re.compile(r"\s+[-|—–]\s.*$")


def title_of(text: str) -> str:
    """The title the passage gives itself on its first line (禮記訓纂 · 禮記訓纂卷四十, or a web
    page's 礼经本义 - 第 38 页), or "": a short line of no sentence, stroke or label (魯鼓,
    《魯》鼓), nor the heading 鼓."""
    for line in text.split("\n"):
        if line.startswith("#"):
            continue
        line = line.strip(lexer.SPACES + lexer.INVISIBLE + "¶")
        if not line:
            continue
        line = _TITLE_TAIL.sub("", line).strip()
        if (
            len(line) > MAX_TITLE
            or any(c in line for c in "。；;！!？?：:，,「」『』")
            or any(glyphs.canonical(c) in (glyphs.CIRCLE, glyphs.SQUARE) for c in line)
            or lexer.Tables().label_regex.search(line)
            or line in lexer.DRUM_CHARS  # the heading 鼓 of the first figure
            or not any(lexer.is_ideograph(c) for c in line)
        ):
            return ""
        return line
    return ""


_SOURCE = re.compile(
    r"(?P<kanripo>KR\w+)|file (?P<file>[^\s,]+)|lines (?P<lines>\d+(?:-\d+)?)"
    r"|commit (?P<commit>\w+)"
)


def _provenance(fields: dict[str, str], source_name: str, name: str) -> Provenance:
    found: dict[str, str] = {}
    for match in _SOURCE.finditer(fields.get("source", "")):
        for key, value in match.groupdict().items():
            if value and key not in found:
                found[key] = value
    title = name.strip() or source_name.strip()
    work: Work | None = None
    cited: dict[str, str] = {}
    if found and title:
        work = Work(title)
    elif name.strip() and source_name and source_name != name:
        # no Kanripo id, file or lines: the work the passage names, read from its file (composed
        # in the reader's language: 《投壺》（錄文 passage.txt）)
        work = Work(name.strip())
        cited = {"transcription": source_name}
    else:
        # either alone where it is all there is, written once
        cited = {"written": name or source_name}
    return Provenance(
        **cited,
        work=work,
        file=source_name,
        kanripo=found.get("kanripo", ""),
        kanripo_file=found.get("file", ""),
        lines=found.get("lines", ""),
        commit=found.get("commit", ""),
        licence=fields.get("licence", ""),
    )


def _offset(text: str) -> tuple[int, int] | None:
    """(first Kanripo line, offset from file line to Kanripo line) when the header gives lines."""
    match = re.search(r"lines ([^\s,-]+)-([^\s,-]+)", lexer.header(text).get("source", ""))
    first, last = (whole_text(match[1]), whole_text(match[2])) if match else (None, None)
    if first is None or last is None:
        return None
    start = lexer.body_start(text)
    body = text.splitlines()[start - 1 :]  # the lines line_starts counts
    while body and not body[-1].strip():
        body.pop()
    if len(body) != last - first + 1:
        return None
    return (first, first - start)
