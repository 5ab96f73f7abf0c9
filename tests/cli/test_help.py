"""Every --help ends with one example line; drumscore --help lists the guides in docs/."""

from pathlib import Path

import pytest
from cli_run import run_cli

from drumscore.cli import build_parser

DOCS = Path(__file__).resolve().parents[2] / "docs"


def commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.dest == "command")
    return list(sub.choices)


def help_of(argv, capsys) -> str:
    code, out, _ = run_cli([*argv, "--help"], capsys)
    assert code == 0
    return out


@pytest.mark.parametrize("command", commands())
def test_every_command_help_ends_with_one_example(command, capsys):
    lines = help_of([command], capsys).rstrip().splitlines()
    assert lines[-1].startswith(f"example: drumscore {command}"), lines[-1]
    assert sum(line.startswith("example:") for line in lines) == 1


def test_the_main_help_lists_every_guide_and_ends_with_an_example(capsys):
    text = help_of([], capsys)
    guides = sorted(DOCS.glob("*.md"))
    assert guides
    for guide in guides:
        assert f"docs/{guide.name}" in text, guide.name
    assert text.rstrip().splitlines()[-1].startswith("example: drumscore ")


def test_each_example_parses(capsys):
    """The examples use options that exist (argparse accepts them)."""
    parser = build_parser()
    for command in commands():
        line = help_of([command], capsys).rstrip().splitlines()[-1]
        argv = line.removeprefix("example: drumscore ").split()
        parser.parse_args(argv)
