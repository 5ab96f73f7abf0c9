"""The glyph table: which characters stand for ○ (鼙), □ (鼓) and 半 in real transcriptions.

Only characters that transcriptions of the 禮記 actually use, or that a typist reaching for the
shape would plausibly type, are here. Filled shapes (●, ■) and other geometric signs are left out on
purpose: in commentaries they mark other things, so the parser refuses them with a hint instead of
guessing.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from drumscore.i18n import _
from drumscore.model import HALF, STATE_SPELLINGS, Drum

CIRCLE = Drum.PI.symbol  # ○ U+25CB WHITE CIRCLE: 鼙, the small drum
SQUARE = Drum.GU.symbol  # □ U+25A1 WHITE SQUARE: 鼓, the big drum

#: Characters read as a circle (○, a stroke on 鼙).
CIRCLE_LOOKALIKES: dict[str, str] = {
    "○": "U+25CB WHITE CIRCLE (the canonical form)",
    "〇": "U+3007 IDEOGRAPHIC NUMBER ZERO (common in digitised CJK texts)",
    "◯": "U+25EF LARGE CIRCLE",
}

#: Characters read as a square (□, a stroke on 鼓).
SQUARE_LOOKALIKES: dict[str, str] = {
    "□": "U+25A1 WHITE SQUARE (the canonical form)",
    "口": "U+53E3 CJK 'mouth' (common in digitised CJK texts)",
    "囗": "U+56D7 CJK 'enclosure' radical",
    "⼝": "U+2F1D KANGXI RADICAL MOUTH",
    "⼞": "U+2F1E KANGXI RADICAL ENCLOSURE",
    "▢": "U+25A2 WHITE SQUARE WITH ROUNDED CORNERS",
    "◻": "U+25FB WHITE MEDIUM SQUARE",
    "☐": "U+2610 BALLOT BOX",
}

#: Look-alikes that are also ordinary words of the prose (口 "mouth": 壺口, 口徑, 口中): read as
#: strokes in notation a score is written in, but never found as strokes in a passage, where they
#: are words far more often; a transcription that types strokes with one maps it (口=□).
WORD_LOOKALIKES = frozenset("口")

#: Characters read as the 半 mark.
HALF_LOOKALIKES: dict[str, str] = {
    "半": "U+534A CJK 'half' (the canonical form)",
}

#: Every accepted glyph mapped to its canonical form.
CANONICAL: dict[str, str] = {
    **dict.fromkeys(CIRCLE_LOOKALIKES, CIRCLE),
    **dict.fromkeys(SQUARE_LOOKALIKES, SQUARE),
    **dict.fromkeys(HALF_LOOKALIKES, HALF),
}


#: The drum character of a label (魯鼓), and of the heading 鼓 before the first figure.
DRUM_CHARS = "鼓鼔皷"
#: Interlinear notes: ( … ) in Kanripo, （ … ） and 【 … 】 in modern and web texts.
NOTE_BRACKETS = {"(": ")", "（": "）", "【": "】"}
#: The Kanripo mark at the end of a printed line.
LINE_MARK = "¶"
#: The characters of the labels 魯鼓 and 薛鼓 in every spelling: never a stroke.
LABEL_CHARS = frozenset("".join(c for c in STATE_SPELLINGS if not c.isascii()) + DRUM_CHARS)
#: Characters with a meaning in a passage's markup (notes, line ends, tags): never a stroke.
MARKUP_CHARS = frozenset("".join(NOTE_BRACKETS) + "".join(NOTE_BRACKETS.values()) + LINE_MARK) | {
    "<",
    ">",
}
#: What a glyph mapping may map a sign to, and the drum it strikes.
GLYPH_TARGETS = {drum.symbol: drum.value for drum in Drum}


def mapping_refusal(glyph: str, target: str) -> str:
    """Why the sign `glyph` cannot be read as the stroke `target`, or "" if it can.

    A mapped sign must mean nothing else in a passage: not notation already, not a character of
    the labels 魯鼓/薛鼓, not markup (note brackets, ¶, tags) and not a space; and it maps to ○
    or □ only. The one rule for extracting with a mapping and for edition files that record one.
    """
    if len(glyph) != 1 or len(target) != 1:
        return _("a mapping is one character, then = and the stroke it stands for (X=○ or X=□)")
    if target not in GLYPH_TARGETS:
        return _(
            "a sign can only be read as ○ (鼙) or □ (鼓), not as {target!r}; write X=○ or X=□"
        ).format(target=target)
    if glyph in WORD_LOOKALIKES and CANONICAL[glyph] != target:
        return _("{glyph!r} can only be read as {stroke}, the shape it has").format(
            glyph=glyph, stroke=CANONICAL[glyph]
        )
    if glyph in CANONICAL and glyph not in WORD_LOOKALIKES:
        return _("{glyph!r} is notation already, read as {stroke}").format(
            glyph=glyph, stroke=CANONICAL[glyph]
        )
    if glyph in LABEL_CHARS:
        return _("{glyph!r} belongs to the labels 魯鼓 and 薛鼓, it is not a stroke").format(
            glyph=glyph
        )
    if glyph in MARKUP_CHARS:
        return _("{glyph!r} is markup in a passage (notes, line ends, tags), not a stroke").format(
            glyph=glyph
        )
    if glyph.isspace():
        return _("{glyph!r} is a space, which is ignored between strokes").format(glyph=glyph)
    return ""


def canonical(ch: str, extra: Mapping[str, str] | None = None) -> str | None:
    """The canonical glyph (○, □ or 半) that `ch` stands for, or None."""
    if extra and ch in extra:
        return extra[ch]
    return CANONICAL.get(ch)


def is_symbol_like(ch: str) -> bool:
    """True for shapes and signs that look as if they might be meant as notation."""
    if len(ch) != 1:
        return False
    cat = unicodedata.category(ch)
    if cat in ("So", "Sm"):
        return True
    name = unicodedata.name(ch, "")
    # (the words tested one by one: a site's build asks this of 51,000 characters)
    return "CIRCLE" in name or "SQUARE" in name or "RING" in name or "BOX" in name


#: Characters that look like a notation glyph but are letters or digits; refused with a hint.
CONFUSABLES: dict[str, str] = {
    "O": CIRCLE,
    "o": CIRCLE,
    "0": CIRCLE,
    "Ｏ": CIRCLE,
    "ｏ": CIRCLE,
    "０": CIRCLE,
    "ロ": SQUARE,
    "ㅁ": SQUARE,
}


def symbol_hint(ch: str) -> str:
    """A suggestion for a character that is not in the table but may be meant as notation."""
    if ch in CONFUSABLES:
        target = CONFUSABLES[ch]
        drum = Drum.of_symbol(target).value
        return _(
            "hint: {char!r} looks like {target} but is {name}; "
            "write {target} (U+{code:04X}) for a stroke on {drum}."
        ).format(
            char=ch,
            target=target,
            name=unicodedata.name(ch, _("another character")),
            code=ord(target),
            drum=drum,
        )
    name = unicodedata.name(ch, "")
    if "BLACK" in name or "FILLED" in name:
        return _(
            "hint: {char!r} is a filled shape; the scores use only the open ○ (鼙) and □ (鼓). "
            "Replace it with ○ or □ if that is what the text means."
        ).format(char=ch)
    return _(
        "hint: if {char!r} stands for a drum stroke in your text, replace it with ○ (鼙) or □ (鼓)"
        " (or map it with a glyph mapping when extracting a passage)."
    ).format(char=ch)
