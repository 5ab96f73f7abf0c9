"""Finding the drum scores in a passage as an edition prints it, with their labels and lines.

The passage is read in two steps. The lexer (`lexer.tokens`) turns it into typed tokens with their
source offsets; this module's parser reads figures from them:

- a *run* is strokes and 半, with what may stand inside a printed pattern between them: spaces,
  line and page breaks, markup, notes and punctuation (a sentence end between two strokes divides
  them, unless 半 stands beside it);
- a *figure* is an unbroken chain of runs and labels: the first figure is a heading 鼓, then each
  pattern followed by its label; the second has each label before its pattern. 魯 comes first,
  then 薛, which settles a label that is not recognised.

Every diagnostic points at a token's own position in the file.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field

from drumscore import glyphs
from drumscore.apparatus.names import script_of
from drumscore.display import char_name
from drumscore.editions import lexer
from drumscore.editions.lexer import Kind, Token
from drumscore.errors import ExtractError, NotationError, OptionError
from drumscore.i18n import _, list_text, ngettext
from drumscore.model import (
    STATE_SPELLINGS,
    Position,
    PrintedNote,
    Provenance,
    Score,
    State,
    line_starts,
)
from drumscore.notation import parse
from drumscore.timing import whole_text

#: A run shorter than this, with no 半 and one drum only, is prose (釋文's lone ○, 口 for mouth).
MIN_STROKES = 3
#: Text between two runs at most this long (without spaces and punctuation) interrupts them.
MAX_INTERRUPTION = 2
FOLLOWS, PRECEDES = "follows", "precedes"
#: Tokens that may stand inside a pattern between its strokes.
_INSIDE = frozenset(
    {
        Kind.SPACE,
        Kind.INDENT,
        Kind.LINE,
        Kind.PAGE,
        Kind.MARKUP,
        Kind.NOTE,
        Kind.PUNCT,
        Kind.INVISIBLE,
        Kind.FOOTNOTE,
        Kind.ASIDE,
    }
)
#: What the report of a pattern lists as joined (the rest, spaces and ¶, is not worth a line).
_REPORTED = {
    Kind.LINE: "line break",
    Kind.PAGE: "page break",
    Kind.PUNCT: "punctuation",
    Kind.FOOTNOTE: "footnote mark",
    Kind.INVISIBLE: "invisible character",
    Kind.ASIDE: "translation line",
}
_STATES = tuple(State)


@dataclass(frozen=True, slots=True)
class Joined:
    """Something read through to get a pattern: a line or page break, punctuation or a note."""

    kind: str
    text: str
    pos: Position


@dataclass(frozen=True, slots=True)
class Found:
    """One pattern found in a passage: the score, its label and where both stand in the file.

    `remarks` say how the pattern was read where that is not plain (a label read by position);
    `doubts` say why it may be wrong (only in a partial reading; otherwise they are errors).
    """

    score: Score
    label: str
    label_pos: Position | None
    start: Position
    end: Position
    label_side: str
    notes: tuple[PrintedNote, ...] = ()
    note_positions: tuple[Position, ...] = ()
    joined: tuple[Joined, ...] = ()
    remarks: tuple[str, ...] = ()
    doubts: tuple[str, ...] = ()

    @property
    def lines(self) -> tuple[int, int]:
        return (self.start.line, self.end.line)

    @property
    def doubtful(self) -> bool:
        return bool(self.doubts)

    def joined_summary(self) -> str:
        """E.g. "2 line breaks, 1 page break, punctuation ，。, 1 note", in the reader's language
        (the kinds themselves stay English: they are data in JSON)."""
        parts = []
        n = sum(1 for j in self.joined if j.kind == "line break")
        if n:
            parts.append(ngettext("{n} line break", "{n} line breaks", n).format(n=n))
        n = sum(1 for j in self.joined if j.kind == "page break")
        if n:
            parts.append(ngettext("{n} page break", "{n} page breaks", n).format(n=n))
        punct = "".join(j.text for j in self.joined if j.kind == "punctuation")
        if punct:
            parts.append(_("punctuation {marks}").format(marks=punct))
        marks = [j.text for j in self.joined if j.kind == "footnote mark"]
        if marks:
            n = len(marks)
            text = ngettext("footnote mark {marks}", "footnote marks {marks}", n)
            parts.append(text.format(marks=" ".join(marks)))
        n = sum(1 for j in self.joined if j.kind == "translation line")
        if n:
            parts.append(ngettext("{n} translation line", "{n} translation lines", n).format(n=n))
        unseen = sorted({j.text for j in self.joined if j.kind == "invisible character"})
        if unseen:
            parts.append(_("invisible characters ({names})").format(names=list_text(unseen)))
        n = len(self.notes)
        if n:
            parts.append(ngettext("{n} note", "{n} notes", n).format(n=n))
        return list_text(parts)


@dataclass(frozen=True, slots=True)
class Extraction:
    """What a passage holds: its scores in reading order, and where the passage comes from."""

    scores: tuple[Found, ...]
    name: str
    provenance: Provenance
    source_lines: tuple[int, int] | None = None
    #: Strokes read as part of the prose: lone ○ of glosses, □ headwords, 〇 zeros, lost text.
    skipped: int = 0
    #: The glyph mapping the passage was read with (each sign and the stroke it stands for).
    glyphs: tuple[tuple[str, str], ...] = ()
    #: The script the passage is written in ("traditional", "simplified"; "" if it does not tell).
    script: str = ""

    def kanripo_lines(self, found: Found) -> str:
        """The line range of a score in the Kanripo file the passage was copied from, if known."""
        if self.source_lines is None:
            return ""
        _first, offset = self.source_lines
        a, b = found.lines
        return line_range(a + offset, b + offset)

    def kanripo_line(self, line: int) -> int:
        """The Kanripo line number of a line of the passage file (the same line if not known)."""
        return line + self.source_lines[1] if self.source_lines else line

    @property
    def doubtful(self) -> bool:
        return any(f.doubtful for f in self.scores)


def line_range(first: int, last: int, *, words: bool = False) -> str:
    """Lines `first` to `last`: "3-5" or "3" (data, as edition files write it); with `words`,
    "lines 3-5" or "line 3" in the reader's language."""
    if first == last:
        return _("line {line}").format(line=first) if words else str(first)
    if words:
        return _("lines {first}-{last}").format(first=first, last=last)
    return f"{first}-{last}"


def parse_glyph_options(specs: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """Glyph mappings written `X=○` as a mapping from X to ○ or □ (see glyphs.mapping_refusal)."""
    mapping: dict[str, str] = {}
    given: dict[str, str] = {}
    for spec in specs or ():
        glyph, sep, target = spec.partition("=")
        glyph, target = glyph.strip() or glyph, target.strip()
        if not sep or len(glyph) != 1 or len(target) != 1:
            raise OptionError(
                _(
                    "glyph {spec!r} is not of the form X=○ or X=□ (one character, then = and the "
                    "stroke it stands for)"
                ).format(spec=spec),
                option="glyph",
            )
        reason = glyphs.mapping_refusal(glyph, target)
        if reason and target not in glyphs.GLYPH_TARGETS:
            raise OptionError(
                _("glyph {spec!r}: {reason}").format(spec=spec, reason=reason), option="glyph"
            )
        if reason:
            raise OptionError(
                _(
                    "glyph {spec!r}: {reason}; a glyph mapping is for a sign that the "
                    "transcription draws strokes with, such as ●=○"
                ).format(spec=spec, reason=reason),
                option="glyph",
            )
        if glyph in mapping and mapping[glyph] != target:
            raise OptionError(
                _(
                    "glyph {first!r} and {spec!r} read {glyph!r} two ways; "
                    "keep the one the transcription means"
                ).format(first=given[glyph], spec=spec, glyph=glyph),
                option="glyph",
            )
        mapping[glyph] = target
        given[glyph] = spec
    return mapping


def parse_label_options(specs: Iterable[str] | None) -> dict[str, str]:
    """Label readings written `X=薛` as a mapping from the character X to the state 魯 or 薛."""
    mapping: dict[str, str] = {}
    for spec in specs or ():
        char, sep, state = spec.partition("=")
        char, state = char.strip(), state.strip()
        for drum in lexer.DRUM_CHARS:
            if len(char) == 2 and char.endswith(drum):
                char = char[0]
        resolved = STATE_SPELLINGS.get(state.casefold())
        if not sep or len(char) != 1 or resolved is None:
            raise OptionError(
                _(
                    "label {spec!r} is not of the form X=魯 or X=薛 (the character printed "
                    "before 鼓 in the label, then = and the state it stands for)"
                ).format(spec=spec),
                option="label",
            )
        if char in lexer.DRUM_CHARS or glyphs.canonical(char) is not None or char.isspace():
            raise OptionError(
                _(
                    "label {spec!r}: {char!r} is notation or the 鼓 of a label, not the state "
                    "character of a label"
                ).format(spec=spec, char=char),
                option="label",
            )
        known = lexer.STATE_CHARS.get(char)
        if known is not None and known != resolved:
            raise OptionError(
                _(
                    "label {spec!r}: {char!r} is always read as {known}; it cannot be read as "
                    "{resolved}"
                ).format(spec=spec, char=char, known=known, resolved=resolved),
                option="label",
            )
        if mapping.get(char, resolved) != resolved:
            raise OptionError(
                _("label {spec!r} reads {char!r} a second way; keep one").format(
                    spec=spec, char=char
                ),
                option="label",
            )
        mapping[char] = resolved
    return mapping


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
    reader = _Reader(text, lexer.Tables(glyph_map, labels), partial)
    reader.read()
    runs = [i for i in reader.items if isinstance(i, _Run) and i.is_pattern]
    if not runs:
        raise _no_notation(reader, source_name)
    extraction = Extraction((), name, _provenance(fields, source_name, name), _offset(text))
    found = [
        reader.found(run, extraction, dict(glyph_map or {}), edition_id, name)
        for run in reader.figures(runs)
    ]
    _check_unique(found, source_name)
    skipped = reader.skipped + sum(
        len(i.strokes) for i in reader.items if isinstance(i, _Run) and not i.is_pattern
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
    page's 礼经本义 - 第 38 页), or "": a short line of no sentence, stroke or label."""
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
            or re.search(f"[{''.join(lexer.STATE_CHARS)}][{lexer.DRUM_CHARS}]", line)
            or not any(lexer.is_ideograph(c) for c in line)
        ):
            return ""
        return line
    return ""


def _no_notation(reader: _Reader, source_name: str) -> ExtractError:
    if source_name:
        found = _("no drum notation found in {source}").format(source=source_name)
    else:
        found = _("no drum notation found")
    labels = [i for i in reader.items if isinstance(i, _Label) and i.kind == Kind.LABEL]
    halves = _layout_halves(reader.source, reader.tables)
    if labels and halves:
        first, half = reader.position(labels[0].token.start), reader.position(halves[0])
        return ExtractError(
            _(
                "{found}: the layout of the figures is there — {labels} labels ({label} at line "
                "{line}, column {column}, …) and {halves} 半 marks standing apart from the prose "
                "(line {half_line}, column {half_column}, …) — but not one ○ (鼙) or □ (鼓) "
                "stroke: the shapes were lost in the transcription, so no score can be read "
                "from it. Take the passage from another transcription or a facsimile; if this "
                "one draws the strokes with other signs, map them to strokes: X=○ / X=□"
            ).format(
                found=found,
                labels=len(labels),
                label=reader._text(labels[0].token),
                line=first.line,
                column=first.column,
                halves=len(halves),
                half_line=half.line,
                half_column=half.column,
            ),
            option="glyph",
        )
    runs = [i for i in reader.items if isinstance(i, _Run)]
    if runs and not labels:
        signs = sum(len(r.strokes) for r in runs)
        first = reader.position(runs[0].first)
        if source_name:
            where = _("no score here in {source}").format(source=source_name)
        else:
            where = _("no score here")
        return ExtractError(
            ngettext(
                "{where}: the text has {n} ○/□ sign (the first at line {line}, column {column}), "
                "but none stands in a drum pattern: no run of them has 半 or a 魯鼓/薛鼓 label "
                "near it, as list bullets (○), marks for characters that could not be typed (□), "
                "glosses (○圜音圓) and numbers (二〇〇) do not. If a pattern is there, include "
                "its label in the passage",
                "{where}: the text has {n} ○/□ signs (the first at line {line}, column {column}), "
                "but none stands in a drum pattern: no run of them has 半 or a 魯鼓/薛鼓 label "
                "near it, as list bullets (○), marks for characters that could not be typed (□), "
                "glosses (○圜音圓) and numbers (二〇〇) do not. If a pattern is there, include "
                "its label in the passage",
                signs,
            ).format(where=where, n=signs, line=first.line, column=first.column)
        )
    if labels:
        first = reader.position(labels[0].token.start)
        return ExtractError(
            _(
                "{found}: the text names the scores ({label} at line {line}, column {column}) "
                "but prints no run of ○ (鼙) and □ (鼓) strokes; it discusses the drum figures "
                "without printing them. If the transcription draws the strokes with other "
                "signs, map them to strokes: X=○ / X=□"
            ).format(
                found=found,
                label=reader.source[labels[0].token.start : labels[0].token.end],
                line=first.line,
                column=first.column,
            ),
            option="glyph",
        )
    return ExtractError(
        _(
            "{found}: no run of ○ (鼙) and □ (鼓) strokes. If the transcription draws the "
            "strokes with other signs, map them to strokes: X=○ / X=□"
        ).format(found=found),
        option="glyph",
    )


def _layout_halves(source: str, tables: lexer.Tables) -> list[int]:
    """The offsets of the 半 marks that stand apart from the prose (no text on either side, as
    in a figure whose shapes are lost); 半 in 取半以下 is a word of the prose."""
    skip = (Kind.SPACE, Kind.INDENT, Kind.MARKUP)
    toks = [t for t in lexer.tokens(source, tables) if t.kind not in skip]
    found = []
    for i, t in enumerate(toks):
        if t.kind != Kind.HALF:
            continue
        before = toks[i - 1].kind if i else None
        after = toks[i + 1].kind if i + 1 < len(toks) else None
        if Kind.OTHER not in (before, after):
            found.append(t.start)
    return found


@dataclass(slots=True)
class _Run:
    """A run of strokes being read: its strokes and 半 marks, and what stands between them."""

    first: int  # offset of the first stroke
    last: int = 0  # offset of the last stroke
    strokes: list[str] = field(default_factory=list)  # canonical ○/□
    halves: list[tuple[int, int]] = field(default_factory=list)  # (offset, strokes before)
    printed: list[str] = field(default_factory=list)
    joined: list[Token] = field(default_factory=list)
    notes: list[tuple[int, str, int]] = field(default_factory=list)  # (after, text, offset)
    lead_half: int | None = None  # offset of a 半 before the first stroke
    trail_half: int | None = None  # offset of a 半 after the last stroke
    trailing_notes: list[Token] = field(default_factory=list)
    #: footnote marks and invisible characters after the last stroke (read through to a label)
    trailing_marks: list[Token] = field(default_factory=list)
    #: (strokes, printed, joined, halves, last) at the last line break inside the run
    cut: tuple | None = None
    blank_before: bool = False  # only a blank line (and spacing) since the previous run
    adjacent: bool = False  # only spacing, markup, notes or punctuation since the previous item
    #: no 半 and no label near: list bullets (○), characters that could not be typed (□)
    prose: bool = False
    #: the text that ended the run, if text did
    ended_by: Token | None = None
    #: no text since the item before it (spacing, blank lines and punctuation only)
    untexted: bool = False

    @property
    def is_pattern(self) -> bool:
        """Long enough, and with 半 inside or both drums: not a lone ○ or 口 of the prose; and
        without 半, beside a label (or a divided run of the figure): not bullets or lost text."""
        if len(self.strokes) < MIN_STROKES or self.prose:
            return False
        return bool(self.halves) or len(set(self.strokes)) == 2


@dataclass(slots=True)
class _Label:
    kind: str  # Kind.LABEL, Kind.ULABEL or Kind.DRUM
    token: Token
    adjacent: bool = False

    @property
    def state(self) -> str:
        return self.token.value if self.kind == Kind.LABEL else ""


@dataclass(slots=True)
class _Divider:
    """Sentence-end punctuation between two runs: it divides them. `between` holds every token
    between the two runs, the stop among them."""

    token: Token
    between: list[Token] = field(default_factory=list)
    adjacent: bool = True


@dataclass(slots=True)
class _Gap:
    """A little text between two runs (a character or two): it interrupts them."""

    token: Token
    adjacent: bool = False


class _Reader:
    """The parser: items (runs, labels, dividers) from the tokens, then figures from the items."""

    def __init__(self, source: str, tables: lexer.Tables, partial: bool) -> None:
        self.source = source
        self.tables = tables
        self.partial = partial
        self.items: list = []
        self._line_starts = line_starts(source)
        self._doubts: dict[int, list[str]] = {}  # id(run) → doubts
        self._remarks: dict[int, list[str]] = {}
        self._pairs: dict[int, tuple] = {}  # id(run) → (label item, side, figure, state)
        self._gaps: list[tuple] = []  # (run, run, gap) for text between two runs
        self.skipped = 0  # strokes read as part of the prose

    def position(self, offset: int) -> Position:
        return Position.at(offset, self._line_starts)

    def error(
        self, offset: int, reason: str, hint: str, *, option: str | None = None
    ) -> NotationError:
        pos = self.position(offset)
        return NotationError(
            reason,
            text=self.source,
            line=pos.line,
            column=pos.column,
            hint=_("hint: {hint}").format(hint=hint),
            option=option,
        )

    # --- items from tokens -------------------------------------------------------------------

    def read(self) -> None:
        items = self.items
        run: _Run | None = None
        pending: list[Token] = []  # tokens after the run's last stroke or 半
        adjacent = False  # nothing but spacing since the last item
        blank = False  # a blank line since the last run, and nothing else
        half: Token | None = None  # a 半 outside a run, with only spacing after it
        before: Token | None = None  # text just before, with only spacing since
        texted = False  # text since the last item
        for token in self._tokens():
            kind = token.kind
            if kind == Kind.OTHER:  # the commonest token first
                if run is not None:
                    if not any(t.kind == Kind.PUNCT for t in pending):
                        self._check_neighbour(token, 1)
                    self._cut_tail(run, pending, token)
                    self._close(run, pending)
                    run.ended_by = token
                    run, pending = None, []
                    value = token.value
                    if len(value) < 16 and len(_bare(value)) <= MAX_INTERRUPTION:
                        items.append(_Gap(token))
                elif items and isinstance(items[-1], _Gap) and items[-1].token.end == token.start:
                    items.pop()
                half = None
                before = token
                adjacent = blank = False
                texted = True
            elif kind == Kind.STROKES:
                if run is not None:
                    stop = _stop(pending) if run.trail_half is None else None
                    if stop is not None:
                        self._close(run, pending)
                        items.append(_Divider(stop, list(pending)))
                        run = None
                    else:
                        self._absorb(run, pending)
                if run is None:
                    if before is not None:
                        self._check_neighbour(before, -1)
                    run = _Run(
                        token.start, adjacent=adjacent, blank_before=blank, untexted=not texted
                    )
                    if half is not None:
                        run.lead_half = half.start
                    gap = items[-1] if items and isinstance(items[-1], _Gap) else None
                    if gap is not None and gap.token is before and len(items) > 1:
                        self._gaps.append((items[-2], run, gap))
                    items.append(run)
                run.strokes.extend(token.value)
                run.printed.append(self.source[token.start : token.end])
                run.last = token.end - 1
                run.trail_half = None
                pending = []
                half = before = None
                adjacent = True
                texted = False
                blank = False
            elif kind == Kind.HALF:
                if run is not None:
                    self._absorb(run, pending)
                    pending = []
                    run.halves.append((token.start, len(run.strokes)))
                    run.printed.append(token.value)
                    run.trail_half = token.start
                else:
                    half = token
                before = None
            elif kind in _INSIDE:
                if run is not None:
                    pending.append(token)
                elif kind == Kind.PUNCT:
                    half = before = None
            elif kind in (Kind.BLANK, Kind.HEADER):
                if run is not None:
                    self._close(run, pending)
                    run, pending = None, []
                    blank = True
                half = before = None
                # a paragraph break ends a run of strokes, but not its figure: a copy made for
                # the web may print each pattern in its own paragraph, the label after a pattern
                # opening the next one; after a label (a heading line 魯鼓 薛鼓 above the
                # figure) and after a header line it ends the figure
                adjacent = (
                    adjacent and kind == Kind.BLANK and bool(items) and isinstance(items[-1], _Run)
                )
            else:  # a label, or the heading 鼓
                if run is not None:
                    self._close(run, pending)
                    run, pending = None, []
                items.append(_Label(kind, token, adjacent))
                half = before = None
                adjacent = True
                texted = False
                blank = False
        if run is not None:
            self._close(run, pending)
        self._join_across_stops()
        self._mark_prose()

    def _join_across_stops(self) -> None:
        """A stroke or two cut off from a pattern by a sentence end, with a label on their other
        side, are the pattern's: a modern editor's full stop that fell a stroke early or late
        (「…○□。○魯鼓」, 「魯鼓：○。□○…」). Read in order, with a remark; the strokes are never
        a pattern of their own there."""
        items = self.items
        index = 0
        for a, b in itertools.pairwise(items):
            if not (isinstance(a, _Run) and isinstance(b, _Run) and b.blank_before and b.adjacent):
                continue
            if _short(b) and len(a.strokes) >= MIN_STROKES:
                self._tail_after_stop(a, None, b)
            elif _short(a) and len(b.strokes) >= MIN_STROKES:
                self._first_strokes_doubt(
                    a,
                    b,
                    _(
                        "{strokes!r} at line {line}, column {column}, before the paragraph break "
                        "that opens the pattern on {lines}, may be its first strokes"
                    ),
                )
        while index < len(items):
            if not isinstance(items[index], _Run):
                index += 1
                continue
            # runs divided by sentence ends, one after another
            last = index
            while (
                last + 2 < len(items)
                and isinstance(items[last + 1], _Divider)
                and isinstance(items[last + 2], _Run)
            ):
                last += 2
            group = items[index : last + 1 : 2]
            dividers = items[index + 1 : last : 2]
            whole = [k for k, run in enumerate(group) if not _short(run)]
            if len(group) == 1 or len(whole) != 1:
                index = last + 1
                continue
            (k,) = whole
            before = items[index - 1] if index else None
            after = items[last + 1] if last + 1 < len(items) else None
            head = k > 0 and group[0].adjacent and isinstance(before, _Label)
            tail = k < len(group) - 1 and isinstance(after, _Label) and after.adjacent
            first, end = (0 if head else k), (len(group) - 1 if tail else k)
            if first == end:
                index = last + 1
                continue
            run = group[first]
            moved = sum(len(r.strokes) for r in group[first : end + 1]) - len(group[k].strokes)
            marks = [dividers[m] for m in range(first, end)]
            for m in range(first, end):
                self._join(run, dividers[m], group[m + 1])
            for said in (self._doubts, self._remarks):
                if run is not group[k] and id(group[k]) in said:
                    said.setdefault(id(run), []).extend(said.pop(id(group[k])))
            start = index + 2 * first
            del items[start + 1 : index + 2 * end + 1]
            self._remarks.setdefault(id(run), []).append(
                ngettext(
                    "{n} stroke stood across the full stop {mark!r} at line {line}, column "
                    "{column}; read in order",
                    "{n} strokes stood across the full stops {mark!r} from line {line}, column "
                    "{column}; read in order",
                    moved,
                ).format(
                    n=moved,
                    mark="".join(d.token.value for d in marks),
                    line=self.position(marks[0].token.start).line,
                    column=self.position(marks[0].token.start).column,
                )
            )
            index = start + 1
        self._doubt_divided()

    def _doubt_divided(self) -> None:
        """Strokes on the other side of a sentence end from a pattern, too few or all on one drum
        to be a pattern: the pattern's own, or text. Never left out silently, but for a mark
        before a pattern that prose precedes (○ opening a section) and a gloss after one."""
        items = self.items
        for index, run in enumerate(items):
            if not (isinstance(run, _Run) and _shaped(run)):
                continue
            # forward: strokes after sentence ends or a paragraph break, before any text
            j = index + 1
            stop = None
            while j < len(items) and isinstance(items[j], _Divider):
                stop = stop or items[j]
                j += 1
            nxt = items[j] if j < len(items) else None
            if (
                isinstance(nxt, _Run)
                and not _shaped(nxt)
                and nxt.untexted
                and (stop is not None or nxt.blank_before)
            ):
                last = nxt
                k = j + 1
                while k + 1 < len(items) and isinstance(items[k], _Divider):
                    if not (isinstance(items[k + 1], _Run) and not _shaped(items[k + 1])):
                        break
                    last = items[k + 1]
                    k += 2
                after = items[k] if k < len(items) else None
                if not (isinstance(after, _Label) and after.adjacent):
                    self._tail_after_stop(run, stop, nxt, last)
            # backward: strokes between a label and the sentence end before the pattern
            j = index - 1 if run.untexted else -1
            first = None
            while j >= 0 and (
                isinstance(items[j], _Divider)
                or (isinstance(items[j], _Run) and not _shaped(items[j]) and items[j].untexted)
            ):
                if isinstance(items[j], _Run):
                    first = items[j]
                j -= 1
            if first is not None and j >= 0 and isinstance(items[j], _Label):
                self._first_strokes_doubt(
                    first,
                    run,
                    _(
                        "{strokes!r} at line {line}, column {column}, before the full stop or "
                        "paragraph break that opens the pattern on {lines}, may be its first "
                        "strokes"
                    ),
                )

    def _first_strokes_doubt(self, few: _Run, pattern: _Run, message: str) -> None:
        """`few` strokes cut off before `pattern` (by `message`'s break) may be its first."""
        pos = self.position(few.first)
        self._doubt(
            pattern,
            message.format(
                strokes="".join(few.strokes),
                line=pos.line,
                column=pos.column,
                lines=self._lines(pattern),
            ),
            _(
                "check the edition: if they are strokes, join them to the pattern; if "
                "not, separate them from it"
            ),
        )

    def _tail_after_stop(
        self, a: _Run, divider: _Divider | None, b: _Run, last: _Run | None = None
    ) -> None:
        """A stroke or two after a sentence end (or a paragraph break) that ends a pattern, with
        text after them: the pattern's last strokes, or a mark that opens the text (as ○ opens a
        gloss). Left to the prose only when the text is a gloss or a number; else a doubt."""
        ended_by = (last or b).ended_by
        word = (ended_by.value if ended_by is not None else "").lstrip(lexer.SPACES)[:4]
        if word and (any(c in lexer.GLOSS for c in word) or word[0] in lexer.NUMERALS):
            return
        pos = self.position(b.first)
        tail = "".join(b.strokes)
        if divider is None:
            reason = _(
                "{tail!r} at line {line}, column {column}, after the paragraph break that ends "
                "the pattern, may be its last strokes or a mark that opens the text after it"
            ).format(tail=tail, line=pos.line, column=pos.column)
        else:
            stop = self.position(divider.token.start)
            reason = _(
                "{tail!r} at line {line}, column {column}, after the full stop {mark!r} that "
                "ends the pattern (line {stop_line}, column {stop_column}), may be its last "
                "strokes or a mark that opens the text after it"
            ).format(
                tail=tail,
                line=pos.line,
                column=pos.column,
                mark=divider.token.value,
                stop_line=stop.line,
                stop_column=stop.column,
            )
        if not self.partial:
            raise self.error(
                b.first,
                reason,
                _(
                    "check the edition: if they are strokes, join them to the pattern; if they "
                    "open the text after the pattern, separate them from it"
                ),
                option="partial",
            )
        self._doubts.setdefault(id(a), []).append(reason)

    def _join(self, a: _Run, divider: _Divider, b: _Run) -> None:
        """Run `b` read on as the rest of run `a`, through what stood between them."""
        a.trailing_notes, a.trailing_marks = [], []
        self._absorb(a, divider.between)
        shift = len(a.strokes)
        a.strokes.extend(b.strokes)
        a.printed.extend(b.printed)
        a.joined.extend(b.joined)
        a.notes.extend((after + shift, text, offset) for after, text, offset in b.notes)
        a.halves.extend((offset, before + shift) for offset, before in b.halves)
        a.last, a.trail_half = b.last, b.trail_half
        a.trailing_notes, a.trailing_marks = b.trailing_notes, b.trailing_marks
        a.cut = None

    def _tokens(self) -> Iterator[Token]:
        """The passage's tokens, each translation line of a bilingual file one ASIDE token."""
        asides = lexer.translation_lines(self.source, self.tables)
        if not asides:
            yield from lexer.tokens(self.source, self.tables)
            return
        spans = iter(asides)
        span = next(spans, None)
        for token in lexer.tokens(self.source, self.tables):
            while span is not None and token.start >= span[1]:
                span = next(spans, None)
            if span is None or token.start < span[0]:
                yield token
            elif token.start == span[0] or token.kind == Kind.LINE:
                if token.kind == Kind.LINE:
                    span = next(spans, None)
                    yield token
                else:
                    yield Token(Kind.ASIDE, span[0], span[1], self.source[span[0] : span[1]])

    def _mark_prose(self) -> None:
        """Runs without 半 that stand beside no label are prose: ○ bullets, □ for lost text."""
        items = self.items
        for index, item in enumerate(items):
            if not isinstance(item, _Run) or not item.is_pattern:
                continue
            if item.halves or item.lead_half is not None or item.trail_half is not None:
                continue
            before = items[index - 1] if index else None
            after = items[index + 1] if index + 1 < len(items) else None
            if (item.blank_before and item.adjacent and isinstance(before, _Run)) or (
                isinstance(after, _Run) and after.blank_before and after.adjacent
            ):
                continue  # a paragraph break inside a pattern: the strokes go on across it
            near = (item.adjacent and isinstance(before, (_Label, _Divider))) or (
                isinstance(after, (_Label, _Divider)) and after.adjacent
            )
            item.prose = not near

    def _absorb(self, run: _Run, pending: list[Token]) -> None:
        """The tokens between two strokes (or a stroke and 半) belong to the pattern."""
        after = len(run.strokes)
        source = self.source
        for t in pending:
            if t.kind == Kind.SPACE:
                run.printed.append(source[t.start : t.end].replace("\r", ""))
            elif t.kind == Kind.NOTE:
                self._note(run, after, t)
            elif t.kind in _REPORTED:
                if t.kind == Kind.LINE:
                    cut = (len(run.strokes), len(run.printed), len(run.joined), len(run.halves))
                    run.cut = (*cut, run.last)
                run.joined.append(t)

    def _cut_tail(self, run: _Run, pending: list[Token], text: Token) -> None:
        """A stroke or two that begin a line and run into the prose are the prose's: a gloss
        (○圜音圓), a headword (□，方鼓), a number (○○), a word (口徑) after a pattern that ends
        at the end of the line before. The remark says what was left out."""
        if run.cut is None:
            return
        strokes, printed, joined, halves, last = run.cut
        tail = run.strokes[strokes:]
        if not 1 <= len(tail) <= 2 or len(run.halves) != halves or strokes < MIN_STROKES:
            return
        punctuated = any(t.kind == Kind.PUNCT for t in pending)
        word = text.value.lstrip(lexer.SPACES)[:4]
        gloss = any(c in lexer.GLOSS for c in word) or word[:1] in lexer.NUMERALS
        offset = run.joined[joined].end
        while self.source[offset] not in self.tables.stroke_chars:
            offset += 1
        first = self.position(offset)
        after = next((t for t in pending if t.kind not in (Kind.SPACE, Kind.MARKUP)), text)
        if (after.kind == Kind.PUNCT and after.value in lexer.STOP) or after.kind == Kind.NOTE:
            # ○。 or ○（…）: a gloss ○ is followed by its words, so this is the last stroke
            remark = ngettext(
                "read {tail!r} at line {line}, column {column} as the pattern's last stroke: "
                "{follows} follows, where a gloss would go on with its words",
                "read {tail!r} at line {line}, column {column} as the pattern's last strokes: "
                "{follows} follows, where a gloss would go on with its words",
                len(tail),
            )
            follows = _("a note") if after.kind == Kind.NOTE else repr(after.value)
            self._remarks.setdefault(id(run), []).append(
                remark.format(
                    tail="".join(tail), line=first.line, column=first.column, follows=follows
                )
            )
            return
        if after.kind in (Kind.LINE, Kind.PAGE) and not gloss:
            # alone on its line, then prose: a last stroke, or a mark that opens the prose
            reason = _(
                "{tail!r} alone at the start of line {line} after the pattern may be its last "
                "stroke or a mark that opens the text after it (as ○ opens a gloss)"
            ).format(tail="".join(tail), line=first.line)
            hint = _(
                "check the edition: if it is a stroke, join it to the line before; if it "
                "opens the text after the pattern, put that text on its line"
            )
            self._doubt(run, reason, hint, at=offset, kept=_as_stroke(reason))
            return
        # 釋文's headwords: ○，圜鼙 / □，方鼓 (the word after names the sign)
        headword = punctuated and word[:1] in lexer.SIGN_WORDS
        if not (headword or gloss):
            # ○此二者…: a stroke that begins a line and runs into words may be the pattern's
            # last one as well as a mark that opens them; it is not left out silently
            reason = _(
                "{tail!r} at the start of line {line}, running into the text after the pattern, "
                "may be its last stroke or a mark that opens that text"
            ).format(tail="".join(tail), line=first.line)
            hint = _(
                "check the edition: if it is a stroke, join it to the line before; if it "
                "opens the text after the pattern, separate it from the pattern"
            )
            self._doubt(run, reason, hint, at=offset, kept=_as_stroke(reason))
            return
        del run.strokes[strokes:], run.printed[printed:], run.joined[joined:]
        run.last = last
        run.trail_half = None
        pending.clear()
        self.skipped += len(tail)
        self._remarks.setdefault(id(run), []).append(
            _(
                "left out {tail!r} at line {line}, column {column}: it begins the text that "
                "follows the pattern"
            ).format(tail="".join(tail), line=first.line, column=first.column)
        )

    def _note(self, run: _Run, after: int, token: Token) -> None:
        """Notes at one place, split only by line or page breaks, are one note."""
        if run.notes and run.notes[-1][0] == after:
            a, text, offset = run.notes[-1]
            run.notes[-1] = (a, text + token.value, offset)
        else:
            run.notes.append((after, token.value, token.start))

    def _close(self, run: _Run, pending: list[Token]) -> None:
        if run.trail_half is not None:
            run.halves.pop()
            run.printed.pop()
        run.trailing_notes = [t for t in pending if t.kind == Kind.NOTE]
        run.trailing_marks = [t for t in pending if t.kind in (Kind.FOOTNOTE, Kind.INVISIBLE)]

    def _check_neighbour(self, token: Token, step: int) -> None:
        """A symbol-like character touching a run of strokes is likely an unmapped stroke."""
        text = token.value
        stripped = text.strip(lexer.SPACES) if step > 0 else text.rstrip(lexer.SPACES)
        if not stripped:
            return
        ch = stripped[0] if step > 0 else stripped[-1]
        if lexer.is_ideograph(ch):
            return
        if glyphs.is_symbol_like(ch) or ch in glyphs.CONFUSABLES:
            offset = token.start + text.index(ch) if step > 0 else token.start + text.rindex(ch)
            pos = self.position(offset)
            hint = _(
                "if it is a stroke, map the sign to one: {char}=○ (鼙) or {char}=□ (鼓); "
                "otherwise separate it from the pattern."
            ).format(char=ch)
            raise NotationError(
                _("unknown glyph {name} next to drum notation").format(name=char_name(ch)),
                text=self.source,
                line=pos.line,
                column=pos.column,
                hint=_("hint: {hint}").format(hint=hint),
                option="glyph",
            )

    # --- figures from items ------------------------------------------------------------------

    def figures(self, runs: list[_Run]) -> list[_Run]:
        """The patterns in reading order; their labels, sides and states in self._pairs."""
        items = self.items
        for index, item in enumerate(items):
            if isinstance(item, _Run) and len(item.strokes) >= MIN_STROKES:
                self._check_halves(item, index)
        for a, b, gap in self._gaps:
            if a.is_pattern or b.is_pattern:
                ch = _bare(gap.token.value)[0]
                offset = gap.token.start + gap.token.value.index(ch)
                hint = _(
                    "inside a pattern only strokes, 半, spaces, line breaks, punctuation, markup "
                    "and notes in brackets may stand; if it is a note, put it in brackets; if "
                    "it is a miscopied stroke, correct it"
                )
                if unicodedata.category(ch) in ("Cf", "Cc"):
                    hint = _(
                        "it is an invisible formatting character, such as web pages leave in "
                        "a text; only zero-width spaces and joiners, the byte order mark and the "
                        "soft hyphen are read through; delete it"
                    )
                reason = _("a run of strokes is interrupted by {name}").format(name=char_name(ch))
                raise self.error(offset, reason, hint)
        chains: list[list] = []
        previous = None
        for index, item in enumerate(items):
            if isinstance(item, _Divider):
                # a sentence end divides two patterns; beside prose strokes it is prose
                chainable = (
                    index > 0
                    and _is_pattern(items[index - 1])
                    and _is_pattern(items[index + 1] if index + 1 < len(items) else None)
                )
            else:
                chainable = _is_pattern(item) or isinstance(item, _Label)
            if not chainable:
                previous = None
                continue
            joins = (
                previous is not None
                and item.adjacent
                and not (isinstance(item, _Label) and isinstance(previous, _Label))
            )
            if joins:
                chains[-1].append(item)
            else:
                chains.append([item])
            previous = item
        order: list[_Run] = []
        for chain in chains:
            order.extend(self._figure(chain))
        return order

    def _check_halves(self, run: _Run, index: int) -> None:
        if len(run.halves) > 1 and run.is_pattern:
            (first, _before), (second, _after) = run.halves[:2]
            pos = self.position(first)
            raise self.error(
                second,
                _("a second 半 mark (the first is at line {line}, column {column})").format(
                    line=pos.line, column=pos.column
                ),
                _("a pattern is divided once; remove one of the 半 marks."),
            )
        for offset, edge in ((run.lead_half, "start"), (run.trail_half, "end")):
            if offset is None:
                continue
            if edge == "start":
                across = run.blank_before and index > 0 and isinstance(self.items[index - 1], _Run)
            else:
                nxt = self.items[index + 1] if index + 1 < len(self.items) else None
                across = isinstance(nxt, _Run) and nxt.blank_before
            if across:
                hint = _(
                    "a blank line ends a pattern; if the pattern goes on after it, remove the "
                    "blank line."
                )
            else:
                hint = _(
                    "半 divides a pattern, so strokes stand before and after it; check the "
                    "transcription against the edition and move 半 to where it is printed."
                )
            if edge == "start":
                reason = _("半 at the start of a run of strokes: 半 must stand between strokes")
            else:
                reason = _("半 at the end of a run of strokes: 半 must stand between strokes")
            raise self.error(offset, reason, hint)

    def _figure(self, chain: list) -> list[_Run]:
        """Read one chain: pair runs with labels, infer states, check the figure is whole."""
        for index, item in enumerate(chain):
            if isinstance(item, _Divider):
                if not self.partial:
                    raise self._divided(item, chain)
                pos = self.position(item.token.start)
                self._doubts.setdefault(id(chain[index - 1]), []).append(
                    _(
                        "divided from the strokes after it by {mark!r} at line {line}, column "
                        "{column}"
                    ).format(mark=item.token.value, line=pos.line, column=pos.column)
                )
        chain = [i for i in chain if not isinstance(i, _Divider)]
        runs = [i for i in chain if isinstance(i, _Run)]
        if not runs:
            return []
        first = chain[0]
        heading = None
        if isinstance(first, _Label) and (
            first.kind == Kind.DRUM
            or (first.kind == Kind.ULABEL and len(chain) % 2 == 1 and isinstance(chain[1], _Run))
        ):
            heading = chain.pop(0)
        if heading is not None or isinstance(chain[0], _Run):
            side, figure = FOLLOWS, 1
        else:
            side, figure = PRECEDES, 2
        pairs: list[tuple[_Run, _Label | None]] = []
        pending_label: _Label | None = None
        for item in chain:
            if isinstance(item, _Run):
                if side == FOLLOWS:
                    pairs.append((item, None))
                else:
                    pairs.append((item, pending_label))
                    pending_label = None
            elif side == FOLLOWS:
                if pairs and pairs[-1][1] is None and item.kind != Kind.DRUM:
                    pairs[-1] = (pairs[-1][0], item)
            elif item.kind != Kind.DRUM:
                pending_label = item
        states = self._states(pairs)
        labelled = [p for p, s in zip(pairs, states, strict=True) if s]
        for (run, label), state in zip(pairs, states, strict=True):
            self._pairs[id(run)] = (label, side, figure if state else None, state)
        for run, label in pairs:
            if label is None:
                self._doubt(
                    run,
                    _(
                        "the pattern on {lines} has no 魯鼓/薛鼓 label beside it and no place in "
                        "a figure"
                    ).format(lines=self._lines(run)),
                    _(
                        "write the label the edition prints beside it, or cut the fragment out "
                        "of the passage"
                    ),
                )
        if labelled:
            runs = [r for (r, _), s in zip(pairs, states, strict=True) if s]
            if len(runs) == 1 and side == PRECEDES:
                self._lone(runs[0])
            else:
                self._check_figure(figure, runs)
        return [run for run, _ in pairs]

    def _lone(self, run: _Run) -> None:
        """A pattern that stands alone with its label: its layout does not tell its figure (a
        label before it is figure 2's way, but also how a copy quotes one pattern of figure 1).
        Which printed pattern its notation is, is said; it is a doubt either way."""
        from drumscore import corpus

        label, side, _figure, state = self._pairs[id(run)]
        notation = parse("".join(run.printed), extra_glyphs=self.tables.glyphs).notation
        matches: dict[int, list[str]] = {}
        for score in corpus.scores(None):
            if score.state == state and score.pattern.notation == notation and score.figure:
                matches.setdefault(score.figure, []).append(score.edition_name)
        lines = self._lines(run)
        hint = _("include the whole figure in the passage, both patterns with their labels")
        if len(matches) == 1:
            ((figure, names),) = matches.items()
            self._pairs[id(run)] = (label, side, figure, state)
            reason = _(
                "the pattern on {lines} stands alone, so its figure is not told by its layout; "
                "its notation is the {state} pattern of figure {figure} as printed in {editions}"
            ).format(
                lines=lines,
                state=state,
                figure=figure,
                editions=list_text(sorted(set(names))[:3] + (["…"] if len(set(names)) > 3 else [])),
            )
        else:
            self._pairs[id(run)] = (label, side, None, state)
            reason = _(
                "the pattern on {lines} stands alone, and a lone pattern's figure is unknown: "
                "its layout does not tell it, and its notation is no printed pattern of {state}"
            ).format(lines=lines, state=state)
        self._doubt(run, reason, hint)

    def _states(self, pairs: list[tuple[_Run, _Label | None]]) -> list[str]:
        """The state of each pair: from its label, or for a label that is not recognised, from its
        place (魯 first, then 薛)."""
        known = [label.state if label is not None else "" for _, label in pairs]
        states = []
        for index, (run, label) in enumerate(pairs):
            if label is None:
                states.append("")
                continue
            if label.state:
                states.append(label.state)
                continue
            others = {s for i, s in enumerate(known) if s and i != index}
            if len(pairs) == 2 and len(others) == 1:
                state = next(s for s in _STATES if s not in others)
            elif index < 2 and not others:
                state = _STATES[index]
            else:
                self._doubt(
                    run,
                    _(
                        "label {label!r} on {lines} is not 魯鼓 or 薛鼓, and its place in the "
                        "figure does not tell which it is"
                    ).format(label=self._text(label.token), lines=self._lines(run)),
                    _("say which state {char!r} stands for ({char}=魯 or {char}=薛)").format(
                        char=label.token.value
                    ),
                    option="label",
                )
                states.append("")
                continue
            pos = self.position(label.token.start)
            self._remarks.setdefault(id(run), []).append(
                _(
                    "label {label!r} (line {line}, column {column}) read as {state} by position"
                ).format(
                    label=self._text(label.token), line=pos.line, column=pos.column, state=state
                )
            )
            states.append(state)
        return states

    def _check_figure(self, figure: int, runs: list[_Run]) -> None:
        if len(runs) == 1:
            (run,) = runs
            self._doubt(
                run,
                _(
                    "figure {figure} has only one pattern (on {lines}); each figure prints one "
                    "for 魯 and one for 薛"
                ).format(figure=figure, lines=self._lines(run)),
                _("include the whole figure in the passage"),
            )
        with_half = [bool(r.halves) for r in runs]
        if len(runs) == 2 and with_half[0] != with_half[1]:
            run = runs[with_half.index(False)]
            other = runs[with_half.index(True)]
            self._doubt(
                run,
                _(
                    "the pattern on {lines} has no 半, but the other pattern of its figure (on "
                    "{other}) has one"
                ).format(lines=self._lines(run), other=self._lines(other)),
                _("check the transcription against the edition: 半 may have been lost"),
            )

    def _doubt(
        self,
        run: _Run,
        reason: str,
        hint: str,
        option: str = "partial",
        at: int | None = None,
        kept: str | None = None,
    ) -> None:
        """Refuse with `reason` at `at` (the run's start), or, reading partially, keep the run
        doubtful: `kept` says how it was read (`reason` itself by default)."""
        if not self.partial:
            raise self.error(run.first if at is None else at, reason, hint, option=option)
        self._doubts.setdefault(id(run), []).append(reason if kept is None else kept)

    def _divided(self, divider: _Divider, chain: list) -> NotationError:
        index = chain.index(divider)
        before = chain[index - 1]
        a, b = self.position(before.first), self.position(before.last)
        if a.line == b.line:
            where = _("line {line}, columns {first}-{last}").format(
                line=a.line, first=a.column, last=b.column
            )
        else:
            where = line_range(a.line, b.line, words=True)
        return self.error(
            divider.token.start,
            _(
                "{name} divides a run of strokes: the {n} strokes before it ({where}) would be a "
                "pattern without a label, and the strokes after it a pattern without its "
                "beginning"
            ).format(name=char_name(divider.token.value), n=len(before.strokes), where=where),
            _(
                "a sentence end does not stand inside a printed pattern; if the pattern goes on "
                "after it, remove it; if the strokes before it are a pattern of their own, write "
                "its label"
            ),
            option="partial",
        )

    def _lines(self, run: _Run) -> str:
        return line_range(self.position(run.first).line, self.position(run.last).line, words=True)

    def _text(self, token: Token) -> str:
        return self.source[token.start : token.end]

    # --- found patterns ----------------------------------------------------------------------

    def found(
        self, run: _Run, extraction: Extraction, extra: dict[str, str], edition_id: str, name: str
    ) -> Found:
        label, side, figure, state = self._pairs[id(run)]
        printed = "".join(run.printed)
        parsed = parse(printed, extra_glyphs=extra)
        notes = list(run.notes)
        joined = list(run.joined)
        if run.trailing_marks and self._continues(run, label, side):
            joined += run.trailing_marks
        if run.trailing_notes and self._continues(run, label, side):
            merged = "".join(t.value for t in run.trailing_notes)
            notes.append((len(run.strokes), merged, run.trailing_notes[0].start))
        start, end = self.position(run.first), self.position(run.last)
        lines = line_range(extraction.kanripo_line(start.line), extraction.kanripo_line(end.line))
        printed_notes = tuple(
            PrintedNote(after, text, extraction.kanripo_line(self.position(o).line))
            for after, text, o in notes
        )
        score = Score(
            parsed, edition_id, name, figure, state, printed, notes=printed_notes, lines=lines
        )
        label_text = self._text(label.token) if label is not None and state else ""
        remarks = list(self._remarks.get(id(run), ()))
        unseen = "".join(c for c in label_text if c in lexer.INVISIBLE)
        if unseen:
            label_text = "".join(c for c in label_text if c not in lexer.INVISIBLE)
            remarks.append(
                _("label {label!r} read through {names}").format(
                    label=label_text, names=_shown(unseen)
                )
            )
        return Found(
            score=score,
            label=label_text,
            label_pos=self.position(label.token.start) if label is not None and state else None,
            start=start,
            end=end,
            label_side=side,
            notes=printed_notes,
            note_positions=tuple(self.position(o) for _, _, o in notes),
            joined=tuple(
                Joined(_REPORTED[t.kind], _shown(t.value or self._text(t)), self.position(t.start))
                for t in joined
            ),
            remarks=tuple(remarks),
            doubts=tuple(self._doubts.get(id(run), ())),
        )

    def _continues(self, run: _Run, label: _Label | None, side: str) -> bool:
        """Notes after a pattern's last stroke are the pattern's when its figure goes on after
        them (before the label that follows it, or the next label and pattern)."""
        items = self.items
        index = next(i for i, item in enumerate(items) if item is run)
        nxt = items[index + 1] if index + 1 < len(items) else None
        return (
            isinstance(nxt, _Label)
            and nxt.adjacent
            and nxt.kind != Kind.DRUM
            and (side == FOLLOWS or nxt is not label)
        )


def _shown(text: str) -> str:
    """`text` fit to print: each invisible character named by code point and name instead."""
    if not any(c in lexer.INVISIBLE for c in text):
        return text
    return list_text(
        f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip() for c in dict.fromkeys(text)
    )


def _is_pattern(item: object) -> bool:
    """True for a run of strokes long enough to be a pattern."""
    return isinstance(item, _Run) and item.is_pattern


def _shaped(run: _Run) -> bool:
    """Long enough, and with 半 or both drums: shaped like a pattern (wherever it stands)."""
    return len(run.strokes) >= MIN_STROKES and (bool(run.halves) or len(set(run.strokes)) == 2)


def _short(run: _Run) -> bool:
    """A stroke or two without 半: too short to be a pattern of its own."""
    return len(run.strokes) < MIN_STROKES and not run.halves and run.lead_half is None


def _stop(pending: list[Token]) -> Token | None:
    """A sentence end among the tokens between two strokes (none if 半 stands beside it)."""
    for t in pending:
        if t.kind == Kind.PUNCT and t.value in lexer.STOP:
            return t
    return None


_BARE = str.maketrans(dict.fromkeys(lexer.SPACES + lexer.PUNCTUATION))


def _bare(text: str) -> str:
    """`text` without spaces and punctuation."""
    return text.translate(_BARE)


def _check_unique(found: list[Found], source_name: str) -> None:
    seen: dict[tuple, Found] = {}
    for f in found:
        key = (f.score.figure, f.score.state)
        if not f.score.state:
            continue
        if key in seen:
            raise ExtractError(
                _(
                    "{source} has two patterns for {state}鼓 in figure {figure} ({first} and "
                    "{second}); extract the passage of one printing at a time"
                ).format(
                    source=source_name or _("the passage"),
                    state=f.score.state,
                    figure=f.score.figure,
                    first=line_range(*seen[key].lines, words=True),
                    second=line_range(*f.lines, words=True),
                )
            )
        seen[key] = f


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
    cited = {"work": name or source_name} if found else {}
    if not cited:
        # no Kanripo id, file or lines: the citation as the file names itself, written once
        parts = [name] if name else []
        if source_name and source_name != name:
            parts.append(source_name)
        cited = {"written": ", ".join(parts)}
    return Provenance(
        **cited,
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


def _as_stroke(reason: str) -> str:
    """A doubt kept when reading partially: the reason, and that the sign was read as a stroke."""
    return _("{reason}; read as a stroke").format(reason=reason)
