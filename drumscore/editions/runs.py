"""Reading a passage's tokens into items: runs of strokes and 半, labels, the sentence ends that
divide two runs and the little text that interrupts them; with the checks made while reading (a
symbol beside the notation, strokes cut off by a full stop or running into the prose).

A *run* is strokes and 半, with what may stand inside a printed pattern between them: spaces, line
and page breaks, markup, notes and punctuation (a sentence end between two strokes divides them,
unless 半 stands beside it). `figures.Reader` reads figures from the items.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field

from drumscore import glyphs
from drumscore.display import char_name
from drumscore.editions import lexer
from drumscore.editions.found import line_range
from drumscore.editions.lexer import Kind, Token
from drumscore.errors import NotationError
from drumscore.i18n import _, list_text, ngettext
from drumscore.model import Position, line_starts

#: A run shorter than this, with no 半 and one drum only, is prose (釋文's lone ○, 口 for mouth).
MIN_STROKES = 3
#: Text between two runs at most this long (without spaces and punctuation) interrupts them.
MAX_INTERRUPTION = 2
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
REPORTED = {
    Kind.LINE: "line break",
    Kind.PAGE: "page break",
    Kind.PUNCT: "punctuation",
    Kind.FOOTNOTE: "footnote mark",
    Kind.INVISIBLE: "invisible character",
    Kind.ASIDE: "translation line",
}


@dataclass(slots=True)
class Run:
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
class Label:
    kind: str  # Kind.LABEL, Kind.LOOSE, Kind.ULABEL, Kind.DRUM or Kind.HEADING
    token: Token
    adjacent: bool = False

    @property
    def state(self) -> str:
        return self.token.value if self.kind in (Kind.LABEL, Kind.LOOSE) else ""


@dataclass(slots=True)
class Divider:
    """Sentence-end punctuation between two runs: it divides them. `between` holds every token
    between the two runs, the stop among them."""

    token: Token
    between: list[Token] = field(default_factory=list)
    adjacent: bool = True


@dataclass(slots=True)
class Gap:
    """A little text between two runs (a character or two): it interrupts them."""

    token: Token
    adjacent: bool = False


def shown(text: str) -> str:
    """`text` fit to print: each invisible character named by code point and name instead."""
    if not any(c in lexer.INVISIBLE for c in text):
        return text
    return list_text(
        f"U+{ord(c):04X} {unicodedata.name(c, '')}".strip() for c in dict.fromkeys(text)
    )


def is_pattern(item: object) -> bool:
    """True for a run of strokes long enough to be a pattern."""
    return isinstance(item, Run) and item.is_pattern


def shaped(run: Run) -> bool:
    """Long enough, and with 半 or both drums: shaped like a pattern (wherever it stands)."""
    return len(run.strokes) >= MIN_STROKES and (bool(run.halves) or len(set(run.strokes)) == 2)


def short(run: Run) -> bool:
    """A stroke or two without 半: too short to be a pattern of its own."""
    return len(run.strokes) < MIN_STROKES and not run.halves and run.lead_half is None


def stop_in(pending: list[Token]) -> Token | None:
    """A sentence end among the tokens between two strokes (none if 半 stands beside it)."""
    for t in pending:
        if t.kind == Kind.PUNCT and t.value in lexer.STOP:
            return t
    return None


_BARE = str.maketrans(dict.fromkeys(lexer.SPACES + lexer.PUNCTUATION))


def bare(text: str) -> str:
    """`text` without spaces and punctuation."""
    return text.translate(_BARE)


def as_stroke(reason: str) -> str:
    """A doubt kept when reading partially: the reason, and that the sign was read as a stroke."""
    return _("{reason}; read as a stroke").format(reason=reason)


class RunReader:
    """Items (runs, labels, dividers) from the tokens; `figures.Reader` reads figures from them."""

    def __init__(self, source: str, tables: lexer.Tables, partial: bool) -> None:
        self.source = source
        self.tables = tables
        self.partial = partial
        self.items: list = []
        self._line_starts = line_starts(source)
        self._doubts: dict[int, list[str]] = {}  # id(run) → doubts
        self._remarks: dict[int, list[str]] = {}
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
        run: Run | None = None
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
                    if len(value) < 16 and len(bare(value)) <= MAX_INTERRUPTION:
                        items.append(Gap(token))
                elif items and isinstance(items[-1], Gap) and items[-1].token.end == token.start:
                    items.pop()
                half = None
                before = token
                adjacent = blank = False
                texted = True
            elif kind == Kind.STROKES:
                if run is not None:
                    stop = stop_in(pending) if run.trail_half is None else None
                    if stop is not None:
                        self._close(run, pending)
                        items.append(Divider(stop, list(pending)))
                        run = None
                    else:
                        self._absorb(run, pending)
                if run is None:
                    if before is not None:
                        self._check_neighbour(before, -1)
                    run = Run(
                        token.start, adjacent=adjacent, blank_before=blank, untexted=not texted
                    )
                    if half is not None:
                        run.lead_half = half.start
                    gap = items[-1] if items and isinstance(items[-1], Gap) else None
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
                # opening the next one; nor a heading line's (魯鼓　　薛鼓 above the figure).
                # After a label and after a header line it ends the figure
                adjacent = (
                    adjacent
                    and kind == Kind.BLANK
                    and bool(items)
                    and (
                        isinstance(items[-1], Run)
                        or (isinstance(items[-1], Label) and items[-1].kind == Kind.HEADING)
                    )
                )
            else:  # a label, or the heading 鼓
                if run is not None:
                    self._close(run, pending)
                    run, pending = None, []
                items.append(Label(kind, token, adjacent))
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
            if not (isinstance(a, Run) and isinstance(b, Run) and b.blank_before and b.adjacent):
                continue
            if short(b) and len(a.strokes) >= MIN_STROKES:
                self._tail_afterstop_in(a, None, b)
            elif short(a) and len(b.strokes) >= MIN_STROKES:
                self._first_strokes_doubt(
                    a,
                    b,
                    _(
                        "{strokes!r} at line {line}, column {column}, before the paragraph break "
                        "that opens the pattern on {lines}, may be its first strokes"
                    ),
                )
        while index < len(items):
            if not isinstance(items[index], Run):
                index += 1
                continue
            # runs divided by sentence ends, one after another
            last = index
            while (
                last + 2 < len(items)
                and isinstance(items[last + 1], Divider)
                and isinstance(items[last + 2], Run)
            ):
                last += 2
            group = items[index : last + 1 : 2]
            dividers = items[index + 1 : last : 2]
            whole = [k for k, run in enumerate(group) if not short(run)]
            if len(group) == 1 or len(whole) != 1:
                index = last + 1
                continue
            (k,) = whole
            before = items[index - 1] if index else None
            after = items[last + 1] if last + 1 < len(items) else None
            head = k > 0 and group[0].adjacent and isinstance(before, Label)
            tail = k < len(group) - 1 and isinstance(after, Label) and after.adjacent
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
            if not (isinstance(run, Run) and shaped(run)):
                continue
            # forward: strokes after sentence ends or a paragraph break, before any text
            j = index + 1
            stop = None
            while j < len(items) and isinstance(items[j], Divider):
                stop = stop or items[j]
                j += 1
            nxt = items[j] if j < len(items) else None
            if (
                isinstance(nxt, Run)
                and not shaped(nxt)
                and nxt.untexted
                and (stop is not None or nxt.blank_before)
            ):
                last = nxt
                k = j + 1
                while k + 1 < len(items) and isinstance(items[k], Divider):
                    if not (isinstance(items[k + 1], Run) and not shaped(items[k + 1])):
                        break
                    last = items[k + 1]
                    k += 2
                after = items[k] if k < len(items) else None
                if not (isinstance(after, Label) and after.adjacent):
                    self._tail_afterstop_in(run, stop, nxt, last)
            # backward: strokes between a label and the sentence end before the pattern
            j = index - 1 if run.untexted else -1
            first = None
            while j >= 0 and (
                isinstance(items[j], Divider)
                or (isinstance(items[j], Run) and not shaped(items[j]) and items[j].untexted)
            ):
                if isinstance(items[j], Run):
                    first = items[j]
                j -= 1
            if first is not None and j >= 0 and isinstance(items[j], Label):
                self._first_strokes_doubt(
                    first,
                    run,
                    _(
                        "{strokes!r} at line {line}, column {column}, before the full stop or "
                        "paragraph break that opens the pattern on {lines}, may be its first "
                        "strokes"
                    ),
                )

    def _first_strokes_doubt(self, few: Run, pattern: Run, message: str) -> None:
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

    def _tail_afterstop_in(
        self, a: Run, divider: Divider | None, b: Run, last: Run | None = None
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

    def _join(self, a: Run, divider: Divider, b: Run) -> None:
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
            yield from self._under_headings(lexer.tokens(self.source, self.tables))
            return
        spans = iter(asides)
        span = next(spans, None)
        for token in self._under_headings(lexer.tokens(self.source, self.tables)):
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

    def _under_headings(self, tokens: Iterator[Token]) -> Iterator[Token]:
        """The tokens, with a paragraph break where the two patterns under a heading line
        (魯鼓　　薛鼓 above them) meet: each on its own line(s), the first ending at the one line
        break between the two 半 marks. The patterns of a figure that prints its own labels
        beside them are left as they are."""
        ends = (Kind.OTHER, Kind.LABEL, Kind.LOOSE, Kind.ULABEL, Kind.DRUM, Kind.HEADING)
        held: list[Token] | None = None
        heading: Token | None = None
        for token in tokens:
            if held is None:
                yield token
                if token.kind == Kind.HEADING:
                    held, heading = [], token
                continue
            if token.kind in ends or token.kind == Kind.HEADER:
                yield from self._split(heading, held)
                held = None
                yield token
                if token.kind == Kind.HEADING:
                    held, heading = [], token
                continue
            held.append(token)
        if held is not None:
            yield from self._split(heading, held)

    def _split(self, heading: Token | None, held: list[Token]) -> list[Token]:
        """The tokens under a heading line, with a paragraph break between its two patterns
        when they follow each other line by line."""
        halves = [i for i, t in enumerate(held) if t.kind == Kind.HALF]
        if len(halves) != 2 or heading is None:
            return held
        between = held[halves[0] + 1 : halves[1]]
        if any(t.kind == Kind.BLANK or stop_in([t]) for t in between):
            return held  # the patterns are apart already
        breaks = [i for i, t in enumerate(between, halves[0] + 1) if t.kind == Kind.LINE]
        if len(breaks) == 1:
            at = held[breaks[0]]
            return [*held[: breaks[0]], Token(Kind.BLANK, at.start, at.start), *held[breaks[0] :]]
        line = self.position(heading.start).line
        second = self.position(held[halves[1]].start)
        raise self.error(
            held[halves[1]].start,
            ngettext(
                "the two patterns under the heading line (line {line}) are not on lines of their "
                "own: {n} line break stands between their 半 marks (the second at line {second}, "
                "column {column}), so where the first pattern ends is not told",
                "the two patterns under the heading line (line {line}) are not on lines of their "
                "own: {n} line breaks stand between their 半 marks (the second at line {second}, "
                "column {column}), so where the first pattern ends is not told",
                len(breaks),
            ).format(line=line, n=len(breaks), second=second.line, column=second.column),
            _(
                "put each pattern under the heading on its own line, or a blank line between "
                "the two"
            ),
        )

    def _mark_prose(self) -> None:
        """Runs without 半 that stand beside no label are prose: ○ bullets, □ for lost text."""
        items = self.items
        for index, item in enumerate(items):
            if not isinstance(item, Run) or not item.is_pattern:
                continue
            if item.halves or item.lead_half is not None or item.trail_half is not None:
                continue
            before = items[index - 1] if index else None
            after = items[index + 1] if index + 1 < len(items) else None
            if (item.blank_before and item.adjacent and isinstance(before, Run)) or (
                isinstance(after, Run) and after.blank_before and after.adjacent
            ):
                continue  # a paragraph break inside a pattern: the strokes go on across it
            near = (item.adjacent and isinstance(before, (Label, Divider))) or (
                isinstance(after, (Label, Divider)) and after.adjacent
            )
            item.prose = not near

    def _absorb(self, run: Run, pending: list[Token]) -> None:
        """The tokens between two strokes (or a stroke and 半) belong to the pattern."""
        after = len(run.strokes)
        source = self.source
        for t in pending:
            if t.kind == Kind.SPACE:
                run.printed.append(source[t.start : t.end].replace("\r", ""))
            elif t.kind == Kind.NOTE:
                self._note(run, after, t)
            elif t.kind in REPORTED:
                if t.kind == Kind.LINE:
                    cut = (len(run.strokes), len(run.printed), len(run.joined), len(run.halves))
                    run.cut = (*cut, run.last)
                run.joined.append(t)

    def _cut_tail(self, run: Run, pending: list[Token], text: Token) -> None:
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
            self._doubt(run, reason, hint, at=offset, kept=as_stroke(reason))
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
            self._doubt(run, reason, hint, at=offset, kept=as_stroke(reason))
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

    def _note(self, run: Run, after: int, token: Token) -> None:
        """Notes at one place, split only by line or page breaks, are one note."""
        if run.notes and run.notes[-1][0] == after:
            a, text, offset = run.notes[-1]
            run.notes[-1] = (a, text + token.value, offset)
        else:
            run.notes.append((after, token.value, token.start))

    def _close(self, run: Run, pending: list[Token]) -> None:
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

    # --- doubts and wording shared with the figures ------------------------------------------

    def _doubt(
        self,
        run: Run,
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

    def _lines(self, run: Run) -> str:
        return line_range(self.position(run.first).line, self.position(run.last).line, words=True)

    def text_of(self, token: Token) -> str:
        return self.source[token.start : token.end]

    # --- found patterns ----------------------------------------------------------------------
