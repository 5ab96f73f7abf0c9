"""A track: items in order on one clock, and the conductor that lays their strokes out beat by beat.

An item is a timeline (a score's section at its tempo, repeated) with a count-in before it and a
pause after it. A one-item track is what `render` and `play` make of one score; a programme is
several. The Conductor turns a track into hits (which sound, at which sample frame) one beat at a
time, so a renderer can lay out the whole track and a player can lay it out as the device asks,
changing the tempo, pausing or switching section as it goes. Both use the same rule, so what is
played without a change is, sample for sample, what is rendered:

- an item starts at a whole frame; beat b of it sounds at start + round(b × interval × rate),
  computed from b and never accumulated (see Tempo.onset_sample);
- a tempo change takes effect at the next beat not yet laid out: that beat and the ones after it
  are counted from the last beat laid out, at the new interval, so no beat is lost, doubled or
  shortened;
- the next item starts at round(beats × interval + pause) after the start of the last grid, so
  items follow each other on one clock.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from drumscore.conductor.expression import default_velocity
from drumscore.conductor.timeline import MAX_REPEAT, Timeline, check_length
from drumscore.errors import OptionError
from drumscore.i18n import N_, _, in_english, list_text, ngettext
from drumscore.model import Drum, Section, Wording
from drumscore.timing import (
    MAX_BPM,
    MAX_NUMBER_LENGTH,
    MIN_BPM,
    Tempo,
    number_text,
    split_list,
    whole_text,
)

#: The longest count-in, in strokes.
MAX_COUNT_IN = 64
#: Frames per second for laying out a track where only beats and offsets matter (MIDI, notation).
BEAT_RATE = 48_000
#: The velocity of a count stroke (MIDI; audio plays the count sample at its own level).
COUNT_VELOCITY = 100


#: The longest text of a ramp (four numbers and colons); longer is refused unread.
MAX_RAMP_LENGTH = 4 * MAX_NUMBER_LENGTH


def _round(x: Fraction) -> int:
    """The nearest whole number, ties rounded up (as Tempo.onset_sample rounds)."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def _as_float(x: Fraction) -> float:
    """x as a float for a message; ±inf past the floats (a tempo of 1e999 is still said)."""
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def check_count_in(value: object) -> int:
    """count_in: a whole number of strokes from 0 to MAX_COUNT_IN."""
    if value is None:
        return 0
    count = whole_text(value)
    if count is None or not 0 <= count <= MAX_COUNT_IN:
        raise OptionError(
            _(
                "count_in takes a whole number of strokes from 0 to {limit}, such as 4; "
                "not {value!r}"
            ).format(limit=MAX_COUNT_IN, value=value),
            option="count_in",
        )
    return count


@dataclass(frozen=True, slots=True)
class Ramp:
    """A tempo trainer: the first pass at `start` strokes a minute, then `step` more (or fewer)
    every `every` passes, until `stop`, where it stays."""

    start: Fraction
    stop: Fraction
    step: Fraction
    every: int = 1

    @classmethod
    def parse(cls, text: str) -> Ramp:
        """START:STOP:STEP[:EVERY], such as 40:60:5 (40, 45, … 60 strokes a minute, a pass each)."""
        raw = str(text).strip()
        example = RAMP_EXAMPLE
        parts = split_list(
            raw,
            parameter="ramp",
            form="START:STOP:STEP[:EVERY]",
            example="40:60:5",
            sep=":",
            counts=(3, 4),
            max_length=MAX_RAMP_LENGTH,
            key="ramp_format",
        )
        start, stop, step = (number_text(part, "ramp", example, OptionError) for part in parts[:3])
        for bpm in (start, stop):
            if not MIN_BPM <= bpm <= MAX_BPM:
                raise OptionError(
                    _(
                        "ramp {value!r}: {bpm:g} strokes a minute is out of range; START and "
                        "STOP are from {low} to {high}"
                    ).format(value=raw, bpm=_as_float(bpm), low=MIN_BPM, high=MAX_BPM),
                    option="ramp",
                    key="ramp_range",
                )
        every = parts[3].strip() if len(parts) == 4 else "1"
        passes = whole_text(every)
        if passes is None or passes < 1:
            raise OptionError(
                _("ramp {value!r}: EVERY is a whole number of passes from 1, not {every!r}").format(
                    value=raw, every=every
                ),
                option="ramp",
                key="ramp_every",
            )
        if step == 0 or (stop - start) * step < 0:
            if stop >= start:
                message = _(
                    "ramp {value!r}: the step must go from {start:g} towards {stop:g}; give a "
                    "positive step, such as {example}"
                )
            else:
                message = _(
                    "ramp {value!r}: the step must go from {start:g} towards {stop:g}; give a "
                    "negative step, such as {example}"
                )
            sign = "" if stop >= start else "-"
            raise OptionError(
                message.format(
                    value=raw,
                    start=float(start),
                    stop=float(stop),
                    example=f"{float(start):g}:{float(stop):g}:{sign}5",
                ),
                option="ramp",
                key="ramp_step",
            )
        return cls(Fraction(start), Fraction(stop), Fraction(step), passes)

    @property
    def passes(self) -> int:
        """Passes from the start until the first at the stop tempo, that one included."""
        steps = -(-abs(self.stop - self.start) // abs(self.step))
        return int(steps) * self.every + 1

    def tempo(self, pass_no: int) -> Tempo:
        """The tempo of pass `pass_no` (from 1)."""
        bpm = self.start + self.step * ((pass_no - 1) // self.every)
        bpm = min(bpm, self.stop) if self.step > 0 else max(bpm, self.stop)
        return Tempo.from_bpm(bpm)

    @property
    def text(self) -> str:
        every = f":{self.every}" if self.every > 1 else ""
        return f"{float(self.start):g}:{float(self.stop):g}:{float(self.step):g}{every}"


#: What ramp takes, for its errors.
RAMP_EXAMPLE = N_("START:STOP:STEP[:EVERY] in strokes a minute, such as 40:60:5")
#: A click's velocity unless another is chosen (the count strokes' is COUNT_VELOCITY).
CLICK_VELOCITY = 80
#: The most clicks a stroke may be divided into.
MAX_CLICKS = 16
#: The most sounds a track may hold, strokes, count-in strokes and clicks together (README,
#: "Limits"): a MIDI file's time grows with them, 200,000 taking about 20 s.
MAX_SOUNDS = 200_000


@dataclass(frozen=True, slots=True)
class Practice:
    """What a performer rehearsing with a track asks for; by default nothing.

    `click`: clicks per stroke (1 on every stroke, n to divide each into n), on the count sound
    at `click_velocity`; `count_each`: the count-in before every pass, not only the first;
    `silent_every`: every k-th pass sounds its clicks only (a click on every stroke at least);
    `only`: the one drum that sounds (the other's strokes are laid out, muted); `ramp`: the
    tempo pass by pass.
    """

    click: int = 0
    click_velocity: int = CLICK_VELOCITY
    count_each: bool = False
    silent_every: int = 0
    only: Drum | None = None
    ramp: Ramp | None = None

    def __post_init__(self) -> None:
        checks = (
            ("click", self.click, 0, MAX_CLICKS),
            ("click_level", self.click_velocity, 1, 127),
            ("silent_every", self.silent_every, 0, MAX_REPEAT),
        )
        for option, value, low, high in checks:
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise OptionError(
                    _("{option} takes a whole number from {low} to {high}, not {value!r}").format(
                        option=option, low=low, high=high, value=value
                    ),
                    option=option,
                )

    @property
    def clicks(self) -> int:
        """Clicks per stroke: as asked, and one at least in a track with silent passes."""
        return self.click or (1 if self.silent_every else 0)

    @property
    def plain(self) -> bool:
        return self == Practice()

    @property
    def parameters(self) -> str:
        """What it asks for, in the reader's language, such as "click 2 at 80, ramp 40:60:5"."""
        words = []
        if self.clicks:
            words.append(
                _("click {clicks} a stroke at velocity {velocity}").format(
                    clicks=self.clicks, velocity=self.click_velocity
                )
            )
        if self.count_each:
            words.append(_("count-in every pass"))
        if self.silent_every:
            words.append(_("every {n} passes silent").format(n=self.silent_every))
        if self.only is not None:
            words.append(_("only {drum}").format(drum=self.only.value))
        if self.ramp is not None:
            words.append(_("ramp {ramp}").format(ramp=self.ramp.text))
        return list_text(words)

    def sounds(self, drum: Drum, pass_no: int) -> bool:
        """Whether a stroke on `drum` in pass `pass_no` (from 1) is heard."""
        if self.only is not None and drum is not self.only:
            return False
        return not (self.silent_every and pass_no % self.silent_every == 0)


@dataclass(frozen=True, slots=True)
class Item:
    """One timeline with `count_in` count strokes on its beat before it (before every pass with
    practice.count_each), then `pause` s of rest."""

    timeline: Timeline
    count_in: int = 0
    pause: Fraction = Fraction(0)
    label: str | Wording = ""
    practice: Practice = Practice()

    def __post_init__(self) -> None:
        only = self.practice.only
        if only is not None and all(s.drum is not only for s in self.timeline.strokes):
            other = next(d for d in Drum if d is not only)
            raise OptionError(
                _(
                    "only {drum} mutes every stroke but those of {drum}, and {what} has none: "
                    "nothing would sound; give {other}, or leave it out"
                ).format(drum=only.value, what=self.timeline.description, other=other.name.lower()),
                option="only",
            )

    def pass_beats(self, index: int) -> int:
        """Beats of pass `index` (from 0): its strokes, and its count-in if it has one."""
        counted = index == 0 or self.practice.count_each
        return len(self.timeline.strokes) + (self.count_in if counted else 0)

    def tempo_of(self, index: int) -> Tempo:
        """The tempo of pass `index` (from 0)."""
        ramp = self.practice.ramp
        return self.timeline.tempo if ramp is None else ramp.tempo(index + 1)

    @property
    def beats(self) -> int:
        passes = self.timeline.repeats
        counts = self.count_in * (passes if self.practice.count_each else 1)
        return counts + len(self.timeline)

    @property
    def seconds(self) -> Fraction:
        """How long the item lasts, its pause included."""
        if self.practice.ramp is None:
            return self.beats * self.timeline.tempo.interval + self.pause
        passes = range(self.timeline.repeats)
        return sum((self.pass_beats(p) * self.tempo_of(p).interval for p in passes), self.pause)

    def frames(self, rate: int) -> int:
        """Frames from the item's first beat to the next item's, as the conductor counts them:
        rounded once, or once a pass when a ramp changes the tempo pass by pass."""
        if self.practice.ramp is None:
            return _round((self.beats * self.timeline.tempo.interval + self.pause) * rate)
        last = self.timeline.repeats - 1
        found = 0
        for p in range(last + 1):
            length = self.pass_beats(p) * self.tempo_of(p).interval
            found += _round((length + (self.pause if p == last else 0)) * rate)
        return found

    def beat_of(self, k: int) -> int:
        """The beat (from the item's first) of stroke k, count-ins before it included."""
        passes_counted = k // len(self.timeline.strokes) + 1 if self.practice.count_each else 1
        return k + self.count_in * passes_counted


@dataclass(frozen=True, slots=True)
class Track:
    """Items played one after another on one clock.

    `loopable`: the file ends on the beat where the next pass would start, the ring of the last
    strokes folded back onto its start (one item, no pause, see fold_length).
    """

    items: tuple[Item, ...]
    loopable: bool = False
    title: str | Wording = ""
    citation: str | Wording = ""

    def __post_init__(self) -> None:
        if not self.items:
            raise OptionError(_("a track needs at least one item"))
        if self.loopable and (len(self.items) > 1 or self.items[0].pause):
            raise OptionError(
                _(
                    "loopable makes one score's beat loop; a programme of several items has no "
                    "single beat to loop on"
                ),
                option="loopable",
            )
        check_length(self.seconds, self.counted)
        sounds = sum(item.beats * (1 + item.practice.clicks) for item in self.items)
        if sounds > MAX_SOUNDS:
            raise OptionError(
                _(
                    "the render would hold {sounds:,} strokes and clicks{what}, over the limit "
                    "of {limit:,}; render less, with fewer clicks a stroke, or in parts"
                ).format(sounds=sounds, what=self.counted, limit=MAX_SOUNDS)
            )

    @property
    def seconds(self) -> Fraction:
        """How long the track lasts: every item's count-in, strokes and pause."""
        return sum((item.seconds for item in self.items), Fraction(0))

    @property
    def counted(self) -> str:
        """What the track's length counts, beyond one score's strokes (for messages), in the
        reader's language, such as " (3 items, count-ins and pauses included)"."""
        items = len(self.items)
        parts = [ngettext("{n:,} item", "{n:,} items", items).format(n=items)] if items > 1 else []
        if self.count_strokes:
            parts.append(_("count-ins"))
        if any(item.pause for item in self.items):
            parts.append(_("pauses"))
        if not parts:
            return ""
        listed = parts[0]
        if len(parts) > 1:
            listed = _("{most} and {last}").format(most=list_text(parts[:-1]), last=parts[-1])
        return _(" ({parts} included)").format(parts=listed)

    @classmethod
    def single(
        cls,
        timeline: Timeline,
        count_in: int = 0,
        loopable: bool = False,
        practice: Practice | None = None,
    ) -> Track:
        """One score's timeline as a track of one item."""
        item = Item(timeline, check_count_in(count_in), practice=practice or Practice())
        return cls((item,), loopable)

    @property
    def first(self) -> Timeline:
        return self.items[0].timeline

    @property
    def strokes(self) -> int:
        """Strokes of the scores (count strokes not included)."""
        return sum(len(item.timeline) for item in self.items)

    @property
    def count_strokes(self) -> int:
        return sum(item.beats - len(item.timeline) for item in self.items)

    def starts(self, rate: int) -> list[int]:
        """The frame where each item begins (its first count stroke, or its first stroke)."""
        frames, at = [], 0
        for item in self.items:
            frames.append(at)
            at += item.frames(rate)
        return frames

    def end_frame(self, rate: int) -> int:
        """The frame after the last item's last beat and pause: the length of a loopable file."""
        return self.starts(rate)[-1] + self.items[-1].frames(rate)

    def hits(self, rate: int) -> list[Hit]:
        """Every hit of the track, in order, as laid out with no change."""
        conductor = Conductor(self, rate)
        return conductor.advance(None)

    @in_english
    def cues(self, rate: int) -> list[tuple[int, str]]:
        """(frame, label) at the start of each item: for cue points in an audio file, in
        English as everything a sound file records."""
        return [
            (at, str(item.label) or item.timeline.description)
            for at, item in zip(self.starts(rate), self.items, strict=True)
        ]

    @property
    def description(self) -> str:
        if len(self.items) == 1:
            return self.first.description
        n = len(self.items)
        return str(self.title) or ngettext("{n} item", "{n} items", n).format(n=n)

    @property
    def plain(self) -> bool:
        """One score as it stands: one item, no count-in, no pause, not folded into a loop."""
        item = self.items[0]
        return (
            len(self.items) == 1
            and not (item.count_in or item.pause or self.loopable)
            and (item.practice.plain)
        )

    @property
    def heading(self) -> str:
        """What a file of the track is called: the score's heading, or the programme's title."""
        return self.first.heading if len(self.items) == 1 else self.description

    @property
    def comment(self) -> str:
        """What the track plays, precisely enough to play it again: each item's citation."""
        if len(self.items) == 1:
            return self.first.citation
        lines = [str(self.citation)] if self.citation else []
        return "\n".join([*lines, *(f"{i.label}: {i.timeline.citation}" for i in self.items)])


def as_track(played: Timeline | Track) -> Track:
    """A track as it is, or one score's timeline as the track of one item that plays it."""
    return played if isinstance(played, Track) else Track.single(played)


class Role(enum.Enum):
    """What a laid-out sound is: a stroke of the score, a count stroke, or a click."""

    STROKE = "stroke"
    COUNT = "count-in"
    CLICK = "click"


@dataclass(frozen=True, slots=True)
class Hit:
    """One sound laid out at a frame: the one truth every writer, player and checker reads.

    A stroke of a timeline carries the sign it is printed as (`sign`, ○ or □ from the pattern)
    and the drum it strikes under the timeline's reading (`drum`); a count stroke or a click has
    neither (drum None). `k` is the stroke's number in `timeline` (pass × strokes + index), or for
    a count stroke its number from 0; `count_in` is how many count strokes the item has.
    `timeline` is the one in force when the hit was laid out: its tempo, section and reading. A
    `muted` stroke is laid out (a display shows it) but not heard; a `click` sounds `sub` of a
    beat after stroke k's beat. Its level is `velocity` (MIDI) and `gain` (audio); its note lasts
    `note_beats` of a beat (the one note-off rule).
    """

    frame: int
    drum: Drum | None
    velocity: int
    beat: int
    item: int
    timeline: Timeline
    k: int
    count_in: int = 0
    offset: float = 0.0
    muted: bool = False
    click: bool = False
    sub: Fraction = Fraction(0)
    #: The share of a beat the hit's sound takes: a whole beat, a click its subdivision.
    share: Fraction = Fraction(1)
    #: The sign the stroke is printed as (○ or □), "" for a count stroke or a click.
    sign: str = ""

    @property
    def role(self) -> Role:
        if self.click:
            return Role.CLICK
        return Role.COUNT if self.drum is None else Role.STROKE

    @property
    def is_count(self) -> bool:
        return self.drum is None and not self.click

    @property
    def index(self) -> int:
        """Which stroke of the played strokes (from 0): its number in the pass, less one."""
        return self.k % len(self.timeline.strokes)

    @property
    def in_pass(self) -> int:
        """The stroke's number in its pass, from 1 (a span of strokes counted from its first)."""
        return self.index + 1

    @property
    def number(self) -> int:
        """The stroke's number in its section, from 1 (as a span of strokes is given)."""
        return self.timeline.first_stroke + self.index + 1

    @property
    def pass_no(self) -> int:
        return self.k // len(self.timeline.strokes) + 1

    @property
    def gain(self) -> float:
        """The level of the hit's sample: its velocity over its sound's own (a drum's default
        velocity, or COUNT_VELOCITY for the count sound a count stroke and a click play)."""
        reference = COUNT_VELOCITY if self.drum is None else default_velocity(self.drum)
        return self.velocity / reference

    @property
    def note_beats(self) -> Fraction:
        """How long the hit's note lasts, in beats: half its share (half a beat, a click half
        its subdivision), so that no note overlaps the next."""
        return self.share / 2

    @property
    def note_seconds(self) -> Fraction:
        """note_beats at the tempo the hit was laid out at."""
        return self.note_beats * self.timeline.tempo.interval

    def note_frames(self, rate: int) -> int:
        """note_seconds in frames at `rate`: where a player ends the note after the hit's frame."""
        return _round(self.note_seconds * rate)


@dataclass
class _Pending:
    """Commands waiting for their moment."""

    tempo: Tempo | None = None
    paused: bool = False
    #: The section to play from the end of the pass (None: no switch waits).
    switch: Section | None = None
    stop: bool = False
    next_item: bool = False


@dataclass
class Conductor:
    """Lays a track out beat by beat (see the module's docstring for the rule).

    `advance(stop)` returns the hits whose beat falls before frame `stop` (all of them for
    None) and moves on. Commands: set_tempo and pause/resume take effect at the next beat not yet
    laid out; switch_section, stop_after_pass and next_item at the end of the pass. With `loop`
    one item plays pass after pass for ever; several items start again from the first.
    """

    track: Track
    rate: int
    loop: bool = False
    item_no: int = 0
    timeline: Timeline | None = None
    finished: bool = False
    #: The frame after the last beat (and pause) once finished.
    end: int | None = None
    beat: int = 0
    pending: _Pending = field(default_factory=_Pending)
    _anchor: tuple[int, int] = (0, 0)  # (frame, beat) that the current grid counts from
    _start: int | None = 0  # frame where the next item begins, between items
    _count_left: int = 0
    _k: int = 0
    #: Passes done when the last stroke of a pass was laid out: what waits for the end of the
    #: pass is decided at the next beat, so a command given during the last stroke still counts.
    _pass_ended: int = 0
    _shape: Callable[[int, Drum, Fraction], tuple[int, float]] | None = None

    def __post_init__(self) -> None:
        expression = self.track.first.expression
        if expression is not None and not expression.is_plain:
            self._shape = expression.shaper()

    # --- commands ------------------------------------------------------------------------------

    def set_tempo(self, tempo: Tempo) -> None:
        self.pending.tempo = tempo

    def pause(self, paused: bool = True) -> None:
        self.pending.paused = paused

    def switch_section(self, to: Section | None = None) -> None:
        """Play `to` from the end of this pass (the other section when None); `to` the section
        already playing takes back a switch that waits."""
        current = (self.timeline or self.item.timeline).section
        if to is None:
            to = Section.SHE if current is Section.TOUHU else Section.TOUHU
        self.pending.switch = None if to is current else to

    def coming(self) -> tuple[Section, Section | None]:
        """The section laid out last, and the one a switch waits to play (None: no switch)."""
        return (self.timeline or self.item.timeline).section, self.pending.switch

    def stop_after_pass(self) -> None:
        self.pending.stop = True

    def next_item(self) -> None:
        self.pending.next_item = True

    # --- where things stand --------------------------------------------------------------------

    @property
    def tempo(self) -> Tempo:
        """The tempo in force (a pending change included)."""
        if self.pending.tempo is not None:
            return self.pending.tempo
        return (
            self.timeline or self.track.items[min(self.item_no, len(self.track.items) - 1)].timeline
        ).tempo

    @property
    def item(self) -> Item:
        return self.track.items[min(self.item_no, len(self.track.items) - 1)]

    def switchable(self) -> bool:
        """Whether the current pattern has both a 投壺 section and the whole."""
        timeline = self.timeline or self.item.timeline
        return timeline.score.pattern.half is not None

    @property
    def _playing(self) -> Timeline:
        """The timeline being laid out (there is one from the first item on)."""
        assert self.timeline is not None
        return self.timeline

    def _frame(self, beat: int, extra: Fraction = Fraction(0)) -> int:
        frame, first = self._anchor
        interval = self._playing.tempo.interval
        return frame + _round(((beat - first) * interval + extra) * self.rate)

    def _begin_item(self, start: int) -> None:
        item = self.track.items[self.item_no]
        self.timeline = item.timeline
        if item.practice.ramp is not None:
            self.timeline = dataclasses.replace(item.timeline, tempo=item.tempo_of(0))
        self._anchor = (start, self.beat)
        self._count_left = item.count_in
        self._k = 0
        self._start = None

    def _end_item(self) -> None:
        item = self.track.items[self.item_no]
        start = self._frame(self.beat, item.pause)
        self.pending.next_item = False
        self.item_no += 1
        if self.item_no == len(self.track.items):
            if not self.loop:
                self._finish(start)
                return
            self.item_no = 0
        self._start = start

    def _finish(self, end: int) -> None:
        self.finished = True
        self.end = end

    def _apply_tempo(self) -> None:
        tempo, self.pending.tempo = self.pending.tempo, None
        if tempo is None or tempo == self._playing.tempo:
            return
        _at, first = self._anchor
        if self.beat > first:  # count the new grid from the last beat laid out
            self._anchor = (self._frame(self.beat - 1), self.beat - 1)
        self.timeline = dataclasses.replace(self._playing, tempo=tempo)

    def next_frame(self) -> int | None:
        """The frame of the next beat (or item) to be laid out; None once finished."""
        if self.finished:
            return None
        if self._start is not None:
            return self._start
        self._apply_tempo()
        return self._frame(self.beat)

    def advance(self, stop: int | None) -> list[Hit]:
        hits: list[Hit] = []
        while not self.finished:
            if self._pass_ended:
                if stop is not None and self._frame(self.beat) >= stop:
                    break
                passes, self._pass_ended = self._pass_ended, 0
                self._end_of_pass(passes)
                continue
            if self._start is not None:
                if stop is not None and self._start >= stop:
                    break
                self._begin_item(self._start)
            self._apply_tempo()
            frame = self._frame(self.beat)
            if stop is not None and frame >= stop:
                break
            if self.pending.paused:
                self.beat += 1
                continue
            laid = self._lay(frame)
            hits += laid
            self.beat += 1
            if laid[0].is_count:
                continue
            self._k += 1
            n = len(self._playing.strokes)
            if self._k % n == 0:
                self._pass_ended = self._k // n
                if self._last_pass(self._pass_ended):  # nothing a command does can follow it
                    self._pass_ended = 0
                    self._end_of_pass(self._k // n)
        return hits

    def _last_pass(self, passes: int) -> bool:
        """Whether the track ends with this pass whatever waits."""
        last_item = self.item_no == len(self.track.items) - 1
        repeats = self.track.items[self.item_no].timeline.repeats
        return not self.loop and last_item and passes >= repeats

    def _lay(self, frame: int) -> list[Hit]:
        """The hits of the beat at `frame`: a count stroke, or a stroke and its clicks."""
        item = self.track.items[self.item_no]
        timeline = self._playing
        if self._count_left:
            k = item.count_in - self._count_left
            self._count_left -= 1
            return [
                Hit(
                    frame, None, COUNT_VELOCITY, self.beat, self.item_no, timeline, k, item.count_in
                )
            ]
        strokes = timeline.strokes
        index = self._k % len(strokes)
        stroke, sign = strokes[index], timeline.signs[index]
        beat_frame = frame
        if self._shape is not None:
            velocity, offset = self._shape(self._k, stroke.drum, timeline.tempo.interval)
            frame = max(0, frame + round(offset * self.rate))
        elif timeline.expression is not None:
            velocity, offset = timeline.expression.velocity(stroke.drum), 0.0
        else:
            velocity, offset = default_velocity(stroke.drum), 0.0
        practice = item.practice
        heard = practice.sounds(stroke.drum, self._k // len(strokes) + 1)
        where = (self.beat, self.item_no, timeline, self._k, item.count_in)
        laid = [Hit(frame, stroke.drum, velocity, *where, offset, muted=not heard, sign=sign)]
        clicks = practice.clicks
        for j in range(clicks):
            sub = Fraction(j, clicks)
            at = self._frame(self.beat, sub * timeline.tempo.interval) if j else beat_frame
            velocity = practice.click_velocity
            share = Fraction(1, clicks)
            laid.append(Hit(at, None, velocity, *where, click=True, sub=sub, share=share))
        return laid

    def _end_of_pass(self, passes: int) -> None:
        pending = self.pending
        single_loop = self.loop and len(self.track.items) == 1
        if pending.stop:
            self._finish(self._frame(self.beat))
            return
        if pending.next_item or (
            not single_loop and passes >= self.track.items[self.item_no].timeline.repeats
        ):
            pending.switch = None
            self._end_item()
            return
        if pending.switch is not None:
            to, pending.switch = pending.switch, None
            if self.switchable() and to is not self._playing.section:
                self.timeline = dataclasses.replace(self._playing, section=to, span=None)
                self._k = passes * len(self._playing.strokes)
        item = self.track.items[self.item_no]
        if item.practice.ramp is not None:  # each pass at its tempo, from its first beat
            self._anchor = (self._frame(self.beat), self.beat)
            tempo = item.practice.ramp.tempo(passes + 1)
            self.timeline = dataclasses.replace(self._playing, tempo=tempo)
        if item.practice.count_each:
            self._count_left = item.count_in
