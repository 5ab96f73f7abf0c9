"""Audio file output with soundfile: WAV, FLAC or OGG, written atomically."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .formats import audio_format
from .output import atomic_path


def write_audio(path: str | Path, audio: np.ndarray, rate: int, subtype: str | None = None) -> None:
    """Write a float array to `path`; the format follows the extension."""
    import soundfile as sf

    fmt, subtype = audio_format(path, subtype)
    with atomic_path(path) as tmp:
        sf.write(str(tmp), audio, rate, format=fmt, subtype=subtype)
