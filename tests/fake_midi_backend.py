"""A mido backend for tests, chosen as mido chooses any (MIDO_BACKEND=fake_midi_backend): its
ports are named in the JSON file FAKE_MIDI names, {"inputs": [...], "outputs": [...], "notes":
[[seconds, note, velocity], ...], "follow": false}. An input port opened with a callback plays
the notes to it on the monotonic clock, from a thread as rtmidi does, each at its time after the
port was opened or, with "follow", after the first note-on sent to an output port (a performer
playing along with what they hear); an output port keeps what it is sent. Without FAKE_MIDI there
are no ports at all. With `clock` set (a tests/virtual_time.VirtualClock), the notes are played
on it instead, no thread: each at its time on that clock, as a wait passes it.
"""

from __future__ import annotations

import json
import os
import threading
import time

import mido
import mido.ports

#: The last ports opened, for a test to look at.
opened: list[mido.ports.BasePort] = []
#: The monotonic time of the first note-on sent to an output port, once there is one.
first_sound: list[float] = []
sounded = threading.Event()
#: The virtual clock the ports play and time on, or None: the monotonic clock.
clock = None
#: Spin (rather than sleep) for the last stretch before a note's time, for its time to the
#: tenth of a millisecond on a busy machine.
SPIN = 0.003


def _config() -> dict:
    path = os.environ.get("FAKE_MIDI")
    if not path:
        return {"inputs": [], "outputs": [], "notes": []}
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def get_devices(**kwargs) -> list[dict]:
    config = _config()
    return [
        *({"name": n, "is_input": True, "is_output": False} for n in config["inputs"]),
        *({"name": n, "is_input": False, "is_output": True} for n in config["outputs"]),
    ]


class Input(mido.ports.BaseInput):
    """Plays the configured notes to its callback, each at its time after the port opened."""

    def _open(self, callback=None, **kwargs) -> None:
        if self.name not in _config()["inputs"]:
            raise OSError(f"unknown port {self.name!r}")
        self.callback = callback
        self.delivered: list[tuple[float, mido.Message]] = []  # (seconds after zero, message)
        self._stop = threading.Event()
        opened.append(self)
        if clock is not None:
            self._thread = None
            if not _config().get("follow"):
                self._schedule(clock())
            return
        self._opened = time.monotonic()
        self._thread = threading.Thread(target=self._play, daemon=True)
        self._thread.start()

    def _schedule(self, zero: float) -> None:
        """Each note played on the virtual clock at its time after `zero`."""
        self.zero = zero
        for seconds, note, velocity in _config()["notes"]:
            clock.at(zero + seconds, lambda n=note, v=velocity: self._deliver(n, v, clock()))

    def _deliver(self, note: int, velocity: int, now: float) -> None:
        if self._stop.is_set():
            return
        message = mido.Message("note_on", channel=9, note=note, velocity=velocity)
        if self.callback is not None:
            self.callback(message)
        self.delivered.append((now - self.zero, message))

    def _play(self) -> None:
        config = _config()
        zero = self._opened
        if config.get("follow"):
            while not sounded.wait(0.01):
                if self._stop.is_set():
                    return
            zero = first_sound[0]
        self.zero = zero
        for seconds, note, velocity in config["notes"]:
            due = zero + seconds
            while (left := due - time.monotonic()) > SPIN:
                if self._stop.wait(left - SPIN):
                    return
            while time.monotonic() < due:
                pass
            self._deliver(note, velocity, time.monotonic())

    def _close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(1.0)


class Output(mido.ports.BaseOutput):
    """Keeps every message sent; with "interrupt_at": n in the configuration, the n-th note-on
    sent raises KeyboardInterrupt instead (Ctrl-C pressed as it sounds)."""

    def _open(self, **kwargs) -> None:
        config = _config()
        if self.name not in config["outputs"]:
            raise OSError(f"unknown port {self.name!r}")
        self.interrupt_at = config.get("interrupt_at")  # read once: sending is timed
        self.sent: list[mido.Message] = []
        opened.append(self)

    def _send(self, message: mido.Message) -> None:
        if message.type == "note_on" and message.velocity > 0:
            ons = sum(m.type == "note_on" and m.velocity > 0 for m in self.sent) + 1
            if ons == self.interrupt_at:
                raise KeyboardInterrupt
            if not sounded.is_set():
                first_sound.append(time.monotonic() if clock is None else clock())
                sounded.set()
                if clock is not None:  # the pads, played along, start from this note
                    for port in opened:
                        if isinstance(port, Input) and _config().get("follow"):
                            port._schedule(first_sound[0])
        self.sent.append(message)
