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
from drumscore.editions import passage as passage_module

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
    assert str(edition.note) == "checked"
    assert [(c.by, c.figure, c.state, c.pi, c.gu) for c in edition.counts] == [
        ("某", 1, "魯", 13, 10)
    ]
    assert len(edition.scores) == 4
    write_edition(path, "--force", "--id", "new-id", "--note", "again", capsys=capsys)
    edition = load_edition(path)
    assert (edition.id, str(edition.note), len(edition.counts)) == ("new-id", "again", 1)


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
    monkeypatch.setattr(passage_module, "MAX_BYTES", 1000)
    path = tmp_path / "big.txt"
    path.write_text("甲" * 400, encoding="utf-8")
    assert "is more than 1,000 bytes" in expect_error(["extract", str(path)], capsys)


def test_passage_read_is_bounded_whatever_its_size_says(capsys, monkeypatch):
    """/proc files are regular files of size 0 that hold more: the read stops after MAX_BYTES."""
    maps = Path("/proc/self/maps")
    if not maps.is_file() or maps.stat().st_size:
        pytest.skip("no /proc/self/maps of size 0")
    monkeypatch.setattr(passage_module, "MAX_BYTES", 100)
    assert "is more than 100 bytes" in expect_error(["extract", str(maps)], capsys)


OPTION_ERRORS = [
    (
        ["-o", "{d}/zs.wav"],
        "-o '{d}/zs.wav': it does not write .wav files; use one of: .toml",
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
    assert 1_900_000 < path.stat().st_size < passage_module.MAX_BYTES
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


# --- texts that are refused or read in part ---

TOP = "鼓\n○□○○□□。○□○○□半○□○□○○○□□○□○魯鼓\n"


def test_a_full_stop_inside_a_pattern_exits_2_at_its_position(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(TOP, encoding="utf-8")
    code, out, err = run_cli(["extract", str(path)], capsys)
    assert code == 2 and out == ""
    assert err.startswith("drumscore: error: line 2, column 7: '。' (U+3002")
    assert "--partial" in err


def test_partial_marks_doubtful_patterns_in_text_and_json(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text(TOP, encoding="utf-8")
    code, out, _ = run_cli(["extract", str(path), "--partial"], capsys)
    assert code == 0
    assert "a partial reading" in out
    assert out.count("DOUBTFUL:") == 3 and "divided from the strokes after it by '。'" in out
    code, out, _ = run_cli(["extract", str(path), "--partial", "--json"], capsys)
    data = json.loads(out)
    assert data["doubtful"] is True
    assert [s["doubtful"] for s in data["scores"]] == [True, True]
    assert data["scores"][1]["state"] == "魯"
    err = expect_error(["extract", str(path), "--partial", "-o", str(tmp_path / "e.toml")], capsys)
    assert "cannot go into an edition file" in err
    assert not (tmp_path / "e.toml").exists()


def test_label_option(tmp_path, capsys):
    lu = "○□○○□□○□○○□半○□○□○○○□□○□○"
    xue = "○□○○○□□○□○○□□○□○○□□○半○□○○○□□○"
    path = tmp_path / "p.txt"
    text = f"鼓{lu}魯鼓{xue}薜鼓\n"
    path.write_text(text, encoding="utf-8")
    code, out, _ = run_cli(["extract", str(path)], capsys)
    column = text.index("薜") + 1
    assert code == 0 and f"label '薜鼓' (line 1, column {column}) read as 薛 by position" in out
    code, out, _ = run_cli(["extract", str(path), "--label", "薜=薛", "--json"], capsys)
    assert [s["remarks"] for s in json.loads(out)["scores"]] == [[], []]
    assert "--label '薜=齊'" in expect_error(["extract", str(path), "--label", "薜=齊"], capsys)


def test_notes_inside_patterns_in_the_table_and_json(capsys):
    name = str(SOURCES / "KR1d0068_072_欽定禮記義疏.txt")
    code, out, _ = run_cli(["extract", name], capsys)
    assert code == 0
    assert "1 魯鼓: note after stroke 8: 吳澄本作○ (line 5, column 10; Kanripo line 674)" in out
    _, out, _ = run_cli(["extract", name, "--json"], capsys)
    lu2 = json.loads(out)["scores"][2]
    assert [(n["after"], n["text"], n["kanripo_line"]) for n in lu2["notes"]] == [
        (21, "大戴禮下尚有一□一○朱子從之", 678)
    ]
    assert lu2["kanripo_lines"] == "677-678"


# --- the round trip: every option of extract, written, read back and used by every command ---

#: A passage of our own: □ drawn as ◍, the second label miscopied 薜, both figures.
GLYPH_PASSAGE = (
    "# edition: 試本\n"
    "鼓○◍○○◍◍○半○◍○○魯鼓○◍○○○◍半○◍○○◍薜鼓取半以下為投壺禮\n"
    "魯鼓○◍○○◍○半○◍○○○薜鼓○◍○○○◍○半○◍○◍○\n"
)
LU1_CANON = "○□○○□□○半○□○○"


@pytest.fixture
def glyph_passage(tmp_path):
    path = tmp_path / "試本.txt"
    path.write_bytes(GLYPH_PASSAGE.encode("gb18030"))
    return path


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("DRUMSCORE_EDITIONS", str(tmp_path / "mine"))
    return tmp_path / "mine"


EVERY_OPTION = [
    "--encoding", "gb18030", "--glyph", "◍=□", "--label", "薜=薛", "--partial",
    "--name", "試本甲", "--alias", "試", "--alias", "甲", "--script", "simplified",
    "--note", "our own passage", "--date", "1736-1748", "--date-basis", "a preface",
]  # fmt: skip


def test_every_option_round_trips_through_the_edition_file(glyph_passage, folders, capsys):
    code, _, err = run_cli(["extract", str(glyph_passage), "--add", "mine", *EVERY_OPTION], capsys)
    assert code == 0, err
    edition = load_edition(folders / "mine.toml")
    assert (edition.id, edition.name, edition.script, str(edition.note)) == (
        "mine",
        "試本甲",
        "simplified",
        "our own passage",
    )
    assert edition.aliases == ("試", "甲") and edition.glyphs == (("◍", "□"),)
    assert (edition.date.earliest, edition.date.latest, str(edition.date.basis)) == (
        1736,
        1748,
        "a preface",
    )
    lu = edition.score("魯", 1)
    assert lu.printed == "○◍○○◍◍○半○◍○○" and lu.pattern.notation == LU1_CANON
    # what extract --json said of the passage is what the file holds
    code, out, _ = run_cli(["extract", str(glyph_passage), "--json", *EVERY_OPTION[:6]], capsys)
    data = json.loads(out)
    assert data["glyphs"] == {"◍": "□"}
    found = {(s["figure"], s["state"]): (s["printed"], s["notation"]) for s in data["scores"]}
    held = {(s.figure, s.state): (s.printed, s.pattern.notation) for s in edition.scores}
    assert found == held
    # every command reads the edition, the notation canonical, the printing kept
    _, out, _ = run_cli(["extract", str(glyph_passage), *EVERY_OPTION[:6]], capsys)
    assert "glyphs read: ◍ as □" in out
    code, out, err = run_cli(["show", "lu@mine", "--json"], capsys)
    assert code == 0, err
    data = json.loads(out)
    assert (data["notation"], data["printed"]) == (LU1_CANON, "○◍○○◍◍○半○◍○○")
    assert data["date"]["text"] == "1736-1748" and data["glyphs"] == {"◍": "□"}
    for argv in (
        ["list"],
        ["collate", "lu"],
        ["compare", "lu@mine", "lu"],
        ["render", "lu@mine", "-o", str(glyph_passage.with_suffix(".mid"))],
    ):
        code, out, err = run_cli(argv, capsys)
        assert code == 0 and err == "", (argv, err)
        assert "mine" in out or "試本甲" in out


def test_force_keeps_the_date_and_rewrites_the_glyphs_from_the_passage(
    glyph_passage, tmp_path, capsys
):
    path = tmp_path / "e.toml"
    code, _, err = run_cli(["extract", str(glyph_passage), "-o", str(path), *EVERY_OPTION], capsys)
    assert code == 0, err
    argv = ["extract", str(glyph_passage), "-o", str(path), "--force", "--id", "other"]
    code, _, err = run_cli([*argv, *EVERY_OPTION[:6]], capsys)
    assert code == 0, err
    edition = load_edition(path)
    assert edition.id == "other" and edition.date.text == "1736-1748"
    assert edition.aliases == ("試", "甲") and str(edition.note) == "our own passage"
    assert edition.glyphs == (("◍", "□"),) and edition.name == "試本"
    code, _, err = run_cli(
        [*argv, *EVERY_OPTION[:6], "--date", "1750", "--date-basis", "print"], capsys
    )
    assert code == 0, err
    assert load_edition(path).date.text == "1750"


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--date", "1748"], "--date and --date-basis go together"),
        (["--date-basis", "a preface"], "--date and --date-basis go together"),
        (["--date", "soon", "--date-basis", "b"], "--date 'soon' is not a year"),
        (["--date", "1748-1736", "--date-basis", "b"], "ends before it begins"),
    ],
)
def test_bad_dates_are_refused_before_anything_is_written(
    glyph_passage, tmp_path, capsys, extra, said
):
    out = tmp_path / "e.toml"
    err = expect_error(
        ["extract", str(glyph_passage), *EVERY_OPTION[:6], "-o", str(out), *extra], capsys
    )
    assert said in err and not out.exists()
    err = expect_error(["extract", str(glyph_passage), *EVERY_OPTION[:6], "--date", "1748"], capsys)
    assert "--date" in err and "-o EDITION.toml or --add" in err


def test_what_was_written_and_what_is_refused_in_traditional_chinese(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    out = tmp_path / "mine.toml"
    code, said, err = run_cli(["extract", ZHUSHU, "-o", str(out)], capsys)
    assert code == 0, err
    scores = len(load_edition(out).scores)
    assert said == f"已寫入 {out}：從 {ZHUSHU}（utf-8）讀出 {scores} 個鼓譜\n"
    code, said, err = run_cli(["extract", ZHUSHU, "-o", str(tmp_path)], capsys)
    assert (code, said) == (2, "")
    assert err == (
        f"drumscore：錯誤：-o「{tmp_path}」是資料夾；請指定版本檔名，"
        f"如「{tmp_path / 'mine.toml'}」\n"
    )
