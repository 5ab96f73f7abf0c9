"""The strokes of a recording: onsets found by a spectral-flux detector, one per stroke and
timed to the sample at its attack, and each stroke's drum told by its sound.

The recording is read twice, block by block, so memory stays small however long it is: once to
find the onset envelope (at ENVELOPE_RATE), once to read each candidate stroke's own samples.
Only numpy, soundfile and soxr are used. The blocks are read in performance.recording, the
onsets and their attacks found in performance.onsets, each stroke's sound measured in
performance.bands and its drum told in performance.drums.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import soundfile as sf

from drumscore.errors import DrumscoreError, NoisyPerformanceError, PerformanceError
from drumscore.files.audio import seekable, unreadable
from drumscore.files.format_choice import suffixes
from drumscore.files.headers import check_audio_header
from drumscore.files.reading import open_input
from drumscore.i18n import _, list_text, ngettext, seconds
from drumscore.performance.bands import shapes
from drumscore.performance.drums import DRUM_METHODS, tell_drums
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.performance.onsets import ABOVE_NOISE_DB, Envelope, Found, pick_peaks, strokes_at
from drumscore.performance.recording import blocks
from drumscore.render.kit import Kit, builtin_kit

#: The longest recording checked (README, "Limits").
MAX_SECONDS = 3 * 60 * 60
#: A recording is too noisy to judge when this share of the onsets that would be strokes (at
#: least two) were lost in its noise.
LOST_SHARE = 0.2


def not_audio(path: str, exc: Exception, option: str | None = None) -> PerformanceError:
    """The one refusal of a take that cannot be read as audio (for check and for play's
    listening alike): why, and what to give instead."""
    return PerformanceError(
        _(
            "performance {path!r} cannot be read as audio ({reason}); give a recording "
            "({audio}) or a MIDI file ({midi})"
        ).format(path=path, reason=unreadable(exc), audio=suffixes("audio"), midi=suffixes("midi")),
        option=option,
    )


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
        raise not_audio(shown, exc) from None
    if found.invalid:
        raise PerformanceError(
            _("performance {path!r} holds invalid (NaN or infinite) samples").format(path=shown)
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
    heard as it was played: performance.stream), their drums told as read_audio tells them; a
    take whose strokes were lost in its noise refused alike on both ways (NoisyPerformanceError)."""
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
            ).format(path=str(path), snr=found.snr_db, n=found.lost, need=ABOVE_NOISE_DB),
            snr_db=found.snr_db,
            lost=found.lost,
        )
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
    graces = found.graces if len(found.graces) else np.zeros(len(found.starts))
    strokes = tuple(
        HeardStroke(float(s) / rate, d, bool(q), bool(c), float(g) * 1000)
        for s, d, q, c, g in zip(
            found.starts, told.drums, told.doubtful, told.counts, graces, strict=True
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
        tuple(map(tuple, shapes(found.bands).astype(float).tolist())),
    )


def flam_notes(times: Sequence[float]) -> tuple[str, ...]:
    """The report's note on the flams heard (their strokes' times), if any."""
    if not times:
        return ()
    at = list_text([seconds(f"{t:.3f}") for t in times[:6]] + (["…"] if len(times) > 6 else []))
    return (
        ngettext(
            "{n} flam (at {at}): a grace note just before the stroke, which is timed at its "
            "main stroke",
            "{n} flams (at {at}): a grace note just before each stroke, which is timed at its "
            "main stroke",
            len(times),
        ).format(n=len(times), at=at),
    )


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
