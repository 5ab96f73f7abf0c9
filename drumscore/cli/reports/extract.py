"""What `drumscore extract` prints: each score found in a passage, with its figure, drum,
notation, counts and lines, as a table or as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from drumscore.display import table
from drumscore.editions.extract import line_range
from drumscore.i18n import (
    _,
    list_text,
    ngettext,
    written,
)
from drumscore.model import Section

if TYPE_CHECKING:
    from drumscore.editions.extract import Extraction, Found


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
        drum = written(f"{s.state}鼓") if s.state else _("(no label)")
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
    ).format(
        source=written(extraction.name) if extraction.name else path, n=count, encoding=encoding
    )
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
