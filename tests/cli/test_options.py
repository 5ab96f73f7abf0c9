"""The options several commands share are one option: the same flags, destination, help and
metavar wherever they stand, read from the real parsers; every command that writes files takes
-q, --force and -o, every command that draws or sounds a file beside its report --force, and
each refuses to write over what is there without --force; every list of formats the help gives
is the one table of them."""

from __future__ import annotations

import argparse
import re

import mido
import pytest
from cli_run import expect_error, run_cli

import drumscore.site.build as site_build
from drumscore.cli import COMMANDS, build_parser
from drumscore.cli.options import WritesTo
from drumscore.files.format_choice import FORMATS

#: The options spelled and explained alike wherever they exist.
SHARED = ("-q", "--force", "-o", "--lang", "--json")
#: What every command that writes files takes.
WRITING = ("-q", "--force", "-o")
#: The commands whose product is a file (or site's folder), named by -o. play, check and
#: compare print their report and draw a picture beside it only when --plot (or --audio) asks.
WRITERS = {"render", "extract", "collate", "site"}
#: The commands that write a file beside their report: --plot, --audio; they take --force.
BESIDE = {"compare", "check", "play"}


def commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    """Each command's own parser, by name, from drumscore's parser built in full."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def spelling(action: argparse.Action) -> tuple[object, ...]:
    """What makes an option the same option: flags, destination, help, metavar and kind."""
    return (
        tuple(action.option_strings),
        action.dest,
        action.help,
        action.metavar,
        type(action).__name__,
        action.nargs,
    )


def divergences(parsers: dict[str, argparse.ArgumentParser]) -> list[str]:
    """Each shared option spelled or explained otherwise than where it first stands, and each
    writing command lacking one of -q, --force and -o; [] when all agree."""
    found: list[str] = []
    first: dict[str, tuple[str, tuple[object, ...]]] = {}
    for name, parser in parsers.items():
        flags = parser._option_string_actions
        for flag in SHARED:
            if flag not in flags:
                continue
            said = spelling(flags[flag])
            where, expected = first.setdefault(flag, (name, said))
            if said != expected:
                found.append(f"{name} {flag}: {said} differs from {where}'s {expected}")
        if name in WRITERS or "-o" in flags:
            found += [f"{name} writes files but has no {f}" for f in WRITING if f not in flags]
        elif any(isinstance(a, WritesTo) for a in parser._actions) and "--force" not in flags:
            found.append(f"{name} writes files but has no --force")
    return found


@pytest.fixture(scope="module")
def parsers() -> dict[str, argparse.ArgumentParser]:
    return commands(build_parser())


def test_every_command_is_looked_at(parsers):
    assert set(parsers) == {name for name, _module, _line in COMMANDS}
    assert set(parsers) >= WRITERS


def test_the_shared_options_are_spelled_and_explained_alike_everywhere(parsers):
    assert divergences(parsers) == []


def test_each_shared_option_stands_where_it_is_expected(parsers):
    having = {f: {n for n, p in parsers.items() if f in p._option_string_actions} for f in SHARED}
    assert having["--lang"] == set(parsers)
    for flag in WRITING:
        assert having[flag] >= WRITERS, flag
    assert having["-o"] == WRITERS
    assert having["--force"] == WRITERS | BESIDE
    assert {"list", "show", "render", "extract", "compare", "collate", "check", "play"} <= (
        having["--json"]
    )
    # one option, whichever flag names it: -q is --quiet, -o is --output
    for name in WRITERS:
        flags = parsers[name]._option_string_actions
        assert flags["-q"] is flags["--quiet"] and flags["-o"] is flags["--output"]


def test_a_command_that_diverges_is_found():
    """The check itself fails where a command's -o says something else, or -q is missing."""
    parser = build_parser()
    parsers = commands(parser)
    parsers["collate"]._option_string_actions["-o"].help = "write to FILE"
    parsers["site"]._option_string_actions["--json"] = argparse._StoreTrueAction(
        ["--json"], dest="json_output", help="machine-readable output"
    )
    for flag in ("-q", "--quiet"):
        del parsers["extract"]._option_string_actions[flag]
    found = divergences(parsers)
    assert any(line.startswith("collate -o:") for line in found)
    assert any(line.startswith("site --json:") and "json_output" in line for line in found)
    assert "extract writes files but has no -q" in found
    assert not any(line.startswith(("render", "play", "check")) for line in found)


# --- the one table of the formats -------------------------------------------------------------


def test_the_help_lists_every_format_render_writes_and_check_reads(cli):
    code, out, _ = cli("--help")
    assert code == 0
    lines = re.sub(r"\s+", " ", out)
    render = lines[lines.index("render render a score") : lines.index(" play ")]
    check = lines[lines.index("check check a performance") : lines.index(" site ")]
    for suffix, (kind, _name) in FORMATS.items():
        assert suffix in render, suffix  # .svg, .xml and .midi among them
        assert (suffix in check) == (kind in ("audio", "midi")), suffix
    code, out, _ = cli("render", "--help")
    described = re.sub(r"\s+", " ", out)
    assert all(suffix in described for suffix in FORMATS)


def test_an_unknown_extension_is_told_every_format(expect_error, tmp_path):
    err = expect_error("render", "lu", "-o", str(tmp_path / "lu.doc"))
    known = err[err.index("use one of: ") :].split()[3:]
    assert known == list(FORMATS)


# --- writing over what is there ---------------------------------------------------------------


def _tempo(path) -> int:
    return next(m.tempo for m in mido.MidiFile(path) if m.type == "set_tempo")


def test_render_refuses_to_write_over_a_file_unless_forced(tmp_path, capsys):
    out = tmp_path / "lu.mid"
    assert run_cli(["render", "lu", "-q", "-o", str(out)], capsys)[0] == 0
    before = out.read_bytes()
    err = expect_error(["render", "lu", "--bpm", "120", "-o", str(out)], capsys)
    assert f"-o {str(out)!r} exists already" in err and "--force" in err
    assert out.read_bytes() == before
    code, stdout, err = run_cli(["render", "lu", "--bpm", "120", "-o", str(out), "--force"], capsys)
    assert (code, err) == (0, "") and stdout.startswith(f"wrote {out}")
    assert _tempo(out) == 500000  # 120 strokes a minute, read back: the file was written over
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lu.mid"]


def test_a_batch_refuses_before_writing_any_file(tmp_path, capsys):
    (tmp_path / "xue-she.mid").write_bytes(b"mine")
    err = expect_error(
        ["render", "lu", "xue", "-q", "-o", str(tmp_path / "{state}-she.mid")], capsys
    )
    assert "xue-she.mid" in err and "--force" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["xue-she.mid"]
    assert (tmp_path / "xue-she.mid").read_bytes() == b"mine"
    argv = ["render", "lu", "xue", "-q", "-o", str(tmp_path / "{state}-she.mid"), "--force"]
    assert run_cli(argv, capsys)[0] == 0
    assert _tempo(tmp_path / "xue-she.mid") == 1000000


def test_collate_refuses_to_write_over_its_output_or_its_plot(tmp_path, capsys):
    table = tmp_path / "lu.csv"
    table.write_text("mine", encoding="utf-8")
    err = expect_error(["collate", "lu/2", "-o", str(table)], capsys)
    assert f"-o {str(table)!r} exists already" in err
    assert table.read_text(encoding="utf-8") == "mine"
    code, out, _ = run_cli(["collate", "lu/2", "-q", "-o", str(table), "--force"], capsys)
    assert (code, out) == (0, "")  # -q: the file alone
    assert table.read_text(encoding="utf-8").splitlines()[0].count(",") >= 2


def test_force_and_quiet_without_a_file_to_write_are_refused(capsys):
    err = expect_error(["collate", "lu/2", "--force"], capsys)
    assert "--force only applies with -o PATH" in err


@pytest.fixture
def no_musicxml(monkeypatch):
    """Builds without the MusicXML downloads (the slow part, which test_build checks)."""
    monkeypatch.setattr(site_build, "MUSICXML_SECTIONS", ())


def test_site_takes_o_q_and_force_and_keeps_an_earlier_site_without_force(
    tmp_path, capsys, no_musicxml
):
    out = tmp_path / "out"
    code, stdout, err = run_cli(["site", "-q", "-o", str(out)], capsys)
    assert (code, err) == (0, "")
    assert all(line.startswith("note: ") for line in stdout.splitlines())  # notes alone
    index = out / "index.html"
    assert index.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")
    index.write_text("an earlier site", encoding="utf-8")
    err = expect_error(["site", str(out)], capsys)
    assert "exists already" in err and "--force" in err
    assert index.read_text(encoding="utf-8") == "an earlier site"
    code, stdout, _ = run_cli(["site", str(out), "--force"], capsys)
    assert code == 0 and stdout.startswith(f"wrote {out}: ")
    assert index.read_text(encoding="utf-8") != "an earlier site"


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["site"], "give the folder to write once, as DIR or as -o DIR"),
        (["site", "a", "-o", "b"], "DIR 'a' and -o 'b' name two folders; give one"),
    ],
)
def test_site_needs_its_folder_once(tmp_path, capsys, monkeypatch, argv, said):
    monkeypatch.chdir(tmp_path)
    assert said in expect_error(argv, capsys)
    assert list(tmp_path.iterdir()) == []


def test_extract_quiet_writes_the_edition_and_says_nothing(tmp_path, capsys, source_text):
    passage = tmp_path / "p.txt"
    passage.write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")
    out = tmp_path / "mine.toml"
    code, stdout, err = run_cli(["extract", str(passage), "-q", "-o", str(out)], capsys)
    assert (code, stdout, err) == (0, "", "")
    assert "[[score]]" in out.read_text(encoding="utf-8")
    err = expect_error(["extract", str(passage), "-q", "-o", str(out)], capsys)
    assert "exists already" in err and "[[count]] entries" in err
    assert "--quiet only applies with" in expect_error(["extract", str(passage), "-q"], capsys)


def test_the_refusal_in_chinese_keeps_the_flag_first(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    out = tmp_path / "lu.mid"
    out.write_bytes(b"mine")
    code, _, err = run_cli(["render", "lu", "-o", str(out)], capsys)
    assert code == 2 and err.count("\n") == 1 and out.read_bytes() == b"mine"
    assert err.startswith(f"drumscore：錯誤：-o「{out}」已存在；如要覆寫，請加 --force")
