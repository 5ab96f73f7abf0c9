"""The corpus gathered into apparatuses: the witnesses of a score (the base first, sigla, the
order), the texts the notes report as rows of their own, and the whole built (`build`,
`collate`; `pair` for two readings).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from drumscore.apparatus import names
from drumscore.apparatus.align import (
    column_objects,
    evidence_from,
    lay_out,
    put_reported,
    strokes_at,
)
from drumscore.apparatus.counts import checks
from drumscore.apparatus.names import cited
from drumscore.apparatus.notes import ReportedReading, interpret, printed_notes, printed_text
from drumscore.apparatus.places import Apparatus, Column, Witness, WitnessNote, find_places
from drumscore.corpus import editions as corpus_editions
from drumscore.corpus import find_edition
from drumscore.errors import OptionError
from drumscore.i18n import _, chinese, list_text, numeral, pgettext, written
from drumscore.model import Edition, PrintedNote, Score, State, Wording
from drumscore.notation import parse

#: The base edition when none is chosen: the standard text.
DEFAULT_BASE = "zhushu"

#: How the witnesses after the base are ordered: as the corpus lists them, or by date (the
#: choices of `list --order`), so that a reader sees when each reading first appears.
ORDERS = ("corpus", "date")

#: Every score of the corpus, in the order they are shown.
SCORES = ((1, "魯"), (1, "薛"), (2, "魯"), (2, "薛"))


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
    marks = names.sigla(pool)
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
            short=edition.short,
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
    laid = lay_out(witnesses)
    if found:  # aligned again, now with what the notes report as evidence
        laid = lay_out(witnesses, evidence_from(laid, found))
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
        laid = put_reported(laid, printed, w, row, reading, after)
    rows, laid = _one_row_a_source(rows, laid, quotes)
    columns = column_objects(laid)
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
        where = strokes_at(laid, w)
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
        find_places(witnesses, columns),
        left,
        checks(used, printed, figure, state),
    )


def pair(a: Score, b: Score) -> Apparatus:
    """Two readings as the apparatus of two witnesses, A (the base) and B: what `compare`
    shows (no notes, no counts).

    Two readings of one figure and drum that editions of the corpus print are aligned as
    `collate` aligns them: their rows of the corpus's apparatus (with the evidence of the
    notes, such as 欽定禮記義疏's that the 大戴禮 ends with □○), the columns where both have
    nothing left out, so that every place of `compare` is one of `collate`'s. Any other two are
    aligned as `collate` aligns each edition with its base.
    """
    witnesses = (
        Witness("A", a.edition_name or a.title, a, None, short=_short(a)),
        Witness("B", b.edition_name or b.title, b, None, short=_short(b)),
    )
    rows = collated_rows(a, b)
    laid = rows if rows is not None else lay_out(witnesses)
    columns = column_objects(laid)
    return Apparatus(
        a.figure or 0, a.state, witnesses, columns, find_places(witnesses, columns), (), ()
    )


def cited_title(score: Score) -> str:
    """A score as the reader's view names it: its title (禮記注疏 · 魯鼓 · figure 2); in
    Chinese, a score an edition prints by the edition's short name (通解魯鼓第二圖)."""
    if not (chinese() and score.edition_id and score.figure and score.state):
        return score.title
    heading = pgettext("a 校勘記 heading", "{state}鼓 figure {figure}").format(
        state=written(str(score.state)), figure=numeral(score.figure)
    )
    return f"{cited(score.edition_name, _short(score))}{heading}"


def _short(score: Score) -> Wording:
    """The short name of the corpus edition that prints `score` (none for other readings)."""
    if not score.edition_id:
        return Wording()
    for edition in corpus_editions():
        if edition.id == score.edition_id and score in edition.scores:
            return edition.short
    return Wording()


def collated_rows(
    a: Score, b: Score, editions: Sequence[Edition] | None = None
) -> list[list[str]] | None:
    """A's and B's rows of the apparatus `collate` builds of their figure and drum over the
    editions (default: the corpus), without the columns where both have nothing; None unless
    both are printed in those editions."""
    if not (a.edition_id and b.edition_id and a.figure and a.state):
        return None
    if (a.figure, a.state) != (b.figure, b.state):
        return None
    pool = corpus_editions() if editions is None else tuple(editions)
    apparatus = collation(pool, a.figure, str(a.state))
    if apparatus is None:
        return None
    printed = [w.score for w in apparatus.printed]
    if a not in printed or b not in printed:
        return None
    i, j = printed.index(a), printed.index(b)
    rows = [[c.cells[i], c.cells[j]] for c in apparatus.columns]
    return [cells for cells in rows if any(cells)]


#: The apparatus of each figure and drum over a pool of editions, built once (by id of the
#: pool, which it keeps alive): `compare` reads pairs of rows out of it.
_COLLATIONS: dict[tuple[int, int, str], tuple[Sequence[Edition], Apparatus | None]] = {}


def collation(pool: Sequence[Edition], figure: int, state: str) -> Apparatus | None:
    """`collate`'s apparatus of one score over `pool`, its default base (or, where the base
    lacks the score, the first edition that has it), as `collate` and the site build it."""
    key = (id(pool), figure, state)
    found = _COLLATIONS.get(key)
    if found is not None and found[0] is pool:
        return found[1]
    having = [e for e in pool if e.score(state, figure) is not None]
    apparatus = None
    if having:
        base = DEFAULT_BASE if any(e.id == DEFAULT_BASE for e in having) else having[0].id
        apparatus = build(pool, figure, state, base)
    if len(_COLLATIONS) > 64:
        _COLLATIONS.clear()
    _COLLATIONS[key] = (pool, apparatus)
    return apparatus


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
