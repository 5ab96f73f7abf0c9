"""Choosing an audio device or a MIDI port by (part of) its name, the one way for both."""

from __future__ import annotations

from collections.abc import Sequence

from drumscore.errors import OptionError
from drumscore.i18n import _, list_text, quoted


def choose_by_name(wanted: str, names: Sequence[str], *, what: str, option: str) -> int:
    """The index in `names` of the one name that is `wanted` or, failing that, contains it.

    Case is ignored. None or several matches are an OptionError about `option` that lists the
    names to choose from; `what` says what the names are ("audio output device").
    """
    key = wanted.strip().casefold()
    exact = [i for i, n in enumerate(names) if n.casefold() == key]
    matches = exact or [i for i, n in enumerate(names) if key in n.casefold()]
    if len(matches) == 1:
        return matches[0]
    shown = list_text(quoted(names[i]) for i in (matches or range(len(names))))
    if matches:
        raise OptionError(
            _("{option} {wanted!r} matches several: {names}; be more precise").format(
                option=option, wanted=wanted, names=shown
            ),
            option=option,
        )
    raise OptionError(
        _("{option} {wanted!r}: there is no {what} called that; choose one of {names}").format(
            option=option, wanted=wanted, what=what, names=shown
        ),
        option=option,
    )
