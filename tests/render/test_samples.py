"""Checks on the shipped kit: ○ 鼙 must be soft, dull and short; □ 鼓 loud, bright, ringing."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf
from scipy import signal

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "drumscore" / "render" / "samples"
NAMES = ["pi.wav", "gu.wav"]


def load(name: str) -> tuple[np.ndarray, int]:
    """The shipped sample as a (frames, channels) float array and its rate."""
    return sf.read(SAMPLES / name, always_2d=True)


def mono(name: str) -> np.ndarray:
    """The channel average, enough for level and spectrum checks."""
    return load(name)[0].mean(axis=1)


def peak_db(name: str) -> float:
    """Sample peak over both channels, in dBFS."""
    return 20 * np.log10(np.max(np.abs(load(name)[0])))


def decay_s(x: np.ndarray, rate: int, drop_db: float = 40.0) -> float:
    """Seconds from the loudest 5 ms frame until the level stays ``drop_db`` below it."""
    frame = rate // 200
    frames = x[: len(x) // frame * frame].reshape(-1, frame)
    env = 10 * np.log10(np.mean(frames**2, axis=1) + 1e-24)
    top = int(np.argmax(env))
    return (np.nonzero(env >= env[top] - drop_db)[0][-1] + 1 - top) * frame / rate


def spectrum(x: np.ndarray, rate: int) -> tuple[np.ndarray, np.ndarray]:
    """Hann-windowed, zero-padded magnitude spectrum and its frequencies."""
    n = 1 << 17
    return np.fft.rfftfreq(n, 1 / rate), np.abs(np.fft.rfft(x * np.hanning(len(x)), n))


def centroid_hz(x: np.ndarray, rate: int) -> float:
    """Spectral centroid: higher means brighter."""
    freqs, mag = spectrum(x, rate)
    return float(np.sum(freqs * mag) / np.sum(mag))


def strong_peaks(x: np.ndarray, rate: int, within_db: float = 40.0) -> int:
    """Number of distinct spectral peaks no more than ``within_db`` below the strongest."""
    _, mag = spectrum(x, rate)
    db = 20 * np.log10(mag / mag.max() + 1e-12)
    peaks, _ = signal.find_peaks(db, height=-within_db, prominence=10, distance=100)
    return len(peaks)


@pytest.mark.parametrize("name", NAMES)
def test_format_is_44k1_stereo_24bit(name):
    info = sf.info(SAMPLES / name)
    assert (info.samplerate, info.channels, info.subtype) == (44100, 2, "PCM_24")


@pytest.mark.parametrize("name", NAMES)
def test_starts_with_attack(name):
    audio, rate = load(name)
    frames = np.max(np.abs(audio), axis=1)
    assert np.argmax(frames) < 0.020 * rate
    # no leading silence: within 1 ms the signal is already within 20 dB of its peak
    assert frames[: rate // 1000].max() > 0.1 * frames.max()


@pytest.mark.parametrize("name", NAMES)
def test_ends_at_silence(name):
    audio, rate = load(name)
    assert np.max(np.abs(audio[-rate // 200 :])) < 1e-3
    assert np.max(np.abs(audio[-1])) < 1e-6


@pytest.mark.parametrize("name", NAMES)
def test_no_clipping(name):
    assert peak_db(name) < 0.0


def test_gu_is_louder_than_pi():
    assert peak_db("gu.wav") - peak_db("pi.wav") >= 6.0


def test_gu_rings_much_longer_than_pi():
    rate = load("gu.wav")[1]
    assert decay_s(mono("gu.wav"), rate) >= 3 * decay_s(mono("pi.wav"), rate)


def test_gu_is_brighter_than_pi():
    rate = load("gu.wav")[1]
    first = int(0.2 * rate)
    assert centroid_hz(mono("gu.wav")[:first], rate) > centroid_hz(mono("pi.wav")[:first], rate)


@pytest.mark.parametrize("name", NAMES)
def test_is_not_a_pure_tone(name):
    assert strong_peaks(mono(name), load(name)[1]) >= 3


def test_generator_reproduces_shipped_files(tmp_path):
    spec = importlib.util.spec_from_file_location("make_kit", ROOT / "tools" / "make_kit.py")
    make_kit = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make_kit)
    make_kit.write_kit(tmp_path)
    for name in NAMES:
        fresh, _ = sf.read(tmp_path / name, dtype="int32")
        shipped, _ = sf.read(SAMPLES / name, dtype="int32")
        np.testing.assert_array_equal(fresh, shipped)
