"""Reading figures from a passage's items: runs paired with their labels (a heading 鼓, then each
pattern followed by its label; or each label before its pattern), their states (魯 first, then 薛,
which settles a label that is not recognised), the checks of a whole figure, and each pattern as
found."""

from __future__ import annotations

import unicodedata

from drumscore.display import char_name
from drumscore.editions import lexer
from drumscore.editions.found import Extraction, Found, Joined, line_range
from drumscore.editions.lexer import Kind
from drumscore.editions.runs import (
    MIN_STROKES,
    REPORTED,
    Divider,
    Label,
    Run,
    RunReader,
    bare,
    is_pattern,
    shown,
)
from drumscore.errors import NotationError
from drumscore.i18n import _, list_text, ngettext
from drumscore.model import PrintedNote, Score, State
from drumscore.notation import parse

FOLLOWS, PRECEDES, ABOVE = "follows", "precedes", "above"
_STATES = tuple(State)


class Reader(RunReader):
    """The parser: figures from the items `RunReader` reads from the tokens."""

    def __init__(self, source: str, tables: lexer.Tables, partial: bool) -> None:
        super().__init__(source, tables, partial)
        self._pairs: dict[int, tuple] = {}  # id(run) → (label item, side, figure, state)
        self._unplaced: list[list[Run]] = []  # the two runs of each headed figure no 鼓 heads

    def figures(self, runs: list[Run]) -> list[Run]:
        """The patterns in reading order; their labels, sides and states in self._pairs."""
        items = self.items
        for index, item in enumerate(items):
            if isinstance(item, Run) and len(item.strokes) >= MIN_STROKES:
                self._check_halves(item, index)
        for a, b, gap in self._gaps:
            if a.is_pattern or b.is_pattern:
                ch = bare(gap.token.value)[0]
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
            if isinstance(item, Divider):
                # a sentence end divides two patterns; beside prose strokes it is prose
                chainable = (
                    index > 0
                    and is_pattern(items[index - 1])
                    and is_pattern(items[index + 1] if index + 1 < len(items) else None)
                )
            else:
                chainable = is_pattern(item) or isinstance(item, Label)
            if not chainable:
                previous = None
                continue
            # a heading line opens a figure; a label after a label opens one, unless the first
            # is a heading line
            joins = (
                previous is not None
                and item.adjacent
                and not _is_heading(item)
                and not (
                    isinstance(item, Label)
                    and isinstance(previous, Label)
                    and not _is_heading(previous)
                )
            )
            if joins:
                chains[-1].append(item)
            else:
                chains.append([item])
            previous = item
        order: list[Run] = []
        for chain in chains:
            order.extend(self._figure(chain))
        self._place_headed(order)
        return order

    def _check_halves(self, run: Run, index: int) -> None:
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
                across = run.blank_before and index > 0 and isinstance(self.items[index - 1], Run)
            else:
                nxt = self.items[index + 1] if index + 1 < len(self.items) else None
                across = isinstance(nxt, Run) and nxt.blank_before
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

    def _figure(self, chain: list) -> list[Run]:
        """Read one chain: pair runs with labels, infer states, check the figure is whole."""
        if _is_heading(chain[0]):
            return self._headed(chain)
        for index, item in enumerate(chain):
            if isinstance(item, Divider):
                if not self.partial:
                    raise self._divided(item, chain)
                pos = self.position(item.token.start)
                self._doubts.setdefault(id(chain[index - 1]), []).append(
                    _(
                        "divided from the strokes after it by {mark!r} at line {line}, column "
                        "{column}"
                    ).format(mark=item.token.value, line=pos.line, column=pos.column)
                )
        chain = [i for i in chain if not isinstance(i, Divider)]
        runs = [i for i in chain if isinstance(i, Run)]
        if not runs:
            return []
        first = chain[0]
        heading = None
        if isinstance(first, Label) and (
            first.kind == Kind.DRUM
            or (first.kind == Kind.ULABEL and len(chain) % 2 == 1 and isinstance(chain[1], Run))
        ):
            heading = chain.pop(0)
        if heading is not None or isinstance(chain[0], Run):
            side, figure = FOLLOWS, 1
        else:
            side, figure = PRECEDES, 2
        pairs: list[tuple[Run, Label | None]] = []
        pending_label: Label | None = None
        for item in chain:
            if isinstance(item, Run):
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
        for run, label in pairs:
            if label is not None and label.kind == Kind.LOOSE:
                self._loose(run, label)
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

    def _headed(self, chain: list) -> list[Run]:
        """A figure under a heading line that holds only its two labels (魯鼓　　薛鼓): its
        patterns below it, in the heading's order, or printed with their own labels, which must
        then be the heading's."""
        heading, rest = chain[0], chain[1:]
        named = lexer.labels_in(heading.token, self.source, self.tables)
        if named[0].value == named[1].value:
            raise self.error(
                named[1].start,
                _("the heading line names {label!r} twice").format(label=self.text_of(named[1])),
                _(
                    "a heading above a figure names its two patterns, 魯鼓 and 薛鼓; check the "
                    "transcription against the edition"
                ),
            )
        if any(isinstance(i, Label) and i.kind != Kind.DRUM for i in rest):
            order = self._figure(rest)
            below = [(r, self._pairs[id(r)][0]) for r in order if self._pairs[id(r)][3]]
            if [label.state for _run, label in below] != [t.value for t in named]:
                first = below[0][1].token if below else heading.token
                pos = self.position(first.start)
                raise self.error(
                    heading.token.start,
                    _(
                        "the heading line names {heading}, but the figure below it labels its "
                        "patterns {below} (the first at line {line}, column {column})"
                    ).format(
                        heading=list_text(self.text_of(t) for t in named),
                        below=list_text(self.text_of(label.token) for _run, label in below)
                        or _("with no label"),
                        line=pos.line,
                        column=pos.column,
                    ),
                    _(
                        "check the transcription against the edition: the heading and the "
                        "labels beside the patterns name the same two drums in the same order"
                    ),
                )
            return order
        runs = [i for i in rest if isinstance(i, Run)]
        if len(runs) != 2:
            hint = _(
                "a heading line names the two patterns printed below it; include both, each on "
                "its own line, or check the transcription against the edition"
            )
            reason = ngettext(
                "the heading line names two patterns, but {n} stands below it",
                "the heading line names two patterns, but {n} stand below it",
                len(runs),
            ).format(n=len(runs))
            for run in runs:
                self._pairs[id(run)] = (None, ABOVE, None, "")
                self._doubt(run, reason, hint, at=heading.token.start)
            return runs
        index = next(i for i, item in enumerate(self.items) if item is heading)
        before = self.items[index - 1] if index else None
        drum = isinstance(before, Label) and before.kind == Kind.DRUM and heading.adjacent
        figure = 1 if drum else None
        for run, label in zip(runs, named, strict=True):
            self._pairs[id(run)] = (Label(Kind.LABEL, label), ABOVE, figure, label.value)
        self._check_figure(1 if drum else 0, runs)
        if not drum:
            self._unplaced.append(runs)
        return runs

    def _place_headed(self, order: list[Run]) -> None:
        """The figure of each headed figure that no 鼓 heads: second after another figure,
        first before one, else the printed figure its notation is."""
        for runs in self._unplaced:
            at = next(i for i, r in enumerate(order) if r is runs[0])
            before = {self._pairs[id(r)][2] for r in order[:at]} - {None}
            after = {self._pairs[id(r)][2] for r in order[at + 2 :]} - {None}
            if before or after:
                figure = 2 if before else 1
            else:
                found = {
                    figure for run in runs for figure in self._printed(run, self._pairs[id(run)][3])
                }
                matches = [
                    f
                    for f in found
                    if all(f in self._printed(r, self._pairs[id(r)][3]) for r in runs)
                ]
                if len(matches) != 1:
                    pos = self.position(self._pairs[id(runs[0])][0].token.start)
                    for run in runs:
                        self._doubt(
                            run,
                            _(
                                "the figure under the heading line (line {line}) is not told: "
                                "no 鼓 heads it, no other figure stands beside it, and its "
                                "notation is no printed figure's"
                            ).format(line=pos.line),
                            _(
                                "include the whole passage, both figures, or write 鼓 above the "
                                "first figure's heading line"
                            ),
                        )
                    continue
                (figure,) = matches
                names = self._printed(runs[0], self._pairs[id(runs[0])][3])[figure]
                for run in runs:
                    self._remarks.setdefault(id(run), []).append(
                        _(
                            "figure {figure} read from the notation under the heading line: "
                            "both patterns are figure {figure}'s as printed in {editions}"
                        ).format(figure=figure, editions=_editions(names))
                    )
            for run in runs:
                label, side, _figure, state = self._pairs[id(run)]
                self._pairs[id(run)] = (label, side, figure, state)

    def _printed(self, run: Run, state: str) -> dict[int, list[str]]:
        """The figures whose printed `state` pattern is this run's notation, with the editions
        that print it so."""
        from drumscore import corpus

        notation = parse("".join(run.printed), extra_glyphs=self.tables.glyphs).notation
        matches: dict[int, list[str]] = {}
        for score in corpus.scores(None):
            if score.state == state and score.pattern.notation == notation and score.figure:
                matches.setdefault(score.figure, []).append(score.edition_name)
        return matches

    def _loose(self, run: Run, label: Label) -> None:
        """A label whose book-title bracket is not matched (《薛鼓, 薛》鼓): refused at the
        bracket."""
        text = self.text_of(label.token)
        at = next(i for i, c in enumerate(text) if c in _BRACKETS)
        self._doubt(
            run,
            _(
                "the bracket {bracket!r} of the label {label!r} is not matched: a book-title "
                "bracket around a label closes after its state (《薛》鼓) or after 鼓 (《薛鼓》)"
            ).format(bracket=text[at], label=text),
            _("write the label with both brackets, as the edition prints it, or without them"),
            at=label.token.start + at,
        )

    def _lone(self, run: Run) -> None:
        """A pattern that stands alone with its label: its layout does not tell its figure (a
        label before it is figure 2's way, but also how a copy quotes one pattern of figure 1).
        Which printed pattern its notation is, is said; it is a doubt either way."""
        label, side, _figure, state = self._pairs[id(run)]
        matches = self._printed(run, state)
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
                editions=_editions(names),
            )
        else:
            self._pairs[id(run)] = (label, side, None, state)
            reason = _(
                "the pattern on {lines} stands alone, and a lone pattern's figure is unknown: "
                "its layout does not tell it, and its notation is no printed pattern of {state}"
            ).format(lines=lines, state=state)
        self._doubt(run, reason, hint)

    def _states(self, pairs: list[tuple[Run, Label | None]]) -> list[str]:
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
                    ).format(label=self.text_of(label.token), lines=self._lines(run)),
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
                    label=self.text_of(label.token), line=pos.line, column=pos.column, state=state
                )
            )
            states.append(state)
        return states

    def _check_figure(self, figure: int, runs: list[Run]) -> None:
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

    def _divided(self, divider: Divider, chain: list) -> NotationError:
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

    def found(
        self, run: Run, extraction: Extraction, extra: dict[str, str], edition_id: str, name: str
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
        label_text = self.text_of(label.token) if label is not None and state else ""
        remarks = list(self._remarks.get(id(run), ()))
        unseen = "".join(c for c in label_text if c in lexer.INVISIBLE)
        if unseen:
            label_text = "".join(c for c in label_text if c not in lexer.INVISIBLE)
            remarks.append(
                _("label {label!r} read through {names}").format(
                    label=label_text, names=shown(unseen)
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
                Joined(REPORTED[t.kind], shown(t.value or self.text_of(t)), self.position(t.start))
                for t in joined
            ),
            remarks=tuple(remarks),
            doubts=tuple(self._doubts.get(id(run), ())),
        )

    def _continues(self, run: Run, label: Label | None, side: str) -> bool:
        """Notes after a pattern's last stroke are the pattern's when its figure goes on after
        them (before the label that follows it, or the next label and pattern)."""
        items = self.items
        index = next(i for i, item in enumerate(items) if item is run)
        nxt = items[index + 1] if index + 1 < len(items) else None
        return (
            isinstance(nxt, Label)
            and nxt.adjacent
            and nxt.kind != Kind.DRUM
            and (side == FOLLOWS or nxt is not label)
        )


_BRACKETS = frozenset(lexer.TITLE_BRACKETS) | frozenset(lexer.TITLE_BRACKETS.values())


def _is_heading(item: object) -> bool:
    return isinstance(item, Label) and item.kind == Kind.HEADING


def _editions(names: list[str]) -> str:
    """Up to three edition names, then …"""
    return list_text(sorted(set(names))[:3] + (["…"] if len(set(names)) > 3 else []))
