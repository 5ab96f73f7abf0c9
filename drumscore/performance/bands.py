"""Each stroke's sound: the energy of its first samples in BANDS mel bands, the ring before it
taken away, and its colour (spectral shape) that tells the drums apart."""

from __future__ import annotations

import functools
import math

import numpy as np
import soundfile as sf

from drumscore.performance.recording import read_span

#: A stroke's sound is judged over its first STROKE_SECONDS (2048 samples at 44.1 kHz).
STROKE_SECONDS = 0.0464
#: Bands of the spectra that tell the drums apart; a band weaker than BAND_FLOOR of the
#: strongest counts as that floor (30 dB down), so the noise in bands the drum hardly sounds
#: does not decide.
BANDS = 40
BAND_FLOOR = 1e-3


def stroke_bands(audio: sf.SoundFile, starts: np.ndarray) -> np.ndarray:
    """The energy in BANDS mel bands of each stroke's first samples (cut at the next stroke),
    less that of as many samples before it: the ring of earlier strokes taken away."""
    rate = int(audio.samplerate)
    size = stroke_length(rate)
    out = np.zeros((len(starts), BANDS))
    for first in range(0, len(starts), 256):  # a few spectra at a time: memory stays small
        chunk = starts[first : first + 256]
        pieces = np.zeros((len(chunk), 2 * size), dtype=np.float32)
        for k, s in enumerate(chunk):
            n = first + k
            stop = size
            if n + 1 < len(starts):
                stop = min(stop, int(starts[n + 1] - s))
            pieces[k, : size + stop] = read_span(audio, int(s) - size, int(s) + stop)
        out[first : first + len(chunk)] = bands_of(pieces, rate)
    return out


def bands_of(pieces: np.ndarray, rate: int) -> np.ndarray:
    """Band energies of stroke pieces (each: `size` samples before the stroke, then `size` from
    its start): the power after, less the power before, through the mel bands."""
    size = pieces.shape[1] // 2
    window = _taper(size)
    power = np.abs(np.fft.rfft(pieces[:, size:] * window, axis=1)) ** 2
    ring = np.abs(np.fft.rfft(pieces[:, :size] * window[::-1], axis=1)) ** 2
    return np.maximum(power - ring, 0.0) @ mel_filters(rate, size).T


def stroke_length(rate: int) -> int:
    """How many samples of a stroke its sound is judged on (a power of two near STROKE_SECONDS,
    so the spectra of a recording and of a kit at one rate have the same bins)."""
    return 1 << round(math.log2(STROKE_SECONDS * rate))


@functools.cache
def _taper(size: int) -> np.ndarray:
    """A stroke's window: flat from its start (the attack counts in full), a half-Hann fall
    over its last quarter. Made once for each size (a live listener judges strokes often)."""
    window = np.ones(size, dtype=np.float64)
    fall = size // 4
    window[-fall:] = np.hanning(2 * fall)[fall:]
    window.flags.writeable = False
    return window


def _mel(f: np.ndarray) -> np.ndarray:
    return 2595 * np.log10(1 + f / 700)


@functools.cache
def mel_filters(rate: int, size: int) -> np.ndarray:
    """BANDS triangular filters evenly spaced in mels from 30 Hz to half the rate, over the
    bins of a `size`-sample FFT: the ear's coarse sense of colour (made once for each)."""
    freqs = np.fft.rfftfreq(size, 1 / rate)
    edges = _mel(np.asarray([30.0, rate / 2]))
    points = 700 * (10 ** (np.linspace(edges[0], edges[1], BANDS + 2) / 2595) - 1)
    low, centre, high = points[:-2, None], points[1:-1, None], points[2:, None]
    rising = (freqs - low) / np.maximum(centre - low, 1e-9)
    falling = (high - freqs) / np.maximum(high - centre, 1e-9)
    filters = np.maximum(0.0, np.minimum(rising, falling))
    filters.flags.writeable = False
    return filters


def band_centres(rate: int) -> np.ndarray:
    """The centre frequency of each mel band, Hz."""
    edges = _mel(np.asarray([30.0, rate / 2]))
    return 700 * (10 ** (np.linspace(edges[0], edges[1], BANDS + 2)[1:-1] / 2595) - 1)


def shapes(bands: np.ndarray) -> np.ndarray:
    """Each stroke's colour: its band energies in dB, less their mean (the level does not
    count), a band weaker than BAND_FLOOR of the strongest counted as that floor."""
    floor = bands.max(axis=1, keepdims=True) * BAND_FLOOR + 1e-20
    db = 10 * np.log10(bands + floor)
    return db - db.mean(axis=1, keepdims=True)
