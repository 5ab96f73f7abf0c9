"""Kits: kit files, round-robin and velocity layers, resampling and channel conversion."""

from __future__ import annotations

import math

import numpy as np
import pytest
import soundfile as sf

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.model import Drum
from drumscore.render.kit import KitError, Sample, builtin_kit, load_kit, read_sample
from drumscore.render.mix import plan, render_audio
from drumscore.timing import Tempo


def tone(freq: float, rate: int, seconds: float = 0.3, channels: int = 1) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    wave = (0.8 * np.sin(2 * np.pi * freq * t) * np.exp(-t / 0.08)).astype(np.float32)
    return np.repeat(wave[:, None], channels, axis=1)


def write_kit(folder, text: str, samples: dict[str, tuple[np.ndarray, int]]):
    for name, (data, rate) in samples.items():
        sf.write(str(folder / name), data, rate)
    (folder / "kit.toml").write_text(text, encoding="utf-8")
    return folder / "kit.toml"


def dominant(audio: np.ndarray, rate: int) -> float:
    mono = audio.mean(axis=1) * np.hanning(len(audio))
    spectrum = np.abs(np.fft.rfft(mono))
    return float(np.fft.rfftfreq(len(mono), 1 / rate)[np.argmax(spectrum)])


def test_builtin_kit_has_both_drums():
    kit = builtin_kit()
    for drum in Drum:
        data = kit.voice(drum).samples[0]
        assert data.ndim == 2 and data.shape[1] == 2
        assert np.max(np.abs(data)) > 0.01


def test_user_kit_of_48k_mono_flac_renders_each_drum_on_its_beat(tmp_path):
    path = write_kit(
        tmp_path,
        'name = "tones"\n[pi]\nsamples = ["pi.flac"]\n[gu]\nsamples = ["gu.flac"]\n',
        {"pi.flac": (tone(600, 48000), 48000), "gu.flac": (tone(150, 48000), 48000)},
    )
    kit = load_kit(path)
    assert kit.name == "tones" and kit.rate == 48000
    score = resolve("lu")
    timeline = arrange(score, tempo=Tempo.from_bpm(60))
    rate = 44100
    audio = render_audio(timeline, kit, rate)
    assert audio.shape[1] == 2
    for event in Track.single(timeline).hits(44100):
        onset = event.k * rate
        before = audio[max(0, onset - 2000) : onset]
        after = audio[onset : onset + 4000]
        assert event.k == 0 or np.max(np.abs(before)) < 1e-3, event
        assert np.max(np.abs(after[:50])) > 0.01, event
        expected = 600 if event.drum is Drum.PI else 150
        assert abs(dominant(after, rate) - expected) < 15, event


def test_folder_is_read_as_its_kit_toml(tmp_path):
    write_kit(
        tmp_path,
        '[pi]\nsamples = "a.wav"\n[gu]\nsamples = ["b.wav"]\n',
        {"a.wav": (tone(300, 22050), 22050), "b.wav": (tone(100, 22050), 22050)},
    )
    assert load_kit(tmp_path).rate == 22050


def test_resampling_keeps_the_pitch_and_does_not_alias():
    rate = 48000
    t = np.arange(rate) / rate
    ok = np.sin(2 * np.pi * 1000 * t)
    above = np.sin(2 * np.pi * 23000 * t)  # over 44.1 kHz's Nyquist: must be filtered, not folded
    data = np.stack([ok, above], axis=1).astype(np.float32)
    out = Sample(data, rate).at_rate(44100).data
    assert abs(len(out) - 44100) <= 1
    middle = out[4000:-4000]
    assert abs(dominant(middle[:, :1].repeat(2, axis=1), 44100) - 1000) < 5
    assert np.max(np.abs(middle[:, 0])) > 0.95
    assert np.max(np.abs(middle[:, 1])) < 0.01


def test_channels_are_converted(tmp_path):
    rate = 44100
    mono = tone(440, rate)
    sf.write(str(tmp_path / "m.wav"), mono, rate)
    left_only = np.concatenate([mono, np.zeros_like(mono)], axis=1)
    sf.write(str(tmp_path / "s.wav"), left_only, rate)
    six = np.repeat(mono, 6, axis=1)
    sf.write(str(tmp_path / "six.wav"), six, rate)
    m = read_sample(tmp_path / "m.wav").data
    assert (
        m.shape[1] == 2
        and np.allclose(m[:, 0], m[:, 1])
        and np.allclose(m[:, 0], mono[:, 0], atol=1e-4)
    )
    s = read_sample(tmp_path / "s.wav").data
    assert np.allclose(s[:, 0], mono[:, 0], atol=1e-4) and not np.any(s[:, 1])
    six_read = read_sample(tmp_path / "six.wav").data
    assert six_read.shape[1] == 2 and np.allclose(six_read[:, 0], mono[:, 0], atol=1e-4)


def test_round_robin_alternates_samples(tmp_path):
    rate = 44100
    path = write_kit(
        tmp_path,
        '[pi]\nsamples = ["a.wav", "b.wav"]\n[gu]\nsamples = ["c.wav"]\n',
        {
            "a.wav": (tone(500, rate), rate),
            "b.wav": (tone(900, rate), rate),
            "c.wav": (tone(200, rate), rate),
        },
    )
    timeline = arrange(resolve("○○○□○"), tempo=Tempo.from_bpm(60))
    audio = render_audio(timeline, load_kit(path), rate)
    heard = [round(dominant(audio[k * rate : k * rate + 8000], rate), -2) for k in range(5)]
    assert heard == [500, 900, 500, 200, 900]


def test_velocity_layers_pick_the_sample_for_the_velocity(tmp_path):
    rate = 44100
    text = (
        "[pi]\nsamples = ['soft.wav']\n[[pi.layers]]\nvelocity = 100\nsamples = ['hard.wav']\n"
        "[gu]\nsamples = ['gu.wav']\n"
    )
    path = write_kit(
        tmp_path,
        text,
        {
            "soft.wav": (tone(400, rate), rate),
            "hard.wav": (tone(1200, rate), rate),
            "gu.wav": (tone(150, rate), rate),
        },
    )
    voice = load_kit(path).voice(Drum.PI)
    assert voice.layer_for(99).velocity == 0 and voice.layer_for(100).velocity == 100
    from drumscore.conductor.expression import Expression

    for velocity, freq in ((72, 400), (120, 1200)):
        ex = Expression(pi_velocity=velocity)
        timeline = arrange(resolve("○□"), tempo=Tempo.from_bpm(60), expression=ex)
        audio = render_audio(timeline, load_kit(path), rate)
        assert abs(dominant(audio[:8000], rate) - freq) < 15


def test_gain_and_pan(tmp_path):
    rate = 44100
    text = "[pi]\nsamples = ['a.wav']\npan = -1\n[gu]\nsamples = ['a.wav']\ngain_db = -6\n"
    path = write_kit(tmp_path, text, {"a.wav": (tone(300, rate), rate)})
    kit = load_kit(path)
    p = plan(arrange(resolve("○□"), tempo=Tempo.from_bpm(60)), kit, rate)
    pi, gu = p.sounds[p.which[0]], p.sounds[p.which[1]]
    assert np.max(np.abs(pi[:, 1])) < 1e-6 and np.max(np.abs(pi[:, 0])) > 0.5
    ratio = np.max(np.abs(gu[:, 0])) / np.max(np.abs(pi[:, 0]))
    assert ratio == pytest.approx(10 ** (-6 / 20) / np.sqrt(2), rel=1e-3)


# --- bad kits -------------------------------------------------------------------------------


def good_samples(rate=44100):
    return {"a.wav": (tone(300, rate), rate)}


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("[pi]\nsamples = ['a.wav']\n", "[gu]"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsamples = []\n", "samples"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['a.wav']\npan = 2\n", "pan"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['a.wav']\ngain_db = 'loud'\n", "gain_db"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsample = ['a.wav']\n", "'sample'"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['nope.wav']\n", "nope.wav"),
        ("[pi]\nsamples = ['a.wav']\n[gu\n", "not valid TOML"),
        ("nmae = 'x'\n[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['a.wav']\n", "'nmae'"),
        ("[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['a.wav']\n[bass]\n", "'bass'"),
        ("pi = 3\n[gu]\nsamples = ['a.wav']\n", "must be a table"),
        ("[pi]\nsamples = ['a.wav']\nlayers = 5\n[gu]\nsamples = ['a.wav']\n", "layers"),
        (
            "[pi]\nsamples = ['a.wav']\n[gu]\nsamples = ['a.wav']\n"
            "[[gu.layers]]\nvelocity = 0\nsamples = ['a.wav']\n",
            "velocity",
        ),
        (
            "[pi]\nsamples = ['a.wav']\n[[pi.layers]]\nvelocity = 0\nsamples = ['a.wav']\n"
            "[gu]\nsamples = ['a.wav']\n[[gu.layers]]\nvelocity = 64\nsamples = ['a.wav']\n"
            "[[gu.layers]]\nvelocity = 64\nsamples = ['a.wav']\n",
            "velocity",
        ),
    ],
)
def test_bad_kit_file(tmp_path, text, needle):
    path = write_kit(tmp_path, text, good_samples())
    with pytest.raises(KitError) as info:
        load_kit(path)
    assert needle in str(info.value)


def test_missing_kit_file(tmp_path):
    with pytest.raises(KitError, match="does not exist"):
        load_kit(tmp_path / "none.toml")


def test_silent_sample_is_named(tmp_path):
    samples = {**good_samples(), "quiet.wav": (np.zeros((1000, 1), np.float32), 44100)}
    path = write_kit(tmp_path, "[pi]\nsamples=['a.wav']\n[gu]\nsamples=['quiet.wav']\n", samples)
    with pytest.raises(KitError, match=r"quiet\.wav.*silent"):
        load_kit(path)


def test_channels_that_cancel_out_are_silent(tmp_path):
    wave = tone(300, 44100)[:, 0]
    six = np.stack([wave, -wave, wave, -wave, wave, -wave], axis=1)
    samples = {**good_samples(), "six.wav": (six, 44100)}
    path = write_kit(tmp_path, "[pi]\nsamples=['a.wav']\n[gu]\nsamples=['six.wav']\n", samples)
    with pytest.raises(KitError, match=r"six\.wav.*silent"):
        load_kit(path)


def test_a_kit_file_saved_with_a_byte_order_mark_loads(tmp_path):
    path = write_kit(tmp_path, "", good_samples())
    path.write_bytes(b"\xef\xbb\xbf[pi]\nsamples=['a.wav']\n[gu]\nsamples=['a.wav']\n")
    assert load_kit(path).voice(Drum.GU)


def test_unreadable_sample_is_named(tmp_path):
    path = write_kit(
        tmp_path, "[pi]\nsamples=['a.wav']\n[gu]\nsamples=['bad.wav']\n", good_samples()
    )
    (tmp_path / "bad.wav").write_text("not audio")
    with pytest.raises(KitError, match=r"bad\.wav.*cannot be read"):
        load_kit(path)


def long_sample(folder, seconds=59, rate=8000):
    """A sample just under the 60 s limit: allowed alone."""
    data = np.random.default_rng(0).standard_normal((seconds * rate, 1)).astype(np.float32) * 0.1
    sf.write(str(folder / "long.wav"), data, rate, subtype="PCM_16")


@pytest.mark.parametrize("times", [1000, 200])
def test_a_kit_whose_samples_decode_past_the_memory_budget_is_refused_before_decoding(
    tmp_path, monkeypatch, times
):
    long_sample(tmp_path)
    names = ", ".join(['"long.wav"'] * times)
    (tmp_path / "kit.toml").write_text(f"[pi]\nsamples = [{names}]\n[gu]\nsamples = 'long.wav'\n")
    monkeypatch.setattr(
        "drumscore.render.kit.read_sample", lambda *a: pytest.fail("a sample was decoded")
    )
    with pytest.raises(KitError) as err:
        load_kit(tmp_path / "kit.toml")
    megabytes = (times + 1) * 59 * 8000 * 8 / 1024**2
    assert f"names {times + 1:,} samples that take {megabytes:,.0f} MiB" in str(err.value)
    assert "512 MiB" in str(err.value)


def test_a_kit_within_the_memory_budget_loads_its_long_samples(tmp_path):
    long_sample(tmp_path)
    names = ", ".join(['"long.wav"'] * 10)
    (tmp_path / "kit.toml").write_text(f"[pi]\nsamples = [{names}]\n[gu]\nsamples = 'long.wav'\n")
    kit = load_kit(tmp_path / "kit.toml")
    assert len(kit.voice(Drum.PI).layers[0].samples) == 10


# --- in the reader's language ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "prefix", "said"),
    [
        (
            "zh_TW.UTF-8",
            "drumscore：錯誤：鼓組檔案「",
            "[gu]：pan 須介於 -1（左）到 1（右），不能是「2.0」",
        ),
        (
            "zh_CN.UTF-8",
            "drumscore：错误：鼓组文件「",
            "[gu]：pan 须介于 -1（左）到 1（右），不能是「2.0」",
        ),
        ("C.UTF-8", "drumscore: error: kit file ", "[gu]: pan must be from -1 (left) to 1 (right)"),
    ],
)
def test_a_bad_kit_is_refused_in_the_readers_language(
    monkeypatch, cli, tmp_path, lang, prefix, said
):
    monkeypatch.setenv("LANG", lang)
    path = write_kit(
        tmp_path, "[pi]\nsamples=['a.wav']\n[gu]\nsamples=['a.wav']\npan=2\n", good_samples()
    )
    out = tmp_path / "out.wav"
    code, stdout, err = cli("render", "lu", "--kit", path, "-o", out)
    assert (code, stdout) == (2, "")
    assert err.startswith(prefix) and said in err and "Traceback" not in err
    assert not out.exists()


def test_a_voice_s_stereo_gain_is_the_mixer_s_float32_arithmetic():
    """stereo_gain, worked in Python floats, gives the float32 values the mixer's arrays had:
    cos and sin of the pan's angle, times √2, times the gain, each step rounded to float32."""
    from drumscore.render.kit import stereo_gain

    for gain_db in np.linspace(-60, 24, 85):
        for pan in np.linspace(-1, 1, 41):
            gain, pan = 10 ** (float(gain_db) / 20), float(pan)
            angle = (pan + 1) * math.pi / 4
            scale = np.array([math.cos(angle), math.sin(angle)], dtype=np.float32) * math.sqrt(2)
            expected = (scale * gain).astype(np.float32)
            assert stereo_gain(gain, pan) == (float(expected[0]), float(expected[1]))


def test_the_site_reads_the_kit_s_gains_without_decoding_a_sample(monkeypatch):
    """The site's kit data (each drum's and the count's left/right gain) comes from the kit
    file, as load_kit reads it, without its samples decoded: the page decodes them itself."""
    from drumscore.site.data import kit_data

    gains = {
        "pi": list(builtin_kit().voice(Drum.PI).stereo_gain),
        "gu": list(builtin_kit().voice(Drum.GU).stereo_gain),
        "count": list(builtin_kit().count_voice().stereo_gain),
    }
    builtin_kit.cache_clear()  # loaded again by the next test that asks
    monkeypatch.setattr(
        "drumscore.render.kit.read_sample", lambda *a: pytest.fail("a sample was decoded")
    )
    data = kit_data()
    assert {d: data["voices"][d]["gain"] for d in ("pi", "gu")} | {
        "count": data["count_gain"]
    } == gains
