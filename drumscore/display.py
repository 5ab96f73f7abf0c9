"""Text for people: patterns with the 半 division visible, and tables that line up with CJK text.

Columns are counted as the terminal draws them: a CJK ideograph takes two, a combining mark none.
The East Asian Ambiguous characters (○ □ — · │ █) take one column in most terminals and two in
some set up for CJK text; `set_ambiguous_wide` says which, else `from_environment` tells as far
as it reliably can (docs/languages.md).
"""

from __future__ import annotations

import functools
import os
import re
import sys
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from drumscore.errors import OptionError
from drumscore.i18n import _, aside, quoted

if TYPE_CHECKING:
    from drumscore.model import Pattern

#: The environment variable that says the terminal draws ambiguous characters wide (1) or not (0).
AMBIGUOUS_WIDE_VARIABLE = "DRUMSCORE_AMBIGUOUS_WIDE"
#: The Windows console code pages of CJK text (Japanese, Simplified Chinese, Korean, Traditional
#: Chinese), in which the console draws the ambiguous characters two columns wide.
CJK_CODE_PAGES = frozenset({932, 936, 949, 950})

#: Whether ambiguous characters count two columns; None: as the environment says.
_ambiguous_wide: bool | None = None


def _console_code_page() -> int | None:
    """The output code page of the Windows console this process writes to; None elsewhere."""
    if sys.platform != "win32":
        return None
    import ctypes

    page = ctypes.windll.kernel32.GetConsoleOutputCP()  # type: ignore[attr-defined]
    return int(page) or None


def from_environment(
    environ: Mapping[str, str] | None = None, code_page: int | None = None
) -> bool:
    """Whether the terminal draws ambiguous characters two columns wide, as far as it can be told:
    DRUMSCORE_AMBIGUOUS_WIDE=1 (or 0), else a Windows console (not Windows Terminal, which draws
    them narrow) whose output code page is a CJK one (`code_page`: that page, for a test).
    Nothing else tells reliably: a CJK locale does not, nor TERM. Raises OptionError for another
    value of the variable."""
    env = os.environ if environ is None else environ
    value = env.get(AMBIGUOUS_WIDE_VARIABLE, "").strip()
    if value in ("0", "1"):
        return value == "1"
    if value:
        raise OptionError(
            _(
                "{name}={value!r} says neither 1 (ambiguous characters such as ○ □ — · are drawn "
                "two columns wide) nor 0 (one column); set it to 1 or 0, or unset it"
            ).format(name=AMBIGUOUS_WIDE_VARIABLE, value=value)
        )
    if env.get("WT_SESSION"):
        return False
    page = _console_code_page() if code_page is None else code_page
    return page in CJK_CODE_PAGES


def set_ambiguous_wide(wide: bool | None) -> bool | None:
    """Count the East Asian Ambiguous characters two columns wide (True), one (False), or as the
    environment says (None); returns the setting before, to give back."""
    global _ambiguous_wide
    before, _ambiguous_wide = _ambiguous_wide, wide
    return before


def ambiguous_wide() -> bool:
    """Whether ambiguous characters count two columns now (a bad environment value: one)."""
    if _ambiguous_wide is not None:
        return _ambiguous_wide
    try:
        return from_environment()
    except OptionError:
        return False


#: The blocks in which a letter, digit, punctuation mark, symbol or space takes the columns its
#: East Asian width says (F and W two, the others one), as wcwidth counts them: Latin to
#: Georgian, punctuation to geometric shapes, the CJK blocks and the full-width forms; not the
#: Hangul fillers (none) nor the Yijing hexagrams (wide in newer Unicode), which wcwidth counts.
PLAIN_BLOCKS = (
    (0x20, 0x10FF),
    (0x2000, 0x25FF),
    (0x2E80, 0x3163),
    (0x3165, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xF900, 0xFAFF),
    (0xFE30, 0xFE4F),
    (0xFF00, 0xFF9F),
    (0xFFA1, 0xFFEF),
    (0x20000, 0x3FFFD),
)


def plain_columns(ch: str) -> int | None:
    """The columns `ch` takes, told from Python's own Unicode tables, for the characters of
    PLAIN_BLOCKS that are letters, digits, punctuation, symbols or spaces (all of drumscore's
    own text, Chinese included); None for the others, which wcwidth measures."""
    code = ord(ch)
    if not any(low <= code <= high for low, high in PLAIN_BLOCKS):
        return None
    category = unicodedata.category(ch)
    if category[0] not in "LNPS" and category != "Zs":
        return None
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


@functools.lru_cache(maxsize=8192)
def _columns(ch: str, wide: bool) -> int:
    """The columns one character takes; an ambiguous one two when `wide` (kept for each
    character: the big display measures a screenful of blocks at every stroke)."""
    w = plain_columns(ch)
    if w is None:
        import wcwidth  # its tables take 6 MB and 80 ms: only for what Python's tables leave

        w = max(0, wcwidth.wcwidth(ch))
    if w == 1 and wide and unicodedata.east_asian_width(ch) == "A":
        return 2
    return w


def width(text: str) -> int:
    """Terminal columns `text` takes (wcwidth): CJK ideographs count two, combining marks none,
    ambiguous characters two where the terminal draws them so (`ambiguous_wide`); a control
    character, which prints nothing of its own, none."""
    if text.isascii() and text.isprintable():  # the common case (help, English), one column each
        return len(text)
    wide = ambiguous_wide()
    return sum(_columns(c, wide) for c in text)


def char_name(ch: str) -> str:
    """A character quoted with its code point and Unicode name, e.g. 'A' (U+0041 LATIN CAPITAL…)."""
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}"
    return aside(quoted(ch), f"{code} {name}" if name else code)


def _printable(ch: str) -> str:
    """`ch` as a caret line shows it: an invisible or control character by its code point."""
    if ch.isprintable():
        return ch
    if "\ud800" <= ch <= "\udfff":
        return "\N{REPLACEMENT CHARACTER}"
    return f"⟨U+{ord(ch):04X}⟩"


def caret_display(text: str, line: int, column: int, *, context: int = 40) -> str:
    """The faulty line (trimmed to about `context` characters around the fault) with a caret."""
    from drumscore.model import line_starts, line_text

    src = line_text(text, line_starts(text), line)
    start = max(0, column - 1 - context)
    end = min(len(src), column - 1 + context)
    shown = "".join(_printable(c) for c in src[start:end])
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(src) else ""
    pad = width(prefix + "".join(_printable(c) for c in src[start : column - 1]))
    return f"  {prefix}{shown}{suffix}\n  {' ' * pad}^"


def pad(text: str, columns: int) -> str:
    """`text` padded with spaces to `columns` terminal columns (CJK counting two)."""
    return text + " " * max(0, columns - width(text))


def cut(text: str, columns: int, ellipsis: str = "…") -> str:
    """`text` cut to at most `columns` terminal columns, ending in `ellipsis` if cut; a wide
    character that would straddle the edge is left out whole."""
    if width(text) <= columns:
        return text
    room = columns - width(ellipsis)
    kept, used = [], 0
    wide = ambiguous_wide()
    for ch in text:
        w = _columns(ch, wide)
        if used + w > room:
            break
        kept.append(ch)
        used += w
    return "".join(kept) + ellipsis if room >= 0 else ""


def centre(text: str, columns: int) -> str:
    """`text` centred in `columns` terminal columns (cut first if wider), right side unpadded."""
    text = cut(text, columns)
    return " " * ((columns - width(text)) // 2) + text


def table(rows: Sequence[Sequence[str]], header: Sequence[str]) -> str:
    """A plain table with columns padded to their widest cell."""
    cells = [list(header), *[list(r) for r in rows]]
    widths = [max(width(row[i]) for row in cells) for i in range(len(header))]
    lines = [
        "  ".join(pad(c, w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def labelled_lines(fields: Sequence[tuple[str, str]]) -> list[str]:
    """Lines of a label (ending in its colon) and a value, the values lined up: "edition: a"
    padded after the colon; a label with a full-width colon (Chinese) padded before it with
    ideographic spaces, so that its value follows the colon with no space: "注　：a"."""
    widest = max(width(name) for name, _value in fields)
    lines = []
    for name, value in fields:
        if name.endswith("："):
            gap = widest - width(name)
            fill = "\u3000" * (gap // 2) + " " * (gap % 2)
            lines.append(f"{name[:-1]}{fill}：{value}")
        else:
            lines.append(pad(name, widest + 1) + value)
    return lines


def divided(pattern: Pattern) -> str:
    """The notation with 半 set apart: ○□○○ │半│ ○□○."""
    symbols = "".join(s.drum.symbol for s in pattern.strokes)
    if pattern.half is None:
        return symbols
    return f"{symbols[: pattern.half]} │半│ {symbols[pattern.half :]}"


#: Where a line of text may break between phrases: a run of two spaces or more (between the
#: fields of a status line), the space after " ·" (between the keys, the parts of a title), a
#: space after an English comma, semicolon or colon, just after a Chinese clause mark or the
#: middle dot of a Chinese title (，、；：。・), and just before a book's title 《 (where Chinese
#: may break a line). A mark stays with the phrase it ends; anywhere else is inside a phrase.
_PHRASE_BREAK = re.compile(r" {2,}|(?<= ·) |(?<=[,;:]) +|(?<=[，、；：。・])|(?<=\S)(?=《)")


def phrases(text: str) -> list[tuple[str, str]]:
    """`text` as (separator, phrase) pairs, the separator what stood before the phrase ("" for
    the first, and after a Chinese mark): the units a wrapped line keeps whole."""
    out: list[tuple[str, str]] = []
    at, before = 0, ""
    for found in _PHRASE_BREAK.finditer(text):
        if found.start() == at and found.group() == "":
            continue
        out.append((before, text[at : found.start()]))
        at, before = found.end(), found.group()
    out.append((before, text[at:]))
    return [(sep, phrase) for sep, phrase in out if phrase]


def wrap_phrases(text: str, columns: int) -> list[str]:
    """`text` in lines of at most `columns` terminal columns (CJK two, ambiguous characters as
    `ambiguous_wide` says), broken only between phrases (see `phrases`), the separator at a
    break dropped; the lines after the first indented as the first is. A phrase wider than a
    line on its own is broken between its words, and a word wider than that is cut."""
    indent = text[: len(text) - len(text.lstrip(" "))]
    room = max(1, columns)
    lines: list[str] = []
    line = ""
    for sep, phrase in phrases(text.strip(" ")):
        joined = line + sep + phrase if line else indent + phrase
        if width(joined) <= room:
            line = joined
            continue
        if line:
            lines.append(line)
        line = indent + phrase
        if width(line) > room:  # the phrase alone is too wide: between its words
            words = line.split(" ")
            line = ""
            for word in words:
                joined = f"{line} {word}" if line.strip() else (line + word)
                if line.strip() and width(joined) > room:
                    lines.append(line)
                    joined = indent + word
                line = joined
            if width(line) > room:
                lines.append(cut(line, room))
                line = ""
    if line:
        lines.append(line)
    return lines
