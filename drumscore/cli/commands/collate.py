"""drumscore collate: every edition's reading, grouped, and checked against the stated counts."""

from __future__ import annotations

import argparse
import json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "collate",
        help="group the editions' readings and check them against the counts commentators state",
        description="For each figure and drum: the readings with the editions that print them "
        "(majority first), where the others differ, and every stated count checked on each.",
    )
    p.add_argument(
        "score",
        metavar="SCORE",
        nargs="?",
        help="which figure and drum, e.g. lu, xue/2 (default: all four)",
    )
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(run=run)


def _pairs(name: str | None):
    from drumscore.analysis.collate import PAIRS
    from drumscore.corpus import split_name
    from drumscore.errors import OptionError

    if name is None:
        return PAIRS
    named = split_name(name)
    if named is None:
        raise OptionError(
            f"collate takes a figure and drum such as 'lu' or 'xue/2' and compares every "
            f"edition, not {name!r}; to compare two particular scores use 'drumscore compare A B'"
        )
    state, figure, edition = named
    if edition is not None:
        bare = name[: name.index("@")].strip()
        raise OptionError(
            f"collate compares every edition, so it takes a figure and drum without @EDITION: "
            f"give {bare!r} instead of {name!r}"
        )
    return ((figure, state),)


def run(args: argparse.Namespace) -> int:
    from drumscore.analysis.collate import collate

    result = collate(pairs=_pairs(args.score))
    if args.json:
        print(json.dumps([collation_data(c) for c in result], ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(format_collation(c) for c in result))
    return 0


def _letter(i: int) -> str:
    return chr(ord("A") + i)


def collation_data(c) -> dict:
    """One collation as JSON-ready data."""
    return {
        "figure": c.figure,
        "state": c.state,
        "readings": [
            {
                "reading": _letter(i),
                "notation": r.notation,
                "editions": list(r.editions),
                "counts": {
                    s.value: {"pi": r.pattern.counts(s).pi, "gu": r.pattern.counts(s).gu}
                    for s in r.pattern.sections()
                },
                "differences": [
                    {
                        "position": d.position,
                        "section": d.section.value,
                        "kind": d.kind,
                        "majority": d.majority,
                        "reading": d.reading,
                        "description": d.describe(),
                    }
                    for d in r.differences
                ],
            }
            for i, r in enumerate(c.readings)
        ],
        "stated_counts": [
            {
                "by": cc.stated.by,
                "section": cc.stated.section.value,
                "pi": cc.stated.pi,
                "gu": cc.stated.gu,
                "quoted_in": list(cc.quoted_in),
                "agreeing_readings": [_letter(i) for i in cc.agreeing],
                "agrees_with_no_edition": not cc.agreeing,
                "checks": [
                    {
                        "reading": _letter(ch.reading),
                        "pi": ch.actual.pi,
                        "gu": ch.actual.gu,
                        "agrees": ch.agrees(cc.stated),
                        "disagreements": list(ch.disagreements(cc.stated)),
                    }
                    for ch in cc.checks
                ],
            }
            for cc in c.counts
        ],
    }


def format_collation(c) -> str:
    from drumscore.corpus import find_edition

    def names(ids):
        return ", ".join(find_edition(i).name for i in ids)

    lines = [
        f"{c.state}鼓 · figure {c.figure}: {c.editions} editions, {len(c.readings)} readings",
        "",
    ]
    for i, r in enumerate(c.readings):
        tag = "majority" if i == 0 else "minority"
        lines.append(f"  {_letter(i)}  {r.notation}")
        counts = "  ".join(f"{s.value} {r.pattern.counts(s)}" for s in r.pattern.sections())
        lines.append(f"     {tag}, {len(r.scores)}: {names(r.editions)}")
        lines.append(f"     {counts}")
        for d in r.differences:
            lines.append(f"     differs from A: {d.describe()}")
    if c.counts:
        lines += ["", "  stated counts:"]
    for cc in c.counts:
        s = cc.stated
        lines.append(f"    {s.by} ({names(cc.quoted_in)}), {s.section.value}: 鼙 {s.pi} 鼓 {s.gu}")
        for ch in cc.checks:
            verdict = "agrees" if ch.agrees(s) else "; ".join(ch.disagreements(s))
            lines.append(f"      {_letter(ch.reading)}: {verdict}")
        if not cc.agreeing:
            lines.append("      → agrees with no edition")
    return "\n".join(lines)
