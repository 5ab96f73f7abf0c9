"""The strokes of a recording: onsets found by a spectral-flux detector, one per stroke and
timed to the sample at its attack, and each stroke's drum told by its sound.

The recording is read twice, block by block, so memory stays small however long it is: once to
find the onset envelope (at ENVELOPE_RATE), once to read each candidate stroke's own samples.
Only numpy, soundfile and soxr are used.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path

import numpy as np
import soundfile as sf

from drumscore.errors import DrumscoreError, NoisyPerformanceError, PerformanceError
from drumscore.files.audio import seekable, unreadable
from drumscore.files.format_choice import suffixes
from drumscore.files.headers import check_audio_header
from drumscore.files.reading import open_input
from drumscore.i18n import _, list_text, ngettext
from drumscore.model import Drum
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.render.kit import Kit, builtin_kit

#: The onset envelope is found at ENVELOPE_RATE, one frame per HOP samples there (5.8 ms), from
#: spectra of ENVELOPE_FFT samples (23 ms).
ENVELOPE_RATE = 11025
HOP = 64
ENVELOPE_FFT = 256
#: The recording is read in blocks of this many frames.
BLOCK = 1 << 16
#: A stroke's sound is judged over its first STROKE_SECONDS (2048 samples at 44.1 kHz).
STROKE_SECONDS = 0.0464
#: The longest recording checked (README, "Limits").
MAX_SECONDS = 3 * 60 * 60
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
#: An onset whose peak stands less than this above the recording's noise floor is noise.
ABOVE_NOISE_DB = 12.0
#: A recording is too noisy to judge when this share of the onsets that would be strokes (at
#: least two) were lost in its noise.
LOST_SHARE = 0.2
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
#: A flam's stroke changes the spectrum at least this share as much as its grace note did.
FLAM_CHANGE = 0.3
#: Bands of the spectra that tell the drums apart; a band weaker than BAND_FLOOR of the
#: strongest counts as that floor (30 dB down), so the noise in bands the drum hardly sounds
#: does not decide.
BANDS = 40
BAND_FLOOR = 1e-3
#: How the drums of a recording are told apart: "kit" by the kit's samples when the strokes
#: sound like them, else by their own two sounds; "split" always by their own two sounds.
DRUM_METHODS = ("kit", "split")
#: A drum told with less than this margin between the two is marked doubtful.
DOUBT_MARGIN = 0.1
#: The strokes sound like the kit when their median distance (dB, the RMS over the bands of the
#: difference of spectral shapes) to the nearest kit sample is within this.
KIT_DISTANCE_DB = 1.5
#: Two groups of strokes are two drums when their means stand at least SEPARATION times the
#: strokes' spread within a group apart; a stroke within DOUBT_SHARE of half that distance of
#: the middle is doubtful.
SEPARATION = 4.0
DOUBT_SHARE = 0.3


def read_audio(
    path: str | Path,
    *,
    kit: Kit | None = None,
    drums: str = "kit",
    count_sound: bool = False,
    click_velocity: int | None = None,
) -> Performance:
    """The strokes of a recording (WAV, FLAC, OGG): when each starts, and on which drum.

    `drums` is "kit" (each stroke named after the nearest sample of `kit`, default the built-in
    kit, when the strokes sound like it; else as by "split") or "split" (the strokes put in two
    groups by their sound; the lower is 鼙, after the 釋文's 「其聲下」, and the check may swap
    the names if the score says so).

    `count_sound` says the take holds count strokes or clicks (the kit's count sound): the
    onsets that sound like it are marked as such (HeardStroke.count) and left out of telling
    the drums apart. `click_velocity` is its clicks' velocity when it has clicks, which sound
    with its strokes: a stroke heard with its click is told by the two sounds together.
    """
    if drums not in DRUM_METHODS:
        raise PerformanceError(
            _("drums {drums!r} is not a way to tell the drums apart; use kit or split").format(
                drums=drums
            ),
            option="drums",
        )
    shown = str(path)
    try:
        # libsndfile reads the descriptor itself: many times faster than through Python
        with (
            open_input(path, "performance") as file,
            sf.SoundFile(file.fileno(), closefd=False) as audio,
        ):
            check_audio_header(  # rate, channels, frames: before they size anything
                str(path),
                audio.samplerate,
                audio.channels,
                audio.frames,
                (str(audio.format), str(audio.subtype)),
                os.fstat(file.fileno()).st_size,
            )
            rate = int(audio.samplerate)
            frames = audio.frames
            if frames / rate > MAX_SECONDS:
                raise PerformanceError(
                    _(
                        "performance {path!r} lasts {minutes:,.1f} minutes, over the limit of "
                        "{limit} minutes; check it in parts"
                    ).format(path=shown, minutes=frames / rate / 60, limit=MAX_SECONDS // 60)
                )
            with seekable(audio) as passes:  # find_strokes reads it twice
                found = find_strokes(passes)
    except (sf.LibsndfileError, RuntimeError, OSError, ValueError, TypeError) as exc:
        if isinstance(exc, DrumscoreError):
            raise
        raise PerformanceError(
            _(
                "performance {path!r} cannot be read as audio ({reason}); give a recording "
                "({audio}) or a MIDI file ({midi})"
            ).format(
                path=shown, reason=unreadable(exc), audio=suffixes("audio"), midi=suffixes("midi")
            )
        ) from None
    if found.invalid:
        raise PerformanceError(
            _("performance {path!r} holds invalid (NaN or infinite) samples").format(path=shown)
        )
    if found.lost >= 2 and found.lost >= LOST_SHARE * (found.lost + len(found.starts)):
        raise NoisyPerformanceError(
            ngettext(
                "performance {path!r} is too noisy to judge: its strokes stand {snr:.0f} dB "
                "above its noise, and {n} onset was lost in it (a stroke needs {need:.0f} dB); "
                "record nearer the drums or in a quieter place, or turn the recorder's noise "
                "reduction on",
                "performance {path!r} is too noisy to judge: its strokes stand {snr:.0f} dB "
                "above its noise, and {n} onsets were lost in it (a stroke needs {need:.0f} dB); "
                "record nearer the drums or in a quieter place, or turn the recorder's noise "
                "reduction on",
                found.lost,
            ).format(path=shown, snr=found.snr_db, n=found.lost, need=ABOVE_NOISE_DB),
            snr_db=found.snr_db,
            lost=found.lost,
        )
    return performance_of(found, str(path), rate, frames, kit, drums, count_sound, click_velocity)


def performance_of(
    found: Found,
    path: str,
    rate: int,
    frames: int,
    kit: Kit | None = None,
    drums: str = "kit",
    count_sound: bool = False,
    click_velocity: int | None = None,
) -> Performance:
    """The performance of the strokes found in `frames` samples at `rate` (from a file, or
    heard as it was played: performance.stream), their drums told as read_audio tells them."""
    if len(found.starts) == 0:
        raise PerformanceError(
            _(
                "performance {path!r} holds no strokes (no onsets found in {seconds:.1f} s of "
                "sound); give a recording of the drums, not silence"
            ).format(path=str(path), seconds=frames / rate)
        )
    told = tell_drums(
        found.bands,
        rate,
        kit or builtin_kit(),
        drums,
        count_sound=count_sound,
        click_velocity=click_velocity,
    )
    flams = found.flams if len(found.flams) else np.zeros(len(found.starts), dtype=bool)
    strokes = tuple(
        HeardStroke(float(s) / rate, d, bool(q), bool(c), bool(f))
        for s, d, q, c, f in zip(
            found.starts, told.drums, told.doubtful, told.counts, flams, strict=True
        )
    )
    return Performance(
        str(path),
        "audio",
        strokes,
        frames / rate,
        told.how,
        told.swappable,
        (*told.notes, *flam_notes([s.time for s in strokes if s.flam])),
        told.apart,
    )


def flam_notes(times: Sequence[float]) -> tuple[str, ...]:
    """The report's note on the flams heard (their strokes' times), if any."""
    if not times:
        return ()
    at = list_text([f"{t:.3f} s" for t in times[:6]] + (["…"] if len(times) > 6 else []))
    return (
        ngettext(
            "{n} flam (at {at}): a grace note just before the stroke, which is timed at its "
            "main stroke",
            "{n} flams (at {at}): a grace note just before each stroke, which is timed at its "
            "main stroke",
            len(times),
        ).format(n=len(times), at=at),
    )


@dataclass(frozen=True, slots=True)
class Found:
    """The strokes found in a recording: each one's first sample, and its energy in each band."""

    starts: np.ndarray
    bands: np.ndarray
    invalid: bool = False
    #: Which strokes were played as flams (a grace note just before the stroke).
    flams: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    #: How far (dB) the strokes (the 90th percentile of their peaks) stand above the noise
    #: floor, and how many onsets that would have been strokes were lost in the noise.
    snr_db: float = math.inf
    lost: int = 0


def find_strokes(audio: sf.SoundFile) -> Found:
    """The strokes of an open recording, read in two passes of blocks (never whole)."""
    rate = int(audio.samplerate)
    envelope = Envelope(rate)
    for block in blocks(audio):
        if not np.all(np.isfinite(block)):
            return Found(np.zeros(0, np.int64), np.zeros((0, 1)), invalid=True)
        envelope.feed(block)
    flux, peaks = envelope.finish()
    candidates = pick_peaks(flux)
    if len(candidates) == 0:
        return Found(np.zeros(0, np.int64), np.zeros((0, 1)))
    return strokes_at(audio, candidates, peaks, flux)


def blocks(audio: sf.SoundFile, start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
    """The recording's frames start…stop as mono float32 blocks (the channels' mean). PCM is
    read as whole numbers, which libsndfile gives several times faster than floats."""
    pcm = str(audio.subtype).startswith("PCM")
    dtype = "int32" if pcm else "float32"
    scale = np.float32((2.0**-31 if pcm else 1.0) / audio.channels)
    stop = audio.frames if stop is None else min(stop, audio.frames)
    audio.seek(start)
    left = stop - start
    while left > 0:
        block = audio.read(min(BLOCK, left), dtype=dtype, always_2d=True)
        if len(block) == 0:
            break
        left -= len(block)
        mono = block[:, 0].astype(np.float32)
        for channel in range(1, block.shape[1]):
            mono += block[:, channel]
        mono *= scale
        yield mono


def read_span(audio: sf.SoundFile, start: int, stop: int) -> np.ndarray:
    """Mono samples start…stop of the recording, zeros where they fall outside it."""
    lo, hi = max(0, start), min(audio.frames, stop)
    out = np.zeros(max(0, stop - start), dtype=np.float32)
    if hi > lo:
        data = np.concatenate(list(blocks(audio, lo, hi)) or [np.zeros(0, np.float32)])
        out[lo - start : lo - start + len(data)] = data
    return out


#: The envelope's frequency bands: edges in FFT bins at ENVELOPE_RATE (about a third of an
#: octave each, from 40 Hz to 5 kHz).
def _band_edges() -> np.ndarray:
    freqs = np.geomspace(40, 5000, 22)
    bins = np.unique(np.round(freqs / (ENVELOPE_RATE / ENVELOPE_FFT)).astype(int))
    return np.clip(bins, 1, ENVELOPE_FFT // 2)


class Envelope:
    """The onset envelope of a recording fed block by block: the recording resampled to
    ENVELOPE_RATE (soxr's streaming resampler), its log band energies frame by frame, and the
    spectral flux: the mean over bands of each band's rise (dB) above its largest level in the
    two frames before, levels more than FLOOR_DB below the loudest so far counted as that
    floor. Also the peak of every 10 ms of the recording, for its noise floor. Only the flux
    and those peaks are kept: a few bytes a frame."""

    FLOOR_DB = 60.0

    def __init__(self, rate: int) -> None:
        import soxr

        self.resampler = (
            soxr.ResampleStream(rate, ENVELOPE_RATE, 1, dtype="float32", quality="HQ")
            if rate != ENVELOPE_RATE
            else None
        )
        # half a window of silence first, so frame f is centred on sample f × HOP
        self.pending = np.zeros(ENVELOPE_FFT // 2, dtype=np.float32)
        self.window = np.hanning(ENVELOPE_FFT + 2)[1:-1]  # float64: numpy transforms it faster
        self.edges = _band_edges()
        self.previous: np.ndarray | None = None  # the last two frames' levels
        self.loudest = -200.0
        self.flux: list[np.ndarray] = []
        self.tenth = max(1, rate // 100)
        self.leftover = np.zeros(0, dtype=np.float32)
        self.peaks: list[np.ndarray] = []

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
        if self.resampler is not None:
            tail = self.resampler.resample_chunk(np.zeros(0, np.float32), last=True)
            self._frames(np.asarray(tail, dtype=np.float32))
        self._frames(np.zeros(ENVELOPE_FFT, dtype=np.float32))  # the last frames, padded
        flux = np.concatenate(self.flux) if self.flux else np.zeros(0, np.float32)
        peaks = np.concatenate(self.peaks) if self.peaks else np.zeros(0, np.float32)
        return flux.astype(np.float32), peaks


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
        height = float(np.percentile(tops, 90))
    context = round(ENVELOPE_RATE / HOP)
    kernel = np.ones(2 * context + 1) / (2 * context + 1)
    # one far higher peak (sound out of silence) does not raise the bar around it
    capped = np.minimum(flux, height)
    mean = np.convolve(np.pad(capped, context, mode="edge"), kernel, mode="valid")
    keep = local & (flux > mean + height / 6) & (flux > height / 12)
    return np.flatnonzero(keep).astype(np.int64)


def peak_tops(flux: np.ndarray) -> np.ndarray:
    """The frames where the flux peaks above zero (the largest within ±MERGE_SECONDS / 2):
    pick_peaks takes the typical stroke height from the flux there."""
    if len(flux) < 3:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(_local_tops(flux) & (flux > 0)).astype(np.int64)


def _local_tops(flux: np.ndarray) -> np.ndarray:
    reach = max(1, round(MERGE_SECONDS / 2 * ENVELOPE_RATE / HOP))
    padded = np.pad(flux, reach, constant_values=-1.0)
    windows = np.lib.stride_tricks.sliding_window_view(padded, 2 * reach + 1)
    return np.asarray(flux >= windows.max(axis=1))


@dataclass(frozen=True, slots=True)
class Onset:
    """An attack found near an onset frame: its first sample, how far it rose above the ring
    before it (the peak of its first milliseconds less that ring), the peak over PEAK_SECONDS
    from it, the ring: the peak of the HOLD_MS before it, and whether it is a flam's stroke."""

    start: int
    rise: float
    peak: float
    ring: float
    grace: bool = False
    #: The peak of the RING_MS before it: what a stroke's peak must stand RISE_DB above.
    before: float = 0.0
    #: The spectral flux of its onset frame.
    change: float = 0.0
    #: Whether it at least doubled the ring within CLIMB milliseconds (SHARP_RISE).
    sharp: bool = False
    #: How many times the peak of its first milliseconds' curvature (the sound's second
    #: difference: its high frequencies, a stick's click) stands above that of the ring before.
    edge: float = 0.0


def strokes_at(
    audio: sf.SoundFile,
    candidates: np.ndarray,
    peaks: np.ndarray,
    flux: np.ndarray,
    lookahead: int | None = None,
) -> Found:
    """Each candidate onset read at the recording's own rate: its attack (_attack); onsets
    within MERGE_SECONDS taken for one stroke (_main); strokes far quieter than the
    strokes (QUIET_DB), hardly above the noise floor (ABOVE_NOISE_DB) or hardly above the ring
    before them (RISE_DB) dropped, and onsets whose peak is the next one's attack.

    Past each onset's attack window it reads FLAM_SECONDS (a flam's main stroke) and
    PEAK_SECONDS (the stroke's peak); `lookahead` (samples) reads less, as a stroke heard live
    is first judged (performance.stream): the peak over what it allows, a flam sought only in
    what it allows past PEAK_SECONDS."""
    rate = int(audio.samplerate)
    scale = rate / ENVELOPE_RATE
    width = max(1, round(rate / 1000))
    reach = round(ENVELOPE_FFT / 2 * scale) + ATTACK_SLACK_MS * width
    before = (HOLD_MS + 2) * width
    ahead = round(PEAK_SECONDS * rate)
    flam = round(FLAM_SECONDS * rate)
    if lookahead is not None and lookahead < flam + ahead:
        flam = max(0, lookahead - ahead)
        ahead = lookahead - flam
    onsets: list[Onset] = []
    for frame in candidates:
        centre = round(int(frame) * HOP * scale)
        lo = centre - reach - before - RING_MS * width
        span = read_span(audio, lo, centre + reach + flam + ahead)
        # the spectral change at each millisecond of the span: the largest flux of the frames
        # centred from 12 ms before it to 3 ms after (those that first hold it)
        blocks = (lo + (np.arange(len(span) // width) + 0.5) * width) / (HOP * scale)
        f0 = np.clip(np.floor(blocks - 0.012 * ENVELOPE_RATE / HOP).astype(int), 0, len(flux))
        f1 = np.clip(np.ceil(blocks + 0.003 * ENVELOPE_RATE / HOP).astype(int) + 1, 0, len(flux))
        change = np.asarray([flux[a:b].max(initial=0.0) for a, b in zip(f0, f1, strict=True)])
        need = FLAM_CHANGE * float(flux[int(frame)])
        skip = before + RING_MS * width
        onset = _attack(span, skip, skip + 2 * reach, width, flam, change >= need)
        onsets.append(replace(onset, start=lo + onset.start, change=float(flux[int(frame)])))
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
    lowest = max(loud * 10 ** (-QUIET_DB / 20), floor * 10 ** (ABOVE_NOISE_DB / 20))
    rise = 10 ** (RISE_DB / 20)
    # an onset whose peak is the next one's attack (within the PEAK_SECONDS it is sought
    # over) is the sound before that stroke, not one
    before_next = [
        b.start - a.start < ahead and b.rise >= 0.5 * a.peak for a, b in pairwise(chosen)
    ] + [False]
    # a stroke soon after a loud one may stand less than RISE_DB above its ring: its attack's
    # click tells it (EDGE_DB above the ring's curvature) where it rises at least QUICK_DB
    edge, quick = 10 ** (EDGE_DB / 20), 10 ** (QUICK_DB / 20)
    plausible = [
        o.peak > loud * 10 ** (-QUIET_DB / 20)
        and (o.peak >= o.before * rise or (o.edge >= edge and o.peak >= o.before * quick))
        and (o.sharp or o.edge >= edge or o.change >= CHANGE_DB)
        and not early
        for o, early in zip(chosen, before_next, strict=True)
    ]
    keep = [p and o.peak > lowest for o, p in zip(chosen, plausible, strict=True)]
    starts = np.asarray([o.start for o, k in zip(chosen, keep, strict=True) if k], np.int64)
    flammed = np.asarray([o.grace for o, k in zip(chosen, keep, strict=True) if k], dtype=bool)
    snr = 20 * math.log10(loud / floor) if floor > 0 and loud > 0 else math.inf
    lost = sum(plausible) - sum(keep)
    return Found(starts, stroke_bands(audio, starts), flams=flammed, snr_db=snr, lost=lost)


def _main(group: list[Onset]) -> Onset:
    """The stroke of onsets close together: the first, unless a later one rises FLAM_DB more
    (a flam's stroke after its grace note, an attack after a coder's pre-echo; not a low
    drum's swell after its attack, nor a room's echo)."""
    main = group[0]
    for onset in group[1:]:
        if onset.rise >= 10 ** (FLAM_DB / 20) * main.rise:
            main = onset
    return main


def _attack(
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
    whose sound fell again before the stroke, is a flam's grace note (`grace`)."""
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
    rises = (climb >= SHARP_RISE * ring) & (gain > 0)
    sharp = rises.copy()
    sharp[:first] = False
    sharp[end:] = False
    if sharp[first:last].any():
        best = first + int(np.argmax(np.where(sharp[first:last], gain[first:last], -np.inf)))
    else:
        best = first + int(np.argmax(gain[first:last]))
    if sharp[last:end].any():
        after = last + int(np.argmax(np.where(sharp[last:end], gain[last:end], -np.inf)))
        # a later attack FLAM_DB stronger is the stroke: where the spectrum changed with it
        # (a flam's stroke; a low drum's swell only grows), or where the sound before it
        # never fell (a coder's pre-echo, not an attack of its own)
        between = tops[best + 3 : after - 1]
        held = len(between) == 0 or float(np.median(between)) >= 0.5 * float(climb[best])
        new = changed is None or bool(changed[after])
        if gain[after] >= 10 ** (FLAM_DB / 20) * gain[best] and (new or held):
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
    grace = bool(graces.any()) and bool(base < float(climb[near][graces].max()))
    behind = tops[max(0, at - 1 - RING_MS) : max(0, at - 1)]
    # the attack's click against the ring's: the peak of the second difference over the attack
    # and the two milliseconds after, and over the HOLD_MS before the millisecond before it
    from_ = max(0, best - HOLD_MS - 1) * width
    curve = np.abs(np.diff(y[from_ : (best + 3) * width], n=2))
    ring_curve = curve[: max(0, (best - 1) * width - from_)].max(initial=0.0)
    edge = float(curve[best * width - from_ :].max(initial=0.0)) / max(float(ring_curve), 1e-9)
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
        out[first : first + len(chunk)] = _bands_of(pieces, rate)
    return out


def _bands_of(pieces: np.ndarray, rate: int) -> np.ndarray:
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


def _taper(size: int) -> np.ndarray:
    """A stroke's window: flat from its start (the attack counts in full), a half-Hann fall
    over its last quarter."""
    window = np.ones(size, dtype=np.float64)
    fall = size // 4
    window[-fall:] = np.hanning(2 * fall)[fall:]
    return window


def _mel(f: np.ndarray) -> np.ndarray:
    return 2595 * np.log10(1 + f / 700)


def mel_filters(rate: int, size: int) -> np.ndarray:
    """BANDS triangular filters evenly spaced in mels from 30 Hz to half the rate, over the
    bins of a `size`-sample FFT: the ear's coarse sense of colour."""
    freqs = np.fft.rfftfreq(size, 1 / rate)
    edges = _mel(np.asarray([30.0, rate / 2]))
    points = 700 * (10 ** (np.linspace(edges[0], edges[1], BANDS + 2) / 2595) - 1)
    low, centre, high = points[:-2, None], points[1:-1, None], points[2:, None]
    rising = (freqs - low) / np.maximum(centre - low, 1e-9)
    falling = (high - freqs) / np.maximum(high - centre, 1e-9)
    return np.maximum(0.0, np.minimum(rising, falling))


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


def kit_bands(kit: Kit, rate: int) -> tuple[list[Drum], np.ndarray]:
    """The drum and band energies of every sample of the kit (each layer, each round-robin
    sample) at `rate`, judged from the sample's own attack as a stroke of a recording is."""
    kit = kit.at_rate(rate)
    drums: list[Drum] = []
    sounds: list[np.ndarray] = []
    for drum in Drum:
        for layer in kit.voice(drum).layers:
            for sample in layer.samples:
                sounds.append(sample.data.mean(axis=1))
                drums.append(drum)
    return drums, _sound_bands(sounds, rate)


def count_bands(
    kit: Kit, rate: int, click_velocity: int | None
) -> tuple[np.ndarray, list[Drum], np.ndarray]:
    """The band energies of the kit's count sound (every sample of it), and when a take has
    clicks at `click_velocity`, the drum and band energies of each drum's samples (at its
    default velocity) sounding with a click, at the levels a render mixes them at
    (render.mix.SoundChooser): a stroke heard with its click."""
    from drumscore.conductor.expression import default_velocity
    from drumscore.conductor.track import COUNT_VELOCITY

    kit = kit.at_rate(rate)
    voice = kit.count_voice().at_rate(rate)
    counts = [s.data.mean(axis=1) for layer in voice.layers for s in layer.samples]
    drums: list[Drum] = []
    mixed: list[np.ndarray] = []
    if click_velocity is not None:
        layer = voice.layer_for(click_velocity)
        gain = click_velocity / COUNT_VELOCITY
        clicks = [
            voice.sample_for(n, click_velocity).mean(axis=1) * gain
            for n in range(len(layer.samples))
        ]
        for drum in Drum:
            own = kit.voice(drum)
            velocity = default_velocity(drum)
            for n in range(len(own.layer_for(velocity).samples)):
                sound = own.sample_for(n, velocity).mean(axis=1)
                for click in clicks:
                    both = np.zeros(max(len(sound), len(click)), dtype=np.float32)
                    both[: len(sound)] += sound
                    both[: len(click)] += click
                    mixed.append(both)
                    drums.append(drum)
    bands = _sound_bands(counts + mixed, rate)
    return bands[: len(counts)], drums, bands[len(counts) :]


def _sound_bands(sounds: Sequence[np.ndarray], rate: int) -> np.ndarray:
    """The band energies of mono sounds at `rate`, each judged as a stroke of a recording is
    (strokes_at, stroke_bands): placed after silence, its attack found by _attack over the
    same milliseconds, its first samples taken after it and those before it (up to the
    attack) as what sounded before the stroke. So a recording of the sound alone gives the
    same energies."""
    size = stroke_length(rate)
    width = max(1, round(rate / 1000))
    lead = max(size, (HOLD_MS + 2) * width)
    pieces = np.zeros((len(sounds), 2 * size), dtype=np.float32)
    for k, mono in enumerate(sounds):
        span = np.zeros(lead + max(len(mono), round(PEAK_SECONDS * rate)) + size, np.float32)
        span[lead : lead + len(mono)] = mono
        start = _attack(span, lead, lead + 2 * width, width).start
        pieces[k] = span[start - size : start + size]
    return _bands_of(pieces, rate)


@dataclass(frozen=True, slots=True)
class Told:
    """The drums of a recording's strokes, and how they were told; `counts` marks the onsets
    that sound like the count sound (a count stroke or a click), left out of the telling."""

    drums: list[Drum]
    doubtful: list[bool]
    how: str
    swappable: bool
    notes: tuple[str, ...] = ()
    apart: bool = True
    counts: list[bool] = field(default_factory=list)


def tell_drums(
    bands: np.ndarray,
    rate: int,
    kit: Kit,
    method: str,
    *,
    count_sound: bool = False,
    click_velocity: int | None = None,
) -> Told:
    """Each stroke's drum: by the kit when `method` is "kit" and the strokes sound like it (their
    median distance to the nearest kit sample within KIT_DISTANCE_DB), else by two groups of
    their own sound, the lower 鼙 (the check may swap the names to fit the score).

    With `count_sound` (the take holds count strokes or clicks), the onsets that sound like the
    kit's count sound are marked and left out; with `click_velocity` (its clicks' velocity),
    a stroke is also compared with each drum sounding with a click (see count_bands)."""
    heard = shapes(bands)
    n = len(heard)
    counts = np.zeros(n, dtype=bool)
    drums, templates = kit_bands(kit, rate)
    known = shapes(templates)
    notes: tuple[str, ...] = ()
    if count_sound:
        count, mixed_drums, mixed = count_bands(kit, rate, click_velocity)
        drums, known = drums + mixed_drums, np.concatenate([known, shapes(mixed)])
        counts = like_count(heard, known, shapes(count))
        if counts.any():
            notes = (
                ngettext(
                    "{n} onset sounds like the count sound of {kit} (a count stroke or a "
                    "click): not one of the drums",
                    "{n} onsets sound like the count sound of {kit} (count strokes or clicks): "
                    "not the drums",
                    int(counts.sum()),
                ).format(n=int(counts.sum()), kit=kit.described),
            )
    strokes = ~counts
    if method == "kit":
        named, doubtful, nearest = by_kit(heard, drums, known)
        distance = float(np.median(nearest[strokes])) if strokes.any() else 0.0
        if distance <= KIT_DISTANCE_DB:
            how = _("the drums told by the sound of {kit}").format(kit=kit.described)
            return Told(named, doubtful, how, False, notes, True, counts.tolist())
        how = _(
            "the drums told by two groups of the strokes' own sound, the lower 鼙 and the higher "
            "鼓, as they do not sound like {kit}"
        ).format(kit=kit.described)
    else:
        how = _(
            "the drums told by two groups of the strokes' own sound, the lower 鼙 and the higher 鼓"
        )
    some, unsure, more, apart = by_groups(heard[strokes], bands[strokes], rate)
    named, doubtful = [Drum.GU] * n, [False] * n
    for k, drum, doubt in zip(np.flatnonzero(strokes), some, unsure, strict=True):
        named[k], doubtful[k] = drum, doubt
    return Told(named, doubtful, how, True, (*notes, *more), apart, counts.tolist())


def like_count(heard: np.ndarray, known: np.ndarray, count: np.ndarray) -> np.ndarray:
    """Which strokes sound like the count sound: nearer one of its samples (`count`, spectral
    shapes) than any drum's (`known`), and within KIT_DISTANCE_DB of it."""
    to_count = np.linalg.norm(heard[:, None, :] - count[None, :, :], axis=2).min(axis=1)
    to_drum = np.linalg.norm(heard[:, None, :] - known[None, :, :], axis=2).min(axis=1)
    close = to_count / math.sqrt(heard.shape[1]) <= KIT_DISTANCE_DB
    return np.asarray(close & (to_count < to_drum))


def by_kit(
    heard: np.ndarray, drums: list[Drum], known: np.ndarray
) -> tuple[list[Drum], list[bool], np.ndarray]:
    """Each stroke's drum: that of the kit sample whose spectral shape is nearest; doubtful
    where the other drum is nearly as near; and each stroke's distance (dB) to the kit."""
    distance = np.linalg.norm(heard[:, None, :] - known[None, :, :], axis=2)
    kinds = np.asarray([d is Drum.PI for d in drums])
    to_pi = distance[:, kinds].min(axis=1)
    to_gu = distance[:, ~kinds].min(axis=1)
    named = [Drum.PI if p <= g else Drum.GU for p, g in zip(to_pi, to_gu, strict=True)]
    margin = np.abs(to_pi - to_gu) / np.maximum(to_pi + to_gu, 1e-12)
    nearest = np.minimum(to_pi, to_gu) / math.sqrt(heard.shape[1])
    return named, [bool(m < DOUBT_MARGIN) for m in margin], nearest


def _two_means_1d(value: np.ndarray) -> float:
    """The cut that splits sorted values in two groups of least squares (2-means in one
    dimension)."""
    order = np.sort(value)
    n = len(order)
    prefix = np.cumsum(order)
    squares = np.cumsum(order**2)
    k = np.arange(1, n)
    low_sse = squares[:-1] - prefix[:-1] ** 2 / k
    high_sum = prefix[-1] - prefix[:-1]
    high_sse = (squares[-1] - squares[:-1]) - high_sum**2 / (n - k)
    cut = int(np.argmin(low_sse + high_sse)) + 1
    return float((order[cut - 1] + order[cut]) / 2)


def by_groups(
    heard: np.ndarray, bands: np.ndarray, rate: int
) -> tuple[list[Drum], list[bool], tuple[str, ...], bool]:
    """Each stroke's drum from two groups of their spectral shapes (2-means, started from the
    best split along their main direction of difference): the group of the lower spectral
    centroid 鼙. A stroke near the middle of the two is doubtful; when the groups are not clearly
    apart (SEPARATION) every stroke is, and the drums are not told at all."""
    n = len(heard)
    alike = (
        _(
            "the strokes all sound alike: their drums cannot be told apart, and none is called "
            "wrong"
        ),
    )
    if n < 4:
        return [Drum.GU] * n, [True] * n, alike, False
    centred = heard - heard.mean(axis=0)
    # the main direction: the covariance's top eigenvector (BANDS × BANDS, cheap at any length)
    direction = np.linalg.eigh(centred.T @ centred)[1][:, -1]
    along = centred @ direction
    if float(np.ptp(along)) == 0.0:
        return [Drum.GU] * n, [True] * n, alike, False
    high = along > _two_means_1d(along)
    for _round in range(20):
        if high.all() or not high.any():
            break
        a, b = heard[~high].mean(axis=0), heard[high].mean(axis=0)
        new = np.linalg.norm(heard - b, axis=1) < np.linalg.norm(heard - a, axis=1)
        if np.array_equal(new, high):
            break
        high = new
    if high.sum() < 2 or (~high).sum() < 2:
        return [Drum.GU] * n, [True] * n, alike, False
    a, b = heard[~high].mean(axis=0), heard[high].mean(axis=0)
    axis = (b - a) / np.linalg.norm(b - a)
    z = heard @ axis
    za, zb = z[~high], z[high]
    spread = math.sqrt((za.var() * len(za) + zb.var() * len(zb)) / n) + 1e-9
    if (zb.mean() - za.mean()) < SEPARATION * spread:
        note = _(
            "the strokes do not fall into two clearly different sounds: their drums cannot be "
            "told apart, and none is called wrong"
        )
        return [Drum.GU] * n, [True] * n, (note,), False
    centres = band_centres(rate)
    power = bands / np.maximum(bands.sum(axis=1, keepdims=True), 1e-30)
    brightness = power @ centres
    high_is_higher = float(brightness[high].mean()) > float(brightness[~high].mean())
    named = [Drum.GU if (h == high_is_higher) else Drum.PI for h in high.tolist()]
    middle = (za.mean() + zb.mean()) / 2
    half = (zb.mean() - za.mean()) / 2
    return named, [bool(abs(v - middle) < DOUBT_SHARE * half) for v in z], (), True
