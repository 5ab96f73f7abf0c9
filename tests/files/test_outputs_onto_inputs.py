"""No command writes over one of its own inputs: an output that is an input (the same file, by
any path: as given, through a link, a hard link, an absolute path) or a folder to be replaced
that holds one is refused before anything is written, exit 2, naming both; every input is
byte-identical afterwards. Also: template fields and edition ids never lead a write out of its
folder, and a planted link in the editions folder is replaced, not followed."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from cli_run import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sourcefiles import source_text

from drumscore.render.kit import BUILTIN_KIT

NOTATION = "○□○○半○□○\n"
EDITION = 'id = "mine"\nname = "Mine"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□半○"\n'
PROGRAMME = '[[item]]\nscore = "○□半○"\n'


def _inputs(folder: Path) -> None:
    """The input files every command below may read, in `folder`."""
    kit = folder / "kit"
    shutil.copytree(BUILTIN_KIT.parent, kit)
    (folder / "site").mkdir()
    (folder / "site" / "e.toml").write_text(EDITION, encoding="utf-8")
    (folder / "e.toml").write_text(EDITION, encoding="utf-8")
    (folder / "batch").mkdir()
    for name in ("n.mid", "n.wav", "n.png", "n.musicxml", "n.flac", "batch/notation.mid"):
        (folder / name).write_text(NOTATION, encoding="utf-8")
    (folder / "p.wav").write_text(PROGRAMME, encoding="utf-8")
    (folder / "passage.toml").write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")


#: Each command whose output is one of its inputs: the arguments (IN: the input as the output
#: names it; --force, so that what is there is no reason to refuse) and the input's path in the
#: folder.
COMMANDS = [
    (["render", "IN", "-o", "IN", "--force"], "n.mid"),
    (["render", "IN", "-q", "-o", "IN", "--force"], "n.musicxml"),
    (["render", "IN", "-q", "-o", "IN", "--force"], "n.flac"),
    (["render", "lu", "--kit", "kit/kit.toml", "-q", "-o", "IN", "--force"], "kit/gu.wav"),
    (["render", "lu", "--kit", "kit", "-q", "-o", "IN", "--force"], "kit/pi.wav"),
    (["render", "--programme", "IN", "-q", "-o", "IN", "--force"], "p.wav"),
    (
        ["render", "lu", "batch/notation.mid", "-q", "-o", "batch/{state}.mid", "--force"],
        "batch/notation.mid",
    ),
    (["compare", "IN", "lu", "--audio", "IN", "--force"], "n.wav"),
    (["compare", "lu", "IN", "--plot", "IN", "--force"], "n.png"),
    (["collate", "--edition", "IN", "--format", "csv", "-o", "IN", "--force"], "e.toml"),
    (["collate", "lu/1", "--edition", "IN", "--format", "tei", "-o", "IN", "--force"], "e.toml"),
    (["site", "site", "--edition", "site/e.toml"], "site/e.toml"),
    (["extract", "IN", "-o", "IN", "--force"], "passage.toml"),
]
#: How the output names the input: as given, by its absolute path, through "./", a symbolic
#: link or a hard link beside it.
SPELLINGS = ["same", "absolute", "dotted", "symlink", "hardlink"]


def _spell(folder: Path, name: str, how: str) -> str:
    path = folder / name
    if how == "absolute":
        return str(path)
    if how == "dotted":
        return str(path.parent / "." / path.name)
    if how in ("symlink", "hardlink"):
        other = path.with_name(f"other{path.suffix}")
        os.symlink(path.name, other) if how == "symlink" else os.link(path, other)
        return str(other)
    return str(path)


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    command=st.sampled_from(COMMANDS),
    how=st.sampled_from(SPELLINGS),
)
def test_an_output_that_is_an_input_is_refused_and_every_input_is_kept(
    tmp_path_factory, capsys, monkeypatch, command, how
):
    folder = tmp_path_factory.mktemp("onto")
    monkeypatch.chdir(folder)
    _inputs(folder)
    argv, name = command
    if "IN" not in argv:
        how = "same"  # the output names a folder, or a template, not the file itself
    given = _spell(folder, name, how)
    argv = [given if a == "IN" else a for a in argv]
    before = _snapshot(folder)
    code, _, err = run_cli(argv, capsys)
    assert code == 2, (argv, err)
    assert err.startswith("drumscore: error: ") and err.count("\n") == 1, err
    assert "input" in err and "Traceback" not in err
    assert _snapshot(folder) == before
    assert not [p for p in folder.rglob("*.part")]


def test_the_message_names_the_output_and_the_input(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _inputs(tmp_path)
    os.symlink("e.toml", "link.toml")
    code, _, err = run_cli(
        ["collate", "--edition", "e.toml", "--format", "csv", "-o", "link.toml"], capsys
    )
    assert code == 2
    assert "output 'link.toml' is the input 'e.toml'" in err


def test_a_site_folder_holding_an_input_is_not_replaced(tmp_path, capsys):
    _inputs(tmp_path)
    site = tmp_path / "site"
    code, _, err = run_cli(["site", str(site), "--edition", str(site / "e.toml")], capsys)
    assert code == 2
    assert f"output folder {str(site)!r} holds the input" in err
    assert (site / "e.toml").read_text(encoding="utf-8") == EDITION


# --- template fields and edition ids ----------------------------------------------------------


@pytest.mark.parametrize("ident", ["../../../x", "a/b", "..", ".hidden", "x y", "lu@x", "a\\b"])
def test_an_edition_id_that_is_not_a_plain_name_is_refused(tmp_path, capsys, ident):
    edition = tmp_path / "e.toml"
    edition.write_text(EDITION.replace('"mine"', f"'{ident}'"), encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    code, _, err = run_cli(
        ["render", f"lu@{edition}", "xue@zhushu", "-o", f"{out}/{{edition}}/{{key}}.mid"], capsys
    )
    assert code == 2, err  # the edition is refused; the other score is written where it should
    assert "not a plain name" in err
    written = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*.mid"))
    assert written == ["out/zhushu/xue_1_zhushu.mid"]


@pytest.mark.parametrize(
    "template", ["out/{key}/../../x-{key}.mid", "out/{section}/../../../{key}.mid"]
)
def test_a_template_path_that_leaves_its_folder_is_refused(tmp_path, capsys, template, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out").mkdir()
    code, _, err = run_cli(["render", "lu", "xue", "-o", template], capsys)
    assert code == 2, err
    assert "outside the folder 'out'" in err
    assert list(tmp_path.rglob("*.mid")) == []


def test_a_template_path_inside_its_folder_is_written(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = run_cli(["render", "lu", "xue", "-q", "-o", "out/{edition}/{state}.mid"], capsys)
    assert code == 0, err
    assert sorted(p.name for p in (tmp_path / "out" / "zhushu").iterdir()) == ["lu.mid", "xue.mid"]


def test_a_link_planted_in_the_editions_folder_is_replaced_not_followed(
    tmp_path, capsys, monkeypatch
):
    editions = tmp_path / "editions"
    editions.mkdir()
    monkeypatch.setenv("DRUMSCORE_EDITIONS", str(editions))
    outside = tmp_path / "outside.toml"
    outside.write_text(EDITION, encoding="utf-8")
    (editions / "mine.toml").symlink_to(outside)
    passage = tmp_path / "p.txt"
    passage.write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")
    code, _, err = run_cli(["extract", str(passage), "--add", "mine", "--force"], capsys)
    assert code == 0, err
    assert outside.read_text(encoding="utf-8") == EDITION
    written = editions / "mine.toml"
    assert not written.is_symlink() and 'id = "mine"' in written.read_text(encoding="utf-8")


def test_a_plot_that_is_the_performance_under_another_name_is_refused(tmp_path, capsys):
    """check reads a .mid and draws a .png: a hard link between them is still the one file."""
    take = tmp_path / "take.mid"
    assert run_cli(["render", "lu", "-q", "-o", str(take)], capsys)[0] == 0
    before = take.read_bytes()
    os.link(take, tmp_path / "take.png")
    argv = ["check", str(take), "lu", "--plot", str(tmp_path / "take.png"), "--force"]
    code, _, err = run_cli(argv, capsys)
    assert code == 2 and "is the input" in err and err.count("\n") == 1
    assert take.read_bytes() == before
