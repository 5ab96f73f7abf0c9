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
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from drumscore.corpus import resolve
from drumscore.duration import parse_duration
from drumscore.errors import DrumscoreError, InputMissingError, OptionError, ProgrammeError
from drumscore.expression import Expression, default_velocity
from drumscore.files.reading import check_schema, parse_toml, read_input_text
from drumscore.model import STATE_SLUGS, STATE_SPELLINGS, Drum, Section
from drumscore.timeline import Event, Timeline, arrange
from drumscore.timing import Tempo

#: The longest count-in, in strokes.
MAX_COUNT_IN = 64
#: The velocity of a count stroke (MIDI; audio plays the count sample at its own level).
COUNT_VELOCITY = 100


def _round(x: Fraction) -> int:
    """The nearest whole number, ties rounded up (as Tempo.onset_sample rounds)."""
    return (2 * x.numerator + x.denominator) // (2 * x.denominator)


def check_count_in(value: Any) -> int:
    """count_in: a whole number of strokes from 0 to MAX_COUNT_IN."""
    if value is None:
        return 0
    try:
        count = int(value) if not isinstance(value, bool | float) else -1
    except (TypeError, ValueError):
        count = -1
    if not 0 <= count <= MAX_COUNT_IN:
        raise OptionError(
            f"count_in takes a whole number of strokes from 0 to {MAX_COUNT_IN}, such as 4; "
            f"not {value!r}",
            option="count_in",
        )
    return count


@dataclass(frozen=True, slots=True)
class Item:
    """One timeline with `count_in` count strokes on its beat before it, then `pause` s of rest."""

    timeline: Timeline
    count_in: int = 0
    pause: Fraction = Fraction(0)
    label: str = ""

    @property
    def beats(self) -> int:
        return self.count_in + len(self.timeline)

    @property
    def seconds(self) -> Fraction:
        """How long the item lasts, its pause included."""
        return self.beats * self.timeline.tempo.interval + self.pause


@dataclass(frozen=True, slots=True)
class Track:
    """Items played one after another on one clock.

    `loopable`: the file ends on the beat where the next pass would start, the ring of the last
    strokes folded back onto its start (one item, no pause, see fold_length).
    """

    items: tuple[Item, ...]
    loopable: bool = False
    title: str = ""
    citation: str = ""

    def __post_init__(self) -> None:
        if not self.items:
            raise OptionError("a track needs at least one item")
        if self.loopable and (len(self.items) > 1 or self.items[0].pause):
            raise OptionError(
                "loopable makes one score's beat loop; a programme of several items has no "
                "single beat to loop on",
                option="loopable",
            )

    @classmethod
    def single(cls, timeline: Timeline, count_in: int = 0, loopable: bool = False) -> Track:
        return cls((Item(timeline, check_count_in(count_in)),), loopable)

    @property
    def first(self) -> Timeline:
        return self.items[0].timeline

    @property
    def strokes(self) -> int:
        """Strokes of the scores (count strokes not included)."""
        return sum(len(item.timeline) for item in self.items)

    @property
    def count_strokes(self) -> int:
        return sum(item.count_in for item in self.items)

    def starts(self, rate: int) -> list[int]:
        """The frame where each item begins (its first count stroke, or its first stroke)."""
        frames, at = [], 0
        for item in self.items:
            frames.append(at)
            at += _round((item.beats * item.timeline.tempo.interval + item.pause) * rate)
        return frames

    def end_frame(self, rate: int) -> int:
        """The frame after the last item's last beat and pause: the length of a loopable file."""
        starts = self.starts(rate)
        last = self.items[-1]
        return starts[-1] + _round((last.beats * last.timeline.tempo.interval + last.pause) * rate)

    def hits(self, rate: int) -> list[Hit]:
        """Every hit of the track, in order, as laid out with no change."""
        conductor = Conductor(self, rate)
        return conductor.advance(None)

    def cues(self, rate: int) -> list[tuple[int, str]]:
        """(frame, label) at the start of each item: for cue points in an audio file."""
        return [
            (at, item.label or item.timeline.description)
            for at, item in zip(self.starts(rate), self.items, strict=True)
        ]

    @property
    def description(self) -> str:
        if len(self.items) == 1:
            return self.first.description
        return self.title or f"{len(self.items)} items"


@dataclass(frozen=True, slots=True)
class Hit:
    """One sound at a frame: a stroke of a timeline, or (drum None) a count stroke.

    `k` is the stroke's number in `timeline` (pass × strokes + index, as Timeline events count),
    or for a count stroke its number from 0; `count_in` is how many count strokes the item has.
    `timeline` is the one in force when the hit was laid out: its tempo and section.
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

    @property
    def is_count(self) -> bool:
        return self.drum is None

    @property
    def index(self) -> int:
        """Which stroke of the section (from 0)."""
        return self.k % len(self.timeline.strokes)

    @property
    def pass_no(self) -> int:
        return self.k // len(self.timeline.strokes) + 1


@dataclass
class _Pending:
    """Commands waiting for their moment."""

    tempo: Tempo | None = None
    paused: bool = False
    switch: bool = False
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
    _shape: Callable | None = None

    def __post_init__(self) -> None:
        expression = self.track.first.expression
        if expression is not None and not expression.is_plain:
            self._shape = expression.shaper()

    # --- commands ------------------------------------------------------------------------------

    def set_tempo(self, tempo: Tempo) -> None:
        self.pending.tempo = tempo

    def pause(self, paused: bool = True) -> None:
        self.pending.paused = paused

    def switch_section(self) -> None:
        self.pending.switch = not self.pending.switch

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
        _, first = self._anchor
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
            hit = self._lay(frame)
            hits.append(hit)
            self.beat += 1
            if hit.is_count:
                continue
            self._k += 1
            n = len(self._playing.strokes)
            if self._k % n == 0:
                self._end_of_pass(self._k // n)
        return hits

    def _lay(self, frame: int) -> Hit:
        item = self.track.items[self.item_no]
        timeline = self._playing
        if self._count_left:
            k = item.count_in - self._count_left
            self._count_left -= 1
            return Hit(
                frame, None, COUNT_VELOCITY, self.beat, self.item_no, timeline, k, item.count_in
            )
        strokes = timeline.strokes
        stroke = strokes[self._k % len(strokes)]
        event = Event(
            self._k,
            stroke.drum,
            stroke,
            self._k // len(strokes) + 1,
            timeline.expression.velocity(stroke.drum)
            if timeline.expression
            else _default_velocity(stroke.drum),
        )
        offset = 0.0
        if self._shape is not None:
            event = self._shape(event, timeline.tempo.interval)
            offset = event.offset
            frame = max(0, frame + round(offset * self.rate))
        return Hit(
            frame,
            stroke.drum,
            event.velocity,
            self.beat,
            self.item_no,
            timeline,
            self._k,
            item.count_in,
            offset,
        )

    def _end_of_pass(self, passes: int) -> None:
        pending = self.pending
        single_loop = self.loop and len(self.track.items) == 1
        if pending.stop:
            self._finish(self._frame(self.beat))
            return
        if pending.next_item or (
            not single_loop and passes >= self.track.items[self.item_no].timeline.repeats
        ):
            pending.switch = False
            self._end_item()
            return
        if pending.switch:
            pending.switch = False
            if self.switchable():
                other = Section.SHE if self._playing.section is Section.TOUHU else Section.TOUHU
                self.timeline = dataclasses.replace(self._playing, section=other)
                self._k = passes * len(self._playing.strokes)


def _default_velocity(drum: Drum) -> int:
    return default_velocity(drum)


# --- programmes: a TOML file of items in order -------------------------------------------------

PROGRAMMES_DIR = Path(__file__).with_name("programmes")
ITEM_KEYS = (
    "label",
    "score",
    "section",
    "bpm",
    "interval",
    "repeats",
    "duration",
    "count_in",
    "pause",
)
TOP_KEYS = ("title", "citation", "item")
#: What {state} in a programme's score names stands for when no state is given.
DEFAULT_STATE = "lu"


def builtin_programmes() -> list[str]:
    return sorted(p.stem for p in PROGRAMMES_DIR.glob("*.toml"))


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long to be a file
        return False


def _programme_text(name: str) -> tuple[str, str]:
    """(text, where) of a programme file, or of a built-in programme by name."""
    path = Path(name)
    builtin = PROGRAMMES_DIR / f"{name}.toml"
    if not _is_file(path) and "/" not in name and _is_file(builtin):
        path = builtin
    try:
        return read_input_text(path, "programme file"), f"programme {str(name)!r}"
    except InputMissingError:
        raise ProgrammeError(
            f"no programme file {name!r}; give a TOML file or a built-in programme: "
            + ", ".join(builtin_programmes())
        ) from None


def _seconds(value: object, what: str, where: str, zero: bool) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ProgrammeError(f"{where}: {what} must be a time such as 10s or 2m, not {value!r}")
    if zero and value in (0, "0", "0s"):
        return Fraction(0)
    try:
        return parse_duration(str(value))
    except OptionError as exc:
        raise ProgrammeError(f"{where}: {what}: {str(exc).removeprefix('duration ')}") from None


def load_programme(
    name: str,
    *,
    state: str | None = None,
    tempo: Tempo | None = None,
    count_in: int | None = None,
    expression: Expression | None = None,
) -> Track:
    """The track a programme file (or built-in programme) describes.

    Each [[item]] names a score (`{state}` stands for `state`), and may give section, bpm or
    interval, repeats or duration, count_in and pause (after the item). `tempo` and `count_in`
    serve the items that give none.
    """
    text, where = _programme_text(name)
    data = parse_toml(text, where, ProgrammeError)
    check_schema(data, {}, where, ProgrammeError)  # depth and sizes; the items are checked below
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise ProgrammeError(
            f"{where}: unknown key {unknown[0]!r}; a programme has {', '.join(TOP_KEYS[:2])} and "
            "[[item]] tables"
        )
    entries = data.get("item")
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(e, dict) for e in entries)
    ):
        raise ProgrammeError(f"{where} needs one or more [[item]] tables, each with score = ...")
    slug = None
    if state is not None:
        spelled = STATE_SPELLINGS.get(state.strip().casefold())
        if spelled is None:
            raise ProgrammeError(f"state {state!r} is not known; choose lu or xue", option="state")
        slug = STATE_SLUGS[spelled]
    uses_state = False
    items = []
    for number, entry in enumerate(entries, 1):
        at = f"{where}, item {number}"
        bad = sorted(set(entry) - set(ITEM_KEYS))
        if bad:
            raise ProgrammeError(f"{at}: unknown key {bad[0]!r}; use {', '.join(ITEM_KEYS)}")
        score_name = entry.get("score")
        if not isinstance(score_name, str) or not score_name.strip():
            raise ProgrammeError(f'{at}: score = "lu/1" (a score\'s name or notation) is missing')
        if "{state}" in score_name:
            uses_state = True
            score_name = score_name.replace("{state}", slug or DEFAULT_STATE)
        try:
            item_tempo = tempo
            if "bpm" in entry or "interval" in entry:
                item_tempo = Tempo.from_options(entry.get("bpm"), entry.get("interval"))
            repeats = entry.get("repeats", 1)
            duration = None
            if "duration" in entry:
                if "repeats" in entry:
                    raise ProgrammeError(f"{at}: give repeats or duration, not both")
                duration = _seconds(entry["duration"], "duration", at, zero=False)
            timeline = arrange(
                resolve(score_name),
                entry.get("section"),
                item_tempo,
                repeats,
                expression,
                duration,
            )
            counted = check_count_in(entry.get("count_in", count_in))
        except ProgrammeError:
            raise
        except DrumscoreError as exc:
            raise ProgrammeError(f"{at}: {exc}") from None
        pause = _seconds(entry.get("pause", 0), "pause", at, zero=True)
        label = entry.get("label", f"item {number}")
        items.append(Item(timeline, counted, pause, str(label)))
    if slug is not None and not uses_state:
        raise ProgrammeError(
            f"state {state!r} does nothing here: {where} names its scores itself "
            "(no {state} in them); leave it out",
            option="state",
        )
    state_word = f" ({slug or DEFAULT_STATE})" if uses_state else ""
    title = str(data.get("title", Path(name).stem)) + state_word
    return Track(tuple(items), title=title, citation=str(data.get("citation", "")))
