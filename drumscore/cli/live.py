"""play's terminal: keys read while the sound plays, and the screens that show each stroke.

Keys (documented in 'drumscore play --help' and on screen): space pauses and resumes on the
beat; + and - change the tempo by one stroke a minute, ] and [ by five, from the next stroke; t
taps the tempo; s switches touhu/she at the end of the pass; n goes to the next item of a
programme at the end of the pass; q stops at the end of the pass; Esc (or Ctrl-C) stops at once.
"""

from __future__ import annotations

import contextlib
import os
import select
import shutil
import signal
import sys
import threading
import time
from collections.abc import Callable
from fractions import Fraction
from types import FrameType
from typing import Any, ClassVar

from drumscore.conductor.track import Hit
from drumscore.i18n import N_, _, carried
from drumscore.model import Section
from drumscore.play import liveview
from drumscore.play.keys import (
    NEXT_ITEM,
    PAUSE,
    STOP_AFTER_PASS,
    STOP_NOW,
    SWITCH,
    TAP,
    TAP_DECIMALS,
    TAP_RESET,
    TAPS,
    TEMPO_STEPS,
)
from drumscore.play.liveview import (
    NEXT_WAITS,
    STOP_WAITS,
    SWITCH_WAITS,
    LiveState,
    plain_lines,
)
from drumscore.play.player import Player
from drumscore.timing import MAX_BPM, MIN_BPM, Tempo

#: The keys for 'drumscore play --help' (translated with _ where shown).
KEY_HELP = N_(
    "keys while playing in a terminal: space pause/resume on the beat; + / - tempo ±1 stroke a "
    "minute and ] / [ ±5, from the next stroke; t tap tempo (the average of the last taps); "
    "s switch touhu/she at the end of the pass; n next programme item; q stop at the end of the "
    "pass; Esc or Ctrl-C stop at once"
)


class Controls:
    """What each key does to a player: tempo steps, taps, pause, switch, next, stop."""

    STEPS: ClassVar[dict[str, int]] = TEMPO_STEPS

    def __init__(
        self,
        player: Player,
        bpm: Fraction,
        clock: Callable[[], float] = time.monotonic,
        section: Section = Section.SHE,
    ) -> None:
        self.player = player
        self.bpm = Fraction(bpm)
        self.paused = False
        self._waiting: list[str] = []
        #: The section heard last: a switch is on its way while what is laid out or waits differs.
        self.section = section
        self.stop_now = False
        self.clock = clock
        self._taps: list[float] = []

    def press(self, key: str) -> None:
        if key in self.STEPS:
            self._set(min(MAX_BPM, max(MIN_BPM, self.bpm + self.STEPS[key])))
        elif key == PAUSE:
            self.paused = not self.paused
            self.player.command("pause", self.paused)
        elif key == TAP:
            now = self.clock()
            if self._taps and now - self._taps[-1] > TAP_RESET:
                self._taps = []
            self._taps = [*self._taps, now][-(TAPS + 1) :]
            if len(self._taps) >= 2:
                gaps = [b - a for a, b in zip(self._taps, self._taps[1:], strict=False)]
                bpm = Fraction(round(60 / (sum(gaps) / len(gaps)), TAP_DECIMALS)).limit_denominator(
                    10
                )
                self._set(min(MAX_BPM, max(MIN_BPM, bpm)))
        elif key == SWITCH:
            # to the other section than the one heard, or back to it: a second s takes the
            # switch back, whether or not the conductor has laid the next pass out yet
            heard = self.section
            want = heard if self._switching() else _other(heard)
            self.player.command("switch_section", want)
        elif key == NEXT_ITEM:
            self._toggle(NEXT_WAITS, on=True)
            self.player.command("next_item")
        elif key == STOP_AFTER_PASS:
            self._toggle(STOP_WAITS, on=True)
            self.player.command("stop_after_pass")
        elif key == STOP_NOW:
            self.stop_now = True

    def _toggle(self, what: str, on: bool | None = None) -> None:
        if what in self._waiting and not on:
            self._waiting.remove(what)
        elif what not in self._waiting:
            self._waiting.append(what)

    @property
    def waiting(self) -> list[str]:
        """What waits for the end of the pass, as the status shows it."""
        switch = [SWITCH_WAITS] if self._switching() else []
        return switch + self._waiting

    @property
    def switch_to(self) -> Section | None:
        """The section a switch on its way goes to; None when none is."""
        laid, waits = self.player.coming()
        if waits is not None:
            return waits
        return laid if laid is not self.section else None

    def _switching(self) -> bool:
        """Whether a pass of another section is still to come: laid out but not yet heard, or
        waiting for the end of the pass."""
        laid, waits = self.player.coming()
        return laid is not self.section or waits is not None

    def _set(self, bpm: Fraction) -> None:
        if bpm != self.bpm:
            self.bpm = bpm
            self.player.set_tempo(Tempo.from_bpm(bpm))

    def passed(self, hit: Hit | None) -> None:
        """A hit was heard: what waited for the end of a pass has happened once the pass turned."""
        if hit is None or hit.is_count:
            return
        self.section = hit.timeline.section
        if hit.index == 0 and (hit.k > 0 or hit.item > 0):
            self._waiting = [w for w in self._waiting if w == STOP_WAITS]


def _other(section: Section) -> Section:
    return Section.SHE if section is Section.TOUHU else Section.TOUHU


class KeyReader:
    """Reads single keys from a terminal in a thread, the terminal in cbreak mode meanwhile.

    Ctrl-C still interrupts (the terminal keeps its signals); the terminal is restored on close.
    """

    def __init__(self, on_key: Callable[[str], None]) -> None:
        self.on_key = on_key
        self.fd = sys.stdin.fileno()
        self._saved: list[Any] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=carried(self._run), daemon=True)

    def __enter__(self) -> KeyReader:
        import termios
        import tty

        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        import termios

        self._stop.set()
        self._thread.join(0.5)
        if self._saved is not None:
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)

    def _run(self) -> None:
        while not self._stop.is_set():
            ready = select.select([self.fd], [], [], 0.05)[0]
            if not ready:
                continue
            data = os.read(self.fd, 1)
            if not data:
                return
            key = data.decode("latin-1")
            if key == "\x1b":  # Esc alone stops; an arrow key's sequence is read and ignored
                more = select.select([self.fd], [], [], 0.03)[0]
                if more:
                    os.read(self.fd, 8)
                    continue
            self.on_key(key)


class PlainView:
    """A line per stroke as it sounds, for pipes and logs (and one per stroke heard, with
    play --listen)."""

    def __init__(self) -> None:
        self.said = 0  # the heard lines printed

    def show(self, hit: Hit | None, state: LiveState) -> None:
        if len(state.heard) > self.said:
            print("\n".join(state.heard[self.said :]), flush=True)
            self.said = len(state.heard)
        if hit is None:
            return
        if hit.is_count:
            print(
                _("count {number}/{count}").format(number=hit.k + 1, count=hit.count_in), flush=True
            )
            return
        if state.items > 1 and hit.k == 0:
            print(f"-- {liveview.item_line(state).strip()} --", flush=True)
        print("\n".join(plain_lines(hit.timeline, hit.k, state.seconds)), flush=True)

    def close(self) -> None:
        sys.stdout.flush()


def terminal_size() -> os.terminal_size:
    """The terminal's size now, from the terminal itself (COLUMNS and LINES, which a resize
    leaves stale, only when stdout is no terminal)."""
    try:
        return os.get_terminal_size(sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        return shutil.get_terminal_size()


class LiveView:
    """Repaints the notation and status in place on a terminal, the stroke heard highlighted.

    Every line fits the terminal's width (liveview.fit), so the lines painted are the rows to
    repaint; when the terminal is resized (SIGWINCH, or a new size seen at the next show) the
    screen is cleared and painted afresh, as the terminal may have rewrapped what was there.
    """

    def __init__(self, keys: bool) -> None:
        self.lv = liveview
        self.keys = keys
        self.painted = 0
        self.last: Hit | None = None
        self.state: LiveState | None = None
        self.size = terminal_size()
        self.resized = False
        self._winch: signal.Handlers | Callable[[int, FrameType | None], object] | int | None = None
        # only the main thread may set a handler; elsewhere the size is checked at each show
        with contextlib.suppress(AttributeError, ValueError):
            self._winch = signal.signal(signal.SIGWINCH, self._on_resize)
        sys.stdout.write(liveview.HIDE_CURSOR)

    def _on_resize(self, signum: int, frame: FrameType | None) -> None:
        self.resized = True

    def _new_size(self) -> bool:
        """Whether the terminal changed size since the last paint (and note its size now)."""
        size = terminal_size()
        changed = self.resized or size != self.size
        self.size, self.resized = size, False
        return changed

    def show(self, hit: Hit | None, state: LiveState) -> None:
        resized = self._new_size()
        if hit is None and state == self.state and not resized:
            return  # nothing new to show
        self.state = state
        hit = hit or self.last
        if hit is None:
            return
        self.last = hit
        if resized:
            sys.stdout.write(self.lv.CLEAR_SCREEN)
            self.painted = 0
        lines = self.lv.hit_frame(hit, state, self.size.columns, self.keys)
        sys.stdout.write(self.lv.repaint(lines, self.painted))
        sys.stdout.flush()
        self.painted = len(lines)

    def close(self) -> None:
        if self._winch is not None:
            signal.signal(signal.SIGWINCH, self._winch)
        sys.stdout.write(self.lv.restore())
        sys.stdout.flush()


class BigView(LiveView):
    """The whole terminal (its alternate screen): the stroke's shape drawn large, for a room.

    On a terminal too small for it, it shows the normal lines instead.
    """

    def __init__(self, keys: bool) -> None:
        super().__init__(keys)
        sys.stdout.write(self.lv.ALT_SCREEN)
        self.big = False
        self.screen: list[str] | None = None  # the rows painted last, while the screen holds them

    def show(self, hit: Hit | None, state: LiveState) -> None:
        size, resized = self.size, self.resized  # as LiveView.show will see them
        now = terminal_size()
        if hit is None and state == self.state and not resized and now == size:
            return
        hit = hit or self.last
        if hit is None:
            return
        lines = self.lv.big_frame(hit, state, now.columns, now.lines)
        if lines is None:
            if self.big:
                sys.stdout.write(self.lv.CLEAR_SCREEN)
                self.big, self.painted = False, 0
            self.screen = None
            super().show(hit, state)
            return
        if resized or now != size or not self.big:
            sys.stdout.write(self.lv.CLEAR_SCREEN)
            self.screen = None
        self.size, self.resized = now, False
        self.last, self.state = hit, state
        self.big = True
        sys.stdout.write(self.lv.paint_screen(lines, self.screen))
        sys.stdout.flush()
        self.screen = lines

    def close(self) -> None:
        sys.stdout.write(self.lv.MAIN_SCREEN)
        super().close()
