"""Hostile inputs that used to break whole commands: one broken user edition, --only with no
stroke of its drum, a site folder behind a symbolic link, input names that are not text under
the locale, and jobs past the whole-job limits. Each is one clear line, or the command runs on."""

from __future__ import annotations

import os
import time

import pytest
from cli_run import run_cli
from hostile_checks import refused
from sourcefiles import SOURCES

from drumscore import corpus
from drumscore.site.build import build_site

ZHUSHU = SOURCES / "KR1d0053_058_禮記注疏.txt"
GOOD = 'id = "good"\nname = "Good"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□○半○□"\n'
COUNT = (
    '[[count]]\nby = "某"\nfigure = {figure}\nstate = "{state}"\nsection = "she"\n'
    "pi = {pi}\ngu = 2\n"
)


@pytest.fixture
def mine(tmp_path, monkeypatch):
    """The user's editions folder (DRUMSCORE_EDITIONS) for this test only."""
    folder = tmp_path / "mine"
    folder.mkdir()
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("DRUMSCORE_EDITIONS", str(folder))
    return folder


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"state": "秦", "figure": 1, "pi": 3}, "state must be 魯 or 薛"),
        ({"state": "魯", "figure": 7, "pi": 3}, "figure 1 or 2"),
        ({"state": "魯", "figure": 1, "pi": -3}, "pi and gu are numbers of strokes"),
    ],
    ids=["state 秦", "figure 7", "pi -3"],
)
@pytest.mark.parametrize("argv", [["list"], ["show", "lu"], ["collate", "lu/1"]])
def test_a_broken_count_leaves_its_edition_out_with_one_warning_and_the_command_runs(
    mine, capsys, fields, said, argv
):
    (mine / "good.toml").write_text(GOOD, encoding="utf-8")
    broken = GOOD.replace('"good"', '"qinben"') + COUNT.format(**fields)
    (mine / "broken.toml").write_text(broken, encoding="utf-8")
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    warnings = err.strip().splitlines()
    assert len(warnings) == 1, warnings
    assert warnings[0].startswith("drumscore: warning: left out your edition file")
    assert "broken.toml" in warnings[0] and said in warnings[0]
    assert "--state" not in err
    if argv[0] != "show":
        assert "good" in out and "qinben" not in out


@pytest.mark.parametrize(
    ("pattern", "only", "ext"),
    [("□□□", "pi", "wav"), ("○○○", "gu", "flac"), ("○○半○", "gu", "mid")],
)
def test_only_a_drum_the_pattern_never_strikes_is_refused_saying_why(
    tmp_path, capsys, pattern, only, ext
):
    line = refused(
        ["render", pattern, "--only", only, "-o", f"{tmp_path}/x.{ext}"], capsys, tmp_path
    )
    assert line.startswith("drumscore: error: --only ")
    assert "nothing would sound" in line and pattern in line


def test_only_a_drum_the_pattern_strikes_is_rendered(tmp_path, capsys):
    code, _, err = run_cli(["render", "○□○", "--only", "gu", "-o", f"{tmp_path}/x.mid"], capsys)
    assert code == 0, err


def _small_edition(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text(GOOD, encoding="utf-8")
    return corpus.load_edition(path)


def test_a_site_into_a_symbolic_link_replaces_the_folder_it_leads_to(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    build_site(link, [_small_edition(tmp_path)], corpus_editions=False, musicxml=False)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert (real / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link", "real", "small.toml"]


def test_a_site_into_a_dangling_link_is_refused_before_the_build(tmp_path, capsys):
    (tmp_path / "dangling").symlink_to(tmp_path / "gone" / "deeper")
    start = time.process_time()  # CPU, not wall time: a busy machine does not make it slow
    code, _, err = run_cli(["site", str(tmp_path / "dangling")], capsys)
    assert code == 2, err
    assert "does not exist" in err and str(tmp_path / "gone") in err
    assert time.process_time() - start < 10  # nothing was built
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling"]


@pytest.mark.parametrize(
    "name",
    [b"caf\xe9.txt", "鼓.txt".encode("gb2312")],
    ids=["Latin-1 under UTF-8", "GB2312 under UTF-8"],
)
def test_an_input_name_that_is_not_text_is_written_into_the_edition_file_escaped(
    tmp_path, capsys, name
):
    source = os.path.join(os.fsencode(tmp_path), name)
    with open(source, "wb") as out:
        out.write(ZHUSHU.read_bytes())
    target = tmp_path / "e.toml"
    code, _, err = run_cli(["extract", os.fsdecode(source), "-o", str(target)], capsys)
    assert code == 0, err
    text = target.read_text(encoding="utf-8")  # valid UTF-8 throughout
    escaped = name.decode("utf-8", "backslashreplace")
    assert escaped in text
    assert corpus.load_edition(target).scores


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["render", "lu", "--click", "16", "--bpm", "1200", "--duration", "12h"],
            "over the limit of 200,000",
        ),
        (["render", "○□" * 800 + "○", "--repeat", "86", "--bpm", "1200"], "limit of 20,000"),
    ],
    ids=["clicks of 12 hours", "MusicXML of 137,686 strokes"],
)
def test_a_job_past_a_whole_job_limit_is_refused_before_it_starts(tmp_path, capsys, argv, said):
    out = f"{tmp_path}/x.{'mid' if '--click' in argv else 'musicxml'}"
    line = refused([*argv, "-o", out], capsys, tmp_path)
    assert said in line


#: Broken user editions whose file name is not their id: the field at fault, and how it is named.
BROKEN_BY_ID = {
    "notes-2024.toml": (
        'id = "mine"\nname = "My reading"\naliases = ["mr"]\n[[score]]\nfigure = 1\n'
        'state = "魯"\nprinted = "○X□"\n',
        "unexpected character 'X'",
        ("mine", "MINE", "My reading", "mr"),
    ),
    "draft.toml": (
        'id = "other"\nname = "Other"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = [\n',
        "not valid TOML",
        ("other", "Other"),
    ),
}


@pytest.mark.parametrize("file", BROKEN_BY_ID)
def test_a_broken_user_edition_asked_for_by_id_or_name_says_its_file_and_fault(mine, capsys, file):
    text, fault, names = BROKEN_BY_ID[file]
    (mine / file).write_text(text, encoding="utf-8")
    for name in (*names, file.removesuffix(".toml")):
        code, _, err = run_cli(["show", f"lu@{name}"], capsys)
        assert code == 2, (name, err)
        (line,) = err.splitlines()
        assert file in line and fault in line, (name, line)
        assert "unknown edition" not in line
