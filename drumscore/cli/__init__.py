"""The command line: the only place that prints, reads options and chooses exit codes."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import NoReturn

from drumscore import __version__
from drumscore.cli.commands import (
    check,
    collate,
    compare,
    corpus,
    extract,
    play,
    render,
    serve,
    site,
)
from drumscore.cli.options import error_message
from drumscore.corpus import SkippedFile, on_skipped
from drumscore.errors import EXIT_FAILURE, EXIT_INPUT, DrumscoreError
from drumscore.files.atomic import on_stale_removed
from drumscore.files.reading import watch_inputs
from drumscore.i18n import LANGUAGES, N_, _, ngettext, set_language

#: Each command module has add_parser(subparsers) and run(args) -> int.
COMMANDS = (corpus, render, play, extract, compare, collate, check, site, serve)

#: Exit status: 2 for bad input or usage, 1 for a runtime failure (see errors.RuntimeFailure).
EXIT_USAGE = EXIT_INPUT
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_HANGUP = 129
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in the same one-line form as every other error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        fail(_("{message} (see '{help}')").format(message=message, help=f"{self.prog} --help"))


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    say(_("drumscore: error: {message}").format(message=message))
    raise SystemExit(code)


def choose_language(argv: Sequence[str]) -> str:
    """Speak the language the last --lang names (before a lone --), else the environment's, with
    argparse's own messages in it too, before any help or message is made; returns the catalog."""
    chosen: str | None = None
    for index, item in enumerate(argv):
        if item == "--":
            break
        if item == "--lang" and index + 1 < len(argv):
            chosen = argv[index + 1]
        elif item.startswith("--lang="):
            chosen = item.partition("=")[2]
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]
    return set_language(chosen if chosen != "all" else None)


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the language of messages and help: {languages} "
            "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
        ).format(languages=", ".join(tag for tag, _name in LANGUAGES.values())),
    )


def say(line: str) -> None:
    """A line on stderr; a closed or full stderr loses the line, never the exit status."""
    stream = sys.stderr
    if stream is None:
        return
    try:
        print(line, file=stream, flush=True)
    except (OSError, ValueError):
        sys.stderr = _Lost()


class _Lost:
    """Where stderr goes once it has failed: nowhere, and it is no terminal."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False


#: The example each command's --help ends with, unless the command gives its own.
EXAMPLES = {
    "list": "drumscore list --edition benyi",
    "show": "drumscore show xue/2@benyi",
    "render": "drumscore render lu --section touhu --bpm 96 -o lu.wav",
    "play": "drumscore play lu --section touhu --loop",
    "extract": "drumscore extract passage.txt -o mine.toml",
    "compare": "drumscore compare lu/2 lu/2@xunzuan --audio ab.wav",
    "collate": "drumscore collate lu/2",
    "site": "drumscore site out",
    "serve": "drumscore serve",
}
#: The guides in docs/, listed by drumscore --help.
GUIDES = {
    "docs/rendering.md": N_("sound, expression and long renders"),
    "docs/kits.md": N_("your own drum kits"),
    "docs/notation.md": N_("MusicXML, SVG, PNG and PDF"),
    "docs/play.md": N_("playing a score live"),
    "docs/extract.md": N_("reading the scores out of an edition"),
    "docs/compare.md": N_("comparing scores and collating the editions"),
    "docs/check.md": N_("checking a performance against a score"),
    "docs/languages.md": N_("messages and pages in 繁體中文, 简体中文 and English"),
}


def _epilog() -> str:
    guides = "\n".join(f"  {path:<20} {_(what)}" for path, what in GUIDES.items())
    return "\n".join(
        [
            _("guides (in the source repository):"),
            guides,
            "",
            _("example: {command}").format(command="drumscore render lu -o lu.wav"),
        ]
    )


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="drumscore",
        description=_(
            "Hear, compare and export the drum scores of the 禮記 投壺 chapter: "
            "○ strikes 鼙 (the small drum), □ strikes 鼓 (the big drum), 半 divides the pattern."
        ),
        epilog=_epilog(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"drumscore {__version__}",
        help=_("show the version and exit"),
    )
    _add_lang(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.add_parser(sub)
    for name, command in sub.choices.items():
        if "--lang" not in command._option_string_actions:  # site has its own, which takes all
            _add_lang(command)
        if command.epilog is None and name in EXAMPLES:
            command.epilog = _("example: {command}").format(command=EXAMPLES[name])
    return parser


def _reconfigure_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM and SIGHUP (the terminal closed) end drumscore like Ctrl-C does: unwinding, so no
    partial output file is left."""
    raise SystemExit(EXIT_HANGUP if signum == signal.SIGHUP else EXIT_TERMINATED)


def _open_standard_descriptors() -> None:
    """Point a closed stdin, stdout or stderr (2>&-) at /dev/null, so no file drumscore opens
    takes its number and receives what is meant for the terminal."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
    if sys.stderr is None:
        sys.stderr = _Lost()


def _stale_removed(path: Path, pid: int) -> None:
    say(f"drumscore: removed {str(path)!r}, left by an earlier run (process {pid}) that was killed")


#: The user's edition files left out of the corpus in this run, warned of when it ends.
_left_out: dict[str, SkippedFile] = {}


def _skipped(skipped: SkippedFile) -> None:
    _left_out.setdefault(skipped.path, skipped)


def _warn_left_out() -> None:
    """One warning line for each of the user's edition files left out of the corpus."""
    for path, skipped in _left_out.items():
        say(f"drumscore: warning: left out your edition file {path!r}: {skipped.reason}")
    _left_out.clear()


def main(argv: Sequence[str] | None = None) -> int:
    _open_standard_descriptors()
    _reconfigure_streams()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)
        signal.signal(signal.SIGHUP, _terminate)
    previous = on_stale_removed(_stale_removed)
    previous_skipped = on_skipped(_skipped)
    _left_out.clear()
    try:
        with watch_inputs():
            code = _main(argv)
        _warn_left_out()
        return code
    except KeyboardInterrupt:  # before or after the command ran (parsing, its last lines)
        say("drumscore: interrupted")
        return EXIT_INTERRUPTED
    finally:
        _left_out.clear()
        on_stale_removed(previous)
        on_skipped(previous_skipped)


def _main(argv: Sequence[str] | None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    choose_language(arguments)
    parser = build_parser()
    args, extra = parser.parse_known_args(arguments)
    if extra:
        where = f"drumscore {args.command} --help" if args.command else "drumscore --help"
        fail(f"unrecognized arguments: {' '.join(extra)} (see '{where}')")
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except DrumscoreError as exc:
        # the error is the one line: a file left out is said when a run goes on without it
        _left_out.clear()
        fail(error_message(exc), exc.exit_status)
    except KeyboardInterrupt:
        say("drumscore: interrupted")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader left (drumscore list | head): stop quietly, as other filters do
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # what the library did not turn into a DrumscoreError: a full disk, a closed terminal…
        if exc.filename is None:
            _silence_stdout()
        name = str(exc.filename) if exc.filename is not None else ""
        shown = f" {name!r}" if len(name) <= 80 else f" {name[:60]!r}… ({len(name):,} characters)"
        if exc.errno == errno.ENAMETOOLONG:
            # the name the user gave: bad input, like every other unusable name
            fail(f"the name{shown} is too long for the file system; choose a shorter one")
        fail(f"input/output failed{shown if name else ''}: {exc.strerror or exc}", EXIT_FAILURE)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    try:
        fileno = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing to do
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fileno)
    os.close(devnull)


def run() -> None:
    """Console-script entry point. Once the command is done the process ends at once: the
    interpreter's own teardown (music21's many objects) takes a while and runs with Ctrl-C's
    default action, so a Ctrl-C then would kill drumscore without a word (status -2)."""
    try:
        code = main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except KeyboardInterrupt:  # between main's own handlers
        say("drumscore: interrupted")
        code = EXIT_INTERRUPTED
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            code = code or EXIT_BROKEN_PIPE
        except (OSError, ValueError):
            code = code or EXIT_FAILURE
    os._exit(code)
