"""The counts the commentators state (徐伯魯: 鼙七鼓五), with their quotes, checked on every
witness of a score, or on one score."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drumscore.apparatus import names
from drumscore.corpus import editions as corpus_editions
from drumscore.i18n import _
from drumscore.model import SECTION_ORDER, Counts, Drum, Edition, Score, StatedCount

if TYPE_CHECKING:
    from drumscore.apparatus.places import Witness


@dataclass(frozen=True, slots=True)
class Quote:
    siglum: str
    text: str


def disagreements(counts: Counts, stated: StatedCount) -> tuple[str, ...]:
    """How a reading's counts differ from a stated count: ('鼙 22 where 徐伯魯 counts 21', …)."""
    return tuple(
        _("{drum} {have} where {by} counts {want}").format(
            drum=drum.value, have=have, by=names.prose(stated.by), want=want
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


def _stated(editions: Iterable[Edition], figure: int, state: str) -> dict[StatedCount, list[Quote]]:
    """Each distinct count stated for a figure and drum (without its quote), with the quote of
    every edition that states it, by siglum; the commentator's order, then the sections'."""
    pool = tuple(editions)
    marks = names.sigla(pool)
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


def checks(
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
