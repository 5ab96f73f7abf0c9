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
    if args.json:
        print(json.dumps([score_data(s) for s in found], ensure_ascii=False, indent=2))
        return 0
    rows = []
    for s in found:
        cells = [s.edition_name, str(s.figure), f"{s.state}鼓"]
        for section in Section.in_order():
            cells.append(str(s.pattern.counts(section)) if section in s.pattern.sections() else "-")
        cells.append(s.key)
        rows.append(cells)
    header = ["edition", "fig", "drum", "head", "touhu 投壺", "she 射", "name"]
    print(table(rows, header))
    return 0


def run_show(args: argparse.Namespace) -> int:
    from drumscore import corpus
    from drumscore.analysis.collate import check_score
    from drumscore.display import score_summary

    score = corpus.resolve(args.score)
    prov = score.source
    checks = check_score(score)
    if args.json:
        data = score_data(score)
        if prov:
            data["provenance"] = {k: v for k, v in asdict(prov).items() if v}
        data["stated_counts"] = [
            {
                "by": c.stated.by,
                "section": c.stated.section.value,
                "pi": c.stated.pi,
                "gu": c.stated.gu,
                "quoted_in": list(c.quoted_in),
                "agrees": c.checks[0].agrees(c.stated),
            }
            for c in checks
        ]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(score_summary(score, checks))
    if score.edition_id:
        print()
        print(f"  edition: {score.edition_name} ({score.edition_id})")
    if prov:
        print(f"  source:  {prov.citation}")
        if prov.commit:
            print(f"  commit:  {prov.commit}")
        if prov.licence:
            print(f"  licence: {prov.licence}")
    return 0
