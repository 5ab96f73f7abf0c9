"""drumscore render with kits, SoundFonts, expression and durations, through main()."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mido
import numpy as np
import pytest
import soundfile as sf
from cli_run import run_cli
from system_tools import SOUNDFONT

from drumscore.corpus import resolve

GM = SOUNDFONT


run = run_cli


def click_kit(folder: Path, rate: int = 44100) -> Path:
    sf.write(str(folder / "pi.flac"), np.array([[0.5]], np.float32), rate)
    sf.write(str(folder / "gu.flac"), np.array([[1.0]], np.float32), rate)
    (folder / "kit.toml").write_text("[pi]\nsamples=['pi.flac']\n[gu]\nsamples=['gu.flac']\n")
    return folder


def test_duration_renders_whole_patterns_with_a_user_kit(tmp_path, capsys):
    out = tmp_path / "loop.wav"
    kit = click_kit(tmp_path)
    code, stdout, stderr = run(
        ["render", "lu", "--kit", str(kit), "--bpm", "240", "--duration", "30s", "-o", str(out)],
        capsys,
    )
    assert code == 0 and stderr == ""
    assert "wrote" in stdout and "×" in stdout
    audio, rate = sf.read(str(out), always_2d=True)
    onsets = np.flatnonzero(audio[:, 0])
    assert rate == 44100 and len(onsets) % 23 == 0 and len(onsets) >= 23
    assert np.array_equal(np.diff(onsets), np.full(len(onsets) - 1, 11025))
    assert len(onsets) * 0.25 <= 30 < (len(onsets) + 23) * 0.25


def test_quiet_prints_nothing_and_no_bar_off_a_terminal(tmp_path, capsys):
    out = tmp_path / "q.flac"
    code, stdout, stderr = run(["render", "xue", "-q", "-o", str(out)], capsys)
    assert code == 0 and stdout == "" and stderr == ""
    assert sf.info(str(out)).frames > 0


def test_humanized_midi_and_wav_from_one_seed(tmp_path, capsys):
    mid, wav = tmp_path / "h.mid", tmp_path / "h.wav"
    kit = click_kit(tmp_path, 48000)
    common = ["render", "lu", "--bpm", "90", "--humanize", "10", "--seed", "42", "-q"]
    assert run([*common, "-o", str(mid)], capsys)[0] == 0
    assert run([*common, "--kit", str(kit), "--rate", "48000", "-o", str(wav)], capsys)[0] == 0
    audio, rate = sf.read(str(wav), always_2d=True)
    clicks = np.flatnonzero(audio[:, 0]) / rate
    midi = mido.MidiFile(str(mid))
    times, tick = [], 0
    for msg in midi.tracks[1]:
        tick += msg.time
        if msg.type == "note_on":
            times.append(tick / midi.ticks_per_beat * 60 / 90)
    assert len(times) == len(clicks) == 23
    assert np.max(np.abs(np.array(times) - clicks)) <= (60 / 90) / 480 / 2 + 1 / rate
    assert np.any(np.abs(np.diff(clicks) - 60 / 90) > 0.001)  # not even


@pytest.mark.requires("fluidsynth", "soundfont")
def test_soundfont_option(tmp_path, capsys):
    out = tmp_path / "gm.wav"
    code, stdout, _ = run(
        ["render", "○□○", "--soundfont", str(GM), "--bpm", "120", "-o", str(out)], capsys
    )
    assert code == 0 and "SoundFont" in stdout
    audio, rate = sf.read(str(out), always_2d=True)
    assert np.abs(audio[: int(0.1 * rate)]).max() > 0.02
    assert np.abs(audio[int(0.5 * rate) : int(0.6 * rate)]).max() > 0.02


def test_sound_options_do_not_load_heavy_modules_at_startup():
    code = (
        "import sys; from drumscore.cli import build_parser; build_parser(); "
        "print(sorted(m for m in ('tqdm', 'soxr', 'fluidsynth', 'music21') if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_json_reports_the_offsets_the_render_applied(tmp_path, capsys):
    out = tmp_path / "h.mid"
    argv = ["render", "xue", "--bpm", "75", "--humanize", "30", "--seed", "5", "-o", str(out)]
    code, stdout, _ = run([*argv, "--json"], capsys)
    assert code == 0
    data = json.loads(stdout)
    assert data["tempo_bpm"] == 75 and data["humanize_ms"] == 30 and data["seed"] == 5
    reported = [s["offset_ms"] for s in data["strokes"]]
    assert [s["index"] for s in data["strokes"]] == list(range(1, len(reported) + 1))
    # read back: each note-on's tick against its beat, in ms (a tick is 1.7 ms at 75 bpm)
    midi = mido.MidiFile(out)
    ticks, now = [], 0
    for msg in midi.tracks[1]:
        now += msg.time
        if msg.type == "note_on" and msg.velocity:
            ticks.append(now)
    beat = midi.ticks_per_beat
    heard = [(t - k * beat) / beat * 800 for k, t in enumerate(ticks)]
    assert np.allclose(heard, reported, atol=0.9) and np.ptp(reported) > 20
    symbols = [s.drum.symbol for s in resolve("xue").pattern.strokes]
    assert [s["sign"] for s in data["strokes"]] == symbols


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "needle"),
    [
        (["--duration", "0"], "--duration"),
        (["--duration", "-3m"], "--duration"),
        (["--duration", "1x"], "--duration"),
        (["--duration", "24h"], "limit"),
        (["--duration", "1m", "--repeat", "3"], "not both"),
        (["--duration", "1m", "--repeat", "1"], "not both"),
        (["--kit", "/no/such/kit"], "does not exist"),
        (["--soundfont", "/no/such.sf2"], "does not exist"),
        (["--velocity", "200,1"], "1-127"),
        (["--humanize", "lots"], "--humanize"),
        (["--seed", "4"], "--humanize"),
        (["--json", "--count-in", "2"], "--json reports the strokes of one score's render"),
        (["xue", "--json"], "--json reports the strokes of one score's render"),
    ],
)
def test_bad_options_are_one_line_errors_and_write_nothing(tmp_path, capsys, extra, needle):
    out = tmp_path / "x.wav"
    code, stdout, stderr = run(["render", "lu", *extra, "-o", str(out)], capsys)
    assert code == 2 and stdout == ""
    assert stderr.startswith("drumscore: error: ") and needle in stderr
    assert len(stderr.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []


def test_kit_with_midi_output_is_an_error(tmp_path, capsys):
    out = tmp_path / "x.mid"
    code, _, stderr = run(["render", "lu", "--kit", str(tmp_path), "-o", str(out)], capsys)
    assert code == 2 and "MIDI" in stderr and not out.exists()


def test_silent_kit_sample_is_named(tmp_path, capsys):
    sf.write(str(tmp_path / "pi.wav"), np.zeros(100, np.float32), 44100)
    sf.write(str(tmp_path / "gu.wav"), np.ones(100, np.float32) * 0.5, 44100)
    (tmp_path / "kit.toml").write_text("[pi]\nsamples=['pi.wav']\n[gu]\nsamples=['gu.wav']\n")
    out = tmp_path / "o.wav"
    code, _, stderr = run(["render", "lu", "--kit", str(tmp_path), "-o", str(out)], capsys)
    assert code == 2 and "pi.wav" in stderr and "silent" in stderr and not out.exists()


def test_no_normalize_keeps_the_kits_level_and_refuses_a_mix_that_would_clip(tmp_path, capsys):
    kit = click_kit(tmp_path)  # 鼙 a click at 0.5, 鼓 at 1.0: no overlap, no clipping
    out = tmp_path / "raw.wav"
    code, stdout, _ = run(
        ["render", "lu", "--kit", str(kit), "--no-normalize", "-o", str(out)], capsys
    )
    assert code == 0 and "not normalised" in stdout
    audio, _ = sf.read(str(out), always_2d=True)
    assert np.abs(audio).max() == pytest.approx(1.0, abs=1e-4)
    normal = tmp_path / "normal.wav"
    assert run(["render", "lu", "--kit", str(kit), "-o", str(normal)], capsys)[0] == 0
    audio, _ = sf.read(str(normal), always_2d=True)
    assert 20 * np.log10(np.abs(audio).max()) == pytest.approx(-1.0, abs=0.01)
    # a long 鼓 sample at full scale, struck faster than it dies away, sums above full scale
    sf.write(str(tmp_path / "gu.flac"), np.full((44100, 1), 0.9, np.float32), 44100)
    code, _, err = run(
        [
            "render",
            "lu",
            "--kit",
            str(kit),
            "--no-normalize",
            "--bpm",
            "240",
            "-o",
            str(tmp_path / "x.wav"),
        ],
        capsys,
    )
    assert code == 2 and "--no-normalize" in err and "clip" in err
    assert not (tmp_path / "x.wav").exists()


def test_no_normalize_is_refused_for_midi(tmp_path, capsys):
    code, _, err = run(["render", "lu", "--no-normalize", "-o", str(tmp_path / "x.mid")], capsys)
    assert code == 2 and "--no-normalize" in err


@pytest.mark.parametrize(
    ("lang", "named"),
    [
        ("en", "[lu/1@zhushu, reading: 毛奇齡 (mao)]"),
        ("zh-Hant", "（lu/1@zhushu，毛奇齡說）"),
        ("zh-Hans", "（lu/1@zhushu，毛奇龄说）"),
    ],
)
def test_the_summary_names_another_reading_in_the_readers_language(tmp_path, capsys, lang, named):
    out = tmp_path / "x.mid"
    code, stdout, err = run(
        ["--lang", lang, "render", "lu", "--reading", "mao", "-o", str(out)], capsys
    )
    assert code == 0, err
    assert named in stdout
    code, stdout, err = run(["--lang", lang, "render", "lu", "-o", str(out), "--force"], capsys)
    assert code == 0 and "mao" not in stdout and "毛" not in stdout


@pytest.mark.parametrize("reading", ["zheng", "mao"])
def test_json_names_the_reading_and_each_strokes_sign_and_drum(tmp_path, capsys, reading):
    out = tmp_path / "x.mid"
    argv = ["render", "lu", "--reading", reading, "--strokes", "5-12", "-o", str(out), "--json"]
    code, stdout, err = run(argv, capsys)
    assert code == 0, err
    data = json.loads(stdout)
    assert data["reading"] == reading
    printed = [s.drum.symbol for s in resolve("lu").pattern.strokes][4:12]
    strikes = {"zheng": {"○": "鼙", "□": "鼓"}, "mao": {"○": "鼓", "□": "鼙"}}[reading]
    assert [s["sign"] for s in data["strokes"]] == printed
    assert [s["drum"] for s in data["strokes"]] == [strikes[sign] for sign in printed]
    assert [(s["stroke"], s["number"]) for s in data["strokes"]] == [
        (k, k + 4) for k in range(1, 9)
    ]
