"""drumscore render to .musicxml, .mxl, .pdf and .png: files written, messages, failures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from drumscore.cli import main
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.files.format_choice import choose

music21 = pytest.importorskip("music21")


def drums_in(path) -> str:
    parsed = music21.converter.parse(path)
    return "".join("○" if n.notehead == "so" else "□" for n in parsed.flatten().notes)


MUSESCORE = ("--engraver", "musescore")


def render(*argv: str) -> int:
    return main(["render", *argv])


def test_formats_know_the_notation_extensions():
    kinds = {name: choose("score", name, "output")[0] for name in ("a.musicxml", "b.MXL", "c.xml")}
    assert set(kinds.values()) == {"notation"}
    assert choose("score", "a.pdf", "output")[0] == choose("score", "a.PNG", "output")[0]
    assert choose("score", "a.pdf", "output")[0] == "engraved"


@pytest.mark.parametrize("name", ["lu.musicxml", "lu.mxl"])
def test_render_writes_notation_music21_reads(tmp_path, capsys, name):
    out = tmp_path / name
    assert render("lu", "-o", str(out), "--bpm", "72", "--lyrics", "glyph") == 0
    pattern = resolve("lu").pattern
    assert drums_in(out) == "".join(s.drum.symbol for s in pattern.strokes)
    said = capsys.readouterr().out
    assert str(out) in said and "72/min" in said and "2 bars" in said


def test_render_section_and_midi_notes_reach_the_file(tmp_path):
    out = tmp_path / "x.musicxml"
    assert render("xue/2", "--section", "touhu", "--midi-notes", "60,61", "-o", str(out)) == 0
    root = ET.parse(out).getroot()
    assert sorted(int(m.text) for m in root.iter("midi-unpitched")) == [61, 62]
    touhu = resolve("xue/2").pattern.section("touhu")
    assert drums_in(out) == "".join(s.drum.symbol for s in touhu)


@pytest.mark.requires("musescore")
def test_render_pdf_and_png(tmp_path, capsys):
    pdf, png = tmp_path / "lu.pdf", tmp_path / "lu.png"
    assert render("lu", "-o", str(pdf), "--lyrics", "drum", "--engraver", "musescore") == 0
    assert render("lu", "-o", str(png), "--dpi", "100", "--engraver", "musescore") == 0
    assert pdf.read_bytes().startswith(b"%PDF-")
    assert png.read_bytes().startswith(b"\x89PNG")
    said = capsys.readouterr().out
    assert said.count("engraved by MuseScore") == 2
    # MuseScore draws the so head as its half-note oval, not a circle, and the line says so
    assert "oval" in said and "round" not in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lu.pdf", "lu.png"]


def test_velocity_reaches_the_note_dynamics(tmp_path, capsys):
    out = tmp_path / "x.musicxml"
    assert render("lu", "--velocity", "45,90", "-o", str(out)) == 0
    dynamics = {n.findtext("notehead"): n.get("dynamics") for n in ET.parse(out).iter("note")}
    assert dynamics == {None: None, "so": "50.00", "la": "100.00"}  # None: the silent beats
    assert "humanized" not in capsys.readouterr().out


@pytest.mark.slow  # pages enough for a series: engraving them takes long
@pytest.mark.requires("musescore")
def test_a_png_series_replaces_the_pages_of_a_longer_render(tmp_path, capsys):
    out = tmp_path / "big.png"
    mine = ["big-02.png", "big-x.png", "big.pdf", "bigger-2.png"]
    for name in mine:
        (tmp_path / name).write_bytes(b"mine")
    assert render("xue", "--repeat", "40", "--dpi", "36", "-o", str(out), *MUSESCORE) == 0
    pages = sorted(p.name for p in tmp_path.glob("big-[0-9].png") if p.name != "big-02.png")
    assert len(pages) >= 2 and pages[0] == "big-2.png"
    assert "pages: " in capsys.readouterr().out
    assert render("lu", "--dpi", "36", "-o", str(out), "--force", *MUSESCORE) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*mine, "big.png"])
    assert out.read_bytes().startswith(b"\x89PNG")
    assert all((tmp_path / name).read_bytes() == b"mine" for name in mine)


# --- bad input ----------------------------------------------------------------------------------


def one_error_line(capsys) -> str:
    err = capsys.readouterr().err
    assert err.startswith("drumscore: error: ") and "Traceback" not in err
    return err


def test_unknown_lyrics_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        render("lu", "-o", str(tmp_path / "x.musicxml"), "--lyrics", "hanzi")
    assert exc.value.code == 2
    assert "'hanzi'" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_bad_dpi_is_refused(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        render("lu", "-o", str(tmp_path / "x.png"), "--dpi", "5")
    assert exc.value.code == 2
    assert "--dpi 5" in one_error_line(capsys)


def test_missing_musescore_writes_nothing_and_says_how_to_install(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DRUMSCORE_MUSESCORE", str(tmp_path / "no-mscore"))
    out = tmp_path / "lu.pdf"
    out.write_bytes(b"an older file")
    with pytest.raises(SystemExit) as exc:
        render("lu", "-o", str(out), "--force", *MUSESCORE)
    assert exc.value.code == 1  # not bad input: a missing program
    assert "DRUMSCORE_MUSESCORE" in one_error_line(capsys)
    assert out.read_bytes() == b"an older file"


def test_musescore_absent_from_path(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("DRUMSCORE_MUSESCORE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SystemExit):
        render("lu", "-o", str(tmp_path / "lu.png"), *MUSESCORE)
    assert "apt-get install musescore3" in one_error_line(capsys)


def test_a_failed_engraving_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("DRUMSCORE_MUSESCORE", "false")
    out = tmp_path / "lu.pdf"
    with pytest.raises(SystemExit):
        render("lu", "-o", str(out), *MUSESCORE)
    assert "failed" in one_error_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_unknown_extension_lists_the_notation_formats():
    with pytest.raises(OptionError, match=r"\.musicxml.*\.mxl|\.mxl.*\.musicxml"):
        choose("score", "x.ly", "output")


def refused(tmp_path, capsys, *argv: str) -> str:
    """Render argv (the output under tmp_path), expect a one-line error and no file; the line."""
    with pytest.raises(SystemExit) as exc:
        render(*argv)
    assert exc.value.code == 2
    err = one_error_line(capsys)
    assert len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []
    return err


def test_a_long_duration_names_what_was_given(tmp_path, capsys):
    err = refused(tmp_path, capsys, "lu", "--duration", "12h", "-o", str(tmp_path / "x.musicxml"))
    assert "--duration '12h' gives 1878 repeats" in err
    assert "capped at 200" in err and "--repeat" in err and ".mid" in err


@pytest.mark.parametrize("name", ["x.musicxml", "x.xml", "x.mxl", "x.pdf", "x.png"])
def test_humanize_is_refused_for_notation(tmp_path, capsys, name):
    err = refused(tmp_path, capsys, "lu", "--humanize", "8", "-o", str(tmp_path / name))
    assert "notation is written on the even beat" in err
    assert "--humanize applies to audio and MIDI" in err


@pytest.mark.parametrize(
    ("option", "value"), [("--rate", "48000"), ("--subtype", "PCM_24"), ("--kit", ".")]
)
@pytest.mark.parametrize("name", ["x.mid", "x.musicxml", "x.png"])
def test_audio_options_are_refused_for_midi_and_notation(tmp_path, capsys, option, value, name):
    err = refused(tmp_path, capsys, "lu", option, value, "-o", str(tmp_path / name))
    assert option in err and value in err and ".wav" in err


@pytest.mark.parametrize("name", ["x.wav", "x.mid", "x.musicxml", "x.png"])
def test_a_malformed_midi_notes_is_refused_for_every_output(tmp_path, capsys, name):
    err = refused(tmp_path, capsys, "lu", "--midi-notes", "45,abc", "-o", str(tmp_path / name))
    assert "'45,abc'" in err


def test_midi_notes_with_the_kit_is_refused(tmp_path, capsys):
    err = refused(tmp_path, capsys, "lu", "--midi-notes", "38,36", "-o", str(tmp_path / "x.wav"))
    assert "'38,36'" in err and "--soundfont" in err


def test_an_empty_section_writes_nothing(tmp_path, capsys):
    refused(tmp_path, capsys, "半○□", "--section", "head", "-o", str(tmp_path / "x.musicxml"))


def test_svg_without_musescore_on_the_path(tmp_path, capsys, monkeypatch):
    pytest.importorskip("verovio")
    import shutil

    from svg_heads import heads_in_order

    monkeypatch.delenv("DRUMSCORE_MUSESCORE", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert shutil.which("mscore3") is None
    out = tmp_path / "lu.svg"
    assert render("lu", "-o", str(out)) == 0
    assert "SVG engraved by Verovio" in capsys.readouterr().out
    data = out.read_bytes()
    assert heads_in_order(data) == "".join(s.drum.symbol for s in resolve("lu").pattern.strokes)
    text = data.decode("utf-8")
    assert "lu/1@zhushu" in text and "KR1d0053" in text and "禮記注疏" in text
    assert render("lu", "-o", str(tmp_path / "again.svg")) == 0
    assert (tmp_path / "again.svg").read_bytes() == data


def test_engraver_is_only_for_engraved_files(tmp_path, capsys):
    err = refused(tmp_path, capsys, "lu", "-o", str(tmp_path / "x.mid"), "--engraver", "verovio")
    assert "--engraver 'verovio'" in err


# --- in the reader's language -------------------------------------------------------------------


def test_the_musicxml_summary_in_simplified_chinese(tmp_path, cli, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, out, _ = cli("render", "lu", "-o", tmp_path / "x.musicxml")
    assert code == 0
    assert "23 击，每分钟 60 击" in out  # what the score holds
    assert "MusicXML，2 小节，○ 圆形与 □ 方形符头" in out  # and what the file is
    assert drums_in(tmp_path / "x.musicxml") == resolve("lu").pattern.notation.replace("半", "")


def test_bad_dpi_in_traditional_chinese_names_the_range(tmp_path, cli, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, err = cli("render", "lu", "--dpi", "10", "-o", tmp_path / "x.png")
    assert code == 2 and out == ""
    assert "--dpi 10 超出範圍（36～1200）" in err
    assert list(tmp_path.iterdir()) == []
