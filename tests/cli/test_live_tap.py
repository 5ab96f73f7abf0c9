"""The tap key on a virtual clock (tests/virtual_time.py): the tempo tapped is the average of
the last gaps between taps, exactly, however busy the machine; a pause starts the taps over."""

from __future__ import annotations

from fractions import Fraction

from virtual_time import VirtualClock

from drumscore.cli.live import Controls
from drumscore.play.keys import TAP, TAP_RESET, TAPS


class TempoPlayer:
    """A player that only keeps the tempi it is set to."""

    def __init__(self) -> None:
        self.bpm: list[Fraction] = []

    def set_tempo(self, tempo) -> None:
        self.bpm.append(tempo.bpm)


def test_the_tempo_tapped_is_the_average_of_the_last_gaps_and_a_pause_starts_over():
    assert (TAPS, TAP_RESET) == (4, 2.0)  # the taps below are written for these
    clock = VirtualClock()
    player = TempoPlayer()
    controls = Controls(player, Fraction(240), clock=clock)  # type: ignore[arg-type]
    # taps 0.3 s apart (200 a minute), then 0.4 s apart: the last 4 gaps are averaged
    for at in (0.0, 0.3, 0.6, 0.9, 1.3, 1.7, 2.1, 2.5):
        clock.now = at
        controls.press(TAP)
    # a tap after more than TAP_RESET s is a first tap again; one gap of 0.5 s: 120 a minute
    for at in (4.6, 5.1):
        clock.now = at
        controls.press(TAP)
    # 60 / 0.325 = 184.6, 60 / 0.35 = 171.4, 60 / 0.375 = 160, 60 / 0.4 = 150 (to a tenth)
    want = ["200", "923/5", "857/5", "160", "150", "120"]
    assert [str(b) for b in player.bpm] == want
    assert controls.bpm == 120
