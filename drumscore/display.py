"""Text for people: patterns with the 半 division visible, and tables that line up with CJK text."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

import wcwidth

from drumscore.model import Pattern, line_starts, line_text


def width(text: str) -> int:
    """Terminal columns `text` takes (wcwidth): CJK ideographs count two, combining marks none;
    a control character, which prints nothing of its own, none."""
    if text.isascii() and text.isprintable():  # the common case (help, English), one column each
        return len(text)
    return sum(max(0, wcwidth.wcwidth(c)) for c in text)


def char_name(ch: str) -> str:
    """A character quoted with its code point and Unicode name, e.g. 'A' (U+0041 LATIN CAPITAL…)."""
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}"
    return f"{ch!r} ({code} {name})" if name else f"{ch!r} ({code})"


def _printable(ch: str) -> str:
    """`ch` as a caret line shows it: an invisible or control character by its code point."""
    if ch.isprintable():
        return ch
    if "\ud800" <= ch <= "\udfff":
        return "\N{REPLACEMENT CHARACTER}"
    return f"⟨U+{ord(ch):04X}⟩"


def caret_display(text: str, line: int, column: int, *, context: int = 40) -> str:
    """The faulty line (trimmed to about `context` characters around the fault) with a caret."""
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
    for ch in text:
        w = max(0, wcwidth.wcwidth(ch))
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
