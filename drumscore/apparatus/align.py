"""Every edition's reading of one score in one multiple alignment, and its places of variation.

The alignment is progressive against the base (禮記注疏 unless another is chosen): each witness is
aligned with the base alone (Needleman–Wunsch, unit costs, drumscore.analysis.align), then the
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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from drumscore.analysis.align import align
from drumscore.analysis.collate import Check
from drumscore.apparatus.notes import ReportedReading, interpret, printed_notes, printed_text
from drumscore.corpus import editions as corpus_editions
from drumscore.corpus import find_edition
from drumscore.errors import OptionError
from drumscore.model import (
    SECTION_ORDER,
    STATE_SLUGS,
    Counts,
    Edition,
    PrintedNote,
    Provenance,
    Score,
    Section,
    StatedCount,
)

HALF = "半"
GAP = ""

#: The base edition when none is chosen: the standard text.
DEFAULT_BASE = "zhushu"


@dataclass(frozen=True, slots=True)
class Witness:
    """One edition's reading of the score, with the siglum that stands for it in the apparatus."""

    siglum: str
    name: str
    score: Score
    provenance: Provenance | None
    script: str = ""

    @property
    def notation(self) -> str:
        return self.score.pattern.notation


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


@dataclass(frozen=True, slots=True)
class Run:
    """A run of equal strokes in the base, by stroke number (from 1)."""

    symbol: str
    first: int
    last: int

    def __str__(self) -> str:
        return f"{self.first}–{self.last}" if self.last != self.first else str(self.first)


@dataclass(frozen=True, slots=True)
class Variant:
    """One reading at a place, with the witnesses that have it and how it differs from the lemma.

    For a reading that an edition reports in a note (a witness that is not in the corpus),
    `reported_by` is that edition's siglum and `quote` the note as printed.
    """

    text: str
    sigla: tuple[str, ...]
    description: str = ""
    reported_by: str = ""
    quote: str = ""

    @property
    def shown(self) -> str:
        return self.text or "—"


@dataclass(frozen=True, slots=True)
class Place:
    """A place of variation: columns start..stop-1, the base's reading (lemma) and the others.

    `position` is the number of the first base stroke at the place, or for strokes only some
    witnesses add, the number of the base stroke they precede (len(base) + 1 at the end);
    `label` writes it for a reader (`11`, `11–12`, `before 12`, `半`).
    """

    start: int
    stop: int
    position: int
    label: str
    section: Section | None
    lemma: Variant
    variants: tuple[Variant, ...]
    run: Run | None = None

    @property
    def section_name(self) -> str:
        return self.section.value if self.section is not None else HALF

    @property
    def editions_part(self) -> bool:
        """Whether editions of the corpus part here (not only a text an edition's note reports)."""
        return any(not v.reported_by for v in self.variants)

    @property
    def reported(self) -> tuple[Variant, ...]:
        """The readings here that an edition's note reports for a text outside the corpus."""
        return tuple(v for v in self.variants if v.reported_by)


@dataclass(frozen=True, slots=True)
class WitnessNote:
    """A note printed inside a pattern that is not made a reading: who prints it, where, why."""

    siglum: str
    after: int
    text: str
    column: int
    reason: str


@dataclass(frozen=True, slots=True)
class Quote:
    siglum: str
    text: str


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
            why = Check(0, counts).disagreements(self.stated)
            if why:
                out.append((siglum, why))
        return tuple(out)


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
        return f"{self.state}鼓 · figure {self.figure}"

    def row(self, index: int) -> tuple[str, ...]:
        """Witness `index`'s cells across the columns."""
        return tuple(c.cells[index] for c in self.columns)

    def text_of(self, index: int) -> str:
        """Witness `index`'s notation read back from the alignment."""
        return "".join(self.row(index))

    @property
    def parting(self) -> tuple[Place, ...]:
        """The places where the editions themselves part."""
        return tuple(p for p in self.places if p.editions_part)

    def place_of_column(self) -> dict[int, int]:
        """Column index → number (from 1) of the place it belongs to."""
        return {c: n for n, p in enumerate(self.places, 1) for c in range(p.start, p.stop)}

    def siglum_index(self, siglum: str) -> int:
        for i, w in enumerate(self.witnesses):
            if w.siglum == siglum:
                return i
        raise KeyError(siglum)


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
    pool: Sequence[Edition], figure: int, state: str, base: str = DEFAULT_BASE
) -> tuple[tuple[Witness, ...], tuple[Edition, ...]]:
    """The witnesses of one score, the base first, and the editions they come from."""
    base_edition = find_edition(base, pool)
    marks = sigla(pool)
    found: list[tuple[Witness, Edition]] = []
    for edition in pool:
        score = edition.score(state, figure)
        if score is None:
            continue
        witness = Witness(
            marks[id(edition)], edition.name, score, edition.provenance, edition.script
        )
        found.append((witness, edition))
    found.sort(key=lambda we: we[1] is not base_edition)
    if not found or found[0][1] is not base_edition:
        raise OptionError(
            f"the base edition {base_edition.name} ({base_edition.id}) has no {state}鼓 of "
            f"figure {figure}; choose a base that has it"
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


def _pairwise(base: Sequence[str], other: Sequence[str]) -> list[tuple[int | None, int | None]]:
    """The base and one witness aligned, gaps moved to the first position of their run."""
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
    return pairs


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


def _token_columns(tokens: Sequence[Sequence[str]]) -> list[dict[int, int]]:
    """The multiple alignment of the witnesses' signs (witness 0 the base)."""
    base = tokens[0]
    matched: list[dict[int, int]] = [{0: i} for i in range(len(base))]
    added: dict[int, dict[int, list[int]]] = {}  # slot (base signs before) → witness → signs
    for w in range(1, len(tokens)):
        slot = 0
        for i, j in _pairwise(base, tokens[w]):
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


def _columns(witnesses: Sequence[Witness]) -> tuple[Column, ...]:
    """Strokes and 半 of every witness aligned: 半 is a sign of its own that only meets 半."""
    tokens = [list(w.notation) for w in witnesses]
    laid = [
        tuple(tokens[w][col[w]] if w in col else GAP for w in range(len(witnesses)))
        for col in _token_columns(tokens)
    ]
    base_half = next((k for k, cells in enumerate(laid) if cells[0] == HALF), None)
    out = []
    after = 0
    for k, cells in enumerate(laid):
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


_WORDS = {1: "one", 2: "two", 3: "three", 4: "four"}


def _describe(lemma: str, reading: str, run: Run | None, half: str = "") -> str:
    """How `reading` differs from `lemma` at one place, in a few words; `half` says where the
    reading's 半 stands when it stands elsewhere."""
    lem_half, rdg_half = HALF in lemma, HALF in reading
    lem, rdg = lemma.replace(HALF, ""), reading.replace(HALF, "")
    parts = []
    if lem != rdg:
        fewer = len(lem) - len(rdg)
        if run is not None and set(lem) | set(rdg) <= {run.symbol}:
            many = _WORDS.get(abs(fewer), str(abs(fewer)))
            if fewer > 0:
                parts.append(f"{many} {run.symbol} fewer in the run {run}")
            elif run.first == run.last:
                parts.append(f"{run.symbol * (1 - fewer)} for {run.symbol} at {run.first}")
            else:
                parts.append(f"{many} {run.symbol} more in the run {run}")
        elif not rdg:
            parts.append(f"omits {lem}")
        elif not lem:
            parts.append(f"adds {rdg}")
        else:
            parts.append(f"{rdg} for {lem}")
    if lem_half != rdg_half or (lem_half and lemma != reading and lem == rdg):
        if not rdg_half:
            parts.append("no 半 here")
        else:
            parts.append(half or "半 here")
    return "; ".join(parts)


def _label(columns: Sequence[Column], start: int, stop: int, total: int) -> tuple[int, str]:
    numbers = [c.base for c in columns[start:stop] if c.base is not None]
    if numbers:
        first, last = numbers[0], numbers[-1]
        return first, str(first) if first == last else f"{first}–{last}"
    after = columns[start].after if start < len(columns) else total
    if start == stop:
        return after + 1, f"after {after}" if after else "before 1"
    if all(c.is_half for c in columns[start:stop]):
        return after + 1, HALF
    if after >= total:
        return after + 1, f"after {total}"
    return after + 1, f"before {after + 1}"


def _section(columns: Sequence[Column], start: int, stop: int) -> Section | None:
    if start == stop:  # a point between columns: the section of the column before it
        start, stop = max(start - 1, 0), max(start, 1)
    sections = [c.section for c in columns[start:stop] if c.section is not None]
    return sections[0] if sections else None


def _places(
    witnesses: Sequence[Witness],
    columns: Sequence[Column],
    reported: Sequence[tuple[int, int, int, ReportedReading]],
) -> tuple[Place, ...]:
    """The places of variation, each with its readings grouped and described; `reported` are
    (start, stop, witness, reading): columns whose strokes in that witness an edition's note
    gives otherwise for a text outside the corpus."""
    total = len(witnesses[0].score.pattern.strokes)
    spans = _spans(columns)
    for start, stop, _, _ in reported:
        spans.append((start, stop))
    spans = _joined(spans)
    places = []
    for start, stop in spans:
        texts = ["".join(c.cells[w] for c in columns[start:stop]) for w in range(len(witnesses))]
        groups: dict[str, list[str]] = {}
        for w, text in enumerate(texts):
            groups.setdefault(text, []).append(witnesses[w].siglum)
        position, label = _label(columns, start, stop, total)
        run = _run_at(columns, start, stop)
        lemma_text = texts[0]
        lemma = Variant(lemma_text, tuple(groups.pop(lemma_text)))
        variants = [
            Variant(
                text,
                tuple(sig),
                _describe(lemma_text, text, run, _half_at(columns, start, stop, witnesses, sig)),
            )
            for text, sig in groups.items()
        ]
        for r_start, r_stop, w, r in reported:
            if start <= r_start and r_stop <= stop and (r_start < stop or start == stop):
                text = (
                    "".join(c.cells[w] for c in columns[start:r_start])
                    + r.text
                    + "".join(c.cells[w] for c in columns[r_stop:stop])
                )
                variants.append(
                    Variant(
                        text,
                        (r.witness,),
                        _describe(lemma_text, text, run),
                        reported_by=r.reported_by,
                        quote=r.quote,
                    )
                )
        if label == HALF or (run is not None and not variants):
            run = None
        places.append(
            Place(
                start,
                stop,
                run.first if run is not None else position,
                str(run.first) if run is not None else label,
                _section(columns, start, stop),
                lemma,
                tuple(variants),
                run,
            )
        )
    return tuple(places)


def _half_at(
    columns: Sequence[Column], start: int, stop: int, witnesses: Sequence[Witness], sig: list[str]
) -> str:
    """'半 after stroke N' (N counting the base's strokes) for the first of `sig` in the place."""
    w = next(i for i, wit in enumerate(witnesses) if wit.siglum == sig[0])
    for column in columns[start:stop]:
        if column.cells[w] == HALF:
            return f"半 after stroke {column.after}" if column.after else "半 before stroke 1"
    return ""


def _joined(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Spans sorted, overlapping ones joined (an empty span is kept as a point)."""
    out: list[list[int]] = []
    for start, stop in sorted(spans):
        if out and start < out[-1][1]:
            out[-1][1] = max(out[-1][1], stop)
        elif out and start == stop == out[-1][1] and out[-1][0] == out[-1][1]:
            continue
        else:
            out.append([start, stop])
    return [(a, b) for a, b in out]


def _run_at(columns: Sequence[Column], start: int, stop: int) -> Run | None:
    """The run of equal base strokes a place falls in, when it holds only strokes of one kind."""
    symbols = {c for column in columns[start:stop] for c in column.cells if c}
    if len(symbols) != 1 or HALF in symbols:
        return None
    (symbol,) = symbols
    return _base_run(columns, start, symbol)


# --- printed notes ---------------------------------------------------------------------------


def _column_of_stroke(columns: Sequence[Column], witness: int) -> dict[int, int]:
    """Witness stroke index (0-based) → column index."""
    out = {}
    j = 0
    for k, c in enumerate(columns):
        if c.cells[witness] and c.cells[witness] != HALF:
            out[j] = k
            j += 1
    return out


def _reported(
    witnesses: Sequence[Witness],
    columns: Sequence[Column],
    notes: Mapping[str, Sequence[PrintedNote]],
) -> tuple[list[tuple[int, int, int, ReportedReading]], list[WitnessNote]]:
    spans: list[tuple[int, int, int, ReportedReading]] = []
    left: list[WitnessNote] = []
    for w, witness in enumerate(witnesses):
        where = _column_of_stroke(columns, w)
        for note in notes.get(witness.siglum, ()):
            reading, reason = interpret(note, witness.score.pattern, witness.siglum)
            end_column = where[note.after - 1] + 1 if note.after > 0 else 0
            if reading is None:
                left.append(
                    WitnessNote(
                        witness.siglum, note.after, printed_text(note.text), end_column, reason
                    )
                )
                continue
            replaced = reading.replaces
            start_column = where[note.after - replaced] if replaced else end_column
            spans.append((start_column, end_column, w, reading))
    return spans, left


# --- counts ---------------------------------------------------------------------------------


def _checks(
    editions: Sequence[Edition], witnesses: Sequence[Witness], figure: int, state: str
) -> tuple[StatedCheck, ...]:
    stated: dict[StatedCount, list[Quote]] = {}
    by_edition = {id(e): w.siglum for e, w in zip(editions, witnesses, strict=True)}
    for edition in editions:
        for count in edition.counts:
            if (count.figure, count.state) != (figure, state):
                continue
            key = StatedCount(
                count.by, count.figure, count.state, count.section, count.pi, count.gu
            )
            stated.setdefault(key, []).append(Quote(by_edition[id(edition)], count.quote))
    ordered = sorted(stated, key=lambda s: (s.by, SECTION_ORDER.index(s.section)))
    return tuple(
        StatedCheck(
            count,
            tuple(stated[count]),
            tuple(
                (w.siglum, w.score.pattern.counts(count.section))
                for w in witnesses
                if count.section in w.score.pattern.sections()
            ),
        )
        for count in ordered
    )


# --- the whole ------------------------------------------------------------------------------


def build(
    editions: Sequence[Edition],
    figure: int,
    state: str,
    base: str = DEFAULT_BASE,
    notes: Mapping[str, Sequence[PrintedNote]] | None = None,
) -> Apparatus:
    """The apparatus of one score over `editions` (the base found among them by `base`).

    `notes` maps a siglum to the notes that edition prints inside the pattern; by default they
    are read from the editions themselves.
    """
    witnesses, used = witnesses_of(tuple(editions), figure, state, base)
    if notes is None:
        notes = {w.siglum: printed_notes(e, w.score) for w, e in zip(witnesses, used, strict=True)}
    columns = _columns(witnesses)
    reported, left = _reported(witnesses, columns, notes)
    places = _places(witnesses, columns, reported)
    return Apparatus(
        figure,
        state,
        witnesses,
        columns,
        places,
        tuple(left),
        _checks(used, witnesses, figure, state),
    )


#: Every score of the corpus, in the order they are shown.
SCORES = ((1, "魯"), (1, "薛"), (2, "魯"), (2, "薛"))


def build_all(
    editions: Iterable[Edition] | None = None,
    scores: Iterable[tuple[int, str]] = SCORES,
    base: str = DEFAULT_BASE,
) -> tuple[Apparatus, ...]:
    """The apparatus of each score (default: all four) over the editions (default: the corpus)."""
    if editions is None:
        editions = corpus_editions()
    pool = tuple(editions)
    return tuple(build(pool, figure, state, base) for figure, state in scores)
