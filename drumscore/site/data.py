"""What the pages show, as JSON-ready data: scores, collations, comparisons, the kit's gains.

Everything here is computed by the library itself (corpus, collate, compare), so the site shows
exactly what the command line reports.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from drumscore import glyphs
from drumscore.analysis.collate import Collation, check_score, collate
from drumscore.analysis.compare import Comparison, compare
from drumscore.apparatus.align import DEFAULT_BASE, SCORES, build
from drumscore.apparatus.table import apparatus_data
from drumscore.corpus import DEFAULT_EDITION
from drumscore.model import SECTION_ORDER, STATE_SLUGS, Drum, Edition, Score, Section, State
from drumscore.play import keys
from drumscore.timing import DEFAULT_BPM, MAX_BPM, MIN_BPM
from drumscore.track import MAX_COUNT_IN

#: Sample files of the built-in kit, as the site ships them.
SAMPLE_FILES = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
COUNT_FILE = "count.wav"


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
            state = STATE_SLUGS.get(score.state, slugify(score.state))
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
            "name": section.label,
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
    """The tempo range the page's controls allow, as the command line allows it."""
    return {"default": int(DEFAULT_BPM), "min": int(MIN_BPM), "max": int(MAX_BPM)}


def play_data() -> dict:
    """What the page's player must agree on with `drumscore play` and `render`, from the one
    place each is defined: the keys, the tap tempo, the count-in limit, the peak level, and the
    rounding of 16-bit samples and tapped tempos (ties to even, as numpy's rint in drumscore's
    WAV writer and Python's round have it)."""
    from drumscore.render.mix import PEAK_DBFS  # the mixer loads numpy: not for --help

    return {
        "keys": {
            "steps": dict(keys.TEMPO_STEPS),
            "pause": keys.PAUSE,
            "tap": keys.TAP,
            "switch": keys.SWITCH,
            "stop_after_pass": keys.STOP_AFTER_PASS,
            "stop_now": "Escape" if keys.STOP_NOW == "\x1b" else keys.STOP_NOW,
        },
        "tap_reset": keys.TAP_RESET,
        "taps": keys.TAPS,
        "tap_decimals": keys.TAP_DECIMALS,
        "max_count_in": MAX_COUNT_IN,
        "peak_dbfs": PEAK_DBFS,
        "rounding": "half-even",
    }


def names_data(items: Iterable[Entry], pool: Iterable[Edition]) -> dict[str, str]:
    """Every name the command line takes for a score of the site (casefolded), and the score's
    key: xue/2@benyi, 薛/2@benyi, lu@zhushu, and lu/2, lu for the standard text."""
    by_id = {e.id: e for e in pool}
    out: dict[str, str] = {}
    for entry in items:
        score, edition = entry.score, by_id.get(entry.edition.id, entry.edition)
        if not score.state or score.figure is None:
            continue
        state = State(score.state)
        figures = [f"/{score.figure}", *([""] if score.figure == 1 else [])]
        editions = {edition.id, edition.name, edition.provenance.kanripo, *edition.aliases}
        for spelling in (state.slug, *state.spellings):
            for figure in figures:
                for name in editions - {""}:
                    out.setdefault(f"{spelling}{figure}@{name}".casefold(), score.key)
                if edition.id == DEFAULT_EDITION:
                    out.setdefault(f"{spelling}{figure}".casefold(), score.key)
    return out


def notation_glyphs() -> dict[str, str]:
    """Each character the notation reader accepts, and the glyph (○ □ 半) it reads as."""
    return dict(glyphs.CANONICAL)


def partners(items: Iterable[Entry]) -> dict[str, str]:
    """For each score, the reading to compare it with: of the same figure and drum, the one that
    differs most (the majority among equals), else another edition's (they read alike)."""
    items = tuple(items)
    out = {}
    for entry in items:
        score = entry.score
        same = [
            e.score
            for e in items
            if e.score.state == score.state
            and e.score.figure == score.figure
            and e.score.key != score.key
        ]
        if not same:
            continue
        support: dict[str, int] = {}
        for other in same:
            support[other.pattern.notation] = support.get(other.pattern.notation, 0) + 1
        ranked = []
        for other in same:
            c = compare(score, other)
            ranked.append((c.distance + c.half_moved, support[other.pattern.notation], other.key))
        # the most differences, then the most editions; the first in the site among equals
        best = max(ranked, key=lambda r: (r[0], r[1]))
        out[score.key] = best[2]
    return out


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
