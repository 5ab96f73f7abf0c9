"""The strokes of a recording: onsets found by librosa's onset detector, backtracked to the
start of each stroke and refined to the sample, and each stroke's drum told by its sound.

librosa (the optional extra `check`) is imported only here, when a recording is read.
"""

from __future__ import annotations

import contextlib
import importlib
import math
import os
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import numpy as np
import soundfile as sf

from drumscore.errors import DrumscoreError, PerformanceError, require
from drumscore.files.headers import check_audio_header
from drumscore.files.reading import open_input
from drumscore.files.signals import held
from drumscore.i18n import _
from drumscore.model import Drum
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.render.kit import Kit, builtin_kit

#: The onset envelope is found at ENVELOPE_RATE, one frame per HOP samples there (11.6 ms), from
#: spectra of ENVELOPE_FFT samples; a stroke's sound is judged at the recording's own rate, over
#: its first FFT samples.
ENVELOPE_RATE = 11025
HOP = 128
ENVELOPE_FFT = 512
FFT = 2048
#: The onset envelope is computed in blocks of this many samples (at ENVELOPE_RATE), so memory
#: stays small.
BLOCK = HOP * 4096
#: Silence added either side of the recording before its onsets are sought (at ENVELOPE_RATE).
LEAD = HOP * 8
#: An onset whose peak is this far below the loudest stroke's is noise, not a stroke.
QUIET_DB = 40.0
#: An onset whose peak stands less than this above the recording's noise floor is noise.
ABOVE_NOISE_DB = 12.0
#: A stroke starts where the sound first rises this far from the level before it to its peak.
RISE = 0.25
#: Bands of the spectra that tell the drums apart; a band weaker than BAND_FLOOR of the
#: strongest counts as that floor (30 dB down), so the noise in bands the drum hardly sounds
#: does not decide.
BANDS = 40
BAND_FLOOR = 1e-3
#: How the drums of a recording are told apart: by the kit's samples, or by splitting the
#: strokes into two groups by their brightness (spectral centroid).
DRUM_METHODS = ("kit", "split")
#: A drum told with less than this margin between the two is marked doubtful.
DOUBT_MARGIN = 0.1


def read_audio(path: str | Path, *, kit: Kit | None = None, drums: str = "kit") -> Performance:
    """The strokes of a recording (WAV, FLAC, OGG): when each starts, and on which drum.

    `drums` is "kit" (each stroke named after the nearest sample of `kit`, default the built-in
    kit) or "split" (the strokes split in two groups by brightness; the brighter is 鼓, after
    the 釋文's 「其聲高」, and the check may swap the names if the score says so).
    """
    if drums not in DRUM_METHODS:
        raise PerformanceError(
            _("drums {drums!r} is not a way to tell the drums apart; use kit or split").format(
                drums=drums
            ),
            option="drums",
        )
    require(
        "librosa",
        extra="check",
        needed=_("finding the strokes of a recording needs librosa"),
    )
    y, rate = _read(path)
    starts = onsets(y, rate)
    if len(starts) == 0:
        raise PerformanceError(
            _(
                "performance {path!r} holds no strokes (no onsets found in {seconds:.1f} s of "
                "sound); give a recording of the drums, not silence"
            ).format(path=str(path), seconds=len(y) / rate)
        )
    spectra = stroke_spectra(y, rate, starts)
    notes: tuple[str, ...] = ()
    if drums == "kit":
        kit = kit or builtin_kit()
        named, doubtful = by_kit(spectra, kit, rate)
        how = _("by the sound of the kit {kit!r}").format(kit=kit.name)
        swappable = False
    else:
        named, doubtful, notes = by_split(spectra, rate)
        how = _("by splitting the strokes in two groups by their brightness")
        swappable = True
    strokes = tuple(
        HeardStroke(float(s) / rate, d, bool(q))
        for s, d, q in zip(starts, named, doubtful, strict=True)
    )
    return Performance(str(path), "audio", strokes, len(y) / rate, how, swappable, notes)


def _load_soon(module: str) -> None:
    """Start importing `module` in a thread of its own, so that the import (librosa's onset
    module loads scipy.signal and numba: most of a check's time) runs while the recording is
    read and resampled, which leave the interpreter free. The first import of it here then
    waits for that one to finish (Python's import lock), and raises its error, if any."""
    import soxr  # the resampler, which librosa imports too, loaded here first

    del soxr
    if module not in sys.modules:
        # not a daemon: an interpreter never shuts down in the middle of an import
        threading.Thread(target=_import_quietly, args=(module,)).start()


def _import_quietly(module: str) -> None:
    """Import `module`; a failure is left for the import that needs it to raise."""
    with contextlib.suppress(Exception):
        importlib.import_module(module)


def _read(path: str | Path) -> tuple[np.ndarray, int]:
    """The recording as mono float32 and its rate, once its header is checked (files.headers:
    rate, channels, frames, at most MAX_SECONDS). libsndfile reads through callbacks into
    Python, where a signal's exception would be lost: it runs with signals held, block by block."""
    shown = repr(str(path))
    try:
        with open_input(path, "performance") as file, _sound_file(file) as audio:
            check_audio_header(
                str(path),
                audio.samplerate,
                audio.channels,
                audio.frames,
                (str(audio.format), str(audio.subtype)),
                os.fstat(file.fileno()).st_size,
            )
            rate = audio.samplerate
            _load_soon("librosa.onset")  # a recording to check: its onset detector is needed
            mono = _mono(audio)
    except (sf.LibsndfileError, RuntimeError, OSError, ValueError, TypeError) as exc:
        if isinstance(exc, DrumscoreError):
            raise
        raise PerformanceError(
            _(
                "performance {path} cannot be read as audio ({reason}); give a WAV, FLAC or OGG "
                "recording, or a MIDI file (.mid)"
            ).format(path=shown, reason=exc)
        ) from None
    if not np.all(np.isfinite(mono)):
        raise PerformanceError(
            _("performance {path} holds invalid (NaN or infinite) samples").format(path=shown)
        )
    return mono, int(rate)


@contextlib.contextmanager
def _sound_file(file: BinaryIO) -> Iterator[sf.SoundFile]:
    """The recording open in libsndfile, opened and closed with signals held."""
    with held():
        audio = sf.SoundFile(file)
    try:
        yield audio
    finally:
        with held():
            audio.close()


def _mono(audio: sf.SoundFile) -> np.ndarray:
    """An open soundfile.SoundFile read block by block into one mono float32 array (the
    channels' mean), never holding all channels at once. PCM is read as whole numbers, which
    libsndfile gives several times faster than floats."""
    pcm = str(audio.subtype).startswith("PCM")
    dtype = "int32" if pcm else "float32"
    scale = np.float32((2.0**-31 if pcm else 1.0) / audio.channels)
    mono = np.empty(audio.frames, dtype=np.float32)
    at = 0
    while True:
        with held():
            block = audio.read(1 << 20, dtype=dtype, always_2d=True)
        n = len(block)
        if n == 0:
            break
        out = mono[at : at + n]
        out[:] = block[:, 0]
        for channel in range(1, block.shape[1]):
            out += block[:, channel]
        out *= scale
        at += n
    return mono[:at]


def envelope(y: np.ndarray, rate: int) -> np.ndarray:
    """librosa's onset strength of the recording resampled to ENVELOPE_RATE (soxr), with LEAD
    samples of silence either side (so a stroke on the very first or last sample is found like
    the rest): frame f stands for sample f × HOP − LEAD at that rate. It is computed block by
    block, each with ENVELOPE_FFT samples of context either side, so memory stays small."""
    import librosa
    import soxr

    low = soxr.resample(y, rate, ENVELOPE_RATE, quality="MQ") if rate != ENVELOPE_RATE else y
    silence = np.zeros(LEAD, dtype=np.float32)
    low = np.concatenate([silence, np.asarray(low, dtype=np.float32), silence])
    frames = 1 + len(low) // HOP
    out = np.zeros(frames, dtype=np.float32)
    pad = ENVELOPE_FFT  # context either side: a whole number of hops
    for start in range(0, len(low), BLOCK):
        lo = max(0, start - pad)
        hi = min(len(low), start + BLOCK + pad)
        env = librosa.onset.onset_strength(
            y=low[lo:hi], sr=ENVELOPE_RATE, hop_length=HOP, n_fft=ENVELOPE_FFT, n_mels=40
        )
        first = (start - lo) // HOP
        part = env[first : first + min(BLOCK // HOP, frames - start // HOP)]
        out[start // HOP : start // HOP + len(part)] = part
    return out


def onsets(y: np.ndarray, rate: int) -> np.ndarray:
    """The sample where each stroke starts: librosa's onset_detect (peaks of the onset strength,
    backtracked to the minimum before each), then, at the recording's own rate, the first
    sample that rises RISE of the way from the level before the stroke to its peak. Onsets far
    quieter than the loudest stroke (QUIET_DB), or hardly above the noise floor
    (ABOVE_NOISE_DB), are dropped as noise."""
    import librosa

    if len(y) == 0 or not np.any(y):
        return np.zeros(0, dtype=np.int64)
    env = envelope(y, rate)
    peaks = librosa.onset.onset_detect(onset_envelope=env, sr=ENVELOPE_RATE, hop_length=HOP)
    if len(peaks) == 0:
        return np.zeros(0, dtype=np.int64)
    starts = librosa.onset.onset_backtrack(peaks, env)
    scale = rate / ENVELOPE_RATE
    step = math.ceil(HOP * scale)  # samples of the recording per frame

    def sample(frame: int) -> int:
        return round((frame * HOP - LEAD) * scale)

    found = []
    levels = []
    for n, (b, p) in enumerate(zip(starts, peaks, strict=True)):
        lo = min(len(y), max(0, sample(b) - step))
        hi = min(len(y), sample(p) + 2 * step)
        if n + 1 < len(starts):
            hi = min(hi, sample(starts[n + 1]))
        onset, peak = _refine(y, lo, max(hi, lo + 1), rate)
        found.append(onset)
        levels.append(peak)
    loudest = max(levels)
    lowest = max(
        loudest * 10 ** (-QUIET_DB / 20), noise_floor(y, rate) * 10 ** (ABOVE_NOISE_DB / 20)
    )
    keep = [s for s, level in zip(found, levels, strict=True) if level > 0 and level > lowest]
    # two detections of one stroke come out at the same sample, or nearly
    merged: list[int] = []
    for s in sorted(keep):
        if not merged or s - merged[-1] > rate // 50:
            merged.append(s)
    return np.asarray(merged, dtype=np.int64)


def noise_floor(y: np.ndarray, rate: int) -> float:
    """The level of the recording between strokes: the 20th percentile of the peaks of its
    10 ms stretches (a drum recording is mostly ring and room, its strokes brief)."""
    size = max(1, rate // 100)
    whole = len(y) // size * size
    if whole == 0:
        return 0.0
    peaks = np.abs(y[:whole]).reshape(-1, size).max(axis=1)
    return float(np.percentile(peaks, 20))


def _refine(y: np.ndarray, lo: int, hi: int, rate: int) -> tuple[int, float]:
    """(the stroke's first sample, its peak) between samples lo and hi: where the sound first
    rises RISE of the way from the level just before `lo` to the peak."""
    segment = np.abs(y[lo:hi])
    if len(segment) == 0:
        return lo, 0.0
    top = int(np.argmax(segment))
    peak = float(segment[top])
    before = np.abs(y[max(0, lo - rate // 200) : lo])
    level = float(before.max()) if len(before) else 0.0
    if peak <= level:
        return lo, peak
    threshold = level + RISE * (peak - level)
    first = int(np.argmax(segment[: top + 1] > threshold))
    return lo + first, peak


def _taper() -> np.ndarray:
    """A stroke's window: flat from its start (the attack counts in full), a half-Hann fall
    over its last quarter."""
    window = np.ones(FFT, dtype=np.float64)
    fall = FFT // 4
    window[-fall:] = np.hanning(2 * fall)[fall:]
    return window


def stroke_spectra(y: np.ndarray, rate: int, starts: np.ndarray) -> np.ndarray:
    """The power spectrum of each stroke's first FFT samples (cut at the next stroke), less
    that of the FFT samples before it: the ring of earlier strokes taken away."""
    window = _taper()
    ahead = np.zeros((len(starts), FFT))
    behind = np.zeros((len(starts), FFT))
    for n, s in enumerate(starts):
        stop = min(len(y), s + FFT)
        if n + 1 < len(starts):
            stop = min(stop, int(starts[n + 1]))
        ahead[n, : stop - s] = y[s:stop]
        first = max(0, s - FFT)
        behind[n, FFT - (s - first) :] = y[first:s]
    power = np.abs(np.fft.rfft(ahead * window, axis=1)) ** 2
    ring = np.abs(np.fft.rfft(behind * window[::-1], axis=1)) ** 2
    return np.maximum(power - ring, 0.0)


def _bands(spectra: np.ndarray, rate: int) -> np.ndarray:
    """Each spectrum's shape: its energy in BANDS mel bands in dB, less its mean (so the level
    of the stroke does not count, only its colour)."""
    import librosa

    mel = librosa.filters.mel(sr=rate, n_fft=FFT, n_mels=BANDS)
    energy = spectra @ mel.T
    floor = energy.max(axis=1, keepdims=True) * BAND_FLOOR + 1e-20
    db = 10 * np.log10(energy + floor)
    return db - db.mean(axis=1, keepdims=True)


def kit_spectra(kit: Kit, rate: int) -> tuple[list[Drum], np.ndarray]:
    """The drum and spectrum of every sample of the kit (each layer, each round-robin sample),
    at `rate`, judged from the sample's own first onset as a stroke of a recording is."""
    drums, spectra = [], []
    kit = kit.at_rate(rate)
    for drum in Drum:
        for layer in kit.voice(drum).layers:
            for sample in layer.samples:
                mono = sample.data.mean(axis=1)
                start, _peak = _refine(mono, 0, min(len(mono), rate // 20), rate)
                spectra.append(stroke_spectra(mono, rate, np.asarray([start]))[0])
                drums.append(drum)
    return drums, np.asarray(spectra)


def by_kit(spectra: np.ndarray, kit: Kit, rate: int) -> tuple[list[Drum], list[bool]]:
    """Each stroke's drum: the drum of the kit sample whose spectral shape is nearest; doubtful
    where the other drum is nearly as near."""
    drums, templates = kit_spectra(kit, rate)
    heard, known = _bands(spectra, rate), _bands(templates, rate)
    distance = np.linalg.norm(heard[:, None, :] - known[None, :, :], axis=2)
    kinds = np.asarray([d is Drum.PI for d in drums])
    to_pi = distance[:, kinds].min(axis=1)
    to_gu = distance[:, ~kinds].min(axis=1)
    named = [Drum.PI if p <= g else Drum.GU for p, g in zip(to_pi, to_gu, strict=True)]
    margin = np.abs(to_pi - to_gu) / np.maximum(to_pi + to_gu, 1e-12)
    return named, [bool(m < DOUBT_MARGIN) for m in margin]


def centroids(spectra: np.ndarray, rate: int) -> np.ndarray:
    """Each stroke's spectral centroid in Hz: how bright it sounds."""
    freqs = np.fft.rfftfreq(FFT, 1 / rate)
    total = spectra.sum(axis=1)
    return (spectra @ freqs) / np.maximum(total, 1e-20)


def by_split(spectra: np.ndarray, rate: int) -> tuple[list[Drum], list[bool], tuple[str, ...]]:
    """Each stroke's drum from the best split of the strokes' log centroids into two groups
    (least squares, as 2-means in one dimension): the brighter group 鼓. A stroke near the
    middle of the two groups is doubtful; all are when the groups are not clearly apart."""
    value = np.log(np.maximum(centroids(spectra, rate), 1.0))
    n = len(value)
    if n < 2 or float(np.ptp(value)) == 0.0:
        note = _("the strokes all sound alike: the split cannot tell the drums apart")
        return [Drum.GU] * n, [True] * n, (note,)
    order = np.sort(value)
    prefix = np.cumsum(order)
    squares = np.cumsum(order**2)
    k = np.arange(1, n)
    low_sse = squares[:-1] - prefix[:-1] ** 2 / k
    high_sum = prefix[-1] - prefix[:-1]
    high_sse = (squares[-1] - squares[:-1]) - high_sum**2 / (n - k)
    cut = int(np.argmin(low_sse + high_sse)) + 1
    low, high = order[:cut], order[cut:]
    middle = (low.mean() + high.mean()) / 2
    half = (high.mean() - low.mean()) / 2
    named = [Drum.GU if v > middle else Drum.PI for v in value]
    spread = math.sqrt((low.var() + high.var()) / 2)
    notes: tuple[str, ...] = ()
    if half < 2 * spread:
        notes = (
            _(
                "the strokes do not fall into two clearly different sounds: every drum named "
                "is doubtful"
            ),
        )
        return named, [True] * n, notes
    return named, [bool(abs(v - middle) < 0.3 * half) for v in value], notes
