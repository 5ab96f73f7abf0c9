"""Time that passes only while a player waits: a MidiPlayer timed on it sends each note exactly
at its deadline, however busy the machine, so its timing is checked exactly."""

from __future__ import annotations

import heapq
import time
from collections.abc import Callable

import mido
import pytest

from drumscore.play import midiport


class VirtualClock:
    """A clock (called for the time) and the event a player waits on (its wait moves the time
    on by what was asked): nothing else moves it. What is scheduled `at` a time happens as a
    wait passes it, the clock standing at that time (a note from the pads arriving)."""

    def __init__(self) -> None:
        self.now = 0.0
        self._due: list[tuple[float, int, Callable[[], object]]] = []

    def __call__(self) -> float:
        return self.now

    def at(self, when: float, action: Callable[[], object]) -> None:
        heapq.heappush(self._due, (when, len(self._due), action))

    def wait(self, seconds: float | None = None) -> bool:
        until = self.now + (seconds or 0.0)
        while self._due and self._due[0][0] <= until:
            when, _order, action = heapq.heappop(self._due)
            self.now = max(self.now, when)
            action()
        self.now = until
        return False

    def set(self) -> None:
        pass

    def clear(self) -> None:
        pass


class TimedPort:
    """A port that notes when each message arrives (on `clock`), and round-trips it through
    MIDI bytes."""

    def __init__(self, clock=time.monotonic):
        self.clock = clock
        self.start = clock()
        self.sent: list[tuple[float, mido.Message]] = []
        self.closed = False

    def send(self, message):
        again = mido.Message.from_bytes(message.bytes())
        self.sent.append((self.clock() - self.start, again))

    def close(self):
        self.closed = True


def on_virtual_time(track, midimap=None, loop=False):
    """A MidiPlayer on a VirtualClock, and its port, timed on that clock."""
    clock = VirtualClock()
    port = TimedPort(clock)
    player = midiport.MidiPlayer(port, track, midimap, loop, clock=clock)
    player._wake = clock  # what it waits on: the virtual clock's time passes then
    return player, port


def play_on_virtual_time(monkeypatch: pytest.MonkeyPatch) -> VirtualClock:
    """Every MIDI player and listener the play command makes from now on timed on one
    VirtualClock, and the fake MIDI backend's pads playing on it (tests/fake_midi_backend.py):
    each note is sent, played and heard exactly at its time, however busy the machine."""
    import fake_midi_backend

    clock = VirtualClock()
    made = midiport.MidiPlayer
    heard = midiport.Listener

    class Player(made):  # type: ignore[misc,valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, clock=clock, **kwargs)
            self._wake = clock

    def listener(name):
        return heard(name, clock=clock, sleep=clock.wait)

    monkeypatch.setattr(midiport, "MidiPlayer", Player)
    monkeypatch.setattr(midiport, "Listener", listener)
    monkeypatch.setattr(fake_midi_backend, "clock", clock)
    return clock
