"""Playing the strokes on a MIDI output port (mido with python-rtmidi), for a synthesiser, and
listening to a MIDI input port (e-drum pads) while they play.

There is no audio stream here, so the clock is the monotonic clock: every note is sent at its own
deadline, start + k × interval, so timing never drifts. The backend is mido's: python-rtmidi,
or the one the MIDO_BACKEND environment variable names.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Self

from drumscore.conductor.track import Conductor, Hit, Track
from drumscore.errors import MissingDependencyError, PlaybackError, install_line
from drumscore.files.cstderr import captured
from drumscore.i18n import _
from drumscore.model import Section
from drumscore.play.choose import choose_by_name
from drumscore.play.player import Poll, next_poll
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timing import Tempo

if TYPE_CHECKING:
    import mido
    import mido.ports

BACKEND = "mido.backends.rtmidi"
#: A played track's conductor counts in microseconds.
MICROSECONDS = 1_000_000
#: Longest wait between looks at the clock, so a key's change is heard at the next beat.
SLICE = 0.01
#: While a Listener listens, Python switches threads this often (s; its default is 0.005).
SWITCH = 0.0005


def load_backend() -> Any:
    """mido's backend (python-rtmidi unless MIDO_BACKEND names another), or a
    MissingDependencyError saying what to install."""
    import mido

    try:
        return mido.Backend(os.environ.get("MIDO_BACKEND") or BACKEND, load=True)
    except ImportError:
        raise MissingDependencyError(
            _("MIDI output needs the Python package python-rtmidi"), install_line("play")
        ) from None


def output_ports() -> list[str]:
    """The names of the MIDI output ports on this machine."""
    return _port_names("output")


def input_ports() -> list[str]:
    """The names of the MIDI input ports on this machine (e-drum pads, keyboards)."""
    return _port_names("input")


def _port_names(kind: str) -> list[str]:
    backend = load_backend()
    try:
        with captured():  # ALSA's own complaint when there is no sequencer
            return list(getattr(backend, f"get_{kind}_names")())
    except OSError as exc:  # rtmidi's errors are OSErrors: no ALSA sequencer, no CoreMIDI…
        raise PlaybackError(
            _(
                "the MIDI system cannot be opened ({reason}); on Linux the ALSA sequencer must be "
                "available (the snd-seq kernel module, /dev/snd/seq)"
            ).format(reason=exc)
        ) from None


def choose_port(name: str) -> str:
    """The one port whose name is `name`, or contains it."""
    ports = output_ports()
    if not ports:
        raise PlaybackError(
            _(
                "no MIDI output port called {name!r}: there are no MIDI output ports; start a "
                "synthesiser (e.g. fluidsynth or timidity -iA) or connect one"
            ).format(name=name)
        )
    what = _("MIDI output port")
    return ports[choose_by_name(name, ports, what=what, option="midi_port")]


def choose_input(name: str) -> str:
    """The one input port whose name is `name`, or contains it."""
    ports = input_ports()
    if not ports:
        raise PlaybackError(
            _(
                "no MIDI input port called {name!r}: there are no MIDI input ports; connect the "
                "e-drum pads (or another MIDI instrument) and start again"
            ).format(name=name)
        )
    return ports[choose_by_name(name, ports, what=_("MIDI input port"), option="midi_in")]


class Listener:
    """The note-ons arriving on a MIDI input port, each timed on the monotonic clock from
    `start` (the start of playback) as it arrives: a performance played along, live. `clock`
    and `sleep` are the clock and the wait it listens on (time.monotonic, time.sleep)."""

    def __init__(
        self,
        name: str,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        self.name = choose_input(name)
        self.clock = clock
        self.sleep = sleep
        self.start = clock()
        self._notes: list[tuple[float, int]] = []
        self._lock = threading.Lock()
        self._switch: float | None = None
        try:
            self.port = load_backend().open_input(self.name, callback=self._arrived)
        except OSError as exc:
            raise PlaybackError(
                _("cannot open MIDI input port {name!r}: {error}").format(name=self.name, error=exc)
            ) from None

    def _arrived(self, message: Any) -> None:
        now = self.clock()  # first: the time of arrival
        if message.type == "note_on" and message.velocity > 0:
            with self._lock:
                self._notes.append((now - self.start, message.note))

    def begin(self, early: float = 0.0) -> None:
        """Playback starts now: times count from here, and of the notes before it only those
        less than `early` s before are kept (a first stroke played a little early). Until the
        listener closes, Python switches threads every SWITCH s, so the thread a note arrives
        on waits at most that long for the one playing (its time is that of arrival)."""
        if self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(min(self._switch, SWITCH))
        with self._lock:
            now = self.clock()
            shift = now - self.start
            self._notes = [(t - shift, n) for t, n in self._notes if t - shift > -early]
            self.start = now

    @property
    def notes(self) -> list[tuple[float, int]]:
        """(seconds since playback started, note) of every note-on so far, in order."""
        with self._lock:
            return list(self._notes)

    def elapsed(self) -> float:
        return self.clock() - self.start

    def linger(self, seconds: float) -> None:
        """Go on listening for `seconds` (a last stroke played a little late)."""
        if seconds > 0:
            self.sleep(seconds)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None
        self.port.close()


def open_port(name: str) -> mido.ports.BaseOutput:
    """A mido output port, opened by (part of) its name."""
    full = choose_port(name)
    try:
        return load_backend().open_output(full)
    except OSError as exc:
        raise PlaybackError(
            _("cannot open MIDI port {port!r}: {reason}").format(port=full, reason=exc)
        ) from None


class MidiPlayer:
    """Plays a track on a port on time (a drumscore.play.player.Player): note on at each hit, off
    half a beat later, count strokes on the map's count_note."""

    #: The conductor counts in microseconds.
    rate = MICROSECONDS

    def __init__(
        self,
        port: Any,
        track: Track,
        midimap: MidiMap | None = None,
        loop: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.port = port
        self.track = track
        self.loop = loop
        self.midimap = midimap or MidiMap()
        self.clock = clock
        self._sounding: int | None = None
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self.conductor = Conductor(track, MICROSECONDS, loop)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _message(self, kind: str, note: int, velocity: int = 0) -> Any:
        import mido

        return mido.Message(kind, channel=PERCUSSION_CHANNEL, note=note, velocity=velocity)

    def _wait_until(self, deadline: float) -> None:
        while (left := deadline - self.clock()) > 0:
            self._wake.wait(left)

    def _note_off(self) -> None:
        if self._sounding is not None:
            self.port.send(self._message("note_off", self._sounding))
            self._sounding = None

    def hits(self, poll: Poll | None = None) -> Iterator[Hit | None]:
        """Send the track's hits on time, laid out by the conductor (so keys can change the
        tempo, pause or switch), yielding each stroke as its note goes out (clicks and muted
        strokes are sent or left silent, not yielded); None between as `poll` says.
        """
        conductor = self.conductor
        start = self.clock()
        polled = next_poll(poll, start)  # when the next None is due
        off_at = None
        waiting: list[Hit] = []  # laid out, each sent at its own frame
        while True:
            with self._lock:
                frame = conductor.next_frame()
            if frame is None and not waiting:
                break
            due = min(f for f in (frame, waiting[0].frame if waiting else None) if f is not None)
            now = self.clock()
            deadline = start + due / MICROSECONDS
            if off_at is not None and off_at <= now:
                self._note_off()
                off_at = None
            if deadline > now:
                nearest = min(deadline, off_at or deadline, now + SLICE)
                if polled is not None:
                    nearest = min(nearest, polled)
                self._wake.wait(max(0.0, nearest - now))
                if polled is not None and self.clock() >= polled:
                    yield None
                    polled = next_poll(poll, self.clock())
                continue
            if frame is not None and frame <= due:
                with self._lock:
                    waiting = sorted([*waiting, *conductor.advance(frame + 1)], key=_frame)
            while waiting and waiting[0].frame <= due:
                hit = waiting.pop(0)
                if not hit.muted:
                    self._note_off()
                    note = self.midimap.hit_note(hit.drum)
                    self.port.send(self._message("note_on", note, hit.velocity))
                    self._sounding = note
                    off_at = deadline + float(hit.note_seconds)
                if not hit.click:
                    yield hit
                    polled = next_poll(poll, self.clock())
        if off_at is not None:
            while polled is not None and polled < off_at:
                self._wait_until(polled)
                yield None
                polled = next_poll(poll, self.clock())
            self._wait_until(off_at)
            self._note_off()

    def set_tempo(self, tempo: Tempo) -> None:
        with self._lock:
            self.conductor.set_tempo(tempo)

    def command(self, name: str, *args: bool | Section) -> None:
        with self._lock:
            getattr(self.conductor, name)(*args)

    def coming(self) -> tuple[Section, Section | None]:
        with self._lock:
            return self.conductor.coming()

    def wait(self) -> None:
        """Nothing rings on after the last note off."""

    def close(self) -> None:
        """Silence the note still sounding and close the port."""
        try:
            self._note_off()
        finally:
            close = getattr(self.port, "close", None)
            if close is not None:
                close()


def _frame(hit: Hit) -> int:
    return hit.frame
