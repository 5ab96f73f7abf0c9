"""What `drumscore check` (and `play --check`) prints: the fitted tempo, the offsets, the drift,
the missed, extra and wrong strokes, what the take left out and a row per stroke; or as JSON.

Times, offsets and tempi are written with their units in the reader's language (i18n.seconds,
milliseconds, per_minute, rate), a sign as the minus sign −.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drumscore import display
from drumscore.cli.reports.render import reading_data
from drumscore.display import table
from drumscore.i18n import (
    _,
    list_text,
    milliseconds,
    ngettext,
    per_minute,
    pgettext,
    rate,
    seconds,
)

if TYPE_CHECKING:
    from drumscore.model import Reading
    from drumscore.performance.check import Check
    from drumscore.performance.identify import Fit


def _drum(drum: Any, reading: Reading) -> str:
    """A drum heard, with the sign that strikes it in `reading`: "○ 鼓" as 毛奇齡 reads them."""
    return f"{reading.sign(drum)} {drum.value}" if drum is not None else "—"


def _printed(stroke: Any) -> str:
    """A stroke of the score as printed, with the drum it strikes under the reading: "○ 鼓"."""
    return f"{stroke.sign} {stroke.expected.value}"


def check_data(c: Check, fit: Fit | None = None) -> dict[str, Any]:
    """What `drumscore check --json` prints: the fitted beat, every stroke of the score with what
    was heard for it (index from 1), the missed, extra, wrong and doubtful strokes, and the
    reading the take fits clearly better, if any."""
    t = c.timeline
    performance = c.performance
    n = len(t.strokes)
    if fit is not None:
        from drumscore.performance.identify import fit_text  # numpy
    return {
        "performance": {
            "file": performance.path,
            "kind": performance.kind,
            "duration_s": round(performance.duration, 3),
            "strokes": len(performance),
            "drums_told": _drums_told(c),
            "notes": list(performance.notes),
        },
        "score": {
            "key": t.score.key,
            "title": t.score.title,
            "section": t.section.value,
            "repeats": t.repeats,
            "strokes": len(c.strokes),
        },
        **reading_data(t.reading),
        "tempo_bpm": round(c.tempo_bpm, 4),
        "interval_s": round(c.interval, 6),
        "start_s": round(c.start, 6),
        "mean_abs_offset_ms": round(c.mean_abs_ms, 3),
        "max_abs_offset_ms": round(abs(c.largest.offset_ms or 0.0), 3),
        "max_abs_offset_stroke": c.largest.index,
        "drift_bpm": round(c.drift_bpm, 4) + 0.0,  # never -0.0
        "tempo_first_bpm": round(c.tempo_first, 4),
        "tempo_last_bpm": round(c.tempo_last, 4),
        "strokes": [
            {
                "index": s.index,
                "pass": (s.index - 1) // n + 1,
                "stroke": (s.index - 1) % n + 1,
                "expected": s.sign,
                "expected_drum": s.expected.value,
                "heard": t.reading.sign(s.heard) if s.heard is not None else None,
                "heard_drum": s.heard.value if s.heard is not None else None,
                "time_s": None if s.time is None else round(s.time, 6),
                # + 0.0: never -0.0
                "offset_ms": None if s.offset_ms is None else round(s.offset_ms, 3) + 0.0,
                "wrong": s.wrong,
                "doubtful": s.doubtful,
                "flam": s.flam,
                # how long before the stroke its grace note sounded (null: not a flam)
                "grace_ms": round(s.grace_ms, 1) if s.flam else None,
            }
            for s in c.strokes
        ],
        "missing": [s.index for s in c.missing],
        "extra": [
            {
                "time_s": round(e.time, 6),
                "heard": t.reading.sign(e.drum),
                "heard_drum": e.drum.value,
                "after": e.after,
                "offset_ms": round(e.offset_ms, 3) + 0.0,
                "doubtful": e.doubtful,
            }
            for e in c.extra
        ],
        "wrong": [s.index for s in c.wrong],
        "doubtful": [s.index for s in c.doubtful],
        "drums_apart": c.performance.apart,
        "better_fit": None
        if fit is None
        else {
            "score": fit.timeline.score.key,
            "section": fit.timeline.section.value,
            "repeats": fit.timeline.repeats,
            "faults": fit.faults,
            "against": fit.against,
            "text": fit_text(fit, t),
        },
        "take": _take_data(c),
    }


def _take_data(c: Check) -> dict[str, Any]:
    """What the take was made with, as check was told, and what of it was left out."""
    from drumscore.performance.check import CLICK, COUNT

    take = c.expected
    practice = take.practice if take is not None else None
    return {
        "count_in": take.count_in if take is not None else 0,
        "count_in_each": bool(practice and practice.count_each),
        "clicks_per_stroke": practice.clicks if practice is not None else 0,
        "silent_every": practice.silent_every if practice is not None else 0,
        "only": practice.only.symbol if practice is not None and practice.only else None,
        "ramp": practice.ramp.text if practice is not None and practice.ramp else None,
        "count_strokes_expected": take.counted(COUNT) if take is not None else 0,
        "clicks_expected": take.counted(CLICK) if take is not None else 0,
        "count_strokes_heard": c.recognised_as(COUNT),
        "clicks_heard": c.recognised_as(CLICK),
        "silent_strokes": take.silent if take is not None else 0,
        "undeclared_count_in": c.undeclared_count,
        "asked_change_bpm": round(c.asked_change, 4),
    }


def take_lines(c: Check) -> list[str]:
    """What the check left out of the stroke count, and why: the take's count strokes and
    clicks (heard, or read on a MIDI note of their own), its silent strokes, its ramp; each said
    once, under the label "left out"."""
    from drumscore.performance.check import CLICK, COUNT

    take = c.expected
    said: list[str] = []
    if take is None:
        return said
    midi = c.performance.kind == "midi"
    total = take.counted(COUNT)
    if total:
        heard = c.recognised_as(COUNT)
        if midi:
            text = ngettext(
                "{n} count stroke of the count-in, on its own note",
                "{n} count strokes of the count-in, on their own note",
                total,
            )
        elif heard == total:
            text = ngettext(
                "{n} count stroke of the count-in, heard",
                "{n} count strokes of the count-in, all heard",
                total,
            )
        else:
            text = ngettext(
                "{n} count stroke of the count-in, {heard} heard",
                "{n} count strokes of the count-in, {heard} heard",
                total,
            )
        said.append(text.format(n=total, heard=heard))
    total = take.counted(CLICK)
    if total:
        if midi:
            text = ngettext("{n} click, on its own note", "{n} clicks, on their own note", total)
        else:
            text = ngettext(
                "{n} click, {heard} heard (a click with a stroke is heard as the stroke)",
                "{n} clicks, {heard} heard (a click with a stroke is heard as the stroke)",
                total,
            )
        said.append(text.format(n=total, heard=c.recognised_as(CLICK)))
    if take.silent:
        said.append(
            ngettext(
                "{n} stroke laid out silent (silent passes, one drum)",
                "{n} strokes laid out silent (silent passes, one drum)",
                take.silent,
            ).format(n=take.silent)
        )
    if take.practice.ramp is not None:
        said.append(
            _("ramp {ramp}: the even beat is its tempi scaled by the performer's").format(
                ramp=take.practice.ramp.text
            )
        )
    return said


def undeclared_lines(c: Check) -> list[str]:
    """A count-in heard but not declared: extra strokes one a beat up to stroke 1."""
    if not c.undeclared_count:
        return []
    return [
        ngettext(
            "the {n} extra stroke before stroke 1 keeps its beat: a count-in? check with "
            "--count-in {n}",
            "the {n} extra strokes before stroke 1 keep its beat: a count-in? check with "
            "--count-in {n}",
            c.undeclared_count,
        ).format(n=c.undeclared_count)
    ]


def _drums_told(c: Check) -> str:
    """How the performance's drums were told apart, and whether the names were swapped."""
    how = c.performance.how
    if c.swapped:
        return _("{how} (the two groups' names swapped to fit the score)").format(how=how)
    return how


def _signed(value: float, places: int) -> str:
    """`value` with its sign (a minus sign −, not a hyphen), to `places` decimals; one that rounds
    to zero has none (0.0, never +0.0 or −0.0): it is neither early nor late, neither faster nor
    slower."""
    shown = round(value, places)
    return f"{0.0:.{places}f}" if shown == 0 else f"{shown:+.{places}f}".replace("-", "\u2212")


def _ms(offset: float) -> str:
    """An offset from the beat as the table shows it, to a tenth of a millisecond."""
    return milliseconds(_signed(offset, 1))


def _offsets_text(c: Check) -> str:
    """The summary's offsets: the mean and the largest, early (ahead of the beat) or late; a take
    whose every offset rounds to zero is every stroke on time."""
    largest = c.largest
    offset = round(largest.offset_ms or 0.0, 1)
    if offset == 0:
        return _("every stroke on time (each within {offset} of the even beat)").format(
            offset=milliseconds("0.05")
        )
    said = (
        _("mean {mean}, largest {largest} (stroke {stroke}, late)")
        if offset > 0
        else _("mean {mean}, largest {largest} (stroke {stroke}, early)")
    )
    return said.format(
        mean=milliseconds(f"{c.mean_abs_ms:.1f}"),
        largest=milliseconds(f"{abs(offset):.1f}"),
        stroke=largest.index,
    )


def format_check(c: Check, fit: Fit | None = None) -> str:
    """What `drumscore check` prints: the summary (tempo, offsets, drift, missed, extra, wrong
    strokes, and the reading the take fits clearly better, if any) and a row per stroke of the
    score."""
    t = c.timeline
    p = c.performance
    apart = 60 / c.tempo_first, 60 / c.tempo_last
    drums = _drums_told(c)
    if p.kind == "midi":  # a MIDI file's strokes are read, not heard
        heard = ngettext(
            "{path}: {n} stroke read in {time} ({kind}; {drums})",
            "{path}: {n} strokes read in {time} ({kind}; {drums})",
            len(p),
        )
    else:
        heard = ngettext(
            "{path}: {n} stroke heard in {time} ({kind}; {drums})",
            "{path}: {n} strokes heard in {time} ({kind}; {drums})",
            len(p),
        )
    heard = heard.format(
        path=p.path,
        n=len(p),
        time=seconds(f"{p.duration:.1f}"),
        kind="MIDI" if p.kind == "midi" else _("audio"),
        drums=drums,
    )
    against = ngettext(
        "against {score}: {n} stroke", "against {score}: {n} strokes", len(c.strokes)
    ).format(score=t.description, n=len(c.strokes))
    fields = [
        (
            _("tempo"),
            ngettext(
                "{tempo} ({interval} apart), the even beat fitted to {n} stroke by least squares",
                "{tempo} ({interval} apart), the even beat fitted to {n} strokes by least squares",
                len(c.matched),
            ).format(
                tempo=per_minute(f"{c.tempo_bpm:.2f}"),
                interval=seconds(f"{c.interval:.4f}"),
                n=len(c.matched),
            ),
        ),
        (
            _("offsets"),
            _offsets_text(c),
        ),
        (
            _("drift"),
            _(
                "from the first stroke to the last, the tempo changes by {drift} ({tempi}; "
                "strokes {intervals} apart)"
            ).format(
                drift=rate(_signed(c.drift_bpm, 2)),
                tempi=rate(f"{c.tempo_first:.2f} → {c.tempo_last:.2f}"),
                intervals=seconds(f"{apart[0]:.4f} → {apart[1]:.4f}"),
            ),
        ),
        (
            _("missed"),
            list_text(
                pgettext("a missed stroke", "{index} {drum}").format(
                    index=s.index, drum=_printed(s)
                )
                for s in c.missing
            )
            or _("none"),
        ),
        (
            _("extra"),
            list_text(
                (
                    _("{drum} at {time} (after stroke {after})")
                    if e.after
                    else _("{drum} at {time} (before stroke 1)")
                ).format(
                    drum=_drum(e.drum, t.reading), time=seconds(f"{e.time:.3f}"), after=e.after
                )
                for e in c.extra
            )
            or _("none"),
        ),
        (
            _("wrong drum"),
            list_text(
                _("{stroke} ({expected} expected, {heard} heard)").format(
                    stroke=s.index,
                    expected=_printed(s),
                    heard=_drum(s.heard, t.reading),
                )
                for s in c.wrong
            )
            or _("none"),
        ),
    ]
    if c.doubtful or any(e.doubtful for e in c.extra):
        strokes = list_text(str(s.index) for s in c.doubtful)
        if not c.doubtful:
            said = _("the drum of some extra strokes sounds between the two: marked ?")
        elif any(e.doubtful for e in c.extra):
            said = _(
                "the drum of strokes {strokes} and of some extra strokes sounds between the two: "
                "marked ?"
            )
        else:
            said = _("the drum of strokes {strokes} sounds between the two: marked ?")
        fields.append((_("doubtful"), said.format(strokes=strokes)))
    fields += [(_("left out"), line) for line in take_lines(c)]
    fields += [(_("note"), line) for line in undeclared_lines(c)]
    fields += [(_("note"), note) for note in p.notes]
    if fit is not None:
        from drumscore.performance.identify import fit_text  # numpy

        fields.append((_("better fit"), fit_text(fit, t)))
    widest = max(display.width(name) for name, _value in fields) + 1
    lines = [heard, against, ""]
    lines += [display.pad(name, widest) + value for name, value in fields]
    rows = []
    for s in c.strokes:
        if s.missed:
            rows.append([str(s.index), _printed(s), "—", "", _("missed"), ""])
            continue
        mark = "?" if s.doubtful else ""
        rows.append(
            [
                str(s.index),
                _printed(s),
                _drum(s.heard, t.reading) + mark,
                _ms(s.offset_ms or 0.0),
                _("wrong drum") if s.wrong else "",
                _("grace note {ms:.0f} ms before").format(ms=s.grace_ms) if s.flam else "",
            ]
        )
    header = [_("stroke"), _("expected"), _("heard"), _("offset"), _("fault"), _("flam")]
    # the fault and flam columns only when a stroke has one
    shown = [k for k in range(len(header)) if k < 4 or any(row[k] for row in rows)]
    header = [header[k] for k in shown]
    rows = [[row[k] for k in shown] for row in rows]
    lines += ["", table(rows, header)]
    return "\n".join(lines)
