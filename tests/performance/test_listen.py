"""The strokes of a recording: onsets to the sample, and which drum each stroke is."""

import sys

import numpy as np
import pytest
import soundfile as sf
from performances import kit_sample

from drumscore.errors import MissingDependencyError, PerformanceError
from drumscore.files import headers
from drumscore.model import Drum
from drumscore.performance import listen
from drumscore.render.kit import builtin_kit

pytest.importorskip("librosa", reason="the check of a recording needs librosa (test extra)")

RATE = 44100
ORDER = [Drum.PI, Drum.GU, Drum.PI, Drum.PI, Drum.GU, Drum.GU, Drum.PI, Drum.GU]


def placed(starts, drums, length=None, rate=RATE):
    """Mono audio with the kit's samples starting at the given samples."""
    sounds = {d: kit_sample(d).mean(axis=1) for d in Drum}
    length = length or max(starts) + len(sounds[Drum.GU])
    y = np.zeros(length, dtype=np.float32)
    for at, drum in zip(starts, drums, strict=True):
        sound = sounds[drum][: length - at]
        y[at : at + len(sound)] += sound
    return y


def test_onsets_are_found_to_the_sample_even_on_the_first_sample():
    starts = [0, *(round(RATE * (0.4 + 0.37 * k)) + 7 * k for k in range(1, len(ORDER)))]
    found = listen.onsets(placed(starts, ORDER), RATE)
    assert len(found) == len(starts)
    assert np.max(np.abs(found - np.asarray(starts))) <= RATE * 0.001  # within 1 ms


def test_each_stroke_is_named_after_the_nearest_kit_sample():
    starts = [round(RATE * 0.3 * k) + 100 for k in range(len(ORDER))]
    y = placed(starts, ORDER)
    spectra = listen.stroke_spectra(y, RATE, np.asarray(starts))
    named, doubtful = listen.by_kit(spectra, builtin_kit(), RATE)
    assert named == ORDER and not any(doubtful)
    split, doubtful, notes = listen.by_split(spectra, RATE)
    assert split == ORDER and not any(doubtful) and notes == ()


def test_room_noise_from_the_first_sample_is_neither_a_stroke_nor_a_drum(tmp_path):
    starts = [round(RATE * (0.6 + 0.45 * k)) for k in range(len(ORDER))]
    y = placed(starts, ORDER, length=starts[-1] + RATE)
    y = y / np.max(np.abs(y)) * 0.9
    y += np.random.default_rng(3).normal(0, 10 ** (-32 / 20), len(y)).astype(np.float32)
    sf.write(tmp_path / "room.wav", y, RATE, subtype="FLOAT")
    heard = listen.read_audio(tmp_path / "room.wav")
    assert [s.drum for s in heard.strokes] == ORDER
    times = np.array([s.time for s in heard.strokes])
    assert np.max(np.abs(times - np.array(starts) / RATE)) < 0.002


def test_strokes_all_alike_are_doubtful_in_a_split():
    starts = [round(RATE * 0.5 * k) + 100 for k in range(6)]
    y = placed(starts, [Drum.PI] * 6)
    spectra = listen.stroke_spectra(y, RATE, np.asarray(starts))
    _, doubtful, notes = listen.by_split(spectra, RATE)
    assert all(doubtful) and notes


def test_a_recording_at_another_rate_is_read_at_its_own(tmp_path):
    rate = 48000
    starts = [round(rate * (0.25 + 0.5 * k)) for k in range(len(ORDER))]
    import soxr

    sounds = {d: soxr.resample(kit_sample(d), RATE, rate) for d in Drum}
    y = np.zeros((starts[-1] + rate * 2, 2), dtype=np.float32)
    for at, drum in zip(starts, ORDER, strict=True):
        y[at : at + len(sounds[drum])] += sounds[drum]
    sf.write(tmp_path / "take.wav", y * 0.5, rate)
    heard = listen.read_audio(tmp_path / "take.wav")
    assert [s.drum for s in heard.strokes] == ORDER
    assert (
        np.max(np.abs(np.array([s.time for s in heard.strokes]) - np.array(starts) / rate)) < 1e-3
    )
    assert heard.duration == pytest.approx(len(y) / rate)


# --- bad input --------------------------------------------------------------------------------


def test_without_librosa_the_error_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "librosa", None)
    with pytest.raises(MissingDependencyError) as info:
        listen.read_audio(tmp_path / "take.wav")
    assert "pip install 'drumscore[check]'" in str(info.value)
    assert info.value.exit_status == 1


def test_a_recording_over_the_limit_is_refused_before_it_is_read(tmp_path, monkeypatch):
    sf.write(tmp_path / "long.wav", np.zeros(RATE * 3, np.float32), RATE)
    monkeypatch.setattr(headers, "MAX_SECONDS", 2)
    with pytest.raises(PerformanceError, match="over the limit of 0 minutes"):
        listen.read_audio(tmp_path / "long.wav")


def test_invalid_samples_are_refused(tmp_path):
    y = np.zeros(RATE, np.float32)
    y[100] = np.nan
    sf.write(tmp_path / "nan.wav", y, RATE, subtype="FLOAT")
    with pytest.raises(PerformanceError, match="NaN"):
        listen.read_audio(tmp_path / "nan.wav")


def test_an_unknown_way_of_telling_the_drums_is_refused(tmp_path):
    with pytest.raises(PerformanceError) as info:
        listen.read_audio(tmp_path / "take.wav", drums="pitch")
    assert info.value.option == "drums"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh_TW.UTF-8", "中沒有擊（在 1.0 秒的聲音中找不到起音）；請給出擊鼓的錄音，而不是靜音"),
        ("zh_CN.UTF-8", "中没有击（在 1.0 秒的声音中找不到起音）；请给出击鼓的录音，而不是静音"),
        ("C.UTF-8", "holds no strokes (no onsets found in 1.0 s of sound)"),
    ],
)
def test_a_silent_recording_is_refused_in_the_readers_language(
    cli, monkeypatch, tmp_path, lang, expected
):
    path = tmp_path / "silence.wav"
    sf.write(path, np.zeros((RATE, 2), np.float32), RATE)
    monkeypatch.setenv("LANG", lang)
    code, out, err = cli("check", path, "lu")
    assert code == 2 and out == "" and "Traceback" not in err
    assert expected in err and "silence.wav" in err
