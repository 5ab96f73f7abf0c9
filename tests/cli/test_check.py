"""drumscore check: a performance checked against a score, from a recording and from MIDI.

The performances are the kit's own samples (or MIDI notes) placed at known offsets from a known
beat, with a missed stroke, an extra one and a wrong drum; the check must find them all.
"""

import json

import numpy as np
import pytest
import soundfile as sf
from performances import DEFAULT_NOTES, take, write_audio, write_midi

from drumscore.corpus import resolve
from drumscore.model import Drum

PI, GU = DEFAULT_NOTES

LU = [s.drum for s in resolve("lu").pattern.strokes]
TOUHU = [s.drum for s in resolve("lu").pattern.section("touhu")]
# index from 0: stroke 6 missed, stroke 11 on the other drum, an extra 鼙 halfway after stroke 15
MISSED, WRONG, EXTRA_AT = 5, 10, 14.5


def checked(cli, *argv):
    code, out, err = cli("check", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def assert_recovers(data, t, *, within_ms=2.0):
    """Every played stroke's offset within `within_ms`, the tempo within 0.1 %, and the missed,
    extra and wrong strokes named."""
    assert abs(data["tempo_bpm"] - 60 / t.interval) <= 0.001 * 60 / t.interval
    by_index = {s["index"]: s for s in data["strokes"]}
    assert len(by_index) == len(t.drums)
    for k in t.played:
        got = by_index[k + 1]["offset_ms"]
        assert abs(got - t.offsets[k] * 1000) <= within_ms, (k + 1, got, t.offsets[k] * 1000)
    assert data["missing"] == sorted(k + 1 for k in t.missed)
    assert data["wrong"] == sorted(k + 1 for k in t.wrong)
    for k in t.wrong:
        assert by_index[k + 1]["heard"] != by_index[k + 1]["expected"]
    assert [(e["after"], e["heard"]) for e in data["extra"]] == [
        (int(beat) + 1, drum.symbol) for beat, drum in [(EXTRA_AT, Drum.PI)] if t.extra
    ]


def flawed(bpm=72, seed=1):
    return take(LU, bpm, missed=[MISSED], wrong=[WRONG], extra=[(EXTRA_AT, Drum.PI)], seed=seed)


def test_a_recording_gives_back_every_offset_and_the_missed_extra_and_wrong_strokes(cli, tmp_path):
    t = flawed()
    data = checked(cli, write_audio(tmp_path / "take.wav", t), "lu")
    assert_recovers(data, t)
    assert data["extra"][0]["time_s"] == pytest.approx(t.time(EXTRA_AT), abs=0.002)
    assert abs(data["drift_bpm"]) < 0.5
    assert data["doubtful"] == []


def test_a_recording_split_by_its_own_sound_names_the_drums_as_the_score_does(cli, tmp_path):
    t = flawed(bpm=90, seed=4)
    data = checked(cli, write_audio(tmp_path / "take.flac", t), "lu", "--drums", "split")
    assert_recovers(data, t)


def test_a_midi_performance_gives_back_every_offset_and_the_missed_extra_and_wrong_strokes(
    cli, tmp_path
):
    t = flawed(bpm=66, seed=2)
    data = checked(cli, write_midi(tmp_path / "take.mid", t), "lu")
    assert_recovers(data, t, within_ms=1.0)  # a tick of the file is 0.6 ms
    assert data["performance"]["kind"] == "midi"


def test_a_midi_performance_with_its_own_notes_and_a_count_in(cli, tmp_path):
    t = take(TOUHU, 100, seed=3)
    t.start = 3.0
    count = [(t.time(k - 4), 76) for k in range(4)]
    path = write_midi(tmp_path / "pads.mid", t, notes=(38, 36), others=count)
    data = checked(cli, path, "lu", "--section", "touhu", "--midi-notes", "38,36")
    assert_recovers(data, t, within_ms=1.0)
    assert data["performance"]["notes"] == ["4 notes on other keys (76) left out"]


def test_a_drift_is_measured_as_the_change_of_pace_from_first_to_last_stroke(cli, tmp_path):
    # a pace that goes from 60 to 66 strokes a minute, evenly in tempo from stroke to stroke
    drums = LU * 3
    bpm = np.linspace(60, 66, len(drums) - 1)
    times = np.concatenate([[0.0], np.cumsum(60 / bpm)]) + 0.5
    t = take(drums, 60, spread_ms=0)
    t.offsets = times - np.array([t.time(k) for k in range(len(drums))])
    data = checked(cli, write_midi(tmp_path / "faster.mid", t), "lu", "--repeat", "3")
    assert data["drift_bpm"] == pytest.approx(6.0, abs=0.5)
    assert data["tempo_first_bpm"] == pytest.approx(60, abs=0.5)
    assert data["missing"] == [] and data["extra"] == [] and data["wrong"] == []
    # the even beat does not bend: the strokes stray from it most at the ends and the middle
    assert data["max_abs_offset_ms"] > 100


def test_a_humanized_render_checked_gives_back_the_offsets_the_render_applied(cli, tmp_path):
    out = tmp_path / "human.wav"
    code, printed, err = cli(
        "render", "xue", "--bpm", "80", "--humanize", "20", "--seed", "7", "-o", out, "--json"
    )
    assert code == 0, err
    rendered = json.loads(printed)
    applied = np.array([s["offset_ms"] for s in rendered["strokes"]])
    assert np.ptp(applied) > 10  # it was humanized
    data = checked(cli, out, "xue")
    # measured from the best even beat through the rendered strokes: the applied offsets less
    # their own mean and trend
    k = np.arange(len(applied))
    design = np.vstack([np.ones(len(k)), k]).T
    expected = applied - design @ np.linalg.lstsq(design, applied, rcond=None)[0]
    got = np.array([s["offset_ms"] for s in data["strokes"]])
    assert np.max(np.abs(got - expected)) <= 2.0
    assert data["tempo_bpm"] == pytest.approx(80, rel=0.001)
    assert [s["expected"] for s in data["strokes"]] == [s["heard"] for s in data["strokes"]]


def test_the_text_report_names_tempo_offsets_and_every_fault(cli, tmp_path):
    t = flawed(bpm=72, seed=5)
    code, out, _ = cli("check", write_midi(tmp_path / "take.mid", t), "lu")
    assert code == 0
    lines = out.splitlines()
    assert any(line.startswith("tempo      72.00/min") for line in lines)
    assert f"missed     {MISSED + 1} □ 鼓" in lines
    assert any(
        line.startswith("extra      ○ 鼙 at") and "after stroke 15" in line for line in lines
    )
    assert any(
        line.startswith(f"wrong drum {WRONG + 1} (□ 鼓 expected, ○ 鼙 heard)") for line in lines
    )
    row = next(line for line in lines if line.split()[:1] == [str(MISSED + 1)])
    assert row.rstrip().endswith("missed")


def test_the_plot_draws_a_marker_per_stroke(cli, tmp_path):
    pytest.importorskip("matplotlib")
    t = flawed(bpm=72)
    plot = tmp_path / "offsets.svg"
    code, _, err = cli("check", write_midi(tmp_path / "take.mid", t), "lu", "--plot", plot)
    assert code == 0, err
    svg = plot.read_text(encoding="utf-8")
    assert "missed 1, extra 1, wrong drum 1" in svg
    png = tmp_path / "offsets.png"
    assert cli("check", write_midi(tmp_path / "t.mid", t), "lu", "--plot", png)[0] == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- bad input --------------------------------------------------------------------------------


def test_a_silent_recording_has_no_onsets(expect_error, tmp_path):
    path = tmp_path / "silence.wav"
    sf.write(path, np.zeros((44100, 2), np.float32), 44100)
    err = expect_error("check", path, "lu")
    assert "holds no strokes" in err and "silence.wav" in err


def test_a_performance_far_longer_than_the_score_is_refused_with_the_passes_to_give(
    expect_error, tmp_path
):
    t = take(LU * 4, 90)
    err = expect_error("check", write_midi(tmp_path / "long.mid", t), "lu")
    assert err.startswith("drumscore: error: --repeat 1: performance")
    assert "92 strokes" in err and "4 times give 4" in err


def test_a_midi_file_without_notes_is_refused(expect_error, tmp_path):
    import mido

    path = tmp_path / "empty.mid"
    midi = mido.MidiFile()
    midi.tracks.append(mido.MidiTrack([mido.MetaMessage("set_tempo", tempo=500000)]))
    midi.save(path)
    assert "holds no notes at all" in expect_error("check", path, "lu")


def test_a_midi_file_on_other_notes_names_them_and_the_option(expect_error, tmp_path):
    t = take(LU, 60)
    err = expect_error("check", write_midi(tmp_path / "pads.mid", t, notes=(38, 36)), "lu")
    assert err.startswith(f"drumscore: error: --midi-notes {PI},{GU} finds no note")
    assert "38 Acoustic Snare" in err and "38,36" in err


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["take.wav", "lu", "--midi-notes", "38,36"], "only applies with a MIDI performance"),
        (["take.mid", "lu", "--drums", "split"], "only applies with a recording"),
        (["take.mid", "lu", "--plot", "x.jpg"], "use one of: .png .svg"),
        (["missing.mid", "lu"], "does not exist"),
        (["take.mid", "lu", "--repeat", "0"], "--repeat"),
        (["take.mid", "○○○", "--section", "touhu"], "半"),
    ],
)
def test_bad_options_are_one_line(expect_error, tmp_path, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    t = take(LU, 60)
    write_midi(tmp_path / "take.mid", t)
    write_midi(tmp_path / "take.wav", t)
    assert words in expect_error("check", *argv)


def test_a_file_that_is_not_audio_is_refused(expect_error, tmp_path):
    path = tmp_path / "notes.wav"
    path.write_text("not a recording")
    assert "cannot be read as audio" in expect_error("check", path, "lu")


@pytest.mark.parametrize(
    ("locale", "argv", "said"),
    [
        (
            "zh_CN.UTF-8",
            ["take.wav", "lu", "--midi-notes", "38,36"],
            "drumscore：错误：--midi-notes「38,36」 只在有 MIDI 演奏（.mid .midi） 时适用"
            "（用于：MIDI 文件的音符）；请改为检查 .mid 文件，或去掉 --midi-notes「38,36」",
        ),
        (
            "zh_TW.UTF-8",
            ["take.mid", "lu", "--drums", "split", "--kit", "k"],
            "drumscore：錯誤：--drums「split」 與 --kit「k」 只在有 錄音（.wav .flac .ogg） 時適用"
            "（用於：依聲音分辨錄音中的兩鼓）；請改為檢查錄音，"
            "或去掉 --drums「split」 與 --kit「k」",
        ),
    ],
)
def test_options_refused_in_chinese(cli, tmp_path, monkeypatch, locale, argv, said):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LANG", locale)
    t = take(LU, 60)
    write_midi(tmp_path / "take.mid", t)
    write_midi(tmp_path / "take.wav", t)
    assert cli("check", *argv) == (2, "", said + "\n")


def test_a_take_of_another_score_is_named_in_text_and_json_and_exits_2(cli, tmp_path):
    played = [s.drum for s in resolve("xue/2").pattern.section("touhu")]
    path = write_midi(tmp_path / "take.mid", take(played, 90, spread_ms=10))
    code, out, err = cli("check", path, "xue", "--section", "touhu")
    assert code == 2 and "Traceback" not in err
    assert "better fit" in out
    assert "this take fits xue/2@zhushu 投壺 without a fault, against" in out
    assert err.count("\n") == 1 and "check it against xue/2@zhushu, section 投壺" in err
    code, out, _err = cli("check", path, "xue", "--section", "touhu", "--json")
    fit = json.loads(out)["better_fit"]
    assert code == 2 and (fit["score"], fit["section"], fit["faults"]) == (
        "xue/2@zhushu",
        "touhu",
        0,
    )
    assert fit["against"] >= 2
    code, out, _err = cli("check", path, "xue/2", "--section", "touhu", "--json")
    assert code == 0 and json.loads(out)["better_fit"] is None


@pytest.mark.parametrize(
    ("made", "suffix"),
    [(("--count-in", "2", "--click", "1"), ".wav"), (("--count-in", "2", "--click", "2"), ".mid")],
)
def test_a_take_with_a_count_in_and_clicks_of_another_score_is_named_as_without(
    cli, tmp_path, made, suffix
):
    """A take render made of lu with a count-in and clicks, checked against xue with the same
    options: the report leaves the count strokes and clicks out, fits the take's own beat
    (60 a minute, not a beat halved by the clicks) and names lu as the better fit, as it does for
    the take without them; the command ends with exit 2."""
    path = tmp_path / f"take{suffix}"
    code, _out, err = cli("render", "lu", *made, "-q", "-o", path)
    assert code == 0, err
    code, out, err = cli("check", path, "xue", *made, "--json")
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    data = json.loads(out)
    assert data["better_fit"] is not None
    fit = data["better_fit"]
    assert (fit["score"], fit["section"], fit["faults"]) == ("lu/1@zhushu", "she", 0)
    assert fit["against"] == len(data["missing"]) + len(data["extra"]) + len(data["wrong"]) >= 2
    assert abs(data["tempo_bpm"] - 60) < 0.1
    plain = tmp_path / f"plain{suffix}"
    assert cli("render", "lu", "-q", "-o", plain)[0] == 0
    code, out, _err = cli("check", plain, "xue", "--json")
    without = json.loads(out)["better_fit"]
    assert code == 2 and {k: without[k] for k in ("score", "section", "faults", "against")} == {
        k: fit[k] for k in ("score", "section", "faults", "against")
    }


def test_a_count_in_not_told_is_said_not_taken_for_another_score(cli, tmp_path):
    """lu with a count-in of 4 once fitted xue/1 better than lu when its count strokes were taken
    for drums: the report names the count-in and the option, never another score."""
    take = str(tmp_path / "take.wav")
    code, _out, err = cli("render", "lu", "--count-in", "4", "-q", "-o", take)
    assert code == 0, err
    code, out, err = cli("check", take, "lu")
    assert code == 0 and "Traceback" not in err and "xue" not in out + err
    assert "the 4 extra strokes before stroke 1 keep its beat: a count-in? check with " in out
    assert "--count-in 4" in out
    told = checked(cli, take, "lu", "--count-in", "4")
    assert told["extra"] == [] and told["missing"] == [] and told["wrong"] == []


# --- MIDI as a drummer plays it ---------------------------------------------------------------


def midi_take(path, strokes, ticks=960):
    """A file at 1 s a beat of (seconds, drum, velocity) note-ons, each with its note-off."""
    import mido

    midi = mido.MidiFile(ticks_per_beat=ticks)
    track = mido.MidiTrack([mido.MetaMessage("set_tempo", tempo=1_000_000)])
    midi.tracks.append(track)
    now = 0
    for seconds, drum, velocity in sorted(strokes, key=lambda s: s[0]):
        note = PI if drum is Drum.PI else GU
        tick = round(seconds * ticks)
        track.append(
            mido.Message("note_on", channel=9, note=note, velocity=velocity, time=tick - now)
        )
        track.append(mido.Message("note_off", channel=9, note=note, time=0))
        now = tick
    midi.save(path)
    return path


def test_a_stroke_left_out_and_an_extra_one_after_the_stroke_before_stay_what_they_are(
    cli, tmp_path
):
    """Stroke 7 left out, and a stroke on its drum 0.3 beat after stroke 6: stroke 7 is missed
    and the other extra, every other stroke on the beat (not the beat stretched to fit them)."""
    beat = 60 / 72
    strokes = [(1 + k * beat, d, 90) for k, d in enumerate(LU) if k != 6]
    strokes.append((1 + 5.3 * beat, LU[6], 90))
    data = checked(cli, midi_take(tmp_path / "take.mid", strokes), "lu")
    assert data["missing"] == [7]
    assert [(e["after"], e["heard"]) for e in data["extra"]] == [(6, LU[6].symbol)]
    assert data["extra"][0]["offset_ms"] == pytest.approx(0.3 * beat * 1000, abs=1.0)
    assert data["tempo_bpm"] == pytest.approx(72, abs=0.01)
    assert data["max_abs_offset_ms"] < 1.0 and data["wrong"] == []


def test_a_flam_takes_the_louder_note_and_double_triggers_and_ghosts_are_not_extra(cli, tmp_path):
    beat = 60 / 80
    strokes = [(1 + k * beat, d, 100) for k, d in enumerate(LU)]
    strokes.append((1 + 3 * beat - 0.03, LU[3], 35))  # a flam's grace note 30 ms early
    strokes.append((1 + 9 * beat + 0.004, LU[9], 100))  # a double trigger 4 ms after
    strokes.append((1 + 12.5 * beat, Drum.GU, 6))  # a ghost note between beats
    data = checked(cli, midi_take(tmp_path / "take.mid", strokes), "lu")
    assert data["extra"] == [] and data["missing"] == [] and data["wrong"] == []
    assert data["max_abs_offset_ms"] < 1.0
    assert data["tempo_bpm"] == pytest.approx(80, abs=0.01)
    notes = " ".join(data["performance"]["notes"])
    assert "1 flam" in notes and "1 double trigger" in notes and "1 ghost note" in notes
    flams = [(s["index"], s["grace_ms"]) for s in data["strokes"] if s["flam"]]
    assert flams == [(4, pytest.approx(30.0, abs=1.0))]
    assert all(s["grace_ms"] is None for s in data["strokes"] if not s["flam"])
    code, out, err = cli("check", str(tmp_path / "take.mid"), "lu")
    assert code == 0, err
    row = next(line for line in out.splitlines() if line.split()[:1] == ["4"])
    assert "grace note 30 ms before" in row
    rows = [line for line in out.splitlines() if line.split()[:1] and line.split()[0].isdigit()]
    assert [r.split()[0] for r in rows if "grace note" in r] == ["4"]


# --- a take made with render's options ----------------------------------------------------------


def test_a_count_in_heard_but_not_declared_is_named_and_with_the_option_left_out(cli, tmp_path):
    take = str(tmp_path / "take.wav")
    code, _out, err = cli("render", "lu/2", "--count-in", "3", "--rate", "16000", "-q", "-o", take)
    assert code == 0, err
    bare = checked(cli, take, "lu/2")
    assert [e["after"] for e in bare["extra"]] == [0, 0, 0] and bare["wrong"] == []
    assert bare["take"]["undeclared_count_in"] == 3
    code, out, _err = cli("check", take, "lu/2")
    assert "a count-in? check with --count-in 3" in out
    told = checked(cli, take, "lu/2", "--count-in", "3")
    assert told["extra"] == [] and told["missing"] == [] and told["wrong"] == []
    assert told["take"]["count_strokes_heard"] == 3 and told["take"]["undeclared_count_in"] == 0
    code, out, _err = cli("check", take, "lu/2", "--count-in", "3")
    assert "left out   3 count strokes of the count-in, all heard" in out


def test_the_clicks_of_a_recording_are_told_from_its_strokes_and_left_out(cli, tmp_path):
    # lu/2's touhu: 13 strokes; two passes, the second silent, 2 clicks a stroke: of the 52
    # clicks, the first pass's 13 on a stroke sound with it, the other 39 alone
    take = str(tmp_path / "take.wav")
    options = ["lu/2", "--section", "touhu", "--repeat", "2", "--click", "2"]
    options += ["--silent-every", "2", "--count-in", "2", "--bpm", "70"]
    code, _out, err = cli("render", *options, "--rate", "16000", "-q", "-o", take)
    assert code == 0, err
    data = checked(cli, take, *options)
    assert data["extra"] == [] and data["missing"] == [] and data["wrong"] == []
    assert [s["index"] for s in data["strokes"]] == list(range(1, 14))
    expected = [s.drum.symbol for s in resolve("lu/2").pattern.section("touhu")]
    assert [s["heard"] for s in data["strokes"]] == expected
    assert data["max_abs_offset_ms"] < 0.1
    assert data["take"]["clicks_expected"] == 52 and data["take"]["clicks_heard"] == 39
    assert data["take"]["count_strokes_heard"] == 2
    code, out, _err = cli("check", take, *options)
    assert "41 onsets sound like the count sound of the built-in kit" in out
    assert "52 clicks, 39 heard (a click with a stroke is heard as the stroke)" in out


def test_a_click_on_the_same_instant_as_a_stroke_neither_hides_nor_moves_it(cli, tmp_path):
    # one click a stroke, each on its stroke's sample: every onset is a stroke and its click
    take = str(tmp_path / "take.wav")
    options = ["○□○○□半□○□○", "--click", "1", "--bpm", "90"]
    code, _out, err = cli("render", *options, "--rate", "16000", "-q", "-o", take)
    assert code == 0, err
    data = checked(cli, take, *options)
    assert [s["heard"] for s in data["strokes"]] == list("○□○○□□○□○")
    assert all(abs(s["offset_ms"]) < 0.1 for s in data["strokes"])
    assert data["tempo_bpm"] == pytest.approx(90, abs=1e-3)
    assert data["take"]["clicks_heard"] == 0 and data["extra"] == []


def test_render_options_check_does_not_take_are_refused_as_render_refuses_them(
    expect_error, tmp_path
):
    path = str(write_midi(tmp_path / "take.mid", take(LU, 60)))
    assert "--ramp" in expect_error("check", path, "lu", "--ramp", "40:60:5", "--bpm", "60")
    assert "--count-in" in expect_error("check", path, "lu", "--count-in-each")


def test_a_render_under_mao_checked_under_mao_has_no_fault_and_shows_the_printed_signs(
    cli, tmp_path
):
    """render lu --reading mao, then check it --reading mao: every stroke on its beat and drum;
    the report shows each stroke as printed (○/□ from the pattern) with the drum 毛奇齡's
    reading strikes with it (○ 鼓, □ 鼙), and names the reading."""
    wav = tmp_path / "x.wav"
    code, out, err = cli("render", "lu", "--reading", "mao", "--bpm", "150", "-o", wav)
    assert code == 0, err
    assert "reading: 毛奇齡 (mao)" in out
    code, out, err = cli("check", wav, "lu", "--reading", "mao")
    assert code == 0, err
    assert "reading: 毛奇齡 (mao)" in out
    assert "missed     none" in out and "extra      none" in out and "wrong drum none" in out
    rows = [line.split() for line in out.splitlines() if line[:1].isdigit()]
    signs = [s.drum.symbol for s in resolve("lu").pattern.strokes]
    mao = {"○": "鼓", "□": "鼙"}
    assert [(r[1], r[2]) for r in rows] == [(sign, mao[sign]) for sign in signs]
    assert [(r[3], r[4]) for r in rows] == [(sign, mao[sign]) for sign in signs]
    data = checked(cli, wav, "lu", "--reading", "mao")
    assert data["reading"] == "mao" and data["missing"] == data["wrong"] == data["extra"] == []
    assert [s["expected"] for s in data["strokes"]] == signs
    assert [s["heard_drum"] for s in data["strokes"]] == [mao[sign] for sign in signs]
