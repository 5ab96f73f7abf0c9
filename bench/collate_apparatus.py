"""Time the apparatus of the whole corpus (4 scores × 17 editions = 68 readings) in every format,
and, side by side in the same run, CollateX aligning the same readings one token per stroke."""

from __future__ import annotations

import json

from extract_collate import best

from drumscore import corpus
from drumscore.apparatus.gather import SCORES, collate
from drumscore.apparatus.mei import mei_bytes
from drumscore.apparatus.table import apparatus_data, csv_text
from drumscore.apparatus.tei import tei_bytes
from drumscore.cli.reports.apparatus import format_apparatuses
from drumscore.corpus import editions


def every_format() -> None:
    apparatuses = collate()
    format_apparatuses(apparatuses)
    json.dumps([apparatus_data(a) for a in apparatuses], ensure_ascii=False)
    csv_text(apparatuses)
    tei_bytes(apparatuses)
    for a in apparatuses:
        mei_bytes(a)


def collatex_alignment() -> None:
    from collatex import Collation, collate

    for figure, state in SCORES:
        witnesses = [
            {"id": e.id, "tokens": [{"t": ch} for ch in e.score(state, figure).pattern.notation]}
            for e in editions()
        ]
        collation = Collation.create_from_dict({"witnesses": witnesses})
        collate(collation, output="table", segmentation=False, near_match=False)


def _collatex_rows(witnesses: dict[str, str]) -> dict[str, list[str]]:
    from collatex import Collation, collate

    collation = Collation.create_from_dict(
        {"witnesses": [{"id": k, "tokens": [{"t": ch} for ch in v]} for k, v in witnesses.items()]}
    )
    data = json.loads(collate(collation, output="json", segmentation=False, near_match=False))
    return {
        w: ["".join(t["t"] for t in cell) if cell else "" for cell in row]
        for w, row in zip(data["witnesses"], data["table"], strict=True)
    }


def optimality(trials: int = 100, seed: int = 7) -> tuple[int, int]:
    """Random 25-stroke patterns with 1-3 random edits: how many alignments have more differing
    columns than the edit distance, for drumscore and for CollateX."""
    import random

    from drumscore.apparatus.align import differences
    from drumscore.apparatus.linear import align

    rng = random.Random(seed)
    worse_ours = worse_collatex = 0
    for _ in range(trials):
        base = [rng.choice("○○□") for _ in range(25)]
        other = list(base)
        for _ in range(rng.choice((1, 2, 3))):
            k = rng.randrange(len(other))
            kind = rng.choice("dis")
            if kind == "d":
                del other[k]
            elif kind == "i":
                other.insert(k, rng.choice("○□"))
            else:
                other[k] = "○" if other[k] == "□" else "□"
        best_cost = sum(  # the edit distance: an optimal unit-cost alignment's
            1 for i, j in align(base, other) if i is None or j is None or base[i] != other[j]
        )
        ours = differences(base, other)  # the apparatus's alignment
        rows = _collatex_rows({"base": "".join(base), "other": "".join(other)})
        theirs = sum(1 for x, y in zip(rows["base"], rows["other"], strict=True) if x != y)
        worse_ours += ours > best_cost
        worse_collatex += theirs > best_cost
    return worse_ours, worse_collatex


def main() -> None:
    readings = sum(1 for e in editions() for _ in e.scores)
    print(f"{readings} readings, {len(SCORES)} scores")
    print(f"drumscore apparatus (alignment and places only): {best(collate) * 1000:.1f} ms")

    def cold() -> None:
        corpus.builtin_editions.cache_clear()
        corpus._builtin.cache_clear()
        every_format()

    files = len(corpus.builtin_editions())
    print(f"the same, reading the {files} edition files first: {best(cold) * 1000:.1f} ms")
    total = best(every_format)
    print(f"drumscore apparatus in every format (text, json, csv, tei, mei): {total * 1000:.1f} ms")
    try:
        import collatex  # noqa: F401
    except ImportError:
        print("CollateX: not installed (pip install collatex python-Levenshtein)")
    else:
        print(
            f"CollateX alignment only, same readings: {best(collatex_alignment, 3) * 1000:.1f} ms"
        )
        ours, theirs = optimality()
        print(
            "random pairs (25 strokes, 1-3 edits), alignments longer than the edit distance: "
            f"drumscore {ours}/100, CollateX {theirs}/100"
        )
    total = max(total, best(cold))
    if total >= 1.0:
        raise SystemExit(f"too slow: {total:.2f} s for every format (the target is under 1 s)")


if __name__ == "__main__":
    main()
