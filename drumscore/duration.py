"""A duration: how long a looped render lasts, such as 90s, 20m, 1h or 1h30m."""

from __future__ import annotations

import re
from fractions import Fraction

from drumscore.errors import OptionError
from drumscore.timing import MAX_NUMBER_LENGTH, number_text, shown

#: The longest render: 12 hours, past any afternoon of 投壺.
MAX_SECONDS = Fraction(12 * 3600)
UNITS = {"h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([hms])")


def parse_duration(text: str) -> Fraction:
    """Seconds, exactly, from '90s', '20m', '1h', '1h30m', '1.5h' or a bare number of seconds."""
    raw = str(text).strip().lower()
    hint = "such as 90s, 20m, 1h or 1h30m"
    if len(raw) > MAX_NUMBER_LENGTH:
        raise OptionError(
            f"duration {shown(raw)} is {len(raw):,} characters long; a length of time is at "
            f"most {MAX_NUMBER_LENGTH}, {hint}",
            option="duration",
        )
    try:
        seconds = number_text(raw, "duration", hint, OptionError)
    except OptionError:
        parts = _PART.findall(raw)
        if not parts or _PART.sub("", raw).strip() or len({u for _, u in parts}) < len(parts):
            raise OptionError(
                f"duration {text!r} is not a length of time; use one {hint}", option="duration"
            ) from None
        seconds = sum((Fraction(n) * UNITS[u] for n, u in parts), Fraction(0))
    if seconds <= 0:
        raise OptionError(
            f"duration must be longer than nothing, not {text!r}; use one {hint}", option="duration"
        )
    if seconds > MAX_SECONDS:
        raise OptionError(
            f"duration {shown(raw)} is over the limit of {MAX_SECONDS // 3600} hours; "
            "render in parts and join them",
            option="duration",
        )
    return seconds
