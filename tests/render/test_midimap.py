"""The General MIDI notes and velocities of 鼙 and 鼓."""

import pytest

from drumscore import Drum, OptionError
from drumscore.render.midimap import MidiMap


def test_the_default_is_two_toms_pi_the_lower_and_softer():
    m = MidiMap()
    assert (m.note(Drum.PI), m.note(Drum.GU)) == (41, 45)  # 鼙 其聲下, 鼓 其聲高
    assert m.velocity(Drum.GU) > m.velocity(Drum.PI)
    assert m.describe() == "鼙 ○ → 41 Low Floor Tom; 鼓 □ → 45 Low Tom"


def test_notes_are_read_pi_first():
    m = MidiMap.from_option(" 38 , 36 ")
    assert (m.note(Drum.PI), m.note(Drum.GU)) == (38, 36)
    assert MidiMap.from_option(None) == MidiMap()


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "needle"),
    [("45", "1 item where it takes 2"), ("a,b", "two MIDI notes"), ("45,128", "outside 0-127"),
     ("-1,40", "outside 0-127"), ("40,40", "both drums note 40"),
     ("1,2,3", "3 items where it takes 2")],
)  # fmt: skip
def test_bad_notes_say_what_is_wrong_and_name_the_parameter(text, needle):
    with pytest.raises(OptionError) as info:
        MidiMap.from_option(text)
    assert needle in str(info.value) and info.value.option == "midi_notes"
    assert "--" not in str(info.value)


# --- in the reader's language ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            "zh_TW.UTF-8",
            "drumscore：錯誤：--midi-notes「40,40」讓兩面鼓都用音符 40；請選兩個不同的音符",
        ),
        (
            "zh_CN.UTF-8",
            "drumscore：错误：--midi-notes「40,40」让两面鼓都用音符 40；请选择两个不同的音符",
        ),
        ("C.UTF-8", "drumscore: error: --midi-notes '40,40' gives both drums note 40; choose two"),
    ],
)
def test_one_note_for_both_drums_is_refused_in_the_readers_language(
    monkeypatch, cli, tmp_path, lang, expected
):
    monkeypatch.setenv("LANG", lang)
    out = tmp_path / "out.mid"
    code, stdout, err = cli("render", "lu", "--midi-notes", "40,40", "-o", out)
    assert (code, stdout) == (2, "")
    assert err.startswith(expected) and "Traceback" not in err
    assert not out.exists()
