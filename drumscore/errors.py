"""The one exception hierarchy: every error drumscore raises on bad input is a DrumscoreError."""

from __future__ import annotations

import unicodedata


class DrumscoreError(Exception):
    """Base of every error that drumscore raises for bad input or a failed output."""


class NotationError(DrumscoreError, ValueError):
    """The notation text cannot be read; carries the line and column (1-based) of the fault."""

    def __init__(
        self,
        message: str,
        *,
        text: str = "",
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.reason = message
        self.text = text
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self._format())

    def _format(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line is not None else ""
        parts = [f"{where}{self.reason}"]
        if self.line is not None and self.column is not None and self.text:
            parts.append(caret_display(self.text, self.line, self.column))
        if self.hint:
            parts.append(self.hint)
        return "\n".join(parts)


class ScoreNotFoundError(DrumscoreError, LookupError):
    """A score name, edition or file that does not exist."""


class CorpusError(DrumscoreError, ValueError):
    """A score file whose content is malformed."""


class TempoError(DrumscoreError, ValueError):
    """A tempo or interval that is not a usable positive number."""


class OptionError(DrumscoreError, ValueError):
    """An option value that cannot be used (section, repeat count, MIDI note, format…)."""


class OutputError(DrumscoreError, OSError):
    """An output file that cannot be written."""


def char_name(ch: str) -> str:
    """A character quoted with its code point and Unicode name, e.g. 'A' (U+0041 LATIN CAPITAL…)."""
    name = unicodedata.name(ch, "")
    code = f"U+{ord(ch):04X}"
    return f"{ch!r} ({code} {name})" if name else f"{ch!r} ({code})"


def _display_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _printable(ch: str) -> str:
    return ch if ch.isprintable() else "\N{REPLACEMENT CHARACTER}"


def caret_display(text: str, line: int, column: int, *, context: int = 40) -> str:
    """The faulty line (trimmed to about `context` characters around the fault) with a caret."""
    lines = text.splitlines() or [""]
    src = lines[line - 1] if 0 < line <= len(lines) else ""
    start = max(0, column - 1 - context)
    end = min(len(src), column - 1 + context)
    shown = "".join(_printable(c) for c in src[start:end])
    prefix = "…" if start > 0 else ""
    suffix = "…" if end < len(src) else ""
    pad = sum(_display_width(c) for c in prefix + shown[: column - 1 - start])
    return f"  {prefix}{shown}{suffix}\n  {' ' * pad}^"


class EncodingError(DrumscoreError, ValueError):
    """Bytes that are not text in any supported encoding, or an unknown --encoding."""


class ExtractError(DrumscoreError, ValueError):
    """A passage in which no drum score can be found, or whose scores cannot be told apart."""


class EngraveError(DrumscoreError, RuntimeError):
    """MuseScore, which engraves PDF and PNG, is missing or failed."""


class PlaybackError(DrumscoreError, RuntimeError):
    """Playback cannot start: no PortAudio library, no audio device, no MIDI backend or port."""
