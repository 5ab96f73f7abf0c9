"""The guides quote the program as it is: each `drumscore …` command quoted in a fenced block of
the compare guides, with the output the block shows, is run, and every line the block quotes
is a line of what it prints (a line `…` leaves lines out), so a guide cannot drift from the
program it describes."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
GUIDES = ("compare.md", "zh-Hant/compare.md", "zh-Hans/compare.md")
FENCE = re.compile(r"^( *)```[^\n]*\n(.*?)^\1```", re.M | re.S)
ELIDED = "…"


def samples(text: str) -> list[tuple[str, list[str]]]:
    """Each `$ drumscore …` command in a fenced block and the lines quoted after it (up to the
    next command or the end of the block), the block's indentation taken off."""
    found = []
    for indent, body in FENCE.findall(text):
        command, quoted = None, []
        for line in body.splitlines():
            line = line.removeprefix(indent).rstrip()
            if line.startswith("$ drumscore "):
                if command is not None:
                    found.append((command, quoted))
                command, quoted = line[2:], []
            elif command is not None:
                quoted.append(line)
        if command is not None:
            found.append((command, quoted))
    return [(c, q) for c, q in found if any(line for line in q)]


def all_samples() -> list[tuple[str, str, list[str]]]:
    return [
        (guide, command, quoted)
        for guide in GUIDES
        for command, quoted in samples((DOCS / guide).read_text(encoding="utf-8"))
    ]


def test_the_guides_quote_output_of_several_commands_in_each_language():
    assert {guide for guide, _, _ in all_samples()} == set(GUIDES)
    commands = [command for _, command, _ in all_samples()]
    assert any("--lang zh-Hant collate" in c for c in commands)
    assert any("--lang zh-Hans compare" in c for c in commands)
    assert any(c == "drumscore collate lu/2" for c in commands)


def test_the_sample_reader_takes_a_quoted_block_apart():
    """The reader itself could fail: an indented block, two commands, and a block of bare
    commands (no output shown, so not a sample)."""
    text = (
        "- item\n\n  ```\n  $ drumscore list\n  a\n  …\n  b\n  ```\n\n"
        "```\n$ drumscore show lu\nx\n$ drumscore show xue\ny\n```\n"
        "```\ndrumscore compare lu/1 lu/2\n```\n"
    )
    assert samples(text) == [
        ("drumscore list", ["a", ELIDED, "b"]),
        ("drumscore show lu", ["x"]),
        ("drumscore show xue", ["y"]),
    ]


@pytest.mark.parametrize(
    ("guide", "command", "quoted"),
    all_samples(),
    ids=[f"{guide}: {command}" for guide, command, _ in all_samples()],
)
def test_each_quoted_output_line_is_what_the_command_prints(
    guide, command, quoted, cli, monkeypatch
):
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = cli(*shlex.split(command)[1:])
    assert code == 0, err
    printed = {line.rstrip() for line in out.splitlines()}
    missing = [line for line in quoted if line.strip() not in ("", ELIDED) and line not in printed]
    assert missing == [], f"{guide}: {command}"
