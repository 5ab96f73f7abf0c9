"""What `drumscore collate` prints: the apparatus as text (a line per place of variation, each
reading with its witnesses), the key of sigla, the stated counts, the groups of editions that
agree; or as JSON, CSV or TEI."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drumscore import display
from drumscore.apparatus.table import apparatus_data, csv_text
from drumscore.apparatus.tei import tei_bytes
from drumscore.i18n import (
    _,
    aside,
    clause_text,
    dashed,
    ngettext,
    written,
)

if TYPE_CHECKING:
    from drumscore.apparatus.align import Apparatus, Place
    from drumscore.apparatus.groups import Groups


def apparatus_text(
    apparatuses: Sequence[Apparatus], fmt: str, marks: dict[str, str] | None = None
) -> str:
    """The apparatus in one of the text formats (text, json, csv, tei)."""
    if fmt == "json":
        return (
            json.dumps([apparatus_data(a) for a in apparatuses], ensure_ascii=False, indent=2)
            + "\n"
        )
    if fmt == "csv":
        return csv_text(apparatuses)
    if fmt == "tei":
        return tei_bytes(apparatuses).decode("utf-8")
    return format_apparatuses(apparatuses, marks)


def _sigla(sigla: Sequence[str]) -> str:
    return " ".join(sigla)


def format_place(p: Place) -> str:
    """One line of the apparatus: `11 (touhu)  ○ zhushu benyi … ] — weishi xunzuan yueshu
    (○ fewer; first in weishi, 1223)` (the printed editions' readings, each with the earliest
    dated edition that has it; a reported one that agrees follows with `=`)."""
    readings = []
    for v in p.variants:
        if v.printed:
            first = (
                _("first in {siglum}, {date}").format(siglum=v.first, date=v.first_date)
                if v.first
                else ""
            )
            said = clause_text(t for t in (v.description, first) if t)
            agrees = "".join(f" = {r.siglum}" for r in v.reports)
            reading = f"{v.shown} {_sigla(v.printed)}{agrees}"
            readings.append(aside(reading, said) if said else reading)
    where = p.section.shown if p.section else _after(p.position - 1)
    lemma = f"{p.lemma.shown} {_sigla(p.lemma.printed)}"
    return f"{aside(p.label, where)}  {lemma} ] " + clause_text(readings)


def format_reported(p: Place) -> list[str]:
    """Readings a note reports: `8 (head)  □ ] ○ 吳澄本 (in yishu: 「吳澄本作○」; ○ for □)`."""
    where = p.section.shown if p.section else _after(p.position - 1)
    lines = []
    for v in p.reported:
        for r in v.reports:
            if v.description:
                said = _("{siglum} (in {source}: 「{quote}」; {description})")
            else:
                said = _("{siglum} (in {source}: 「{quote}」)")
            said = said.format(
                siglum=r.siglum, source=r.reported_by, quote=r.quote, description=v.description
            )
            lines.append(f"{aside(p.label, where)}  {p.lemma.shown} ] {v.shown} {said}")
    return lines


def _after(stroke: int) -> str:
    """Where a place with no section stands: after stroke N."""
    return _("after stroke {stroke}").format(stroke=stroke)


def format_counts(a: Apparatus) -> list[str]:
    lines = []
    for s in a.counts:
        st = s.stated
        said = _("{by}, {section} ({span}): 鼙 {pi} 鼓 {gu}").format(
            by=written(st.by), section=st.section.shown, span=st.section.span, pi=st.pi, gu=st.gu
        )
        lines.append("  " + said)
        quotes = clause_text(f"「{q.text}」 {q.siglum}" for q in s.quotes if q.text)
        if quotes:
            lines.append("    " + _("quoted: {quotes}").format(quotes=quotes))
        if s.agreeing:
            lines.append("    " + _("agree: {sigla}").format(sigla=_sigla(s.agreeing)))
        else:
            lines.append("    " + _("agrees with no edition"))
        why_groups: dict[tuple[str, ...], list[str]] = {}
        for siglum, why in s.disagreeing():
            why_groups.setdefault(why, []).append(siglum)
        for why, group in why_groups.items():
            said = _("disagree: {sigla} — {why}").format(sigla=_sigla(group), why=clause_text(why))
            lines.append("    " + said)
    return lines


def format_key(apparatuses: Sequence[Apparatus], marks: dict[str, str] | None = None) -> list[str]:
    seen: dict[str, str] = {}
    for a in apparatuses:
        for w in a.witnesses:
            cite = w.provenance.citation if w.provenance else ""
            mark = (marks or {}).get(w.siglum, "")
            what = (aside(w.described, w.date.text) if w.date else w.described) + mark
            seen.setdefault(w.siglum, dashed(what, cite) if cite else what)
    widest = max(display.width(s) for s in seen)
    return [f"  {display.pad(siglum, widest)}  {what}" for siglum, what in seen.items()]


def format_apparatus(a: Apparatus) -> list[str]:
    base = _("base {name} ({siglum})").format(name=a.base.name, siglum=a.base.siglum)
    editions = ngettext("{n} edition", "{n} editions", len(a.printed)).format(n=len(a.printed))
    lines = [
        f"{a.key} · {a.title} · {base} · {editions} · {a.summary}",
        "  " + _("base: {notation}").format(notation=a.base.notation),
        "",
    ]
    lines += [f"  {format_place(p)}" for p in a.parting] or ["  " + _("the editions agree")]
    reported = [line for p in a.places for line in format_reported(p)]
    if reported or a.notes:
        lines += ["", "  " + _("in the editions' notes:")]
    lines += [f"  {line}" for line in reported]
    for note in a.notes:
        lines.append(
            "  "
            + _(
                "note in {siglum} after stroke {after}: 「{text}」 (not a reading: {reason})"
            ).format(siglum=note.siglum, after=note.after, text=note.text, reason=note.reason)
        )
    if a.agreements:
        lines += ["", "  " + _("a reported reading that a printed edition bears out:")]
        lines += [f"  {line}" for line in a.agreements]
    return lines


def format_apparatuses(
    apparatuses: Sequence[Apparatus], marks: dict[str, str] | None = None
) -> str:
    blocks = []
    for a in apparatuses:
        lines = format_apparatus(a)
        if len(apparatuses) == 1:
            lines += ["", _("sigla:"), *format_key(apparatuses, marks)]
        if a.counts:
            lines += ["", _("stated counts:"), *format_counts(a)]
        blocks.append("\n".join(lines))
    if len(apparatuses) > 1:
        blocks.append("\n".join([_("sigla:"), *format_key(apparatuses, marks)]))
    return "\n\n".join(blocks) + "\n"


def _agreement_table(g: Groups) -> list[str]:
    """The agreement matrix in per cent as display.table lays it out, each cell looked up
    rather than measured (the matrix has editions × editions cells)."""
    import numpy as np

    percent = np.rint(np.array(g.agreement, dtype=np.float64) * 100).astype(np.int64).tolist()
    first = max((display.width(s) for s in g.sigla), default=0)
    most = list(map(max, zip(*percent, strict=True))) if percent else []
    widths = [max(display.width(s), len(str(m))) for s, m in zip(g.sigla, most, strict=True)]
    cells = {w: [str(v).ljust(w) for v in range(101)] for w in set(widths)}
    columns = [cells[w] for w in widths]
    lines = [
        "  ".join(
            [" " * first, *(display.pad(s, w) for s, w in zip(g.sigla, widths, strict=True))]
        ),
        "  ".join("-" * w for w in [first, *widths]),
    ]
    for s, row in zip(g.sigla, percent, strict=True):
        said = "  ".join([c[v] for c, v in zip(columns, row, strict=True)])
        lines.append(f"{display.pad(s, first)}  {said}")
    lines[0] = lines[0].rstrip()
    return [ln.rstrip() for ln in lines]


def format_groups(found: Sequence[Groups]) -> str:
    """What `collate --groups` prints: per score, the editions sharing each reading at each
    place, the agreement of every two editions (per cent of aligned strokes), the editions that
    read alike and the average-linkage grouping."""
    blocks = []
    for g in found:
        a = g.apparatus
        editions = ngettext("{n} edition", "{n} editions", len(g.sigla)).format(n=len(g.sigla))
        lines = [f"{a.key} · {a.title} · {editions} · {a.summary}", ""]
        lines.append("  " + _("who shares each reading:"))
        for n, p in enumerate(g.places, 1):
            shared = " | ".join(f"{v.shown}: {_sigla(v.sigla)}" for v in (p.lemma, *p.variants))
            lines.append(f"    {n}. {aside(p.label, p.section_shown)}  {shared}")
        if not g.places:
            lines.append("    " + _("every edition reads alike"))
        lines += [
            "",
            "  " + _("agreement (per cent of the aligned strokes two editions read alike):"),
        ]
        lines += ["    " + ln for ln in _agreement_table(g)]
        alike = " | ".join(_sigla(group) for group in g.alike)
        lines += ["", "  " + _("read alike: {groups}").format(groups=alike)]
        lines.append(
            "  " + _("grouping (average linkage on 1 − agreement): {tree}").format(tree=g.tree)
        )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
