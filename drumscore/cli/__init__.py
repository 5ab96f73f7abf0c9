"""The command line: the only place that prints, reads options and chooses exit codes."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
from collections.abc import Sequence
from types import FrameType
from typing import NoReturn

from drumscore.cli.commands import collate, compare, corpus, extract, play, render, serve, site
from drumscore.cli.options import error_message
from drumscore.errors import EXIT_FAILURE, EXIT_INPUT, DrumscoreError

#: Each command module has add_parser(subparsers) and run(args) -> int.
COMMANDS = (corpus, render, play, extract, compare, collate, site, serve)

#: Exit status: 2 for bad input or usage, 1 for a runtime failure (see errors.RuntimeFailure).
EXIT_USAGE = EXIT_INPUT
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_BROKEN_PIPE = 141


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in the same one-line form as every other error."""

    def error(self, message: str) -> None:  # type: ignore[override]
        fail(f"{message} (see '{self.prog} --help')")


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    print(f"drumscore: error: {message}", file=sys.stderr)
    raise SystemExit(code)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="drumscore",
        description=(
            "Hear, compare and export the drum scores of the 禮記 投壺 chapter: "
            "○ strikes 鼙 (the small drum), □ strikes 鼓 (the big drum), 半 divides the pattern."
        ),
    )
    from drumscore import __version__

    parser.add_argument("--version", action="version", version=f"drumscore {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in COMMANDS:
        module.add_parser(sub)
    return parser


def _reconfigure_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _terminate(signum: int, frame: FrameType | None) -> None:
    """SIGTERM ends drumscore like Ctrl-C does: unwinding, so no partial output file is left."""
    raise SystemExit(EXIT_TERMINATED)


def main(argv: Sequence[str] | None = None) -> int:
    _reconfigure_streams()
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _terminate)
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        where = f"drumscore {args.command} --help" if args.command else "drumscore --help"
        fail(f"unrecognized arguments: {' '.join(extra)} (see '{where}')")
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.run(args)
    except DrumscoreError as exc:
        fail(error_message(exc), exc.exit_status)
    except KeyboardInterrupt:
        print("drumscore: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader left (drumscore list | head): stop quietly, as other filters do
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # what the library did not turn into a DrumscoreError: a full disk, a closed terminal…
        if exc.filename is None:
            _silence_stdout()
        where = f" {exc.filename!r}" if exc.filename else ""
        fail(f"input/output failed{where}: {exc.strerror or exc}", EXIT_FAILURE)


def _silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def run() -> None:
    """Console-script entry point."""
    raise SystemExit(main())
