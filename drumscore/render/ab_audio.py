"""Hearing a comparison: A then B after a pause, or A on the left and B on the right."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drumscore.conductor.timeline import arrange
from drumscore.errors import OptionError
from drumscore.files.format_choice import DEFAULT_RATE
from drumscore.i18n import _
from drumscore.model import Reading, Score, Section
from drumscore.timing import Tempo

if TYPE_CHECKING:  # numpy and the mixer are loaded where audio is made (the site reads a constant)
    import numpy as np

    from drumscore.render.kit import Kit

#: The longest comparison audio, A and B together, in seconds (README, "Limits").
MAX_SECONDS = 30 * 60
#: The pause between A and B, in strokes of the shared tempo.
PAUSE_STROKES = 2


def comparison_audio(
    first: Score,
    second: Score,
    *,
    section: Section | str | None = None,
    tempo: Tempo | None = None,
    rate: int = DEFAULT_RATE,
    stereo: bool = False,
    kit: Kit | None = None,
    readings: tuple[Reading | None, Reading | None] = (None, None),
) -> np.ndarray:
    """Float32 stereo audio of both scores at one tempo, normalised together so levels compare.

    Its length is checked before anything is mixed (and before any alignment), so a comparison too
    long to hear is refused at once. `readings` say how the signs of A and of B are read (鄭玄's
    by default), so that one score can be heard under two readings.

        In sequence, B starts PAUSE_STROKES beats after A's last stroke would be followed, and never
        before A has rung out.
    """
    import numpy as np

    from drumscore.render.mix import normalise

    a, b, start = _parts(
        (first, second), section, tempo or Tempo.from_options(), rate, kit, readings
    )
    if stereo:
        out = np.zeros((max(len(a), len(b)), 2), dtype=np.float32)
        out[: len(a), 0] = a.mean(axis=1)
        out[: len(b), 1] = b.mean(axis=1)
        return normalise(out)
    out = np.zeros((start + len(b), 2), dtype=np.float32)
    out[: len(a)] += a
    out[start:] += b
    return normalise(out)


def _parts(
    scores: tuple[Score, Score],
    section: Section | str | None,
    tempo: Tempo,
    rate: int,
    kit: Kit | None,
    readings: tuple[Reading | None, Reading | None] = (None, None),
) -> tuple[np.ndarray, np.ndarray, int]:
    from drumscore.render.mix import mix_range, plan

    plans = [
        plan(arrange(s, section, tempo, reading=r), kit, rate)
        for s, r in zip(scores, readings, strict=True)
    ]
    most = tempo.onset_sample(len(plans[0].onsets) + PAUSE_STROKES, rate) + plans[0].length
    if (most + plans[1].length) / rate > MAX_SECONDS:
        raise OptionError(
            _(
                "the comparison would last {minutes:,.0f} minutes, over the limit of {limit} "
                "minutes for hearing two readings (it is mixed in memory); compare one section, "
                "or play faster"
            ).format(minutes=(most + plans[1].length) / rate / 60, limit=MAX_SECONDS // 60)
        )
    a, b = (mix_range(p, 0, p.length) for p in plans)
    start = max(tempo.onset_sample(len(plans[0].onsets) + PAUSE_STROKES, rate), len(a))
    return a, b, start
