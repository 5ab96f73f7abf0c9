"""The one exception hierarchy: every error drumscore raises is a DrumscoreError.

Two branches, told apart by `exit_status`: bad input or usage (2: the call must change), and a
RuntimeFailure (1: the input was fine, but the engraver, the disk or the device failed, or an
optional dependency is not installed). An error about one parameter names it in `option` (the
Python name, such as "bpm"); the message starts with that name, so a front end can put its own
spelling of the parameter in its place.
"""

from __future__ import annotations

import contextlib
import importlib
import io
from types import ModuleType
from typing import ClassVar

from drumscore.i18n import _

#: The exit status of bad input or usage, and of a runtime failure.
EXIT_INPUT = 2
EXIT_FAILURE = 1


class DrumscoreError(Exception):
    """Base of every error that drumscore raises; on its own, bad input or usage."""

    exit_status: ClassVar[int] = EXIT_INPUT

    def __init__(
        self, message: str = "", *, option: str | None = None, key: str | None = None
    ) -> None:
        super().__init__(message)
        #: The parameter the error is about (a Python name such as "bpm"), if it is about one.
        self.option = option
        #: Which refusal it is, by a stable name the page's strings share (see site/grammar.py).
        self.key = key


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
        option: str | None = None,
    ) -> None:
        self.reason = message
        self.text = text
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(self._format(), option=option)

    def _format(self) -> str:
        if self.line is not None:
            where = _("line {line}, column {column}: {reason}")
            parts = [where.format(line=self.line, column=self.column, reason=self.reason)]
        else:
            parts = [self.reason]
        if self.line is not None and self.column is not None and self.text:
            from drumscore.display import caret_display  # display imports this module

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
    """A parameter value that cannot be used (section, repeat count, MIDI note, format…)."""


class ListError(OptionError):
    """A list written in one parameter's text (touhu,she; 72,112; 40:60:5) that cannot be read:
    an empty item, too many or too few, one given twice. `item` is the bad item's place in the
    list (1-based; None when the list as a whole is wrong), `column` its first character's."""

    def __init__(
        self,
        message: str,
        *,
        option: str,
        item: int | None = None,
        column: int | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message, option=option, key=key)
        self.item = item
        self.column = column


class OutputError(DrumscoreError, OSError):
    """An output path that cannot be used: a folder, a missing or read-only folder."""


class EncodingError(DrumscoreError, ValueError):
    """Bytes that are not text in any supported encoding, or an unknown encoding name."""


class ExtractError(DrumscoreError, ValueError):
    """A passage in which no drum score can be found, or whose scores cannot be told apart."""


class KitError(DrumscoreError, ValueError):
    """A kit file or sample that cannot be used."""


class SoundFontError(DrumscoreError, ValueError):
    """A SoundFont that cannot be used."""


class PerformanceError(DrumscoreError, ValueError):
    """A performance (a recording or a MIDI file) with no strokes to check, or that cannot be
    the score it is checked against."""


class NoisyPerformanceError(PerformanceError):
    """A recording too noisy to judge: its strokes (`snr_db`, the loudest's peak over the noise
    floor) stand so little above its noise that `lost` of its onsets were lost in it."""

    def __init__(self, message: str, *, snr_db: float, lost: int) -> None:
        super().__init__(message, key="too_noisy")
        self.snr_db = snr_db
        self.lost = lost


class RuntimeFailure(DrumscoreError, RuntimeError):
    """The input was good, but something drumscore relies on failed: exit status 1."""

    exit_status: ClassVar[int] = EXIT_FAILURE


class WriteError(RuntimeFailure, OSError):
    """An output file could not be written (a full disk, a vanished folder…)."""


class EngraveError(RuntimeFailure):
    """MuseScore, which engraves PDF and PNG, failed."""


class PlaybackError(RuntimeFailure):
    """Playback cannot start or went wrong: no audio device, the device or MIDI system failed."""


class MissingDependencyError(DrumscoreError, ImportError):
    """An optional part of drumscore is not installed; the message says how to install it."""

    exit_status: ClassVar[int] = EXIT_FAILURE

    def __init__(self, needed: str, install: str = "", *, option: str | None = None) -> None:
        self.needed = needed
        self.install = install
        message = _("{needed}: {install}").format(needed=needed, install=install)
        super().__init__(message if install else needed, option=option)


def require(
    module: str, *, extra: str, needed: str = "", debian: str = "", option: str | None = None
) -> ModuleType:
    """Import an optional module, or raise MissingDependencyError with the line that installs it.

    `extra` is drumscore's optional extra that brings the module; `debian` a system package it
    also needs; `needed` says what wants it (by default "this needs the Python package X").
    """
    try:
        # some libraries print at import (pyfluidsynth says where it found its library when CI
        # is set); that must not reach a command's own output, --json above all
        with contextlib.redirect_stdout(io.StringIO()):
            return importlib.import_module(module)
    except ImportError as exc:
        why = needed or _("this needs the Python package {package}").format(
            package=module.split(".")[0]
        )
        raise MissingDependencyError(
            _("{why} ({error})").format(why=why, error=exc),
            install_line(extra, debian),
            option=option,
        ) from None


def install_line(extra: str, debian: str = "") -> str:
    """How to install one of drumscore's optional extras (and the Debian package it needs)."""
    line = f"pip install 'drumscore[{extra}]'"
    if not debian:
        return line
    return _("{command} and, on Debian, apt install {package}").format(command=line, package=debian)


class ProgrammeError(DrumscoreError, ValueError):
    """A programme file (items in order for render and play) that cannot be used."""


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


#: Every exception class: drumscore's own __all__ takes them from here.
__all__ = [
    "CorpusError",
    "DrumscoreError",
    "EncodingError",
    "EngraveError",
    "ExtractError",
    "InputFileError",
    "InputMissingError",
    "KitError",
    "ListError",
    "MissingDependencyError",
    "NoisyPerformanceError",
    "NotationError",
    "OptionError",
    "OutputError",
    "PerformanceError",
    "PlaybackError",
    "ProgrammeError",
    "RuntimeFailure",
    "ScoreNotFoundError",
    "SoundFontError",
    "TempoError",
    "WriteError",
]
