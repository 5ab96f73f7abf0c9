"""What `drumscore collate` prints: the apparatus as text (one line per place, the notes, the key
of sigla, the stated counts), who goes with whom (the groups); or as JSON, CSV or TEI.

English lists ids and marks the lemma with `]` (`11 (touhu)  ○ zhushu … ] — weishi … (one ○
fewer in the run 11–12; first in yueshu, 1101)`). Chinese writes a 校勘記: editions by their
short names, the base as 底本《禮記注疏》, each reading a sentence with its witnesses as subject
(`第 11 擊（投壺）：底本《禮記注疏》、本義……作 ○；日講、通解……第 11～12 擊處脫一 ○（首見於
樂書卷三十五，1101）`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from drumscore import display
from drumscore.apparatus.table import apparatus_data, csv_text
from drumscore.apparatus.tei import tei_bytes
from drumscore.apparatus.wording import alike_text, between, sharing, years
from drumscore.i18n import (
    _,
    aside,
    chinese,
    clause_text,
    dashed,
    labelled,
    ngettext,
    pgettext,
    written,
)

if TYPE_CHECKING:
    from drumscore.apparatus.groups import Groups
    from drumscore.apparatus.places import Apparatus, Place, Variant


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


def _first(a: Apparatus, v: Variant) -> str:
    """Where a reading first appears: `first in yueshu, 1101` (首見於樂書卷三十五，1101)."""
    if not v.first:
        return ""
    return _("first in {siglum}, {date}").format(siglum=a.cite(v.first), date=years(v.first_date))


def where_of(p: Place) -> str:
    """A place's name with its section: `11 (touhu)`, `第 11 擊（投壺）`."""
    where = p.section_shown if p.section else _after(p.position - 1)
    return aside(p.label, where)


def format_place(a: Apparatus, p: Place) -> str:
    """One line of the apparatus: `11 (touhu)  ○ zhushu benyi … ] — weishi xunzuan yueshu
    (one ○ fewer in the run 11–12; first in yueshu, 1101)` (the printed editions' readings,
    each with the earliest dated edition that has it; a reported one that agrees follows with
    `=`); in Chinese a 校勘記 line (see the module)."""
    if chinese():
        return _chinese_place(a, p)
    readings = []
    for v in p.variants:
        if v.printed:
            said = clause_text(t for t in (v.description, _first(a, v)) if t)
            agrees = "".join(f" = {r.siglum}" for r in v.reports)
            reading = f"{v.shown} {a.named(v.printed)}{agrees}"
            readings.append(aside(reading, said) if said else reading)
    lemma = f"{p.lemma.shown} {a.named(p.lemma.printed)}"
    return f"{where_of(p)}  {lemma} ] " + clause_text(readings)


def lemma_clause(a: Apparatus, p: Place) -> str:
    """What the few editions with the base read, as a 校勘記 says it where it names them
    (Place.names_lemma): `唯底本《禮記注疏》、本義作 ○`, or `唯…無` where they have nothing."""
    sigla = a.named(p.lemma.printed)
    if not p.lemma.text:
        # TRANSLATORS: a 校勘記: only these witnesses have nothing at this place (唯底本、本義無)
        return pgettext("a 校勘記 lemma", "only {sigla} have nothing here").format(sigla=sigla)
    # TRANSLATORS: a 校勘記: only these witnesses read this text here (唯底本《禮記注疏》作 ○)
    return pgettext("a 校勘記 lemma", "only {sigla} read {text}").format(
        sigla=sigla, text=p.lemma.text
    )


def reading_sentence(a: Apparatus, v: Variant) -> str:
    """A reading as a 校勘記 says it under its place, its editions the subject: `纂圖本第 3～4
    擊處衍一 ○`, `五禮通考 ○ 作 □`, `通解末多 □○，與大戴禮合` (a text a note reports reads so
    too)."""
    description = v.description
    gap = " " if description[:1] in "○□半—" else ""
    said = f"{a.named(v.printed)}{gap}{description}"
    for r in v.reports:
        said = pgettext("a 校勘記 sentence", "{sigla}: {description}, as {source} reads").format(
            sigla=a.named(v.printed), description=f"{gap}{description}", source=a.cite(r.siglum)
        )
    return said


def _chinese_place(a: Apparatus, p: Place) -> str:
    """A place as a 校勘記 line: the editions that depart, each with what it reads (the
    others read with the base, 諸本同), and the base's editions too where they are few."""
    readings = [lemma_clause(a, p)] if p.names_lemma else []
    for v in p.departing:
        said = reading_sentence(a, v)
        first = _first(a, v)
        readings.append(aside(said, first) if first else said)
    return labelled(where_of(p), clause_text(readings))


def format_reported(a: Apparatus, p: Place) -> list[str]:
    """Readings a note reports: `8 (head)  □ ] ○ 吳澄本 (in yishu: 「吳澄本作○」; ○ for □)`;
    in Chinese `第 8 擊（半以前）：吳澄本，見義疏所引：「吳澄本作○」；□ 作 ○`."""
    lines = []
    for v in p.reported:
        for r in v.reports:
            if v.description:
                said = _("{siglum} (in {source}: 「{quote}」; {description})")
            else:
                said = _("{siglum} (in {source}: 「{quote}」)")
            said = said.format(
                siglum=a.cite(r.siglum),
                source=a.cite(r.reported_by),
                quote=r.quote,
                description=v.description,
            )
            if chinese():
                lines.append(labelled(where_of(p), said))
            else:
                lines.append(f"{where_of(p)}  {p.lemma.shown} ] {v.shown} {said}")
    return lines


def _after(stroke: int) -> str:
    """Where a place with no section stands: after stroke N."""
    return _("after stroke {stroke}").format(stroke=stroke)


def format_counts(a: Apparatus) -> list[str]:
    lines = []
    for s in a.counts:
        st = s.stated
        said = _("{by}, {section} ({span}): 鼙 {pi} 鼓 {gu}").format(
            by=written(st.by),
            section=written(st.section.shown),
            span=st.section.span,
            pi=st.pi,
            gu=st.gu,
        )
        lines.append("  " + said)
        quotes = clause_text(
            _("「{quote}」 {siglum}").format(quote=q.text, siglum=a.cite(q.siglum))
            for q in s.quotes
            if q.text
        )
        if quotes:
            lines.append("    " + _("quoted: {quotes}").format(quotes=quotes))
        if s.agreeing:
            lines.append("    " + _("agree: {sigla}").format(sigla=a.named(s.agreeing)))
        else:
            lines.append("    " + _("agrees with no edition"))
        why_groups: dict[tuple[str, ...], list[str]] = {}
        for siglum, why in s.disagreeing():
            why_groups.setdefault(why, []).append(siglum)
        for why, group in why_groups.items():
            said = _("disagree: {sigla} — {why}").format(sigla=a.named(group), why=clause_text(why))
            lines.append("    " + said)
    return lines


def format_key(apparatuses: Sequence[Apparatus], marks: dict[str, str] | None = None) -> list[str]:
    seen: dict[str, str] = {}
    for a in apparatuses:
        for w in a.witnesses:
            cite = written(years(w.provenance.citation)) if w.provenance else ""
            mark = (marks or {}).get(w.siglum, "")
            described = written(a.described(w)) if not w.reported else a.described(w)
            what = (aside(described, years(w.date.text)) if w.date else described) + mark
            seen.setdefault(a.cite(w.siglum), dashed(what, cite) if cite else what)
    widest = max(display.width(s) for s in seen)
    return [f"  {display.pad(siglum, widest)}  {what}" for siglum, what in seen.items()]


def heading(a: Apparatus, editions: int) -> str:
    """The first line of a score's apparatus: `lu/2 · 魯鼓 · figure 2 · base 禮記注疏 (zhushu)
    · 17 editions · …`; in Chinese `魯鼓第二圖　底本《禮記注疏》；校本 16 種；刊本異文 3 處；…`
    (校本 the editions collated with the base)."""
    if chinese():
        others = editions - 1
        collated = (
            ngettext(
                "{n} edition collated with the base", "{n} editions collated with the base", others
            ).format(n=others)
            if others
            # TRANSLATORS: a 校勘記's heading when the base is the only edition (無校本)
            else _("no edition collated with the base")
        )
        return _("{title} {base}: {editions}; {summary}").format(
            title=a.title, base=a.base_named, editions=collated, summary=a.summary
        )
    base = _("base {name} ({siglum})").format(name=a.base.name, siglum=a.base.siglum)
    counted = ngettext("{n} edition", "{n} editions", editions).format(n=editions)
    return f"{a.key} · {a.title} · {base} · {counted} · {a.summary}"


def format_apparatus(a: Apparatus) -> list[str]:
    lines = [
        heading(a, len(a.printed)),
        "  " + _("base: {notation}").format(notation=a.base.notation),
        "",
    ]
    lines += [f"  {format_place(a, p)}" for p in a.parting] or ["  " + _("the editions agree")]
    reported = [line for p in a.places for line in format_reported(a, p)]
    if reported or a.notes:
        lines += ["", "  " + _("in the editions' notes:")]
    lines += [f"  {line}" for line in reported]
    for note in a.notes:
        said = _("note in {siglum} after stroke {after}: 「{text}」 (not a reading: {reason})")
        lines.append(
            "  "
            + said.format(
                siglum=a.cite(note.siglum), after=note.after, text=note.text, reason=note.reason
            )
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

    names = [g.apparatus.cite(s) for s in g.sigla]
    percent = np.rint(np.array(g.agreement, dtype=np.float64) * 100).astype(np.int64).tolist()
    first = max((display.width(s) for s in names), default=0)
    most = list(map(max, zip(*percent, strict=True))) if percent else []
    widths = [max(display.width(s), len(str(m))) for s, m in zip(names, most, strict=True)]
    cells = {w: [str(v).ljust(w) for v in range(101)] for w in set(widths)}
    columns = [cells[w] for w in widths]
    lines = [
        "  ".join([" " * first, *(display.pad(s, w) for s, w in zip(names, widths, strict=True))]),
        "  ".join("-" * w for w in [first, *widths]),
    ]
    for s, row in zip(names, percent, strict=True):
        said = "  ".join([c[v] for c, v in zip(columns, row, strict=True)])
        lines.append(f"{display.pad(s, first)}  {said}")
    lines[0] = lines[0].rstrip()
    return [ln.rstrip() for ln in lines]


def format_groups(found: Sequence[Groups]) -> str:
    """The groups as text: per score, the editions sharing each reading at each
    place, the agreement of every two editions (per cent of aligned strokes), the editions that
    read alike and the average-linkage grouping."""
    blocks = []
    for g in found:
        a = g.apparatus
        editions = ngettext("{n} edition", "{n} editions", len(g.sigla)).format(n=len(g.sigla))
        if chinese():
            head = clause_text([a.title, editions, a.summary])
        else:
            head = f"{a.key} · {a.title} · {editions} · {a.summary}"
        lines = [head, ""]
        lines.append("  " + _("who shares each reading:"))
        for n, p in enumerate(g.places, 1):
            shared = between().join(sharing(a, v) for v in (p.lemma, *p.variants))
            lines.append(f"    {n}. {aside(p.label, p.section_shown)}  {shared}")
        if not g.places:
            lines.append("    " + _("every edition reads alike"))
        lines += [
            "",
            "  " + _("agreement (per cent of the aligned strokes two editions read alike):"),
        ]
        lines += ["    " + ln for ln in _agreement_table(g)]
        lines += ["", "  " + _("read alike: {groups}").format(groups=alike_text(g))]
        tree = g.newick(a.cite) if chinese() else g.tree
        lines.append(
            "  " + _("grouping (average linkage on 1 − agreement): {tree}").format(tree=tree)
        )
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n"
