"""The wording of a place: how a reading differs from the lemma, in the current language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from drumscore.i18n import N_, _
from drumscore.model import HALF

if TYPE_CHECKING:
    from drumscore.apparatus.places import Run


#: Counts of strokes written as words in a description ("one ○ fewer").
_WORDS = {1: N_("one"), 2: N_("two"), 3: N_("three"), 4: N_("four")}


def describe(lemma: str, reading: str, run: Run | None, half: int | None = None) -> str:
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
