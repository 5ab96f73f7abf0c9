"""MIDI output: notes on time on the percussion channel, and clear errors for a missing backend."""

from __future__ import annotations

import sys

import mido
import numpy as np
import pytest
from virtual_time import TimedPort, VirtualClock, on_virtual_time

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.errors import MissingDependencyError, OptionError, PlaybackError
from drumscore.play import midiport
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap
from drumscore.timing import Tempo

#: General MIDI 76, Hi Wood Block: the note the count strokes sound on.
HI_WOOD_BLOCK = 76


def timeline(notation="○□○半○□", bpm=600, repeats=1):
    return arrange(resolve(notation), None, Tempo.from_bpm(bpm), repeats)


def test_each_stroke_sends_its_drum_note_on_the_beat_then_a_note_off():
    t = timeline()
    midimap = MidiMap.from_option("38,36")
    player, port = on_virtual_time(Track.single(t), midimap)
    with player:
        assert [h.k for h in player.hits()] == list(range(len(t)))
    ons = [(at, m) for at, m in port.sent if m.type == "note_on" and m.velocity > 0]
    offs = [m for _, m in port.sent if m.type == "note_off" or m.velocity == 0]
    assert [m.note for _, m in ons] == [midimap.note(e.drum) for e in Track.single(t).hits(44100)]
    assert [m.velocity for _, m in ons] == [
        midimap.velocity(e.drum) for e in Track.single(t).hits(44100)
    ]
    assert len(offs) == len(ons)
    assert {m.channel for _, m in port.sent} == {PERCUSSION_CHANNEL}
    first = ons[0][0]
    for (at, _), event in zip(ons, Track.single(t).hits(midiport.MICROSECONDS), strict=True):
        assert at - first == pytest.approx(event.frame / midiport.MICROSECONDS, abs=1e-9)
    assert port.closed


def test_each_stroke_is_sent_at_the_velocity_a_midi_render_writes_for_it():
    """--velocity and --humanize shape each stroke: the port hears the velocities the MIDI file
    of the same track holds (read back with mido), the count strokes' included."""
    import io

    from drumscore.conductor.expression import Expression
    from drumscore.render.midi import midi_bytes

    shaped = Expression.from_options("70,115", "4", "7")
    t = arrange(resolve("○□○半○□"), None, Tempo.from_bpm(600), 2, shaped)
    track = Track.single(t, 2)
    port = TimedPort()
    with midiport.MidiPlayer(port, track) as player:
        list(player.hits())
    sent = [m.velocity for _, m in port.sent if m.type == "note_on" and m.velocity > 0]
    written = mido.MidiFile(file=io.BytesIO(midi_bytes(track)))
    wanted = [m.velocity for m in written.tracks[1] if m.type == "note_on" and m.velocity > 0]
    assert len(wanted) == 2 + len(t)
    assert len(set(wanted[2:])) > 2  # humanized: not the two velocities of the map
    assert sent == wanted


def test_stopping_early_silences_the_sounding_note():
    port = TimedPort()
    player = midiport.MidiPlayer(port, Track.single(timeline(bpm=60)))
    strokes = player.hits()
    next(strokes)  # the first note sounds; interrupted here
    player.close()
    kinds = [m.type for _, m in port.sent]
    assert kinds == ["note_on", "note_off"]
    assert port.sent[0][1].note == port.sent[1][1].note


def test_a_loop_runs_on_past_the_end_of_the_timeline():
    t = timeline()
    port = TimedPort()
    player = midiport.MidiPlayer(port, Track.single(t), loop=True)
    heard = (hit.k for hit in player.hits() if hit is not None)
    ks = [next(heard) for _ in range(len(t) + 2)]
    player.close()
    assert ks == list(range(len(t) + 2))
    ons = [m.note for _, m in port.sent if m.type == "note_on" and m.velocity > 0]
    midimap = MidiMap()
    drums = [e.drum for e in Track.single(t).hits(44100)]
    assert ons[len(t) :] == [midimap.note(d) for d in drums[:2]]


def test_a_port_is_chosen_by_part_of_its_name(monkeypatch):
    monkeypatch.setattr(midiport, "output_ports", lambda: ["Midi Through:0", "FLUID Synth:0"])
    assert midiport.choose_port("fluid") == "FLUID Synth:0"
    assert midiport.choose_port("midi through:0") == "Midi Through:0"


# --- bad input and missing pieces ------------------------------------------------------------


def test_without_python_rtmidi_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "rtmidi", None)
    monkeypatch.delitem(sys.modules, "mido.backends.rtmidi", raising=False)
    with pytest.raises(MissingDependencyError, match="python-rtmidi"):
        midiport.output_ports()


def test_a_midi_system_that_cannot_open_is_a_clear_error(monkeypatch):
    class NoSequencer:
        def get_output_names(self):
            raise OSError("error creating ALSA sequencer client object")

    monkeypatch.setattr(midiport, "load_backend", NoSequencer)
    with pytest.raises(PlaybackError, match="ALSA sequencer"):
        midiport.output_ports()


def test_an_unknown_port_lists_the_ports_there_are(monkeypatch):
    monkeypatch.setattr(midiport, "output_ports", lambda: ["Midi Through:0", "FLUID Synth:0"])
    with pytest.raises(OptionError) as caught:
        midiport.choose_port("Yamaha")
    assert "'Yamaha'" in str(caught.value)
    assert "'FLUID Synth:0'" in str(caught.value)


def test_no_ports_at_all_says_to_start_a_synthesiser(monkeypatch):
    monkeypatch.setattr(midiport, "output_ports", list)
    with pytest.raises(PlaybackError, match="synthesiser"):
        midiport.choose_port("any")


def test_an_ambiguous_port_name_asks_for_more(monkeypatch):
    monkeypatch.setattr(midiport, "output_ports", lambda: ["Synth A", "Synth B"])
    with pytest.raises(OptionError, match="several") as caught:
        midiport.choose_port("synth")
    assert caught.value.option == "midi_port"


def test_a_track_sends_its_count_on_the_wood_block_then_the_strokes():
    from drumscore.conductor.track import Track

    t = timeline()
    player, port = on_virtual_time(Track.single(t, 2))
    with player:
        hits = [h for h in player.hits() if h is not None]
    ons = [(at, m) for at, m in port.sent if m.type == "note_on" and m.velocity > 0]
    assert [m.note for _, m in ons[:2]] == [HI_WOOD_BLOCK] * 2
    assert [m.note for _, m in ons[2:]] == [
        MidiMap().note(e.drum) for e in Track.single(t).hits(44100)
    ]
    assert [h.is_count for h in hits] == [True, True] + [False] * len(t)
    first = ons[0][0]
    for k, (at, _) in enumerate(ons):
        assert at - first == pytest.approx(k * 0.1, abs=1e-9)


def test_a_tempo_change_on_a_port_takes_effect_at_the_next_note():
    from drumscore.conductor.track import Track

    t = timeline(bpm=300, repeats=2)
    player, port = on_virtual_time(Track.single(t))
    with player:
        for hit in player.hits():
            if hit is not None and hit.k == 2:
                player.set_tempo(Tempo.from_bpm(600))
    ons = [at for at, m in port.sent if m.type == "note_on" and m.velocity > 0]
    gaps = np.diff(ons)
    assert gaps[:2] == pytest.approx([0.2, 0.2], abs=1e-9)
    assert gaps[2:] == pytest.approx([0.1] * (len(gaps) - 2), abs=1e-9)


# --- listening: a MIDI input port (the mido test backend, tests/fake_midi_backend.py) ---------


def _play_to(listener: midiport.Listener, clock: VirtualClock, notes) -> None:
    """The notes (seconds on `clock`, note, velocity) given, in order, to the callback the port
    was opened with, as the port's thread would give them, each at its time."""
    for seconds, note, velocity in notes:
        clock.now = seconds
        listener.port.callback(mido.Message("note_on", channel=9, note=note, velocity=velocity))


def test_the_listener_times_each_note_on_from_the_start_of_playback(fake_midi):
    fake_midi(inputs=["Pads"])
    clock = VirtualClock()
    with midiport.Listener("pads", clock=clock) as listener:
        clock.now = 0.5
        listener.begin()
        _play_to(listener, clock, [(0.52, 41, 90), (0.55, 45, 0), (0.58, 45, 100)])
        notes = listener.notes
    # the note-on of velocity 0 is a note-off; each note timed as it arrived, from begin
    assert [n for _, n in notes] == [41, 45]
    assert [t for t, _ in notes] == pytest.approx([0.02, 0.08], abs=1e-9)
    assert listener.port.closed


def test_the_listener_restores_the_thread_switch_interval(fake_midi):
    fake_midi(inputs=["Pads"])
    before = sys.getswitchinterval()
    with midiport.Listener("Pads") as listener:
        listener.begin()
        assert sys.getswitchinterval() <= midiport.SWITCH
    assert sys.getswitchinterval() == before


def test_an_input_port_is_chosen_by_part_of_its_name(fake_midi):
    fake_midi(inputs=["Roland TD-17 MIDI 1", "Keyboard"])
    assert midiport.choose_input("td-17") == "Roland TD-17 MIDI 1"
    with pytest.raises(OptionError, match="there is no MIDI input port called that"):
        midiport.choose_input("yamaha")


def test_no_input_port_at_all_is_a_playback_error(fake_midi):
    with pytest.raises(PlaybackError, match="there are no MIDI input ports"):
        midiport.choose_input("pads")


def test_a_note_just_before_playback_begins_is_kept_an_older_one_dropped(fake_midi):
    fake_midi(inputs=["Pads"])
    clock = VirtualClock()
    with midiport.Listener("Pads", clock=clock) as listener:
        _play_to(listener, clock, [(0.0, 45, 100), (0.06, 41, 100)])
        clock.now = 0.1
        listener.begin(early=0.05)  # 41 came 0.04 s before: kept; 45, 0.1 s before: dropped
        _play_to(listener, clock, [(0.14, 45, 100)])
        notes = listener.notes
    assert [n for _, n in notes] == [41, 45]
    assert [t for t, _ in notes] == pytest.approx([-0.04, 0.04], abs=1e-9)


@pytest.mark.parametrize("poll", [0.005, 0.02, 0.1])
def test_between_strokes_and_after_the_last_the_player_wakes_every_poll(poll):
    """A display that listens (play --listen) is woken at least every `poll` s: between the
    strokes, and while the last note rings, not only when a stroke sounds."""
    track = Track.single(timeline("○□○", bpm=60))
    player, _port = on_virtual_time(track)
    clock = player.clock
    times = [(clock(), hit) for hit in player.hits(poll=poll)]
    assert sum(hit is not None for _t, hit in times) == 3
    gaps = np.diff([0.0] + [t for t, _hit in times])
    assert max(gaps) <= poll + 1e-9
    assert times[-1][0] >= 2.0  # the last stroke (at 2 s) rings on with the player awake


def test_between_strokes_the_player_wakes_when_the_poll_asks():
    """A poll that says how long until the next wake (play --listen: until the listener's next
    look has its sound) is asked after each yield, and the player wakes then."""
    track = Track.single(timeline("○□○", bpm=60))
    player, _port = on_virtual_time(track)
    clock = player.clock
    waits = iter(np.resize([0.003, 0.0071, 0.0049], 2000))
    asked: list[float] = []

    def poll():
        asked.append(clock() + next(waits))
        return asked[-1] - clock()

    times = [(clock(), hit) for hit in player.hits(poll=poll)]
    nones = [t for t, hit in times if hit is None]
    assert sum(hit is not None for _t, hit in times) == 3
    assert len(nones) > 300
    # each None at the time asked after the yield before it (a stroke's own time between)
    assert set(nones) <= set(asked)
    assert times[-1][0] >= 2.0
