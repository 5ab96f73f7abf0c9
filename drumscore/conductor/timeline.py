"""Which stroke sounds when: a score's section laid out on an even beat (間若一), with repeats.

A timeline is what one item of a track plays (conductor.track): the conductor there lays its strokes
out, and every renderer (audio, MIDI, notation, playback) reads that one layout, so they agree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from drumscore.conductor.duration import MAX_SECONDS
from drumscore.conductor.expression import Expression
from drumscore.errors import OptionError
from drumscore.i18n import _, in_english, pgettext, phrase_text
from drumscore.model import HALF, READINGS, Reading, Score, Section, Stroke
from drumscore.timing import MAX_NUMBER_LENGTH, Tempo, shown, whole_text

MAX_REPEAT = 10_000


@dataclass(frozen=True, slots=True)
class Marker:
    """A named point on the beat: the 半 boundary, or the start of a repeat (its pass number);
    `text` is the name kept in files for other tools (MIDI markers), the same in every language."""

    k: int
    text: str
    pass_no: int = 0


@dataclass(frozen=True, slots=True)
class Timeline:
    """A section of a score (or `span`, a range of its strokes) played `repeats` times at an
    even tempo."""

    score: Score
    section: Section
    tempo: Tempo
    repeats: int = 1
    expression: Expression | None = None
    #: (first, end): the strokes of the section played, counted from 0, end not included; None
    #: for all of them.
    span: tuple[int, int] | None = None
    #: How the signs are read: which drum each strikes (鄭玄's by default).
    reading: Reading = READINGS[0]
    #: The strokes, once laid out (see strokes).
    _played: tuple[Stroke, ...] | None = field(default=None, init=False, repr=False, compare=False)
    #: The printed signs of the strokes, once laid out (see signs).
    _signs: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def printed(self) -> tuple[Stroke, ...]:
        """The strokes played as the pattern prints them: each stroke's drum is the one its sign
        (○ or □) strikes in 鄭玄's reading, whatever reading is played."""
        strokes = self.score.pattern.section(self.section)
        return strokes if self.span is None else strokes[self.span[0] : self.span[1]]

    @property
    def signs(self) -> tuple[str, ...]:
        """The sign (○ or □) each played stroke is printed as; made once, as `strokes` is."""
        if self._signs is None:
            object.__setattr__(self, "_signs", tuple(s.drum.symbol for s in self.printed))
        assert self._signs is not None
        return self._signs

    def sign(self, index: int) -> str:
        """The sign (○ or □) that stroke `index` (from 0) of the played strokes is printed as."""
        return self.signs[index]

    @property
    def strokes(self) -> tuple[Stroke, ...]:
        """The strokes played, each on the drum the reading strikes: the one place the reading
        is applied, so audio, MIDI, notation, playback and checks follow it alike. Made once:
        the conductor asks for them at every stroke, and another reading makes new ones."""
        if self._played is None:
            object.__setattr__(self, "_played", self.reading.strokes(self.printed))
        assert self._played is not None
        return self._played

    @property
    def first_stroke(self) -> int:
        """Where the played strokes start in the section (0 unless a span is played)."""
        return 0 if self.span is None else self.span[0]

    @property
    def half_index(self) -> int | None:
        """Where 半 falls in the played strokes: only the whole has strokes on both sides."""
        half = self.score.pattern.half
        if self.section is not Section.SHE or half is None:
            return None
        half -= self.first_stroke
        return half if 0 < half < len(self.strokes) else None

    def __len__(self) -> int:
        return len(self.strokes) * self.repeats

    def markers(self) -> tuple[Marker, ...]:
        n = len(self.strokes)
        found = []
        for r in range(self.repeats):
            if r > 0:
                found.append(Marker(r * n, f"repeat {r + 1}", pass_no=r + 1))
            if self.half_index is not None:
                found.append(Marker(r * n + self.half_index, HALF))
        return tuple(found)

    @property
    def description(self) -> str:
        """Edition, figure, drum and section, and the name that finds the score again, with the
        reading when it is not 鄭玄's."""
        text = self._titled(self.section.shown)
        named = [] if self.reading.is_default else [self.reading.named]
        if self.score.edition_id:
            named.insert(0, self.score.key)
        if not named:
            return text
        # TRANSLATORS: a score's description, then the name that finds it again and the reading
        # (Chinese: in full-width parentheses, 「…射 ×2（lu/1@zhushu）」)
        return pgettext("a description and its names", "{text} [{names}]").format(
            text=text, names=phrase_text(named)
        )

    @property
    @in_english
    def citation(self) -> str:
        """What was played, precisely enough to play it again: the options, the text, the source
        (in English, as the options are spelled, whatever the reader's language)."""
        score = self.score
        span = f", strokes {self.span[0] + 1}-{self.span[1]}" if self.span is not None else ""
        played = f"{score.key}, section {self.section.value}{span}"
        played += f", bpm {float(self.tempo.bpm):g}"
        if self.repeats > 1:
            played += f", repeats {self.repeats}"
        expression = self.expression
        if expression is not None and not expression.is_plain:
            played += f", {expression.parameters}"
        if not self.reading.is_default:
            played += f", reading {self.reading.id}"
        parts = [played]
        if score.printed:
            parts.append(f"as printed: {score.printed.strip()}")
        if score.source and score.source.citation:
            parts.append(score.source.citation)
        if not self.reading.is_default:
            parts.append(self.reading.read_as)
        return "; ".join(parts)

    @property
    def heading(self) -> str:
        """The description with the section's long name, such as 射 (the whole pattern): the
        title of a page of notation, and (in English) of an audio or MIDI file."""
        return self._titled(self.section.description)

    @property
    def _span_text(self) -> str:
        if self.span is None:
            return ""
        return _(", strokes {first}-{last}").format(first=self.span[0] + 1, last=self.span[1])

    def _titled(self, section: str) -> str:
        """The score's title, the section named as `section`, the strokes and the repeats."""
        # TRANSLATORS: a score's title and the section played (Chinese: 《禮記注疏》魯鼓第一圖・射)
        text = pgettext("a score's title and its section", "{title} · {section}").format(
            title=self.score.title, section=section + self._span_text
        )
        return text + (f" ×{self.repeats}" if self.repeats > 1 else "")


def arrange(
    score: Score,
    section: Section | str | None = None,
    tempo: Tempo | None = None,
    repeats: int = 1,
    expression: Expression | None = None,
    duration: Fraction | None = None,
    strokes_range: str | None = None,
    reading: Reading | None = None,
) -> Timeline:
    """Lay out a score. The default section is she (the whole pattern).

    With `duration` (seconds, see conductor.duration) the section repeats as many whole times as
    fit in it, at least once, instead of `repeats` times. `strokes_range` ("5-12", numbered from
    1 in the section, both ends played) plays only those strokes of the section. `reading` says
    which drum each sign strikes (鄭玄's by default).
    """
    section = Section.parse(section or Section.SHE)
    strokes = score.pattern.section(section)  # raises if the pattern has no such section
    if not strokes:
        if section is Section.HEAD:
            message = _(
                "the {name!r} section of {notation!r} is empty: no stroke stands before 半; "
                "choose another section"
            )
        else:
            message = _(
                "the {name!r} section of {notation!r} is empty: no stroke stands after 半; "
                "choose another section"
            )
        raise OptionError(message.format(name=section.value, notation=score.pattern.notation))
    span = None
    if strokes_range is not None:
        span = parse_span(strokes_range, len(strokes))
        strokes = strokes[span[0] : span[1]]
    tempo = tempo or Tempo.from_options()
    if expression is not None:
        expression = expression.check(tempo.interval)
    if duration is not None:
        repeats = max(1, int(duration // (len(strokes) * tempo.interval)))
    elif (
        isinstance(repeats, bool) or not isinstance(repeats, int) or not 1 <= repeats <= MAX_REPEAT
    ):
        raise OptionError(
            _("repeats must be a whole number from 1 to {limit}, not {value!r}").format(
                limit=MAX_REPEAT, value=repeats
            ),
            option="repeats",
        )
    check_length(len(strokes) * repeats * tempo.interval)
    return Timeline(score, section, tempo, repeats, expression, span, reading or READINGS[0])


#: The longest text of a range of strokes (two numbers and a hyphen); longer is refused unread.
MAX_SPAN_LENGTH = 2 * MAX_NUMBER_LENGTH


def parse_span(text: str, count: int) -> tuple[int, int]:
    """(first, end) from strokes "A-B" (or "A"), numbered from 1 as everywhere, A ≤ B ≤ count."""
    raw = str(text).strip()
    parts = raw.split("-") if len(raw) <= MAX_SPAN_LENGTH else []
    if len(parts) == 1:
        parts = parts * 2
    first, last = (whole_text(p) for p in parts) if len(parts) == 2 else (None, None)
    if first is None or last is None:
        raise OptionError(
            _("strokes takes a range of strokes numbered from 1, such as 5-12; not {value}").format(
                value=shown(raw)
            ),
            option="strokes",
            key="strokes_format",
        )
    if 1 <= last < first <= count:
        raise OptionError(
            _("strokes {value!r} runs backwards; give the lower stroke first: {span}").format(
                value=raw, span=f"{last}-{first}"
            ),
            option="strokes",
            key="strokes_reversed",
        )
    if not 1 <= first <= last <= count:
        raise OptionError(
            _(
                "strokes {value!r} is outside the section's strokes, 1 to {count}; give A-B with "
                "1 ≤ A ≤ B ≤ {count}"
            ).format(value=raw, count=count),
            option="strokes",
            key="strokes_range",
        )
    return first - 1, last


def check_length(seconds: Fraction, what: str = "") -> None:
    """Refuse a render longer than MAX_SECONDS, whatever asks for it: the repeats, the duration,
    the tempo, the pattern's length, or (`what` says which) a whole job's items, count-ins,
    pauses and files together (README, "Limits")."""
    if seconds > MAX_SECONDS:
        raise OptionError(
            _(
                "the render would last {length}{what}, over the limit of {hours} hours for any "
                "render; repeat it fewer times, play it faster, or render in parts"
            ).format(length=_clock(seconds), what=what, hours=MAX_SECONDS // 3600)
        )


def _clock(seconds: Fraction) -> str:
    """A length of time as hours, minutes and seconds, such as 12 h 2 min 8 s."""
    whole = int(seconds + Fraction(1, 2))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [_("{hours:,} h").format(hours=hours)]
    if minutes:
        parts.append(_("{minutes} min").format(minutes=minutes))
    if secs:
        parts.append(_("{seconds} s").format(seconds=secs))
    return " ".join(parts)
