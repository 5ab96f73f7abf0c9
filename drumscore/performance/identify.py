"""Which score a performance plays: the check of a take against the other scores, figures and
sections of its edition, and the one that fits clearly better than the score it was checked
against, if any."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from drumscore.conductor.timeline import Timeline, arrange
from drumscore.conductor.track import Track
from drumscore.corpus import DEFAULT_EDITION, find_edition
from drumscore.errors import DrumscoreError, PerformanceError
from drumscore.i18n import _, ngettext, pgettext
from drumscore.model import READINGS, Section
from drumscore.performance.check import FAR_LONGER, Check, check
from drumscore.performance.heard import Performance

#: Another reading fits clearly better when it has at most half the faults of the one checked
#: and at least MARGIN fewer.
MARGIN = 2


@dataclass(frozen=True, slots=True)
class Fit:
    """A score (section, passes) the performance fits better, and the two counts of faults."""

    timeline: Timeline
    faults: int
    against: int
    result: Check


def faults(result: Check) -> int:
    """Missed, extra and wrong strokes: how far a check says the take is from the score."""
    return len(result.missing) + len(result.extra) + len(result.wrong)


def candidates(timeline: Timeline) -> list[Timeline]:
    """The other readings a take of `timeline` might play: every score of its edition (the
    default edition for a score that is not in one), each section, with as many passes, read
    as the take's signs were read; and its own score and section under the other readings of
    the signs; readings of the same strokes as the one checked, or of each other, counted once."""
    score = timeline.score
    try:
        edition = find_edition(score.edition_id or DEFAULT_EDITION)
    except DrumscoreError:  # an edition file gone since: the default's scores, then
        edition = find_edition(DEFAULT_EDITION)
    seen = {_drums(timeline)}
    out = []
    options = [(timeline.score, timeline.section, r) for r in READINGS if r != timeline.reading]
    for other in edition.scores:
        options.extend((other, section, timeline.reading) for section in Section.in_order())
    for other, section, signs in options:
        if not other.pattern.section(section):
            continue
        arranged = arrange(other, section, repeats=timeline.repeats, reading=signs)
        if _drums(arranged) in seen:
            continue
        seen.add(_drums(arranged))
        out.append(arranged)
    return out


def _drums(timeline: Timeline) -> tuple[object, ...]:
    return tuple(s.drum for s in timeline.strokes)


def better_fit(performance: Performance, result: Check, played: Track | None = None) -> Fit | None:
    """The reading the performance fits clearly better than `result`'s (fewest faults, then the
    smallest mean offset), or None. Only a check with faults looks further. `played` is the
    one-item track the take was checked with (its count-in, clicks, silent passes, ramp): each
    other reading is checked as a take of it made with the same options, so that the count
    strokes and clicks are left out of it as of the one checked; without it, as it stands."""
    against = faults(result)
    if against < MARGIN:
        return None
    drums = sum(not stroke.count for stroke in performance.strokes)  # count sounds left out
    best: Fit | None = None
    for timeline in candidates(result.timeline):
        if not 0.5 * len(timeline) <= drums <= FAR_LONGER * len(timeline) + 4:
            continue  # far longer or shorter than that reading: not it
        try:
            other = check(performance, _made_as(played, timeline))
        except DrumscoreError:
            continue  # a take check refuses against that reading (or its options): not it
        count = faults(other)
        if count + MARGIN > against or 2 * count > against:
            continue
        if best is None or (count, other.mean_abs_ms) < (best.faults, best.result.mean_abs_ms):
            best = Fit(timeline, count, against, other)
    return best


def _made_as(played: Track | None, timeline: Timeline) -> Timeline | Track:
    """`timeline` as a take of it made with the options of `played` (its one item's count-in and
    practice, its loop), or as it stands without `played`."""
    if played is None:
        return timeline
    item = dataclasses.replace(played.items[0], timeline=timeline)
    return dataclasses.replace(played, items=(item,))


def reading(timeline: Timeline, signs: bool = False) -> str:
    """A reading named short, as on the command line: xue/2@zhushu 投壺, lu/1@zhushu 射 ×2; with
    `signs`, whose reading of the signs it is too: lu/1@zhushu 射 (毛奇齡 經問 卷十六)."""
    section = timeline.section
    name = section.rite or section.shown
    name += f" ×{timeline.repeats}" if timeline.repeats > 1 else ""
    if signs:
        # TRANSLATORS: a score, the section played, and whose reading of the signs it follows
        said = pgettext("a score, its section and reading", "{score} {section} ({reading})")
    else:
        # TRANSLATORS: a score and the section played: lu/1@zhushu 射
        said = pgettext("a score and its section", "{score} {section}")
    return said.format(score=timeline.score.key, section=name, reading=timeline.reading.name)


def fit_text(fit: Fit, given: Timeline) -> str:
    """The report's line: this take fits xue/2@zhushu 投壺: 0 faults, against 3 for xue/1 投壺."""
    signs = fit.timeline.reading != given.reading  # each named by its reading of the signs
    if fit.faults:
        said = ngettext(
            "this take fits {other}: {n} fault, against {against} for {given}",
            "this take fits {other}: {n} faults, against {against} for {given}",
            fit.faults,
        )
    else:
        said = _("this take fits {other} without a fault, against {against} for {given}")
    return said.format(
        other=reading(fit.timeline, signs),
        n=fit.faults,
        against=fit.against,
        given=reading(given, signs),
    )


def wrong_score(fit: Fit, given: Timeline) -> PerformanceError:
    """The error a check ends with when the take fits another reading clearly better: another
    score or section, or the same under another reading of the signs."""
    if fit.timeline.reading != given.reading:
        message = _("{fits}; check it with that reading of the signs")
    else:
        message = _("{fits}; check it against {score}, section {section}")
    section = fit.timeline.section
    return PerformanceError(
        message.format(
            fits=fit_text(fit, given),
            score=fit.timeline.score.key,
            section=section.rite or section.shown,
        )
    )
