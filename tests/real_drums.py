"""Takes of drums that are not the built-in kit, made for tests: struck membranes modelled in
numpy, General MIDI drums rendered by FluidSynth, and what a room and a phone do to them
(band limits and an MP3-like pre-echo made in numpy, ringing bumps between strokes)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import soundfile as sf
from system_tools import SOUNDFONT

from drumscore.model import Drum

RATE = 22050
#: Bessel-zero ratios of a circular membrane's first modes.
MODES = (1.0, 1.594, 2.136, 2.296, 2.653, 2.918)


def membrane(
    rng: np.random.Generator, f0: float, t60: float, level: float, rate: int = RATE
) -> np.ndarray:
    """One stroke on a modelled membrane: decaying modes and a stick's click, starting at its
    first sample, a little different every time."""
    f0 *= rng.uniform(0.99, 1.01)
    t = np.arange(int(rate * min(2.0, 1.5 * t60))) / rate
    y = np.zeros(len(t))
    for m, ratio in enumerate(MODES):
        y += np.cos(2 * np.pi * f0 * ratio * t) * np.exp(-6.9 * t / (t60 / (1 + 0.6 * m))) / (1 + m)
    click = int(rate * 0.003)
    y[:click] += rng.normal(0, 0.5, click) * np.exp(-np.arange(click) / (rate * 0.0006))
    return (y * level * 10 ** (rng.uniform(-1.5, 1.5) / 20) / np.max(np.abs(y))).astype(np.float32)


def membranes(low: float = 110.0, high: float = 190.0, rate: int = RATE):
    """A pair of modelled drums: 鼙 lower, softer and shorter; 鼓 higher, louder, ringing."""

    def sound(drum: Drum, rng: np.random.Generator) -> np.ndarray:
        if drum is Drum.PI:
            return membrane(rng, low, 0.3, 0.35, rate)
        return membrane(rng, high, 1.0, 0.8, rate)

    return sound


def gm_drums(notes: tuple[int, int] = (47, 50), rate: int = RATE):
    """A pair of General MIDI drums of FluidR3_GM rendered one note at a time by FluidSynth,
    each note trimmed to start at its attack (its first sample at a quarter of its peak)."""
    import fluidsynth

    rendered = {}
    synth = fluidsynth.Synth(samplerate=float(rate), gain=0.5)
    try:
        font = synth.sfload(str(SOUNDFONT))
        synth.program_select(9, font, 128, 0)
        for drum, note, velocity in ((Drum.PI, notes[0], 80), (Drum.GU, notes[1], 112)):
            synth.noteon(9, note, velocity)
            data = np.asarray(synth.get_samples(int(rate * 1.2)), dtype=np.float32)
            synth.noteoff(9, note)
            synth.get_samples(int(rate * 0.5))
            mono = data.reshape(-1, 2).mean(axis=1) / 32768
            attack = int(np.argmax(np.abs(mono) >= 0.25 * np.abs(mono).max()))
            rendered[drum] = mono[attack:]
    finally:
        synth.delete()

    def sound(drum: Drum, rng: np.random.Generator) -> np.ndarray:
        return rendered[drum] * np.float32(10 ** (rng.uniform(-1, 1) / 20))

    return sound


def placed(
    times: list[float], drums: list[Drum], sound, rate: int = RATE, seed: int = 1
) -> np.ndarray:
    """Mono audio with a stroke of `sound` starting at each time (seconds)."""
    rng = np.random.default_rng(seed)
    y = np.zeros(int((max(times) + 1.5) * rate), dtype=np.float32)
    for t, drum in zip(times, drums, strict=True):
        piece = sound(drum, rng)
        at = round(t * rate)
        piece = piece[: len(y) - at]
        y[at : at + len(piece)] += piece
    return y


def band_pass(y: np.ndarray, rate: int, low: float = 300.0, high: float = 3400.0) -> np.ndarray:
    """A phone's band: everything outside low…high Hz taken away (in one FFT)."""
    spectrum = np.fft.rfft(y)
    freqs = np.fft.rfftfreq(len(y), 1 / rate)
    spectrum[(freqs < low) | (freqs > high)] = 0
    return np.fft.irfft(spectrum, n=len(y)).astype(np.float32)


def pre_echo(y: np.ndarray, times: list[float], rate: int, seed: int = 2) -> np.ndarray:
    """An MP3's pre-echo: noise from 30–36 ms before each attack up to it, its level 20–26 dB
    below the stroke's peak, as a transform coder spreads a stroke over its block."""
    rng = np.random.default_rng(seed)
    out = y.copy()
    for t in times:
        at = round(t * rate)
        lead = round(rate * rng.uniform(0.030, 0.036))
        peak = float(np.max(np.abs(y[at : at + rate // 20])))
        level = peak * 10 ** (-rng.uniform(20, 26) / 20)
        out[at - lead : at] += rng.normal(0, level, lead).astype(np.float32)
    return out


def ringing(y: np.ndarray, times: list[float], rate: int, seed: int = 3) -> np.ndarray:
    """A swell of a ring in most gaps between strokes, 25–30 dB below the loudest stroke."""
    rng = np.random.default_rng(seed)
    out = y.copy()
    peak = float(np.max(np.abs(y)))
    for a, b in itertools.pairwise(times):
        t = np.arange(int(rate * 0.3)) / rate
        swell = np.sin(np.pi * np.minimum(t / 0.03, 0.5)) * np.exp(-t / 0.1)
        bump = swell * np.cos(2 * np.pi * rng.uniform(120, 250) * t)
        bump *= peak * 10 ** (-rng.uniform(25, 30) / 20)
        at = round((a + (b - a) * rng.uniform(0.3, 0.6)) * rate)
        out[at : at + len(bump)] += bump[: len(out) - at].astype(np.float32)
    return out


def even(drums: list[Drum], bpm: float, *, spread_ms: float = 15.0, seed: int = 4) -> list[float]:
    """Stroke times on an even beat from 0.4 s, each off it by up to `spread_ms`."""
    rng = np.random.default_rng(seed)
    offsets = rng.uniform(-spread_ms, spread_ms, len(drums)) / 1000
    return [0.4 + k * 60 / bpm + float(offsets[k]) for k in range(len(drums))]


def write(path: Path, y: np.ndarray, rate: int = RATE) -> Path:
    sf.write(path, y / np.max(np.abs(y)) * 0.9, rate, subtype="PCM_16")
    return path


def swelling(rng: np.random.Generator, f0: float = 70.0, rate: int = RATE) -> np.ndarray:
    """A big low drum struck softly: a stick's tap at its first sample, its body swelling to a
    peak 50–80 ms later, 10–14 dB above the tap."""
    rise = rng.uniform(0.05, 0.08) / 2.5  # the body peaks at 2.5 time constants
    t = np.arange(int(rate * 1.2)) / rate
    body = (1 - np.exp(-t / rise)) ** 2 * np.exp(-t / 0.35)
    y = sum(np.cos(2 * np.pi * f0 * r * t) * body / (1 + 2 * m) for m, r in enumerate(MODES[:4]))
    y = y / np.max(np.abs(y))
    tap = int(rate * 0.006)
    click = rng.normal(0, 1, tap) * np.exp(-np.arange(tap) / (rate * 0.0012))
    y[:tap] += click / np.max(np.abs(click)) * 10 ** (-rng.uniform(10, 14) / 20)
    return (0.7 * y).astype(np.float32)


def room(y: np.ndarray, rate: int, rt60: float = 1.0, wet: float = 0.8, seed: int = 5):
    """A room: the direct sound, three early echoes (11–23 ms) and a noise tail decaying by
    60 dB in `rt60` seconds, its energy `wet` of the direct sound's (convolved in one FFT:
    scipy.signal's import alone costs most of a second)."""
    rng = np.random.default_rng(seed)
    n = int(rate * rt60 * 1.2)
    ir = rng.normal(0, 1, n) * np.exp(-6.9 * np.arange(n) / rate / rt60)
    ir[: int(rate * 0.008)] = 0
    ir *= wet / np.sqrt(np.sum(ir**2))
    ir[0] = 1.0
    for delay, gain in ((0.011, 0.4), (0.017, 0.3), (0.023, 0.25)):
        ir[int(rate * delay)] += gain
    size = 1 << (len(y) + n - 2).bit_length()  # a power of two holding the whole convolution
    wet_y = np.fft.irfft(np.fft.rfft(y, size) * np.fft.rfft(ir, size), size)
    return wet_y[: len(y)].astype(np.float32)


def with_graces(
    y: np.ndarray, times: list[float], sound, drums: list[Drum], rate: int = RATE, seed: int = 6
) -> np.ndarray:
    """Each stroke at `times` played as a flam: a grace note on its drum 17–43 ms before it,
    11–15 dB softer."""
    rng = np.random.default_rng(seed)
    out = y.copy()
    for t, drum in zip(times, drums, strict=True):
        at = round((t - rng.uniform(0.017, 0.043)) * rate)
        piece = sound(drum, rng) * np.float32(10 ** (-rng.uniform(11, 15) / 20))
        piece = piece[: len(out) - at]
        out[at : at + len(piece)] += piece
    return out


def flammed_take(drums: list[Drum], bpm: float = 80) -> tuple[list[float], np.ndarray, list[int]]:
    """`drums` played evenly on the two membranes, every third stroke from the third a flam:
    the strokes' times, the take, and which strokes are flams."""
    times = even(drums, bpm)
    sound = membranes()
    flammed = list(range(2, len(times), 3))
    y = with_graces(
        placed(times, drums, sound), [times[k] for k in flammed], sound, [drums[k] for k in flammed]
    )
    return times, y, flammed
