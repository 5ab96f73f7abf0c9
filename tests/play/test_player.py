"""One player interface: the sound card's player and the MIDI port's player both implement it,
and the same loop (drumscore play's) drives either one."""

from __future__ import annotations

import pytest
from virtual_time import on_virtual_time

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Conductor, Track
from drumscore.corpus import resolve
from drumscore.play import midiport
from drumscore.play.player import COMMANDS, Player
from drumscore.timing import Tempo

#: General MIDI 76, Hi Wood Block: the note the count strokes sound on.
HI_WOOD_BLOCK = 76


class SilentPort:
    """A MIDI port that keeps what it is sent."""

    def __init__(self) -> None:
        self.sent: list[object] = []

    def send(self, message: object) -> None:
        self.sent.append(message)


def track() -> Track:
    return Track.single(arrange(resolve("○□○"), None, Tempo.from_bpm(600), 1), 1)


def play_through(player: Player) -> list[tuple[bool, int]]:
    """What drumscore play's loop does with any player: every hit, count strokes marked."""
    with player:
        found = [(hit.is_count, hit.k) for hit in player.hits() if hit is not None]
        player.wait()
    return found


def test_the_midi_player_plays_through_the_interface_every_hit_of_the_track():
    port = SilentPort()
    assert play_through(midiport.MidiPlayer(port, track())) == [
        (True, 0),
        (False, 0),
        (False, 1),
        (False, 2),
    ]
    assert len(port.sent) == 8  # a note on and a note off each


def test_every_command_is_one_the_conductor_takes():
    assert all(callable(getattr(Conductor, name)) for name in COMMANDS)


# --- bad input ---------------------------------------------------------------------------------


def test_an_unknown_command_is_refused_by_the_conductor():
    player = midiport.MidiPlayer(SilentPort(), track())
    with pytest.raises(AttributeError):
        player.command("rewind")


def test_the_midi_player_sends_a_halfway_click_between_the_strokes_and_shows_strokes_only():
    from drumscore.conductor.track import Practice

    t = arrange(resolve("○□○"), None, Tempo.from_bpm(600), 1)  # 0.1 s a stroke
    player, port = on_virtual_time(Track.single(t, practice=Practice(click=2)))
    shown = [hit for hit in player.hits() if hit is not None]
    assert [hit.k for hit in shown] == [0, 1, 2] and not any(hit.click for hit in shown)
    ons = [(at, m) for at, m in port.sent if m.type == "note_on"]
    clicks = [at for at, m in ons if m.note == HI_WOOD_BLOCK]
    assert len(clicks) == 6
    first = clicks[0]
    assert [at - first for at in clicks] == pytest.approx([k * 0.05 for k in range(6)], abs=1e-9)
