"""Where samples are mixed: a Track (or one score's Timeline) and a Kit to float32 stereo.

A MixPlan holds only the onsets and which sound each stroke plays, so any range of the mix can
be made on its own; the peak of the whole mix is found in advance from its distinct stretches,
so a render streams to its file in blocks with memory that does not grow with its length.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import Hit, Track, as_track
from drumscore.errors import OptionError
from drumscore.files.format_choice import DEFAULT_RATE, PEAK_DBFS
from drumscore.i18n import _
from drumscore.render.kit import Kit, builtin_kit

#: Frames per block of a streamed render (about 6 s at 44.1 kHz: 3 MB of float32 stereo).
BLOCK_FRAMES = 1 << 18


@dataclass(frozen=True, eq=False)
class MixPlan:
    """Onsets (samples), and the sound and gain of each stroke: all that mixing any range needs.

    `sounds` holds each distinct sound once (gain and pan applied); stroke i plays
    sounds[which[i]] × gains[i] from onsets[i].
    """

    rate: int
    onsets: np.ndarray
    which: np.ndarray
    gains: np.ndarray
    sounds: tuple[np.ndarray, ...]
    length: int
    #: For a loopable file: its length, the mix past it folded back onto its start.
    loop_length: int | None = None

    @property
    def frames(self) -> int:
        """Frames in the file: the loop's length, or every frame until the last ring ends."""
        return self.length if self.loop_length is None else self.loop_length

    @property
    def longest(self) -> int:
        return max((len(s) for s in self.sounds), default=0)

    def __len__(self) -> int:
        return len(self.onsets)


def mix_range(plan: MixPlan, start: int, stop: int, out: np.ndarray | None = None) -> np.ndarray:
    """Samples start..stop of the (unnormalised) mix, touching only the strokes that sound there.

    `out`, if given, is a float32 (≥ stop − start, 2) buffer to reuse; its first rows are returned.
    """
    frames = stop - start
    if out is None:
        out = np.zeros((frames, 2), dtype=np.float32)
    else:
        out = out[:frames]
        out.fill(0)
    onsets = plan.onsets
    first = int(np.searchsorted(onsets, start - plan.longest, side="right"))
    last = int(np.searchsorted(onsets, stop, side="left"))
    for i in range(first, last):
        onset, sound = int(onsets[i]), plan.sounds[plan.which[i]]
        a, b = max(start, onset), min(stop, onset + len(sound))
        if a < b:
            piece = sound[a - onset : b - onset]
            gain = plan.gains[i]
            out[a - start : b - start] += piece if gain == 1 else piece * gain
    return out


def peak(plan: MixPlan) -> float:
    """The highest absolute sample of the whole mix, without mixing all of it.

    Between one onset and the next the mix depends only on the strokes still sounding (which
    sound, gain, how long ago each began), so each distinct stretch is mixed once.
    """
    onsets = plan.onsets.tolist()
    which = plan.which.tolist()
    gains = plan.gains.tolist()
    lengths = [len(s) for s in plan.sounds]
    ends = [o + lengths[w] for o, w in zip(onsets, which, strict=True)]
    longest = plan.longest
    seen: set[tuple] = set()
    highest = 0.0
    for i, start in enumerate(onsets):
        stop = onsets[i + 1] if i + 1 < len(onsets) else plan.length
        if stop <= start:
            continue
        lo = bisect.bisect_right(onsets, start - longest, 0, i)
        key = (
            stop - start,
            *((which[j], gains[j], start - onsets[j]) for j in range(lo, i + 1) if ends[j] > start),
        )
        if key in seen:
            continue
        seen.add(key)
        highest = max(highest, float(np.max(np.abs(mix_range(plan, start, stop)))))
    return highest


def gain_for(peak_value: float, peak_dbfs: float = PEAK_DBFS) -> np.float32:
    """The factor that brings `peak_value` to `peak_dbfs` (1 for silence)."""
    if peak_value == 0.0:
        return np.float32(1.0)
    return np.float32(10 ** (peak_dbfs / 20) / peak_value)


def normalise(audio: np.ndarray, peak_dbfs: float = PEAK_DBFS) -> np.ndarray:
    """Scale so the highest peak sits at `peak_dbfs`: loud, and never clipping."""
    highest = float(np.max(np.abs(audio))) if audio.size else 0.0
    if highest == 0.0:
        return audio
    return audio * gain_for(highest, peak_dbfs)


def blocks(
    plan: MixPlan,
    block_frames: int = BLOCK_FRAMES,
    peak_dbfs: float = PEAK_DBFS,
    normalize: bool = True,
) -> Iterator[np.ndarray]:
    """The normalised mix as consecutive float32 blocks; the same samples as render_audio.

    Each block is a view of one reused buffer, valid until the next is asked for. With
    `normalize` false the samples keep the kit's own level (see check_unnormalised).
    """
    if plan.loop_length is not None:
        yield from _folded_blocks(plan, block_frames, peak_dbfs, normalize)
        return
    scale = gain_for(peak(plan), peak_dbfs) if normalize else np.float32(1)
    buffer = np.empty((min(block_frames, max(plan.length, 1)), 2), dtype=np.float32)
    for start in range(0, plan.length, block_frames):
        stop = min(plan.length, start + block_frames)
        out = mix_range(plan, start, stop, buffer)
        out *= scale
        yield out


class SoundChooser:
    """Which sound each hit plays, and at what gain: its drum's voice (round-robin in the layer for
    its velocity, scaled by velocity ÷ the drum's default), or the count sound."""

    def __init__(self, kit: Kit | None, rate: int) -> None:
        self.kit = (kit or builtin_kit()).at_rate(rate)
        count = self.kit.count
        self.count_voice = count if count is not None else builtin_kit().at_rate(rate).count_voice()
        self.sounds: list[np.ndarray] = []
        self._table: dict[tuple, int] = {}
        self._turns: dict[tuple, int] = {}

    @property
    def longest(self) -> int:
        """Frames in the longest sample the kit can play."""
        voices = [*self.kit.voices.values(), self.count_voice]
        return max(len(s.data) for v in voices for layer in v.layers for s in layer.samples)

    def index(self, hit: Hit) -> tuple[int, float]:
        """(which of `sounds`, the hit's gain) for a conductor.track.Hit; hits must come in
        order."""
        drum = hit.drum
        voice = self.count_voice if drum is None else self.kit.voice(drum)
        velocity = hit.velocity
        layer = voice.layer_for(velocity)
        turn_key = (drum, layer.velocity)
        n = self._turns.get(turn_key, 0)
        self._turns[turn_key] = n + 1
        key = (drum, layer.velocity, n % len(layer.samples))
        if key not in self._table:
            self._table[key] = len(self.sounds)
            self.sounds.append(voice.sample_for(n, velocity))
        return self._table[key], hit.gain

    def choose(self, hit: Hit) -> tuple[np.ndarray, float]:
        which, gain = self.index(hit)
        return self.sounds[which], float(np.float32(gain))


def plan(played: Timeline | Track, kit: Kit | None = None, rate: int = DEFAULT_RATE) -> MixPlan:
    """The MixPlan of a track (or one score's timeline): its hits as the conductor lays them out
    (drumscore.conductor.track), each on its drum's sound, count strokes on the count sound.

    The last stroke rings out in full; a pause after the last item is kept as silence. A
    loopable track's plan has loop_length set to the track's whole number of beats.
    """
    track = as_track(played)
    chooser = SoundChooser(kit, rate)
    onsets, which, gains = [], [], []
    for hit in track.hits(rate):
        if hit.muted:
            continue
        index, gain = chooser.index(hit)
        which.append(index)
        gains.append(gain)
        onsets.append(hit.frame)
    sounds = chooser.sounds
    onsets_a = np.asarray(onsets, dtype=np.int64)
    which_a = np.asarray(which, dtype=np.int32)
    gains_a = np.asarray(gains, dtype=np.float32)
    order = np.argsort(onsets_a, kind="stable")
    onsets_a, which_a, gains_a = onsets_a[order], which_a[order], gains_a[order]
    lengths = np.array([len(s) for s in sounds], dtype=np.int64)
    length = int(np.max(onsets_a + lengths[which_a])) if len(which_a) else 0
    end = track.end_frame(rate)
    if track.items[-1].pause:
        length = max(length, end)  # a pause after the last item is kept as silence
    loop = end if track.loopable else None
    return MixPlan(rate, onsets_a, which_a, gains_a, tuple(sounds), length, loop)


def folded_range(plan: MixPlan, start: int, stop: int) -> np.ndarray:
    """Frames start..stop of a loopable plan's file: the mix, with what rings past the end of
    the file added back from its start, as often as it wraps."""
    period = plan.loop_length
    assert period is not None
    out = mix_range(plan, start, stop)
    wrap = period
    while start + wrap < plan.length:
        out += mix_range(plan, start + wrap, stop + wrap)
        wrap += period
    return out


def _folded_blocks(
    plan: MixPlan, block_frames: int, peak_dbfs: float, normalize: bool = True
) -> Iterator[np.ndarray]:
    period = plan.loop_length
    assert period is not None
    head = min(period, plan.length - period)  # the part of the file the fold reaches
    highest = folded_peak(plan)
    scale = gain_for(highest, peak_dbfs) if normalize else np.float32(1)
    for start in range(0, period, block_frames):
        stop = min(period, start + block_frames)
        out = folded_range(plan, start, stop) if start < head else mix_range(plan, start, stop)
        out *= scale
        yield out


def folded_peak(plan: MixPlan) -> float:
    """The highest sample of the mix as written: folded onto its start if it is loopable."""
    highest = peak(plan)
    if plan.loop_length is not None:
        head = min(plan.loop_length, plan.length - plan.loop_length)
        if head > 0:
            highest = max(highest, float(np.max(np.abs(folded_range(plan, 0, head)))))
    return highest


def check_unnormalised(plan: MixPlan) -> float:
    """The peak (dBFS) of the mix left at the kit's level, or an OptionError if it would clip."""
    highest = folded_peak(plan)
    if highest > 1.0:
        raise OptionError(
            _(
                "no_normalize leaves the mix peaking at {peak:+.1f} dBFS, which would clip; leave "
                "it out (the render is then peak-normalised to {target:g} dBFS) or lower the "
                "velocities"
            ).format(peak=20 * math.log10(highest), target=PEAK_DBFS),
            option="no_normalize",
        )
    return 20 * math.log10(highest) if highest > 0 else -math.inf


def render_audio(
    played: Timeline | Track, kit: Kit | None = None, rate: int = DEFAULT_RATE
) -> np.ndarray:
    """A whole track (or one score's timeline) as a normalised float32 array (frames, 2), folded
    if loopable: the samples that a render streams to its file."""
    p = plan(played, kit, rate)
    return np.concatenate([b.copy() for b in blocks(p)] or [np.zeros((0, 2), np.float32)])
