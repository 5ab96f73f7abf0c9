"""How evenly a performance kept the beat (間若一): its strokes aligned to what the take is to
hold, each measured from the performer's own best even beat.

What a take is to hold comes from the conductor (conductor.track) that renders it: every sound
of the track (its strokes, and its count strokes and clicks) at its beat and its time at the
asked tempo (a ramp's, pass by pass); strokes laid out silent (silent passes, one drum only) are
not expected at all. The heard strokes are placed on that time axis by walking from stroke to
stroke at the local pace (so a slow drift does not lose the count), aligned to the expected
sounds by dynamic programming on their beats and drums (so a missed or an extra stroke does not
shift the rest, and a count stroke or a click is recognised as one), placed again from the
beat fitted to that alignment and aligned once more; the even beat is then fitted to the
matched strokes by least squares: its scale is the performer's tempo, and each stroke's offset
is its distance from that beat.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import Hit, Item, Practice, Role, Track, as_track
from drumscore.errors import PerformanceError
from drumscore.i18n import _, ngettext
from drumscore.model import Drum
from drumscore.performance.heard import Performance, untold_note

#: In the alignment, a stroke of the score left unmatched (missed) or a heard stroke left over
#: (extra) costs GAP; a count stroke or a click not heard costs nothing (it may sound with a
#: stroke). A matched pair costs 2 × GAP × (distance / MATCH_WIDTH)², the distance in beats,
#: plus WRONG_DRUM if the drums differ: a pair further apart than MATCH_WIDTH costs more than
#: leaving both out, so a stroke left out and an extra one beside its beat stay what they are.
GAP = 0.5
WRONG_DRUM = 0.3
MATCH_WIDTH = 0.35
#: Heard strokes this close (in beats) to an expected sound set the local pace.
ON_BEAT = 0.25
#: The local pace is the slope over this many of the latest strokes on an expected sound.
PACE_STROKES = 8
#: The alignment looks this many beats either side of a stroke's beat position.
BAND = 6
#: The first heard stroke may stand up to this many beats before the first expected sound (a
#: count-in not declared), or on any expected sound further in (the part after 半 alone).
SHIFTS = 8
#: The first heard strokes that choose where the performance starts.
SHIFT_STROKES = 32
#: More heard strokes than FAR_LONGER times the expected sounds (and a few) is another piece,
#: or the score played several times: refused, with the count of passes it would take.
FAR_LONGER = 1.5
#: Frames a second the expected take is laid out at: the conductor rounds each beat to a frame,
#: and at this rate the rounding (10 ns) is far below any offset measured.
LAYOUT_RATE = 100_000_000
#: The kinds of expected sound: a stroke of the score, a count stroke, a click.
STROKE, COUNT, CLICK = "stroke", "count", "click"


@dataclass(frozen=True, slots=True)
class Sound:
    """One sound a take is to hold, as the conductor lays it out: its beat from the first (a
    click's share of a beat added), its time in seconds at the asked tempo, and what it is (a
    stroke, with its drum and its number from 1 over every pass; a count stroke; a click)."""

    beat: float
    time: float
    kind: str = STROKE
    drum: Drum | None = None
    index: int = 0
    #: A stroke's sign as printed (○ or □); its drum is the one it strikes under the reading.
    sign: str = ""


def _heard(hit: Hit) -> bool:
    """Whether a rendered take holds a stroke: all but the muted ones."""
    return not hit.muted


@dataclass(frozen=True, slots=True)
class Expected:
    """What a take is to hold: its sounds in time order, and the beat grid they lie on.

    `beats` and `times` are every beat's number and time (seconds at the asked tempo), for
    placing a heard time between them; `silent` counts the strokes laid out but not heard
    (silent passes, one drum only, a drum left to a player).
    """

    timeline: Timeline
    sounds: tuple[Sound, ...]
    beats: tuple[float, ...]
    times: tuple[float, ...]
    silent: int = 0
    #: The track's item the take plays (its count-in and practice options).
    item: Item | None = None

    @property
    def count_in(self) -> int:
        return self.item.count_in if self.item is not None else 0

    @property
    def practice(self) -> Practice:
        return self.item.practice if self.item is not None else Practice()

    @classmethod
    def of_track(cls, track: Track) -> Expected:
        """The sounds of a one-item track as render lays them out (its count strokes and clicks
        included, its silent strokes left out)."""
        item = track.items[0]
        return cls.of_hits(track.hits(LAYOUT_RATE), LAYOUT_RATE, item.timeline, item=item)

    @classmethod
    def of_hits(
        cls,
        hits: Iterable[Hit],
        rate: int,
        timeline: Timeline,
        *,
        item: Item | None = None,
        played: Callable[[Hit], bool] = _heard,
    ) -> Expected:
        """The sounds of hits as the conductor laid them out at `rate` frames a second (a
        render's, or a play's as it went, live changes included): its strokes, count strokes
        and clicks, each at its beat and time. A stroke the performer does not play (`played`
        false: in a render a muted one; along a live play one the player sounds) is counted
        silent, not expected."""
        sounds: list[Sound] = []
        grid: dict[int, float] = {}
        silent = 0
        for hit in hits:
            time = hit.frame / rate
            if hit.sub == 0:
                grid.setdefault(hit.beat, time)
            role = hit.role
            if role is Role.CLICK:
                if not hit.muted:
                    sounds.append(Sound(hit.beat + float(hit.sub), time, CLICK))
            elif role is Role.COUNT:
                sounds.append(Sound(float(hit.beat), time, COUNT))
            elif not played(hit):
                silent += 1
            else:
                sound = Sound(float(hit.beat), time, STROKE, hit.drum, hit.k + 1, hit.sign)
                sounds.append(sound)
        sounds.sort(key=lambda s: (s.beat, s.kind != STROKE))
        beats = sorted(grid)
        return cls(
            timeline,
            tuple(sounds),
            tuple(float(b) for b in beats),
            tuple(grid[b] for b in beats),
            silent,
            item,
        )

    def heard_in(self, kind: str) -> tuple[Sound, ...]:
        """The sounds a performance of `kind` holds among its strokes: a MIDI file puts count
        strokes and clicks on a note of their own, read apart, so only the strokes."""
        if kind == "midi":
            return tuple(s for s in self.sounds if s.kind == STROKE)
        return self.sounds

    def counted(self, kind: str) -> int:
        """How many sounds of `kind` (count or click) the take is to hold."""
        return sum(s.kind == kind for s in self.sounds)


@dataclass(frozen=True, slots=True)
class Grid:
    """Beats ↔ seconds at the asked tempo, beyond the ends at the first and last interval."""

    beats: np.ndarray
    times: np.ndarray

    @classmethod
    def of(cls, expected: Expected) -> Grid:
        beats = np.asarray(expected.beats, dtype=np.float64)
        times = np.asarray(expected.times, dtype=np.float64)
        if len(beats) < 2:
            beats, times = np.asarray([0.0, 1.0]), np.asarray([0.0, 1.0])
        return cls(beats, times)

    def interval(self, beat: np.ndarray) -> np.ndarray:
        """Seconds a beat at each of these beats lasts."""
        steps = np.diff(self.times) / np.diff(self.beats)
        at = np.clip(np.searchsorted(self.beats, beat, side="right") - 1, 0, len(steps) - 1)
        return np.asarray(steps[at])

    def _ends(self) -> tuple[float, float]:
        """Seconds a beat lasts before the first beat and after the last."""
        t, b = self.times, self.beats
        return (t[1] - t[0]) / (b[1] - b[0]), (t[-1] - t[-2]) / (b[-1] - b[-2])

    def to_beats(self, time: np.ndarray) -> np.ndarray:
        t, b = self.times, self.beats
        first, last = self._ends()
        inside = np.interp(time, t, b)
        inside = np.where(time < t[0], b[0] + (time - t[0]) / first, inside)
        return np.where(time > t[-1], b[-1] + (time - t[-1]) / last, inside)

    def to_times(self, beat: np.ndarray) -> np.ndarray:
        t, b = self.times, self.beats
        first, last = self._ends()
        inside = np.interp(beat, b, t)
        inside = np.where(beat < b[0], t[0] + (beat - b[0]) * first, inside)
        return np.where(beat > b[-1], t[-1] + (beat - b[-1]) * last, inside)


@dataclass(frozen=True, slots=True)
class StrokeCheck:
    """One stroke of the score and what was heard for it: the drum (None: missed), when, and
    its offset from the fitted even beat in milliseconds (positive: late)."""

    index: int  # from 1, over every pass
    expected: Drum
    heard: Drum | None = None
    time: float | None = None
    offset_ms: float | None = None
    doubtful: bool = False
    #: The sign the stroke is printed as (○ or □); `expected` is the drum it strikes under the
    #: timeline's reading.
    sign: str = ""
    #: Played as a flam: its grace note this many milliseconds before it (0: not a flam).
    grace_ms: float = 0.0

    @property
    def flam(self) -> bool:
        return self.grace_ms > 0

    @property
    def missed(self) -> bool:
        return self.heard is None

    @property
    def wrong(self) -> bool:
        return self.heard is not None and self.heard is not self.expected


@dataclass(frozen=True, slots=True)
class ExtraStroke:
    """A heard stroke that the score does not have: when, which drum, after which stroke of
    the score (0: before the first), and its distance from the nearest beat in milliseconds."""

    time: float
    drum: Drum
    after: int
    offset_ms: float
    doubtful: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    """A performance checked against what its take is to hold (`expected`: the timeline's
    strokes, and the count strokes and clicks of the options it was made with)."""

    timeline: Timeline
    performance: Performance
    strokes: tuple[StrokeCheck, ...]
    extra: tuple[ExtraStroke, ...]
    #: The fitted even beat: seconds between strokes, and the time of stroke 1 on it.
    interval: float
    start: float
    #: The pace at the first and the last matched stroke, strokes a minute (a quadratic fit).
    tempo_first: float
    tempo_last: float
    #: The heard drums' names were swapped (a split's guess) to fit the score.
    swapped: bool = False
    expected: Expected | None = None
    #: Heard strokes recognised as the take's count strokes and clicks: (kind, how many).
    recognised: tuple[tuple[str, int], ...] = ()
    #: The change of tempo the take asks for (a ramp's) from the first matched stroke to the
    #: last, at the performer's pace, strokes a minute; the drift is what moved beyond it.
    asked_change: float = 0.0
    #: Extra strokes before stroke 1, one a beat up to its beat: a count-in the options did not
    #: declare (how many), else 0.
    undeclared_count: int = 0

    @property
    def tempo_bpm(self) -> float:
        return 60 / self.interval

    @property
    def drift_bpm(self) -> float:
        """How far the pace moved from the first matched stroke to the last beyond what the take
        asks for (a ramp), strokes a minute."""
        return self.tempo_last - self.tempo_first - self.asked_change

    def recognised_as(self, kind: str) -> int:
        """Heard strokes taken for the take's count strokes (COUNT) or clicks (CLICK)."""
        return dict(self.recognised).get(kind, 0)

    @property
    def matched(self) -> tuple[StrokeCheck, ...]:
        return tuple(s for s in self.strokes if not s.missed)

    @property
    def missing(self) -> tuple[StrokeCheck, ...]:
        return tuple(s for s in self.strokes if s.missed)

    @property
    def wrong(self) -> tuple[StrokeCheck, ...]:
        return tuple(s for s in self.strokes if s.wrong)

    @property
    def doubtful(self) -> tuple[StrokeCheck, ...]:
        return tuple(s for s in self.strokes if s.doubtful)

    @property
    def mean_abs_ms(self) -> float:
        offsets = [abs(s.offset_ms) for s in self.matched if s.offset_ms is not None]
        return sum(offsets) / len(offsets) if offsets else 0.0

    @property
    def largest(self) -> StrokeCheck:
        """The matched stroke furthest from the beat."""
        return max(self.matched, key=lambda s: abs(s.offset_ms or 0.0))


def check(
    performance: Performance,
    played: Timeline | Track | Expected,
    *,
    pace: float | None = None,
) -> Check:
    """The performance aligned to what its take is to hold and measured from its own even beat.

    `played` is the track the take was made with (its score, section, passes, count-in, clicks,
    silent passes, ramp; see Expected.of_track), or one score's timeline as it stands. Only its
    shape is used, not its tempo: the tempo is the performer's, found by the fit (a ramp's
    tempi scaled alike). An Expected gives the take as it was laid out instead (a live play's
    hits, Expected.of_hits: stopped early, its tempo changed, a drum left to the player).
    `pace` is the seconds between beats to start the beat walk from, when known (a live play's
    tempo), rather than the first strokes' own spacing against the expected sounds'.
    """
    take = played if isinstance(played, Expected) else Expected.of_track(as_track(played))
    timeline = take.timeline
    sounds = take.heard_in(performance.kind)
    heard = performance.strokes
    if len(heard) < 2:
        raise PerformanceError(
            ngettext(
                "performance {path!r} holds {n} stroke; an even beat needs at least 2 strokes",
                "performance {path!r} holds {n} strokes; an even beat needs at least 2 strokes",
                len(heard),
            ).format(path=performance.path, n=len(heard))
        )
    if len(heard) > FAR_LONGER * len(sounds) + 4:
        per_pass = max(1.0, len(sounds) / timeline.repeats)
        passes = max(2, round(len(heard) / per_pass))
        raise PerformanceError(
            _(
                "repeats {repeats}: performance {path!r} holds {n} strokes, far more than the "
                "{expected} of {score}; if it plays the section {passes} times give {passes}; if "
                "it holds a click or a count-in, check it with the options it was rendered with; "
                "or check it against the section or score it plays"
            ).format(
                repeats=timeline.repeats,
                path=performance.path,
                n=len(heard),
                expected=len(sounds),
                score=timeline.description,
                passes=passes,
            ),
            option="repeats",
        )
    if not any(s.kind == STROKE for s in sounds):
        raise PerformanceError(
            _("{score}: no stroke of it sounds in the take; there is nothing to check").format(
                score=timeline.description
            )
        )
    grid = Grid.of(take)
    times = np.asarray([s.time for s in heard])
    scales = _first_scales(times, sounds, grid, pace)
    tries = [(performance, False)]
    if performance.swappable:
        tries.append((performance.swapped(), True))
    best = None
    for candidate, swapped in tries:
        # drums not told apart match any drum of the score
        drums = [s.drum if candidate.apart else None for s in candidate.strokes]
        counts = [s.count for s in candidate.strokes]
        start, scale = _start(times, drums, sounds, grid, scales, counts)
        placed = walk(times, start, scale, sounds, grid)
        cost, pairs = align_on_beats(grid.to_beats(placed), drums, sounds, counts)
        again = _placed(times, pairs, sounds)
        if again is not None:
            cost, pairs = align_on_beats(grid.to_beats(again), drums, sounds, counts)
        if best is None or cost < best[0]:
            best = (cost, pairs, candidate, swapped)
    assert best is not None
    _cost, pairs, performance_named, swapped = best
    result = _measure(take, performance, performance_named, sounds, pairs, swapped, grid)
    if performance.colours and (performance.swappable or not performance.apart):
        retold = _told_by_score(performance, sounds, pairs)
        if retold is not None:
            return check(retold, take, pace=pace)
    if performance.swappable and performance.apart and _groups_miss_the_score(result):
        return check(performance.untold(), take, pace=pace)
    return result


def _told_by_score(
    performance: Performance, sounds: Sequence[Sound], pairs: list[tuple[int | None, int | None]]
) -> Performance | None:
    """A recording's strokes told again by each drum's sound as the strokes aligned to the
    score have it (drums.by_score), when their sound follows the score's drums; else None.
    Its drums are then apart and their names no guess; the notes of the groups go."""
    from drumscore.performance.drums import by_score, group_notes

    drums: list[Drum | None] = [None] * len(performance.strokes)
    for i, e in pairs:
        if i is None or e is None or sounds[e].kind != STROKE or performance.strokes[i].count:
            continue
        drums[i] = sounds[e].drum
    told = by_score(np.asarray(performance.colours, dtype=np.float64), drums)
    if told is None:
        return None
    named, doubtful = told
    strokes = tuple(
        s if s.count else replace(s, drum=d, doubtful=q)
        for s, d, q in zip(performance.strokes, named, doubtful, strict=True)
    )
    dropped = {*group_notes(), untold_note()}
    return replace(
        performance,
        strokes=strokes,
        how=_("the drums told by each drum's own sound, learnt from the strokes of the score"),
        swappable=False,
        notes=tuple(n for n in performance.notes if n not in dropped),
        apart=True,
    )


#: Two groups of sounds are not the two drums when, named the better way round, more than this
#: share of the matched strokes (and more than two) are on the wrong drum.
GROUPS_WRONG = 0.25


def _groups_miss_the_score(result: Check) -> bool:
    """Whether a split's two groups fail to follow the score's drums either way round."""
    wrong = len(result.wrong)
    return wrong > 2 and wrong > GROUPS_WRONG * len(result.matched)


def _first_scales(
    times: np.ndarray, sounds: Sequence[Sound], grid: Grid, pace: float | None
) -> list[float]:
    """Heard seconds per second of the asked tempo the walk may start with: from `pace` (heard
    seconds a beat) alone; else the median of the first heard gaps over the first expected
    ones, then each of those gaps and each two of them together over the expected gap (an
    extra stroke splits a gap in two: with two among the first strokes, the median is a split
    gap's), each fitted again to the first strokes it puts on the beat (_refined), for _start
    to choose among."""
    asked = float(grid.interval(np.asarray([sounds[0].beat]))[0])
    if pace is not None and pace > 0:
        return [pace / asked]
    heard = np.diff(times[: PACE_STROKES + 1])
    # sounds at one time (a stroke and its click: within a 64th of a beat) are heard as one
    at = np.sort(np.asarray([s.time for s in sounds]))
    apart = at[np.concatenate([[True], np.diff(at) > asked / 64])]
    want = np.diff(apart[: PACE_STROKES + 1])
    heard, want = heard[heard > 0], want[want > 0]
    if not len(heard) or not len(want):
        return [1.0]
    step = float(np.median(want))
    since = np.cumsum(heard)
    scales: list[float] = []
    for gap in [np.median(heard), *heard, *(heard[:-1] + heard[1:])]:
        scale = _refined(since, float(gap) / step, step)
        if all(abs(scale - other) > SAME_SCALE * other for other in scales):
            scales.append(scale)
    return scales


def _refined(since: np.ndarray, scale: float, step: float) -> float:
    """A scale fitted again (least squares through the first stroke) to the heard strokes
    `since` the first that it puts within ON_BEAT of a whole number of expected gaps `step`,
    so one gap's unevenness does not carry over the first strokes; as it was with fewer than
    two of them."""
    steps = since / (scale * step)
    whole = np.round(steps)
    on = (np.abs(steps - whole) < ON_BEAT) & (whole > 0)
    if np.sum(on) < 2:
        return scale
    x = whole[on] * step
    return float(np.dot(x, since[on]) / np.dot(x, x))


#: Scales of the walk this close (a share) are one.
SAME_SCALE = 0.01


def _start(
    times: np.ndarray,
    drums: Sequence[Drum | None],
    sounds: Sequence[Sound],
    grid: Grid,
    scales: Sequence[float],
    counts: Sequence[bool] = (),
) -> tuple[float, float]:
    """Where (seconds at the asked tempo) the first heard stroke stands, and the scale to walk
    from it with (one of `scales`): on an expected sound, or up to SHIFTS beats before the
    first; the pair under which most of the first heard strokes fall on an expected sound with
    its drum (a count stroke or click: any; a heard count sound only those): for each scale
    the start nearest the first sound of those, then of the scales the one under which they
    fall nearest their beats (the first of equals)."""
    beats = np.asarray([s.beat for s in sounds])
    want = np.asarray([-1 if s.drum is None else int(s.drum is Drum.PI) for s in sounds])
    # a drum not told apart (None) fits any stroke; a count sound (3) only a count or click
    have = np.asarray(
        [
            3 if k < len(counts) and counts[k] else {Drum.PI: 1, Drum.GU: 0, None: 2}[d]
            for k, d in enumerate(drums[:SHIFT_STROKES])
        ]
    )
    first = sounds[0]
    before = float(grid.interval(np.asarray([first.beat]))[0])
    best, best_scale, best_score = first.time, scales[0], (-1, -math.inf)
    for scale in scales:
        heard = (times[:SHIFT_STROKES] - times[0]) / scale
        span = (times[-1] - times[0]) / scale
        latest = max(first.time + SHIFTS * before, sounds[-1].time - span)
        candidates = [first.time - k * before for k in range(1, SHIFTS + 1)]
        candidates += sorted({s.time for s in sounds if s.time <= latest})
        candidates.sort(key=lambda c: abs(c - first.time))
        own = (-1, 0.0, first.time)  # this scale's best: count, closeness, start
        for start in candidates:
            at = grid.to_beats(start + heard)
            if len(beats) > 1:
                j = np.clip(np.searchsorted(beats, at), 1, len(beats) - 1)
                nearest = np.where(np.abs(beats[j - 1] - at) <= np.abs(beats[j] - at), j - 1, j)
            else:
                nearest = np.zeros(len(at), dtype=np.int64)
            distance = np.abs(beats[nearest] - at)
            close = distance < ON_BEAT
            fits = (want[nearest] == -1) | (want[nearest] == have) | (have == 2)
            on = close & fits
            count = int(np.sum(on))
            if count > own[0]:
                own = (count, -round(float(np.sum(distance[on] ** 2)), 9), start)
        if own[:2] > best_score:
            best, best_scale, best_score = own[2], scale, own[:2]
    return float(best), best_scale


def walk(
    times: np.ndarray, start: float, scale: float, sounds: Sequence[Sound], grid: Grid
) -> np.ndarray:
    """Each heard stroke's place in seconds at the asked tempo, the first at `start`: the time
    since the latest stroke on an expected sound, over the local scale (the slope of the latest
    PACE_STROKES strokes on one; at first `scale`). A ramp's tempi are in the expected times,
    so the walk keeps its count through them."""
    expected = np.asarray([s.time for s in sounds])
    width = ON_BEAT * grid.interval(np.asarray([s.beat for s in sounds]))
    placed = np.zeros(len(times))
    placed[0] = start
    anchors_t, anchors_q = [float(times[0])], [start]
    for i in range(1, len(times)):
        q = anchors_q[-1] + (times[i] - anchors_t[-1]) / scale
        placed[i] = q
        j = int(np.searchsorted(expected, q))
        near = [k for k in (j - 1, j) if 0 <= k < len(expected)]
        e = min(near, key=lambda k: abs(expected[k] - q))
        if abs(expected[e] - q) < width[e] and expected[e] > anchors_q[-1]:
            anchors_t.append(float(times[i]))
            anchors_q.append(float(expected[e]))
            if len(anchors_t) >= 3:
                ts = np.asarray(anchors_t[-PACE_STROKES:])
                qs = np.asarray(anchors_q[-PACE_STROKES:])
                slope = float(np.polyfit(qs, ts, 1)[0])
                if slope > 0:
                    scale = slope
    return placed


def _placed(
    times: np.ndarray, pairs: list[tuple[int | None, int | None]], sounds: Sequence[Sound]
) -> np.ndarray | None:
    """Each heard stroke's place again, from the beat fitted to an alignment: the inverse of a
    quadratic fit of heard time on expected time over the matched pairs (a straight line where
    that turns back); None with fewer than 2 pairs."""
    matched = [(i, e) for i, e in pairs if i is not None and e is not None]
    if len(matched) < 2:
        return None
    qs = np.asarray([sounds[e].time for _i, e in matched])
    ts = np.asarray([times[i] for i, _e in matched])
    if float(np.ptp(qs)) == 0.0:
        return None
    slope, c0 = np.polyfit(qs, ts, 1)
    if slope <= 0:
        return None
    placed = (times - c0) / slope
    if len(matched) >= 3:
        c2, c1, c0q = np.polyfit(qs, ts, 2)
        low, high = min(qs.min(), placed.min()), max(qs.max(), placed.max())
        if min(c1 + 2 * c2 * low, c1 + 2 * c2 * high) > 0:
            q = placed
            for _step in range(4):  # Newton's steps from the straight line's places
                q = q - (c0q + c1 * q + c2 * q * q - times) / (c1 + 2 * c2 * q)
            placed = q
    return np.asarray(placed)


def align_on_beats(
    positions: np.ndarray,
    drums: Sequence[Drum | None],
    sounds: Sequence[Sound],
    counts: Sequence[bool] = (),
) -> tuple[float, list[tuple[int | None, int | None]]]:
    """The least-cost monotone alignment of heard strokes (at beat `positions`) with the
    expected sounds: (cost, pairs of heard index and sound index, None for a gap).

    A matched pair costs 2 × GAP × (distance / MATCH_WIDTH)² + WRONG_DRUM if a stroke's drums
    differ (a count stroke or a click has no drum to be wrong, and a heard drum of None, from
    drums not told apart, differs from none); a heard stroke left over or a stroke of the score
    left out costs GAP, a count stroke or click not heard nothing. A heard stroke marked in
    `counts` (it sounds like the count sound) is matched to a count stroke or click only. Only
    sounds within BAND beats of a heard stroke are considered, so the work grows with the
    number of strokes, not its square.
    """
    n, m = len(positions), len(sounds)
    beats = np.asarray([s.beat for s in sounds], dtype=np.float64)
    skip = [GAP if s.kind == STROKE else 0.0 for s in sounds]  # the cost of leaving sound j out
    skipped = np.concatenate([[0.0], np.cumsum(skip)])  # of leaving out sounds 0..j-1
    lows_raw = np.searchsorted(beats, positions - BAND)
    highs_raw = np.searchsorted(beats, positions + BAND, side="right")
    lows, highs = [], []
    previous_high = 0
    for i in range(n):
        low = max(0, min(int(lows_raw[i]), m))
        high = max(0, min(int(highs_raw[i]), m))
        low = min(low, previous_high)  # each row reaches back to the end of the row before
        high = max(high, low)
        lows.append(low)
        highs.append(high)
        previous_high = high
    inf = math.inf
    weight = 2 * GAP / MATCH_WIDTH**2
    # row 0 (no heard stroke yet): sounds 0..j-1 all left out
    row_low, row = 0, [float(skipped[j]) for j in range(highs[0] + 1)] if n else [0.0]
    back: list[list[int]] = []  # per row: 0 match, 1 heard extra, 2 sound left out
    rows_low: list[int] = []
    for i in range(n):
        low, high = lows[i], highs[i]
        new = [inf] * (high - low + 1)
        moves = [0] * (high - low + 1)
        p, drum = float(positions[i]), drums[i]
        counted = i < len(counts) and counts[i]
        row_high = row_low + len(row)
        for j in range(low, high + 1):
            best, move = inf, 0
            if row_low <= j - 1 < row_high and not (counted and sounds[j - 1].kind == STROKE):
                sound = sounds[j - 1]
                cost = row[j - 1 - row_low] + weight * (p - beats[j - 1]) ** 2
                if drum is not None and sound.drum is not None and sound.drum is not drum:
                    cost += WRONG_DRUM
                best, move = cost, 0
            if row_low <= j < row_high:
                cost = row[j - row_low] + GAP
                if cost < best:
                    best, move = cost, 1
            if j > low:
                cost = new[j - 1 - low] + skip[j - 1]
                if cost < best:
                    best, move = cost, 2
            new[j - low] = best
            moves[j - low] = move
        back.append(moves)
        rows_low.append(low)
        row, row_low = new, low
    # the sounds after the last row's reach are all left out
    ends = [
        row[j - row_low] + float(skipped[m] - skipped[j])
        for j in range(row_low, row_low + len(row))
    ]
    j = row_low + int(np.argmin(ends))
    total = float(min(ends))
    pairs: list[tuple[int | None, int | None]] = [(None, k) for k in range(m - 1, j - 1, -1)]
    i = n
    while i > 0:
        move = back[i - 1][j - rows_low[i - 1]]
        if move == 0:
            pairs.append((i - 1, j - 1))
            i, j = i - 1, j - 1
        elif move == 1:
            pairs.append((i - 1, None))
            i -= 1
        else:
            pairs.append((None, j - 1))
            j -= 1
    pairs.extend((None, k) for k in range(j - 1, -1, -1))
    pairs.reverse()
    return total, pairs


def _measure(
    take: Expected,
    performance: Performance,
    named: Performance,
    sounds: Sequence[Sound],
    pairs: list[tuple[int | None, int | None]],
    swapped: bool,
    grid: Grid,
) -> Check:
    """The even beat fitted to the matched strokes, and every stroke measured from it."""
    timeline = take.timeline
    heard = named.strokes
    matched = [
        (i, e) for i, e in pairs if i is not None and e is not None and sounds[e].kind == STROKE
    ]
    if len(matched) < 2:
        raise PerformanceError(
            _(
                "performance {path!r}: only {matched} of its {n} strokes fit the strokes of "
                "{score}; check it against the score and section it plays"
            ).format(
                path=performance.path,
                matched=len(matched),
                n=len(named),
                score=timeline.description,
            )
        )
    qs = np.asarray([sounds[e].time for _i, e in matched])
    ts = np.asarray([heard[i].time for i, _ in matched])
    scale, origin = (float(x) for x in np.polyfit(qs, ts, 1))
    if scale <= 0:
        raise PerformanceError(
            _("performance {path!r} does not keep a beat that fits {score}").format(
                path=performance.path, score=timeline.description
            )
        )
    first_stroke = next(s for s in sounds if s.kind == STROKE)
    asked = grid.interval(np.asarray([first_stroke.beat, sounds[matched[0][1]].beat]))
    asked_last = float(grid.interval(np.asarray([sounds[matched[-1][1]].beat]))[0])
    interval = scale * float(asked[0])
    start = origin + scale * first_stroke.time
    slope_first, slope_last = _pace(qs, ts, scale)
    tempo_first = 60 / (slope_first * float(asked[1]))
    tempo_last = 60 / (slope_last * asked_last)
    asked_change = 60 / (scale * asked_last) - 60 / (scale * float(asked[1]))
    by_sound: dict[int, int] = {e: i for i, e in matched}
    strokes = []
    for e, sound in enumerate(sounds):
        if sound.kind != STROKE or sound.drum is None:
            continue
        found = by_sound.get(e)
        if found is None:
            strokes.append(StrokeCheck(sound.index, sound.drum, sign=sound.sign))
            continue
        s = heard[found]
        offset = (s.time - (origin + scale * sound.time)) * 1000
        # drums that could not be told apart are not heard wrong: the score's is shown, doubtful
        told = s.drum if named.apart else sound.drum
        strokes.append(
            StrokeCheck(
                sound.index, sound.drum, told, s.time, offset, s.doubtful, sound.sign, s.grace_ms
            )
        )
    extra: list[ExtraStroke] = []
    recognised: Counter[str] = Counter()
    beats_before: list[float] = []
    stroke_sounds = [s for s in sounds if s.kind == STROKE]
    stroke_beats = np.asarray([s.beat for s in stroke_sounds])
    for heard_at, sound_at in pairs:
        if sound_at is not None:
            if heard_at is not None and sounds[sound_at].kind != STROKE:
                recognised[sounds[sound_at].kind] += 1
        elif heard_at is not None:
            s = heard[heard_at]
            beat = float(grid.to_beats(np.asarray([(s.time - origin) / scale]))[0])
            # after the latest stroke of the score on or before it, on the fitted beat
            before = int(np.searchsorted(stroke_beats, beat + 1e-9, side="right"))
            after = stroke_sounds[before - 1].index if before else 0
            on = float(grid.to_times(np.asarray([float(round(beat))]))[0])
            offset = (s.time - (origin + scale * on)) * 1000
            extra.append(ExtraStroke(s.time, s.drum, after, offset, s.doubtful))
            if after == 0 and abs(offset) < ON_BEAT * interval * 1000:
                beats_before.append(round(beat))
    return Check(
        timeline,
        performance,
        tuple(strokes),
        tuple(extra),
        interval,
        start,
        tempo_first,
        tempo_last,
        swapped,
        take,
        tuple(sorted(recognised.items())),
        asked_change,
        _undeclared_count(take, first_stroke, beats_before),
    )


def _undeclared_count(take: Expected, first: Sound, beats: list[float]) -> int:
    """How many extra strokes before stroke 1 fall one a beat on the beats just before it (a
    count-in the options do not declare): 2 at least, else 0."""
    if take.count_in or len(beats) < 2:
        return 0
    want = [first.beat - k for k in range(len(beats), 0, -1)]
    return len(beats) if beats == want else 0


def _pace(qs: np.ndarray, ts: np.ndarray, scale: float) -> tuple[float, float]:
    """The scale (heard seconds a second of the asked tempo) at the first and the last matched
    stroke, from a quadratic fit of heard time on expected time (its slope there); the even
    beat's scale when there are too few strokes or the fit turns back on itself."""
    if len(qs) < 3:
        return scale, scale
    c2, c1, _c0 = np.polyfit(qs, ts, 2)
    first, last = c1 + 2 * c2 * qs[0], c1 + 2 * c2 * qs[-1]
    if first <= 0 or last <= 0:
        return scale, scale
    return float(first), float(last)
