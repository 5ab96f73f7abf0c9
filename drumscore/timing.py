"""間若一: the tempo, and the exact, drift-free time of every stroke."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction

from drumscore.errors import DrumscoreError, TempoError
from drumscore.i18n import N_, _

#: The default: one stroke a second (see README, "Tempo").
DEFAULT_BPM = Fraction(60)
#: Accepted range of strokes per minute; outside it a render is no longer a drum pattern.
MIN_BPM = Fraction(6)
MAX_BPM = Fraction(1200)


#: A number given as text is at most this long (README, "Limits"), so reading it is instant:
#: 5,000 digits are refused unread, and an exponent past ±999 (1e999999999) stands for a number
#: too large or too small for any range, without being computed.
MAX_NUMBER_LENGTH = 32
#: The text of a number: a decimal with an optional exponent, or a fraction, in ASCII digits
#: (the page reads numbers by the same pattern, see site/grammar.py).
NUMBER_PATTERN = (
    r"(?P<mantissa>[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+))(?:[eE](?P<exponent>[+-]?[0-9]+))?"
    r"|[+-]?[0-9]+/[0-9]+"
)
#: The text of a whole number (a count, a stroke number): ASCII digits only (str.isdigit also
#: takes ², int() takes ٣), at most a dozen of them; the page reads them by the same pattern.
WHOLE_PATTERN = r"[0-9]{1,12}"
_NUMBER = re.compile(NUMBER_PATTERN)
_WHOLE = re.compile(rf"[+-]?{WHOLE_PATTERN}")
#: The largest exponent computed; past it a number stands for 10 ** ±(MAX_EXPONENT + 1).
MAX_EXPONENT = 999
_EXTREME = Fraction(10) ** (MAX_EXPONENT + 1)


def whole_text(value: object, *, signed: bool = False) -> int | None:
    """The whole number `value` writes ('12', ' 4 ', '-3' when `signed`; an int as it is), or
    None for anything else ('²', '٣', '1.0', '', a bool, 13 digits): the one reading of a whole
    number for every option and field, its caller saying what it takes."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not _WHOLE.fullmatch(text) or (not signed and text[0] in "+-"):
        return None
    return int(text)


def shown(text: str, most: int = MAX_NUMBER_LENGTH) -> str:
    """`text` quoted for a message, cut short when it is long."""
    return repr(text if len(text) <= most else text[:most] + "…")


def number_text(
    text: str, what: str, example: str, error: type[DrumscoreError] = TempoError
) -> Fraction:
    """An exact Fraction from the text of a number ('96', '37.3', '1e-3', '3/2'), refused at once
    when it is longer than MAX_NUMBER_LENGTH or not written as a plain number."""
    text = text.strip()
    if len(text) > MAX_NUMBER_LENGTH:
        raise error(
            _(
                "{option} {value} is {length:,} characters long; a number is at most {limit}, "
                "such as {example}"
            ).format(
                option=what,
                value=shown(text),
                length=len(text),
                limit=MAX_NUMBER_LENGTH,
                example=_(example),
            ),
            option=what,
            key="number_long",
        )
    match = _NUMBER.fullmatch(text)
    if not match:
        raise _not_positive(error, what, example, text)
    exponent = match["exponent"]
    if exponent is not None and abs(int(exponent)) > MAX_EXPONENT:
        mantissa = Fraction(match["mantissa"])
        if mantissa == 0:
            return mantissa
        return mantissa * (_EXTREME if int(exponent) > 0 else 1 / _EXTREME)
    try:
        return Fraction(text)
    except ZeroDivisionError:
        raise _not_positive(error, what, example, text) from None


def _not_positive(
    error: type[DrumscoreError], what: str, example: str, value: object
) -> DrumscoreError:
    return error(
        _("{option} must be a positive number such as {example}, not {value!r}").format(
            option=what, example=_(example), value=value
        ),
        option=what,
        key="number_format",
    )


def _to_fraction(value: str | float | int | Fraction, what: str, example: str) -> Fraction:
    """An exact Fraction from user input; a decimal string such as '37.3' stays exact."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str):
        return number_text(value, what, example)
    if isinstance(value, bool):
        raise TempoError(
            _("{option} must be a number, not {value!r}").format(option=what, value=value),
            option=what,
        )
    if isinstance(value, float) and not math.isfinite(value):
        raise TempoError(
            _("{option} must be a finite number, not {value!r}").format(option=what, value=value),
            option=what,
        )
    try:
        result = Fraction(value.strip() if isinstance(value, str) else value)
    except (ValueError, TypeError, ZeroDivisionError, OverflowError):
        raise _not_positive(TempoError, what, example, value) from None
    return result


@dataclass(frozen=True, slots=True)
class Tempo:
    """An even beat: `interval` seconds between strokes, kept exact as a Fraction."""

    interval: Fraction

    @classmethod
    def from_bpm(cls, bpm: str | float | Fraction) -> Tempo:
        value = _to_fraction(bpm, "bpm", N_("60 or 96.5"))
        if not MIN_BPM <= value <= MAX_BPM:
            raise TempoError(
                _(
                    "bpm {value!r} is out of range; use {low} to {high} strokes per minute "
                    "(the default is {default})"
                ).format(value=bpm, low=MIN_BPM, high=MAX_BPM, default=DEFAULT_BPM),
                option="bpm",
            )
        return cls(Fraction(60) / value)

    @classmethod
    def from_interval(cls, seconds: str | float | Fraction) -> Tempo:
        value = _to_fraction(seconds, "interval", N_("1 or 0.75"))
        lo, hi = Fraction(60) / MAX_BPM, Fraction(60) / MIN_BPM
        if not lo <= value <= hi:
            raise TempoError(
                _(
                    "interval {value!r} is out of range; use {low:g} to {high:g} seconds between "
                    "strokes"
                ).format(value=seconds, low=float(lo), high=float(hi)),
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
            raise TempoError(_("give bpm or interval, not both"))
        if interval is not None:
            return cls.from_interval(interval)
        return cls.from_bpm(DEFAULT_BPM if bpm is None else bpm)

    @property
    def bpm(self) -> Fraction:
        return Fraction(60) / self.interval

    def onset_sample(self, k: int, rate: int) -> int:
        """Stroke k starts at round(k × interval × rate), ties rounded up; never accumulated."""
        x = k * self.interval * rate
        return (2 * x.numerator + x.denominator) // (2 * x.denominator)
