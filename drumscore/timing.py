"""間若一: the tempo, and the exact, drift-free time of every stroke."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from drumscore.errors import TempoError

#: The default: one stroke a second (see README, "Tempo").
DEFAULT_BPM = Fraction(60)
#: Accepted range of strokes per minute; outside it a render is no longer a drum pattern.
MIN_BPM = Fraction(6)
MAX_BPM = Fraction(1200)


def _to_fraction(value: str | float | int | Fraction, what: str, example: str) -> Fraction:
    """An exact Fraction from user input; a decimal string such as '37.3' stays exact."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TempoError(f"{what} must be a number, not {value!r}", option=what)
    if isinstance(value, float) and not math.isfinite(value):
        raise TempoError(f"{what} must be a finite number, not {value!r}", option=what)
    try:
        result = Fraction(value.strip() if isinstance(value, str) else value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise TempoError(
            f"{what} must be a positive number such as {example}, not {value!r}", option=what
        ) from None
    return result


@dataclass(frozen=True, slots=True)
class Tempo:
    """An even beat: `interval` seconds between strokes, kept exact as a Fraction."""

    interval: Fraction

    @classmethod
    def from_bpm(cls, bpm: str | float | Fraction) -> Tempo:
        value = _to_fraction(bpm, "bpm", "60 or 96.5")
        if not MIN_BPM <= value <= MAX_BPM:
            raise TempoError(
                f"bpm {bpm!r} is out of range; use {MIN_BPM} to {MAX_BPM} strokes per minute "
                f"(the default is {DEFAULT_BPM})",
                option="bpm",
            )
        return cls(Fraction(60) / value)

    @classmethod
    def from_interval(cls, seconds: str | float | Fraction) -> Tempo:
        value = _to_fraction(seconds, "interval", "1 or 0.75")
        lo, hi = Fraction(60) / MAX_BPM, Fraction(60) / MIN_BPM
        if not lo <= value <= hi:
            raise TempoError(
                f"interval {seconds!r} is out of range; use {float(lo):g} to {float(hi):g} "
                "seconds between strokes",
                option="interval",
            )
        return cls(value)

    @classmethod
    def from_options(
        cls,
        bpm: str | float | Fraction | None = None,
        interval: str | float | Fraction | None = None,
    ) -> Tempo:
        """The tempo from bpm or interval (not both); the default when neither is given."""
        if bpm is not None and interval is not None:
            raise TempoError("give bpm or interval, not both")
        if interval is not None:
            return cls.from_interval(interval)
        return cls.from_bpm(DEFAULT_BPM if bpm is None else bpm)

    @property
    def bpm(self) -> Fraction:
        return Fraction(60) / self.interval

    def onset_seconds(self, k: int) -> Fraction:
        return k * self.interval

    def onset_sample(self, k: int, rate: int) -> int:
        """Stroke k starts at round(k × interval × rate), ties rounded up; never accumulated."""
        x = k * self.interval * rate
        return (2 * x.numerator + x.denominator) // (2 * x.denominator)

    def onset_samples(self, start: int, stop: int, rate: int) -> Any:
        """onset_sample for k in range(start, stop) as an int64 array, in exact integer maths."""
        import numpy as np

        step = self.interval * rate
        k = np.arange(start, stop, dtype=np.int64)
        num, den = step.numerator, step.denominator
        if stop * num < 2**62:
            return (2 * k * num + den) // (2 * den)
        return np.array([self.onset_sample(int(i), rate) for i in k], dtype=np.int64)
