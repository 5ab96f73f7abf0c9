"""Listening to audio in tests: where strokes start and which drum each one is.

A matched filter: the opening of each kit sample is slid along the audio, and a stroke is where
the audio looks like that opening (normalised cross-correlation near 1). It finds the exact frame,
which level-based onset detection cannot when ringing tails overlap.
"""

from __future__ import annotations

import numpy as np

from drumscore.kit import builtin_kit
from drumscore.model import Drum

#: Frames of each sample's opening that are matched.
TEMPLATE = 1024
#: Correlation that counts as a stroke: the tails of earlier strokes pull it below 1.
MATCH = 0.75


def _correlation(x: np.ndarray, template: np.ndarray) -> np.ndarray:
    """Normalised cross-correlation of `template` at every frame of `x` (0 where x is silent)."""
    size = 1 << (len(x) + len(template) - 1).bit_length()
    dot = np.fft.irfft(np.fft.rfft(x, size) * np.conj(np.fft.rfft(template, size)), size)
    dot = dot[: len(x)]
    energy = np.concatenate([[0.0], np.cumsum(x**2)])
    start = np.arange(len(x))
    window = energy[np.minimum(start + len(template), len(x))] - energy[start]
    audible = window > 1e-6 * window.max()
    norm = np.sqrt(np.where(audible, window, 1.0)) * np.linalg.norm(template)
    return np.where(audible, dot / norm, 0.0)


def strokes(audio: np.ndarray, rate: int, min_gap: float = 0.03) -> list[tuple[int, Drum]]:
    """(onset frame, drum) for every stroke of the built-in kit heard in `audio`."""
    x = (audio.mean(axis=1) if audio.ndim == 2 else audio).astype(np.float64)
    scores = {
        drum: _correlation(x, builtin_kit().voice(drum).samples[0].mean(axis=1)[:TEMPLATE])
        for drum in Drum
    }
    best = np.maximum(scores[Drum.PI], scores[Drum.GU])
    found: list[tuple[int, Drum]] = []
    gap = int(min_gap * rate)
    candidates = np.flatnonzero(best > MATCH)
    i = 0
    while i < len(candidates):
        j = i
        while j + 1 < len(candidates) and candidates[j + 1] - candidates[j] < gap:
            j += 1
        group = candidates[i : j + 1]
        peak = int(group[np.argmax(best[group])])
        found.append((peak, max(Drum, key=lambda d: scores[d][peak])))
        i = j + 1
    return found


def onsets(audio: np.ndarray, rate: int) -> list[int]:
    """The onset frames alone."""
    return [frame for frame, _ in strokes(audio, rate)]
