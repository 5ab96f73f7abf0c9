"""Expression, off by default: a velocity per drum and seeded humanizing of time and velocity.

The conductor (conductor.track) applies it as it lays the strokes out, so every render agrees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from drumscore.errors import OptionError
from drumscore.i18n import N_, _
from drumscore.model import Drum
from drumscore.timing import MAX_NUMBER_LENGTH, number_text, shown, split_list, whole_text

if TYPE_CHECKING:
    from collections.abc import Callable


#: Largest --humanize, in milliseconds; it is also held under a quarter of the interval.
MAX_HUMANIZE_MS = 50.0
#: What humanize takes, for its errors (MAX_HUMANIZE_MS written out).
HUMANIZE_EXAMPLE = N_("milliseconds from 0 to 50, such as 8")
#: Humanizing varies each velocity by up to this fraction of itself.
VELOCITY_SPREAD = 0.1


#: A stroke's velocity unless one is chosen: 鼙 soft, 鼓 loud (the 釋文's 聲下 / 聲高).
DEFAULT_VELOCITY = {Drum.PI: 72, Drum.GU: 112}


def default_velocity(drum: Drum) -> int:
    """The velocity a stroke has unless one is chosen."""
    return DEFAULT_VELOCITY[drum]


def drum_pair(
    text: str, *, option: str, what: str, example: str, low: int = 0, high: int = 127
) -> tuple[int, int]:
    """Two whole numbers written 'PI,GU' (鼙 first, then 鼓), each from `low` to `high`.

    `option` names the parameter in the error; `what` says what the numbers are ("MIDI notes",
    marked for the catalogs with N_ where it is written).
    """
    things = _(what)
    parts = split_list(
        str(text),
        parameter=option,
        form="PI,GU",
        example=example,
        counts=(2,),
        max_length=2 * MAX_NUMBER_LENGTH + 1,
    )
    pi, gu = (whole_text(p, signed=True) for p in parts)
    if pi is None or gu is None:
        raise OptionError(
            _("{option} takes two {what}, 鼙 then 鼓, such as {example!r}; got {value!r}").format(
                option=option, what=things, example=example, value=text
            ),
            option=option,
        )
    for n in (pi, gu):
        if not low <= n <= high:
            raise OptionError(
                _(
                    "{option} {value!r}: {number} is outside {low}-{high}, the range of {what}"
                ).format(option=option, value=text, number=n, low=low, high=high, what=things),
                option=option,
            )
    return pi, gu


@dataclass(frozen=True, slots=True)
class Expression:
    """Velocities for 鼙 and 鼓 (None: the default) and humanizing of up to ±`humanize_ms`."""

    pi_velocity: int | None = None
    gu_velocity: int | None = None
    humanize_ms: float = 0.0
    seed: int = 0

    def velocity(self, drum: Drum) -> int:
        chosen = self.pi_velocity if drum is Drum.PI else self.gu_velocity
        return default_velocity(drum) if chosen is None else chosen

    @property
    def parameters(self) -> str:
        """The parameters that give it, such as "velocity 72,112, humanize 8 seed 0"."""
        words = []
        if self.pi_velocity is not None or self.gu_velocity is not None:
            words.append(f"velocity {self.velocity(Drum.PI)},{self.velocity(Drum.GU)}")
        if self.humanize_ms:
            words.append(f"humanize {self.humanize_ms:g} seed {self.seed}")
        return ", ".join(words)

    @property
    def is_plain(self) -> bool:
        """True when it changes nothing: the strictly even default."""
        return self.pi_velocity is None and self.gu_velocity is None and not self.humanize_ms

    def check(self, interval: Fraction) -> Expression:
        """Itself, after checking that humanizing keeps every stroke in order at this interval."""
        limit = min(MAX_HUMANIZE_MS, float(interval) * 1000 / 4)
        if self.humanize_ms > limit:
            raise OptionError(
                _(
                    "humanize {amount:g} ms is too much at {interval:g} s between strokes; use at "
                    "most {limit:g} ms"
                ).format(amount=self.humanize_ms, interval=float(interval), limit=limit),
                option="humanize",
            )
        return self

    def shaper(self) -> Callable[[int, Drum, Fraction], tuple[int, float]]:
        """shape(k, drum, interval) → (velocity, offset in seconds) of stroke k, one at a time.

        The draws come from one random.Random(seed) in call order (stroke order), so a seed gives
        the same performance on every machine and in every format.
        """
        rng = random.Random(self.seed)
        spread = self.humanize_ms / 1000

        def shape(k: int, drum: Drum, interval: Fraction) -> tuple[int, float]:
            velocity = self.velocity(drum)
            offset = 0.0
            if spread:
                offset = rng.uniform(-spread, spread)
                if k * float(interval) + offset < 0:
                    offset = 0.0
                velocity = round(velocity * (1 + rng.uniform(-VELOCITY_SPREAD, VELOCITY_SPREAD)))
                velocity = min(127, max(1, velocity))
            return velocity, offset

        return shape

    @classmethod
    def from_options(
        cls,
        velocity: str | None = None,
        humanize: str | float | None = None,
        seed: str | int | None = None,
    ) -> Expression:
        """Parse velocity 'PI,GU' (1-127 each), humanize (milliseconds) and seed (0 or more)."""
        pi = gu = None
        if seed is not None and len(str(seed)) > MAX_NUMBER_LENGTH:
            raise OptionError(
                _("seed {value} is {length:,} characters long; a number is at most {limit}").format(
                    value=shown(str(seed)), length=len(str(seed)), limit=MAX_NUMBER_LENGTH
                ),
                option="seed",
            )
        if velocity is not None:
            pi, gu = drum_pair(
                velocity, option="velocity", what=N_("MIDI velocities"), example="72,112", low=1
            )
        ms = 0.0
        if humanize is not None:
            amount: float | Fraction
            try:
                amount = (
                    number_text(humanize, "humanize", HUMANIZE_EXAMPLE, OptionError)
                    if isinstance(humanize, str)
                    else humanize
                )
            except OptionError:  # not a number: the one message, which says what is taken
                amount = Fraction(-1)
            ms = float(amount) if 0 <= amount <= MAX_HUMANIZE_MS else float("nan")
            if not 0 <= ms <= MAX_HUMANIZE_MS:
                raise OptionError(
                    _("humanize takes {example}; not {value}").format(
                        example=_(HUMANIZE_EXAMPLE), value=shown(str(humanize))
                    ),
                    option="humanize",
                )
        if seed is not None and ms == 0:
            raise OptionError(
                _("seed only matters with a humanize amount; give humanize too, 8 ms say"),
                option="seed",
            )
        return cls(pi, gu, ms, _seed(seed))


def _seed(value: str | int | None) -> int:
    """The seed: a whole number of 0 or more (0 when not given)."""
    if value is None:
        return 0
    seed = whole_text(value)
    if seed is None or seed < 0:
        raise OptionError(
            _("seed takes a whole number of 0 or more, not {value!r}").format(value=value),
            option="seed",
        )
    return seed
