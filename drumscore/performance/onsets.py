"""The strokes' onsets in a recording: the onset envelope (a spectral flux at ENVELOPE_RATE, fed
block by block), its peaks, and at each peak the stroke's attack, timed to the sample, with the
rules that tell a stroke from a ring, a swell, an echo, a coder's pre-echo or noise, and a flam's
grace note from its stroke."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any

import numpy as np
import soundfile as sf

from drumscore.performance.bands import stroke_bands
from drumscore.performance.recording import read_span

#: The onset envelope is found at ENVELOPE_RATE, one frame per HOP samples there (5.8 ms), from
#: spectra of ENVELOPE_FFT samples (23 ms).
ENVELOPE_RATE = 11025
HOP = 64
ENVELOPE_FFT = 256
#: Onsets closer than this are one stroke (an MP3's pre-echo stands 30–36 ms before the attack;
#: a flam's grace note 17–43 ms before its stroke; a room's first echoes 10–25 ms after).
MERGE_SECONDS = 0.08
#: A stroke's attack is sought within the onset's spectral frame (and ATTACK_SLACK_MS either
#: side) as the millisecond that rises most above the loudest of the HOLD_MS before the one
#: before it; its peak over the PEAK_SECONDS after it (a low drum in a room swells to its
#: peak 50–80 ms after its attack).
ATTACK_SLACK_MS = 2
HOLD_MS = 10
PEAK_SECONDS = 0.09
#: The ring a stroke rises from is the loudest of the RING_MS before it (a low drum's tail in a
#: room beats by more than 6 dB over ten).
RING_MS = 30
#: An onset whose peak is this far below the strokes' (the 90th percentile of the onsets'
#: peaks) is a ring or a bump, not a stroke.
QUIET_DB = 20.0
#: ...or FAINT_DB further below them where its attack clicks clearly (FAINT_EDGE_DB above the
#: ring's curvature: a stick on a soft quick stroke; a ring's bump clicks far less, if at all).
FAINT_DB = 6.0
FAINT_EDGE_DB = 24.0
#: An onset whose peak stands less than this above the recording's noise floor is noise.
ABOVE_NOISE_DB = 12.0
#: A stroke's peak stands at least this far above the sound just before it (the ring of the
#: strokes before it); a swell of a ring rises less.
RISE_DB = 6.0
#: ...or at least QUICK_DB when its click stands EDGE_DB above the ring's (the second difference
#: of the sound: a drum's ring is low, a stick's attack is not). And a stroke's attack doubles
#: the ring (SHARP_RISE), clicks (EDGE_DB) or changes the spectrum (its onset's flux at least
#: CHANGE_DB, the bands' mean rise): a room's ring swelling by 6 dB does none of them.
CHANGE_DB = 3.0
QUICK_DB = 2.0
EDGE_DB = 12.0
#: A stroke starts where the sound first rises this far from the level before it to the peak
#: of its attack's millisecond.
RISE = 0.12
#: A softer attack up to FLAM_SECONDS before a stroke, at least FLAM_DB under it, whose sound
#: fell again before the stroke, is a flam's grace note (an MP3's pre-echo does not fall).
FLAM_SECONDS = 0.05
FLAM_DB = 6.0
#: A grace note stands at least GRACE_MS before its stroke and at most GRACE_DB under it.
GRACE_MS = 10
GRACE_DB = 24.0
#: An attack at least doubles the ring before it within three milliseconds; a swell, a
#: room's echo or a ring's beating rises slower.
SHARP_RISE = 2.0
#: A flam's stroke after its grace note is also told by the energy it adds over the SURGE_MS
#: from it against the SURGE_MS before (a slow drum's body comes over tens of milliseconds).
SURGE_MS = 30
#: A flam's stroke changes the spectrum at least this share as much as its grace note did.
FLAM_CHANGE = 0.3


@dataclass(frozen=True, slots=True)
class Found:
    """The strokes found in a recording: each one's first sample, and its energy in each band."""

    starts: np.ndarray
    bands: np.ndarray
    invalid: bool = False
    #: How long (seconds) before each stroke its flam's grace note began; 0: not a flam.
    graces: np.ndarray = field(default_factory=lambda: np.zeros(0))
    #: How far (dB) the strokes (the 90th percentile of their peaks) stand above the noise
    #: floor, and how many onsets that would have been strokes were lost in the noise.
    snr_db: float = math.inf
    lost: int = 0

    @property
    def flams(self) -> np.ndarray:
        """Which strokes were played as flams (a grace note just before the stroke)."""
        return np.asarray(self.graces > 0, dtype=bool)


#: The envelope's frequency bands: edges in FFT bins at ENVELOPE_RATE (about a third of an
#: octave each, from 40 Hz to 5 kHz). Made once (a live listener makes an envelope every 5 ms).
@functools.cache
def _band_edges() -> np.ndarray:
    freqs = np.geomspace(40, 5000, 22)
    bins = np.unique(np.round(freqs / (ENVELOPE_RATE / ENVELOPE_FFT)).astype(int))
    edges = np.clip(bins, 1, ENVELOPE_FFT // 2)
    edges.flags.writeable = False
    return edges


@functools.cache
def _window() -> np.ndarray:
    """The spectra's Hann window (float64: numpy transforms it faster)."""
    window = np.hanning(ENVELOPE_FFT + 2)[1:-1]
    window.flags.writeable = False
    return window


class Envelope:
    """The onset envelope of a recording fed block by block: the recording resampled to
    ENVELOPE_RATE (soxr's streaming resampler), its log band energies frame by frame, and the
    spectral flux: the mean over bands of each band's rise (dB) above its largest level in the
    two frames before, levels more than FLOOR_DB below the loudest so far counted as that
    floor. Also the peak of every 10 ms of the recording, for its noise floor. Only the flux
    and those peaks are kept: a few bytes a frame."""

    FLOOR_DB = 60.0

    def __init__(self, rate: int, resampler: Any | None = None) -> None:
        self.resampler = resampler if resampler is not None else self.resampler_for(rate)
        # half a window of silence first, so frame f is centred on sample f × HOP
        self.pending = np.zeros(ENVELOPE_FFT // 2, dtype=np.float32)
        self.window = _window()
        self.edges = _band_edges()
        self.previous: np.ndarray | None = None  # the last two frames' levels
        self.loudest = -200.0
        self.flux: list[np.ndarray] = []
        self.tenth = max(1, rate // 100)
        self.leftover = np.zeros(0, dtype=np.float32)
        self.peaks: list[np.ndarray] = []

    @staticmethod
    def resampler_for(rate: int) -> Any | None:
        """soxr's streaming resampler from `rate` to ENVELOPE_RATE (None: none needed)."""
        import soxr

        if rate == ENVELOPE_RATE:
            return None
        return soxr.ResampleStream(rate, ENVELOPE_RATE, 1, dtype="float32", quality="HQ")

    def feed(self, block: np.ndarray) -> None:
        """One block of mono samples at the recording's rate."""
        part = np.concatenate([self.leftover, block])
        whole = len(part) // self.tenth * self.tenth
        if whole:
            self.peaks.append(np.abs(part[:whole]).reshape(-1, self.tenth).max(axis=1))
        self.leftover = part[whole:]
        low = self.resampler.resample_chunk(block) if self.resampler is not None else block
        self._frames(np.asarray(low, dtype=np.float32))

    def _frames(self, low: np.ndarray) -> None:
        data = np.concatenate([self.pending, low])
        count = 0 if len(data) < ENVELOPE_FFT else 1 + (len(data) - ENVELOPE_FFT) // HOP
        if count:
            shape = (count, ENVELOPE_FFT)
            strides = (data.strides[0] * HOP, data.strides[0])
            frames = np.lib.stride_tricks.as_strided(data, shape, strides, writeable=False)
            spectrum = np.fft.rfft(frames * self.window, axis=1)
            power = spectrum.real**2 + spectrum.imag**2
            cumulative = np.cumsum(power, axis=1)
            bands = cumulative[:, self.edges[1:] - 1] - cumulative[:, self.edges[:-1] - 1]
            levels = (10 * np.log10(bands + 1e-20)).astype(np.float32)
            # the floor follows the loudest band level so far
            running = np.maximum.accumulate(levels.max(axis=1))
            running = np.maximum(running, self.loudest)
            self.loudest = float(running[-1])
            np.maximum(levels, (running - self.FLOOR_DB)[:, None], out=levels)
            if self.previous is None:  # silence before the recording: at the floor
                self.previous = np.full((2, levels.shape[1]), running[0] - self.FLOOR_DB)
            joined = np.concatenate([self.previous, levels])
            before = np.maximum(joined[1:-1], joined[:-2])
            self.flux.append(np.maximum(levels - before, 0).mean(axis=1))
            self.previous = joined[-2:]
        self.pending = data[count * HOP :]

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """(the flux, one value per frame; the peaks of the recording's 10 ms stretches)."""
        self._frames(self._tail())
        flux = np.concatenate(self.flux) if self.flux else np.zeros(0, np.float32)
        peaks = np.concatenate(self.peaks) if self.peaks else np.zeros(0, np.float32)
        return flux.astype(np.float32), peaks

    def _tail(self) -> np.ndarray:
        """What the resampler still holds, and the silence that pads the last frames."""
        pad = np.zeros(ENVELOPE_FFT, dtype=np.float32)
        if self.resampler is None:
            return pad
        tail = self.resampler.resample_chunk(np.zeros(0, np.float32), last=True)
        return np.concatenate([np.asarray(tail, dtype=np.float32), pad])

    @classmethod
    def flux_of(cls, rate: int, samples: np.ndarray, resampler: Any | None = None) -> np.ndarray:
        """The flux of `samples` heard alone (what `feed` then `finish` give), its frames found in
        one pass: a live listener looks at its latest sound this way every few milliseconds,
        with the one `resampler` (resampler_for) it keeps, cleared after each look, rather than
        one made for each."""
        envelope = cls(rate, resampler)
        low = envelope.resampler.resample_chunk(samples) if envelope.resampler else samples
        try:
            envelope._frames(np.concatenate([np.asarray(low, dtype=np.float32), envelope._tail()]))
        finally:
            if envelope.resampler is not None:
                envelope.resampler.clear()
        flux = np.concatenate(envelope.flux) if envelope.flux else np.zeros(0, np.float32)
        return flux.astype(np.float32)


def pick_peaks(flux: np.ndarray, height: float | None = None) -> np.ndarray:
    """The frames where the flux peaks: the largest within ±MERGE_SECONDS / 2, above the mean
    of the second around it by a sixth of the flux's typical stroke height (the 90th percentile
    of its peaks, peak_tops; or `height`, that of a longer flux a part of which this is), and
    above a twelfth of that height."""
    if len(flux) < 3:
        return np.zeros(0, dtype=np.int64)
    local = _local_tops(flux)
    if height is None:
        tops = flux[local & (flux > 0)]
        if len(tops) == 0:
            return np.zeros(0, dtype=np.int64)
        # (one peak's percentile is its own height: a live look often holds one)
        height = float(tops[0]) if len(tops) == 1 else float(np.percentile(tops, 90))
    context, kernel = _mean_kernel()
    # one far higher peak (sound out of silence) does not raise the bar around it
    capped = np.minimum(flux, height)
    edges = np.empty(len(capped) + 2 * context, dtype=capped.dtype)  # np.pad's "edge", faster
    edges[:context], edges[context:-context], edges[-context:] = capped[0], capped, capped[-1]
    mean = np.convolve(edges, kernel, mode="valid")
    keep = local & (flux > mean + height / 6) & (flux > height / 12)
    return np.flatnonzero(keep).astype(np.int64)


def peak_tops(flux: np.ndarray) -> np.ndarray:
    """The frames where the flux peaks above zero (the largest within ±MERGE_SECONDS / 2):
    pick_peaks takes the typical stroke height from the flux there."""
    if len(flux) < 3:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(_local_tops(flux) & (flux > 0)).astype(np.int64)


@functools.cache
def _mean_kernel() -> tuple[int, np.ndarray]:
    """pick_peaks' second around each frame (frames either side) and its mean's kernel."""
    context = round(ENVELOPE_RATE / HOP)
    kernel = np.ones(2 * context + 1) / (2 * context + 1)
    kernel.flags.writeable = False
    return context, kernel


def _local_tops(flux: np.ndarray) -> np.ndarray:
    """Whether each frame is the largest within ±MERGE_SECONDS / 2 (a shifted maximum for
    each frame of the reach: a live listener's flux is a few dozen frames, many times a second)."""
    reach = max(1, round(MERGE_SECONDS / 2 * ENVELOPE_RATE / HOP))
    n = len(flux)
    padded = np.full(n + 2 * reach, -1.0, dtype=flux.dtype)
    padded[reach : reach + n] = flux
    top = padded[:n].copy()
    for shift in range(1, 2 * reach + 1):
        np.maximum(top, padded[shift : shift + n], out=top)
    return np.asarray(flux >= top)


@dataclass(frozen=True, slots=True)
class Onset:
    """An attack found near an onset frame: its first sample, how far it rose above the ring
    before it (the peak of its first milliseconds less that ring), the peak over PEAK_SECONDS
    from it, the ring: the peak of the HOLD_MS before it, and how many samples before it a
    flam's grace note began (0: not a flam's stroke)."""

    start: int
    rise: float
    peak: float
    ring: float
    grace: int = 0
    #: The peak of the RING_MS before it: what a stroke's peak must stand RISE_DB above.
    before: float = 0.0
    #: The spectral flux of its onset frame.
    change: float = 0.0
    #: Whether it at least doubled the ring within CLIMB milliseconds (SHARP_RISE).
    sharp: bool = False
    #: How many times the peak of its first milliseconds' curvature (the sound's second
    #: difference: its high frequencies, a stick's click) stands above that of the ring before.
    edge: float = 0.0

    @property
    def struck(self) -> bool:
        """Whether it is an attack of its own: it doubles the ring within three milliseconds
        (sharp), clicks (EDGE_DB) or changes the spectrum (CHANGE_DB); a room's ring swelling
        by 6 dB, or a low drum's body swelling after its attack, does none of them."""
        return self.sharp or self.edge >= 10 ** (EDGE_DB / 20) or self.change >= CHANGE_DB


def _window_max(flux: np.ndarray, f0: np.ndarray, f1: np.ndarray) -> np.ndarray:
    """The largest of flux[f0[i]:f1[i]] for each i (0 for an empty span; the flux is never
    below 0), a few frames each: found for all at once rather than one span at a time."""
    flux = np.asarray(flux)
    if len(f0) == 0:
        return np.zeros(0, dtype=flux.dtype)
    spans = f1 - f0
    longest = max(0, int(spans.max()))
    padded = np.concatenate([flux, np.zeros(longest + 1, dtype=flux.dtype)])
    out = np.zeros(len(f0), dtype=flux.dtype)
    for j in range(longest):
        np.maximum(out, np.where(j < spans, padded[f0 + j], 0), out=out)
    return out


def _reading(rate: int, lookahead: int | None) -> tuple[float, int, int, int, int, int]:
    """How strokes_at reads around a candidate at `rate`: the samples a frame of the envelope
    (scale), a millisecond (width), the attack window's reach either side of the frame's
    centre, the ring before it, and what it reads past it (PEAK_SECONDS, FLAM_SECONDS; less
    with a `lookahead`)."""
    scale = rate / ENVELOPE_RATE
    width = max(1, round(rate / 1000))
    reach = round(ENVELOPE_FFT / 2 * scale) + ATTACK_SLACK_MS * width
    before = (HOLD_MS + 2) * width
    ahead = round(PEAK_SECONDS * rate)
    flam = round(FLAM_SECONDS * rate)
    if lookahead is not None and lookahead < flam + ahead:
        flam = max(0, lookahead - ahead)
        ahead = lookahead - flam
    return scale, width, reach, before, ahead, flam


def onset_at(
    audio: sf.SoundFile, frame: int, flux: np.ndarray, lookahead: int | None = None
) -> tuple[Onset, int, int]:
    """A candidate onset's attack, as strokes_at reads it; and how far it read: the sample
    after the last it read, and the frame of the flux after the last (a live listener keeps
    the attack of a stroke whose sound and flux it has heard for good)."""
    scale, width, reach, before, ahead, flam = _reading(int(audio.samplerate), lookahead)
    centre = round(int(frame) * HOP * scale)
    lo = centre - reach - before - RING_MS * width
    hi = centre + reach + flam + ahead
    span = read_span(audio, lo, hi)
    # the spectral change at each millisecond of the span: the largest flux of the frames
    # centred from 12 ms before it to 3 ms after (those that first hold it)
    blocks = (lo + (np.arange(len(span) // width) + 0.5) * width) / (HOP * scale)
    f0 = np.clip(np.floor(blocks - 0.012 * ENVELOPE_RATE / HOP).astype(int), 0, len(flux))
    ends = np.ceil(blocks + 0.003 * ENVELOPE_RATE / HOP).astype(int) + 1
    f1 = np.clip(ends, 0, len(flux))
    change = _window_max(flux, f0, f1)
    need = FLAM_CHANGE * float(flux[int(frame)])
    skip = before + RING_MS * width
    onset = attack(span, skip, skip + 2 * reach, width, flam, change >= need)
    read = max(int(ends.max(initial=0)), int(frame) + 1)
    return replace(onset, start=lo + onset.start, change=float(flux[int(frame)])), hi, read


def strokes_at(
    audio: sf.SoundFile,
    candidates: np.ndarray,
    peaks: np.ndarray,
    flux: np.ndarray,
    lookahead: int | None = None,
    onsets: list[Onset] | None = None,
) -> Found:
    """Each candidate onset read at the recording's own rate: its attack (attack); onsets
    within MERGE_SECONDS taken for one stroke (_main); strokes far quieter than the
    strokes (QUIET_DB), hardly above the noise floor (ABOVE_NOISE_DB) or hardly above the ring
    before them (RISE_DB) dropped, and onsets whose peak is the next one's attack.

    Past each onset's attack window it reads FLAM_SECONDS (a flam's main stroke) and
    PEAK_SECONDS (the stroke's peak); `lookahead` (samples) reads less, as a stroke heard live
    is first judged (performance.stream): the peak over what it allows, a flam sought only in
    what it allows past PEAK_SECONDS. `onsets`: the candidates' onsets already read (onset_at
    with the same flux and lookahead), not read again."""
    rate = int(audio.samplerate)
    ahead = _reading(rate, lookahead)[4]  # what each onset's peak is sought over
    if onsets is None:
        onsets = [onset_at(audio, int(frame), flux, lookahead)[0] for frame in candidates]
    else:
        onsets = list(onsets)
    onsets.sort(key=lambda o: o.start)
    merge = round(MERGE_SECONDS * rate)
    groups: list[list[Onset]] = []
    for onset in onsets:
        if groups and onset.start - groups[-1][0].start < merge:
            groups[-1].append(onset)
        else:
            groups.append([onset])
    chosen = [_main(group) for group in groups]
    levels = np.asarray([o.peak for o in chosen])
    floor = float(np.percentile(peaks, 20)) if len(peaks) else 0.0
    loud = float(np.percentile(levels, 90)) if len(levels) else 0.0
    rise = 10 ** (RISE_DB / 20)
    # an onset whose peak is the next one's attack (within the PEAK_SECONDS it is sought
    # over) is the sound before that stroke, not one
    before_next = [
        b.start - a.start < ahead and b.rise >= 0.5 * a.peak for a, b in pairwise(chosen)
    ] + [False]
    # a stroke soon after a loud one may stand less than RISE_DB above its ring: its attack's
    # click tells it (EDGE_DB above the ring's curvature) where it rises at least QUICK_DB
    edge, quick = 10 ** (EDGE_DB / 20), 10 ** (QUICK_DB / 20)
    # ...and one that clicks clearly may stand FAINT_DB further under the strokes (a soft quick
    # stroke on the softer drum)
    quiet, faint = loud * 10 ** (-QUIET_DB / 20), loud * 10 ** (-(QUIET_DB + FAINT_DB) / 20)
    plausible = [
        (o.peak > quiet or (o.edge >= 10 ** (FAINT_EDGE_DB / 20) and o.peak > faint))
        and (o.peak >= o.before * rise or (o.edge >= edge and o.peak >= o.before * quick))
        and o.struck
        and not early
        for o, early in zip(chosen, before_next, strict=True)
    ]
    noise = floor * 10 ** (ABOVE_NOISE_DB / 20)
    keep = [p and o.peak > noise for o, p in zip(chosen, plausible, strict=True)]
    starts = np.asarray([o.start for o, k in zip(chosen, keep, strict=True) if k], np.int64)
    graces = np.asarray([o.grace / rate for o, k in zip(chosen, keep, strict=True) if k], float)
    snr = 20 * math.log10(loud / floor) if floor > 0 and loud > 0 else math.inf
    # the strokes lost in the noise: those loud enough to be strokes anyway
    lost = sum(
        p and not k and o.peak > quiet for o, p, k in zip(chosen, plausible, keep, strict=True)
    )
    return Found(starts, stroke_bands(audio, starts), graces=graces, snr_db=snr, lost=lost)


def _main(group: list[Onset]) -> Onset:
    """The stroke of onsets close together: the first, unless a later attack (struck) rises
    FLAM_DB more (a flam's stroke after its grace note, an attack after a coder's pre-echo; not
    a low drum's swell after its attack, which is no attack of its own, nor a room's echo)."""
    main = group[0]
    for onset in group[1:]:
        if onset.struck and onset.rise >= 10 ** (FLAM_DB / 20) * main.rise:
            main = onset
    return main


def _surge(power: np.ndarray, at: int, stop: int) -> float:
    """How much the mean energy of the SURGE_MS from millisecond `at` (up to `stop`) stands above
    that of the SURGE_MS before it."""
    after = power[at : max(at + 1, min(stop, at + SURGE_MS))]
    before = power[max(0, at - SURGE_MS) : at]
    return float(after.mean()) - (float(before.mean()) if len(before) else 0.0)


def attack(
    y: np.ndarray, lo: int, hi: int, width: int, later: int = 0, changed: np.ndarray | None = None
) -> Onset:
    """The attack of `y` whose first millisecond lies between samples lo and hi, or up to
    `later` samples after hi when one that rises FLAM_DB more stands there where the spectrum
    `changed` (for each millisecond; a flam's stroke after its grace note, not a low drum's
    swell). Each millisecond is judged by how far its peak, or that of the two after it (a slow
    attack), rises above the ring: the loudest millisecond of the HOLD_MS before the one before
    it. The attack is the millisecond that rises most of those that at least double the ring
    (SHARP_RISE), else (an attack out of a loud ring) the one that rises most between lo and
    hi. So a low drum swelling to its peak long after its attack keeps its attack: its swell
    never doubles over a few milliseconds.

    The stroke's first sample is the first of the attack to rise RISE of the way from the ring
    to the attack's peak; a lone spike of noise (a coder's pre-echo) before it rises less and
    is not taken. A softer sharp attack up to `later` before it, at least FLAM_DB under it,
    whose sound fell again before the stroke, is a flam's grace note (`grace`: how many samples
    before the stroke it starts)."""
    count = len(y) // width
    tops = np.abs(y[: count * width]).reshape(count, width).max(axis=1).astype(np.float64)
    # the ring before each millisecond: the loudest of the HOLD_MS before the one before it
    padded = np.concatenate([np.zeros(HOLD_MS + 1), tops])
    ring = np.lib.stride_tricks.sliding_window_view(padded, HOLD_MS).max(axis=1)[:count]
    climb = np.lib.stride_tricks.sliding_window_view(np.concatenate([tops, np.zeros(2)]), 3).max(
        axis=1
    )[:count]
    gain = climb - ring
    first, last = max(1, lo // width), min(count, -(-hi // width))
    end = min(count, -(-(hi + later) // width))
    if last <= first:
        return Onset(lo, 0.0, 0.0, 0.0)
    # each millisecond's click against the ring's: the peak of the sound's second difference
    # (its high frequencies, a stick's click) over it and the two after, against that over the
    # HOLD_MS before the one before it
    curve = np.abs(
        np.diff(y[: count * width], n=2, prepend=y[:1], append=y[count * width - 1 :][:1])
    )
    bends = curve.reshape(count, width).max(axis=1).astype(np.float64)
    padded = np.concatenate([np.zeros(HOLD_MS + 1), bends])
    bent = np.lib.stride_tricks.sliding_window_view(padded, HOLD_MS).max(axis=1)[:count]
    ahead = np.lib.stride_tricks.sliding_window_view(np.concatenate([bends, np.zeros(2)]), 3)
    clicks = ahead.max(axis=1)[:count] / np.maximum(bent, 1e-9)
    rises = (climb >= SHARP_RISE * ring) & (gain > 0)
    sharp = rises.copy()
    sharp[:first] = False
    sharp[end:] = False
    # an attack that clicks (EDGE_DB) as it rises is taken first: a low drum's body swelling in
    # a room may double its ring without one
    struck = (gain > 0) & (clicks >= 10 ** (EDGE_DB / 20))
    if struck[first:last].any():
        best = first + int(np.argmax(np.where(struck[first:last], gain[first:last], -np.inf)))
    elif sharp[first:last].any():
        best = first + int(np.argmax(np.where(sharp[first:last], gain[first:last], -np.inf)))
    else:
        best = first + int(np.argmax(gain[first:last]))
    later_ones = sharp | struck
    later_ones[:last] = False
    later_ones[end:] = False
    if later_ones.any():
        after = int(np.argmax(np.where(later_ones, gain, -np.inf)))
        # it is the stroke where the sound before it never fell and it doubles the ring and
        # rises FLAM_DB more (an attack after a coder's pre-echo); or where the spectrum changed
        # with it (or the sound held) and it either rises FLAM_DB more, doubling the ring and
        # its click, or clicks (EDGE_DB) and brings FLAM_DB more energy over the SURGE_MS from
        # it than the first did before it: in a room a grace note's echo rings as loud as a
        # slow tom's or kick's first milliseconds, whose body comes over tens of them. A low
        # drum's body swelling 50-80 ms after its attack in a room never clicks.
        between = tops[best + 3 : after - 1]
        held = len(between) == 0 or float(np.median(between)) >= 0.5 * float(climb[best])
        new = changed is None or bool(changed[after])
        power = np.square(y[: count * width], dtype=np.float64).reshape(count, width).mean(axis=1)
        louder = gain[after] >= 10 ** (FLAM_DB / 20) * gain[best]
        surged = _surge(power, after, count) >= 10 ** (FLAM_DB / 10) * _surge(power, best, after)
        sharper = louder and sharp[after] and clicks[after] >= SHARP_RISE
        if (held and louder and sharp[after]) or (
            (new or held) and (sharper or (surged and struck[after]))
        ):
            best = after
    if gain[best] <= 0:  # nothing rises here
        return Onset(lo, 0.0, 0.0, 0.0)
    # the attack's own start: where the climb began (back while the level falls)
    at = best
    while at > max(1, best - 3) and tops[at - 1] > ring[best] and tops[at - 1] < tops[at]:
        at -= 1
    base = float(ring[best])
    top = float(climb[best])
    threshold = base + RISE * (top - base)
    piece = np.abs(y[(at - 1) * width : (best + 3) * width])
    over = np.flatnonzero(piece > threshold)
    start = (at - 1) * width + (int(over[0]) if len(over) else width)
    stop = start + max(0, len(y) - hi - later)
    peak = float(np.abs(y[start:stop]).max()) if stop > start else 0.0
    # a grace note: a sharp attack GRACE_MS to `later` before, FLAM_DB to GRACE_DB softer,
    # whose sound fell before this one (a coder's pre-echo holds its level up to the attack)
    reach = max(1, best - -(-later // width))
    near = slice(reach, max(reach, at - GRACE_MS))
    size = gain[near]
    graces = rises[near] & (size <= gain[best] * 10 ** (-FLAM_DB / 20))
    graces &= size >= gain[best] * 10 ** (-GRACE_DB / 20)
    grace = 0
    if graces.any() and base < float(climb[near][graces].max()):
        # where the grace note starts, as a stroke does: its first sample RISE of the way up
        g = near.start + int(np.argmax(graces))
        level = float(ring[g]) + RISE * float(climb[g] - ring[g])
        piece = np.abs(y[max(0, g - 1) * width : (g + 3) * width])
        over = np.flatnonzero(piece > level)
        grace = max(1, start - max(0, g - 1) * width - (int(over[0]) if len(over) else width))
    behind = tops[max(0, at - 1 - RING_MS) : max(0, at - 1)]
    edge = float(clicks[best])
    return Onset(
        start,
        max(0.0, top - base),
        peak,
        base,
        grace,
        float(behind.max(initial=0.0)),
        sharp=bool(rises[best]),
        edge=edge,
    )
