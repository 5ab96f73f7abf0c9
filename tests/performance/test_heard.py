"""A performance's strokes: which files are MIDI, and swapping a guessed pair of names."""

from drumscore.model import Drum
from drumscore.performance.heard import HeardStroke, Performance, is_midi


def test_midi_files_are_told_by_their_ending():
    assert is_midi("take.MID") and is_midi("a/b.midi")
    assert not is_midi("take.wav") and not is_midi("mid")


def test_swapping_exchanges_the_drums_and_is_done_once():
    p = Performance(
        "t.wav",
        "audio",
        (HeardStroke(0.0, Drum.PI, True), HeardStroke(1.0, Drum.GU)),
        2.0,
        "split",
        swappable=True,
    )
    s = p.swapped()
    assert [(x.drum, x.doubtful) for x in s.strokes] == [(Drum.GU, True), (Drum.PI, False)]
    assert not s.swappable and len(s) == 2
