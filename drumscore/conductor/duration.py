"""A duration: how long a looped render lasts, such as 90s, 20m, 1h or 1h30m."""

from __future__ import annotations

import re
from fractions import Fraction

from drumscore.errors import OptionError
from drumscore.i18n import N_, _
from drumscore.timing import MAX_NUMBER_LENGTH, number_text, shown

#: The longest render: 12 hours, past any afternoon of 投壺.
MAX_SECONDS = Fraction(12 * 3600)
UNITS = {"h": 3600, "m": 60, "s": 1}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([hms])", re.ASCII)  # 0-9 only, as whole_text


def parse_duration(text: str) -> Fraction:
    """Seconds, exactly, from '90s', '20m', '1h', '1h30m', '1.5h' or a bare number of seconds."""
    raw = str(text).strip().lower()
    if len(raw) > MAX_NUMBER_LENGTH:
        raise OptionError(
            _(
                "duration {value} is {length:,} characters long; a length of time is at "
                "most {limit}, such as 90s, 20m, 1h or 1h30m"
            ).format(value=shown(raw), length=len(raw), limit=MAX_NUMBER_LENGTH),
            option="duration",
        )
    try:
        seconds = number_text(raw, "duration", N_("90s, 20m, 1h or 1h30m"), OptionError)
    except OptionError:
        parts = _PART.findall(raw)
        if not parts or _PART.sub("", raw).strip() or len({u for _n, u in parts}) < len(parts):
            raise OptionError(
                _(
                    "duration {value!r} is not a length of time; use one such as 90s, 20m, 1h "
                    "or 1h30m"
                ).format(value=text),
                option="duration",
            ) from None
        seconds = sum((Fraction(n) * UNITS[u] for n, u in parts), Fraction(0))
    if seconds <= 0:
        raise OptionError(
            _(
                "duration must be longer than nothing, not {value!r}; use one such as 90s, 20m, "
                "1h or 1h30m"
            ).format(value=text),
            option="duration",
        )
    if seconds > MAX_SECONDS:
        raise OptionError(
            _(
                "duration {value} is over the limit of {hours} hours; render in parts and join them"
            ).format(value=shown(raw), hours=MAX_SECONDS // 3600),
            option="duration",
        )
    return seconds
