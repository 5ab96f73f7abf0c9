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
    assert str(info.value).startswith("演奏 ")
    assert expected in str(info.value)


def test_other_notes_left_out_are_counted_in_chinese(tmp_path):
    path = save(tmp_path / "t.mid", [hit(PI, 0), hit(GU, 480), hit(38, 0), hit(38, 480)])
    with i18n.speaking("zh_Hans"):
        performance = read_midi(path)
    assert performance.notes == ("略去其他音高（38）上的 2 个音符",)
    assert performance.how == f"MIDI 音符 {PI},{GU}"
