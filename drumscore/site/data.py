"""What the pages show, as JSON-ready data: scores, collations, comparisons, the kit's gains.

Everything here is computed by the library itself (corpus, collate, compare), so the site shows
exactly what the command line reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from drumscore.analysis.collate import Collation, check_score, collate
from drumscore.analysis.compare import Comparison, compare
from drumscore.apparatus.align import DEFAULT_BASE, SCORES, build
from drumscore.apparatus.table import apparatus_data
from drumscore.model import SECTION_ORDER, Drum, Edition, Score, Section
from drumscore.timing import DEFAULT_BPM, MAX_BPM, MIN_BPM

#: Sample files of the built-in kit, as the site ships them.
SAMPLE_FILES = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
COUNT_FILE = "count.wav"

SECTION_NAMES = {
    Section.HEAD: "before 半",
    Section.TOUHU: "投壺 touhu",
    Section.SHE: "射 she",
}


@dataclass(frozen=True, slots=True)
class Entry:
    """One score of the site: the score, its edition and the page's file name (without .html)."""

    score: Score
    edition: Edition
    slug: str


def slugify(text: str) -> str:
    """A file-name-safe version of an edition id: letters, digits and hyphens."""
    slug = re.sub(r"[^0-9A-Za-z]+", "-", text).strip("-").lower()
    return slug or "edition"


def entries(pool: Iterable[Edition]) -> tuple[Entry, ...]:
    """Every score of every edition, each with a page name unique in the site."""
    found = []
    used: set[str] = set()
    for edition in pool:
        base = slugify(edition.id)
        slug, n = base, 2
        while slug in used:
            slug, n = f"{base}-{n}", n + 1
        used.add(slug)
        for score in edition.scores:
            state = {"魯": "lu", "薛": "xue"}.get(score.state, slugify(score.state))
            found.append(Entry(score, edition, f"{state}-{score.figure}-{slug}"))
    return tuple(found)


def printed_glyphs(score: Score) -> list[str]:
    """The character each stroke is printed with (○ or 〇, □ or 口…), in stroke order."""
    out = []
    for stroke in score.pattern.strokes:
        pos = stroke.pos
        text = score.printed
        if pos is not None and text and 0 <= pos.offset < len(text):
            out.append(text[pos.offset])
        else:
            out.append(stroke.drum.symbol)
    return out


def section_ranges(score: Score) -> dict[str, dict]:
    """Each section the pattern has: its first and last-but-one stroke index, counts, name."""
    pattern = score.pattern
    n = len(pattern)
    half = n if pattern.half is None else pattern.half  # only the whole when there is no 半
    out = {}
    for section in pattern.sections():
        if section is Section.SHE:
            start, stop = 0, n
        elif section is Section.TOUHU:
            start, stop = half, n
        else:
            start, stop = 0, half
        counts = pattern.counts(section)
        out[section.value] = {
            "start": start,
            "stop": stop,
            "pi": counts.pi,
            "gu": counts.gu,
            "strokes": counts.total,
            "name": SECTION_NAMES[section],
            "description": section.description,
        }
    return out


def score_data(entry: Entry, pool: Iterable[Edition]) -> dict:
    """A score as its page and player need it."""
    score = entry.score
    pattern = score.pattern
    printed = printed_glyphs(score)
    checks = []
    for check in check_score(score, pool):
        stated = check.stated
        result = check.checks[0]
        checks.append(
            {
                "by": stated.by,
                "section": stated.section.value,
                "pi": stated.pi,
                "gu": stated.gu,
                "quote": stated.quote,
                "quoted_in": list(check.quoted_in),
                "actual": {"pi": result.actual.pi, "gu": result.actual.gu},
                "agrees": result.agrees(stated),
                "disagreements": list(result.disagreements(stated)),
            }
        )
    source = score.source
    return {
        "key": score.key,
        "slug": entry.slug,
        "title": score.title,
        "edition": entry.edition.id,
        "edition_name": score.edition_name,
        "script": entry.edition.script,
        "figure": score.figure,
        "state": score.state,
        "printed": score.printed,
        "notation": pattern.notation,
        "half": pattern.half,
        "strokes": [
            {"i": s.index, "drum": s.drum.pinyin, "glyph": s.drum.symbol, "printed": printed[j]}
            for j, s in enumerate(pattern.strokes)
        ],
        "sections": section_ranges(score),
        "checks": checks,
        "source": {k: v for k, v in asdict(source).items() if v} if source else {},
    }


def comparison_data(c: Comparison) -> dict:
    """Two readings aligned, as `drumscore compare` reports them in JSON."""
    return {
        "a": c.a.pattern.notation,
        "b": c.b.pattern.notation,
        "identical": c.identical,
        "distance": c.distance,
        "columns": [
            {
                "a": col.a.index if col.a else None,
                "b": col.b.index if col.b else None,
                "kind": col.kind,
            }
            for col in c.columns
        ],
        "half_column": {"a": c.half_column("a"), "b": c.half_column("b")},
        "half": c.describe_half(),
        "sections": [
            {
                "section": s.section.value,
                "a": {"pi": s.a.pi, "gu": s.a.gu},
                "b": {"pi": s.b.pi, "gu": s.b.gu},
                "distance": s.distance,
            }
            for s in c.sections
        ],
    }


def comparisons(items: Iterable[Entry]) -> dict[str, dict]:
    """Every pair of distinct notations among the scores, keyed 'A|B' (the notation of each)."""
    distinct: dict[str, Score] = {}
    for entry in items:
        distinct.setdefault(entry.score.pattern.notation, entry.score)
    out = {}
    for a in distinct.values():
        for b in distinct.values():
            out[f"{a.pattern.notation}|{b.pattern.notation}"] = comparison_data(compare(a, b))
    return out


def collation_data(c: Collation, slugs: dict[str, str]) -> dict:
    """One figure and drum across the editions: readings, where they part, the count checks."""
    return {
        "figure": c.figure,
        "state": c.state,
        "readings": [
            {
                "notation": r.notation,
                "scores": [{"key": s.key, "slug": slugs.get(s.key, "")} for s in r.scores],
                "editions": [s.edition_name for s in r.scores],
                "differences": [d.describe() for d in r.differences],
                "counts": {
                    s.value: {"pi": r.pattern.counts(s).pi, "gu": r.pattern.counts(s).gu}
                    for s in r.pattern.sections()
                },
            }
            for r in c.readings
        ],
        "counts": [
            {
                "by": k.stated.by,
                "section": k.stated.section.value,
                "pi": k.stated.pi,
                "gu": k.stated.gu,
                "quoted_in": list(k.quoted_in),
                "agreeing": list(k.agreeing),
                "disagreements": {
                    str(check.reading): list(check.disagreements(k.stated)) for check in k.checks
                },
            }
            for k in c.counts
        ],
    }


def collations(pool: tuple[Edition, ...], items: Iterable[Entry]) -> list[dict]:
    slugs = {e.score.key: e.slug for e in items}
    return [collation_data(c, slugs) for c in collate(pool)]


def kit_data() -> dict:
    """The built-in kit as the page plays it: sample files and each drum's left/right gain."""
    from drumscore.render.kit import builtin_kit

    kit = builtin_kit()
    return {
        "name": kit.name,
        "rate": kit.rate,
        "voices": {
            d.pinyin: {
                "file": SAMPLE_FILES[d],
                "gain": [float(g) for g in kit.voice(d).stereo_gain],
                "drum": d.value,
                "glyph": d.symbol,
            }
            for d in Drum
        },
        "count": COUNT_FILE,
    }


def tempo_data() -> dict:
    return {"default": int(DEFAULT_BPM), "min": int(MIN_BPM), "max": int(MAX_BPM)}


def section_order() -> list[str]:
    return [s.value for s in SECTION_ORDER]


def apparatuses(pool: tuple[Edition, ...], items: Iterable[Entry]) -> dict[tuple[int, str], dict]:
    """The critical apparatus of each figure and drum (as `drumscore collate` gives it), keyed by
    (figure, state), each witness with its score's page; the standard text is the base when it
    is in the pool, else the first edition."""
    slugs = {e.score.key: e.slug for e in items}
    ids = [e.id for e in pool]
    base = DEFAULT_BASE if DEFAULT_BASE in ids else ids[0]
    out = {}
    for figure, state in SCORES:
        if not any(e.score(state, figure) for e in pool):
            continue
        if next(e for e in pool if e.id == base).score(state, figure) is None:
            continue
        data = apparatus_data(build(pool, figure, state, base))
        for w in data["witnesses"]:
            w["slug"] = slugs.get(w["key"], "")
        out[(figure, state)] = data
    return out
