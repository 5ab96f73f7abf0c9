"""Time that passes only while a player waits: a MidiPlayer timed on it sends each note exactly
at its deadline, however busy the machine, so its timing is checked exactly."""

from __future__ import annotations

import time

import mido

from drumscore.play import midiport


class VirtualClock:
    """A clock (called for the time) and the event a player waits on (its wait moves the time
    on by what was asked): nothing else moves it."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float | None = None) -> bool:
        self.now += seconds or 0.0
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
