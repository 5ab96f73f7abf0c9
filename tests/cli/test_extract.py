"""drumscore extract on the command line: what it reads, and the edition files it writes."""

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cli_run import expect_error, run_cli
from sourcefiles import SOURCES, source_text

from drumscore.corpus import load_edition
from drumscore.editions import encoding

ZHUSHU = str(SOURCES / "KR1d0053_058_禮記注疏.txt")
COUNT = '\n[[count]]\nby = "某"\nfigure = 1\nstate = "魯"\nsection = "she"\npi = 13\ngu = 10\n'


def write_edition(path: Path, *extra: str, capsys) -> None:
    code, _, err = run_cli(["extract", ZHUSHU, "-o", str(path), *extra], capsys)
    assert code == 0, err


def hand_edited(path: Path) -> bytes:
    """An edition file with what a person adds by hand: an id, aliases, a note and a count."""
    text = path.read_text(encoding="utf-8").replace('id = "', 'id = "hand-', 1)
    text = text.replace("\nscript = ", '\naliases = ["某", "甲"]\nnote = "checked"\nscript = ', 1)
    path.write_text(text + COUNT, encoding="utf-8")
    return path.read_bytes()


def test_existing_edition_file_is_not_replaced(tmp_path, capsys):
    path = tmp_path / "ed.toml"
    write_edition(path, capsys=capsys)
    before = hand_edited(path)
    err = expect_error(["extract", ZHUSHU, "-o", str(path)], capsys)
    assert repr(str(path)) in err and "--force" in err
    assert path.read_bytes() == before


def test_force_keeps_counts_aliases_note_and_id(tmp_path, capsys):
    path = tmp_path / "ed.toml"
    write_edition(path, capsys=capsys)
    hand_edited(path)
    write_edition(path, "--force", "--alias", "乙", "--alias", "某", capsys=capsys)
    edition = load_edition(path)
    assert edition.id == "hand-ed"
    assert edition.aliases == ("某", "甲", "乙")
    assert edition.note == "checked"
    assert [(c.by, c.figure, c.state, c.pi, c.gu) for c in edition.counts] == [
        ("某", 1, "魯", 13, 10)
    ]
    assert len(edition.scores) == 4
    write_edition(path, "--force", "--id", "new-id", "--note", "again", capsys=capsys)
    edition = load_edition(path)
    assert (edition.id, edition.note, len(edition.counts)) == ("new-id", "again", 1)


def test_force_refuses_a_file_that_is_not_an_edition(tmp_path, capsys):
    path = tmp_path / "pyproject.toml"
    path.write_text('[project]\nname = "x"\n', encoding="utf-8")
    err = expect_error(["extract", ZHUSHU, "-o", str(path), "--force"], capsys)
    assert "cannot be read as an edition file" in err and "missing key 'id'" in err
    assert path.read_text(encoding="utf-8") == '[project]\nname = "x"\n'


@pytest.mark.parametrize("name", ["a\nb", 'q"uote', "back\\slash", "cr\rlf", "\u3000"], ids=repr)
def test_written_file_loads_whatever_the_name(tmp_path, capsys, name):
    passage = tmp_path / f"pass{name}age.txt"
    passage.write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")
    out = tmp_path / "q.toml"
    code, _, err = run_cli(["extract", str(passage), "-o", str(out), "--name", name], capsys)
    assert code == 0, err
    edition = load_edition(out)
    assert edition.name == name and edition.provenance.file == passage.name
    assert out.read_text(encoding="utf-8").startswith("# ")


def test_bom_with_explicit_encoding_keeps_the_provenance(tmp_path, capsys):
    path = tmp_path / "bom.txt"
    path.write_bytes(b"\xef\xbb\xbf" + Path(ZHUSHU).read_bytes())
    code, out, _ = run_cli(["extract", str(path), "--encoding", "utf-8", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["provenance"]["kanripo"] == "KR1d0053"


# --- bad input ---


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_devices_are_refused(capsys, device):
    if not os.path.exists(device):
        pytest.skip(f"no {device}")
    err = expect_error(["extract", device], capsys)
    assert f"{device!r} is not a regular file" in err


def test_fifo_is_refused_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "pipe.txt"
    os.mkfifo(fifo)
    assert "is not a regular file" in expect_error(["extract", str(fifo)], capsys)


def test_passage_too_big(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(encoding, "MAX_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text("甲" * 400, encoding="utf-8")
    assert "is more than 1,000 bytes" in expect_error(["extract", str(path)], capsys)


def test_passage_read_is_bounded_whatever_its_size_says(capsys, monkeypatch):
    """/proc files are regular files of size 0 that hold more: the read stops after MAX_BYTES."""
    maps = Path("/proc/self/maps")
    if not maps.is_file() or maps.stat().st_size:
        pytest.skip("no /proc/self/maps of size 0")
    monkeypatch.setattr(encoding, "MAX_BYTES", 100)
    assert "is more than 100 bytes" in expect_error(["extract", str(maps)], capsys)


OPTION_ERRORS = [
    (
        ["-o", "{d}/zs.wav"],
        "-o '{d}/zs.wav': an edition file is TOML; give a file name ending in "
        ".toml, such as '{d}/zs.toml'",
    ),
    (["-o", ""], "-o '' is an empty file name"),
    (["-o", " "], "-o ' ' is an empty file name"),
    (["-o", "{d}"], "-o '{d}' is a folder; give an edition file name such as '{d}/mine.toml'"),
    (["-o", "{d}/no/e.toml"], "does not exist"),
    (["--id", "x"], "--id 'x' only applies with -o EDITION.toml"),
    (["--name", "x"], "--name 'x' only applies with -o EDITION.toml"),
    (["--alias", "x"], "--alias 'x' only applies with -o EDITION.toml"),
    (["--script", "simplified"], "--script 'simplified' only applies with -o EDITION.toml"),
    (["--note", ""], "--note '' only applies with -o EDITION.toml"),
    (["--force"], "--force only applies with -o EDITION.toml"),
    (
        ["--json", "--id", "x", "--note", "y"],
        "--id 'x' and --note 'y' only apply with -o EDITION.toml",
    ),
    (["--encoding", "rot13"], "unknown text encoding 'rot13'"),
    (["--glyph", "○=□"], "'○' is notation already"),
]


@pytest.mark.parametrize(("argv", "message"), OPTION_ERRORS, ids=[m for _, m in OPTION_ERRORS])
def test_options_checked_before_anything_is_written(tmp_path, capsys, argv, message):
    argv = [a.format(d=tmp_path) for a in argv]
    code, out, err = run_cli(["extract", ZHUSHU, *argv], capsys)
    assert code == 2 and out == ""
    assert err.startswith("drumscore: error: ") and "Traceback" not in err
    assert message.format(d=tmp_path) in err
    assert list(tmp_path.iterdir()) == []


PEAK_MEMORY = Path(__file__).resolve().parents[2] / "tools" / "peak_memory.py"


def test_memory_of_a_long_passage(tmp_path):
    """A 2 MB passage takes a few times its size in memory, not an object per character."""
    prose = source_text("003_69e158327cd5ca34.txt").replace("○", "").replace("□", "")
    text = prose * (2_000_000 // len(prose.encode())) + source_text("KR1d0053_058_禮記注疏.txt")
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    assert 1_900_000 < path.stat().st_size < encoding.MAX_BYTES
    result = subprocess.run(
        [sys.executable, str(PEAK_MEMORY), "extract", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    code, grown = map(int, result.stdout.split())
    assert code == 0
    assert grown < 30_000_000, f"extract grew the process by {grown:,} bytes"


def test_written_file_is_toml(tmp_path, capsys):
    out = tmp_path / "e.toml"
    write_edition(out, capsys=capsys)
    assert tomllib.loads(out.read_text(encoding="utf-8"))["id"] == "e"
