"""The grammar of what the page's fields take, written from the library's own constants: the
text of numbers, ranges of strokes, ramps, drums and score names, as the command line reads them.

The page (static/engine.js, compare.js) reads a field by these patterns and tables only, so what
it takes and refuses is what render's strokes, ramp and only options and a score's name take
and refuse; each refusal carries the key the library's error carries (DrumscoreError.key).
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

from drumscore import corpus, glyphs
from drumscore.conductor.timeline import MAX_SPAN_LENGTH
from drumscore.conductor.track import MAX_RAMP_LENGTH
from drumscore.model import STATE_SPELLINGS, Drum, Edition
from drumscore.notation import is_notation_char
from drumscore.timing import (
    MAX_BPM,
    MAX_EXPONENT,
    MAX_NUMBER_LENGTH,
    MIN_BPM,
    NUMBER_PATTERN,
    WHOLE_PATTERN,
)

#: The code points the classes below are read from: the first two planes and the tags. Every
#: space, every character with a case, every symbol and every character named a circle,
#: square, ring or box is among them (TAG LEFT SQUARE BRACKET too; the other planes hold
#: ideographs, selectors and private use), so a build reads 131,200 code points, not 1,114,112
#: (tests/site/test_grammar.py reads the others).
SCANNED = (*range(0x20000), *range(0xE0000, 0xE0080))


@functools.cache
def space_class() -> str:
    """A JavaScript character class of every character Python's str.strip() and a pattern's \\s
    take for a space (JavaScript's own \\s differs: it has U+FEFF, not U+001C to U+001F)."""
    return _class_of(c for c in SCANNED if chr(c).isspace())


def _class_of(codes: Iterable[int]) -> str:
    """A JavaScript character class (flag u) of code points, in ranges."""
    ranges: list[list[int]] = []
    for c in codes:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    parts = [f"\\u{{{a:x}}}" if a == b else f"\\u{{{a:x}}}-\\u{{{b:x}}}" for a, b in ranges]
    return "[" + "".join(parts) + "]"


@functools.cache
def notation_class() -> str:
    """A JavaScript character class of every character that makes a name be read as notation
    (notation.might_be_notation). Unassigned, private and surrogate code points have no name
    and no shape category, so only a glyph of the tables could count among them."""
    tables = set(glyphs.CANONICAL) | set(glyphs.CONFUSABLES)
    beyond = sorted(code for code in map(ord, tables) if not _scanned(code))
    codes = []
    for code in (*SCANNED, *beyond):
        c = chr(code)
        category = unicodedata.category(c)
        if category in ("Cn", "Co", "Cs") and c not in tables:
            continue
        if category == "Lo" and 0x3400 <= code <= 0x9FFF and c not in tables:
            continue  # an ideograph, named by its code point: no shape in its name
        if is_notation_char(c):
            codes.append(code)
    return _class_of(sorted(codes))


def _scanned(code: int) -> bool:
    """Whether `code` is among SCANNED."""
    return code < 0x20000 or 0xE0000 <= code < 0xE0080


def js_pattern(pattern: str) -> str:
    """A Python regular expression as JavaScript (flag u) reads it alike: named groups spelt
    (?<name>), \\s as Python's spaces, and . as any character but a line feed (JavaScript's
    . also stops at \\r, U+2028 and U+2029). Other escapes are refused: none is needed."""
    out = []
    i, in_class = 0, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            nxt = pattern[i + 1]
            if nxt == "s" and not in_class:
                out.append(space_class())
            elif nxt in ".+*?()[]{}|^$/\\-":
                out.append(c + nxt)
            else:
                raise ValueError(f"no JavaScript spelling for \\{nxt} in {pattern!r}")
            i += 2
            continue
        if pattern.startswith("(?P<", i):
            out.append("(?<")
            i += 4
            continue
        if c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class:
            in_class = False
        elif c == "." and not in_class:
            c = "[^\\n]"
        out.append(c)
        i += 1
    return "".join(out)


@functools.cache
def _folded() -> dict[str, str]:
    """Every character whose casefold() is not itself, and that casefold."""
    chars = (chr(code) for code in SCANNED)
    return {c: c.casefold() for c in chars if c.casefold() != c}


def folding(words: Iterable[str]) -> dict[str, str]:
    """Each character whose casefold() is not itself and is spelt with the characters of
    `words` (themselves casefolded), and that casefold: with it a script folds a text as Python
    does, as far as matching one of `words` goes (a character folding to anything else cannot
    match, folded or not)."""
    alphabet = {c for w in words for c in w}
    return {c: f for c, f in _folded().items() if all(x in alphabet for x in f)}


def field_data() -> dict:
    """What the page's practice fields take: numbers, ranges of strokes, ramps and drums, by the
    patterns and limits `render` reads them with."""
    drums = {drum.pinyin: [drum.value, drum.pinyin, drum.symbol] for drum in Drum}
    return {
        "space": space_class(),
        "number": js_pattern(NUMBER_PATTERN),
        "whole": js_pattern(WHOLE_PATTERN),
        "max_number": MAX_NUMBER_LENGTH,
        "max_span": MAX_SPAN_LENGTH,
        "max_ramp": MAX_RAMP_LENGTH,
        "min_bpm": str(MIN_BPM),
        "max_bpm": str(MAX_BPM),
        "max_exponent": MAX_EXPONENT,
        "drums": drums,
        "fold": folding(n for names in drums.values() for n in names),
    }


def names_data(scores: Iterable[tuple[str, str, int, str]], pool: Iterable[Edition]) -> dict:
    """What a score's name means on the page, as corpus.resolve reads it: the name's pattern,
    each spelling of a state and of an edition (casefolded) and what it stands for, the figures,
    the default edition, and the site's scores by state, figure and edition id (`scores`: key,
    state, figure, edition id of each)."""
    editions: dict[str, str] = {}
    for edition in pool:
        names = (edition.id, edition.name, edition.provenance.kanripo, *edition.aliases)
        for name in names:
            if name:
                editions.setdefault(name.casefold(), edition.id)
    scores = list(scores)
    for key, _state, _figure, ident in scores:
        # an edition read from a file the command line named is cited by its path (lu/1@PATH),
        # as its score's key (and its page's Compare link) names it
        editions.setdefault(key.partition("@")[2].casefold(), ident)
    states = {spelling.casefold(): state.value for spelling, state in STATE_SPELLINGS.items()}
    keys = {f"{state}|{figure}|{edition}": key for key, state, figure, edition in scores}
    return {
        "pattern": js_pattern(corpus.NAME_PATTERN),
        "space": space_class(),
        "states": states,
        "editions": editions,
        "figures": [str(f) for f in corpus.FIGURES],
        "default_edition": corpus.DEFAULT_EDITION,
        "scores": keys,
        "fold": folding([*states, *editions]),
        "notation": notation_class(),
        "glyphs": dict(glyphs.CANONICAL),
    }
