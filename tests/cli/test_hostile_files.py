"""Hostile files and limits: deep or mistyped TOML in edition and kit files, codecs that are not
text encodings, renders past the length limit, kit samples past theirs, missing and nameless
kits."""

from __future__ import annotations

import numpy as np
import pytest
import soundfile as sf
from cli_run import run_cli
from hostile_checks import refused

from drumscore.render.kit import MAX_SAMPLE_SECONDS

HEAD = 'id = "mine"\nname = "Mine"\n'
SCORE = '[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□半○"\n'
EDITION = HEAD + SCORE

BAD_EDITIONS = [
    ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("x = " + "[" * 20 + "]" * 20 + "\n" + EDITION, "nested more than 8 levels"),
    (HEAD + "aliases = 5\n" + SCORE, "aliases must be an array of text, not 5"),
    (HEAD + "aliases = [5]\n" + SCORE, "aliases[1] must be text, not 5"),
    (EDITION.replace("figure = 1", 'figure = "1"'), "score[1].figure must be a whole number"),
    (EDITION.replace("figure = 1", "figure = true"), "score[1].figure must be a whole number"),
    (EDITION + "[source]\ncitation = [1]\n", "source.citation must be text"),
    (HEAD + 'note = "' + "x" * 100_001 + '"\n' + SCORE, "note is 100,001 characters long"),
]


CASES = [(text, said, "show") for text, said in BAD_EDITIONS] + [
    (text, said, how)
    for text, said in BAD_EDITIONS[:3:2]
    for how in ("at", "list", "extract-force")
]


@pytest.mark.parametrize(("text", "said", "how"), CASES, ids=[f"{h}: {s}" for _, s, h in CASES])
def test_hostile_edition_files_name_file_key_and_what_was_expected(
    text, said, how, tmp_path, capsys
):
    path = tmp_path / "e.toml"
    path.write_text(text, encoding="utf-8")
    passage = tmp_path / "p.txt"
    passage.write_text("魯鼓○□○半○□", encoding="utf-8")
    argv = {
        "show": ["show", str(path)],
        "at": ["show", f"lu@{path}"],
        "list": ["list", "--edition", str(path)],
        "extract-force": ["extract", str(passage), "-o", str(path), "--force", "--id", "mine"],
    }[how]
    line = refused(argv, capsys, tmp_path)
    assert said in line and str(path) in line, line
    assert path.read_text(encoding="utf-8") == text


def _kit(folder, text):
    sf.write(str(folder / "s.wav"), np.full((800, 1), 0.5, np.float32), 8000)
    (folder / "kit.toml").write_text(text, encoding="utf-8")
    return folder


BAD_KITS = [
    ("pi = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("name = 5\n[pi]\nsamples='s.wav'\n[gu]\nsamples='s.wav'\n", "name must be text, not 5"),
    ("[pi]\nsamples=[[['s.wav']]]\n[gu]\nsamples='s.wav'\n", "pi.samples[1] must be text, not"),
    ("[pi]\nsamples='s.wav'\ngain_db='3'\n[gu]\nsamples='s.wav'\n", "pi.gain_db must be a number"),
    ("[pi]\nlayers=5\n[gu]\nsamples='s.wav'\n", "pi.layers must be written as [[pi.layers]]"),
]


@pytest.mark.parametrize(("text", "said"), BAD_KITS, ids=[s for _, s in BAD_KITS])
def test_hostile_kit_files_name_file_key_and_what_was_expected(text, said, tmp_path, capsys):
    kit = _kit(tmp_path, text)
    line = refused(["render", "lu", "--kit", str(kit), "-o", f"{tmp_path}/a.wav"], capsys, tmp_path)
    assert said in line and "kit.toml" in line, line


def test_a_kit_sample_past_the_length_limit_is_refused_before_it_is_read(tmp_path, capsys):
    frames = 8000 * (MAX_SAMPLE_SECONDS + 1)
    sf.write(str(tmp_path / "long.wav"), np.full((frames, 1), 0.25, np.float32), 8000)
    (tmp_path / "kit.toml").write_text("[pi]\nsamples='long.wav'\n[gu]\nsamples='long.wav'\n")
    line = refused(
        ["render", "lu", "--kit", str(tmp_path), "-o", f"{tmp_path}/a.wav"], capsys, tmp_path
    )
    assert f"lasts {MAX_SAMPLE_SECONDS + 1:.1f} s, over the limit of {MAX_SAMPLE_SECONDS} s" in line


def test_a_missing_sample_is_named_as_the_kit_writes_it_and_as_resolved(tmp_path, capsys):
    (tmp_path / "kit.toml").write_text("[pi]\nsamples='../gone/pi.wav'\n[gu]\nsamples='x.wav'\n")
    line = refused(
        ["render", "lu", "--kit", str(tmp_path), "-o", f"{tmp_path}/a.wav"], capsys, tmp_path
    )
    assert "'../gone/pi.wav'" in line and f"{tmp_path}/../gone/pi.wav" in line
    assert "does not exist" in line and "System error" not in line


def test_a_kit_without_a_name_is_named_after_its_folder(tmp_path, capsys):
    folder = tmp_path / "temple drums"
    folder.mkdir()
    _kit(folder, "[pi]\nsamples='s.wav'\n[gu]\nsamples='s.wav'\n")
    code, out, err = run_cli(
        ["render", "lu", "--kit", str(folder), "-o", f"{tmp_path}/a.wav"], capsys
    )
    assert code == 0, err
    assert "kit 'temple drums'" in out and "kit ''" not in out


@pytest.mark.parametrize("codec", ["punycode", "idna", "undefined", "unicode_escape", "rot13"])
def test_only_text_encodings_are_accepted(codec, tmp_path, capsys):
    passage = tmp_path / "p.txt"
    passage.write_text("魯鼓○□○半○□", encoding="utf-8")
    line = refused(["extract", str(passage), "--encoding", codec], capsys, tmp_path)
    assert f"unknown text encoding {codec!r}" in line


@pytest.mark.parametrize(
    "options",
    [
        ["--repeat", "10000"],
        ["--bpm", "6", "--repeat", "200"],
        ["--interval", "10", "--duration", "12h", "--repeat", "1"],
    ],
)
def test_one_limit_on_the_length_of_any_render(options, tmp_path, capsys):
    if "--duration" in options:  # --duration with a pattern whose one pass is past the limit
        options = ["--interval", "10", "--duration", "1h"]
        score = "○" * 5000
    else:
        score = "lu"
    line = refused(["render", score, *options, "-o", f"{tmp_path}/a.mid"], capsys, tmp_path)
    assert "over the limit of 12 hours for any render" in line


def test_hearing_a_comparison_is_capped_before_it_is_mixed(tmp_path, capsys):
    line = refused(
        ["compare", "○" * 3000, "lu", "--bpm", "6", "--audio", f"{tmp_path}/c.wav"],
        capsys,
        tmp_path,
    )
    assert "over the limit of 30 minutes" in line


def test_check_reads_a_gsm_take_as_it_did(tmp_path, capsys):
    """GSM 6.10 (a subtype libsndfile reads only forwards): every stroke of the take heard."""
    import json

    import soundfile as sf

    wav = tmp_path / "lu.wav"
    assert run_cli(["render", "lu", "--rate", "8000", "-o", str(wav), "-q"], capsys)[0] == 0
    data, rate = sf.read(wav, always_2d=True)
    take = tmp_path / "take-gsm.wav"
    sf.write(take, data.mean(axis=1), rate, format="WAV", subtype="GSM610")
    code, out, err = run_cli(["check", str(take), "lu", "--json"], capsys)
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["performance"]["strokes"] == report["score"]["strokes"] == 23
