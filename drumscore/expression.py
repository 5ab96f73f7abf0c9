"""Expression, off by default: a velocity per drum and seeded humanizing of time and velocity.

The conductor (drumscore.track) applies it as it lays the strokes out, so every render agrees.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from drumscore.errors import OptionError
from drumscore.model import Drum
from drumscore.timing import MAX_NUMBER_LENGTH, number_text, shown

if TYPE_CHECKING:
    from collections.abc import Callable


#: Largest --humanize, in milliseconds; it is also held under a quarter of the interval.
MAX_HUMANIZE_MS = 50.0
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

    `option` names the parameter in the error; `what` says what the numbers are ("MIDI notes").
    """
    if len(str(text)) > 2 * MAX_NUMBER_LENGTH:
        raise OptionError(
            f"{option} {shown(str(text))} is {len(str(text)):,} characters long; it takes two "
            f"{what}, 鼙 then 鼓, such as {example!r}",
            option=option,
        )
    parts = [p.strip() for p in str(text).split(",")]
    try:
        pi, gu = (int(p) for p in parts)
    except ValueError:
        raise OptionError(
            f"{option} takes two {what}, 鼙 then 鼓, such as {example!r}; got {text!r}",
            option=option,
        ) from None
    for n in (pi, gu):
        if not low <= n <= high:
            raise OptionError(
                f"{option} {text!r}: {n} is outside {low}-{high}, the range of {what}",
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
                f"humanize {self.humanize_ms:g} ms is too much at {float(interval):g} s between "
                f"strokes; use at most {limit:g} ms",
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
                f"seed {shown(str(seed))} is {len(str(seed)):,} characters long; a number is at "
                f"most {MAX_NUMBER_LENGTH}",
                option="seed",
            )
        if velocity is not None:
            pi, gu = drum_pair(
                velocity, option="velocity", what="MIDI velocities", example="72,112", low=1
            )
        ms = 0.0
        if humanize is not None:
            example = f"milliseconds from 0 to {MAX_HUMANIZE_MS:g}, such as 8"
            amount: float | Fraction
            if isinstance(humanize, str):
                amount = number_text(humanize, "humanize", example, OptionError)
            else:
                amount = humanize
            ms = float(amount) if 0 <= amount <= MAX_HUMANIZE_MS else float("nan")
            if not 0 <= ms <= MAX_HUMANIZE_MS:
                raise OptionError(
                    f"humanize takes {example}; not {shown(str(humanize))}", option="humanize"
                )
        if seed is not None and ms == 0:
            raise OptionError(
                "seed only matters with a humanize amount; give humanize too, 8 ms say",
                option="seed",
            )
        return cls(pi, gu, ms, _seed(seed))


def _seed(value: str | int | None) -> int:
    """The seed: a whole number of 0 or more (0 when not given)."""
    if value is None:
        return 0
    try:
        seed = int(value) if not isinstance(value, bool | float) else -1
    except ValueError:
        seed = -1
    if seed < 0:
        raise OptionError(f"seed takes a whole number of 0 or more, not {value!r}", option="seed")
    return seed
