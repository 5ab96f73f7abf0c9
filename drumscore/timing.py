"""間若一: the tempo, and the exact, drift-free time of every stroke; and the text that parameters
are given in: numbers (number_text, whole_text) and lists (split_list)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from fractions import Fraction

from drumscore.errors import DrumscoreError, ListError, TempoError
from drumscore.i18n import N_, _, ngettext

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


# --- the one grammar of a list in one parameter's text ----------------------------------------
# render's sections (touhu,she), two numbers for 鼙 and 鼓 (72,112), compare's two readings
# (zheng,mao), a ramp's START:STOP:STEP. Items stand between separators; spaces around an item
# are not part of it; no item is empty (so no separator leads or trails); a list takes as many
# items as its parameter says, and, where order would not change what it means, each at most
# once. Every refusal is a ListError carrying the parameter, the item's place in the list and
# its column, in one shape: "PARAMETER 'TEXT': what is wrong; write FORM, such as EXAMPLE". What
# an item itself must be (a number, a section) is its caller's to check.

#: The longest list text read at all (a list of every section, two numbers of 32 digits each).
MAX_LIST_LENGTH = 80


def split_list(
    text: str,
    *,
    parameter: str,
    form: str,
    example: str,
    sep: str = ",",
    counts: Collection[int] | None = None,
    unique: bool | Callable[[str], object] = False,
    max_length: int = MAX_LIST_LENGTH,
    key: str | None = None,
) -> tuple[str, ...]:
    """The items of `text`, each stripped of spaces: `counts` of them (any number if None),
    each at most once if `unique` (compared as written, or as `unique(item)` reads them: 射 and
    she are one section). `form` and `example` say how the list is written ("PI,GU", "72,112");
    `key` is carried by every refusal (DrumscoreError.key)."""
    same = unique if callable(unique) else (lambda item: item)

    def refuse(problem: str, item: int | None = None, column: int | None = None) -> ListError:
        shown = text if len(text) <= MAX_LIST_LENGTH else text[:MAX_LIST_LENGTH] + "…"
        return ListError(
            _("{parameter} {value!r}: {problem}; write {form}, such as {example}").format(
                parameter=parameter, value=shown, problem=problem, form=form, example=example
            ),
            option=parameter,
            item=item,
            column=column,
            key=key,
        )

    if len(text) > max_length:
        raise refuse(
            _("{length:,} characters, over the {limit} a list may have").format(
                length=len(text), limit=max_length
            )
        )
    items: list[str] = []
    seen: list[object] = []
    columns: list[int] = []
    start = 0
    parts = text.split(sep)
    for part in parts:
        item = part.strip()
        lead = len(part) - len(part.lstrip())
        column = start + lead + 1
        if not item:
            place = len(items) + 1
            if len(parts) == 1:
                problem = _("there is nothing in it")
            else:
                problem = _("item {n} (column {column}) is empty").format(n=place, column=column)
            raise refuse(problem, place, column)
        if unique and same(item) in seen:
            first = seen.index(same(item)) + 1
            raise refuse(
                _("item {n} (column {column}), {item!r}, repeats item {first}").format(
                    n=len(items) + 1, column=column, item=item, first=first
                ),
                len(items) + 1,
                column,
            )
        if unique:
            seen.append(same(item))
        items.append(item)
        columns.append(column)
        start += len(part) + len(sep)
    if counts is not None and len(items) not in counts:
        most = max(counts)
        beyond = most + 1 if len(items) > most else None  # the first item too many
        wanted = sorted(counts)
        if len(wanted) == 1:
            takes = str(wanted[0])
        else:
            takes = _("{first} or {second}").format(
                first=", ".join(map(str, wanted[:-1])), second=wanted[-1]
            )
        raise refuse(
            ngettext(
                "{n} item where it takes {counts}", "{n} items where it takes {counts}", len(items)
            ).format(n=len(items), counts=takes),
            beyond,
            columns[beyond - 1] if beyond is not None else None,
        )
    return tuple(items)


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
