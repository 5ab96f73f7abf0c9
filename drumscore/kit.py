"""Drum kits: which samples sound for 鼙 and 鼓, with gain and pan, read from a kit file."""

from __future__ import annotations

import functools
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .errors import DrumscoreError
from .model import Drum

BUILTIN_KIT = Path(__file__).with_name("samples") / "kit.toml"


class KitError(DrumscoreError, ValueError):
    """A kit file or sample that cannot be used."""


@dataclass(frozen=True, eq=False)
class Voice:
    """One drum's samples (played in turn, round-robin): float32 stereo at the kit's rate."""

    samples: tuple[np.ndarray, ...]
    gain: float = 1.0
    pan: float = 0.0

    def sample_for(self, n: int) -> np.ndarray:
        """The n-th stroke's sample, with gain and equal-power pan applied."""
        sample = self.samples[n % len(self.samples)]
        angle = (self.pan + 1) * math.pi / 4
        scale = np.array([math.cos(angle), math.sin(angle)], dtype=np.float32) * math.sqrt(2)
        return sample * (scale * self.gain)


@dataclass(frozen=True, eq=False)
class Kit:
    """A named pair of voices at one sample rate."""

    name: str
    rate: int
    voices: dict[Drum, Voice]

    def voice(self, drum: Drum) -> Voice:
        return self.voices[drum]

    def at_rate(self, rate: int) -> Kit:
        """The kit resampled to `rate` (soxr, high quality); itself when the rate matches."""
        if rate == self.rate:
            return self
        import soxr

        voices = {
            drum: Voice(
                tuple(
                    np.ascontiguousarray(
                        soxr.resample(s, self.rate, rate, quality="HQ"), np.float32
                    )
                    for s in v.samples
                ),
                v.gain,
                v.pan,
            )
            for drum, v in self.voices.items()
        }
        return Kit(self.name, rate, voices)


def _read_sample(path: Path) -> tuple[np.ndarray, int]:
    import soundfile as sf

    try:
        data, rate = sf.read(str(path), dtype="float32", always_2d=True)
    except FileNotFoundError:
        raise KitError(f"kit sample {str(path)!r} does not exist") from None
    except (sf.LibsndfileError, RuntimeError, OSError) as exc:
        raise KitError(f"kit sample {str(path)!r} cannot be read as audio: {exc}") from None
    if data.shape[0] == 0 or not np.any(data):
        raise KitError(f"kit sample {str(path)!r} is silent; give a recording of the drum")
    if data.shape[1] == 1:
        data = np.repeat(data, 2, axis=1)
    elif data.shape[1] > 2:
        data = data[:, :2]
    return np.ascontiguousarray(data), rate


def load_kit(path: str | Path = BUILTIN_KIT) -> Kit:
    """Read a kit file (TOML): [pi] and [gu] tables with `samples`, `gain_db` and `pan`."""
    path = Path(path)
    if path.is_dir():
        path = path / "kit.toml"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KitError(f"kit file {str(path)!r} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise KitError(f"kit file {str(path)!r} cannot be read: {exc}") from None
    voices: dict[Drum, Voice] = {}
    rate = None
    for drum in Drum:
        table = data.get(drum.pinyin)
        if not isinstance(table, dict) or not table.get("samples"):
            raise KitError(
                f"kit file {str(path)!r} needs a [{drum.pinyin}] table with samples = [...]"
            )
        samples = []
        for name in table["samples"]:
            sample, sample_rate = _read_sample(path.parent / name)
            rate = rate or sample_rate
            if sample_rate != rate:
                import soxr

                sample = np.ascontiguousarray(soxr.resample(sample, sample_rate, rate), np.float32)
            samples.append(sample)
        gain = 10 ** (float(table.get("gain_db", 0.0)) / 20)
        pan = float(table.get("pan", 0.0))
        if not -1 <= pan <= 1:
            raise KitError(
                f"{path}: [{drum.pinyin}] pan must be from -1 (left) to 1 (right), not {pan!r}"
            )
        voices[drum] = Voice(tuple(samples), gain, pan)
    return Kit(str(data.get("name", path.parent.name)), rate, voices)


@functools.cache
def builtin_kit() -> Kit:
    """The built-in kit, made by tools/make_kit.py after the 釋文's description of the two drums."""
    return load_kit(BUILTIN_KIT)
