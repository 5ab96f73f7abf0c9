"""Which stroke sounds when: a score's section laid out on an even beat (間若一), with repeats.

A timeline is what one item of a track plays (drumscore.track): the conductor there lays its strokes
out, and every renderer (audio, MIDI, notation, playback) reads that one layout, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from drumscore.duration import MAX_SECONDS
from drumscore.errors import OptionError
from drumscore.expression import Expression
from drumscore.model import Score, Section, Stroke
from drumscore.timing import Tempo

MAX_REPEAT = 10_000


@dataclass(frozen=True, slots=True)
class Marker:
    """A named point on the beat: the 半 boundary, or the start of a repeat."""

    k: int
    text: str


@dataclass(frozen=True, slots=True)
class Timeline:
    """A section of a score played `repeats` times at an even tempo."""

    score: Score
    section: Section
    tempo: Tempo
    repeats: int = 1
    expression: Expression | None = None

    @property
    def strokes(self) -> tuple[Stroke, ...]:
        return self.score.pattern.section(self.section)

    @property
    def half_index(self) -> int | None:
        """Where 半 falls in the played section: only the whole has strokes on both sides."""
        half = self.score.pattern.half
        if self.section is Section.SHE and half is not None and 0 < half < len(self.strokes):
            return half
        return None

    def __len__(self) -> int:
        return len(self.strokes) * self.repeats

    def markers(self) -> tuple[Marker, ...]:
        n = len(self.strokes)
        found = []
        for r in range(self.repeats):
            if r > 0:
                found.append(Marker(r * n, f"repeat {r + 1}"))
            if self.half_index is not None:
                found.append(Marker(r * n + self.half_index, "半"))
        return tuple(found)

    @property
    def description(self) -> str:
        """Edition, figure, drum and section, and the name that finds the score again."""
        text = self._with_repeats(f"{self.score.title} · {self.section.value}")
        return f"{text} [{self.score.key}]" if self.score.edition_id else text

    @property
    def citation(self) -> str:
        """What was played, precisely enough to play it again: the options, the text, the source."""
        score = self.score
        played = f"{score.key}, section {self.section.value}, bpm {float(self.tempo.bpm):g}"
        if self.repeats > 1:
            played += f", repeats {self.repeats}"
        expression = self.expression
        if expression is not None and not expression.is_plain:
            played += f", {expression.parameters}"
        parts = [played]
        if score.printed:
            parts.append(f"as printed: {score.printed.strip()}")
        if score.source and score.source.citation:
            parts.append(score.source.citation)
        return "; ".join(parts)

    @property
    def heading(self) -> str:
        """The description with the section's long name, such as 射 (the whole pattern)."""
        return self._with_repeats(f"{self.score.title} · {self.section.description}")

    def _with_repeats(self, text: str) -> str:
        return text + (f" ×{self.repeats}" if self.repeats > 1 else "")


def arrange(
    score: Score,
    section: Section | str | None = None,
    tempo: Tempo | None = None,
    repeats: int = 1,
    expression: Expression | None = None,
    duration: Fraction | None = None,
) -> Timeline:
    """Lay out a score. The default section is she (the whole pattern).

    With `duration` (seconds, see drumscore.duration) the section repeats as many whole times as
    fit in it, at least once, instead of `repeats` times.
    """
    section = Section.parse(section or Section.SHE)
    strokes = score.pattern.section(section)  # raises if the pattern has no such section
    if not strokes:
        side = "before" if section is Section.HEAD else "after"
        raise OptionError(
            f"the {section.value!r} section of {score.pattern.notation!r} is empty: no stroke "
            f"stands {side} 半; choose another section"
        )
    tempo = tempo or Tempo.from_options()
    if expression is not None:
        expression = expression.check(tempo.interval)
    if duration is not None:
        repeats = max(1, int(duration // (len(strokes) * tempo.interval)))
    elif (
        isinstance(repeats, bool) or not isinstance(repeats, int) or not 1 <= repeats <= MAX_REPEAT
    ):
        raise OptionError(
            f"repeats must be a whole number from 1 to {MAX_REPEAT}, not {repeats!r}",
            option="repeats",
        )
    check_length(len(strokes) * repeats * tempo.interval)
    return Timeline(score, section, tempo, repeats, expression)


def check_length(seconds: Fraction, what: str = "") -> None:
    """Refuse a render longer than MAX_SECONDS, whatever asks for it: the repeats, the duration,
    the tempo, the pattern's length, or (`what` says which) a whole job's items, count-ins,
    pauses and files together (README, "Limits")."""
    if seconds > MAX_SECONDS:
        raise OptionError(
            f"the render would last {_clock(seconds)}{what}, over the limit of "
            f"{MAX_SECONDS // 3600} hours for a whole render; repeat it fewer times, play it "
            "faster, or render in parts"
        )


def _clock(seconds: Fraction) -> str:
    """A length of time as hours, minutes and seconds, such as 12 h 2 min 8 s."""
    whole = int(seconds + Fraction(1, 2))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours:,} h"] + [f"{n} {u}" for n, u in ((minutes, "min"), (secs, "s")) if n]
    return " ".join(parts)
