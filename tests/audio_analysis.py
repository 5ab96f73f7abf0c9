"""Listening by numbers: find drum onsets in rendered audio and sort them by their sound."""

from __future__ import annotations

import numpy as np

HOP_S = 0.002


def envelope_db(audio: np.ndarray, rate: int, hop_s: float = HOP_S) -> np.ndarray:
    """Peak level per hop, in dB, of the channel-summed signal."""
    x = audio.mean(axis=1) if audio.ndim == 2 else audio
    hop = max(1, int(rate * hop_s))
    frames = x[: len(x) // hop * hop].reshape(-1, hop)
    return 20 * np.log10(np.abs(frames).max(axis=1) + 1e-9)


def onsets(audio: np.ndarray, rate: int, rise_db: float = 6.0, gap_s: float = 0.08) -> np.ndarray:
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
