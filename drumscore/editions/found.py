"""What extraction finds: each pattern with its label and place in the file, and the passage's
scores with where the passage comes from."""

from __future__ import annotations

from dataclasses import dataclass

from drumscore.i18n import _, list_text, ngettext
from drumscore.model import Position, PrintedNote, Provenance, Score


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
