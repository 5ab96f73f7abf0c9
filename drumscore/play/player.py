"""What every player does, whatever it plays on: the interface of the audio and the MIDI players.

As mido's backends give every port the same methods, a sound card (drumscore.play.audio) and a MIDI
port (drumscore.play.midiport) give `drumscore play` the same player: it yields each hit as it is
heard, takes the live commands of the keys, and is closed at the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import TracebackType
from typing import Protocol, Self, runtime_checkable

from drumscore.conductor.track import Hit
from drumscore.model import Section
from drumscore.timing import Tempo

#: The live commands a player passes to its conductor (drumscore.conductor.track.Conductor).
COMMANDS = ("pause", "switch_section", "stop_after_pass", "next_item")

#: When a player yields None between hits (for a display, a listener): every so many seconds, or
#: when a function says, asked after each yield (the seconds from then until the next).
Poll = float | Callable[[], float]


def next_poll(poll: Poll | None, now: float) -> float | None:
    """The time on the player's clock of the next None after `now` (None: none is yielded)."""
    if poll is None:
        return None
    return now + (poll() if callable(poll) else poll)


@runtime_checkable
class Player(Protocol):
    """Plays a track, laid out by a Conductor as it goes, and says which hit is heard when."""

    @property
    def rate(self) -> int:
        """The conductor's frames per second: the sample rate, or microseconds for a MIDI port."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None: ...

    def hits(self, poll: Poll | None = None) -> Iterator[Hit | None]:
        """Each hit as it is heard; None between hits as `poll` says (for a display)."""
        ...

    def set_tempo(self, tempo: Tempo) -> None:
        """A new tempo from the next beat not yet laid out."""
        ...

    def command(self, name: str, *args: bool | Section) -> None:
        """One of COMMANDS, at its moment (the next beat, or the end of the pass)."""
        ...

    def coming(self) -> tuple[Section, Section | None]:
        """The section laid out last, and the one a switch waits to play: what is still to come
        beyond what has been heard (a key during the last stroke may find the next pass mixed)."""
        ...

    def wait(self) -> None:
        """Until everything played has been heard (the last stroke rung out)."""
        ...

    def close(self) -> None:
        """Stop at once and let the device go."""
        ...
