"""The data model of an apparatus: witnesses, aligned columns, places of variation and their
readings, and how the places are found in the columns.

A place is a maximal run of columns where the witnesses differ (all the columns of a moved 半 and
what lies between them join one place). Each place has the base's reading (the lemma) and the
other readings, each with its witnesses and a Change saying how it differs (written out by
drumscore.apparatus.wording). `place_name` gives the one name of a place that every view writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from drumscore.apparatus.names import cited
from drumscore.apparatus.wording import describe, located, stroke_range
from drumscore.i18n import _, aside, chinese, list_text, ngettext, numeral, pgettext, written
from drumscore.model import HALF, STATE_SLUGS, Dating, Provenance, Score, Section, Wording

if TYPE_CHECKING:
    from drumscore.apparatus.counts import StatedCheck

#: What a witness has in a column where it has nothing.
GAP = ""


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
    #: The edition's short name per script (Edition.short), which Chinese views cite it by.
    short: Wording = field(default_factory=Wording)

    @property
    def cited(self) -> str:
        """The witness as the reader's view names it: in English its siglum; in Chinese its
        short name (注疏本, 通解), 《name》 for an edition without one, and a text a note reports
        by its own name (吳澄本). Apparatus.cite names the base 底本《…》 instead."""
        if not chinese():
            return self.siglum
        if self.reported:
            return written(self.siglum)
        return cited(self.name, self.short)

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
        return stroke_range(self.first, self.last)


@dataclass(frozen=True, slots=True)
class Where:
    """Where a place stands, for a reader: base strokes `first` to `last` ("strokes"), the point
    "after" or "before" base stroke `first`, or a place of 半 alone ("half")."""

    kind: str
    first: int = 0
    last: int = 0

    def __str__(self) -> str:
        """`11`, `11–12`, `after 21`, `before 1`, `半`, in the current language (in Chinese
        numbered alike: `第 11 擊`, `第 11～12 擊`, `第 21 擊後`)."""
        if self.kind == "half":
            return HALF
        if self.kind == "after":
            return _("after {stroke}").format(stroke=self.first)
        if self.kind == "before":
            return _("before {stroke}").format(stroke=self.first)
        # TRANSLATORS: a place of the apparatus named by the base strokes it holds: 11, 11–12
        return pgettext("strokes of a place", "{strokes}").format(
            strokes=stroke_range(self.first, self.last)
        )

    @property
    def tick(self) -> str:
        """The short form a plot's axis writes under a column: `11`, `after 21` (`21後`)."""
        if self.kind == "after":
            # TRANSLATORS: under a plot's column of strokes added after base stroke 21 (21後)
            return pgettext("a plot's axis", "after {stroke}").format(stroke=self.first)
        if self.kind == "before":
            return pgettext("a plot's axis", "before {stroke}").format(stroke=self.first)
        if self.kind == "half":
            return HALF
        return stroke_range(self.first, self.last)


@dataclass(frozen=True, slots=True)
class Change:
    """How a reading differs from the lemma at one place: the two texts, the base's run the
    place falls in, and where the reading's 半 stands (after base stroke `half`) when it moves.
    Written out, in the current language, by `str` (see _describe)."""

    lemma: str
    reading: str
    run: Run | None = None
    half: int | None = None
    #: Whether the place follows the base's last stroke (strokes added at the end).
    at_end: bool = False

    def __str__(self) -> str:
        return describe(self.lemma, self.reading, self.run, self.half, self.at_end)

    @property
    def located(self) -> bool:
        """Whether the wording names the strokes itself (`第 3～4 擊處衍一 ○`); otherwise a
        校勘記 sentence says where before it (`第 4 擊 ○ 作 □`), or `末` for the end."""
        return self.at_end or located(self.lemma, self.reading, self.run)


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
        """Its section's name in the reader's language and script (Section.shown), or 半."""
        return written(self.section.shown) if self.section is not None else HALF

    @property
    def editions_part(self) -> bool:
        """Whether printed editions part here (not only a text an edition's note reports)."""
        return any(v.printed for v in self.variants)

    @property
    def departing(self) -> tuple[Variant, ...]:
        """The readings of printed editions that depart from the base here."""
        return tuple(v for v in self.variants if v.printed)

    @property
    def names_lemma(self) -> bool:
        """Whether a 校勘記 names the editions that read with the base here: only where they are
        few (no more than the editions that depart), `唯底本、某本作 ○`; elsewhere they are
        implied (諸本同) and only the departing editions are named."""
        departing = sum(len(v.printed) for v in self.departing)
        return len(self.lemma.printed) <= departing

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
        if chinese():  # 魯鼓第一圖
            return pgettext("a 校勘記 heading", "{state}鼓 figure {figure}").format(
                state=written(str(self.state)), figure=numeral(self.figure)
            )
        return _("{state}鼓 · figure {figure}").format(state=self.state, figure=self.figure)

    def cite(self, siglum: str) -> str:
        """A witness as the reader's view names it (Witness.cited); in Chinese the base is
        底本《name》 wherever it is named."""
        for i, w in enumerate(self.witnesses):
            if w.siglum == siglum:
                if i == 0 and chinese():
                    return self.base_named
                return w.cited
        return siglum

    @property
    def base_named(self) -> str:
        """The base as Chinese views name it, in one wording: 底本《禮記注疏》."""
        # TRANSLATORS: how a Chinese 校勘記 names its base text: 底本《禮記注疏》
        return pgettext("the base of a 校勘記", "base 《{name}》").format(
            name=written(self.base.name)
        )

    def named(self, sigla: Iterable[str]) -> str:
        """Witnesses as a view lists them: ids with spaces in English; short names with 、 in
        Chinese."""
        if not chinese():
            return " ".join(sigla)
        return list_text(self.cite(s) for s in sigla)

    def described(self, w: Witness) -> str:
        """Who a witness is, for a key of sigla: its name, or who reports it and how (in
        Chinese as a 校勘記 introduces it: 見義疏所引：「吳澄本作○」)."""
        if w.reported:
            return _("reported in {edition}: 「{quote}」").format(
                edition=self.cite(w.reported_by), quote=w.quote
            )
        return w.name

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
            ).format(count=places)
            if places
            # TRANSLATORS: a 校勘記's heading when the printed editions never part (刊本無異文)
            else _("no place where the printed editions part"),
            reports=ngettext(
                "{count} reading reported by notes", "{count} readings reported by notes", reports
            ).format(count=reports)
            if reports
            # TRANSLATORS: a 校勘記's heading when no note reports a reading (注文無異文)
            else _("no reading reported by notes"),
        )

    @property
    def readings(self) -> tuple[Reading, ...]:
        """The majority view: each distinct printed reading with its editions, the most
        printed first, and where it departs from that majority reading."""
        return majority_readings(self)

    @property
    def agreements(self) -> tuple[str, ...]:
        """Where a reported reading is also printed, the sentence saying so: in English
        '大戴禮 (reported in yishu: 「…」) = tongjie (儀禮經傳通解)'; in Chinese
        '通解末多 □○，與大戴禮合（見義疏所引：「…」）'."""
        names = {w.siglum: w.name for w in self.witnesses}
        out = []
        for p in self.places:
            for v in p.reported:
                if not v.printed:
                    continue
                if chinese():
                    for r in v.reports:
                        out.append(
                            aside(
                                pgettext(
                                    "a 校勘記 sentence", "{sigla}: {description}, as {source} reads"
                                ).format(
                                    sigla=self.named(v.printed),
                                    description=v.description,
                                    source=self.cite(r.siglum),
                                ),
                                _("reported in {edition}: 「{quote}」").format(
                                    edition=self.cite(r.reported_by), quote=r.quote
                                ),
                            )
                        )
                    continue
                printed = " ".join(aside(s, names[s]) for s in v.printed)
                out.append(f"{' = '.join(str(r) for r in v.reports)} = {printed}")
        return tuple(out)

    def column_label(self, index: int) -> str:
        """Column `index` named as every view names a place (`place_name`): `11`, `半`,
        `after 21`."""
        return str(self.column_where(index))

    def column_where(self, index: int) -> Where:
        """Where column `index` stands, as `place_name` says it."""
        total = len(self.base.score.pattern.strokes)
        return place_name(self.columns, index, index + 1, total)[1]

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
        if self.section is None:
            section = HALF
        else:  # the id in English, as the JSON has it; the name a reader knows in Chinese
            section = self.section.shown if chinese() else self.section.value
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
        run = run_at(columns, start, stop) if where.kind != "half" else None
        at_end = where.kind == "after" and where.first == total
        change = Change(lemma, reading, run, at_end=at_end)
        out.append(Departure(where, section_at(columns, start, stop), change))
    return out


# --- finding the places ----------------------------------------------------------------------


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
    return _transpositions(columns, spans)


def _transpositions(
    columns: Sequence[Column], spans: list[tuple[int, int]]
) -> list[tuple[int, int]]:
    """The spans with two that one column parts joined where a witness reads two strokes of
    the base transposed (□○ for ○□): the tie-break rule aligns such a pair as a stroke added
    and one lacking around the stroke between, which a reader sees as one place (倒)."""
    out: list[tuple[int, int]] = []
    for start, stop in spans:
        if out and out[-1][1] + 1 == start:
            first = out[-1][0]
            region = columns[first:stop]
            lemma = "".join(c.cells[0] for c in region)
            readings = {"".join(c.cells[w] for c in region) for w in range(len(region[0].cells))}
            if (
                len(lemma) == 2
                and HALF not in lemma
                and lemma[0] != lemma[1]
                and lemma[::-1] in readings
            ):
                out[-1] = (first, stop)
                continue
        out.append((start, stop))
    return out


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


def section_at(columns: Sequence[Column], start: int, stop: int) -> Section | None:
    if start == stop:  # a point between columns: the section of the column before it
        start, stop = max(start - 1, 0), max(start, 1)
    sections = [c.section for c in columns[start:stop] if c.section is not None]
    return sections[0] if sections else None


def find_places(witnesses: Sequence[Witness], columns: Sequence[Column]) -> tuple[Place, ...]:
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
        run = run_at(columns, start, stop)

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
                    label.kind == "after" and label.first == total,
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
                section_at(columns, start, stop),
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


def run_at(columns: Sequence[Column], start: int, stop: int) -> Run | None:
    """The run of equal base strokes a place falls in, when it holds only strokes of one kind."""
    symbols = set().union(*(column.cells for column in columns[start:stop])) - {GAP}
    if len(symbols) != 1 or HALF in symbols:
        return None
    (symbol,) = symbols
    return _base_run(columns, start, symbol)
