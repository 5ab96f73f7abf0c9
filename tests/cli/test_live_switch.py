"""The switch key against the sound: `s` pressed at any moment of the last stroke of a pass, or
after it, and pressed again, switches what the following passes play exactly as the status line
says, moment by moment. A sound card is modelled block by block (the production Feed, Conductor
and Controls; only the clock is simulated), so every moment is tested, not a few by luck."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from drumscore.cli.live import Controls
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Hit, Track
from drumscore.corpus import resolve
from drumscore.model import Section
from drumscore.play.audio import Feed
from drumscore.play.liveview import SWITCH_WAITS
from drumscore.timing import Tempo

RATE = 8000
BLOCK = 256
LATENCY = 0.05  # s from a block's being mixed to its being heard
BPM = 240


@dataclass
class Device:
    """A sound card: block j is mixed when block j-1 has played, heard LATENCY later."""

    feed: Feed
    controls: Controls
    now: float = 0.0
    mixed: int = 0
    laid: list[Hit] = field(default_factory=list)
    #: (time, section heard, the note shown) at every step
    seen: list[tuple[float, Section, bool]] = field(default_factory=list)
    #: (time, section) of each pass's first stroke as heard
    passes: list[tuple[float, Section]] = field(default_factory=list)

    def command(self, name: str, *args: object) -> None:
        self.feed.command(name, *args)  # type: ignore[arg-type]

    def coming(self) -> tuple[Section, Section | None]:
        return self.feed.coming()

    def run_until(self, t: float, step: float = 0.005) -> None:
        while self.now < t:
            self.now += step
            while self.mixed / RATE <= self.now:
                self.feed.read(BLOCK)
                self.mixed += BLOCK
                with self.feed._lock:
                    self.laid += self.feed.laid
                    self.feed.laid.clear()
            heard = (self.now - LATENCY) * RATE
            while self.laid and self.laid[0].frame <= heard:
                hit = self.laid.pop(0)
                self.controls.passed(hit)
                if not hit.is_count and hit.index == 0:
                    self.passes.append((self.now, hit.timeline.section))
            self.seen.append(
                (self.now, self.controls.section, SWITCH_WAITS in self.controls.waiting)
            )


def device() -> Device:
    t = arrange(resolve("lu"), Section.TOUHU, Tempo.from_bpm(BPM), 1)
    feed = Feed(Track.single(t), rate=RATE, loop=True)
    d = Device(feed, None)  # type: ignore[arg-type]
    d.controls = Controls(d, t.tempo.bpm, section=Section.TOUHU)  # type: ignore[arg-type]
    return d


BEAT = 60 / BPM
#: When pass 1's last stroke (12/12) is heard, and when pass 2's first is.
LAST = 11 * BEAT + LATENCY
TURN = 12 * BEAT + LATENCY


def assert_the_note_tells_the_truth(d: Device, pressed: float) -> None:
    """After the press: the note shows exactly until the pass that changes section is heard."""
    changes = [
        t for (t, s), (_, before) in zip(d.passes[1:], d.passes, strict=False) if s != before
    ]
    for t, _section, shown in d.seen:
        if t <= pressed + 0.005:
            continue
        coming = [c for c in changes if c > t]
        assert shown == bool(coming and coming[0] <= t + 2 * 12 * BEAT + 0.01), (t, changes)


def s_pressed(ms: int) -> tuple[Device, float]:
    """A device played to `ms` after pass 1's last stroke is heard, and s pressed then."""
    d = device()
    pressed = LAST + ms / 1000
    d.run_until(pressed)
    d.controls.press("s")
    return d, pressed


@pytest.mark.parametrize("ms", range(0, 300, 50))
def test_s_during_or_after_the_last_stroke_switches_at_the_end_of_a_pass_as_shown(ms):
    d, pressed = s_pressed(ms)
    assert SWITCH_WAITS in d.controls.waiting  # said at once
    d.run_until(pressed + 4 * 12 * BEAT)
    sections = [s for _, s in d.passes]
    # a press before the turn is heard acts at that turn, unless the sound of the turn was
    # already mixed (the device's latency and a block): then at the next one, as shown
    mixed_before = pressed >= TURN - LATENCY - BLOCK / RATE
    first_she = 2 if mixed_before or pressed >= TURN else 1
    assert sections[:first_she] == [Section.TOUHU] * first_she
    assert set(sections[first_she:]) == {Section.SHE}
    assert_the_note_tells_the_truth(d, pressed)


@pytest.mark.parametrize("ms", range(0, 300, 50))
def test_a_second_s_takes_the_switch_back_or_switches_back_as_shown(ms):
    d, pressed = s_pressed(ms)
    d.run_until(pressed + 0.1)
    d.controls.press("s")
    d.run_until(pressed + 5 * 12 * BEAT)
    sections = [s for _, s in d.passes]
    # at most one pass of the whole pattern (a switch already mixed), then 投壺 again
    assert sections[0] == Section.TOUHU
    assert sections.count(Section.SHE) <= 1
    assert sections[-2:] == [Section.TOUHU, Section.TOUHU]
    assert_the_note_tells_the_truth(d, pressed + 0.1)


# --- the line said before playing, broken for the terminal ----------------------------------


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
@pytest.mark.parametrize("columns", [40, 50, 80, 100, 120])
def test_the_play_header_is_broken_by_display_width_never_inside_a_word(lang, columns, monkeypatch):
    import argparse
    import os
    import re
    import shutil
    import sys

    from drumscore.cli.commands import play
    from drumscore.conductor.track import Practice
    from drumscore.display import width
    from drumscore.i18n import speaking

    t = arrange(resolve("xue/2@benyi"), Section.TOUHU, Tempo.from_bpm(72), 3)
    track = Track.single(t, 4, practice=Practice(click=2))
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda: os.terminal_size((columns, 24)))
    with speaking(lang):
        one = play.playing_line(argparse.Namespace(), track, "'default'", keys=True)
        lines = play._fitted(one).split("\n")
    assert all(width(line) < columns for line in lines), lines
    for word in re.findall(r"[\x21-\x7e]+", one):  # every ASCII word whole on one line
        if width(word) < columns:
            assert any(word in line for line in lines), (word, lines)
    assert "".join(lines).replace(" ", "") == one.replace(" ", "")
    if lang == "en":
        assert "a stroke at velocity 80" in one  # what the 80 is, said
