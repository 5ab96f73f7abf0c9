"""The command line: the only place that prints, reads options and chooses exit codes."""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from drumscore import __version__, display
from drumscore.errors import EXIT_FAILURE, EXIT_INPUT, DrumscoreError
from drumscore.files import signals
from drumscore.files.atomic import on_stale_removed
from drumscore.files.reading import watch_inputs
from drumscore.i18n import (
    LANGUAGES,
    N_,
    _,
    aside,
    language_named,
    list_text,
    ngettext,
    quoted,
    set_language,
    tags,
)

if TYPE_CHECKING:
    from drumscore.corpus import SkippedFile

#: Each command: its name, the module of drumscore.cli.commands that parses and runs it (its
#: add_parser(subparsers) and run(args) -> int), and its line in drumscore --help. The module is
#: imported only when its command is parsed, so that drumscore --help loads none of them.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("list", "corpus", N_("list the scores in the corpus with their stroke counts")),
    ("show", "corpus", N_("show one score: notation, 半 division, counts, provenance")),
    (
        "render",
        "render",
        N_("render a score to audio ({audio}), MIDI ({midi}) or notation ({notation})"),
    ),
    (
        "play",
        "play",
        N_("play a score on the sound card (or a MIDI port), showing each stroke as it sounds"),
    ),
    ("extract", "extract", N_("find the drum scores in a passage (Kanripo text or plain text)")),
    ("compare", "compare", N_("align two scores and show, hear or plot how they differ")),
    (
        "collate",
        "collate",
        N_("the critical apparatus: where the editions part, and the counts commentators state"),
    ),
    (
        "check",
        "check",
        N_(
            "check a performance ({audio} {midi}) against a score: tempo, how even, missed, "
            "extra and wrong strokes"
        ),
    ),
    (
        "site",
        "site",
        N_("write a self-contained static site: every score seen, heard and compared"),
    ),
    ("serve", "serve", N_("build the site and serve it on this machine (127.0.0.1) until Ctrl-C")),
)
_HELP_LINES = {name: line for name, _module, line in COMMANDS}


def help_line(name: str) -> str:
    """`name`'s line in drumscore --help, in the current language, its lists of formats from
    the one table of them."""
    from drumscore.files.format_choice import suffixes

    return _(_HELP_LINES[name]).format(
        audio=suffixes("audio"),
        midi=suffixes("midi"),
        notation=suffixes("notation", "engraved"),
    )


#: Exit status: 2 for bad input or usage, 1 for a runtime failure (see errors.RuntimeFailure).
EXIT_USAGE = EXIT_INPUT
EXIT_INTERRUPTED = 130
EXIT_TERMINATED = 143
EXIT_HANGUP = 129
EXIT_BROKEN_PIPE = 141


#: Punctuation a line may not start with (it stays with the text before it), and punctuation a
#: line may not end with (it stays with the text after it).
_CLOSING = frozenset("，。、；：！？）」』》〉…,.;:!?)]}")
_OPENING = frozenset("（「『《〈([{")


def wrap_columns(text: str, columns: int) -> list[str]:
    """`text` (its white space run together) in lines of at most `columns` terminal columns:
    English breaks at spaces, Chinese between any two characters but never before a closing or
    after an opening mark; a word wider than a line is cut."""
    units: list[list[str]] = []  # [space before, the text of the unit]
    space = joined = False
    for match in re.finditer(r"\s+|\S", text):
        char = match.group()
        if char.isspace():
            space, joined = True, False
            continue
        wide = display.width(char) > 1
        if (
            units
            and not space
            and (joined or char in _CLOSING or (not wide and display.width(units[-1][1][-1]) <= 1))
        ):
            units[-1][1] += char
        else:
            units.append([" " if space else "", char])
        joined = char in _OPENING
        space = False
    lines: list[str] = []
    line = ""
    for before, unit in units:
        candidate = line + before + unit if line else unit
        if display.width(candidate) <= columns:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for char in unit:  # a unit wider than the line: cut where it must be
            if line and display.width(line + char) > columns:
                lines.append(line)
                line = ""
            line += char
    if line:
        lines.append(line)
    return lines


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help laid out by terminal columns (wcwidth), not characters: a Chinese
    character takes two, so Chinese help wraps to the terminal as English does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._headings: list[str] = []

    def start_section(self, heading: str | None) -> None:
        if heading:
            self._headings.append(heading)
        super().start_section(heading)

    def format_help(self) -> str:
        """The help, each section's heading followed by a colon of the current language."""
        text = super().format_help()
        for heading in self._headings:
            said = _("{heading}:").format(heading=heading).replace("\\", "\\\\")
            text = re.sub(rf"(?m)^(\s*){re.escape(heading)}:$", rf"\g<1>{said}", text)
        return text

    def add_argument(self, action: argparse.Action) -> None:
        super().add_argument(action)
        if action.help is not argparse.SUPPRESS:
            invocations = [action, *self._iter_indented_subactions(action)]
            longest = max(display.width(self._format_action_invocation(a)) for a in invocations)
            self._action_max_length = max(self._action_max_length, longest + self._current_indent)

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None,
    ) -> str:
        actions, groups = list(actions), list(groups)
        if prefix is None:
            prefix = _("usage: ")
        words = self._format_actions_usage(actions, groups) if actions else ""
        extra = display.width(prefix) - len(prefix)
        narrower = extra + display.width(words) - len(words)
        self._width -= narrower
        try:
            text = super()._format_usage(usage, actions, groups, prefix)
        finally:
            self._width += narrower
        first, *rest = text.split("\n")
        lines = [first, *(" " * extra + line if line else line for line in rest)]
        return "\n".join(self._narrow_usage(lines, " " * display.width(prefix)))

    def _narrow_usage(self, lines: list[str], indent: str) -> list[str]:
        """The usage lines, any that argparse left wider than the terminal (a group of options
        it does not break, such as [--json | -o FILE | --add [ID]]) broken at its spaces."""
        indent = next((ln[: len(ln) - len(ln.lstrip())] for ln in lines[1:] if ln.strip()), indent)
        narrowed = []
        for line in lines:
            if display.width(line) <= self._width:
                narrowed.append(line)
                continue
            words = line.lstrip().split(" ")
            current = line[: len(line) - len(line.lstrip())] + words[0]
            for word in words[1:]:
                if display.width(f"{current} {word}") <= self._width:
                    current = f"{current} {word}"
                else:
                    narrowed.append(current)
                    current = indent + word
            narrowed.append(current)
        return narrowed

    def _format_action(self, action: argparse.Action) -> str:
        help_position = min(self._action_max_length + 2, self._max_help_position)
        help_width = max(self._width - help_position, 11)
        action_width = help_position - self._current_indent - 2
        header = self._format_action_invocation(action)
        indent = " " * self._current_indent
        first_indent = 0
        if not action.help:
            parts = [f"{indent}{header}\n"]
        elif display.width(header) <= action_width:
            parts = [indent + header + " " * (action_width - display.width(header) + 2)]
        else:
            parts = [f"{indent}{header}\n"]
            first_indent = help_position
        help_text = self._expand_help(action) if action.help and action.help.strip() else ""
        if help_text:
            lines = self._split_lines(help_text, help_width) or [""]
            parts.append(" " * first_indent + lines[0] + "\n")
            parts.extend(" " * help_position + line + "\n" for line in lines[1:])
        elif not parts[0].endswith("\n"):
            parts.append("\n")
        parts.extend(self._format_action(sub) for sub in self._iter_indented_subactions(action))
        return self._join_parts(parts)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap_columns(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrap_columns(text, width - len(indent)))


class RawDescriptionHelpFormatter(HelpFormatter):
    """The description and epilog kept line by line as written (a table of guides), each line
    wrapped by terminal columns only where it is wider than the terminal."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        lines = []
        for line in text.splitlines():
            if len(indent) + display.width(line) <= width or not line.strip():
                lines.append(indent + line if line else "")
                continue
            margin = line[: len(line) - len(line.lstrip())]
            room = width - len(indent) - len(margin)
            lines.extend(indent + margin + part for part in wrap_columns(line, room))
        return "\n".join(lines)


class _Parser(argparse.ArgumentParser):
    """argparse, with its usage errors in the same one-line form as every other error, and its
    help laid out by terminal columns."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, **kwargs)

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        """argparse's check of a choice, its choices listed by the language's rule."""
        if action.choices is not None and value not in action.choices:
            choices = list_text(quoted(str(c)) for c in action.choices)
            message = argparse._("invalid choice: %(value)r (choose from %(choices)s)")  # type: ignore[attr-defined]
            raise argparse.ArgumentError(action, message % {"value": value, "choices": choices})

    def error(self, message: str) -> None:  # type: ignore[override]
        fail(_("{message} (see '{help}')").format(message=message, help=f"{self.prog} --help"))


def fail(message: str, code: int = EXIT_USAGE) -> NoReturn:
    say(_("drumscore: error: {message}").format(message=message))
    raise SystemExit(code)


#: The commands whose --lang takes all: a site in each language.
ALL_LANGUAGES = ("site", "serve")
#: argparse's own gettext functions, given back when a run ends (main may run in a host program).
_ARGPARSE_GETTEXT = (argparse._, argparse.ngettext)  # type: ignore[attr-defined]


def lang_given(argv: Sequence[str]) -> str | None:
    """What the last --lang names (before a lone --), as argparse reads it, or None."""
    chosen: str | None = None
    for index, item in enumerate(argv):
        if item == "--":
            break
        name, equals, value = item.partition("=")
        # argparse takes --la and --lan for --lang (--l too, where no other option starts so)
        if len(name) < 3 or not "--lang".startswith(name):
            continue
        if equals:
            chosen = value
        elif index + 1 < len(argv):
            chosen = argv[index + 1]
    return chosen


def choose_language(argv: Sequence[str]) -> str:
    """Speak the language the last --lang names (before a lone --), else the environment's, with
    argparse's own messages in it too, before any help or message is made; returns the catalog."""
    chosen = lang_given(argv)
    argparse._, argparse.ngettext = _, ngettext  # type: ignore[attr-defined]
    if chosen is None or chosen.casefold() == "all":  # all: site and serve, checked by _main
        return set_language(None)
    named = language_named(chosen)
    if named is None:
        set_language(None)  # refused in the environment's language
        languages = list_text(aside(tag, name) for tag, name in LANGUAGES.values())
        fail(
            _(
                "--lang {value!r} is not a language drumscore speaks; choose one of {languages}"
            ).format(value=chosen[:40], languages=languages)
        )
    catalog, exact = named
    set_language(catalog)
    if not exact:
        tag, name = LANGUAGES[catalog]
        say(
            _("--lang {value!r} is taken as {tag} ({name})").format(
                value=chosen[:40], tag=tag, name=name
            )
        )
    return catalog


def ambiguous_wide_asked(argv: Sequence[str]) -> bool:
    """Whether --ambiguous-wide stands in `argv` (before a lone --), as argparse would take it."""
    for item in argv:
        if item == "--":
            break
        if len(item) >= 5 and "--ambiguous-wide".startswith(item):
            return True
    return False


def _add_ambiguous_wide(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ambiguous-wide",
        action="store_true",
        default=argparse.SUPPRESS,
        help=_(
            "count the characters a CJK terminal may draw two columns wide (○ □ — · │) as two, "
            "so that tables, compare's marks and the play display line up there (also "
            "DRUMSCORE_AMBIGUOUS_WIDE=1)"
        ),
    )


def _add_lang(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lang",
        metavar="LANG",
        help=_(
            "the language of messages and help: {languages} "
            "(default: from LANGUAGE, LC_ALL, LC_MESSAGES or LANG)"
        ).format(languages=list_text(tags())),
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


class _Commands(argparse._SubParsersAction):  # type: ignore[type-arg]
    """The subcommands, each parser built from its module only when its command is parsed (or
    when every one is asked for); until then a parser that knows its help line alone."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pending: dict[str, str] = {}  # command name -> the module that builds its parser

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        """The parser for `name`, with its help line from COMMANDS; a later call for the same
        name (its module, loaded) replaces the stand-in, keeping its place in the list."""
        if name in self._name_parser_map:
            self._pending.pop(name, None)
            kwargs.setdefault("prog", f"{self._prog_prefix} {name}")
            kwargs.pop("help", None)
            parser = self._parser_class(**kwargs)
            self._name_parser_map[name] = parser
        else:
            kwargs.setdefault("help", help_line(name))
            parser = super().add_parser(name, **kwargs)
        return parser

    def defer(self, name: str, module: str) -> None:
        """A stand-in for `name`, its parser built from `module` when the command is parsed."""
        self.add_parser(name)
        self._pending[name] = module

    def load(self, name: str) -> argparse.ArgumentParser:
        """`name`'s own parser, built from its module if it has not been yet."""
        module = self._pending.get(name)
        if module is not None:
            path = f"drumscore.cli.commands.{module}"
            __import__(path)  # the import statement's own hook, whatever importlib's helpers do
            commands = sys.modules[path]
            commands.add_parser(self)
            for built, of, _line in COMMANDS:
                if of == module:
                    _finish(built, self._name_parser_map[built])
        return self._name_parser_map[name]

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        self.load(values[0])
        super().__call__(parser, namespace, values, option_string)


def _finish(name: str, command: argparse.ArgumentParser) -> None:
    """What every command's parser has: --lang, --ambiguous-wide, and an example after its
    help."""
    _add_lang(command)
    _add_ambiguous_wide(command)
    if command.epilog is None and name in EXAMPLES:
        command.epilog = _("example: {command}").format(command=EXAMPLES[name])


def build_parser(*, lazy: bool = False) -> argparse.ArgumentParser:
    """drumscore's parser, every command's in full; `lazy`: each command's built only when the
    command is parsed (a run needs one; drumscore --help none)."""
    parser = _Parser(
        prog="drumscore",
        description=_(
            "Hear, compare and export the drum scores of the 禮記 投壺 chapter: "
            "○ strikes 鼙 (the small drum), □ strikes 鼓 (the big drum), 半 divides the pattern."
        ),
        epilog=_epilog(),
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"drumscore {__version__}",
        help=_("show the version and exit"),
    )
    _add_lang(parser)
    _add_ambiguous_wide(parser)
    parser.register("action", "commands", _Commands)
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", parser_class=_Parser, action="commands"
    )
    assert isinstance(sub, _Commands)
    for name, module, _line in COMMANDS:
        sub.defer(name, module)
    if not lazy:
        for name, _module, _line in COMMANDS:
            sub.load(name)
    return parser


def _reconfigure_streams() -> None:
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


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
    say(
        _(
            "drumscore: removed {path!r}, left by an earlier run (process {pid}) that was killed"
        ).format(path=str(path), pid=pid)
    )


#: The user's edition files left out of the corpus in this run, warned of when it ends.
_left_out: dict[str, SkippedFile] = {}


def _skipped(skipped: SkippedFile) -> None:
    _left_out.setdefault(skipped.path, skipped)


def _warn_left_out() -> None:
    """One warning line for each of the user's edition files left out of the corpus."""
    for path, skipped in _left_out.items():
        say(
            _("drumscore: warning: left out your edition file {path!r}: {reason}").format(
                path=path, reason=skipped.reason
            )
        )
    _left_out.clear()


def main(argv: Sequence[str] | None = None) -> int:
    _open_standard_descriptors()
    _reconfigure_streams()
    handlers = signals.install()
    previous = on_stale_removed(_stale_removed)
    previous_wide = display.set_ambiguous_wide(None)
    _left_out.clear()
    try:
        with signals.raising(), watch_inputs():
            code = _main(argv)
        _warn_left_out()
        return code
    except KeyboardInterrupt as exc:  # before or after the command ran (parsing, its last lines)
        return interrupted(exc)
    except Exception as exc:
        # a signal raised inside a hook that Python wraps (a RuntimeError from __set_name__
        # while a command's module loads): the run was stopped, not broken
        signalled = signals.interrupt_in(exc)
        if signalled is None:
            raise
        return interrupted(signalled)
    finally:
        argparse._, argparse.ngettext = _ARGPARSE_GETTEXT  # type: ignore[attr-defined]
        _left_out.clear()
        on_stale_removed(previous)
        display.set_ambiguous_wide(previous_wide)
        signals.restore(handlers)


def _main(argv: Sequence[str] | None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    choose_language(arguments)
    try:
        wide = ambiguous_wide_asked(arguments) or display.from_environment()
    except DrumscoreError as exc:
        fail(str(exc), exc.exit_status)
    display.set_ambiguous_wide(wide)
    parser = build_parser(lazy=True)
    args, extra = parser.parse_known_args(arguments)
    if extra:
        where = f"drumscore {args.command} --help" if args.command else "drumscore --help"
        fail(
            _("unrecognized arguments: {arguments} (see '{help}')").format(
                arguments=" ".join(extra), help=where
            )
        )
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    if (lang_given(arguments) or "").casefold() == "all" and args.command not in ALL_LANGUAGES:
        fail(
            _(
                "--lang all is for a site in every language ({commands}); give {command} one "
                "of {languages}"
            ).format(
                commands=list_text(ALL_LANGUAGES),
                command=args.command,
                languages=list_text(tags()),
            )
        )
    # the corpus is loaded by the commands that use it (not by --help): its warnings are heard
    # from here on
    from drumscore.corpus import on_skipped

    previous_skipped = on_skipped(_skipped)
    try:
        return args.run(args)
    except DrumscoreError as exc:
        from drumscore.cli.options import error_message  # a command's module has loaded it

        # the error is the one line: a file left out is said when a run goes on without it
        _left_out.clear()
        fail(error_message(exc), exc.exit_status)
    except KeyboardInterrupt as exc:
        return interrupted(exc)
    except BrokenPipeError:
        # the reader left (drumscore list | head): stop quietly, as other filters do
        _silence_stdout()
        return EXIT_BROKEN_PIPE
    except OSError as exc:
        # an error of a file a signal left half-handled (closed as its KeyboardInterrupt went
        # by): the run was stopped, not broken
        signalled = signals.interrupt_in(exc)
        if signalled is not None:
            return interrupted(signalled)
        # what the library did not turn into a DrumscoreError: a full disk, a closed terminal…
        if exc.filename is None:
            _silence_stdout()
        name = str(exc.filename) if exc.filename is not None else ""
        shown = (
            repr(name)
            if len(name) <= 80
            else _("{start!r}… ({count} characters)").format(
                start=name[:60], count=f"{len(name):,}"
            )
        )
        reason = exc.strerror or str(exc)
        if exc.errno == errno.ENAMETOOLONG:
            # the name the user gave: bad input, like every other unusable name
            fail(
                _("the name {name} is too long for the file system; choose a shorter one").format(
                    name=shown
                )
            )
        if name:
            fail(
                _("input/output failed {name}: {reason}").format(name=shown, reason=reason),
                EXIT_FAILURE,
            )
        fail(_("input/output failed: {reason}").format(reason=reason), EXIT_FAILURE)
    finally:
        on_skipped(previous_skipped)


def interrupted(exc: KeyboardInterrupt) -> int:
    """Say the one line of a run ended by a signal (Ctrl-C, SIGTERM, SIGHUP); its exit status.
    Signals that come meanwhile are held: the line and the status are those of the first."""
    with signals.held():
        status = signals.status_of(exc)
        say(signals.line(status))
    return status


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
    signals.install()
    try:
        code = main()
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else EXIT_FAILURE
    except KeyboardInterrupt as exc:  # between main's own handlers
        code = interrupted(exc)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except BrokenPipeError:
            code = code or EXIT_BROKEN_PIPE
        except (OSError, ValueError):
            code = code or EXIT_FAILURE
    _end_portaudio()
    os._exit(code)


def _end_portaudio() -> None:
    """End PortAudio if a command started it, as sounddevice does at the interpreter's exit,
    which os._exit skips: its sound server's connection (a JACK client) is closed, not left for
    the server to find dead. A JACK server that runs its clients in step (jackd --sync) waits for
    a dead client a timeout per period before it lets it go, holding every other client's
    opening back meanwhile."""
    sounddevice = sys.modules.get("sounddevice")
    # (sounddevice's own atexit handler; a release without it is left to end as before)
    end = getattr(sounddevice, "_exit_handler", None)
    if end is not None:
        with contextlib.suppress(Exception):  # ending: nothing left to do if it fails
            end()
