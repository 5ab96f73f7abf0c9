"""A recording read block by block, so memory stays small however long it is: its frames as
mono float32 blocks (the channels' mean), and any span of them."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import soundfile as sf

#: The recording is read in blocks of this many frames.
BLOCK = 1 << 16


def blocks(audio: sf.SoundFile, start: int = 0, stop: int | None = None) -> Iterator[np.ndarray]:
    """The recording's frames start…stop as mono float32 blocks (the channels' mean). PCM is
    read as whole numbers, which libsndfile gives several times faster than floats. A recording
    libsndfile cannot seek in (GSM 6.10…) is read once, from the start, where it stands."""
    pcm = str(audio.subtype).startswith("PCM")
    dtype = "int32" if pcm else "float32"
    scale = np.float32((2.0**-31 if pcm else 1.0) / audio.channels)
    stop = audio.frames if stop is None else min(stop, audio.frames)
    if getattr(audio, "seekable", lambda: True)():
        audio.seek(start)
    elif start:  # GSM 6.10 and the like: read forwards only, from its start (files.audio.seekable)
        raise ValueError(f"cannot seek to frame {start} of a recording read forwards only")
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
