"""The wording of a place: how a reading differs from the lemma, in the current language.

English says it in a few words (`one ○ fewer in the run 11–12`, `□ for ○`, `adds □○`); Chinese
as a 校勘記 says it, with the witnesses before it as its subject: 衍 for strokes a witness has
beyond the base (`第 3～4 擊處衍一 ○`), 脫 for strokes it lacks (`第 11 擊處脫一 □`), 作 for
another stroke (`○ 作 □`), 倒 for two strokes transposed, 末多 for strokes added at the end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from drumscore.i18n import N_, _, number_range, pgettext, ranges
from drumscore.model import HALF

if TYPE_CHECKING:
    from drumscore.apparatus.groups import Groups
    from drumscore.apparatus.places import Apparatus, Run, Variant


#: Counts of strokes written as words in a description ("one ○ fewer").
_WORDS = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four")}


#: Strokes `first` to `last` (`11–12`, in Chinese `11～12`), or `11` for one stroke; and a date
#: (`1130-1200`) as a view writes it: the reader's language's ranges (drumscore.i18n).
stroke_range = number_range
years = ranges


def located(lemma: str, reading: str, run: Run | None) -> bool:
    """Whether `describe` names the strokes itself (`one ○ fewer in the run 11–12`), so that a
    sentence need not say where first."""
    lem, rdg = lemma.replace(HALF, ""), reading.replace(HALF, "")
    return lem != rdg and run is not None and set(lem) | set(rdg) <= {run.symbol}


def describe(
    lemma: str, reading: str, run: Run | None, half: int | None = None, at_end: bool = False
) -> str:
    """How `reading` differs from `lemma` at one place, in a few words of the current language;
    `half` is the base stroke after which the reading's 半 stands when it stands elsewhere;
    `at_end` whether the place follows the base's last stroke."""
    lem_half, rdg_half = HALF in lemma, HALF in reading
    lem, rdg = lemma.replace(HALF, ""), reading.replace(HALF, "")
    parts = []
    if lem != rdg:
        fewer = len(lem) - len(rdg)
        if not lem and at_end:
            # TRANSLATORS: strokes a witness has after the base's last one (通解末多 □○)
            parts.append(pgettext("strokes added at the end", "adds {strokes}").format(strokes=rdg))
        elif located(lemma, reading, run):
            assert run is not None
            word = _WORDS.get(abs(fewer))
            many = _(word) if word else str(abs(fewer))
            if fewer > 0:
                said = _("{many} {symbol} fewer in the run {run}")
            elif run.first == run.last:
                # TRANSLATORS: strokes added to a run of one stroke (第 1 擊處衍一 ○)
                said = _("{many} {symbol} more at stroke {stroke}")
            else:
                said = _("{many} {symbol} more in the run {run}")
            parts.append(
                said.format(
                    many=many,
                    symbol=run.symbol,
                    run=run,
                    stroke=run.first,
                )
            )
        elif not rdg:
            parts.append(_("omits {strokes}").format(strokes=lem))
        elif not lem:
            parts.append(_("adds {strokes}").format(strokes=rdg))
        elif len(lem) == 2 and lem[0] != lem[1] and rdg == lem[::-1]:
            # TRANSLATORS: two strokes transposed (校勘記: 倒)
            parts.append(_("{lemma} transposed as {reading}").format(reading=rdg, lemma=lem))
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


# --- who shares a reading (collate's groups, in every view) ---------------------------------


def between() -> str:
    """What stands between the readings of a place, and between groups: ` | ` (in Chinese ；)."""
    # TRANSLATORS: collate --groups: between the readings of a place, and between groups
    return pgettext("between readings in the groups", " | ")


def alike_text(g: Groups) -> str:
    """The editions that read alike, group by group: `zhushu benyi | wuli`; in Chinese
    `（注疏本、本義）；（五禮通考）`."""
    # TRANSLATORS: collate --groups: one group of editions that read alike
    group = pgettext("a group of editions that read alike", "{sigla}")
    return between().join(group.format(sigla=g.apparatus.named(s)) for s in g.alike)


def sharing(a: Apparatus, v: Variant) -> str:
    """Who has one reading at a place: `○: zhushu benyi`; in Chinese `作 ○ 者：注疏本、本義`,
    `無此擊者：…`."""
    if not v.text:
        # TRANSLATORS: collate --groups: the witnesses with nothing at a place (無此擊者：…)
        return pgettext("who shares a reading", "—: {sigla}").format(sigla=a.named(v.sigla))
    # TRANSLATORS: collate --groups: the witnesses with this reading at a place (作 ○ 者：…)
    return pgettext("who shares a reading", "{text}: {sigla}").format(
        text=v.text, sigla=a.named(v.sigla)
    )
