"""drumscore collate: the apparatus as text, JSON and CSV, its options and its errors."""

from __future__ import annotations

import csv
import io
import json

import pytest
from cli_run import expect_error, run_cli
from sourcefiles import SOURCES

from drumscore.corpus import editions


def place_lines(out: str) -> list[str]:
    """The lines of the places where the editions part (not the readings notes report)."""
    lines = []
    for line in out.splitlines():
        if line.strip() in ("in the editions' notes:", "sigla:"):
            break
        if " ] " in line:
            lines.append(line)
    return lines


def test_a_reading_reported_in_a_note_comes_after_the_places(capsys):
    code, out, _ = run_cli(["collate", "lu/2"], capsys)
    assert code == 0
    notes = out[out.index("in the editions' notes:") : out.index("sigla:")]
    (line,) = [ln for ln in notes.splitlines() if " ] " in ln]
    # 欽定禮記義疏 prints, after the last stroke, that the 大戴禮 has one □ and one ○ more
    assert line.startswith("  after 21 (touhu)")
    assert "□○ 大戴禮 (in yishu: 「大戴禮下尚有一□一○朱子從之」; adds □○)" in line


def after_half(edition, figure=2, state="魯"):
    return edition.score(state, figure).pattern.notation.split("半")[1]


def test_lu_2_lists_the_place_after_half_with_the_sigla_on_each_side(capsys):
    code, out, _ = run_cli(["collate", "lu/2"], capsys)
    assert code == 0
    (line,) = [ln for ln in place_lines(out) if ln.split()[0] == "11"]
    lemma, variants = line.split(" ] ")
    assert lemma.split()[:3] == ["11", "(touhu)", "○"]
    # one ○ where the base has ○○ after 半: five editions, and 儀禮經傳通解 in a reading of its own
    single = {e.id for e in editions() if after_half(e).startswith("○□○□")}
    assert set(lemma.split()[3:]) == {e.id for e in editions()} - single
    omits = variants.split(";")[0]
    assert omits.startswith("— ")
    lacking = {e.id for e in editions() if e.score("魯", 2).pattern.counts().pi == 13}
    assert lacking <= set(omits.split("(")[0].split()[1:]) <= single


def test_the_key_and_the_stated_counts_with_their_quotes(capsys):
    code, out, _ = run_cli(["collate", "lu/2"], capsys)
    assert code == 0
    key = out[out.index("sigla:") : out.index("stated counts:")]
    for edition in editions():
        assert f"  {edition.id} " in key and edition.name in key
    counts = out[out.index("stated counts:") :]
    quotes = [c.quote for e in editions() for c in e.counts if (c.figure, c.state) == (2, "魯")]
    assert quotes and all(f"「{q}」" in counts for q in quotes)
    assert "李光坡" in counts and "徐伯魯" in counts
    assert "鼙 13 where 徐伯魯 counts 14" in counts


def test_xue_2_lists_where_liji_benyi_parts(capsys):
    code, out, _ = run_cli(["collate", "xue/2"], capsys)
    assert code == 0
    lines = place_lines(out)
    assert lines
    for line in lines:
        variant = line.split(" ] ")[1]
        assert set(variant.split("(")[0].split()[1:]) == {"benyi", "benyi-skqs"}


def test_all_four_scores_and_one_key(capsys):
    code, out, _ = run_cli(["collate"], capsys)
    assert code == 0
    assert out.count("sigla:") == 1
    for key in ("lu/1", "xue/1", "lu/2", "xue/2"):
        assert f"\n{key} · " in f"\n{out}"


def test_base_option_changes_the_lemma(capsys):
    code, out, _ = run_cli(["collate", "xue/2", "--base", "benyi"], capsys)
    assert code == 0
    (line,) = place_lines(out)
    lemma, variant = line.split(" ] ")
    assert lemma.split()[2] == "○" and "benyi" in lemma.split()
    assert variant.startswith("— ") and "zhushu" in variant.split()


def test_json_has_the_alignment_table_and_the_places(capsys):
    code, out, _ = run_cli(["collate", "lu/2", "--format", "json"], capsys)
    assert code == 0
    (data,) = json.loads(out)
    table = data["alignment"]
    assert set(table) == {e.id for e in editions()}
    for edition in editions():
        assert "".join(table[edition.id]) == edition.score("魯", 2).pattern.notation
        assert len(table[edition.id]) == len(data["columns"])
    (place,) = [p for p in data["places"] if p["editions_part"] and p["position"] == 11]
    assert place["section"] == "touhu"
    lacking = {"xunzuan", "weishi", "yueshu", "rijiang", "zuantu"}
    assert lacking <= set(place["variants"][0]["sigla"]) <= lacking | {"tongjie"}


def test_csv_rows_read_back_to_each_edition(tmp_path, capsys):
    out = tmp_path / "app.csv"
    code, _, _ = run_cli(["collate", "-o", str(out)], capsys)
    assert code == 0
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    for edition in editions():
        for score in edition.scores:
            key = score.key.split("@")[0]
            (row,) = [r for r in rows if r[:2] == [key, edition.id]]
            assert "".join(row[3:]) == score.pattern.notation
    header = rows.index(
        ["score", "place", "position", "section", "lemma", "reading", "sigla", "description"]
    )
    places = rows[header + 1 :]
    reported = {(r[0], r[1]) for r in places if "reported in " in r[-1]}
    # every figure and drum has a place where the printed editions part
    assert {r[0] for r in places if (r[0], r[1]) not in reported} == {
        "lu/1",
        "xue/1",
        "lu/2",
        "xue/2",
    }


def test_output_file_is_written_whole(tmp_path, capsys):
    out = tmp_path / "app.txt"
    code, printed, _ = run_cli(["collate", "lu/2", "-o", str(out)], capsys)
    assert code == 0 and printed == ""
    code, shown, _ = run_cli(["collate", "lu/2"], capsys)
    assert out.read_text(encoding="utf-8") == shown and place_lines(shown)
    assert [p.name for p in tmp_path.iterdir()] == ["app.txt"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["collate", "--json", "--format", "csv"], "two formats"),
        (["collate", "-o", "x.doc"], "cannot tell the format of 'x.doc'"),
        (["collate", "--format", "mei"], "MEI is one file per score"),
        (["collate", "lu", "--plot", "x.pdf"], "PNG or SVG"),
        (["collate", "lu", "--base", "nowhere"], "unknown edition 'nowhere'"),
        (["collate", "lu", "-o", "/nonexistent/x.txt"], "does not exist"),
    ],
)
def test_bad_options_are_one_line(argv, message, capsys):
    assert message in expect_error(argv, capsys)


def test_mei_is_one_file_per_score(tmp_path, capsys):
    out = tmp_path / "app.mei"
    code, printed, _ = run_cli(["collate", "-o", str(out)], capsys)
    assert code == 0 and printed == ""
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["app-lu-1.mei", "app-lu-2.mei", "app-xue-1.mei", "app-xue-2.mei"]
    code, printed, _ = run_cli(["collate", "xue/2", "--format", "mei"], capsys)
    assert code == 0 and printed.startswith("<?xml") and "<app>" in printed


def yellow_pixels(path) -> int:
    import matplotlib.image as mpimg

    image = mpimg.imread(path)[..., :3]
    r, g, b = image[..., 0], image[..., 1], image[..., 2]
    return int(((r > 0.9) & (g > 0.78) & (g < 0.9) & (b < 0.55)).sum())


def test_plot_highlights_the_places_and_nothing_when_the_editions_agree(
    tmp_path, capsys, monkeypatch
):
    pytest.importorskip("matplotlib")
    from drumscore import corpus

    # without 玉海, the only edition that parts from the others in the first 薛, they agree
    agreeing = tuple(e for e in corpus.builtin_editions() if e.id != "yuhai")
    monkeypatch.setattr(corpus, "builtin_editions", lambda: agreeing)
    agree, part, svg = tmp_path / "xue1.png", tmp_path / "lu2.png", tmp_path / "xue2.svg"
    assert run_cli(["collate", "xue", "--plot", str(agree)], capsys)[0] == 0
    assert run_cli(["collate", "lu/2", "--plot", str(part)], capsys)[0] == 0
    assert part.read_bytes().startswith(b"\x89PNG")
    assert yellow_pixels(agree) == 0
    assert yellow_pixels(part) > 1000
    assert run_cli(["collate", "xue/2", "--plot", str(svg)], capsys)[0] == 0
    assert "<svg" in svg.read_text(encoding="utf-8")


def test_edition_option_adds_an_edition_for_one_run(tmp_path, capsys):
    source = (SOURCES / "KR1d0071_026_禮記述註.txt").read_text(encoding="utf-8")
    passage = tmp_path / "p.txt"
    passage.write_text(source.replace("○□○○□□○○半", "○□□○□□○○半", 1), encoding="utf-8")
    edition = tmp_path / "trial.toml"
    code, _, err = run_cli(["extract", str(passage), "-o", str(edition)], capsys)
    assert code == 0, err
    code, out, _ = run_cli(["collate", "lu/2", "--edition", str(edition)], capsys)
    assert code == 0
    assert "trial" in out and f"(given for this run, {edition})" in out
    assert any("trial" in line for line in place_lines(out))
    code, out, _ = run_cli(["collate", "lu/2"], capsys)
    assert "trial" not in out
    clash = tmp_path / "clash.toml"
    clash.write_text(edition.read_text("utf-8").replace('id = "trial"', 'id = "shuzhu"'), "utf-8")
    err = expect_error(["collate", "lu/2", "--edition", str(clash)], capsys)
    assert "the edition id 'shuzhu'" in err and str(clash) in err and "shuzhu.toml" in err
