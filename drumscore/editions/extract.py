"""Finding the drum scores in a passage as an edition prints it, with their labels and lines.

A pattern is a run of ○/□ (and 半) in the cleaned text. Labels (魯鼓, 薛鼓 and their spellings)
stand beside patterns; a figure is an unbroken chain of patterns and labels. A chain that starts
with a pattern has its labels after their patterns (the first figure); a chain that starts with a
label has them before (the second figure).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from drumscore import glyphs
from drumscore.display import char_name
from drumscore.editions import clean as kanripo
from drumscore.errors import ExtractError, NotationError, OptionError
from drumscore.model import STATE_SPELLINGS, Position, Provenance, Score
from drumscore.notation import parse

#: A run shorter than this, with no 半 and one drum only, is prose (釋文's lone ○, 口 for mouth).
MIN_STROKES = 3
_LABEL = re.compile(
    rf"([{''.join(c for c in STATE_SPELLINGS if not c.isascii())}])[ \u3000]?([鼓鼔皷])"
)
FOLLOWS, PRECEDES = "follows", "precedes"
#: The characters of the labels 魯鼓 and 薛鼓 in every spelling: never a stroke.
LABEL_CHARS = frozenset("".join(c for c in STATE_SPELLINGS if not c.isascii()) + "鼓鼔皷")
#: Characters with a meaning in a passage's markup (notes, line ends, tags): never a stroke.
MARKUP_CHARS = frozenset(
    "".join(kanripo.NOTE_BRACKETS) + "".join(kanripo.NOTE_BRACKETS.values()) + kanripo.LINE_MARK
) | {"<", ">"}
#: What --glyph may map a sign to.
GLYPH_TARGETS = {glyphs.CIRCLE: "鼙", glyphs.SQUARE: "鼓"}


@dataclass(frozen=True, slots=True)
class Found:
    """One pattern found in a passage: the score, its label and where both stand in the file."""

    score: Score
    label: str
    label_pos: Position | None
    start: Position
    end: Position
    label_side: str

    @property
    def lines(self) -> tuple[int, int]:
        return (self.start.line, self.end.line)


@dataclass(frozen=True, slots=True)
class Extraction:
    """What a passage holds: its scores in reading order, and where the passage comes from."""

    scores: tuple[Found, ...]
    name: str
    provenance: Provenance
    source_lines: tuple[int, int] | None = None

    def kanripo_lines(self, found: Found) -> str:
        """The line range of a score in the Kanripo file the passage was copied from, if known."""
        if self.source_lines is None:
            return ""
        _, offset = self.source_lines
        a, b = found.lines
        return line_range(a + offset, b + offset)


@dataclass(frozen=True, slots=True)
class _Item:
    kind: str  # "pattern" or "label"
    start: int
    end: int
    state: str = ""


def line_range(first: int, last: int, *, words: bool = False) -> str:
    """Lines `first` to `last`: "3-5" or "3"; with `words`, "lines 3-5" or "line 3"."""
    if first == last:
        return f"line {first}" if words else str(first)
    return f"lines {first}-{last}" if words else f"{first}-{last}"


def parse_glyph_options(specs: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """Glyph mappings written `X=○` as a mapping from X to ○ or □.

    X must be a sign that means nothing else in a passage: not notation already, not a character
    of the labels 魯鼓/薛鼓, not markup (note brackets, ¶, tags) and not a space.
    """
    mapping: dict[str, str] = {}
    given: dict[str, str] = {}
    for spec in specs or ():
        glyph, sep, target = spec.partition("=")
        glyph, target = glyph.strip() or glyph, target.strip()
        if not sep or len(glyph) != 1 or len(target) != 1:
            raise OptionError(
                f"glyph {spec!r} is not of the form X=○ or X=□ (one character, then = and the "
                "stroke it stands for)",
                option="glyph",
            )
        if target not in GLYPH_TARGETS:
            raise OptionError(
                f"glyph {spec!r}: a sign can only be read as ○ (鼙) or □ (鼓), not as {target!r};"
                " write X=○ or X=□",
                option="glyph",
            )
        reason = _glyph_refusal(glyph)
        if reason:
            raise OptionError(
                f"glyph {spec!r}: {reason}; a glyph mapping is for a sign that the "
                "transcription draws strokes with, such as ●=○",
                option="glyph",
            )
        if glyph in mapping and mapping[glyph] != target:
            raise OptionError(
                f"glyph {given[glyph]!r} and {spec!r} read {glyph!r} two ways; "
                "keep the one the transcription means",
                option="glyph",
            )
        mapping[glyph] = target
        given[glyph] = spec
    return mapping


def _glyph_refusal(glyph: str) -> str:
    """Why `glyph` cannot be mapped to a stroke, or "" if it can."""
    if glyph in glyphs.CANONICAL:
        return f"{glyph!r} is notation already, read as {glyphs.CANONICAL[glyph]}"
    if glyph in LABEL_CHARS:
        return f"{glyph!r} belongs to the labels 魯鼓 and 薛鼓, it is not a stroke"
    if glyph in MARKUP_CHARS:
        return f"{glyph!r} is markup in a passage (notes, line ends, tags), not a stroke"
    if glyph.isspace():
        return f"{glyph!r} is a space, which is ignored between strokes"
    return ""


def extract(
    text: str,
    *,
    source_name: str = "",
    glyph_map: Mapping[str, str] | None = None,
    edition_id: str = "",
    edition_name: str = "",
) -> Extraction:
    """The drum scores printed in `text`, a Kanripo witness or a plain-text passage.

    Raises ExtractError when the passage holds no notation, and NotationError (with line and
    column in the file) for a symbol-like glyph beside the notation that is not in the glyph table.
    """
    fields = kanripo.header(text)
    name = edition_name or fields.get("edition", "") or source_name
    cleaned = kanripo.clean(text)
    extra = dict(glyph_map or {})
    items = _items(cleaned, extra)
    patterns = [i for i in items if i.kind == "pattern"]
    if not patterns:
        where = f" in {source_name}" if source_name else ""
        raise ExtractError(
            f"no drum notation found{where}: no run of ○ (鼙) and □ (鼓) strokes. If the "
            "transcription draws the strokes with other signs, map them to strokes: X=○ / X=□",
            option="glyph",
        )
    found = [
        _found(cleaned, pattern, label, side, figure, extra, edition_id, name)
        for pattern, label, side, figure in _pair(cleaned.text, items)
    ]
    _check_unique(found, source_name)
    return Extraction(tuple(found), name, _provenance(fields, source_name, name), _offset(text))


def _run_pattern(extra: dict[str, str]) -> re.Pattern[str]:
    """A run: strokes, with 半 and spaces (not line breaks) between them."""
    table = {**glyphs.CANONICAL, **extra}
    strokes = "".join(re.escape(c) for c, s in table.items() if s != glyphs.HALF)
    halves = "".join(re.escape(c) for c, s in table.items() if s == glyphs.HALF)
    inner = f"(?:[{strokes}{halves}]|[^\\S\\n])*"
    return re.compile(f"[{strokes}](?:{inner}[{strokes}])?")


def _items(cleaned: kanripo.Cleaned, extra: dict[str, str]) -> list[_Item]:
    text = cleaned.text
    items = []
    for match in _run_pattern(extra).finditer(text):
        i, end = match.span()
        _check_neighbours(cleaned, i, end)
        signs = [glyphs.canonical(c, extra) for c in match[0]]
        strokes = [s for s in signs if s in (glyphs.CIRCLE, glyphs.SQUARE)]
        if len(strokes) >= MIN_STROKES:
            _check_half_at_edges(cleaned, i, end, extra)
        if len(strokes) >= MIN_STROKES and (glyphs.HALF in signs or len(set(strokes)) == 2):
            items.append(_Item("pattern", i, end))
    for match in _LABEL.finditer(text):
        items.append(_Item("label", match.start(), match.end(), STATE_SPELLINGS[match[1]]))
    items.sort(key=lambda item: item.start)
    return [item for index, item in enumerate(items) if _chained(text, index, items)]


def _chained(text: str, index: int, items: list[_Item]) -> bool:
    """Labels count only next to a pattern; a label alone in prose (故魯鼓薛鼓總…) is not one."""
    item = items[index]
    if item.kind == "pattern":
        return True
    neighbours = items[max(0, index - 1) : index] + items[index + 1 : index + 2]
    return any(n.kind == "pattern" and _adjacent(text, item, n) for n in neighbours)


def _adjacent(text: str, a: _Item, b: _Item) -> bool:
    first, second = (a, b) if a.start < b.start else (b, a)
    gap = text[first.end : second.start]
    return kanripo.BREAK not in gap and not gap.strip()


def _check_neighbours(cleaned: kanripo.Cleaned, start: int, end: int) -> None:
    """A symbol-like character touching a run of strokes is likely an unmapped stroke: refuse it."""
    text = cleaned.text
    for index in (_skip_space(text, start - 1, -1), _skip_space(text, end, 1)):
        if index is None:
            continue
        ch = text[index]
        if glyphs.is_symbol_like(ch) or ch in glyphs.CONFUSABLES:
            pos = cleaned.position(index)
            raise NotationError(
                f"unknown glyph {char_name(ch)} next to drum notation",
                text=cleaned.source,
                line=pos.line,
                column=pos.column,
                hint=f"hint: if it is a stroke, map the sign to one: {ch}=○ (鼙) or {ch}=□ "
                "(鼓); otherwise separate it from the pattern.",
                option="glyph",
            )


def _check_half_at_edges(cleaned: kanripo.Cleaned, start: int, end: int, extra) -> None:
    """A 半 touching the first or last stroke of a run would be lost with the label beyond it."""
    text = cleaned.text
    for index, step in ((_skip_space(text, start - 1, -1), -1), (_skip_space(text, end, 1), 1)):
        if index is None or glyphs.canonical(text[index], extra) != glyphs.HALF:
            continue
        pos = cleaned.position(index)
        edge = "start" if step < 0 else "end"
        if _stroke_across_break(text, index + step, step, extra):
            hint = (
                "hint: a blank line ends a pattern; if the pattern goes on after it, remove the "
                "blank line."
            )
        else:
            hint = (
                "hint: 半 divides a pattern, so strokes stand before and after it; check the "
                "transcription against the edition and move 半 to where it is printed."
            )
        raise NotationError(
            f"半 at the {edge} of a run of strokes: 半 must stand between strokes",
            text=cleaned.source,
            line=pos.line,
            column=pos.column,
            hint=hint,
        )


def _stroke_across_break(text: str, index: int, step: int, extra) -> bool:
    """True if, going from `index` by `step` over spaces, a passage break and then a stroke come."""
    crossed = False
    while 0 <= index < len(text) and text[index].isspace():
        crossed = crossed or text[index] == kanripo.BREAK
        index += step
    sign = glyphs.canonical(text[index], extra) if 0 <= index < len(text) else None
    return crossed and sign in (glyphs.CIRCLE, glyphs.SQUARE)


def _skip_space(text: str, index: int, step: int) -> int | None:
    while 0 <= index < len(text):
        if not text[index].isspace():
            return index
        if text[index] == kanripo.BREAK:
            return None
        index += step
    return None


def _pair(text: str, items: list[_Item]) -> list[tuple]:
    """(pattern, label, side, figure) for each pattern, from the chains of patterns and labels."""
    chains: list[list[_Item]] = []
    paired = []
    for item in items:
        chain = chains[-1] if chains else None
        if chain and item.kind != chain[-1].kind and _adjacent(text, chain[-1], item):
            chain.append(item)
        else:
            chains.append([item])
    for chain in chains:
        side = FOLLOWS if chain[0].kind == "pattern" else PRECEDES
        figure = 1 if side == FOLLOWS else 2
        pending = list(chain)
        while pending:
            first = pending.pop(0)
            second = pending.pop(0) if pending else None
            pattern, label = (first, second) if side == FOLLOWS else (second, first)
            if pattern is not None:
                paired.append((pattern, label, side, figure))
    return paired


def _found(cleaned, pattern, label, side, figure, extra, edition_id, name) -> Found:
    printed = cleaned.text[pattern.start : pattern.end]
    try:
        parsed = parse(printed, extra_glyphs=extra)
    except NotationError as exc:
        # The joined pattern is one line, so its columns index into it; map them to the file.
        def where(column: int) -> Position:
            return cleaned.position(pattern.start + column - 1)

        reason = re.sub(
            r"line 1, column (\d+)",
            lambda m: "line {0.line}, column {0.column}".format(where(int(m[1]))),
            exc.reason,
        )
        pos = where(exc.column or 1)
        raise NotationError(
            reason, text=cleaned.source, line=pos.line, column=pos.column, hint=exc.hint
        ) from None
    state = label.state if label else ""
    score = Score(parsed, edition_id, name, figure if state else None, state, printed)
    return Found(
        score=score,
        label=cleaned.text[label.start : label.end] if label else "",
        label_pos=cleaned.position(label.start) if label else None,
        start=cleaned.position(pattern.start),
        end=cleaned.position(pattern.end - 1),
        label_side=side,
    )


def _check_unique(found: list[Found], source_name: str) -> None:
    seen: dict[tuple, Found] = {}
    for f in found:
        key = (f.score.figure, f.score.state)
        if not f.score.state:
            continue
        if key in seen:
            raise ExtractError(
                f"{source_name or 'the passage'} has two patterns for {f.score.state}鼓 in figure "
                f"{f.score.figure} ({line_range(*seen[key].lines, words=True)} and "
                f"{line_range(*f.lines, words=True)}); extract the "
                "passage of one printing at a time"
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
    parts = [name] if name else []
    if found.get("kanripo"):
        parts.append(f"Kanseki Repository {found['kanripo']}")
    if found.get("file"):
        parts.append(f"file {found['file']}")
    if found.get("lines"):
        parts.append(f"lines {found['lines']}")
    if not found and source_name and source_name != name:
        parts.append(source_name)
    return Provenance(
        citation=", ".join(parts),
        file=source_name,
        kanripo=found.get("kanripo", ""),
        lines=found.get("lines", ""),
        commit=found.get("commit", ""),
        licence=fields.get("licence", ""),
    )


def _offset(text: str) -> tuple[int, int] | None:
    """(first Kanripo line, offset from file line to Kanripo line) when the header gives lines."""
    match = re.search(r"lines (\d+)-(\d+)", kanripo.header(text).get("source", ""))
    if not match:
        return None
    first, last = int(match[1]), int(match[2])
    start = kanripo.body_start(text)
    body = text.split("\n")[start - 1 :]
    while body and not body[-1].strip():
        body.pop()
    if len(body) != last - first + 1:
        return None
    return (first, first - start)
