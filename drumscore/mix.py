"""Where samples are mixed: a Timeline and a Kit to a float32 stereo array."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .kit import Kit, builtin_kit
from .model import Drum
from .timeline import Timeline

#: Peak level of a normalised render: −1 dBFS leaves headroom for lossy encoders.
PEAK_DBFS = -1.0
DEFAULT_RATE = 44100


@dataclass(frozen=True, eq=False)
class MixPlan:
    """Onsets (samples) and the sample each stroke plays: all that mixing any range needs."""

    rate: int
    onsets: np.ndarray
    sounds: tuple[np.ndarray, ...]
    length: int


def plan(timeline: Timeline, kit: Kit | None = None, rate: int = DEFAULT_RATE) -> MixPlan:
    """Place every stroke at round(k × interval × rate); the last stroke rings out in full."""
    kit = (kit or builtin_kit()).at_rate(rate)
    turns = {drum: 0 for drum in Drum}
    sounds = []
    for event in timeline.events():
        sounds.append(kit.voice(event.drum).sample_for(turns[event.drum]))
        turns[event.drum] += 1
    onsets = timeline.tempo.onset_samples(0, len(sounds), rate)
    length = max(int(o) + len(s) for o, s in zip(onsets, sounds, strict=True))
    return MixPlan(rate, onsets, tuple(sounds), length)


def mix_range(plan: MixPlan, start: int, stop: int) -> np.ndarray:
    """Samples start..stop of the (unnormalised) mix, touching only the strokes that sound there."""
    out = np.zeros((stop - start, 2), dtype=np.float32)
    first = max(0, int(np.searchsorted(plan.onsets, start - _longest(plan), side="right")) - 1)
    last = int(np.searchsorted(plan.onsets, stop, side="left"))
    for i in range(first, last):
        onset, sound = int(plan.onsets[i]), plan.sounds[i]
        a, b = max(start, onset), min(stop, onset + len(sound))
        if a < b:
            out[a - start : b - start] += sound[a - onset : b - onset]
    return out


def _longest(plan: MixPlan) -> int:
    return max(len(s) for s in plan.sounds)


def normalise(audio: np.ndarray, peak_dbfs: float = PEAK_DBFS) -> np.ndarray:
    """Scale so the highest peak sits at `peak_dbfs`: loud, and never clipping."""
    peak = float(np.max(np.abs(audio))) if audio.size else 0.0
    if peak == 0.0:
        return audio
    return audio * np.float32(10 ** (peak_dbfs / 20) / peak)


def render_audio(
    timeline: Timeline, kit: Kit | None = None, rate: int = DEFAULT_RATE
) -> np.ndarray:
    """The whole render as a normalised float32 array of shape (frames, 2)."""
    p = plan(timeline, kit, rate)
    return normalise(mix_range(p, 0, p.length))
