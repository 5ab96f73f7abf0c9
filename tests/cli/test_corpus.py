"""drumscore list and show: the built-in editions, the user's own, and what show prints."""

import json

import pytest
from cli_run import expect_error, run_cli
from sourcefiles import SOURCES

from drumscore.corpus import find_edition

ZHUSHU = str(SOURCES / "KR1d0053_058_禮記注疏.txt")


@pytest.fixture
def folders(tmp_path, monkeypatch):
    """An empty platform data folder and one DRUMSCORE_EDITIONS folder, for this test only."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mine = tmp_path / "mine"
    monkeypatch.setenv("DRUMSCORE_EDITIONS", str(mine))
    return mine


def test_extract_add_then_every_command_finds_the_edition(folders, capsys):
    code, out, err = run_cli(["extract", ZHUSHU, "--add", "mine", "--name", "某本"], capsys)
    assert code == 0, err
    assert (folders / "mine.toml").is_file() and str(folders / "mine.toml") in out
    code, out, _ = run_cli(["show", "lu@mine"], capsys)
    assert code == 0 and "某本 · 魯鼓 · figure 1" in out and "your edition" in out
    code, out, _ = run_cli(["list"], capsys)
    rows = [ln for ln in out.splitlines() if "lu/1@mine" in ln]
    assert rows and rows[0].startswith("某本 (yours)")
    code, out, _ = run_cli(["list", "--json"], capsys)
    marks = {s["key"]: s["user_edition"] for s in json.loads(out)}
    assert marks["lu/1@mine"] is True and marks["lu/1@zhushu"] is False
    code, out, _ = run_cli(["collate", "lu"], capsys)
    assert code == 0 and " mine" in out and "(your edition, " in out
    code, out, _ = run_cli(["compare", "lu@mine", "lu@zhushu"], capsys)
    assert code == 0


def test_add_without_id_takes_the_file_name_and_refuses_to_write_over(folders, tmp_path, capsys):
    passage = tmp_path / "My Passage.txt"
    passage.write_text((SOURCES / "KR1d0071_026_禮記述註.txt").read_text("utf-8"), "utf-8")
    code, _, err = run_cli(["extract", str(passage), "--add"], capsys)
    assert code == 0, err
    assert (folders / "my-passage.toml").is_file()
    before = (folders / "my-passage.toml").read_bytes()
    err = expect_error(["extract", str(passage), "--add"], capsys)
    assert "exists already" in err and "--force" in err
    assert (folders / "my-passage.toml").read_bytes() == before
    code, _, err = run_cli(["extract", str(passage), "--add", "--force"], capsys)
    assert code == 0, err


def test_an_id_of_a_built_in_edition_is_refused_naming_both_files(folders, capsys):
    err = expect_error(["extract", ZHUSHU, "--add", "zhushu"], capsys)
    assert "taken by the built-in edition 禮記注疏" in err and "zhushu.toml" in err
    assert not folders.exists() or not list(folders.iterdir())
    # a file put there by hand with a clashing id: left out, and every command that reads the
    # corpus says so in one line naming both files; naming it is the error
    folders.mkdir(exist_ok=True)
    text = (SOURCES.parent.parent / "drumscore" / "scores" / "benyi.toml").read_text("utf-8")
    (folders / "copy.toml").write_text(text, "utf-8")
    code, out, err = run_cli(["list"], capsys)
    assert code == 0 and "lu/1@zhushu" in out
    (line,) = err.splitlines()
    assert line.startswith("drumscore: warning: left out your edition file")
    assert "edition id 'benyi'" in line and "copy.toml" in line and "benyi.toml" in line
    err = expect_error(["show", "lu@copy"], capsys)
    assert "copy.toml" in err and "edition id 'benyi'" in err


BROKEN = {
    "notation.toml": ('id = "notation"\nname = "N"\n[[score]]\nfigure = 1\nstate = "魯"\n'
                      'printed = "○X□"\n', "unexpected character 'X'"),
    "toml.toml": ("id = [", "not valid TOML"),
    "glyph.toml": ('id = "glyph"\nname = "G"\n[glyphs]\n"○" = "□"\n', "notation already"),
}  # fmt: skip


def test_a_broken_file_among_your_editions_stops_only_the_commands_that_name_it(folders, capsys):
    code, _, err = run_cli(["extract", ZHUSHU, "--add", "good", "--name", "好本"], capsys)
    assert code == 0, err
    for name, (text, _) in BROKEN.items():
        (folders / name).write_text(text, "utf-8")
    for argv in (["list"], ["show", "lu@good"], ["collate", "lu"], ["compare", "lu@good", "lu"]):
        code, out, err = run_cli(argv, capsys)
        assert out
        assert code == 0, (argv, err)
        assert "Traceback" not in err and "error" not in err
        lines = err.splitlines()
        assert len(lines) == len(BROKEN), (argv, lines)
        for name, (_, said) in BROKEN.items():
            (line,) = [ln for ln in lines if f"{name}'" in ln]
            assert (
                line.startswith("drumscore: warning: left out your edition file") and said in line
            )
    assert "lu/1@good" in run_cli(["list"], capsys)[1]
    for name, (_, said) in BROKEN.items():
        err = expect_error(["show", f"lu@{name.removesuffix('.toml')}"], capsys)
        assert name in err and said in err and len(err.splitlines()) == 1


def test_list_orders_by_date_and_shows_the_dates(capsys):
    from drumscore.corpus import builtin_editions

    code, out, _ = run_cli(["list", "--order", "date"], capsys)
    assert code == 0
    rows = [ln.split() for ln in out.splitlines()[2:]]
    keys = [r[-1].split("@")[1] for r in rows]
    firsts = list(dict.fromkeys(keys))
    assert firsts == [e.id for e in sorted(builtin_editions(), key=lambda e: e.date_key)]
    assert rows[0][1] == "642-653" and keys[0] == "zhushu"
    code, out, _ = run_cli(["list", "--json", "--order", "date"], capsys)
    data = json.loads(out)
    years = [d["date"]["latest"] for d in data]
    assert years == sorted(years) and all(d["date"]["basis"] for d in data)


def test_show_gives_the_date_with_its_basis_and_the_glyph_mapping(capsys):
    code, out, _ = run_cli(["show", "lu@zuantu"], capsys)
    assert code == 0
    assert "date:    1127-1279 (a Southern Song" in out
    assert "glyphs:  ◍ read as □, ◛ read as □" in out
    assert "as printed: ○◍○○○◍□" in out
    code, out, _ = run_cli(["show", "lu@zuantu", "--json"], capsys)
    data = json.loads(out)
    assert data["date"]["earliest"] == 1127 and data["glyphs"] == {"◍": "□", "◛": "□"}
    assert data["notation"].startswith("○□○○○□□") and data["printed"].startswith("○◍○○○◍□")


def test_show_yishu_notes_quotes_note_and_lines(capsys):
    code, out, _ = run_cli(["show", "lu@yishu"], capsys)
    assert code == 0
    assert "○□○○□□○□¹○○□ 半 ○□○□²○○○□□○□○" in out
    assert "1. after stroke 8, line 674: 吳澄本作○" in out
    assert "2. after stroke 15, line 674: 吳澄本少一○一□" in out
    assert "lines:   Kanripo KR1d0068 674-675 (this pattern)" in out
    assert "note:    欽定禮記義疏 卷七十二" in out
    assert "徐伯魯, touhu (benyi-skqs): 「前圖鼙聲七鼔聲五此魯鼓之半也」" in out
    code, out, _ = run_cli(["show", "lu/2@yishu", "--json"], capsys)
    data = json.loads(out)
    assert data["notes"] == [{"after": 21, "text": "大戴禮下尚有一□一○朱子從之", "line": 678}]
    assert data["lines"] == "677-678" and data["edition_note"].startswith("欽定禮記義疏")
    quotes = {q["quote"] for c in data["stated_counts"] for q in c["quotes"]}
    assert "後圖鼙聲九鼔聲四此魯鼔之半也" in quotes


def test_show_on_a_passage_says_to_extract_it(capsys):
    err = expect_error(["show", ZHUSHU], capsys)
    assert "looks like a passage of an edition" in err
    assert f"use 'drumscore extract {ZHUSHU}'" in err


def test_show_an_edition_shows_each_of_its_scores(capsys):
    code, out, _ = run_cli(["show", "yishu"], capsys)
    assert code == 0
    for key in ("lu/1@yishu", "xue/1@yishu", "lu/2@yishu", "xue/2@yishu"):
        assert f"[{key}]" in out
    assert "1. after stroke 21, line 678: 大戴禮下尚有一□一○朱子從之" in out
    code, out, _ = run_cli(["show", "yishu", "--json"], capsys)
    assert [s["key"] for s in json.loads(out)] == [s.key for s in find_edition("yishu").scores]
    assert "unknown score 'nosuch'" in expect_error(["show", "nosuch"], capsys)
