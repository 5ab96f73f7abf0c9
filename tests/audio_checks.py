"""Listening to audio in tests: where strokes start, and which drum each one is.

Two ways of listening. `strokes` knows the built-in kit: the opening of each kit sample is slid
along the audio (a matched filter), and a stroke is where the audio looks like that opening
(normalised cross-correlation near 1). It finds the exact frame, which level-based onset
detection cannot when ringing tails overlap.

`level_onsets`, `features` and `two_groups` know nothing of the kit: onsets are where the level
jumps, and strokes are sorted into two groups by their sound alone (level and brightness).
"""

from __future__ import annotations

import numpy as np

from drumscore.model import Drum
from drumscore.render.kit import builtin_kit

# --- the matched filter: the built-in kit's strokes, to the frame ----------------------------

#: Frames of each sample's opening that are matched.
TEMPLATE = 1024
#: Correlation that counts as a stroke: the tails of earlier strokes pull it below 1.
MATCH = 0.75
#: Frames either side of a correlation peak searched for the attack itself.
REFINE = 4


def _mono(audio: np.ndarray) -> np.ndarray:
    return (audio.mean(axis=1) if audio.ndim == 2 else audio).astype(np.float64)


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
    """(onset frame, drum) for every stroke of the built-in kit, at `rate`, heard in `audio`.

    The ringing tails of earlier strokes blur the correlation peak by a frame or so; the attack
    is then placed where the first differences (the tails mostly cancel) match best nearby.
    """
    kit = builtin_kit().at_rate(rate)
    x = _mono(audio)
    dx = np.diff(x, prepend=0.0)
    openings = {d: kit.voice(d).samples[0].mean(axis=1)[:TEMPLATE] for d in Drum}
    scores = {d: _correlation(x, t) for d, t in openings.items()}
    edges = {d: _correlation(dx, np.diff(t, prepend=0.0)) for d, t in openings.items()}
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
        drum = max(Drum, key=lambda d: scores[d][peak])
        low = max(0, peak - REFINE)
        found.append((low + int(np.argmax(edges[drum][low : peak + REFINE + 1])), drum))
        i = j + 1
    return found


# --- by sound alone: level-based onsets, and two groups by 2-means ---------------------------

HOP_S = 0.002


def envelope_db(audio: np.ndarray, rate: int, hop_s: float = HOP_S) -> np.ndarray:
    """Peak level per hop, in dB, of the channel-summed signal."""
    x = audio.mean(axis=1) if audio.ndim == 2 else audio
    hop = max(1, int(rate * hop_s))
    frames = x[: len(x) // hop * hop].reshape(-1, hop)
    return 20 * np.log10(np.abs(frames).max(axis=1) + 1e-9)


def level_onsets(
    audio: np.ndarray, rate: int, rise_db: float = 6.0, gap_s: float = 0.08
) -> np.ndarray:
    """Onset times (s): hops whose level rises `rise_db` over the loudest of the 40 ms before."""
    back = 20
    env = np.concatenate([np.full(back, -180.0), envelope_db(audio, rate)])
    before = np.maximum.reduce([env[i : len(env) - back + i] for i in range(back)])
    level = env[back:]
    found: list[int] = []
    for i in np.flatnonzero((level - before > rise_db) & (level > level.max() - 40)):
        if not found or (i - found[-1]) * HOP_S > gap_s:
            found.append(int(i))
    hop = int(rate * HOP_S)
    x = np.abs(audio.mean(axis=1) if audio.ndim == 2 else audio)
    times = []
    for i in found:
        # the first sample of the attack: the earliest one above 30 % of the hop's peak
        window = x[max(0, (i - 1) * hop) : (i + 2) * hop]
        start = max(0, (i - 1) * hop)
        times.append((start + int(np.argmax(window > window.max() * 0.3))) / rate)
    return np.array(times)


def features(audio: np.ndarray, rate: int, times: np.ndarray, span_s: float = 0.04) -> np.ndarray:
    """Per onset: peak level (dB) and spectral centroid (Hz) of the first `span_s` seconds."""
    x = audio.mean(axis=1) if audio.ndim == 2 else audio
    rows = []
    for t in times:
        a = int(t * rate)
        seg = x[a : a + int(span_s * rate)]
        mag = np.abs(np.fft.rfft(seg * np.hanning(len(seg))))
        freqs = np.fft.rfftfreq(len(seg), 1 / rate)
        rows.append((20 * np.log10(np.abs(seg).max() + 1e-9), (freqs * mag).sum() / mag.sum()))
    return np.array(rows)


def two_groups(feats: np.ndarray) -> np.ndarray:
    """Split feature rows into two clusters (2-means on standardised features): labels 0/1.

    Label 1 is the louder cluster.
    """
    z = (feats - feats.mean(axis=0)) / (feats.std(axis=0) + 1e-12)
    centres = z[[int(np.argmin(z[:, 0])), int(np.argmax(z[:, 0]))]]
    for _ in range(50):
        labels = np.argmin(((z[:, None, :] - centres[None]) ** 2).sum(axis=2), axis=1)
        new = np.array(
            [z[labels == j].mean(axis=0) if np.any(labels == j) else centres[j] for j in (0, 1)]
        )
        if np.allclose(new, centres):
            break
        centres = new
    if centres[0, 0] > centres[1, 0]:
        labels = 1 - labels
    return labels


# --- the count-in's wood block ------------------------------------------------------------


def count_strokes(audio: np.ndarray, rate: int, min_gap: float = 0.03) -> list[int]:
    """Onset frames of the built-in count sound in `audio` (a matched filter, as `strokes`).

    The wood block rings at one pitch, so the correlation stays high through its short decay:
    candidates closer than `min_gap` make one group, and its best match is the onset.
    """
    kit = builtin_kit().at_rate(rate)
    template = kit.count.samples[0].mean(axis=1)[:TEMPLATE]
    score = _correlation(_mono(audio), template)
    gap = int(min_gap * rate)
    candidates = np.flatnonzero(score > MATCH)
    found: list[int] = []
    i = 0
    while i < len(candidates):
        j = i
        while j + 1 < len(candidates) and candidates[j + 1] - candidates[j] < gap:
            j += 1
        group = candidates[i : j + 1]
        found.append(int(group[np.argmax(score[group])]))
        i = j + 1
    return found
