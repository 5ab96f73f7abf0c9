"""The strokes of a MIDI performance, read back with mido."""

import mido
import pytest

from drumscore import i18n
from drumscore.errors import PerformanceError
from drumscore.model import Drum
from drumscore.performance.midifile import read_midi
from drumscore.render.midimap import MidiMap


def save(path, messages, ticks=480):
    midi = mido.MidiFile(ticks_per_beat=ticks)
    midi.tracks.append(mido.MidiTrack(messages))
    midi.save(path)
    return path


PI, GU = MidiMap().pi_note, MidiMap().gu_note


def hit(note, time, velocity=100):
    return mido.Message("note_on", channel=9, note=note, velocity=velocity, time=time)


def test_note_times_follow_the_files_tempo_changes(tmp_path):
    path = save(
        tmp_path / "take.mid",
        [
            mido.MetaMessage("set_tempo", tempo=500_000),  # 0.5 s a beat
            hit(PI, 0),
            hit(GU, 480),  # 0.5 s
            mido.MetaMessage("set_tempo", tempo=1_000_000, time=0),  # now 1 s a beat
            hit(PI, 480),  # 1.5 s
            hit(PI, 240, velocity=0),  # a note-off written as a note-on: no stroke
        ],
    )
    heard = read_midi(path)
    assert [(s.time, s.drum) for s in heard.strokes] == [
        (0.0, Drum.PI),
        (0.5, Drum.GU),
        (1.5, Drum.PI),
    ]
    assert heard.kind == "midi" and heard.notes == ()


def test_notes_of_another_map_and_other_keys(tmp_path):
    path = save(tmp_path / "pads.mid", [hit(38, 0), hit(36, 480), hit(76, 480), hit(76, 480)])
    heard = read_midi(path, MidiMap.from_option("38,36"))
    assert [s.drum for s in heard.strokes] == [Drum.PI, Drum.GU]
    assert heard.notes == ("2 notes on other keys (76) left out",)


# --- bad input --------------------------------------------------------------------------------


def test_a_file_that_is_not_midi_is_refused(tmp_path):
    path = tmp_path / "take.mid"
    path.write_bytes(b"RIFF not a midi file")
    with pytest.raises(PerformanceError, match="cannot be read as a MIDI file"):
        read_midi(path)


def test_other_notes_only_are_named_with_a_map_to_try(tmp_path):
    path = save(tmp_path / "pads.mid", [hit(38, 0), hit(38, 480), hit(36, 480)])
    with pytest.raises(PerformanceError) as info:
        read_midi(path)
    assert info.value.option == "midi_notes"
    assert "38 Acoustic Snare ×2" in str(info.value) and "38,36" in str(info.value)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "中完全沒有音符，沒有可檢查的內容"),
        ("zh_Hans", "中完全没有音符，没有可检查的内容"),
    ],
)
def test_a_file_with_no_notes_is_refused_in_chinese(tmp_path, language, expected):
    path = save(tmp_path / "empty.mid", [mido.MetaMessage("end_of_track", time=0)])
    with i18n.speaking(language), pytest.raises(PerformanceError) as info:
        read_midi(path)
    assert str(info.value).startswith(f"演奏「{path}」")
    assert expected in str(info.value)


def test_other_notes_left_out_are_counted_in_chinese(tmp_path):
    path = save(tmp_path / "t.mid", [hit(PI, 0), hit(GU, 480), hit(38, 0), hit(38, 480)])
    with i18n.speaking("zh_Hans"):
        performance = read_midi(path)
    assert performance.notes == ("略去其他音高（38）上的 2 个音符",)
    assert performance.how == f"鼙在 MIDI 音符 {PI}，鼓在 {GU}"


# --- as a drummer plays: flams, double triggers, ghost notes ------------------------------------


def played(path, notes, ticks=480):
    """A file at 1 s a beat (tempo 1,000,000 µs) of (seconds, note, velocity) note-ons."""
    messages, now = [mido.MetaMessage("set_tempo", tempo=1_000_000)], 0
    for seconds, note, velocity in sorted(notes):
        tick = round(seconds * ticks)
        messages.append(hit(note, tick - now, velocity))
        now = tick
    return read_midi(save(path, messages, ticks))


def test_a_flams_louder_note_is_the_stroke_and_its_grace_note_is_reported(tmp_path):
    # strokes a second apart; before the third a grace note 30 ms early at velocity 30
    notes = [(k, PI, 100) for k in range(6)] + [(2 - 0.03, PI, 30)]
    heard = played(tmp_path / "flam.mid", notes, ticks=1000)
    assert [round(s.time, 3) for s in heard.strokes] == [0, 1, 2, 3, 4, 5]
    assert any("1 flam" in note and "1.970 s" in note for note in heard.notes), heard.notes


@pytest.mark.parametrize("language", ["zh_Hant", "zh_Hans"])
def test_a_flams_time_is_said_in_the_readers_unit(tmp_path, language):
    notes = [(k, PI, 100) for k in range(6)] + [(2 - 0.03, PI, 30)]
    with i18n.speaking(language):
        heard = played(tmp_path / "flam.mid", notes, ticks=1000)
    assert any("1.970 秒" in note for note in heard.notes), heard.notes
    assert not any(" s）" in note or " s)" in note for note in heard.notes), heard.notes


def test_a_soft_note_just_after_a_stroke_is_its_grace_note_too(tmp_path):
    notes = [(k, GU, 110) for k in range(5)] + [(3.04, PI, 40)]
    heard = played(tmp_path / "after.mid", notes, ticks=1000)
    assert [(round(s.time, 3), s.drum) for s in heard.strokes] == [(k, Drum.GU) for k in range(5)]


def test_a_double_trigger_4_ms_apart_is_merged_into_the_first(tmp_path):
    notes = [(k, PI, 90) for k in range(6)] + [(4.004, PI, 95)]
    heard = played(tmp_path / "double.mid", notes, ticks=1000)
    assert [round(s.time, 3) for s in heard.strokes] == [0, 1, 2, 3, 4, 5]
    assert any("1 double trigger" in note for note in heard.notes), heard.notes


def test_ghost_notes_below_the_floor_are_left_out_and_counted(tmp_path):
    notes = [(k, PI, 80) for k in range(6)] + [(1.5, PI, 6), (3.5, GU, 6)]
    notes += [(k + 0.25, GU, 100) for k in range(6)]
    heard = played(tmp_path / "ghosts.mid", notes, ticks=1000)
    assert len(heard.strokes) == 12
    assert {round(s.time % 1, 3) for s in heard.strokes} == {0.0, 0.25}  # none at .5
    assert any("2 ghost notes" in note for note in heard.notes), heard.notes


def test_a_fast_score_is_never_taken_for_flams(tmp_path):
    # 1200 strokes a minute, 50 ms apart, soft and loud by turns: every note is a stroke
    notes = [(k * 0.05, PI if k % 2 else GU, 40 if k % 2 else 110) for k in range(40)]
    heard = played(tmp_path / "fast.mid", notes, ticks=1000)
    assert len(heard.strokes) == 40 and heard.notes == ()
