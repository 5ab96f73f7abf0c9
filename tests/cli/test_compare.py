import json

import numpy as np
import pytest
import soundfile as sf
from cli_run import expect_error, run_cli
from sourcefiles import source_text

from drumscore.cli import main
from drumscore.corpus import resolve
from drumscore.timing import Tempo


def alone(notation, rate):
    """One score rendered on its own, unnormalised, mixed to mono."""
    from drumscore.conductor.timeline import arrange
    from drumscore.render.mix import mix_range, plan

    p = plan(arrange(resolve(notation), None, Tempo.from_bpm(120)), rate=rate)
    return mix_range(p, 0, p.length).mean(axis=1)


def correlation(x, y):
    n = min(len(x), len(y))
    x, y = x[:n], y[:n]
    return float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y)))


def test_compare_text_shows_both_rows_and_half(capsys):
    code, out, _ = run_cli(["compare", "lu/1", "lu/2"], capsys)
    assert code == 0
    rows = [ln for ln in out.splitlines() if ln.startswith(("A  ○", "B  ○"))]
    assert len(rows) == 2 and all("半" in r for r in rows)
    assert "edit distance" in out


def test_compare_json(capsys):
    code, out, _ = run_cli(["compare", "lu/2", "lu/2@xunzuan", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    a = "".join(c["a"] or "" for c in data["alignment"])
    assert a == resolve("lu/2").pattern.notation.replace("半", "")
    assert data["sections"]["touhu"]["distance"] == 1


def test_compare_audio_plays_a_then_b(tmp_path, capsys):
    out = tmp_path / "ab.wav"
    code, _, _ = run_cli(["compare", "○□半○", "□○○", "--audio", str(out), "--bpm", "120"], capsys)
    assert code == 0
    audio, rate = sf.read(out)
    mono = audio.mean(axis=1)
    a, b = alone("○□半○", rate), alone("□○○", rate)
    # B comes two beats after A's three strokes (0.5 s apart), once A has rung out
    start = max(round((3 + 2) * 0.5 * rate), len(a))
    assert correlation(mono[:start], a) > 0.99
    assert correlation(mono[start:], b) > 0.99
    assert correlation(mono[start:], alone("○□○", rate)) < 0.9
    assert np.max(np.abs(mono[len(a) : start])) < 1e-3


def test_compare_audio_names_both_readings(tmp_path, capsys):
    out = tmp_path / "ab.flac"
    code, stdout, _ = run_cli(
        ["compare", "lu", "lu/2@xunzuan", "--audio", str(out), "--section", "touhu"], capsys
    )
    assert code == 0
    assert "A lu/1@zhushu, B lu/2@xunzuan, --section touhu --bpm 60" in stdout
    with sf.SoundFile(str(out)) as f:
        assert "lu/2@xunzuan" in f.comment and "禮記訓纂" in f.title


def test_compare_audio_stereo(tmp_path, capsys):
    out = tmp_path / "ab.wav"
    code, _, _ = run_cli(
        ["compare", "○□○", "□□", "--audio", str(out), "--stereo", "--bpm", "120"], capsys
    )
    assert code == 0
    audio, rate = sf.read(out)
    assert correlation(audio[:, 0], alone("○□○", rate)) > 0.99
    assert correlation(audio[:, 1], alone("□□", rate)) > 0.99


def test_compare_plot_png_and_svg(tmp_path, capsys):
    png, svg = tmp_path / "c.png", tmp_path / "c.svg"
    code, _, _ = run_cli(["compare", "lu/1", "lu/2", "--plot", str(png)], capsys)
    assert code == 0
    code, _, _ = run_cli(["compare", "lu/1", "lu/2", "--plot", str(svg)], capsys)
    assert code == 0
    assert png.read_bytes().startswith(b"\x89PNG")
    assert b"<svg" in svg.read_bytes()[:500]


def test_compare_says_when_only_half_moved(capsys):
    code, out, _ = run_cli(["compare", "○□半○", "○半□○"], capsys)
    assert code == 0
    assert "strokes identical; 半 moved: after stroke 2 in A, after stroke 1 in B" in out
    assert "differences: 0" not in out


def test_compare_json_carries_where_half_stands(capsys):
    code, out, _ = run_cli(["compare", "○□半○", "○半□○", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert (data["identical"], data["strokes_identical"], data["distance"]) == (False, True, 0)
    half = data["half"]
    assert (half["a"], half["b"], half["moved"]) == (2, 1, True)
    assert half["description"] == "半 moved: after stroke 2 in A, after stroke 1 in B"


def test_compare_names_half_moved_beside_other_differences(capsys):
    code, out, _ = run_cli(["compare", "lu/1", "lu/2"], capsys)
    assert code == 0
    assert "半 moved: after stroke 11 in A, after stroke 8 in B" in out
    code, out, _ = run_cli(["compare", "○□半○", "○□○"], capsys)
    assert code == 0
    assert "strokes identical; 半 only in A, after stroke 2" in out
    code, out, _ = run_cli(["compare", "lu/2", "lu/2@xunzuan", "--json"], capsys)
    assert code == 0
    assert json.loads(out)["half"]["moved"] is False


def test_compare_audio_rate_and_section(tmp_path, capsys):
    out = tmp_path / "ab.flac"
    argv = ["compare", "○□半○", "□半○○", "--audio", str(out), "--rate", "22050"]
    code, text, _ = run_cli([*argv, "--section", "touhu", "--bpm", "120"], capsys)
    assert code == 0 and f"wrote {out}" in text
    audio, rate = sf.read(out)
    assert rate == 22050
    assert correlation(audio.mean(axis=1), alone("○", rate)) > 0.99


def test_compare_json_sections_in_order(capsys):
    code, out, _ = run_cli(["compare", "lu", "xue", "--json"], capsys)
    assert code == 0
    assert list(json.loads(out)["sections"]) == ["head", "touhu", "she"]


def test_collate_json_counts_in_section_order(capsys):
    code, out, _ = run_cli(["collate", "lu", "--json"], capsys)
    assert code == 0
    (data,) = json.loads(out)
    sections = [c["section"] for c in data["stated_counts"] if c["by"] == "徐伯魯"]
    assert sections == ["touhu", "she"]


def test_collate_json_findings(capsys):
    code, out, _ = run_cli(["collate", "xue", "--json"], capsys)
    assert code == 0
    (data,) = json.loads(out)
    half = next(c for c in data["stated_counts"] if c["section"] == "touhu")
    assert half["agrees"] is False and half["agreeing"] == []


def test_extract_json(capsys):
    code, out, _ = run_cli(["extract", "tests/sources/KR1d0053_058_禮記注疏.txt", "--json"], capsys)
    assert code == 0
    data = json.loads(out)
    assert len(data["scores"]) == 4
    assert data["provenance"]["kanripo"] == "KR1d0053"


def test_extract_writes_an_edition_that_loads(tmp_path, capsys):
    from drumscore.corpus import load_edition

    out = tmp_path / "test-ed.toml"
    code, _, _ = run_cli(
        ["extract", "tests/sources/KR1d0057_146_衛湜禮記集說.txt", "-o", str(out)], capsys
    )
    assert code == 0
    edition = load_edition(out)
    assert edition.id == "test-ed"
    assert edition.provenance.commit.startswith("a2f9d4a0")
    assert edition.score("魯", 2).pattern.counts().pi == 13


def test_extract_gb18030_file(tmp_path, capsys):
    text = source_text("KR1d0060_028_禮記大全.txt")
    path = tmp_path / "gb.txt"
    path.write_bytes(text.encode("gb18030"))
    code, out, _ = run_cli(["extract", str(path), "--json"], capsys)
    assert code == 0
    assert json.loads(out)["encoding"] == "gb18030"


# --- bad input ---


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["extract", "missing.txt"], "does not exist"),
        (["extract", "tests/sources/KR1d0052_041_禮記(TLS).txt"], "no drum notation found"),
        (["compare", "lu", "lu/9"], "unknown figure"),
        (["compare", "lu", "xue", "--plot", "x.gif"], "use one of: .png .svg"),
        (["compare", "lu", "xue", "--stereo"], "--stereo only applies with --audio"),
        (["collate", "○□○"], "collate takes a figure and drum such as 'lu' or 'xue/2'"),
        (["collate", "nope"], "not 'nope'"),
        (["collate", "lu@benyi"], "without @EDITION: give 'lu' instead of 'lu@benyi'"),
        (["collate", "xue/2@xunzuan"], "give 'xue/2' instead of 'xue/2@xunzuan'"),
        (["collate", "lu/3"], "unknown figure '3'"),
        (["collate", "drumscore/scores/benyi.toml"], "compares every edition"),
        (["extract", "tests/sources/KR1d0053_058_禮記注疏.txt", "--glyph", "xx"], "--glyph"),
    ],
)
def test_errors_are_one_line(capsys, argv, message):
    assert message in expect_error(argv, capsys)


def test_binary_file(tmp_path, capsys):
    path = tmp_path / "x.txt"
    path.write_bytes(b"\x00\x01\x02" * 100)
    with pytest.raises(SystemExit):
        main(["extract", str(path)])
    assert "binary" in capsys.readouterr().err


def test_unknown_glyph_in_file(tmp_path, capsys):
    path = tmp_path / "p.txt"
    path.write_text("甲乙\n○□◇○半○魯鼓\n", encoding="utf-8")
    with pytest.raises(SystemExit):
        main(["extract", str(path)])
    err = capsys.readouterr().err
    assert "line 2, column 3" in err and "◇=○" in err and "--glyph X=○" in err


# Every option is checked before anything is printed or written.
COMPARE_BAD = [
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--rate", "0"], "--rate 0 is out of range"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--rate", "-5"], "--rate -5 is out of range"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--rate", "10000000"], "use 8000 to 192000 Hz"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--interval", "0.01"], "--interval '0.01'"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--bpm", "0"], "--bpm '0'"),
    (["○□", "lu", "--audio", "{d}/c.wav", "--section", "touhu"], "A (○□) has no 半"),
    (["lu", "○□", "--audio", "{d}/c.wav", "--section", "head"], "B (○□) has no 半"),
    (["lu", "lu/2", "--audio", "{d}/d"], "--audio '{d}/d' has no extension to tell its format"),
    (["lu", "lu/2", "--audio", "{d}/d.mid"], ".wav .flac .ogg"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--plot", "{d}/p.gif"], "use one of: .png .svg"),
    (["lu", "lu/2", "--audio", "{d}/no/c.wav"], "does not exist"),
    (["lu", "lu/2", "--section", "touhu"], "--section 'touhu' only applies with --audio"),
    (["○□", "lu", "--section", "touhu"], "--section 'touhu' only applies with --audio"),
    (["lu", "lu/2", "--bpm", "90"], "--bpm '90' only applies with --audio"),
    (["lu", "lu/2", "--interval", "0.01"], "--interval '0.01' only applies with --audio"),
    (["lu", "lu/2", "--rate", "22050"], "--rate 22050 only applies with --audio"),
    (["lu", "lu/2", "--stereo", "--bpm", "90"], "--stereo and --bpm '90' only apply with --audio"),
    (["lu", "lu/2", "--repeat", "1"], "unrecognized arguments: --repeat 1"),
    (["lu", "lu/2", "--audio", "{d}/c.wav", "--section", "bogus"], "invalid choice: 'bogus'"),
]


@pytest.mark.parametrize(("argv", "message"), COMPARE_BAD, ids=[m for _, m in COMPARE_BAD])
def test_compare_checks_every_option_before_printing(tmp_path, capsys, argv, message):
    with pytest.raises(SystemExit) as info:
        main(["compare", *[a.format(d=tmp_path) for a in argv]])
    assert info.value.code == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.startswith("drumscore: error:") and message.format(d=tmp_path) in out.err
    assert len(out.err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
