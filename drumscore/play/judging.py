"""Each stroke heard judged against the score as it is heard, in lines: what a play listening
shows in the terminal and the served page's Listen button shows (HeardLines), revisions and
all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from drumscore.conductor.track import Hit, Track
from drumscore.play import liveview
from drumscore.play.listening import AudioListener, LiveCheck, Verdict
from drumscore.play.liveview import verdict_line

if TYPE_CHECKING:
    from drumscore.performance.heard import HeardStroke
    from drumscore.performance.stream import Heard


@dataclass
class Line:
    """A line of what is heard: its text, the verdict it says and the time of the stroke heard
    it judges (None: a stroke missed, or a revision said on a line of its own)."""

    text: str
    verdict: Verdict | None = None
    time: float | None = None


class HeardLines:
    """What a play listening shows of the drums heard: a line for each stroke as it is judged, and
    each revision the listener tells later (stream.Heard.revises: a swell withdrawn, a flam
    moved to its main stroke, a drum told again) shown on the line it revises, marked, while
    that line is among the last `window` the display shows (liveview.HEARD_LINES; 1 for the big
    display, 0 where no line is shown again, a pipe), else on a line of its own."""

    def __init__(
        self,
        listener: AudioListener,
        track: Track,
        rate: int,
        lag: float | None = None,
        window: int = liveview.HEARD_LINES,
    ) -> None:
        item = track.items[0]
        self.listener = listener
        self.window = window
        # a round trip measured: the strokes heard put on the score's clock
        self.check = LiveCheck(
            rate, float(item.timeline.tempo.interval), item.practice.only, lag=lag
        )
        self.entries: list[Line] = []
        self.shown = 0  # the lines shown while playing
        self._revised: set[int] = set()  # the entries revised where they stand
        self._apart: set[int] = set()  # ...and the revisions said on lines of their own
        self._waiting: list[HeardStroke] = []  # heard, not yet judged
        self._taken = 0  # of the listener's strokes told

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(e.text for e in self.entries)

    @property
    def revisions(self) -> tuple[tuple[str, bool], ...]:
        """The revisions among the last liveview.HEARD_LINES lines, as their lines say them, and
        whether each is said on a line of its own (the big display shows them apart, for a few
        beats)."""
        recent = range(max(0, len(self.entries) - liveview.HEARD_LINES), len(self.entries))
        return tuple(
            (self.entries[k].text, k in self._apart)
            for k in recent
            if k in self._revised or k in self._apart
        )

    def __call__(self, hit: Hit | None, final: bool = False) -> tuple[str, ...]:
        """The lines heard so far, once `hit` (if any) has sounded; `final`ly, when the score
        has ended, the strokes heard after its last are judged too."""
        if hit is not None:
            self.check.expect(hit)
        self.listener.catch_up()
        for heard in self.listener.told[self._taken :]:
            if heard.revises is None:
                self._waiting.append(heard.stroke)
            else:
                self._revise(heard)
        self._taken = len(self.listener.told)
        while self._waiting:
            stroke = self._waiting[0]
            if stroke.count:
                self._waiting.pop(0)
                continue
            verdict = self.check.hear(stroke.time, stroke.drum, final=final)
            if verdict is None:
                break
            self._add(verdict, stroke.time)
            self._waiting.pop(0)
        for verdict in self.check.passed(self.listener.heard_until):
            self.entries.append(Line(verdict_line(verdict), verdict))
        return self.lines

    def _add(self, verdict: Verdict, time: float) -> None:
        """A stroke judged: a line of its own, or, for a stroke of the score said missed before
        (a stroke the first judgement missed, found as check finds it), that line revised."""
        for k, entry in enumerate(self.entries):
            if (
                entry.verdict is not None
                and entry.verdict.kind == "missed"
                and entry.verdict.number == verdict.number
                and verdict.kind != "extra"
            ):
                self._change(k, Line(verdict_line(verdict), verdict, time))
                return
        self.entries.append(Line(verdict_line(verdict), verdict, time))

    def _revise(self, heard: Heard) -> None:
        """A line told before, revised by the listener: judged again where it now stands (or
        withdrawn), on its own line while that is on screen."""
        gone = heard.withdrawn or heard.stroke.count
        for k, stroke in enumerate(self._waiting):
            if stroke.time == heard.revises:  # not judged yet: judged as revised
                if gone:
                    del self._waiting[k]
                else:
                    self._waiting[k] = heard.stroke
                return
        at = [k for k, e in enumerate(self.entries) if e.time == heard.revises]
        if not at:  # a line never shown (the count sound): a stroke heard now, if one
            if not gone:
                self._waiting.append(heard.stroke)
            return
        k = at[-1]
        old = self.entries[k]
        assert old.verdict is not None and heard.revises is not None
        if not gone and (heard.stroke.time, heard.stroke.drum) == (heard.revises, old.verdict.drum):
            return  # the same stroke on the same drum (its flam, its doubt told again)
        self.check.forget(old.verdict, heard.revises)
        taken: list[Verdict] = []  # the verdicts given again
        if gone:
            self._change(k, Line(old.text, None, None), withdrawn=True)
        else:
            verdict = self.check.hear(heard.stroke.time, heard.stroke.drum, final=True)
            assert verdict is not None  # the beat is set: a line was judged before
            self._change(k, Line(verdict_line(verdict), verdict, heard.stroke.time))
            taken.append(verdict)
        # a stroke heard as extra beside the stroke of the score given up: its own after all
        for j, entry in enumerate(self.entries):
            if entry.verdict is not None and entry.verdict.kind == "extra":
                assert entry.time is not None and entry.verdict.drum is not None
                again = self.check.hear(entry.time, entry.verdict.drum)
                if again is not None and again.kind != "extra":
                    self._change(j, Line(verdict_line(again), again, entry.time))
                    taken.append(again)
        # a stroke of the score said missed meanwhile, heard after all
        numbers = {v.number for v in taken if v.kind != "extra"}
        for j, entry in enumerate(self.entries):
            if entry.verdict and entry.verdict.kind == "missed" and entry.verdict.number in numbers:
                self._change(j, Line(entry.text), withdrawn=True)

    def _change(self, k: int, line: Line, withdrawn: bool = False) -> None:
        """Line `k` becomes `line`: changed in place and marked while it is on screen (among
        the last `window`), else the revision said on a line of its own."""
        if k >= len(self.entries) - self.window:
            self.entries[k] = Line(liveview.revised_line(line.text, withdrawn), *_rest(line))
            self._revised.add(k)
            return
        before = self.entries[k].verdict
        was = verdict_line(before) if before is not None else line.text
        self.entries[k] = Line(self.entries[k].text, *_rest(line))
        self.entries.append(Line(liveview.revision_line(line.text, was, withdrawn)))
        self._apart.add(len(self.entries) - 1)


def _rest(line: Line) -> tuple[Verdict | None, float | None]:
    return line.verdict, line.time
