"""Every edition's reading of one score in one multiple alignment, and its places of variation.

The alignment is progressive against the base (禮記注疏 unless another is chosen): each witness is
aligned with the base alone (Needleman–Wunsch, unit costs, drumscore.apparatus.linear), then the
pairwise alignments are laid over the base's strokes. Strokes that witnesses add between the same
two base strokes are aligned with each other, the longest addition first.

**The run rule.** A stroke missing from, or added to, a run of equal strokes could stand at any
point of the run with the same cost. It is always placed at the first position of the run (the
gap is moved left while the stroke beside it is the same), so every witness that lacks one ○ of
a run lacks it in the same column, the place is reported once, and its description names the
run: `one ○ fewer in the run 11–12`, `one ○ more in the run 12–14`.

**半** is aligned after the strokes: in each witness it stands between two of its strokes, and
among the columns that allows it takes the one nearest the base's 半. Each distinct place of 半
is a column of its own, so a witness that puts 半 elsewhere differs at two 半 columns, which form
one place of variation with the strokes between them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from drumscore.apparatus import names
from drumscore.apparatus.linear import align
from drumscore.apparatus.notes import ReportedReading, interpret, printed_notes, printed_text
from drumscore.corpus import editions as corpus_editions
from drumscore.corpus import find_edition
from drumscore.errors import OptionError
from drumscore.i18n import N_, _, aside, list_text, ngettext, written
from drumscore.model import (
    HALF,
    SECTION_ORDER,
    STATE_SLUGS,
    Counts,
    Dating,
    Drum,
    Edition,
    PrintedNote,
    Provenance,
    Score,
    Section,
    State,
    StatedCount,
)
from drumscore.notation import parse

GAP = ""

#: The base edition when none is chosen: the standard text.
DEFAULT_BASE = "zhushu"

#: How the witnesses after the base are ordered: as the corpus lists them, or by date (the
#: choices of `list --order`), so that a reader sees when each reading first appears.
ORDERS = ("corpus", "date")


@dataclass(frozen=True, slots=True)
class Witness:
    """One edition's reading of the score, with the siglum that stands for it in the apparatus."""

    siglum: str
    name: str
    score: Score
    provenance: Provenance | None
    script: str = ""
    #: For a text known only from a note: the siglum of the edition that prints the note, and
    #: the note as printed (its row is that edition's with the reading put in).
    reported_by: str = ""
    quote: str = ""
    #: When the edition's text was made (None: undated, or a text known from a note).
    date: Dating | None = None

    @property
    def notation(self) -> str:
        return self.score.pattern.notation

    @property
    def date_key(self) -> tuple[int, int]:
        """The order by date, as Edition.date_key: the year the text certainly existed, then
        the start of its range; undated last."""
        if self.date is None:
            return (10_000, 10_000)
        return (self.date.latest, self.date.earliest)

    @property
    def reported(self) -> bool:
        return bool(self.reported_by)

    @property
    def described(self) -> str:
        """Who the witness is, for a key of sigla: its name, or who reports it and how."""
        if self.reported:
            return _("reported in {edition}: 「{quote}」").format(
                edition=self.reported_by, quote=self.quote
            )
        return self.name


@dataclass(frozen=True, slots=True)
class Column:
    """One aligned position: what each witness has there (○, □, 半, or "" for nothing).

    `base` is the base's stroke number (from 1) when the base has a stroke here; `after` the
    number of base strokes before this column; `section` where the column falls in the base
    (head before 半, touhu after it, she for a base without 半; None for a column of 半).
    """

    cells: tuple[str, ...]
    base: int | None
    after: int
    section: Section | None

    @property
    def is_half(self) -> bool:
        return HALF in self.cells

    @property
    def varies(self) -> bool:
        return len(set(self.cells)) > 1


#: How one witness's cell differs from another's in a column (the kinds compare reports): the
#: same sign, another stroke, a sign only the first has, a sign only the second has.
SAME, SUBSTITUTED, ONLY_A, ONLY_B = "same", "substituted", "only-a", "only-b"

#: The mark each kind has under an alignment of two readings, in the report and on the page.
MARKS = {SAME: " ", SUBSTITUTED: "*", ONLY_A: "-", ONLY_B: "+"}


def difference(first: str, second: str) -> str:
    """The kind of difference between two cells of one column ("" for nothing there)."""
    if first == second:
        return SAME
    if not second:
        return ONLY_A
    if not first:
        return ONLY_B
    return SUBSTITUTED


@dataclass(frozen=True, slots=True)
class Run:
    """A run of equal strokes in the base, by stroke number (from 1)."""

    symbol: str
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.first}–{self.last}" if self.last != self.first else str(self.first)


@dataclass(frozen=True, slots=True)
class Where:
    """Where a place stands, for a reader: base strokes `first` to `last` ("strokes"), the point
    "after" or "before" base stroke `first`, or a place of 半 alone ("half")."""

    kind: str
    first: int = 0
    last: int = 0

    def __str__(self) -> str:
        """`11`, `11–12`, `after 21`, `before 1`, `半`, in the current language."""
        if self.kind == "half":
            return HALF
        if self.kind == "after":
            return _("after {stroke}").format(stroke=self.first)
        if self.kind == "before":
            return _("before {stroke}").format(stroke=self.first)
        return str(Run("", self.first, self.last))


@dataclass(frozen=True, slots=True)
class Change:
    """How a reading differs from the lemma at one place: the two texts, the base's run the
    place falls in, and where the reading's 半 stands (after base stroke `half`) when it moves.
    Written out, in the current language, by `str` (see _describe)."""

    lemma: str
    reading: str
    run: Run | None = None
    half: int | None = None

    def __str__(self) -> str:
        return _describe(self.lemma, self.reading, self.run, self.half)


@dataclass(frozen=True, slots=True)
class Report:
    """A reading known from a note: the text the note names, the edition printing it, the note."""

    siglum: str
    reported_by: str
    quote: str

    def __str__(self) -> str:
        return _("{siglum} (reported in {edition}: 「{quote}」)").format(
            siglum=self.siglum, edition=self.reported_by, quote=self.quote
        )


@dataclass(frozen=True, slots=True)
class Variant:
    """One reading at a place, with the witnesses that have it and how it differs from the lemma.

    `sigla` are every witness with this reading, printed editions first, then (`follow` of them)
    texts known only from a note; `reports` those of these whose note gives this reading here,
    with who reports them (elsewhere such a text reads as the edition reporting it).
    """

    text: str
    sigla: tuple[str, ...]
    change: Change | None = None
    reports: tuple[Report, ...] = ()
    #: How many of the sigla (the last ones) are texts known from notes.
    follow: int = 0
    #: The earliest dated printed edition with this reading, and its date ("" when none is dated).
    first: str = ""
    first_date: str = ""

    @property
    def description(self) -> str:
        """How this reading differs from the lemma, in the current language ("" for the lemma)."""
        return str(self.change) if self.change is not None else ""

    @property
    def shown(self) -> str:
        return self.text or "—"

    @property
    def printed(self) -> tuple[str, ...]:
        """The sigla of the printed editions with this reading."""
        return self.sigla[: len(self.sigla) - self.follow]


@dataclass(frozen=True, slots=True)
class Place:
    """A place of variation: columns start..stop-1, the base's reading (lemma) and the others.

    `position` is the number of the first base stroke at the place, or for strokes only some
    witnesses add, the number of the base stroke they precede (len(base) + 1 at the end);
    `where` says where it stands, and `label` writes it for a reader (`11`, `11–12`,
    `before 12`, `半`).
    """

    start: int
    stop: int
    position: int
    where: Where
    section: Section | None
    lemma: Variant
    variants: tuple[Variant, ...]
    run: Run | None = None

    @property
    def label(self) -> str:
        return str(self.where)

    @property
    def section_name(self) -> str:
        """Its section's id (touhu, she, head), or 半 for the place of the mark."""
        return self.section.value if self.section is not None else HALF

    @property
    def section_shown(self) -> str:
        """Its section's name in the reader's language (Section.shown), or 半."""
        return self.section.shown if self.section is not None else HALF

    @property
    def editions_part(self) -> bool:
        """Whether printed editions part here (not only a text an edition's note reports)."""
        return any(v.printed for v in self.variants)

    @property
    def reported(self) -> tuple[Variant, ...]:
        """The readings here that an edition's note reports for a text outside the corpus."""
        return tuple(v for v in (self.lemma, *self.variants) if v.reports)

    @property
    def reports(self) -> tuple[Report, ...]:
        return tuple(r for v in self.reported for r in v.reports)


@dataclass(frozen=True, slots=True)
class WitnessNote:
    """A note printed inside a pattern that is not made a reading: who prints it, where, why
    (`why` a message of apparatus.notes, which `reason` gives in the current language)."""

    siglum: str
    after: int
    text: str
    column: int
    why: str

    @property
    def reason(self) -> str:
        return _(self.why).format(after=self.after)


@dataclass(frozen=True, slots=True)
class Quote:
    siglum: str
    text: str


def disagreements(counts: Counts, stated: StatedCount) -> tuple[str, ...]:
    """How a reading's counts differ from a stated count: ('鼙 22 where 徐伯魯 counts 21', …)."""
    return tuple(
        _("{drum} {have} where {by} counts {want}").format(
            drum=drum.value, have=have, by=written(stated.by), want=want
        )
        for drum, have, want in ((Drum.PI, counts.pi, stated.pi), (Drum.GU, counts.gu, stated.gu))
        if have != want
    )


@dataclass(frozen=True, slots=True)
class StatedCheck:
    """A count a commentator states, with its quotes, checked on every witness."""

    stated: StatedCount
    quotes: tuple[Quote, ...]
    results: tuple[tuple[str, Counts], ...]

    @property
    def agreeing(self) -> tuple[str, ...]:
        return tuple(s for s, c in self.results if (c.pi, c.gu) == (self.stated.pi, self.stated.gu))

    def disagreeing(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """(siglum, ['鼙 13 where 徐伯魯 counts 14']) for each witness that disagrees."""
        out = []
        for siglum, counts in self.results:
            why = disagreements(counts, self.stated)
            if why:
                out.append((siglum, why))
        return tuple(out)

    def to_data(self) -> dict[str, Any]:
        """The check as JSON-ready data, one form for the JSON of show and collate and for the
        site: the count stated, the quotes (with text) and the editions quoting it, and each
        witness checked (README, "Output details", lists the keys)."""
        why = dict(self.disagreeing())
        stated = self.stated
        return {
            "by": stated.by,
            "section": stated.section.value,
            "pi": stated.pi,
            "gu": stated.gu,
            "quotes": [{"siglum": q.siglum, "quote": q.text} for q in self.quotes if q.text],
            "quoted_in": list(dict.fromkeys(q.siglum for q in self.quotes)),
            "agreeing": list(self.agreeing),
            "agrees": bool(self.agreeing),
            "disagreements": [w for _siglum, said in self.disagreeing() for w in said],
            "checks": [
                {
                    "siglum": siglum,
                    "pi": counts.pi,
                    "gu": counts.gu,
                    "agrees": siglum not in why,
                    "disagreements": list(why.get(siglum, ())),
                }
                for siglum, counts in self.results
            ],
        }


@dataclass(frozen=True, slots=True)
class Apparatus:
    """One score (figure and drum) across the witnesses: alignment, places, notes, count checks."""

    figure: int
    state: str
    witnesses: tuple[Witness, ...]
    columns: tuple[Column, ...]
    places: tuple[Place, ...]
    notes: tuple[WitnessNote, ...]
    counts: tuple[StatedCheck, ...]

    @property
    def base(self) -> Witness:
        return self.witnesses[0]

    @property
    def key(self) -> str:
        return f"{STATE_SLUGS.get(self.state, self.state)}/{self.figure}"

    @property
    def title(self) -> str:
        return _("{state}鼓 · figure {figure}").format(state=self.state, figure=self.figure)

    def row(self, index: int) -> tuple[str, ...]:
        """Witness `index`'s cells across the columns."""
        return tuple(c.cells[index] for c in self.columns)

    def text_of(self, index: int) -> str:
        """Witness `index`'s notation read back from the alignment."""
        return "".join(self.row(index))

    @property
    def printed(self) -> tuple[Witness, ...]:
        """The witnesses printed in editions of the corpus (the base first)."""
        return tuple(w for w in self.witnesses if not w.reported)

    @property
    def reported(self) -> tuple[Witness, ...]:
        """The texts known only from notes, each a row of its own after the printed ones."""
        return tuple(w for w in self.witnesses if w.reported)

    @property
    def parting(self) -> tuple[Place, ...]:
        """The places where the printed editions themselves part."""
        return tuple(p for p in self.places if p.editions_part)

    @property
    def reports(self) -> tuple[tuple[Place, Report], ...]:
        """Each reading a note reports, with its place."""
        return tuple((p, r) for p in self.places for r in p.reports)

    @property
    def summary(self) -> str:
        """The two numbers every view states, in the same words: places where the printed
        editions part, and readings reported by notes."""
        places, reports = len(self.parting), len(self.reports)
        return _("{places}; {reports}").format(
            places=ngettext(
                "{count} place where the printed editions part",
                "{count} places where the printed editions part",
                places,
            ).format(count=places),
            reports=ngettext(
                "{count} reading reported by notes", "{count} readings reported by notes", reports
            ).format(count=reports),
        )

    @property
    def readings(self) -> tuple[Reading, ...]:
        """The majority view: each distinct printed reading with its editions, the most
        printed first, and where it departs from that majority reading."""
        return majority_readings(self)

    @property
    def agreements(self) -> tuple[str, ...]:
        """Where a reported reading is also printed, the sentence saying so:
        '大戴禮 (reported in yishu: 「…」) = kr1d0085 (朱熹 儀禮經傳通解)'."""
        names = {w.siglum: w.name for w in self.witnesses}
        out = []
        for p in self.places:
            for v in p.reported:
                if v.printed:
                    printed = " ".join(aside(s, names[s]) for s in v.printed)
                    out.append(f"{' = '.join(str(r) for r in v.reports)} = {printed}")
        return tuple(out)

    def column_label(self, index: int) -> str:
        """Column `index` named as every view names a place (`place_name`): `11`, `半`,
        `after 21`."""
        total = len(self.base.score.pattern.strokes)
        return str(place_name(self.columns, index, index + 1, total)[1])

    def place_of_column(self) -> dict[int, int]:
        """Column index → number (from 1) of the place it belongs to."""
        return {c: n for n, p in enumerate(self.places, 1) for c in range(p.start, p.stop)}

    def siglum_index(self, siglum: str) -> int:
        for i, w in enumerate(self.witnesses):
            if w.siglum == siglum:
                return i
        raise KeyError(siglum)


@dataclass(frozen=True, slots=True)
class Reading:
    """One distinct printed reading of the score, its witnesses, and where (place number and
    label) and how it departs from the majority reading."""

    notation: str
    witnesses: tuple[Witness, ...]
    departures: tuple[Departure, ...]

    @property
    def sigla(self) -> tuple[str, ...]:
        return tuple(w.siglum for w in self.witnesses)

    @property
    def differences(self) -> tuple[str, ...]:
        """Each departure written out: '11 (touhu): one ○ fewer in the run 11–12'."""
        return tuple(str(d) for d in self.departures)


@dataclass(frozen=True, slots=True)
class Departure:
    """Where (and in which section) a reading departs from the majority reading, and how."""

    where: Where
    section: Section | None
    change: Change

    def __str__(self) -> str:
        section = self.section.shown if self.section is not None else HALF
        return _("{where} ({section}): {change}").format(
            where=self.where, section=section, change=self.change
        )


def majority_readings(a: Apparatus) -> tuple[Reading, ...]:
    """The printed witnesses grouped by reading, the largest group first (on a tie, the one
    the base is in, then the order of the witnesses); differences are read off the alignment."""
    groups: dict[str, list[int]] = {}
    for i, w in enumerate(a.witnesses):
        if not w.reported:
            groups.setdefault(w.notation, []).append(i)
    ordered = sorted(groups.values(), key=lambda g: (-len(g), g[0]))
    if not ordered:
        return ()
    first = ordered[0][0]
    out = []
    for rank, group in enumerate(ordered):
        found = _departures(a, group[0], first) if rank else []
        out.append(
            Reading(
                a.witnesses[group[0]].notation, tuple(a.witnesses[i] for i in group), tuple(found)
            )
        )
    return tuple(out)


def _departures(a: Apparatus, mine: int, theirs: int) -> list[Departure]:
    """Where witness `mine` reads otherwise than witness `theirs`: in each place, the columns
    from the first to the last where they differ, described ('11 (touhu): one ○ fewer in the
    run 11–12')."""
    columns = a.columns
    total = len(a.base.score.pattern.strokes)
    out = []
    for p in a.places:
        differ = [
            k for k in range(p.start, p.stop) if columns[k].cells[mine] != columns[k].cells[theirs]
        ]
        if not differ:
            continue
        start, stop = differ[0], differ[-1] + 1
        lemma = "".join(c.cells[theirs] for c in columns[start:stop])
        reading = "".join(c.cells[mine] for c in columns[start:stop])
        where = place_name(columns, start, stop, total)[1]
        run = _run_at(columns, start, stop) if where.kind != "half" else None
        out.append(Departure(where, _section(columns, start, stop), Change(lemma, reading, run)))
    return out


def sigla(pool: Sequence[Edition]) -> dict[int, str]:
    """A short, unique siglum for each edition: its id (a user's edition that repeats an id, or
    whose id is not a plain name, gets a suffix or a cleaned form)."""
    taken: dict[str, str] = {}
    out = {}
    for edition in pool:
        stem = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in edition.id).strip("-.")
        if not stem or not (stem[0].isalpha() or stem[0] == "_"):
            stem = f"ed-{stem}" if stem else "ed"
        siglum, n = stem, 2
        while siglum in taken:
            siglum, n = f"{stem}-{n}", n + 1
        taken[siglum] = edition.id
        out[id(edition)] = siglum
    return out


def witnesses_of(
    pool: Sequence[Edition],
    figure: int,
    state: str,
    base: str = DEFAULT_BASE,
    order: str = "corpus",
) -> tuple[tuple[Witness, ...], tuple[Edition, ...]]:
    """The witnesses of one score, the base first, and the editions they come from; after the
    base, in the corpus's order or (`order="date"`) by Edition.date_key."""
    if order not in ORDERS:
        raise OptionError(
            _("order {value!r} is not one of {choices}; give one of them").format(
                value=order, choices=list_text(ORDERS)
            ),
            option="order",
        )
    base_edition = find_edition(base, pool)
    marks = sigla(pool)
    found: list[tuple[Witness, Edition]] = []
    for edition in pool:
        score = edition.score(state, figure)
        if score is None:
            continue
        witness = Witness(
            marks[id(edition)],
            edition.name,
            score,
            edition.provenance,
            edition.script,
            date=edition.date,
        )
        found.append((witness, edition))
    if order == "date":
        found.sort(key=lambda we: we[1].date_key)
    found.sort(key=lambda we: we[1] is not base_edition)
    if not found or found[0][1] is not base_edition:
        raise OptionError(
            _(
                "the base edition {edition} ({id}) has no {state}鼓 of figure {figure}; choose a "
                "base that has it"
            ).format(edition=base_edition.name, id=base_edition.id, state=state, figure=figure)
        )
    return tuple(w for w, _ in found), tuple(e for _, e in found)


# --- the alignment -------------------------------------------------------------------------


def _cost(x: str, y: str) -> float:
    """0 for the same stroke, 1 for ○ against □; 半 against a stroke is never one column, and 半
    against 半 costs ½, so 半 standing one or more strokes further on reads as 半 moved (two
    gaps) rather than as a stroke added on one side of it and lost on the other."""
    if x == y:
        return 0.5 if x == HALF else 0
    return 3 if HALF in (x, y) else 1


#: What the notes report, in the base's signs: ("add", slot, sign) for a sign a reported text
#: adds after the base's first `slot` signs, ("read", i, sign) for a sign it reads at base sign i.
Evidence = frozenset[tuple[str, int, str]]

#: Pairwise problems up to this many table cells get the tie-break rule; larger ones (never a
#: printed pattern) the plain alignment.
RULE_CELLS = 40_000

#: The states of the tie-break table: the last column pairs two signs, lacks a base sign, or
#: adds a sign.
_PAIR, _LACK, _ADD = 0, 1, 2


#: The radix that packs a rank (cost, substitutions, gaps opened, −evidence) into one integer,
#: compared as the tuple would be while each count stays under half of it (RULE_CELLS ensures).
_RADIX = 1 << 12


def _rank(cost: float, substituted: int, opened: int, seen: int) -> int:
    return ((int(cost * 2) * _RADIX + substituted) * _RADIX + opened) * _RADIX - seen


def _ranked(
    base: Sequence[str], other: Sequence[str], evidence: Evidence
) -> list[tuple[int | None, int | None]]:
    """An alignment of least cost (`_cost`; a gap costs 1) and, among those, the one a scholar
    would choose: the fewest substitutions (a stroke lacking and one added rather than two
    changed), then the fewest separate gaps (strokes added or lacking together rather than one
    by one), then the most agreement with what the notes report (`evidence`). Each cell ranks
    (cost, substitutions, gaps opened, −evidence) in that order, in three tables (Gotoh's), so
    that a gap's opening is counted exactly; ties left after that fall as in `align`."""
    n, m = len(base), len(other)
    worst = _rank(10 * (n + m + 1), 0, 0, 0)
    states = (_PAIR, _LACK, _ADD)
    score = [[[worst] * (m + 1) for _ in range(n + 1)] for _ in states]
    came = [[[0] * (m + 1) for _ in range(n + 1)] for _ in states]
    score[_PAIR][0][0] = 0
    gap, opened = _rank(1, 0, 0, 0), _rank(1, 0, 1, 0)
    pair, lack, add = score
    steps: dict[tuple[str, str], int] = {}
    # each min packs (rank, state) as rank * 4 + state: ints compare as the pairs would
    for i in range(n + 1):
        row_p, row_l, row_a = pair[i], lack[i], add[i]
        came_p, came_l, came_a = came[_PAIR][i], came[_LACK][i], came[_ADD][i]
        up_p, up_l, up_a = (pair[i - 1], lack[i - 1], add[i - 1]) if i else (row_p, row_l, row_a)
        for j in range(m + 1):
            if i and j:
                x, y = base[i - 1], other[j - 1]
                step = steps.get((x, y))
                if step is None:
                    step = steps[(x, y)] = _rank(_cost(x, y), int(x != y), 0, 0)
                if evidence and x != y and ("read", i - 1, y) in evidence:
                    step -= 1
                best = min(up_p[j - 1] * 4, up_l[j - 1] * 4 + 1, up_a[j - 1] * 4 + 2)
                row_p[j], came_p[j] = (best >> 2) + step, best & 3
            if i:
                best = min(
                    (up_p[j] + opened) * 4, (up_l[j] + gap) * 4 + 1, (up_a[j] + opened) * 4 + 2
                )
                row_l[j], came_l[j] = best >> 2, best & 3
            if j:
                best = min(
                    (row_p[j - 1] + opened) * 4,
                    (row_l[j - 1] + opened) * 4 + 1,
                    (row_a[j - 1] + gap) * 4 + 2,
                )
                seen = int(bool(evidence) and ("add", i, other[j - 1]) in evidence)
                row_a[j], came_a[j] = (best >> 2) - seen, best & 3
    state = min(states, key=lambda k: (score[k][n][m], k))
    pairs: list[tuple[int | None, int | None]] = []
    i, j = n, m
    while i or j:
        before = came[state][i][j]
        if state == _PAIR:
            i, j = i - 1, j - 1
            pairs.append((i, j))
        elif state == _LACK:
            i -= 1
            pairs.append((i, None))
        else:
            j -= 1
            pairs.append((None, j))
        state = before
    pairs.reverse()
    return pairs


def _pairwise(
    base: Sequence[str], other: Sequence[str], evidence: Evidence = frozenset()
) -> list[tuple[int | None, int | None]]:
    """The base and one witness aligned by the tie-break rule (`_ranked`), then gaps moved to
    the first position of their run; the same two readings are aligned once (editions that
    copy one another share readings)."""
    return list(_aligned(tuple(base), tuple(other), evidence))


@functools.lru_cache(maxsize=512)
def _aligned(
    base: tuple[str, ...], other: tuple[str, ...], evidence: Evidence
) -> tuple[tuple[int | None, int | None], ...]:
    """`_pairwise`'s alignment, computed."""
    if base == other:
        pairs: list[tuple[int | None, int | None]] = [(i, i) for i in range(len(base))]
    elif (len(base) + 1) * (len(other) + 1) <= RULE_CELLS:
        pairs = _ranked(base, other, evidence)
    else:
        pairs = list(align(base, other, _cost))
    moved = True
    while moved:
        moved = False
        for k in range(1, len(pairs)):
            (i0, j0), (i1, j1) = pairs[k - 1], pairs[k]
            if i0 is None or j0 is None or base[i0] != other[j0]:
                continue
            if j1 is None and i1 is not None and base[i1] == base[i0]:
                # base stroke i1 missing after an equal matched stroke: the gap moves left
                pairs[k - 1], pairs[k] = (i0, None), (i1, j0)
                moved = True
            elif i1 is None and j1 is not None and other[j1] == other[j0]:
                # an added stroke after an equal matched stroke: the addition moves left
                pairs[k - 1], pairs[k] = (None, j0), (i0, j1)
                moved = True
    return tuple(pairs)


def _merge_additions(
    additions: dict[int, list[int]], tokens: Sequence[Sequence[str]]
) -> list[dict[int, int]]:
    """Columns for the signs some witnesses add at one slot: [{witness: token index}]."""
    order = sorted(additions, key=lambda w: (-len(additions[w]), w))
    columns: list[dict[int, int]] = []
    symbols: list[str] = []
    for w in order:
        seq = [tokens[w][j] for j in additions[w]]
        placed: list[dict[int, int]] = []
        placed_symbols: list[str] = []
        for ci, k in align(symbols, seq, _cost):
            if ci is None:
                assert k is not None  # a column is never a gap on both sides
                placed.append({w: additions[w][k]})
                placed_symbols.append(seq[k])
            else:
                column = dict(columns[ci])
                if k is not None:
                    column[w] = additions[w][k]
                placed.append(column)
                placed_symbols.append(symbols[ci])
        columns, symbols = placed, placed_symbols
    return columns


def _token_columns(
    tokens: Sequence[Sequence[str]], evidence: Evidence = frozenset()
) -> list[dict[int, int]]:
    """The multiple alignment of the witnesses' signs (witness 0 the base)."""
    base = tokens[0]
    matched: list[dict[int, int]] = [{0: i} for i in range(len(base))]
    added: dict[int, dict[int, list[int]]] = {}  # slot (base signs before) → witness → signs
    for w in range(1, len(tokens)):
        slot = 0
        for i, j in _pairwise(base, tokens[w], evidence):
            if i is not None:
                if j is not None:
                    matched[i][w] = j
                slot = i + 1
            elif j is not None:
                added.setdefault(slot, {}).setdefault(w, []).append(j)
    columns: list[dict[int, int]] = []
    for i in range(len(base) + 1):
        if i in added:
            columns.extend(_merge_additions(added[i], tokens))
        if i < len(base):
            columns.append(matched[i])
    return columns


def _laid(witnesses: Sequence[Witness], evidence: Evidence = frozenset()) -> list[list[str]]:
    """Strokes and 半 of the printed witnesses aligned, column by column: 半 is a sign of its
    own that only meets 半."""
    tokens = [list(w.notation) for w in witnesses]
    return [
        [tokens[w][col[w]] if w in col else GAP for w in range(len(witnesses))]
        for col in _token_columns(tokens, evidence)
    ]


def _evidence(
    laid: Sequence[Sequence[str]], found: Sequence[tuple[int, ReportedReading, int]]
) -> Evidence:
    """What the reported readings (reporter, reading, stroke after) say, in the base's signs:
    the strokes a text adds after a base sign, or reads at one."""
    out: set[tuple[str, int, str]] = set()
    for w, reading, after in found:
        where = _strokes_at(laid, w)
        end = where[after - 1] + 1 if after > 0 else 0

        def signs_before(column: int) -> int:
            return sum(1 for cells in laid[:column] if cells[0])

        if not reading.replaces:
            out.update(("add", signs_before(end), sign) for sign in reading.text)
        elif len(reading.text) == reading.replaces:
            for sign, k in zip(reading.text, where[after - reading.replaces : after], strict=True):
                if laid[k][0]:
                    out.add(("read", signs_before(k), sign))
    return frozenset(out)


def _strokes_at(laid: Sequence[Sequence[str]], w: int) -> list[int]:
    """The column of each stroke (not 半) of witness `w`, in order."""
    return [k for k, cells in enumerate(laid) if cells[w] and cells[w] != HALF]


def _fits(signs: frozenset[str], sign: str) -> float:
    """The cost of a reported stroke in a column holding `signs` (printed witnesses')."""
    if sign in signs:
        return 0
    return 3 if HALF in signs else 1


def _put_reported(
    laid: list[list[str]], printed: int, reporter: int, row: int, note: ReportedReading, after: int
) -> list[list[str]]:
    """The columns with witness `row` (a copy of the reporter's row) reading `note.text` in
    place of the `note.replaces` strokes of the reporter that end after its stroke `after`.

    The reading takes the columns of the strokes it replaces and every column right after them
    where the reporter has nothing (strokes other witnesses add there), aligned to the signs the
    printed witnesses have in them; a stroke that fits none gets a column of its own. So a
    reported addition and a printed one at the same place share their columns.
    """
    where = _strokes_at(laid, reporter)
    end = where[after - 1] + 1 if after > 0 else 0
    start = where[after - note.replaces] if note.replaces else end
    stop = end
    while stop < len(laid) and laid[stop][reporter] == GAP:
        stop += 1
    region = laid[start:stop]
    signs = [frozenset(c for c in cells[:printed] if c) for cells in region]
    made = []
    for ci, k in align(signs, list(note.text), _fits):
        cells = [GAP] * len(laid[0]) if ci is None else list(region[ci])
        cells[row] = note.text[k] if k is not None else GAP
        made.append(cells)
    return [*laid[:start], *made, *laid[stop:]]


def _column_objects(laid: Sequence[Sequence[str]]) -> tuple[Column, ...]:
    """Each laid column with the base's stroke number and the section it falls in."""
    base_half = next((k for k, cells in enumerate(laid) if cells[0] == HALF), None)
    out = []
    after = 0
    for k, row in enumerate(laid):
        cells = tuple(row)
        if HALF in cells:
            section = None
        elif base_half is None:
            section = Section.SHE
        else:
            section = Section.HEAD if k < base_half else Section.TOUHU
        number = after + 1 if cells[0] and cells[0] != HALF else None
        out.append(Column(cells, number, after, section))
        if number is not None:
            after += 1
    return tuple(out)


# --- places of variation -------------------------------------------------------------------


def _spans(columns: Sequence[Column]) -> list[tuple[int, int]]:
    """Maximal runs of varying columns; all varying 半 columns join one span with what lies
    between them."""
    varying = [c.varies for c in columns]
    halves = [k for k, c in enumerate(columns) if c.is_half and c.varies]
    if len(halves) > 1:
        for k in range(halves[0], halves[-1] + 1):
            varying[k] = True
    spans = []
    k = 0
    while k < len(columns):
        if varying[k]:
            start = k
            while k < len(columns) and varying[k]:
                k += 1
            spans.append((start, k))
        else:
            k += 1
    return spans


def _base_run(columns: Sequence[Column], start: int, symbol: str) -> Run | None:
    """The run of `symbol` in the base that the place starting at column `start` falls in: the
    base's sign there (or, for strokes only others have, the base's next sign, else its last)."""
    signs = [(c.cells[0], c.base) for c in columns if c.cells[0]]
    at = sum(1 for c in columns[:start] if c.cells[0])
    probe = at if at < len(signs) and signs[at][0] == symbol else at - 1
    if not (0 <= probe < len(signs)) or signs[probe][0] != symbol:
        return None
    first = last = probe
    while first > 0 and signs[first - 1][0] == symbol:
        first -= 1
    while last + 1 < len(signs) and signs[last + 1][0] == symbol:
        last += 1
    start_at, end_at = signs[first][1], signs[last][1]
    assert start_at is not None and end_at is not None
    return Run(symbol, start_at, end_at)


#: Counts of strokes written as words in a description ("one ○ fewer").
_WORDS = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four")}


def _describe(lemma: str, reading: str, run: Run | None, half: int | None = None) -> str:
    """How `reading` differs from `lemma` at one place, in a few words of the current language;
    `half` is the base stroke after which the reading's 半 stands when it stands elsewhere."""
    lem_half, rdg_half = HALF in lemma, HALF in reading
    lem, rdg = lemma.replace(HALF, ""), reading.replace(HALF, "")
    parts = []
    if lem != rdg:
        fewer = len(lem) - len(rdg)
        if run is not None and set(lem) | set(rdg) <= {run.symbol}:
            word = _WORDS.get(abs(fewer))
            many = _(word) if word else str(abs(fewer))
            if fewer > 0:
                said = _("{many} {symbol} fewer in the run {run}")
            elif run.first == run.last:
                said = _("{strokes} for {symbol} at {stroke}")
            else:
                said = _("{many} {symbol} more in the run {run}")
            parts.append(
                said.format(
                    many=many,
                    symbol=run.symbol,
                    run=run,
                    strokes=run.symbol * (1 - fewer),
                    stroke=run.first,
                )
            )
        elif not rdg:
            parts.append(_("omits {strokes}").format(strokes=lem))
        elif not lem:
            parts.append(_("adds {strokes}").format(strokes=rdg))
        else:
            parts.append(_("{reading} for {lemma}").format(reading=rdg, lemma=lem))
    if lem_half != rdg_half or (lem_half and lemma != reading and lem == rdg):
        if not rdg_half:
            parts.append(_("no 半 here"))
        elif half is None:
            parts.append(_("半 here"))
        elif half:
            parts.append(_("半 after stroke {stroke}").format(stroke=half))
        else:
            parts.append(_("半 before stroke 1"))
    if len(parts) == 2:
        return _("{first}; {second}").format(first=parts[0], second=parts[1])
    return "".join(parts)


def place_name(columns: Sequence[Column], start: int, stop: int, total: int) -> tuple[int, Where]:
    """The one name of a place (columns start..stop-1) that every view writes, and its position.

    A place holding base strokes is named by them (`11`, `11–12`); a place of 半 alone is `半`;
    a place of strokes only other witnesses have is named by the base stroke they follow
    (`after 21`), or `before 1` at the very start. A single column is named as the place it
    would be alone, so a table's column and the place it forms read the same. The position is
    the first base stroke at the place, or the one the added strokes precede.
    """
    numbers = [c.base for c in columns[start:stop] if c.base is not None]
    if numbers:
        return numbers[0], Where("strokes", numbers[0], numbers[-1])
    after = columns[start].after if start < len(columns) else total
    if stop > start and all(c.is_half for c in columns[start:stop]):
        return after + 1, Where("half")
    return after + 1, Where("after", after) if after else Where("before", 1)


def _section(columns: Sequence[Column], start: int, stop: int) -> Section | None:
    if start == stop:  # a point between columns: the section of the column before it
        start, stop = max(start - 1, 0), max(start, 1)
    sections = [c.section for c in columns[start:stop] if c.section is not None]
    return sections[0] if sections else None


def _places(witnesses: Sequence[Witness], columns: Sequence[Column]) -> tuple[Place, ...]:
    """The places of variation, each with its readings grouped (printed witnesses first) and
    described; a reported witness's reading is one of them, with who reports it."""
    total = len(witnesses[0].score.pattern.strokes)
    order = sorted(range(len(witnesses)), key=lambda w: (witnesses[w].reported, w))
    index = {w.siglum: i for i, w in enumerate(witnesses)}
    places = []
    for start, stop in _spans(columns):
        texts = ["".join(c.cells[w] for c in columns[start:stop]) for w in range(len(witnesses))]
        groups: dict[str, list[Witness]] = {}
        for w in order:
            groups.setdefault(texts[w], []).append(witnesses[w])
        position, label = place_name(columns, start, stop, total)
        run = _run_at(columns, start, stop)

        lemma_text = texts[0]
        lemma = _variant(lemma_text, groups.pop(lemma_text), None, texts, index)
        variants = [
            _variant(
                text,
                found,
                Change(
                    lemma_text,
                    text,
                    run,
                    _half_at(columns, start, stop, witnesses, [w.siglum for w in found]),
                ),
                texts,
                index,
            )
            for text, found in groups.items()
        ]
        if label.kind == "half" or (run is not None and not variants):
            run = None
        places.append(
            Place(
                start,
                stop,
                position,
                label,
                _section(columns, start, stop),
                lemma,
                tuple(variants),
                run,
            )
        )
    return tuple(places)


def _variant(
    text: str, found: list[Witness], change: Change | None, texts: list[str], index: dict[str, int]
) -> Variant:
    """A reading and its witnesses; a reported text counts as reporting it only where it
    reads otherwise than its reporter (elsewhere its row is the reporter's)."""
    reports = tuple(
        Report(w.siglum, w.reported_by, w.quote)
        for w in found
        if w.reported and text != texts[index[w.reported_by]]
    )
    noted = sum(1 for w in found if w.reported)
    dated = [w for w in found if not w.reported and w.date is not None]
    first = min(dated, key=lambda w: w.date_key, default=None)
    return Variant(
        text,
        tuple(w.siglum for w in found),
        change,
        reports,
        noted,
        first.siglum if first else "",
        first.date.text if first and first.date else "",
    )


def _half_at(
    columns: Sequence[Column], start: int, stop: int, witnesses: Sequence[Witness], sig: list[str]
) -> int | None:
    """The base strokes before the 半 of the first of `sig` in the place (None: it has none)."""
    w = next(i for i, wit in enumerate(witnesses) if wit.siglum == sig[0])
    for column in columns[start:stop]:
        if column.cells[w] == HALF:
            return column.after
    return None


def _run_at(columns: Sequence[Column], start: int, stop: int) -> Run | None:
    """The run of equal base strokes a place falls in, when it holds only strokes of one kind."""
    symbols = set().union(*(column.cells for column in columns[start:stop])) - {GAP}
    if len(symbols) != 1 or HALF in symbols:
        return None
    (symbol,) = symbols
    return _base_run(columns, start, symbol)


# --- printed notes ---------------------------------------------------------------------------


def _with_reported(
    witnesses: Sequence[Witness],
    notes: Mapping[str, Sequence[PrintedNote]],
    figure: int,
    state: str,
) -> tuple[tuple[Witness, ...], tuple[Column, ...], tuple[WitnessNote, ...]]:
    """The witnesses with a row for each text a note reports (its reporter's row with the
    reported readings put in), the columns of them all, and the notes that name no reading."""
    printed = len(witnesses)
    found: list[tuple[int, ReportedReading, int]] = []
    left: list[tuple[int, PrintedNote, str]] = []
    for w, witness in enumerate(witnesses):
        for note in notes.get(witness.siglum, ()):
            reading, reason = interpret(note, witness.score.pattern, witness.siglum)
            if reading is None:
                left.append((w, note, reason))
            else:
                found.append((w, reading, note.after))
    laid = _laid(witnesses)
    if found:  # aligned again, now with what the notes report as evidence
        laid = _laid(witnesses, _evidence(laid, found))
    rows: dict[tuple[str, str], int] = {}  # (text named, reporter) → row
    quotes: dict[int, list[str]] = {}
    for w, reading, after in found:
        witness = witnesses[w]
        named = names.shown(reading.witness)  # 吳澄本 and 吴澄本 are one source
        row = rows.get((named, witness.siglum))
        if row is None:
            row = rows[(named, witness.siglum)] = len(laid[0]) if laid else printed
            for cells in laid:
                cells.append(cells[w])
        quotes.setdefault(row, []).append(reading.quote)
        laid = _put_reported(laid, printed, w, row, reading, after)
    rows, laid = _one_row_a_source(rows, laid, quotes)
    columns = _column_objects(laid)
    taken = {w.siglum for w in witnesses}
    reported = []
    for (name, by), row in rows.items():
        siglum, n = name, 2
        while siglum in taken:
            siglum, n = f"{name}-{n}", n + 1
        taken.add(siglum)
        text = "".join(cells[row] for cells in laid)
        score = Score(parse(text), "", name, figure, State.parse(state), text)
        reported.append(Witness(siglum, name, score, None, "", by, "；".join(quotes[row])))
    left_notes = []
    for w, note, reason in left:
        where = _strokes_at(laid, w)
        column = where[note.after - 1] + 1 if 0 < note.after <= len(where) else 0
        left_notes.append(
            WitnessNote(witnesses[w].siglum, note.after, printed_text(note.text), column, reason)
        )
    return (*witnesses, *reported), columns, tuple(left_notes)


def _one_row_a_source(
    rows: dict[tuple[str, str], int], laid: list[list[str]], quotes: dict[int, list[str]]
) -> tuple[dict[tuple[str, str], int], list[list[str]]]:
    """One row for a source that two editions report alike (an edition and its copy in the
    other script): the first reporter's, with the other's quote and siglum beside its own."""
    kept: dict[tuple[str, str], int] = {}
    dropped: list[int] = []
    for (name, by), row in rows.items():
        text = "".join(cells[row] for cells in laid)
        first = kept.setdefault((name, text), row)
        if first != row:
            quotes[first].extend(f"{quote} ({by})" for quote in quotes.pop(row))
            dropped.append(row)
    if not dropped:
        return rows, laid
    laid = [[c for i, c in enumerate(cells) if i not in dropped] for cells in laid]
    laid = [cells for cells in laid if any(cells)]
    renumbered = {
        k: row - sum(1 for d in dropped if d < row) for k, row in rows.items() if row not in dropped
    }
    for row in sorted(quotes):
        quotes[row - sum(1 for d in dropped if d < row)] = quotes.pop(row)
    return renumbered, laid


# --- counts ---------------------------------------------------------------------------------


def _stated(editions: Iterable[Edition], figure: int, state: str) -> dict[StatedCount, list[Quote]]:
    """Each distinct count stated for a figure and drum (without its quote), with the quote of
    every edition that states it, by siglum; the commentator's order, then the sections'."""
    pool = tuple(editions)
    marks = sigla(pool)
    stated: dict[StatedCount, list[Quote]] = {}
    for edition in pool:
        for count in edition.counts:
            if (count.figure, count.state) != (figure, state):
                continue
            key = StatedCount(
                names.shown(count.by), count.figure, count.state, count.section, count.pi, count.gu
            )
            stated.setdefault(key, []).append(Quote(marks[id(edition)], count.quote))
    ordered = sorted(stated, key=lambda s: (s.by, SECTION_ORDER.index(s.section)))
    return {count: stated[count] for count in ordered}


def _checks(
    editions: Sequence[Edition], witnesses: Sequence[Witness], figure: int, state: str
) -> tuple[StatedCheck, ...]:
    return tuple(
        StatedCheck(
            count,
            tuple(quotes),
            tuple(
                (w.siglum, w.score.pattern.counts(count.section))
                for w in witnesses
                if count.section in w.score.pattern.sections()
            ),
        )
        for count, quotes in _stated(editions, figure, state).items()
    )


def check_score(score: Score, editions: Iterable[Edition] | None = None) -> tuple[StatedCheck, ...]:
    """Every count stated in the editions (default: the corpus) for this score's figure and
    drum, with its quotes, checked on this one score (its result under the score's key)."""
    if score.figure is None or not score.state:
        return ()
    if editions is None:
        editions = corpus_editions()
    return tuple(
        StatedCheck(count, tuple(quotes), ((score.key, score.pattern.counts(count.section)),))
        for count, quotes in _stated(editions, score.figure, score.state).items()
        if count.section in score.pattern.sections()
    )


# --- the whole ------------------------------------------------------------------------------


def build(
    editions: Sequence[Edition],
    figure: int,
    state: str,
    base: str = DEFAULT_BASE,
    notes: Mapping[str, Sequence[PrintedNote]] | None = None,
    order: str = "corpus",
) -> Apparatus:
    """The apparatus of one score over `editions` (the base found among them by `base`, the
    others in `order`: "corpus" or "date").

    `notes` maps a siglum to the notes that edition prints inside the pattern; by default they
    are read from the editions themselves.
    """
    printed, used = witnesses_of(tuple(editions), figure, state, base, order)
    if notes is None:
        notes = {w.siglum: printed_notes(e, w.score) for w, e in zip(printed, used, strict=True)}
    witnesses, columns, left = _with_reported(printed, notes, figure, state)
    return Apparatus(
        figure,
        state,
        witnesses,
        columns,
        _places(witnesses, columns),
        left,
        _checks(used, printed, figure, state),
    )


def pair(a: Score, b: Score) -> Apparatus:
    """Two readings as the apparatus of two witnesses, A (the base) and B: what `compare`
    shows, aligned as `collate` aligns each edition with its base (no notes, no counts)."""
    witnesses = (
        Witness("A", a.edition_name or a.title, a, None),
        Witness("B", b.edition_name or b.title, b, None),
    )
    columns = _column_objects(_laid(witnesses))
    return Apparatus(
        a.figure or 0, a.state, witnesses, columns, _places(witnesses, columns), (), ()
    )


def differences(first: Sequence[str], second: Sequence[str]) -> int:
    """How many columns differ when `second` is aligned with `first` as the apparatus aligns a
    witness with its base (for strokes alone, the edit distance)."""
    return sum(
        1 for i, j in _pairwise(first, second) if i is None or j is None or first[i] != second[j]
    )


#: Every score of the corpus, in the order they are shown.
SCORES = ((1, "魯"), (1, "薛"), (2, "魯"), (2, "薛"))


def collate(
    editions: Iterable[Edition] | None = None,
    scores: Iterable[tuple[int, str]] = SCORES,
    base: str = DEFAULT_BASE,
    order: str = "corpus",
) -> tuple[Apparatus, ...]:
    """The apparatus of each score (default: all four) over the editions (default: the corpus),
    the witnesses after the base in `order` ("corpus", or "date": the earliest text first)."""
    if editions is None:
        editions = corpus_editions()
    pool = tuple(editions)
    return tuple(build(pool, figure, state, base, order=order) for figure, state in scores)
