"""What `drumscore list` and `drumscore show` print: the table of scores, one score with its
provenance, notes and counts, and the counts the editions state.

Counts are written with their noun in the right number, and strokes are numbered from 1, as
everywhere drumscore shows them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from drumscore.apparatus.names import cited_siglum
from drumscore.display import divided, labelled_lines, table
from drumscore.i18n import (
    _,
    aside,
    clause_text,
    headed,
    list_text,
    ranges,
    written,
)
from drumscore.model import Edition, Pattern, Score, Section

if TYPE_CHECKING:
    from drumscore.apparatus.counts import StatedCheck


def list_table(
    scores: Sequence[Score],
    users: frozenset[str] = frozenset(),
    editions: Sequence[Edition] = (),
) -> str:
    """What `drumscore list` prints: a row per score with its edition's date and its counts per
    section; the editions whose ids are in `users` are marked as the user's own."""
    dates = {e.id: ranges(e.date.text) for e in editions if e.date is not None}
    rows = []
    for s in scores:
        name = written(s.edition_name)
        if s.edition_id in users:
            name = _("{edition} (yours)").format(edition=name)
        cells = [name, dates.get(s.edition_id, "-"), str(s.figure), written(f"{s.state}鼓")]
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
                by=written(c.stated.by),
                section=c.stated.section.shown,
                siglum=cited_siglum(q.siglum),
                quote=q.text,
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
        value = aside(written(score.edition_name), score.edition_id)
        if edition is not None and edition.user:
            value = _("{edition} — your edition, {path}").format(edition=value, path=edition.path)
        fields.append((_("edition:"), value))
    if prov:
        fields.append((_("source:"), prov.citation))
        if score.lines:
            span = ranges(score.lines)
            where = f"Kanripo {prov.kanripo} {span}" if prov.kanripo else span
            fields.append((_("lines:"), _("{lines} (this pattern)").format(lines=where)))
        if prov.commit:
            fields.append((_("commit:"), prov.commit))
        if prov.licence:
            fields.append((_("licence:"), prov.licence_shown))
    if edition is not None and edition.date is not None:
        date = edition.date
        shown = ranges(date.text)
        fields.append((_("date:"), aside(shown, str(date.basis)) if date.basis else shown))
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
        quoted = list_text(dict.fromkeys(cited_siglum(q.siglum) for q in check.quotes))
        lines.append(
            _("{by}, {section}: 鼙 {pi} 鼓 {gu} (quoted in {sigla}) — {verdict}").format(
                by=written(stated.by),
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
    lines = [headed(score.title, score.key), "", "  " + divided(score.pattern), ""]
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
