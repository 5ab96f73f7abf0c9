"""A property of the whole command line: whatever hostile values its real options are given, it
ends with exit 0, 1, 2 or 130, never a traceback, and a failed run leaves no file behind."""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_run import run_quietly
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drumscore.cli import build_parser

#: Commands left out: play needs a device, serve and site run a server or build a whole site.
SKIPPED_COMMANDS = {"play", "serve", "site"}
#: Options left out: --all renders every score of the corpus.
SKIPPED_OPTIONS = {"--all", "--help", "-h"}
#: Where files are written: the options naming an output.
OUTPUTS = {"output", "audio", "plot"}

#: Digits that are not ASCII: str.isdigit takes ² (and int() then fails), int() takes ٣ and ３.
NON_ASCII_DIGITS = ["²", "٣", "３", "๓", "𝟕"]
HOSTILE = [
    "",
    "0",
    "-1",
    "1e999999999",
    "1e-99999999",
    "9" * 5000,
    "nan",
    "inf",
    "3/0",
    "○X□",
    "○□半○",
    "lu",
    "xue/2@benyi",
    "lu@/dev/zero.toml",
    "/dev/zero",
    "/dev/null",
    "○" * 10_001,
    "x" * 5000,
    "a\u2028b\r○",
    "\x00",
    "..",
    "punycode",
    "2",
    *NON_ASCII_DIGITS,
    "²-3",
    "40:60:5:²",
    "41,٤٥",
]
EXTENSIONS = [".wav", ".mid", ".musicxml", ".ogg", ".toml", ".txt", ""]

# in this process's user folders (tests/conftest.py), which go with the process: every worker
# reads this module, and only the one that runs its tests would reach the fixture below
_CACHE = Path(os.environ.get("XDG_CACHE_HOME", tempfile.gettempdir()))
_CACHE.mkdir(parents=True, exist_ok=True)
FOLDER = Path(tempfile.mkdtemp(prefix="drumscore-property-", dir=_CACHE))
FIFO = FOLDER / "pipe"
os.mkfifo(FIFO)
OUT = FOLDER / "out"
OUT.mkdir()


@pytest.fixture(scope="module", autouse=True)
def _remove_the_folder() -> Iterator[None]:
    """The strategies need the folder as the module is read; it goes with the module's tests."""
    yield
    shutil.rmtree(FOLDER, ignore_errors=True)


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return {name: p for name, p in sub.choices.items() if name not in SKIPPED_COMMANDS}


COMMANDS = _commands()


def _value(action: argparse.Action):
    if action.dest in OUTPUTS:
        stems = st.sampled_from(["x", "x" * 300])
        return st.tuples(stems, st.sampled_from(EXTENSIONS)).map(lambda se: str(OUT / "".join(se)))
    if action.choices:
        return st.sampled_from([*action.choices, "nope"])
    # a usable value half the time, so the other options are reached too
    return st.one_of(st.just("lu"), st.sampled_from([*HOSTILE, str(FIFO)]))


@st.composite
def argument_vectors(draw) -> list[str]:
    name = draw(st.sampled_from(sorted(COMMANDS)))
    argv = [name]
    actions = [a for a in COMMANDS[name]._actions if not set(a.option_strings) & SKIPPED_OPTIONS]
    for action in actions:
        if action.option_strings:
            continue
        if action.nargs in ("?", "*") and draw(st.booleans()):
            continue
        argv.append(draw(_value(action)))
    options = [a for a in actions if a.option_strings]
    required = [a for a in options if a.required]
    chosen = draw(st.lists(st.sampled_from(options), max_size=4, unique_by=id))
    for action in required + [a for a in chosen if not a.required]:
        argv.append(action.option_strings[-1])
        if action.nargs != 0:
            argv.append(draw(_value(action)))
    return argv


def _any_argument_vector(examples: int):
    """The property below drawn `examples` times: any command with hostile values."""

    @settings(
        max_examples=examples,
        derandomize=True,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(argument_vectors())
    def test(argv):
        for old in OUT.iterdir():
            old.unlink()
        code, said = run_quietly(argv)
        assert code in (0, 1, 2, 130), (argv, code, said)
        assert "Traceback" not in said, (argv, said)
        if code != 0:
            assert said.startswith("drumscore: error: "), (argv, said)
            # a batch writes the items that succeed (README); anything else leaves nothing
            if not _is_batch(argv):
                assert list(OUT.iterdir()) == [], (argv, said)

    return test


# README's command draws 25 argument vectors, the slow run (-m slow) 80 of its own.
test_no_traceback_no_odd_exit_and_no_file_left_on_failure = _any_argument_vector(25)
test_no_traceback_no_odd_exit_and_no_file_left_on_failure_at_length = pytest.mark.slow(
    _any_argument_vector(80)
)


def _is_batch(argv: list[str]) -> bool:
    from drumscore.cli.render_batch import is_batch

    try:
        args, _ = build_parser().parse_known_args(argv)
    except SystemExit:
        return False
    return args.command == "render" and is_batch(args)


#: Each option that reads a number, with a value where a non-ASCII digit stands for one digit.
NUMBER_OPTIONS = {
    "render": {
        "--bpm": "{d}",
        "--interval": "{d}",
        "--repeat": "{d}",
        "--rate": "4410{d}",
        "--dpi": "{d}",
        "--velocity": "100,{d}",
        "--humanize": "{d}",
        "--duration": "{d}m",
        "--count-in": "{d}",
        "--click": "{d}",
        "--click-level": "{d} --click 2",
        "--silent-every": "{d}",
        "--ramp": "40:60:5:{d}",
        "--strokes": "{d}-3",
        "--midi-notes": "41,4{d}",
    },
    "compare": {"--bpm": "{d}", "--interval": "{d}", "--rate": "{d}"},
    "extract": {"--date": "17{d}8"},
}
#: What each command needs besides the option tried.
NEEDS = {
    "render": ["render", "lu", "-o", str(OUT / "x.mid")],
    "compare": ["compare", "lu", "xue"],
    "extract": ["extract", "/dev/null"],
}


def test_every_number_option_refuses_each_non_ascii_digit_in_one_line():
    """A number written with a digit that is not ASCII is bad input wherever a number is read:
    exit 2 and one error line quoting the value, never a traceback or a number read anyway."""
    tried = 0
    for old in OUT.iterdir():  # what an earlier example of the property test wrote
        old.unlink()
    for command, options in NUMBER_OPTIONS.items():
        for option, template in options.items():
            for digit in NON_ASCII_DIGITS:
                value, *more = template.format(d=digit).split()
                argv = [*NEEDS[command], option, value, *more]
                if option in ("--rate", "--dpi") and command == "render":
                    argv[3] = str(OUT / ("x.wav" if option == "--rate" else "x.png"))
                code, said = run_quietly(argv)
                assert code == 2, (argv, code, said)
                assert said.startswith("drumscore: error: ") and said.count("\n") == 1, (argv, said)
                assert repr(value) in said or value in said, (argv, said)
                assert list(OUT.iterdir()) == [], argv
                tried += 1
    assert tried == 19 * len(NON_ASCII_DIGITS)
