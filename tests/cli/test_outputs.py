"""Every file any command writes, each output option found in the argparse parsers themselves (so
a new one is caught): one overwrite rule (a file already there is refused without --force, exit
2, in the one message pattern, and left byte-identical; --force writes over it), and one table
of formats (format_choice.OUTPUTS: every extension README lists is in it, and each option refuses
an extension it cannot write with the list of those it can)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest
from cli_run import expect_error, run_cli
from sourcefiles import source_text

from drumscore.cli import build_parser
from drumscore.cli.options import WritesTo
from drumscore.files.format_choice import OUTPUTS, suffixes
from drumscore.site.build import MARKER

README = Path(__file__).resolve().parents[2] / "README.md"
#: What is already there: no command could have written these bytes.
THERE = b"already here, not drumscore's\n"


def output_options() -> set[tuple[str, str]]:
    """(command, option) for every option of every command whose action is WritesTo."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    found = set()
    for name, command in sub.choices.items():
        for action in command._actions:
            if isinstance(action, WritesTo):
                found.add((name, action.option_strings[0] if action.option_strings else "DIR"))
    return found


def _take(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = folder / "take.mid"
    assert run_cli(["render", "lu", "-q", "-o", str(path)], capsys)[0] == 0
    return str(path)


def _passage(folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    path = folder / "passage.txt"
    path.write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")
    return str(path)


#: Each output option: the arguments that write OUT (its name in the folder, and what to
#: prepare). A site's folder is an earlier site: MARKER in it, and a page.
CASES = {
    ("render", "-o"): (["render", "lu", "-o", "OUT"], "out.mid", None),
    ("compare", "--audio"): (["compare", "lu", "xue", "--audio", "OUT"], "out.wav", None),
    ("compare", "--plot"): (["compare", "lu", "xue", "--plot", "OUT"], "out.png", None),
    ("check", "--plot"): (["check", "TAKE", "lu", "--plot", "OUT"], "out.png", _take),
    ("play", "--plot"): (
        ["play", "lu", "--check", "--midi-in", "pads", "--plot", "OUT"],
        "out.png",
        None,
    ),
    ("collate", "-o"): (["collate", "lu", "-o", "OUT"], "out.csv", None),
    ("collate", "--plot"): (["collate", "lu", "--plot", "OUT"], "out.svg", None),
    ("extract", "-o"): (["extract", "PASSAGE", "-o", "OUT"], "out.toml", _passage),
    ("extract", "--add"): (["extract", "PASSAGE", "--add", "out"], "mine/out.toml", _passage),
    ("site", "DIR"): (["site", "OUT"], "out", None),
    ("site", "-o"): (["site", "-o", "OUT"], "out", None),
}


def test_every_output_option_is_in_the_table():
    assert output_options() == set(CASES)


def test_every_option_that_names_a_file_to_write_is_an_output():
    """An option that looks like an output (-o, --plot, a metavar OUT.wav or FILE.png) but is
    not marked would escape the rule and this test."""
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    looking = set()
    for name, command in sub.choices.items():
        for action in command._actions:
            looks = action.dest in ("output", "plot", "audio") or re.fullmatch(
                r"(OUT|FILE)\.(png|svg|wav|mid|toml)", str(action.metavar)
            )
            if looks:
                assert isinstance(action, WritesTo), (name, action.option_strings)
                looking.add((name, action.option_strings[0]))
    # what only its own marking finds: an edition id, a site's folder given as DIR
    assert looking == output_options() - {("extract", "--add"), ("site", "DIR")}


def _prepare(folder: Path, name: str) -> Path:
    out = folder / name
    out.parent.mkdir(parents=True, exist_ok=True)
    if name == "out":  # a site's folder
        out.mkdir()
        (out / MARKER).write_bytes(b"")
        (out / "index.html").write_bytes(THERE)
        return out / "index.html"
    out.write_bytes(THERE)
    return out


def _argv(case, folder: Path, capsys) -> tuple[list[str], Path]:
    argv, name, prepare = case
    given = prepare(folder, capsys) if prepare else ""
    target = folder / name
    argv = [str(target) if a == "OUT" else given if a in ("TAKE", "PASSAGE") else a for a in argv]
    return argv, _prepare(folder, name)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("DRUMSCORE_EDITIONS", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


@pytest.mark.parametrize("option", sorted(CASES), ids="-".join)
def test_an_existing_output_is_refused_without_force_and_kept(folder, capsys, option):
    argv, kept = _argv(CASES[option], folder, capsys)
    err = expect_error(argv, capsys)
    shown = option[1]
    assert re.search(rf"{re.escape(shown)} '[^']+' exists already; give --force to write over", err)
    assert err.count("\n") == 1
    assert kept.read_bytes() == THERE
    assert not list(folder.rglob("*.part"))


@pytest.mark.parametrize(
    "option", [("compare", "--plot"), ("compare", "--audio"), ("check", "--plot")], ids="-".join
)
def test_with_force_the_file_there_is_written_over(folder, capsys, option):
    argv, kept = _argv(CASES[option], folder, capsys)
    code, _out, err = run_cli([*argv, "--force"], capsys)
    assert code == 0, err
    written = kept.read_bytes()
    assert written != THERE
    assert written[:4] in (b"\x89PNG", b"RIFF")


@pytest.mark.parametrize("command", ["compare lu xue", "check TAKE lu"])
def test_force_without_a_file_to_write_is_refused(folder, capsys, command):
    argv = [_take(folder, capsys) if a == "TAKE" else a for a in command.split()]
    err = expect_error([*argv, "--force"], capsys)
    assert "--force only applies with" in err


# --- one table of formats ---------------------------------------------------------------------

#: The table each output option's file is chosen from (format_choice.OUTPUTS); None for what is
#: no file of a format: an edition id (--add), a site's folder.
TABLE_OF = {
    ("render", "-o"): "score",
    ("compare", "--audio"): "audio",
    ("compare", "--plot"): "plot",
    ("check", "--plot"): "plot",
    ("play", "--plot"): "plot",
    ("collate", "-o"): "apparatus",
    ("collate", "--plot"): "plot",
    ("extract", "-o"): "edition",
    ("extract", "--add"): None,
    ("site", "DIR"): None,
    ("site", "-o"): None,
}


def test_every_output_option_has_its_table():
    assert set(TABLE_OF) == output_options()


def test_every_extension_readme_lists_is_in_the_table_and_every_one_of_the_table_in_readme():
    text = README.read_text(encoding="utf-8")
    start = text.index("**Output** by the extension of `-o`")
    paragraph = text[start : text.index("\n\n", start)]
    listed = set(re.findall(r"`(\.[a-z0-9]+)`", paragraph))
    tabled = {suffix for table in OUTPUTS.values() for suffix in table}
    assert listed == tabled


@pytest.mark.parametrize(
    "option", sorted(o for o, table in TABLE_OF.items() if table is not None), ids="-".join
)
@pytest.mark.parametrize("extension", [".doc", ".mp3", ""])
def test_an_extension_an_option_cannot_write_is_refused_with_those_it_can(
    folder, capsys, option, extension
):
    argv, _name, prepare = CASES[option]
    given = prepare(folder, capsys) if prepare else ""
    out = str(folder / f"new{extension}")
    argv = [out if a == "OUT" else given if a in ("TAKE", "PASSAGE") else a for a in argv]
    err = expect_error(argv, capsys)
    flag = option[1]
    known = suffixes(output=TABLE_OF[option])
    assert err.startswith(f"drumscore: error: {flag} {out!r}"), err
    assert err.endswith(f"; use one of: {known}\n"), err
    assert known.split() == list(OUTPUTS[TABLE_OF[option]])
    assert not (folder / f"new{extension}").exists()


def test_the_same_extension_is_what_its_output_makes_it():
    """.xml is MusicXML for render and TEI for collate; .png a page for one, a plot for another."""
    assert OUTPUTS["score"][".xml"] == ("notation", "musicxml")
    assert OUTPUTS["apparatus"][".xml"] == ("apparatus", "tei")
    assert OUTPUTS["plot"][".png"][1] == OUTPUTS["score"][".png"][1] == "png"
