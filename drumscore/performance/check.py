"""How evenly a performance kept the beat (間若一): its strokes aligned to a score's, each
measured from the performer's own best even beat.

The heard strokes are placed on a beat axis by walking from stroke to stroke at the local pace
(so a slow drift does not lose the count), aligned to the score's strokes by dynamic programming
on those beat positions and the drums (so a missed or an extra stroke does not shift the rest),
and the even beat is then fitted to the matched strokes by least squares: its interval is the
performer's tempo, and each stroke's offset is its distance from that beat.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from drumscore.conductor.timeline import Timeline
from drumscore.errors import PerformanceError
from drumscore.i18n import _, ngettext
from drumscore.model import Drum
from drumscore.performance.heard import Performance

#: In the alignment, a stroke left unmatched (missed or extra) costs GAP; a matched pair costs
#: the square of its distance from the beat (in beats) plus WRONG_DRUM if the drums differ.
GAP = 0.5
WRONG_DRUM = 0.3
#: Heard strokes whose beat position is this close to a whole beat set the local pace.
ON_BEAT = 0.25
#: The local pace is the slope over this many of the latest strokes on the beat.
PACE_STROKES = 8
#: The alignment looks this many beats either side of a stroke's beat position.
BAND = 6
#: The first heard stroke may stand up to this many strokes before the score's first, or
#: after it (or further in, when the performance is shorter: the part after 半 played alone).
SHIFTS = 3
#: More heard strokes than FAR_LONGER times the score's (and a few) is another piece, or the
#: score played several times: refused, with the count of passes it would take.
FAR_LONGER = 1.5


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
    """A performance checked against a timeline (its score, section and passes)."""

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

    @property
    def tempo_bpm(self) -> float:
        return 60 / self.interval

    @property
    def drift_bpm(self) -> float:
        """How far the pace moved from the first matched stroke to the last, strokes a minute."""
        return self.tempo_last - self.tempo_first

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


def expected_drums(timeline: Timeline) -> list[Drum]:
    """The score's strokes in the order played: the section, pass after pass."""
    return [s.drum for s in timeline.strokes] * timeline.repeats


def check(
    performance: Performance,
    timeline: Timeline,
    *,
    expected: Sequence[Drum | None] | None = None,
    pace: float | None = None,
) -> Check:
    """The performance aligned to the timeline's strokes and measured from its own even beat.

    Only the timeline's strokes (score, section, passes) are used, not its tempo: the tempo is
    the performer's, found by the fit. `expected` gives the strokes instead, beat by beat, when
    they are not the timeline's passes (a live play stopped early); a None among them is a beat
    the performer leaves to someone else (a drum the player sounds), neither checked nor missed.
    `pace` is the seconds between beats to start the beat walk from, when known (a live play's
    tempo), rather than the first strokes' own spacing (which is a beat only when every stroke is
    played).
    """
    expected = list(expected_drums(timeline) if expected is None else expected)
    checked = sum(d is not None for d in expected)
    heard = performance.strokes
    if len(heard) < 2:
        raise PerformanceError(
            ngettext(
                "performance {path!r} holds {n} stroke; an even beat needs at least 2 strokes",
                "performance {path!r} holds {n} strokes; an even beat needs at least 2 strokes",
                len(heard),
            ).format(path=performance.path, n=len(heard))
        )
    if len(heard) > FAR_LONGER * checked + 4:
        passes = max(2, round(len(heard) / len(timeline.strokes)))
        raise PerformanceError(
            _(
                "repeats {repeats}: performance {path!r} holds {n} strokes, far more than the "
                "{expected} of {score}; if it plays the section {passes} times give {passes}, or "
                "check it against the section or score it plays"
            ).format(
                repeats=timeline.repeats,
                path=performance.path,
                n=len(heard),
                expected=checked,
                score=timeline.description,
                passes=passes,
            ),
            option="repeats",
        )
    times = np.asarray([s.time for s in heard])
    positions = beat_positions(times, pace)
    tries = [(performance, False)]
    if performance.swappable:
        tries.append((performance.swapped(), True))
    best = None
    for candidate, swapped in tries:
        # drums not told apart match any drum of the score
        drums = [s.drum if candidate.apart else None for s in candidate.strokes]
        shift = _best_shift(positions, drums, expected)
        cost, pairs = align_on_beats(positions + shift, drums, expected)
        if best is None or cost < best[0]:
            best = (cost, pairs, candidate, swapped)
    assert best is not None
    _cost, pairs, performance_named, swapped = best
    result = _measure(timeline, performance, performance_named, expected, pairs, swapped)
    if performance.swappable and performance.apart and _groups_miss_the_score(result):
        return check(performance.untold(), timeline, expected=expected, pace=pace)
    return result


#: Two groups of sounds are not the two drums when, named the better way round, more than this
#: share of the matched strokes (and more than two) are on the wrong drum.
GROUPS_WRONG = 0.25


def _groups_miss_the_score(result: Check) -> bool:
    """Whether a split's two groups fail to follow the score's drums either way round."""
    wrong = len(result.wrong)
    return wrong > 2 and wrong > GROUPS_WRONG * len(result.matched)


def beat_positions(times: np.ndarray, pace: float | None = None) -> np.ndarray:
    """Each stroke's place on a beat axis, the first at 0: the time since the latest stroke on
    the beat, divided by the local pace (the slope of the latest PACE_STROKES strokes on the
    beat; at first `pace`, or else the median of the first intervals). A stroke halfway between
    beats lands at .5."""
    gaps = np.diff(times)
    if pace is None:
        pace = float(np.median(gaps[:PACE_STROKES]))
    if pace <= 0:
        pace = float(max(gaps.max(), 1e-3))
    positions = np.zeros(len(times))
    anchors_t = [float(times[0])]
    anchors_k = [0.0]
    for i in range(1, len(times)):
        p = anchors_k[-1] + (times[i] - anchors_t[-1]) / pace
        positions[i] = p
        if abs(p - round(p)) < ON_BEAT and round(p) > anchors_k[-1]:
            anchors_t.append(float(times[i]))
            anchors_k.append(float(round(p)))
            if len(anchors_t) >= 3:
                ts = np.asarray(anchors_t[-PACE_STROKES:])
                ks = np.asarray(anchors_k[-PACE_STROKES:])
                slope = float(np.polyfit(ks, ts, 1)[0])
                if slope > 0:
                    pace = slope
    return positions


def _best_shift(
    positions: np.ndarray, drums: Sequence[Drum | None], expected: list[Drum | None]
) -> int:
    """Where the first heard stroke stands in the score: the shift (from −SHIFTS to as far in as
    the performance still fits, the smallest first) under which most heard strokes fall on a
    beat of the score with its drum."""
    slots = np.rint(positions).astype(np.int64)
    # a beat left to the player matches no heard stroke
    want = np.asarray([{Drum.PI: 1, Drum.GU: 0, None: -1}[d] for d in expected])
    have = np.asarray([{Drum.PI: 1, Drum.GU: 0, None: 2}[d] for d in drums], dtype=np.int64)
    best, best_score = 0, -1
    furthest = max(SHIFTS, len(expected) - 1 - int(slots[-1]))
    for shift in sorted(range(-SHIFTS, furthest + 1), key=abs):
        at = slots + shift
        inside = (at >= 0) & (at < len(expected))
        hit = want[at[inside]]
        score = int(np.sum((hit == have[inside]) | ((have[inside] == 2) & (hit >= 0))))
        if score > best_score:
            best, best_score = shift, score
    return best


def align_on_beats(
    positions: np.ndarray, drums: Sequence[Drum | None], expected: list[Drum | None]
) -> tuple[float, list[tuple[int | None, int | None]]]:
    """The least-cost monotone alignment of heard strokes (at beat `positions`) with the score's
    strokes 0, 1, 2…: (cost, pairs of heard index and score index, None for a gap).

    A matched pair costs (position − index)² + WRONG_DRUM if the drums differ (a heard drum of
    None, from drums not told apart, differs from none); an unmatched
    stroke on either side costs GAP. A score stroke that is None (left to the player) is never
    matched and costs nothing left out. Only score strokes within BAND beats of a heard stroke
    are considered, so the work grows with the number of strokes, not its square.
    """
    n, m = len(positions), len(expected)
    skip = [0.0 if d is None else GAP for d in expected]  # the cost of leaving stroke j out
    skipped = np.concatenate([[0.0], np.cumsum(skip)])  # of leaving out strokes 0..j-1
    centre = np.rint(positions).astype(np.int64)
    lows, highs = [], []
    previous_high = 0
    for i in range(n):
        low = max(0, min(int(centre[i]) - BAND, m))
        high = max(0, min(int(centre[i]) + BAND, m))
        low = min(low, previous_high)  # each row reaches back to the end of the row before
        high = max(high, low)
        lows.append(low)
        highs.append(high)
        previous_high = high
    inf = math.inf
    # row 0 (no heard stroke yet): score strokes 0..j-1 all missed
    row_low, row = 0, [float(skipped[j]) for j in range(highs[0] + 1)] if n else [0.0]
    back: list[list[int]] = []  # per row: 0 match, 1 heard extra, 2 score stroke missed
    rows_low: list[int] = []
    for i in range(n):
        low, high = lows[i], highs[i]
        new = [inf] * (high - low + 1)
        moves = [0] * (high - low + 1)
        p, drum = float(positions[i]), drums[i]
        for j in range(low, high + 1):
            best, move = inf, 0
            if j - 1 >= row_low and j - 1 < row_low + len(row) and expected[j - 1] is not None:
                cost = row[j - 1 - row_low] + (p - (j - 1)) ** 2
                if drum is not None and expected[j - 1] is not drum:
                    cost += WRONG_DRUM
                best, move = cost, 0
            if row_low <= j < row_low + len(row):
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
    # the score strokes after the last row's reach are all missed
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
    timeline: Timeline,
    performance: Performance,
    named: Performance,
    expected: list[Drum | None],
    pairs: list[tuple[int | None, int | None]],
    swapped: bool,
) -> Check:
    """The even beat fitted to the matched strokes, and every stroke measured from it."""
    matched = [(i, j) for i, j in pairs if i is not None and j is not None]  # both ints
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
    heard = named.strokes
    ks = np.asarray([j for _, j in matched], dtype=np.float64)
    ts = np.asarray([heard[i].time for i, _ in matched])
    interval, start = (float(x) for x in np.polyfit(ks, ts, 1))
    if interval <= 0:
        raise PerformanceError(
            _("performance {path!r} does not keep a beat that fits {score}").format(
                path=performance.path, score=timeline.description
            )
        )
    first, last = _pace(ks, ts, interval)
    by_score: dict[int, int] = {j: i for i, j in matched}
    strokes = []
    for j, drum in enumerate(expected):
        if drum is None:
            continue
        found = by_score.get(j)
        if found is None:
            strokes.append(StrokeCheck(j + 1, drum))
            continue
        s = heard[found]
        offset = (s.time - (start + interval * j)) * 1000
        # drums that could not be told apart are not heard wrong: the score's is shown, doubtful
        told = s.drum if named.apart else drum
        strokes.append(StrokeCheck(j + 1, drum, told, s.time, offset, s.doubtful))
    extra: list[ExtraStroke] = []
    after = 0
    for heard_at, score_at in pairs:
        if score_at is not None:
            after = score_at + 1
        elif heard_at is not None:
            s = heard[heard_at]
            beat = (s.time - start) / interval
            offset = (s.time - (start + interval * round(beat))) * 1000
            extra.append(ExtraStroke(s.time, s.drum, after, offset, s.doubtful))
    return Check(
        timeline,
        performance,
        tuple(strokes),
        tuple(extra),
        interval,
        start,
        60 / first,
        60 / last,
        swapped,
    )


def _pace(ks: np.ndarray, ts: np.ndarray, interval: float) -> tuple[float, float]:
    """The interval at the first and the last matched stroke, from a quadratic fit of time on
    stroke number (its slope there); the even beat's interval when there are too few strokes or
    the fit turns back on itself."""
    if len(ks) < 3:
        return interval, interval
    c2, c1, _c0 = np.polyfit(ks, ts, 2)
    first, last = c1 + 2 * c2 * ks[0], c1 + 2 * c2 * ks[-1]
    if first <= 0 or last <= 0:
        return interval, interval
    return float(first), float(last)
