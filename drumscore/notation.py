"""Where the notation is parsed: text of ○, □ and 半 (and their lookalikes) into a Pattern.

The tokenizer keeps every token's source position, so errors and displays can point into the text.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from drumscore import glyphs
from drumscore.display import char_name
from drumscore.errors import NotationError
from drumscore.i18n import _
from drumscore.model import HALF, Drum, Pattern, Position, Stroke, line_starts

#: Longer input is refused before it is scanned; the longest printed pattern has 31 strokes.
MAX_TEXT_LENGTH = 100_000
#: The most strokes a pattern may have (README, "Limits"): comparing two such patterns stays
#: within seconds; longer renders come from --repeat and --duration, not from longer patterns.
MAX_STROKES = 10_000


@dataclass(frozen=True, slots=True)
class Token:
    """One notation character: its canonical form (○, □ or 半), the character as written, where."""

    kind: str
    char: str
    pos: Position


def tokenize(text: str, *, extra_glyphs: Mapping[str, str] | None = None) -> Iterator[Token]:
    """Yield the notation tokens of `text`, skipping whitespace; NotationError on anything else."""
    starts = line_starts(text)
    for offset, ch in enumerate(text):
        if ch.isspace():
            continue
        kind = glyphs.canonical(ch, extra_glyphs)
        pos = Position.at(offset, starts)
        if kind is None:
            raise _unknown_character(text, ch, pos.line, pos.column)
        yield Token(kind, ch, pos)


def _unknown_character(text: str, ch: str, line: int, column: int) -> NotationError:
    if "\ud800" <= ch <= "\udfff":
        reason = _("unpaired surrogate {char!r} (U+{code:04X}) is not a character").format(
            char=ch, code=ord(ch)
        )
        hint = _("hint: the text was decoded wrongly; read the file as UTF-8.")
    else:
        reason = _("unexpected character {char}").format(char=char_name(ch))
        if glyphs.is_symbol_like(ch) or ch in glyphs.CONFUSABLES:
            hint = glyphs.symbol_hint(ch)
        else:
            hint = _(
                "hint: notation is ○ (鼙), □ (鼓) and 半; spaces are ignored. "
                "Labels such as 魯鼓 and commentary belong outside the pattern."
            )
    return NotationError(reason, text=text, line=line, column=column, hint=hint)


def parse(text: str, *, extra_glyphs: Mapping[str, str] | None = None) -> Pattern:
    """Parse notation such as "○□○○半○□○" into an immutable Pattern.

    ○ and its lookalikes strike 鼙, □ and its lookalikes strike 鼓, 半 marks the section
    boundary (at most once). Whitespace, ASCII or full-width, is ignored.
    """
    if not isinstance(text, str):
        raise NotationError(_("notation must be text, not {kind}").format(kind=type(text).__name__))
    if len(text) > MAX_TEXT_LENGTH:
        raise NotationError(
            _(
                "notation is {length:,} characters long; at most {limit:,} are accepted "
                "(the longest printed pattern has 31 strokes)"
            ).format(length=len(text), limit=MAX_TEXT_LENGTH)
        )
    strokes: list[Stroke] = []
    half: int | None = None
    half_pos: Position | None = None
    for token in tokenize(text, extra_glyphs=extra_glyphs):
        if token.kind == HALF:
            if half_pos is not None:
                raise NotationError(
                    _("a second 半 mark (the first is at line {line}, column {column})").format(
                        line=half_pos.line, column=half_pos.column
                    ),
                    text=text,
                    line=token.pos.line,
                    column=token.pos.column,
                    hint=_("hint: a pattern is divided once; remove one of the 半 marks."),
                )
            half, half_pos = len(strokes), token.pos
            continue
        if len(strokes) == MAX_STROKES:
            raise NotationError(
                _(
                    "the pattern has more than {limit:,} strokes, the limit for a pattern "
                    "(the longest printed one has 31)"
                ).format(limit=MAX_STROKES),
                text=text,
                line=token.pos.line,
                column=token.pos.column,
                hint=_("hint: for a longer render, repeat the pattern rather than writing it out."),
            )
        drum = Drum.of_symbol(token.kind)
        strokes.append(Stroke(drum, len(strokes), token.pos))
    if not strokes:
        if half_pos is not None:
            raise NotationError(
                _("the pattern is only a 半 mark and has no strokes"),
                text=text,
                line=half_pos.line,
                column=half_pos.column,
                hint=_("hint: write strokes as ○ (鼙) and □ (鼓), e.g. '○□○半○□'."),
            )
        raise NotationError(
            _("empty pattern: no ○ or □ found"),
            hint=_("hint: write strokes as ○ (鼙) and □ (鼓), e.g. '○□○半○□'."),
        )
    return Pattern(strokes=tuple(strokes), half=half, half_pos=half_pos, text=text)


def might_be_notation(text: str) -> bool:
    """True when `text` holds a notation glyph or a shape: meant as notation, not as a name."""
    return any(map(is_notation_char, text))


def is_notation_char(c: str) -> bool:
    """True for a character that makes a text be read as notation (might_be_notation): a
    notation glyph, a shape, or a letter confusable with a glyph outside ASCII."""
    return (
        glyphs.canonical(c) is not None
        or glyphs.is_symbol_like(c)
        or (c in glyphs.CONFUSABLES and not c.isascii())
    )
