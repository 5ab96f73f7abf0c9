"""Notes that an edition prints inside a pattern, read as readings of the witness they name.

欽定禮記義疏 prints, between the strokes, what other texts read: 「吳澄本作○」 (吳澄's text has ○
for the stroke just before the note), 「大戴禮下尚有一□一○」 (the 大戴禮 has one □ and one ○ more
after this point). Such a note becomes a reading of that witness at that place. A note that does
not say which strokes it means — 「吳澄本少一○一□」 (one ○ and one □ fewer, but not which) — stays
a note, shown where it stands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drumscore.i18n import N_
from drumscore.model import Edition, Pattern, PrintedNote, Score

_STROKES = "○□"
_NUMBERS = {"一": 1, "二": 2, "兩": 2, "三": 3}

#: 「X作○」: witness X has these strokes in place of the ones just before the note.
_READS = re.compile(rf"^(?P<witness>.+?)作(?P<strokes>[{_STROKES}]+)(?P<rest>.*)$")
#: 「X下尚有一□一○」: witness X has these strokes more, after this point.
_MORE = re.compile(
    rf"^(?P<witness>.+?)下?(?:尚|又)?有(?P<strokes>(?:[一二兩三][{_STROKES}])+)(?P<rest>.*)$"
)


@dataclass(frozen=True, slots=True)
class ReportedReading:
    """What a note says another witness reads: `text` in place of the `replaces` strokes of the
    printing edition that end at the note (0: strokes added at the note)."""

    witness: str
    reported_by: str
    quote: str
    text: str
    replaces: int


def _counted(strokes: str) -> str:
    """'一□一○' → '□○'."""
    return "".join(s * _NUMBERS[n] for n, s in re.findall(rf"([一二兩三])([{_STROKES}])", strokes))


def printed_text(text: str) -> str:
    """A note's text without the marks of its two small columns (/) and spaces."""
    return re.sub(r"[\s/　]", "", text)


def interpret(
    note: PrintedNote, pattern: Pattern, siglum: str
) -> tuple[ReportedReading | None, str]:
    """The reading a note reports, or None and why it stays a note: a message to translate
    where shown, with the note's stroke as {after} (WitnessNote.reason)."""
    text = printed_text(note.text)
    if not 0 <= note.after <= len(pattern.strokes):
        return None, N_("it stands after stroke {after}, outside the pattern")
    match = _READS.match(text)
    if match:
        strokes = match["strokes"]
        if len(strokes) > note.after:
            return None, N_("it names more strokes than stand before it")
        return ReportedReading(match["witness"], siglum, text, strokes, len(strokes)), ""
    match = _MORE.match(text)
    if match:
        return ReportedReading(match["witness"], siglum, text, _counted(match["strokes"]), 0), ""
    if "少" in text:
        return None, N_("it says strokes are fewer but not which ones")
    return None, N_("it does not say which strokes another text reads")


def printed_notes(edition: Edition, score: Score) -> tuple[PrintedNote, ...]:
    """The notes an edition prints inside this score's pattern, as its edition file records them."""
    return tuple(score.notes)
