"""The readings a user adds to a passage's tables: glyphs written `X=○`, labels written `X=薛`."""

from __future__ import annotations

from collections.abc import Iterable

from drumscore import glyphs
from drumscore.editions import lexer
from drumscore.errors import OptionError
from drumscore.i18n import _
from drumscore.model import STATE_SPELLINGS


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
