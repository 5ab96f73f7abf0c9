"""drumscore list and drumscore show: what is in the corpus."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict

from drumscore.model import Score, Section


def add_parser(sub) -> None:
    p = sub.add_parser("list", help="list the scores in the corpus with their stroke counts")
    p.add_argument("--edition", metavar="EDITION", help="only this edition")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run_list)

    p = sub.add_parser("show", help="show one score: notation, 半 division, counts, provenance")
    p.add_argument("score", metavar="SCORE", help="lu, xue/2, 魯/2@benyi, raw notation, or a file")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run_show)


def score_data(score: Score) -> dict:
    """A score as JSON-ready data: what it is, its notation and its counts per section."""
    pattern = score.pattern
    counts = {}
    for section in pattern.sections():
        c = pattern.counts(section)
        counts[section.value] = {"strokes": c.total, "pi": c.pi, "gu": c.gu}
    return {
        "key": score.key,
        "title": score.title,
        "edition": score.edition_id or None,
        "edition_name": score.edition_name or None,
        "figure": score.figure,
        "state": score.state or None,
        "notation": pattern.notation,
        "printed": score.printed or None,
        "half": pattern.half,
        "counts": counts,
    }


def run_list(args: argparse.Namespace) -> int:
    from drumscore import corpus
    from drumscore.display import table

    pool = (corpus.find_edition(args.edition),) if args.edition else corpus.editions()
    found = [s for e in pool for s in e.scores]
    users = {e.id for e in pool if e.user}
    if args.json:
        data = [{**score_data(s), "user_edition": s.edition_id in users} for s in found]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    rows = []
    for s in found:
        name = f"{s.edition_name} (yours)" if s.edition_id in users else s.edition_name
        cells = [name, str(s.figure), f"{s.state}鼓"]
        for section in Section.in_order():
            cells.append(str(s.pattern.counts(section)) if section in s.pattern.sections() else "-")
        cells.append(s.key)
        rows.append(cells)
    header = ["edition", "fig", "drum", "head", "touhu 投壺", "she 射", "name"]
    print(table(rows, header))
    return 0


def _marked(pattern, notes) -> str:
    """The notation with a numbered mark (¹ ² …) where each note stands."""
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


def _quotes(check) -> list[tuple[str, str]]:
    """(edition id, quote) for each edition that quotes a stated count, in its own words."""
    from drumscore import corpus

    stated = check.stated
    out = []
    for ident in check.quoted_in:
        for count in corpus.find_edition(ident).counts:
            same = (count.by, count.figure, count.state, count.section, count.pi, count.gu) == (
                stated.by,
                stated.figure,
                stated.state,
                stated.section,
                stated.pi,
                stated.gu,
            )
            if same and count.quote:
                out.append((ident, count.quote))
    return out


def run_show(args: argparse.Namespace) -> int:
    from drumscore import corpus
    from drumscore.analysis.collate import check_score
    from drumscore.display import score_summary

    score = corpus.resolve(args.score)
    prov = score.source
    checks = check_score(score)
    edition = corpus.find_edition(score.edition_id) if score.edition_id else None
    if args.json:
        data = score_data(score)
        if prov:
            data["provenance"] = {k: v for k, v in asdict(prov).items() if v}
        data["lines"] = score.lines or None
        data["notes"] = [{"after": n.after, "text": n.text, "line": n.line} for n in score.notes]
        data["edition_note"] = edition.note if edition is not None and edition.note else None
        data["user_edition"] = bool(edition is not None and edition.user)
        data["stated_counts"] = [
            {
                "by": c.stated.by,
                "section": c.stated.section.value,
                "pi": c.stated.pi,
                "gu": c.stated.gu,
                "quoted_in": list(c.quoted_in),
                "quotes": [{"edition": e, "quote": q} for e, q in _quotes(c)],
                "agrees": c.checks[0].agrees(c.stated),
            }
            for c in checks
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(score_summary(score, checks))
    quoted = [(c, _quotes(c)) for c in checks]
    if any(q for _, q in quoted):
        print()
        print("  the stated counts in the words of the editions:")
        for c, quotes in quoted:
            for ident, quote in quotes:
                print(f"    {c.stated.by}, {c.stated.section.value} ({ident}): 「{quote}」")
    if score.notes:
        print()
        print("  notes printed inside the pattern (not strokes; marked where they stand):")
        print(f"    {_marked(score.pattern, score.notes)}")
        for i, note in enumerate(score.notes, 1):
            line = f", line {note.line}" if note.line else ""
            print(f"    {i}. after stroke {note.after}{line}: {note.text}")
    if score.edition_id:
        print()
        mine = f" — your edition, {edition.path}" if edition is not None and edition.user else ""
        print(f"  edition: {score.edition_name} ({score.edition_id}){mine}")
    if prov:
        print(f"  source:  {prov.citation}")
        if score.lines:
            where = f"Kanripo {prov.kanripo} " if prov.kanripo else ""
            print(f"  lines:   {where}{score.lines} (this pattern)")
        if prov.commit:
            print(f"  commit:  {prov.commit}")
        if prov.licence:
            print(f"  licence: {prov.licence}")
    if edition is not None and edition.note:
        print(f"  note:    {edition.note}")
    return 0
