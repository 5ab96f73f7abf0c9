"""Units as the reader's language writes them after a number: seconds, milliseconds, strokes a
minute and hertz.

Every view that shows a time, an offset, a tempo or a sample rate writes it through these, so
English reads `4.85 s`, `0.0 ms`, `60/min` and `44100 Hz`, and Chinese `4.85 秒`, `0.0 毫秒`,
`每分鐘 60 擊` (a tempo said as a phrase) or `60 擊／分鐘` (a rate as a unit) the same way
everywhere. The number comes already written (its decimals are the view's choice); a range
such as `60.00 → 61.00` takes its unit once, after it.
"""

from __future__ import annotations

from drumscore.i18n import pgettext


def seconds(value: str) -> str:
    """`value` seconds: 4.85 s (4.85 秒)."""
    # TRANSLATORS: a number of seconds, as a time or a length of time
    return pgettext("a unit", "{value} s").format(value=value)


def milliseconds(value: str) -> str:
    """`value` milliseconds: 12.5 ms (12.5 毫秒)."""
    # TRANSLATORS: a number of milliseconds
    return pgettext("a unit", "{value} ms").format(value=value)


def per_minute(value: str) -> str:
    """A tempo said as a phrase: 60/min (每分鐘 60 擊)."""
    # TRANSLATORS: a tempo in strokes a minute, said as a phrase (每分鐘 60 擊)
    return pgettext("a tempo", "{value}/min").format(value=value)


def rate(value: str) -> str:
    """Strokes a minute as a unit after the number, for a change or a range of tempi:
    -0.01/min, 60.00 → 61.00/min (−0.01 擊／分鐘)."""
    # TRANSLATORS: strokes a minute as a unit after a number or a range (60 擊／分鐘)
    return pgettext("a unit", "{value}/min").format(value=value)


def hertz(value: str) -> str:
    """`value` hertz: 44100 Hz."""
    # TRANSLATORS: a sample rate in hertz
    return pgettext("a unit", "{value} Hz").format(value=value)
