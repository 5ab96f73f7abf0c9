"""What the pages show, as JSON-ready data: scores, apparatuses, comparisons, the kit's gains.

Everything here is computed by the library itself and serialised by the same functions as the
command line's JSON (apparatus.table.apparatus_data, analysis.compare.comparison_data), so the
site shows exactly what the command line reports; a comparison is the apparatus of two
witnesses, aligned as the apparatus aligns every edition.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from drumscore.apparatus.counts import check_score
from drumscore.apparatus.gather import DEFAULT_BASE, SCORES, build, cited_title, collation
from drumscore.apparatus.groups import groups, groups_data
from drumscore.apparatus.names import cited_siglum
from drumscore.apparatus.places import MARKS, Apparatus
from drumscore.apparatus.table import apparatus_data
from drumscore.conductor.timeline import MAX_REPEAT
from drumscore.conductor.track import CLICK_VELOCITY, COUNT_VELOCITY, MAX_CLICKS, MAX_COUNT_IN
from drumscore.corpus import editions as corpus_editions
from drumscore.i18n import _, ngettext, pgettext, phrase_text, rules, written
from drumscore.model import (
    HALF,
    READINGS,
    SECTION_ORDER,
    STATE_SLUGS,
    Drum,
    Edition,
    Provenance,
    Score,
    Section,
)
from drumscore.play import keys
from drumscore.site import grammar
from drumscore.timing import DEFAULT_BPM, MAX_BPM, MIN_BPM

#: Sample files of the built-in kit, as the site ships them.
SAMPLE_FILES = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
COUNT_FILE = "count.wav"


@dataclass(frozen=True, slots=True)
class Entry:
    """One score of the site: the score, its edition and the page's file name (without .html)."""

    score: Score
    edition: Edition
    slug: str


#: The most of an id a page name keeps, in UTF-8 bytes (a file name holds 255).
MAX_SLUG_BYTES = 120


def slugify(text: str) -> str:
    """The part of a page's file name that names its edition: the id as ids match (casefolded),
    with the letters and digits of every script kept — a CJK id keeps its characters, which are
    fine in a file name and which a browser percent-encodes in a URL — so that two ids always
    name two pages, the same in every build. Where characters must go (any but letters, digits,
    '_' and '-'; a form that Unicode normalisation, as some file systems apply it, would change;
    an id too long for a file name), a short hash of the whole id follows what is kept."""
    folded = text.casefold()
    kept = re.sub(r"[^\w-]+", "-", unicodedata.normalize("NFC", folded)).strip("-_")
    if kept == folded and len(kept.encode()) <= MAX_SLUG_BYTES:
        return kept or "edition"
    kept = kept.encode()[:MAX_SLUG_BYTES].decode(errors="ignore").strip("-_")
    digest = hashlib.sha256(folded.encode()).hexdigest()[:8]
    return f"{kept}-{digest}" if kept else digest


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
        out[section.value] = {
            "start": start,
            "stop": stop,
            **pattern.counts(section).to_data(),
            "name": section.label if section.rite else section.span,
            "description": section.description,
        }
    return out


def page_score(entry: Entry, pool: Iterable[Edition], apparatus: dict | None = None) -> dict:
    """A score as its page and player need it: the score's own data (Score.to_data) with each
    stroke's printed glyph, the sections' ranges and the stated counts checked on it;
    `apparatus` (one of `apparatuses`, or its standing_data) gives the page the summary of its
    figure and drum across the editions and where this reading stands."""
    score = entry.score
    printed = printed_glyphs(score)
    source = score.source
    given = score.to_data()
    return {
        **given,
        # the names in the page's prose, in its script (the printed text as printed)
        "title": written(given["title"]),
        "edition_name": written(given["edition_name"]) if given["edition_name"] else None,
        "edition_cited": score.edition_cited,  # 《禮記注疏》, 陳澔《禮記集說》 in Chinese
        "cited": cited_title(score),  # as compare and the apparatus name it (通解魯鼓第二圖)
        "slug": entry.slug,
        "strokes": [
            {
                "i": s.index,
                "drum": s.drum.pinyin,
                "glyph": s.drum.symbol,
                "printed": printed[j],
                "side": score.pattern.side_label(s.index),
            }
            for j, s in enumerate(score.pattern.strokes)
        ],
        "sections": section_ranges(score),
        "checks": [
            {
                **c,
                "by": written(c["by"]),
                "section": Section(c["section"]).shown,
                # the editions that quote it, as the reader's view cites them (本義 in Chinese)
                "quotes": [{**q, "cited": cited_siglum(q["siglum"])} for q in c["quotes"]],
                "quoted_in_cited": [cited_siglum(siglum) for siglum in c["quoted_in"]],
            }
            for c in (check.to_data() for check in check_score(score, pool))
        ],
        "apparatus": _standing(score.key, apparatus) if apparatus else None,
        "source": _source(source) if source else {},
    }


#: What the compare page aligns and plays of a score (see score_data), in a file of its own.
ALIGNED = ("key", "slug", "title", "cited", "notation", "half", "strokes", "sections")


def listed_score(entry: Entry) -> dict:
    """A score as the index and the compare page list it: its name, page and notation, as its
    page names them (page_score), not its strokes."""
    score = entry.score
    return {
        "key": score.key,
        "slug": entry.slug,
        "title": written(score.title),
        "cited": cited_title(score),
        "notation": score.pattern.notation,
        "edition": score.edition_id or None,
        "figure": score.figure,
        "state": score.state or None,
    }


def score_data(score: dict, collated: dict[str, str] | None) -> dict:
    """A score as the compare page aligns and plays it, loaded when it is chosen: its strokes
    and sections, and its row of the corpus's apparatus of its figure and drum (`collated`, of
    `collations`), if it has one."""
    return {**{k: score[k] for k in ALIGNED}, "collated": collated}


def _source(source: Provenance) -> dict[str, str]:
    """An edition's source as its page shows it: the citation in the page's script, the licence
    as every view shows it (its holder in the reader's parentheses)."""
    found = source.to_data()
    if "citation" in found:
        found["citation"] = written(found["citation"])
    if source.licence:
        found["licence"] = source.licence_shown
    return found


def standing_data(apparatus: dict) -> dict:
    """What a score's page shows of an apparatus (of `apparatuses`; see _standing), kept of it
    once the index is written: its summary and each reading's scores and differences."""
    return {
        "score": apparatus["score"],
        "summary": apparatus["summary"],
        "readings": [
            {"keys": r["keys"], "differences": r["differences"]} for r in apparatus["readings"]
        ],
    }


def _standing(key: str, apparatus: dict) -> dict:
    """The apparatus's summary for one score's page: the two numbers, and which reading (A, B…,
    the majority first) this score prints and how that departs from the majority."""
    for i, reading in enumerate(apparatus["readings"]):
        if key in reading["keys"]:
            return {
                "score": apparatus["score"],
                "summary": apparatus["summary"],
                "reading": chr(ord("A") + i),
                "readings": len(apparatus["readings"]),
                "differences": reading["differences"],
            }
    return {"score": apparatus["score"], "summary": apparatus["summary"], "reading": None}


def collations(items: Iterable[Entry]) -> dict[str, dict[str, str]]:
    """What the compare page needs beside two scores to compare them as `drumscore compare`
    does (static/align.js aligns the pair asked for; the build writes no pair): for each score
    of the site printed in the corpus's apparatus of its figure and drum, that apparatus ("of":
    its figure and drum) and the score's row of it (`collated_rows`, the notes' evidence in
    it), a string of one sign a column ("-" where the score has none). Two scores of one
    apparatus are aligned as their rows; each score's is written in its own data file. Linear
    in the editions: no pair is aligned here."""
    keys = {e.score: e.score.key for e in items}
    out = {}
    for figure, state in SCORES:
        apparatus = collation(corpus_editions(), figure, state)
        if apparatus is None:
            continue
        for i, w in enumerate(apparatus.printed):
            if w.score in keys and w.score.edition_id:
                row = "".join(cell or "-" for cell in apparatus.row(i))
                out[keys[w.score]] = {"of": f"{figure}|{state}", "row": row}
    return out


def marks() -> dict[str, str]:
    """The mark of each kind of difference under an alignment, as `compare` prints it."""
    return dict(MARKS)


def kit_data() -> dict:
    """The built-in kit as the page plays it: sample files, each drum's left/right gain (and the
    count sound's, each a float32 as drumscore's mixer has it), and the
    velocity the count sound is recorded at and a click's unless another is chosen (a click's
    gain is its velocity over the count's, as drumscore's mixer has it). Read from the kit's
    file: its samples are the page's to decode."""
    from drumscore.render.kit import kit_gains

    gains = kit_gains()
    return {
        "voices": {
            d.pinyin: {
                "file": SAMPLE_FILES[d],
                "gain": list(gains[d.pinyin]),
                "drum": d.value,
                "glyph": d.symbol,
            }
            for d in Drum
        },
        "count": COUNT_FILE,
        "count_gain": list(gains["count"]),
        "count_velocity": COUNT_VELOCITY,
        "click_velocity": CLICK_VELOCITY,
    }


def tempo_data() -> dict:
    """The tempo range the page's controls allow, as the command line allows it."""
    return {"default": int(DEFAULT_BPM), "min": int(MIN_BPM), "max": int(MAX_BPM)}


def play_data() -> dict:
    """What the page's player must agree on with `drumscore play`, `render` and `compare`, from
    the one place each is defined: the keys, the tap tempo, the count-in limit, the peak level,
    the rate render writes at, the pause between A and B, and the rounding of 16-bit samples
    and tapped tempos (ties to even, as numpy's rint in drumscore's WAV writer and Python's
    round have it)."""
    from drumscore.files.format_choice import DEFAULT_RATE, PEAK_DBFS
    from drumscore.render.ab_audio import PAUSE_STROKES

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
        "max_repeat": MAX_REPEAT,
        "peak_dbfs": PEAK_DBFS,
        "peak_level": 10 ** (PEAK_DBFS / 20),  # the level the peak is brought to (gain_for)
        "rate": DEFAULT_RATE,
        "ab_pause": PAUSE_STROKES,
        "rounding": "half-even",
        "practice": practice_data(),
    }


def drum_words() -> dict[str, str]:
    """Each drum (by its key) as a stroke's title on a score page names it (the notation's
    macro), for the page to name the drum another reading strikes."""
    return {Drum.PI.pinyin: _("鼙 small drum"), Drum.GU.pinyin: _("鼓 big drum")}


def readings_data() -> list[dict]:
    """The readings of the signs (model.READINGS, 鄭玄's first) as a score page's player applies
    them: each one's id and name, the drum (by its key) each sign strikes, and the line the page
    shows for it: what it says (the reading's name and passage) and where that stands (its
    citation, in English as every citation is). The downloads of each reading are files of the
    site (a score's "downloads")."""
    described = {Drum.PI: _("鼙 (the small drum)"), Drum.GU: _("鼓 (the big drum)")}
    out = []
    for reading in READINGS:
        signs = phrase_text(
            _("{sign} strikes {drum}").format(sign=sign, drum=drum.value)
            for sign, drum in reading.mapping
        )
        out.append(
            {
                "id": reading.id,
                "name": reading.name.cited,
                "drums": {sign: drum.pinyin for sign, drum in reading.mapping},
                "says": _("Read as {name}: {signs}. 「{passage}」").format(
                    name=reading.name.cited, signs=signs, passage=reading.passage
                ),
                "citation": written(reading.citation),
                "legend": _(
                    "{signs}; 半 divides the pattern: 投壺 takes the strokes after it, 射 the "
                    "whole."
                ).format(
                    signs=phrase_text(
                        _("{sign} strikes {drum}").format(sign=sign, drum=described[drum])
                        for sign, drum in reading.mapping
                    )
                ),
            }
        )
    return out


def practice_data() -> dict:
    """What the page's practice controls share with the practice options of render and play: the
    most clicks a stroke takes, the velocity of a click (its default and range), the longest
    silent-pass period, and each drum's label by the key
    the page plays (the names it is read by are the fields' grammar, grammar.field_data)."""
    return {
        "max_clicks": MAX_CLICKS,
        "click_level": {"default": CLICK_VELOCITY, "min": 1, "max": 127},
        "max_silent_every": MAX_REPEAT,
        "drums": {drum.pinyin: {"label": drum.value} for drum in Drum},
    }


def names_data(items: Iterable[Entry], pool: Iterable[Edition]) -> dict:
    """What a score's name means on the compare page, as the command line reads it (see
    grammar.names_data): the site's scores, by state, figure and edition."""
    scores = [
        (e.score.key, e.score.state, e.score.figure, e.edition.id)
        for e in items
        if e.score.state and e.score.figure is not None
    ]
    return grammar.names_data(scores, pool)


def partners(built: Iterable[Apparatus]) -> dict[str, str]:
    """For each score, the reading to compare it with, read off the apparatus of its figure and
    drum (the site's, as the index shows it), without aligning any pair: a reading not the
    majority's is compared with the majority's (the reading most editions print, A); the
    majority's with the reading that departs from it most (its differing stroke columns, and
    半 standing elsewhere), the one more editions print among equals; where every edition reads
    alike, with another edition's. Linear in the editions and their strokes."""
    out: dict[str, str] = {}
    for apparatus in built:
        readings = apparatus.readings
        if not readings:
            continue
        majority = [w.score.key for w in readings[0].witnesses]
        first = apparatus.witnesses.index(readings[0].witnesses[0])
        ranked = [
            (_apart(apparatus, apparatus.witnesses.index(r.witnesses[0]), first), len(r.witnesses))
            for r in readings[1:]
        ]
        best = max(range(len(ranked)), key=lambda k: ranked[k], default=None)
        for reading in readings[1:]:
            for w in reading.witnesses:
                out[w.score.key] = majority[0]
        for key in majority:
            if best is not None:
                out[key] = readings[best + 1].witnesses[0].score.key
            elif len(majority) > 1:
                out[key] = majority[1] if key == majority[0] else majority[0]
    return out


def _apart(apparatus: Apparatus, mine: int, theirs: int) -> int:
    """How far two witnesses of `apparatus` read apart, as `compare` counts it of their rows:
    the stroke columns where they differ, and one more where 半 stands at another place."""
    differ = 0
    strokes = 0  # stroke columns either has, so far
    halves: list[int | None] = [None, None]
    for column in apparatus.columns:
        cells = (column.cells[mine], column.cells[theirs])
        if HALF in cells:
            for side in (0, 1):
                if cells[side] == HALF:
                    halves[side] = strokes
        elif any(cells):
            strokes += 1
            differ += cells[0] != cells[1]
    return differ + (halves[0] != halves[1])


def section_order() -> list[str]:
    return [s.value for s in SECTION_ORDER]


#: The most printed editions of a figure and drum whose agreement of every two (a table of their
#: number squared) and grouping the index shows; `collate --groups` gives them for any number.
GROUPS_LIMIT = 100


def figures(pool: tuple[Edition, ...]) -> list[Apparatus]:
    """The apparatus of each figure and drum the editions print (the index's, and what the
    partners are read from): the standard text is the base when it prints the score, else the
    first edition that does; the other editions by date, so that a reader sees when each
    reading appears."""
    out = []
    for figure, state in SCORES:
        having = [e for e in pool if e.score(state, figure) is not None]
        if not having:
            continue
        base = DEFAULT_BASE if any(e.id == DEFAULT_BASE for e in having) else having[0].id
        out.append(build(pool, figure, state, base, order="date"))
    return out


def apparatuses(
    pool: tuple[Edition, ...],
    items: Iterable[Entry],
    built: Iterable[Apparatus] | None = None,
) -> list[dict]:
    """The apparatus of each figure and drum (`figures` of `pool`, or `built` from them) as the
    collate command's JSON, and under "groups" the data of its groups option (None for more
    than GROUPS_LIMIT printed editions, their count under "groups_left_out"), each witness and
    each majority reading with its scores' pages."""
    slugs = {e.score.key: e.slug for e in items}
    out = []
    for apparatus in figures(pool) if built is None else built:
        data = apparatus_data(apparatus)
        # who goes with whom: a table of every two editions, left out (and said so) for many
        printed = len(apparatus.printed)
        small = printed <= GROUPS_LIMIT
        data["groups"] = groups_data(groups(apparatus)) if small else None
        data["groups_left_out"] = 0 if small else printed
        data["groups_limit"] = GROUPS_LIMIT
        for place, shown in zip(apparatus.places, data["places"], strict=True):
            # a Chinese 校勘記 names the base's editions only where they are few (諸本同)
            shown["names_lemma"] = place.names_lemma
        for w in data["witnesses"]:
            w["slug"] = slugs.get(w["key"], "")
        for r in data["readings"]:
            r["scores"] = [{"key": k, "slug": slugs.get(k, "")} for k in r["keys"]]
        out.append(data)
    return out


def strings() -> dict[str, str | list[str]]:
    """Every text the page scripts show (status lines, buttons they label, messages), in the
    current language; {name} placeholders the scripts fill, a pair a plural's forms for one
    and for more (the three languages have at most these two)."""
    return {
        # fields.js: fields refused, by the key of drumscore's own refusal (DrumscoreError.key)
        "number_long": _("{what} {text} is too long; a number is at most {limit} characters"),
        "number_format": _("{what} takes numbers such as 40, 37.5 or 3/2; not {text}"),
        "ramp_format": _("ramp takes START:STOP:STEP[:EVERY], such as 40:60:5; not {text}"),
        "ramp_range": _("ramp: START and STOP are from {min} to {max}, not {bpm}"),
        "ramp_every": _("ramp: EVERY is a whole number of passes from 1, not {every}"),
        "ramp_step": _("ramp: the step must go from {start} towards {stop}"),
        "strokes_format": _("strokes takes a range numbered from 1, such as 5-12; not {text}"),
        "strokes_range": _("strokes {text} is outside the section's strokes, 1 to {count}"),
        "strokes_reversed": _("strokes {text} runs backwards; give the lower stroke first: {span}"),
        "no_drum": _("only {text} is no drum; write 鼙 (pi) or 鼓 (gu)"),
        "empty_name": _("empty name: give a name such as lu/2 or notation such as ○□半○"),
        "unknown_name": _(
            "unknown name {name}: give a score's name (lu, lu/2, xue/2@benyi) or notation of ○ □ 半"
        ),
        "unknown_figure": _("unknown figure {figure}: the texts have figures 1 and 2"),
        "unknown_edition": _("unknown edition {name}: give an edition of this site"),
        "no_figure": _("{name}: that edition has no such score"),
        "cannot_load": _("cannot load {url}: {status}"),
        # compare.js: a score's data file (data/SLUG.js) missing, or not holding its data
        "score_data_missing": _(
            "cannot load the data of {name} from {url}; build the site again (drumscore site)"
        ),
        "score_data_garbled": _(
            "{url} does not hold the data of {name}; build the site again (drumscore site)"
        ),
        # what waits for the end of the pass, bracketed as drumscore play brackets it (〔〕)
        "waiting": pgettext("what waits for the end of the pass", "[{note}]"),
        # TRANSLATORS: between the fields of the page's status line (Chinese: a full-width space)
        "status_joiner": pgettext("between the fields of the page's status line", " · "),
        "switch_waiting": _("switch at end of pass"),
        "stop_waiting": _("stop at end of pass"),
        "count": _("count"),
        # score.js: the player's status line and buttons
        "count_in": _("count-in {k} of {of} · {bpm} a minute"),
        # a pass as drumscore play numbers it: looping, or of the passes asked for
        "pass_loop": _("pass {number}"),
        "pass_once": _("pass {number}/{repeats}"),
        "muted": _("(muted)"),
        "stroke_status": _("stroke {n}/{of} {drum} · {side} · {pass} · {bpm} a minute"),
        "starting": _("Starting · {bpm} a minute"),
        "paused": _("Paused at {bpm} a minute; space or play resumes on the beat."),
        "ready": _("{section} at {bpm} strokes a minute, {apart} s apart."),
        "play": _("▶ Play"),
        "resume": _("▶ Resume"),
        "pause": _("❚❚ Pause"),
        "played": [ngettext("Played {n} stroke.", "Played {n} strokes.", n) for n in (1, 2)],
        "problem": _("{message}."),
        "stopped": _("Stopped."),
        "switch_at_pass_end": _("{section} from the end of this pass."),
        "switch_next_play": _("{section} for the next play."),
        "reading_at_pass_end": _("Read as {reading} from the end of this pass."),
        "reading_next_play": _("Read as {reading} for the next play."),
        "making_wav": _("Making…"),
        "make_wav": _("Make WAV"),
        "save_wav": _("Save {name} ({seconds} s)"),
        # score.js: the copy link button (settings.js copySettings), copied or selected to copy
        "link_copied": _("Link copied, with the settings chosen."),
        "link_selected": _(
            "The browser does not let the page copy: the link is selected in the field; copy it "
            "with Ctrl+C (⌘C on a Mac)."
        ),
        # compare.js: notation no reading has, the alignment's marks, the verdict, the status
        "no_edition_reads": _(
            "no edition in this site reads {notation}; drumscore compare aligns any notation"
        ),
        "kind_substituted": _("a different stroke"),
        "kind_only_a": _("a stroke only in A"),
        "kind_only_b": _("a stroke only in B"),
        "side_stroke": _("{side} stroke {n}: {drum}"),
        "side_stroke_status": _("{side} stroke {n}: {drum} · {bpm} a minute"),
        "column": _("column {n}: {kind}"),
        "difference": _("difference"),
        "identical": _("identical"),
        "differences": [
            ngettext(
                "{n} difference in the strokes; {half}", "{n} differences in the strokes; {half}", n
            )
            for n in (1, 2)
        ],
        # align.js: where 半 stands on each side (analysis.compare.Comparison.describe_half)
        "half_first": _("before the first stroke"),
        "half_after": _("after stroke {n}"),
        "half_none": _("no 半 in A or B"),
        "half_only_a": _("半 only in A, {place}"),
        "half_only_b": _("半 only in B, {place}"),
        "half_moved": _("半 moved: {a} in A, {b} in B"),
        "half_same": _("半 in the same place: {a} in A, {b} in B"),
        "per_section": _("Per section"),
        # compare.js: a section's row, by its id (section_head, section_touhu, section_she)
        **{f"section_{s.value}": s.shown for s in SECTION_ORDER},
        "section": _("section"),
        "distance": _("distance"),
        "played_both": _("Played."),
        "no_half": _(
            "A or B has no 半, so it has only the whole pattern (射); choose that section."
        ),
        "paused_compare": _("Paused at {bpm} a minute; space resumes on the beat."),
        "tempo": _("{bpm} strokes a minute."),
        # a label and its text by the language's rule ("A: …", in Chinese "A：…")
        "labelled": rules()["label"],
        # a note after a text, in the language's parentheses: " (…)", in Chinese "（…）"
        "aside": rules()["aside"],
    }
