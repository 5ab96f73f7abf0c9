"""Passages as editions print them: Kanripo header lines, markup and interlinear notes removed.

The cleaned text keeps, for every character, where it stood in the file, so that what is found in
it (a pattern, a label, a bad glyph) can be cited by line and column.
"""

from __future__ import annotations

import bisect
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from drumscore.errors import NotationError
from drumscore.model import Position

#: Stands in the cleaned text where a blank or header line interrupts the passage.
BREAK = "\n"
LINE_MARK = "¶"
#: Interlinear (double-column) notes: ( … ) in Kanripo, 【 … 】 or （ … ） in plain text.
NOTE_BRACKETS = {"(": ")", "（": "）", "【": "】"}
#: Inside a note, / separates the two small columns; it is not text.
NOTE_COLUMN = "/"

_TAG = re.compile(r"<[^<>\n]*>")


@dataclass(frozen=True, slots=True)
class Cleaned:
    """The passage text with markup gone and lines joined, and where each character stood.

    The text is made of runs copied unchanged from the source: run k starts at text index
    run_starts[k] and at source offset run_offsets[k]. Only the run boundaries are stored, so a
    long passage costs a few bytes per run, not an object per character.
    """

    text: str
    run_starts: array
    run_offsets: array
    source: str
    line_starts: array

    def offset(self, index: int) -> int:
        """The offset in the source of the character at `index` of the text."""
        run = bisect.bisect_right(self.run_starts, index) - 1
        return self.run_offsets[run] + index - self.run_starts[run]

    def position(self, index: int) -> Position:
        """Offset, line and column in the source of the character at `index` of the text."""
        return position_of(self.offset(index), self.line_starts)


def position_of(offset: int, line_starts: Sequence[int]) -> Position:
    """Offset, line and column of a source offset, given the offsets at which its lines start."""
    line = bisect.bisect_right(line_starts, offset)
    return Position(offset, line, offset - line_starts[line - 1] + 1)


def header(source: str) -> dict[str, str]:
    """The `# key: value` header fields of a witness file (the first value of each key)."""
    fields: dict[str, str] = {}
    for line in source.splitlines():
        if line.startswith("#") and ":" in line:
            key, _, value = line[1:].partition(":")
            fields.setdefault(key.strip().casefold(), value.strip())
    return fields


def body_start(source: str) -> int:
    """The 1-based number of the first line after the leading header lines."""
    for number, line in enumerate(source.split("\n"), 1):
        if not line.startswith("#"):
            return number
    return 1


def clean(source: str, *, keep_notes: bool = False) -> Cleaned:
    """Join the lines of a passage into one text without ¶, <pb:…> tags and header lines.

    Notes `( … )` are dropped (or, with keep_notes, kept without their brackets and column
    marks). Leading indentation is dropped; a blank line or a header line becomes BREAK.
    """
    pieces: list[str] = []
    run_starts = array("q")
    run_offsets = array("q")
    line_starts = array("q")
    length = 0

    def keep(piece: str, offset: int) -> None:
        nonlocal length
        if not piece:
            return
        pieces.append(piece)
        run_starts.append(length)
        run_offsets.append(offset)
        length += len(piece)

    closer = ""
    depth = 0
    opened = 0
    offset = 0
    for line in source.split("\n"):
        start = offset
        line_starts.append(start)
        offset += len(line) + 1
        line = line.rstrip("\r")
        if line.startswith("#") or not _TAG.sub("", line).replace(LINE_MARK, "").strip():
            blank = line.startswith("#") or "<" not in line
            if blank and depth == 0 and pieces and pieces[-1] != BREAK:
                keep(BREAK, start)
            continue
        skip = _tag_columns(line) if "<" in line else ()
        indent = len(line) - len(line.lstrip())
        run = indent  # the start of the run of kept characters that the current one continues
        for index in range(indent, len(line)):
            ch = line[index]
            if ch == LINE_MARK or index in skip:
                pass
            elif depth:
                if ch == closer:
                    depth -= 1
                elif ch == opener_of(closer):
                    depth += 1
                if keep_notes and depth and ch != NOTE_COLUMN:
                    continue
            elif ch in NOTE_BRACKETS:
                closer, depth, opened = NOTE_BRACKETS[ch], 1, start + index
            else:
                continue
            # the character is left out: the run before it is complete
            keep(line[run:index], start + run)
            run = index + 1
        keep(line[run:], start + run)
    while pieces and pieces[-1] == BREAK:
        pieces.pop()
        run_starts.pop()
        run_offsets.pop()
    cleaned = Cleaned("".join(pieces), run_starts, run_offsets, source, line_starts)
    if depth:
        pos = position_of(opened, line_starts)
        raise NotationError(
            f"the note opened here is never closed: a {closer!r} is missing",
            text=source,
            line=pos.line,
            column=pos.column,
            hint="hint: close the note, or remove the stray bracket.",
        )
    return cleaned


def opener_of(closer: str) -> str:
    for opener, close in NOTE_BRACKETS.items():
        if close == closer:
            return opener
    return ""


def _tag_columns(line: str) -> set[int]:
    return {i for m in _TAG.finditer(line) for i in range(m.start(), m.end())}


def line_starts_of(source: str) -> array:
    """The offsets at which the lines of `source` start."""
    starts = array("q", [0])
    starts.extend(m.end() for m in re.finditer("\n", source))
    return starts
