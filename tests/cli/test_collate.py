"""drumscore collate: the apparatus as text, JSON and CSV, its options and its errors."""

from __future__ import annotations

import csv
import io
import json
import re

import pytest
from cli_run import expect_error, run_cli, run_quietly
from sourcefiles import SOURCES

from drumscore.corpus import editions

NS = {"t": "http://www.tei-c.org/ns/1.0"}
MEI_NS = {"m": "http://www.music-encoding.org/ns/mei"}


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
    assert set(table) == {e.id for e in editions()} | {"大戴禮"}
    (reported,) = [w for w in data["witnesses"] if w["reported_by"]]
    assert (reported["siglum"], reported["reported_by"]) == ("大戴禮", "yishu")
    assert "".join(table["大戴禮"]) == "".join(table["yishu"]) + "□○"
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
    assert code == 0 and printed.startswith(f"wrote {out}: ") and printed.count("\n") == 1
    code, shown, _ = run_cli(["collate", "lu/2"], capsys)
    assert out.read_text(encoding="utf-8") == shown and place_lines(shown)
    assert [p.name for p in tmp_path.iterdir()] == ["app.txt"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["collate", "--json", "--format", "csv"], "two formats"),
        (["collate", "-o", "x.doc"], "-o 'x.doc': it does not write .doc files; use one of: .txt"),
        (["collate", "--format", "mei"], "MEI is one file per score"),
        (["collate", "lu", "--plot", "x.pdf"], "use one of: .png .svg"),
        (["collate", "lu", "--base", "nowhere"], "unknown edition 'nowhere'"),
        (["collate", "lu", "-o", "/nonexistent/x.txt"], "does not exist"),
    ],
)
def test_bad_options_are_one_line(argv, message, capsys):
    assert message in expect_error(argv, capsys)


def test_mei_is_one_file_per_score(tmp_path, capsys):
    out = tmp_path / "app.mei"
    code, printed, _ = run_cli(["collate", "-o", str(out)], capsys)
    assert code == 0 and printed.startswith("wrote ") and printed.count("\n") == 1
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["app-lu-1.mei", "app-lu-2.mei", "app-xue-1.mei", "app-xue-2.mei"]
    code, printed, _ = run_cli(["collate", "xue/2", "--format", "mei"], capsys)
    assert code == 0 and printed.startswith("<?xml") and '<app n="1"' in printed


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
    agree, part = tmp_path / "xue1.png", tmp_path / "lu2.png"
    assert run_cli(["collate", "xue", "--plot", str(agree)], capsys)[0] == 0
    assert run_cli(["collate", "lu/2", "--plot", str(part)], capsys)[0] == 0
    assert part.read_bytes().startswith(b"\x89PNG")
    assert yellow_pixels(agree) == 0
    assert yellow_pixels(part) > 1000
    # (a plot as SVG: the fixture `drawn`, below)


def test_every_file_written_is_said_in_one_line_and_never_into_the_data(
    tmp_path, capsys, monkeypatch
):
    pytest.importorskip("matplotlib")
    from drumscore.cli.commands import collate as command

    picture, table = tmp_path / "lu2.png", tmp_path / "lu2.json"
    code, out, err = run_cli(["collate", "lu/2", "--plot", str(picture)], capsys)
    assert code == 0 and out.splitlines()[-1].startswith(f"wrote {picture}")
    drawn = picture.read_bytes()
    assert drawn.startswith(b"\x89PNG")
    # the picture drawn again is the same: what is said of the files is tested without
    # drawing it twice more
    monkeypatch.setattr(command, "plot_apparatus", lambda apparatuses, fmt: drawn)
    written = ["-o", str(table), "--plot", str(picture), "--force"]  # the picture: again
    code, out, err = run_cli(["collate", "lu/2", *written], capsys)
    assert code == 0 and [line.split(":")[0] for line in out.splitlines()] == [
        f"wrote {table}",
        f"wrote {picture}",
    ]
    code, out, err = run_cli(
        ["collate", "lu/2", "--json", "--plot", str(picture), "--force"], capsys
    )
    assert json.loads(out) and err.startswith(f"wrote {picture}")  # stdout stays JSON
    code, out, _ = run_cli(["collate", "--format", "mei", "-o", str(tmp_path / "a.mei")], capsys)
    (line,) = out.splitlines()
    assert line.startswith("wrote ") and line.count(".mei") == 4
    groups = tmp_path / "groups.txt"
    code, out, _ = run_cli(["collate", "lu/2", "--groups", "-o", str(groups)], capsys)
    assert code == 0 and groups.exists() and out.startswith(f"wrote {groups}: ")
    assert out.count("\n") == 1


def test_the_key_of_sigla_lines_up_with_cjk_sigla(capsys):
    from drumscore.display import width

    code, out, _ = run_cli(["collate"], capsys)
    assert code == 0
    key = out[out.index("sigla:") :].splitlines()[1:]
    sigla = {line.split()[0]: line for line in key if line.startswith("  ")}
    assert {"吳澄本", "大戴禮", "zhushu"} <= set(sigla)
    # the description starts in the same terminal column on every line
    starts = {width(line) - width(line[2 + len(s) :].lstrip(" ")) for s, line in sigla.items()}
    assert len(starts) == 1, starts


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


# --- every view states the same two numbers ----------------------------------------------------

#: The words every view uses for the apparatus's two numbers.
NUMBERS = re.compile(
    r"(\d+|no) places? where the printed editions part; (\d+|no) readings? reported by notes"
)
#: The four scores as the editions of the corpus give them: places where the printed editions
#: part (lu/2: three lack a ○, xue/2: 禮經本義 has one more), readings 欽定禮記義疏's notes report
#: (吳澄本作○ in lu/1, 大戴禮 in lu/2).
#: Places where the printed editions part, and readings reported by notes: 五禮通考, 玉海 and
#: 纂圖互註禮記 in lu/1 and 吳澄本 reported; 玉海 in xue/1; in lu/2 儀禮經傳通解's two gaps and
#: □○ (with the ○ that five editions lack), 大戴禮 reported; 禮經本義's ○ in xue/2.
EXPECTED = {"lu/1": (3, 1), "xue/1": (1, 0), "lu/2": (3, 1), "xue/2": (1, 0)}


def stated(text: str) -> tuple[int, int]:
    """The two numbers the text states (each time it states them, the same)."""
    (found,) = set(NUMBERS.findall(text))
    return tuple(0 if n == "no" else int(n) for n in found)  # "no reading", not "0 readings"


def site_views():
    """The site's index and score pages (as build writes them) and their data, per score."""
    from drumscore.site import build, data

    pool = tuple(editions())
    items = data.entries(pool)
    apparatuses = data.apparatuses(pool, items)
    by_score = {(a["figure"], a["state"]): a for a in apparatuses}
    shared = {
        "kit": data.kit_data(),
        "tempo": data.tempo_data(),
        "play": data.play_data(),
        "readings": data.readings_data(),
        "strings": data.strings(),
    }
    scores, pages = [], {}
    for entry in items:
        page_data = data.page_score(entry, pool, by_score[(entry.score.figure, entry.score.state)])
        page_data["files"] = {}
        scores.append(page_data)
        pages[entry.score.key] = (page_data, build.score_page(page_data, shared, None))
    return "".join(build.index_page(scores, apparatuses, pool)), pages


@pytest.fixture(scope="module")
def drawn(tmp_path_factory) -> tuple[str, str]:
    """The CSV and the SVG picture of the whole apparatus, written by one run of collate (a
    picture of the four scores takes seconds to draw): the text of each."""
    pytest.importorskip("matplotlib")
    folder = tmp_path_factory.mktemp("drawn")
    out, svg = folder / "app.csv", folder / "app.svg"
    code, err = run_quietly(["collate", "-o", str(out), "--plot", str(svg)])
    assert code == 0, err
    return out.read_text(encoding="utf-8"), svg.read_text(encoding="utf-8")


def test_every_view_states_the_same_places_and_reported_readings(tmp_path, capsys, drawn):
    import xml.etree.ElementTree as ET

    index, pages = site_views()
    _, picture = drawn
    assert picture.lstrip().startswith(("<?xml", "<svg")) and "<svg" in picture
    titles = [t for t in re.findall(r"<!-- (.*?) -->", picture) if NUMBERS.search(t)]
    sections = dict(
        re.findall(r'<section class="collation" id="([a-z]+-\d)"(.*?)</section>', index, re.S)
    )
    for key, (places, reported) in EXPECTED.items():
        views: dict[str, tuple[int, int]] = {}
        _, text, _ = run_cli(["collate", key], capsys)
        views["text"] = stated(text.splitlines()[0])
        notes = text.split("in the editions' notes:")[1] if "editions' notes:" in text else ""
        notes = notes.split("sigla:")[0]
        views["text, lines"] = (
            len(place_lines(text)),
            len([ln for ln in notes.splitlines() if " ] " in ln]),
        )
        _, out, _ = run_cli(["collate", key, "--json"], capsys)
        (data,) = json.loads(out)
        views["json"] = (data["summary"]["places"], data["summary"]["reported"])
        views["json, text"] = stated(data["summary"]["text"])
        views["json, places"] = (
            sum(p["editions_part"] for p in data["places"]),
            sum(len(v["reported"]) for p in data["places"] for v in p["variants"]),
        )
        _, out, _ = run_cli(["collate", key, "--format", "csv"], capsys)
        rows = list(csv.reader(io.StringIO(out)))
        (numbers,) = [r for r in rows if r[:1] == [key] and len(r) == 3]
        views["csv"] = (int(numbers[1]), int(numbers[2]))
        readings = [r for r in rows if r[:1] == [key] and len(r) == 8]
        printed = {e.id for e in editions()}
        views["csv, places"] = (
            len({r[1] for r in readings if r[-1] != "lemma" and printed & set(r[6].split())}),
            sum(r[-1].count(" reported in ") for r in readings),
        )
        _, out, _ = run_cli(["collate", key, "--format", "tei"], capsys)
        tei = ET.fromstring(out)
        views["tei"] = stated(tei.findtext(".//t:div/t:note[@type='summary']", namespaces=NS))
        mei_file = tmp_path / f"{key.replace('/', '-')}.mei"
        run_cli(["collate", key, "-o", str(mei_file)], capsys)
        mei = ET.fromstring(mei_file.read_bytes())
        views["mei"] = stated(
            mei.findtext(".//m:notesStmt/m:annot[@type='summary']", namespaces=MEI_NS)
        )
        views["mei, resp"] = (views["mei"][0], len(mei.findall(".//m:rdg[@resp]", MEI_NS)))
        (title,) = [t for t in titles if t.startswith(f"{key} ·")]
        views["plot title"] = stated(title)
        views["site index"] = stated(sections[key.replace("/", "-")])
        for score_key, (page_data, page) in pages.items():
            if score_key.split("@")[0] == key:
                views[f"site data {score_key}"] = (
                    page_data["apparatus"]["summary"]["places"],
                    page_data["apparatus"]["summary"]["reported"],
                )
                views[f"site page {score_key}"] = stated(page)
        assert set(views.values()) == {(places, reported)}, (key, views)


def test_the_csv_and_the_plot_have_a_row_for_every_reported_witness(drawn):
    from drumscore.apparatus.gather import collate

    table, picture = drawn
    rows = list(csv.reader(io.StringIO(table)))
    labels = re.findall(r"<!-- (.*?) -->", picture)
    found = 0
    for a in collate():
        for i, w in enumerate(a.reported, len(a.printed)):
            found += 1
            (row,) = [r for r in rows if r[:2] == [a.key, w.siglum]]
            assert f"reported in {w.reported_by}" in row[2] and w.quote in row[2]
            assert "".join(row[3:]) == a.text_of(i)
            # with a CJK font the note's own name; without one, the edition printing the note
            assert f"{w.siglum}  reported in {w.reported_by}" in labels or (
                f"reported in {w.reported_by}" in labels
            )
    assert found == 2  # 吳澄本 in lu/1, 大戴禮 in lu/2


def test_a_printed_edition_that_bears_out_a_reported_reading_is_said_to_agree_in_every_view(
    tmp_path, capsys
):
    """儀禮經傳通解 (朱熹's): its second 魯 ends with the □○ that 欽定禮記義疏 reports of the
    大戴禮, adding 「朱子從之」; every view says they agree."""
    import xml.etree.ElementTree as ET

    said = "大戴禮 (reported in yishu: 「大戴禮下尚有一□一○朱子從之」) = "
    given = ["lu/2"]
    _, text, _ = run_cli(["collate", *given], capsys)
    (line,) = [ln for ln in text.splitlines() if ln.strip().startswith(said)]
    assert "tongjie (儀禮經傳通解)" in line
    (after,) = [ln for ln in text.splitlines() if ln.strip().startswith("after 21 (touhu)  — z")]
    assert "□○ tongjie = 大戴禮 (adds □○; first in tongjie, 1130-1200)" in after
    _, out, _ = run_cli(["collate", *given, "--json"], capsys)
    (data,) = json.loads(out)
    assert any(t.startswith(said) and "tongjie" in t for t in data["agreements"])
    table = data["alignment"]
    ends = [
        k for k, cells in enumerate(zip(table["tongjie"], table["大戴禮"], strict=True)) if cells[0]
    ]
    assert [table["tongjie"][k] for k in ends[-2:]] == [table["大戴禮"][k] for k in ends[-2:]]
    _, out, _ = run_cli(["collate", *given, "--format", "tei"], capsys)
    notes = ET.fromstring(out).iterfind(".//t:app/t:note[@type='agreement']", NS)
    assert any(n.text.startswith(said) and "tongjie" in n.text for n in notes)
    mei = tmp_path / "lu2.mei"
    run_cli(["collate", *given, "-o", str(mei)], capsys)
    annots = ET.fromstring(mei.read_bytes()).iterfind(".//m:annot[@type='agreement']", MEI_NS)
    assert any(n.text.startswith(said) and "tongjie" in n.text for n in annots)


def test_groups_prints_who_shares_each_reading_and_the_agreement(capsys):
    code, out, _ = run_cli(["collate", "lu/2", "--groups"], capsys)
    assert code == 0
    (shared,) = [ln for ln in out.splitlines() if ln.strip().startswith("2. 11 (touhu)")]
    assert "—: rijiang tongjie weishi xunzuan yueshu zuantu" in shared
    (row,) = [ln for ln in out.splitlines() if ln.strip().startswith("weishi ")]
    header = out.split("read alike):")[1].splitlines()[1].split()
    by_id = {e.id: e.score("魯", 2).pattern.notation for e in editions()}
    expected = {by_id["weishi"]: "100", by_id["zhushu"]: "95"}  # one ○ of 21 strokes and 半
    for siglum, cell in zip(header, row.split()[1:], strict=True):
        if by_id[siglum] in expected:
            assert cell == expected[by_id[siglum]], siglum
    code, out, _ = run_cli(["collate", "lu/2", "--groups", "--json"], capsys)
    (data,) = json.loads(out)
    assert data["score"] == "lu/2" and len(data["agreement"]) == len(editions())
    five = ["rijiang", "weishi", "xunzuan", "yueshu", "zuantu"]  # lacking the ○ after 半
    assert five in map(sorted, data["alike"]) and ["tongjie"] in data["alike"]


def test_groups_refuses_a_format_it_does_not_print(capsys):
    err = expect_error(["collate", "lu/2", "--groups", "--format", "csv"], capsys)
    assert "--groups prints text or JSON" in err


def test_order_date_puts_every_view_s_rows_in_date_order(tmp_path, capsys):
    from drumscore.apparatus.gather import collate

    key = {e.id: e.date_key for e in editions()}
    base = "zhushu"

    def by_date(sigla):
        printed = [s for s in sigla if s in key]
        return printed[0] == base and [key[s] for s in printed[1:]] == sorted(
            key[s] for s in printed[1:]
        )

    code, out, _ = run_cli(["collate", "lu/2", "--order", "date", "--json"], capsys)
    assert code == 0
    (data,) = json.loads(out)
    assert by_date([w["siglum"] for w in data["witnesses"]])
    assert by_date(list(data["alignment"]))
    (plain,) = collate(scores=[(2, "魯")])
    # the cells are the same, row by row; only their order changed
    assert data["alignment"] == {
        w.siglum: list(plain.row(i)) for i, w in enumerate(plain.witnesses)
    }
    assert list(data["alignment"]) != [w.siglum for w in plain.witnesses]
    for p in data["places"]:
        for v in p["variants"]:
            if v["printed"]:
                first = min(v["printed"], key=key.__getitem__)
                assert v["first_in"] == {"siglum": first, "date": v["first_in"]["date"]}
                assert v["first_in"]["date"] in out

    code, out, _ = run_cli(["collate", "lu/2", "--order", "date"], capsys)
    key_lines = out.split("\nsigla:\n")[1].splitlines()
    assert by_date([line.split()[0] for line in key_lines if line.strip()])
    for line in place_lines(out):
        lemma, variants = line.split(" ] ")
        assert by_date(lemma.split())
        for first in re.findall(r"first in ([\w-]+), ", variants):
            assert first in variants.split(f"first in {first}")[0].split()

    csv_file, svg = tmp_path / "app.csv", tmp_path / "app.svg"
    code, _, _ = run_cli(
        ["collate", "--order", "date", "-o", str(csv_file), "--plot", str(svg)], capsys
    )
    assert code == 0
    rows = list(csv.reader(io.StringIO(csv_file.read_text(encoding="utf-8"))))
    for score in ("lu/1", "xue/1", "lu/2", "xue/2"):
        assert by_date([r[1] for r in rows if r and r[0] == score and r[1] in key])
    labels = [label.split()[0] for label in re.findall(r"<!-- (.*?) -->", svg.read_text())]
    plotted = [s for s in labels if s in key]
    assert len(plotted) == 4 * len(key)
    for n in range(4):
        assert by_date(plotted[n * len(key) : (n + 1) * len(key)])


def test_order_takes_the_choices_of_list(capsys):
    err = expect_error(["collate", "lu", "--order", "age"], capsys)
    assert "--order" in err and "corpus" in err and "date" in err
