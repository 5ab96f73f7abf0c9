"""The wording of what a passage that yields no score lacks, and of two printings in one passage."""

from __future__ import annotations

from drumscore.editions import lexer
from drumscore.editions.found import Found, line_range
from drumscore.editions.lexer import Kind
from drumscore.editions.runs import Label, Run, RunReader
from drumscore.errors import ExtractError
from drumscore.i18n import _, ngettext


def no_notation(reader: RunReader, source_name: str) -> ExtractError:
    if source_name:
        found = _("no drum notation found in {source}").format(source=source_name)
    else:
        found = _("no drum notation found")
    labels = [i for i in reader.items if isinstance(i, Label) and i.kind == Kind.LABEL]
    halves = _layout_halves(reader.source, reader.tables)
    if labels and halves:
        first, half = reader.position(labels[0].token.start), reader.position(halves[0])
        return ExtractError(
            _(
                "{found}: the layout of the figures is there — {labels} labels ({label} at line "
                "{line}, column {column}, …) and {halves} 半 marks standing apart from the prose "
                "(line {half_line}, column {half_column}, …) — but not one ○ (鼙) or □ (鼓) "
                "stroke: the shapes were lost in the transcription, so no score can be read "
                "from it. Take the passage from another transcription or a facsimile; if this "
                "one draws the strokes with other signs, map them to strokes: X=○ / X=□"
            ).format(
                found=found,
                labels=len(labels),
                label=reader.text_of(labels[0].token),
                line=first.line,
                column=first.column,
                halves=len(halves),
                half_line=half.line,
                half_column=half.column,
            ),
            option="glyph",
        )
    runs = [i for i in reader.items if isinstance(i, Run)]
    if runs and not labels:
        signs = sum(len(r.strokes) for r in runs)
        first = reader.position(runs[0].first)
        if source_name:
            where = _("no score here in {source}").format(source=source_name)
        else:
            where = _("no score here")
        return ExtractError(
            ngettext(
                "{where}: the text has {n} ○/□ sign (the first at line {line}, column {column}), "
                "but none stands in a drum pattern: no run of them has 半 or a 魯鼓/薛鼓 label "
                "near it, as list bullets (○), marks for characters that could not be typed (□), "
                "glosses (○圜音圓) and numbers (二〇〇) do not. If a pattern is there, include "
                "its label in the passage",
                "{where}: the text has {n} ○/□ signs (the first at line {line}, column {column}), "
                "but none stands in a drum pattern: no run of them has 半 or a 魯鼓/薛鼓 label "
                "near it, as list bullets (○), marks for characters that could not be typed (□), "
                "glosses (○圜音圓) and numbers (二〇〇) do not. If a pattern is there, include "
                "its label in the passage",
                signs,
            ).format(where=where, n=signs, line=first.line, column=first.column)
        )
    if labels:
        first = reader.position(labels[0].token.start)
        return ExtractError(
            _(
                "{found}: the text names the scores ({label} at line {line}, column {column}) "
                "but prints no run of ○ (鼙) and □ (鼓) strokes; it discusses the drum figures "
                "without printing them. If the transcription draws the strokes with other "
                "signs, map them to strokes: X=○ / X=□"
            ).format(
                found=found,
                label=reader.source[labels[0].token.start : labels[0].token.end],
                line=first.line,
                column=first.column,
            ),
            option="glyph",
        )
    return ExtractError(
        _(
            "{found}: no run of ○ (鼙) and □ (鼓) strokes. If the transcription draws the "
            "strokes with other signs, map them to strokes: X=○ / X=□"
        ).format(found=found),
        option="glyph",
    )


def _layout_halves(source: str, tables: lexer.Tables) -> list[int]:
    """The offsets of the 半 marks that stand apart from the prose (no text on either side, as
    in a figure whose shapes are lost); 半 in 取半以下 is a word of the prose."""
    skip = (Kind.SPACE, Kind.INDENT, Kind.MARKUP)
    toks = [t for t in lexer.tokens(source, tables) if t.kind not in skip]
    found = []
    for i, t in enumerate(toks):
        if t.kind != Kind.HALF:
            continue
        before = toks[i - 1].kind if i else None
        after = toks[i + 1].kind if i + 1 < len(toks) else None
        if Kind.OTHER not in (before, after):
            found.append(t.start)
    return found


def check_unique(found: list[Found], source_name: str) -> None:
    seen: dict[tuple, Found] = {}
    for f in found:
        key = (f.score.figure, f.score.state)
        if not f.score.state:
            continue
        if key in seen:
            raise ExtractError(
                _(
                    "{source} has two patterns for {state}鼓 in figure {figure} ({first} and "
                    "{second}); extract the passage of one printing at a time"
                ).format(
                    source=source_name or _("the passage"),
                    state=f.score.state,
                    figure=f.score.figure,
                    first=line_range(*seen[key].lines, words=True),
                    second=line_range(*f.lines, words=True),
                )
            )
        seen[key] = f
