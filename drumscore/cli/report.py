"""Every text and JSON rendering of results that the command line prints, in one place.

Counts are written with their noun in the right number ("1 reading", "2 readings"), and strokes
and aligned columns are numbered from 1, as everywhere drumscore shows them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from drumscore import display
from drumscore.apparatus.places import MARKS, ONLY_A, ONLY_B, SUBSTITUTED
from drumscore.display import divided, labelled_lines, table
from drumscore.editions.extract import line_range
from drumscore.i18n import _, aside, clause_text, list_text, ngettext
from drumscore.model import HALF, Edition, Pattern, Score, Section

if TYPE_CHECKING:
    from drumscore.analysis.compare import Comparison
    from drumscore.apparatus.counts import StatedCheck
    from drumscore.conductor.track import Track
    from drumscore.editions.extract import Extraction, Found
    from drumscore.performance.check import Check
    from drumscore.performance.identify import Fit


# --- scores: list and show --------------------------------------------------------------------


def list_table(
    scores: Sequence[Score],
    users: frozenset[str] = frozenset(),
    editions: Sequence[Edition] = (),
) -> str:
    """What `drumscore list` prints: a row per score with its edition's date and its counts per
    section; the editions whose ids are in `users` are marked as the user's own."""
    dates = {e.id: e.date.text for e in editions if e.date is not None}
    rows = []
    for s in scores:
        name = s.edition_name
        if s.edition_id in users:
            name = _("{edition} (yours)").format(edition=s.edition_name)
        cells = [name, dates.get(s.edition_id, "-"), str(s.figure), f"{s.state}鼓"]
        for section in Section.in_order():
            cells.append(str(s.pattern.counts(section)) if section in s.pattern.sections() else "-")
        cells.append(s.key)
        rows.append(cells)
    header = [
        _("edition"),
        _("date"),
        _("fig"),
        _("drum"),
        *(s.heading for s in Section.in_order()),
        _("name"),
    ]
    return table(rows, header)


def marked(pattern: Pattern, notes: Sequence[Any]) -> str:
    """The notation with a numbered mark (¹ ² …) where each note printed inside it stands."""
    marks = "¹²³⁴⁵⁶⁷⁸⁹"
    symbols = [st.drum.symbol for st in pattern.strokes]
    out = []
    for index in range(len(symbols) + 1):
        if pattern.half == index:
            out.append(" 半 ")
        for i, note in enumerate(notes):
            if note.after == index:
                out.append(marks[i] if i < len(marks) else f"[{i + 1}]")
        if index < len(symbols):
            out.append(symbols[index])
    return "".join(out)


def show_data(
    score: Score, checks: Sequence[StatedCheck], edition: Edition | None = None
) -> dict[str, Any]:
    """What `drumscore show --json` prints: the score, its provenance, the notes printed inside
    it, the stated counts with their quotes, and the edition's note."""
    data = score.to_data()
    if score.source:
        data["provenance"] = score.source.to_data()
    data["lines"] = score.lines or None
    data["notes"] = [{"after": n.after, "text": n.text, "line": n.line} for n in score.notes]
    data["edition_note"] = str(edition.note) if edition is not None and edition.note else None
    data["date"] = edition.date.to_data() if edition is not None and edition.date else None
    data["glyphs"] = dict(edition.glyphs) if edition is not None else {}
    data["user_edition"] = bool(edition is not None and edition.user)
    data["stated_counts"] = [c.to_data() for c in checks]
    return data


def show_text(score: Score, checks: Sequence[StatedCheck], edition: Edition | None = None) -> str:
    """What `drumscore show` prints: the summary, the stated counts in the editions' words, the
    notes printed inside the pattern, then the edition, its source and note."""
    lines = [score_summary(score, checks)]
    quoted = [(c, q) for c in checks for q in c.quotes if q.text]
    if quoted:
        lines += ["", "  " + _("the stated counts in the words of the editions:")]
        for c, q in quoted:
            said = _("{by}, {section} ({siglum}): 「{quote}」").format(
                by=c.stated.by, section=c.stated.section.shown, siglum=q.siglum, quote=q.text
            )
            lines.append("    " + said)
    if score.notes:
        heading = _("notes printed inside the pattern (not strokes; marked where they stand):")
        lines += ["", "  " + heading]
        lines.append(f"    {marked(score.pattern, score.notes)}")
        for i, note in enumerate(score.notes, 1):
            if note.line:
                said = _("{number}. after stroke {after}, line {line}: {text}")
            else:
                said = _("{number}. after stroke {after}: {text}")
            lines.append(
                "    " + said.format(number=i, after=note.after, line=note.line, text=note.text)
            )
    prov = score.source
    fields: list[tuple[str, str]] = []
    if score.edition_id:
        value = aside(score.edition_name, score.edition_id)
        if edition is not None and edition.user:
            value = _("{edition} — your edition, {path}").format(edition=value, path=edition.path)
        fields.append((_("edition:"), value))
    if prov:
        fields.append((_("source:"), prov.citation))
        if score.lines:
            where = f"Kanripo {prov.kanripo} {score.lines}" if prov.kanripo else score.lines
            fields.append((_("lines:"), _("{lines} (this pattern)").format(lines=where)))
        if prov.commit:
            fields.append((_("commit:"), prov.commit))
        if prov.licence:
            fields.append((_("licence:"), _licence(prov.licence)))
    if edition is not None and edition.date is not None:
        date = edition.date
        fields.append((_("date:"), aside(date.text, str(date.basis)) if date.basis else date.text))
    if edition is not None and edition.glyphs:
        read = list_text(
            _("{glyph} read as {stroke}").format(glyph=g, stroke=t) for g, t in edition.glyphs
        )
        fields.append(
            (_("glyphs:"), _("{read} (as the transcription draws the strokes)").format(read=read))
        )
    if edition is not None and edition.note:
        fields.append((_("note:"), str(edition.note)))
    if fields:
        lines += [""] if score.edition_id else []
        lines += ["  " + line for line in labelled_lines(fields)]
    return "\n".join(lines)


def count_rows(pattern: Pattern) -> list[list[str]]:
    """One row per section: name, meaning, strokes, ○ 鼙, □ 鼓."""
    rows = []
    for section in pattern.sections():
        c = pattern.counts(section)
        rows.append([section.shown, section.gloss, str(c.total), str(c.pi), str(c.gu)])
    return rows


def count_check_lines(checks: Sequence[StatedCheck]) -> list[str]:
    """Each stated count checked on one score: agrees, or exactly how it differs."""
    lines = []
    for check in checks:
        stated = check.stated
        verdict = clause_text(w for _w, whys in check.disagreeing() for w in whys) or _("agrees")
        quoted = list_text(dict.fromkeys(q.siglum for q in check.quotes))
        lines.append(
            _("{by}, {section}: 鼙 {pi} 鼓 {gu} (quoted in {sigla}) — {verdict}").format(
                by=stated.by,
                section=stated.section.shown,
                pi=stated.pi,
                gu=stated.gu,
                sigla=quoted,
                verdict=verdict,
            )
        )
    return lines


def score_summary(score: Score, checks: Sequence[StatedCheck] = ()) -> str:
    """What `drumscore show` prints for one score, with the stated counts checked on it."""
    lines = [f"{score.title}    [{score.key}]", "", "  " + divided(score.pattern), ""]
    rows = count_rows(score.pattern)
    lines += [
        "  " + ln
        for ln in table(rows, [_("section"), "", _("strokes"), "○ 鼙", "□ 鼓"]).splitlines()
    ]
    if score.printed and score.printed != score.pattern.notation:
        lines += ["", "  " + _("as printed: {notation}").format(notation=score.printed)]
    if checks:
        lines += ["", "  " + _("counts stated by the commentators:")]
        lines += [f"    {line}" for line in count_check_lines(checks)]
    return "\n".join(lines)


# --- compare ----------------------------------------------------------------------------------


def alignment_lines(c: Comparison) -> list[str]:
    """The two rows, one above the other, and the marks below; each stroke takes one cell (two
    columns, three where the terminal draws ○ □ · wide), 半 stands in a cell of its own."""
    halves = {"a": c.half_column("a"), "b": c.half_column("b")}
    shared = {h for h in halves.values() if h is not None}
    step = max(display.width(s) for s in ("○", "□", "·")) + 1  # 半, two columns, fills a cell

    def cell(text: str) -> str:
        return display.pad(text, step)

    def row(side: str) -> str:
        cells = []
        for index, column in enumerate([*c.columns, None]):
            if index in shared:
                cells.append(cell(HALF if halves[side] == index else ""))
            if column is None:
                break
            stroke = column.a if side == "a" else column.b
            cells.append(cell(stroke.drum.symbol if stroke else "·"))
        return "".join(cells).rstrip()

    marks = []
    for index, column in enumerate([*c.columns, None]):
        if index in shared:
            marks.append(cell(""))
        if column is None:
            break
        marks.append(cell(MARKS[column.kind]))
    return [f"A  {row('a')}", f"B  {row('b')}", f"   {''.join(marks).rstrip()}"]


def format_comparison(c: Comparison) -> str:
    lines = [f"A  {c.title('a')}    [{c.a.key}]", f"B  {c.title('b')}    [{c.b.key}]", ""]
    lines += alignment_lines(c)
    kinds = {k: sum(1 for col in c.columns if col.kind == k) for k in MARKS}
    if c.identical:
        verdict = [_("identical")]
    elif c.strokes_identical:
        verdict = [_("strokes identical; {half}").format(half=c.describe_half())]
    else:
        verdict = [
            ngettext(
                "{n} difference — {changed} changed ({changed_mark}), {only_a} only in A "
                "({only_a_mark}), {only_b} only in B ({only_b_mark})",
                "{n} differences — {changed} changed ({changed_mark}), {only_a} only in A "
                "({only_a_mark}), {only_b} only in B ({only_b_mark})",
                c.distance,
            ).format(
                n=c.distance,
                changed=kinds[SUBSTITUTED],
                only_a=kinds[ONLY_A],
                only_b=kinds[ONLY_B],
                changed_mark=MARKS[SUBSTITUTED],
                only_a_mark=MARKS[ONLY_A],
                only_b_mark=MARKS[ONLY_B],
            )
        ]
        if c.half_moved:
            verdict.append(c.describe_half())
    lines += ["", *verdict, ""]
    rows = [
        [
            s.section.shown,
            str(s.a),
            str(s.b),
            str(s.distance),
            _("identical") if s.identical else _("differs"),
        ]
        for s in c.sections
    ]
    lines.append(table(rows, [_("section"), "A", "B", _("edit distance"), _("verdict")]))
    return "\n".join(lines)


# --- extract ----------------------------------------------------------------------------------


def found_data(extraction: Extraction, found: Found) -> dict[str, Any]:
    """One extracted score as JSON-ready data."""
    data = found.score.to_data()
    data.update(
        label=found.label or None,
        label_side=found.label_side,
        lines=list(found.lines),
        kanripo_lines=extraction.kanripo_lines(found) or None,
        start={"line": found.start.line, "column": found.start.column},
        end={"line": found.end.line, "column": found.end.column},
        notes=[
            {
                "after": n.after,
                "text": n.text,
                "line": pos.line,
                "column": pos.column,
                "kanripo_line": extraction.kanripo_line(pos.line)
                if extraction.source_lines
                else None,
            }
            for n, pos in zip(found.notes, found.note_positions, strict=True)
        ],
        joined=[
            {"kind": j.kind, "text": j.text, "line": j.pos.line, "column": j.pos.column}
            for j in found.joined
        ],
        remarks=list(found.remarks),
        doubtful=found.doubtful,
        doubts=list(found.doubts),
    )
    return data


def extraction_data(extraction: Extraction, path: str, encoding: str) -> dict[str, Any]:
    """What `drumscore extract --json` prints: the file, its provenance and every score found."""
    return {
        "file": path,
        "encoding": encoding,
        "edition_name": extraction.name,
        "provenance": extraction.provenance.to_data(),
        "doubtful": extraction.doubtful,
        "skipped_strokes": extraction.skipped,
        "glyphs": dict(extraction.glyphs),
        "scores": [found_data(extraction, f) for f in extraction.scores],
    }


def extraction_table(extraction: Extraction, path: str, encoding: str) -> str:
    shown = [s for s in Section.in_order() if s is not Section.HEAD]
    rows = []
    details = []
    kanripo = extraction.source_lines is not None
    for f in extraction.scores:
        s = f.score
        pattern = s.pattern
        drum = f"{s.state}鼓" if s.state else _("(no label)")
        mark = "? " if f.doubtful else ""
        cells = [mark + str(s.figure or "?"), drum, f.label]
        for section in shown:
            cells.append(str(pattern.counts(section)) if section in pattern.sections() else "-")
        cells.append(line_range(*f.lines))
        if kanripo:
            cells.append(extraction.kanripo_lines(f))
        cells.append(pattern.notation)
        rows.append(cells)
        name = f"{s.figure or '?'} {drum}"
        joined = f.joined_summary()
        if joined:
            details.append(
                "  " + _("{name}: read through {joined}").format(name=name, joined=joined)
            )
        for n, pos in zip(f.notes, f.note_positions, strict=True):
            if kanripo:
                said = _(
                    "{name}: note after stroke {after}: {text} (line {line}, column {column}; "
                    "Kanripo line {kanripo})"
                )
            else:
                said = _("{name}: note after stroke {after}: {text} (line {line}, column {column})")
            details.append(
                "  "
                + said.format(
                    name=name,
                    after=n.after,
                    text=n.text,
                    line=pos.line,
                    column=pos.column,
                    kanripo=extraction.kanripo_line(pos.line),
                )
            )
        for remark in f.remarks:
            details.append(f"  {name}: {remark}")
        for doubt in f.doubts:
            details.append("  " + _("{name}: DOUBTFUL: {doubt}").format(name=name, doubt=doubt))
    header = [
        _("fig"),
        _("drum"),
        _("label"),
        Section.TOUHU.heading,
        Section.SHE.heading,
        _("lines"),
    ]
    header += [_("kanripo lines")] if kanripo else []
    header += [_("notation")]
    count = len(extraction.scores)
    head = ngettext(
        "{source}: {n} score ({encoding})", "{source}: {n} scores ({encoding})", count
    ).format(source=extraction.name or path, n=count, encoding=encoding)
    if extraction.doubtful:
        head += _("; a partial reading: the patterns marked ? are doubtful")
    cite = extraction.provenance.citation
    source = [_("source: {citation}").format(citation=cite)] if cite else []
    out = [head, *source, "", table(rows, header)]
    if details:
        out += ["", *details]
    if extraction.skipped:
        out.append(
            "  "
            + ngettext(
                "left as prose: {n} stroke sign outside the patterns",
                "left as prose: {n} stroke signs outside the patterns",
                extraction.skipped,
            ).format(n=extraction.skipped)
        )
    if extraction.glyphs:
        read = list_text(
            _("{glyph} as {stroke}").format(glyph=g, stroke=t) for g, t in extraction.glyphs
        )
        out.append(
            "  " + _("glyphs read: {read} (an edition file records the mapping)").format(read=read)
        )
    return "\n".join(out)


# --- check ------------------------------------------------------------------------------------


def _drum(drum: Any) -> str:
    return f"{drum.symbol} {drum.value}" if drum is not None else "—"


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
                "expected": s.expected.symbol,
                "heard": s.heard.symbol if s.heard is not None else None,
                "time_s": None if s.time is None else round(s.time, 6),
                # + 0.0: never -0.0
                "offset_ms": None if s.offset_ms is None else round(s.offset_ms, 3) + 0.0,
                "wrong": s.wrong,
                "doubtful": s.doubtful,
            }
            for s in c.strokes
        ],
        "missing": [s.index for s in c.missing],
        "extra": [
            {
                "time_s": round(e.time, 6),
                "heard": e.drum.symbol,
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
    clicks (heard, or on a MIDI note of their own), its silent strokes, its ramp."""
    from drumscore.performance.check import CLICK, COUNT

    take = c.expected
    said: list[str] = []
    if take is not None:
        midi = c.performance.kind == "midi"
        for kind, total in ((COUNT, take.counted(COUNT)), (CLICK, take.counted(CLICK))):
            if not total:
                continue
            if midi:
                text = (
                    ngettext(
                        "{n} count stroke of the count-in, on its own note: left out",
                        "{n} count strokes of the count-in, on their own note: left out",
                        total,
                    )
                    if kind == COUNT
                    else ngettext(
                        "{n} click, on its own note: left out",
                        "{n} clicks, on their own note: left out",
                        total,
                    )
                )
                said.append(text.format(n=total))
                continue
            text = (
                ngettext(
                    "{heard} of {n} count stroke of the count-in heard and left out",
                    "{heard} of {n} count strokes of the count-in heard and left out",
                    total,
                )
                if kind == COUNT
                else ngettext(
                    "{heard} of {n} click heard and left out (one on a stroke sounds with it)",
                    "{heard} of {n} clicks heard and left out (one on a stroke sounds with it)",
                    total,
                )
            )
            said.append(text.format(heard=c.recognised_as(kind), n=total))
        if take.silent:
            said.append(
                ngettext(
                    "{n} stroke laid out silent (silent passes, one drum): not checked",
                    "{n} strokes laid out silent (silent passes, one drum): not checked",
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
    """`value` with its sign, to `places` decimals; one that rounds to zero has none (0.0, never
    +0.0 or -0.0): it is neither early nor late, neither faster nor slower."""
    shown = round(value, places)
    return f"{0.0:.{places}f}" if shown == 0 else f"{shown:+.{places}f}"


def _ms(offset: float) -> str:
    """An offset from the beat as the table shows it, to a tenth of a millisecond."""
    return f"{_signed(offset, 1)} ms"


def _offsets_text(c: Check) -> str:
    """The summary's offsets: the mean and the largest, early (ahead of the beat) or late; a take
    whose every offset rounds to zero is every stroke on time."""
    largest = c.largest
    offset = round(largest.offset_ms or 0.0, 1)
    if offset == 0:
        return _("every stroke on time (each within 0.05 ms of the even beat)")
    said = (
        _("mean {mean} ms, largest {largest} ms (stroke {stroke}, late)")
        if offset > 0
        else _("mean {mean} ms, largest {largest} ms (stroke {stroke}, early)")
    )
    return said.format(
        mean=f"{c.mean_abs_ms:.1f}", largest=f"{abs(offset):.1f}", stroke=largest.index
    )


def format_check(c: Check, fit: Fit | None = None) -> str:
    """What `drumscore check` prints: the summary (tempo, offsets, drift, missed, extra, wrong
    strokes, and the reading the take fits clearly better, if any) and a row per stroke of the
    score."""
    t = c.timeline
    p = c.performance
    seconds = 60 / c.tempo_first, 60 / c.tempo_last
    drums = _drums_told(c)
    heard = ngettext(
        "{path}: {n} stroke heard in {seconds} s ({kind}; {drums})",
        "{path}: {n} strokes heard in {seconds} s ({kind}; {drums})",
        len(p),
    ).format(
        path=p.path,
        n=len(p),
        seconds=f"{p.duration:.1f}",
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
                "{bpm} strokes a minute ({interval} s apart), the even beat fitted to {n} stroke "
                "by least squares",
                "{bpm} strokes a minute ({interval} s apart), the even beat fitted to {n} strokes "
                "by least squares",
                len(c.matched),
            ).format(bpm=f"{c.tempo_bpm:.2f}", interval=f"{c.interval:.4f}", n=len(c.matched)),
        ),
        (
            _("offsets"),
            _offsets_text(c),
        ),
        (
            _("drift"),
            _(
                "{drift} strokes a minute from the first stroke to the last "
                "({first} → {last}; {first_s} s → {last_s} s)"
            ).format(
                drift=_signed(c.drift_bpm, 2),
                first=f"{c.tempo_first:.2f}",
                last=f"{c.tempo_last:.2f}",
                first_s=f"{seconds[0]:.4f}",
                last_s=f"{seconds[1]:.4f}",
            ),
        ),
        (
            _("missed"),
            list_text(f"{s.index} {_drum(s.expected)}" for s in c.missing) or _("none"),
        ),
        (
            _("extra"),
            list_text(
                (
                    _("{drum} at {time} s (after stroke {after})")
                    if e.after
                    else _("{drum} at {time} s (before stroke 1)")
                ).format(drum=_drum(e.drum), time=f"{e.time:.3f}", after=e.after)
                for e in c.extra
            )
            or _("none"),
        ),
        (
            _("wrong drum"),
            list_text(
                _("{stroke} ({expected} expected, {heard} heard)").format(
                    stroke=s.index, expected=_drum(s.expected), heard=_drum(s.heard)
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
            rows.append([str(s.index), _drum(s.expected), "—", "", _("missed")])
            continue
        mark = "?" if s.doubtful else ""
        rows.append(
            [
                str(s.index),
                _drum(s.expected),
                _drum(s.heard) + mark,
                _ms(s.offset_ms or 0.0),
                _("wrong drum") if s.wrong else "",
            ]
        )
    header = [_("stroke"), _("expected"), _("heard"), _("offset"), _("fault")]
    if not any(row[-1] for row in rows):
        header, rows = header[:-1], [row[:-1] for row in rows]
    lines += ["", table(rows, header)]
    return "\n".join(lines)


# --- render -----------------------------------------------------------------------------------


def render_data(track: Track, output: str, rate: int) -> dict[str, Any]:
    """What `drumscore render --json` prints: the file, the reading and tempo, and every stroke
    as rendered (laid out at `rate` frames a second): its time, the humanizing offset applied
    to it, its velocity, and whether it was muted."""
    timeline = track.first
    tempo = timeline.tempo
    expression = timeline.expression
    humanize = expression.humanize_ms if expression is not None else 0.0
    return {
        "output": output,
        "key": timeline.score.key,
        "description": timeline.description,
        "section": timeline.section.value,
        "repeats": timeline.repeats,
        "tempo_bpm": float(tempo.bpm),
        "interval_s": float(tempo.interval),
        "humanize_ms": humanize,
        "seed": expression.seed if expression is not None and humanize else None,
        "strokes": [
            {
                "index": hit.k + 1,
                "drum": hit.drum.symbol,
                "time_s": hit.frame / rate,
                "offset_ms": hit.offset * 1000,
                "velocity": hit.velocity,
                "muted": hit.muted,
            }
            for hit in track.hits(rate)
            if hit.drum is not None and not hit.click
        ],
    }


def _licence(licence: str) -> str:
    """A licence as the edition files give it, "CC BY-SA 4.0 (Kanseki Repository)", with its
    holder in the reader's parentheses."""
    found = re.fullmatch(r"(.+?) \((.+)\)", licence)
    return aside(found[1], found[2]) if found else licence
