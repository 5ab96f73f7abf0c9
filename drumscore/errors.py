"""The one exception hierarchy: every error drumscore raises on bad input is a DrumscoreError."""

from __future__ import annotations


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
            from drumscore.display import caret_display

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


class EncodingError(DrumscoreError, ValueError):
    """Bytes that are not text in any supported encoding, or an unknown --encoding."""


class ExtractError(DrumscoreError, ValueError):
    """A passage in which no drum score can be found, or whose scores cannot be told apart."""


class EngraveError(DrumscoreError, RuntimeError):
    """MuseScore, which engraves PDF and PNG, is missing or failed."""


class PlaybackError(DrumscoreError, RuntimeError):
    """Playback cannot start: no PortAudio library, no audio device, no MIDI backend or port."""


class InputFileError(DrumscoreError, OSError):
    """An input file that cannot be read: missing, not a regular file, too large, unreadable.

    `path` is the file; `limit` the size limit in bytes when the file is too large.
    """

    def __init__(self, message: str, *, path: str = "", limit: int | None = None) -> None:
        super().__init__(message)
        self.path = path
        self.limit = limit


class InputMissingError(InputFileError, FileNotFoundError):
    """An input file that does not exist."""


class WriteError(DrumscoreError, OSError):
    """An output file that could not be written (a full disk, a file-size limit): a runtime
    failure, not bad input."""
