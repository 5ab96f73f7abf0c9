"""drumscore play, end to end: a real PortAudio device (ALSA's file plugin), a pseudo-terminal for
the live display and for Ctrl-C, and the messages when PortAudio or a device is missing."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import mido
import numpy as np
import pytest
from alsa_capture import alsa_env, play_command, read_capture
from audio_checks import strokes
from cli_run import expect_error
from fake_audio import no_library
from virtual_time import play_on_virtual_time

from drumscore.cli import main
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.model import Drum, Reading
from drumscore.play import audio as playback
from drumscore.play import liveview, midiport
from drumscore.render.midimap import MidiMap
from drumscore.render.mix import render_audio
from drumscore.timing import Tempo

#: General MIDI 76, Hi Wood Block: the note the count strokes sound on.
HI_WOOD_BLOCK = 76


RATE = 44100
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def timeline(notation, interval, repeats=1):
    return arrange(resolve(notation), None, Tempo.from_interval(interval), repeats)


def spawn(args, env, **kwargs):
    pexpect = pytest.importorskip("pexpect")
    return pexpect.spawn(
        args[0], args[1:], env=env, encoding="utf-8", dimensions=(24, 100), timeout=30, **kwargs
    )


# --- a real device: what it receives is what render writes -----------------------------------


@pytest.mark.requires("portaudio")
def test_what_the_device_receives_is_the_rendered_audio(tmp_path):
    capture = tmp_path / "captured.raw"
    args = ("lu", "--interval", "0.2", "--repeat", "2")
    done = subprocess.run(
        play_command(*args),
        env=alsa_env(tmp_path / "home", capture),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    captured = read_capture(capture)
    t = timeline("lu", "0.2", 2)
    rendered = render_audio(t)

    heard, expected = strokes(captured, RATE), strokes(rendered, RATE)
    assert len(heard) == len(t)
    assert (
        [d for _, d in heard]
        == [d for _, d in expected]
        == [e.drum for e in Track.single(t).hits(44100)]
    )
    offset = heard[0][0] - expected[0][0]  # the device's buffer of silence before the first block
    assert offset >= 0
    assert [o - offset for o, _ in heard] == [o for o, _ in expected]
    # and sample for sample, after that silence
    assert np.allclose(captured[offset : offset + len(rendered)], rendered, atol=1e-6)
    assert not np.any(captured[:offset])

    lines = [ln for ln in done.stdout.splitlines() if re.match(r"\s+\d+\s", ln)]
    assert [ln.split()[3] for ln in lines] == [e.drum.symbol for e in Track.single(t).hits(44100)]


@pytest.mark.requires("portaudio")
def test_a_users_kit_is_what_the_device_plays(tmp_path):
    import soundfile as sf

    from drumscore.render.kit import load_kit

    t = np.arange(2000) / RATE
    for name, freq in (("p.wav", 900.0), ("g.wav", 200.0)):
        sf.write(str(tmp_path / name), 0.5 * np.sin(2 * np.pi * freq * t) * np.exp(-t / 0.01), RATE)
    kit = tmp_path / "kit.toml"
    kit.write_text("[pi]\nsamples = ['p.wav']\n[gu]\nsamples = ['g.wav']\n", encoding="utf-8")
    capture = tmp_path / "captured.raw"
    done = subprocess.run(
        play_command("○□○", "--interval", "0.2", "--kit", str(kit)),
        env=alsa_env(tmp_path / "home", capture),
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    captured = read_capture(capture)
    rendered = render_audio(timeline("○□○", "0.2", 1), load_kit(kit))

    def first_sound(x):
        return int(np.flatnonzero(np.abs(x[:, 0]) > 1e-6)[0])

    start = first_sound(captured) - first_sound(rendered)
    assert np.allclose(captured[start : start + len(rendered)], rendered, atol=1e-6)


@pytest.mark.requires("portaudio")
def test_list_devices_shows_the_alsa_device(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "drumscore", "play", "--list-devices"],
        env=alsa_env(tmp_path / "home", tmp_path / "unused.raw"),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "drumscore_capture" in done.stdout


@pytest.mark.requires("portaudio")
def test_an_unknown_device_exits_nonzero_naming_the_devices(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "drumscore", "play", "lu", "--device", "no such card"],
        env=alsa_env(tmp_path / "home", tmp_path / "unused.raw"),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=60,
    )
    assert done.returncode == 2
    assert "'no such card'" in done.stderr
    assert "drumscore_capture" in done.stderr
    assert "Traceback" not in done.stderr


# --- the live display in a terminal ----------------------------------------------------------


@pytest.mark.requires("portaudio")
def test_the_live_display_highlights_the_strokes_in_order(tmp_path):
    notation = "○□○○半□○□"
    env = alsa_env(tmp_path / "home", tmp_path / "captured.raw")
    child = spawn(play_command(notation, "--interval", "0.05", "--repeat", "2"), env)
    child.expect(pytest.importorskip("pexpect").EOF)
    out = child.before
    child.close()
    assert child.exitstatus == 0, out

    t = timeline(notation, "0.05", 2)
    n = len(t.strokes)
    shown = []
    for line in out.split(liveview.CLEAR_LINE):
        before, mark, after = line.partition(liveview.HIGHLIGHT)
        if not mark:
            continue
        index = sum(ANSI.sub("", before).count(s) for s in "○□")
        shown.append((index, after[0]))
        assert liveview.HALF_CELL in ANSI.sub("", line)
    assert shown == [(e.k % n, e.drum.symbol) for e in Track.single(t).hits(44100)]
    assert out.index(liveview.HIDE_CURSOR) < out.index(liveview.HIGHLIGHT)
    tail = out[out.rindex(liveview.HIGHLIGHT) :]
    assert liveview.SHOW_CURSOR in tail
    assert liveview.RESET in tail


@pytest.mark.requires("portaudio")
def test_ctrl_c_stops_a_loop_at_once_restoring_the_terminal_with_status_130(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = alsa_env(tmp_path / "home", "/dev/null")
    child = spawn(play_command("○□○半○□", "--interval", "0.05", "--loop"), env)
    child.expect("pass 3")
    child.sendintr()
    sent = time.monotonic()
    child.expect(pexpect.EOF)
    stopped = time.monotonic() - sent
    after = child.before
    child.close()
    assert child.signalstatus is None
    assert child.exitstatus == 130
    assert stopped < 2.0
    assert "Traceback" not in after
    assert "drumscore: interrupted" in after
    assert liveview.SHOW_CURSOR in after
    assert liveview.RESET in after
    # nothing is drawn over the restored terminal
    assert liveview.HIGHLIGHT not in after[after.rindex(liveview.SHOW_CURSOR) :]


# --- PortAudio or the device missing ---------------------------------------------------------


DOCS = Path(__file__).resolve().parents[2] / "docs" / "play.md"


def documented_status(situation: str) -> int:
    """The exit status that the table in docs/play.md's "Exit status" gives for `situation`."""
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Exit status") :].split("\n## ")[0]
    rows = re.findall(r"^\| (\d+) \| (.+) \|$", section, re.M)
    found = [int(status) for status, when in rows if situation in when]
    assert len(found) == 1, (situation, rows)
    return found[0]


def test_without_the_portaudio_library_play_says_what_to_install(monkeypatch, capsys):
    monkeypatch.setattr(playback.importlib, "import_module", no_library)
    with pytest.raises(SystemExit) as exited:
        main(["play", "lu"])
    assert exited.value.code == documented_status("the PortAudio library is missing")
    err = capsys.readouterr().err
    assert err.startswith("drumscore: error: ")
    assert len(err.strip().splitlines()) == 1
    assert "libportaudio2" in err
    assert "drumscore render" in err


def test_without_an_output_device_play_says_to_render(monkeypatch, capsys):
    class NoDevices:
        class PortAudioError(Exception):
            pass

        default = type("Default", (), {"device": [-1, -1]})()

        def query_devices(self, kind=None):
            if kind:
                raise self.PortAudioError("no default output device")
            return []

        def query_hostapis(self):
            return []

    monkeypatch.setattr(playback, "load_sounddevice", NoDevices)
    with pytest.raises(SystemExit) as exited:
        main(["play", "lu"])
    assert exited.value.code == documented_status("no output device")
    err = capsys.readouterr().err
    assert "no audio output device" in err
    assert "drumscore render" in err


def test_the_other_statuses_docs_give_are_those_play_returns(monkeypatch, tmp_path, capsys):
    import fake_audio

    fake_audio.PacedStream.capture = str(tmp_path / "captured.raw")
    monkeypatch.setattr(playback, "load_sounddevice", fake_audio.VirtualClockDevice)
    assert main(["play", "○□", "--interval", "0.05"]) == documented_status("played to the end")
    for bad in (["nosuchscore"], ["○X"], ["lu", "--bpm", "0"], ["lu", "--device", "nosuch"]):
        with pytest.raises(SystemExit) as exited:
            main(["play", *bad])
        assert exited.value.code == documented_status("bad input or usage"), bad
    assert "Traceback" not in capsys.readouterr().err


# --- MIDI output -----------------------------------------------------------------------------


class RecordingPort:
    name = "Test Synth"

    def __init__(self):
        self.sent: list[mido.Message] = []
        self.closed = False

    def send(self, message):
        self.sent.append(message)

    def close(self):
        self.closed = True


def test_midi_port_receives_each_stroke_with_its_note(monkeypatch, capsys):
    port = RecordingPort()
    monkeypatch.setattr(midiport, "open_port", lambda name: port)
    assert main(["play", "○□○半○□", "--interval", "0.05", "--midi-port", "synth"]) == 0
    ons = [m for m in port.sent if m.type == "note_on" and m.velocity > 0]
    midimap = MidiMap()
    t = timeline("○□○半○□", "0.05")
    assert [m.note for m in ons] == [midimap.note(e.drum) for e in Track.single(t).hits(44100)]
    assert all(m.channel == 9 for m in port.sent)
    assert port.closed
    assert "'Test Synth'" in capsys.readouterr().out


def test_list_ports_without_python_rtmidi_says_how_to_install_it(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "rtmidi", None)
    monkeypatch.delitem(sys.modules, "mido.backends.rtmidi", raising=False)
    with pytest.raises(SystemExit) as exited:
        main(["play", "--list-ports"])
    assert exited.value.code != 0
    assert "python-rtmidi" in capsys.readouterr().err


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["play"], "give a SCORE"),
        (["play", "--list-devices", "--list-ports"], "one at a time"),
        (
            ["play", "lu", "--midi-port", "x", "--kit", "k"],
            "--kit 'k' only applies with audio playback",
        ),
        (
            ["play", "lu", "--midi-port", "x", "--humanize", "5"],
            "--humanize '5' only applies with audio playback",
        ),
        (["play", "lu", "--humanize", "500"], "--humanize takes milliseconds"),
        (["play", "lu", "--list-devices"], "leave out the score 'lu'"),
        (["play", "lu", "--midi-notes", "45,41"], "--midi-port"),
        (["play", "no-such-score"], "'no-such-score'"),
        (["play", "lu", "--bpm", "0"], "--bpm"),
    ],
)
def test_bad_options_are_one_line_errors(argv, needle, capsys):
    assert needle in expect_error(argv, capsys)


def test_play_minus_one_with_clicks_on_a_midi_port(monkeypatch, capsys):
    """--only gu: the ○ strokes are shown and counted as played but not sent; --click 1 sends
    the count note on every stroke."""

    port = RecordingPort()
    monkeypatch.setattr(midiport, "open_port", lambda name: port)
    argv = ["play", "○□○", "--interval", "0.05", "--midi-port", "synth", "--only", "gu"]
    assert main([*argv, "--click", "1"]) == 0
    ons = [m.note for m in port.sent if m.type == "note_on" and m.velocity > 0]
    assert ons == [HI_WOOD_BLOCK, MidiMap().note(Drum.GU), HI_WOOD_BLOCK, HI_WOOD_BLOCK]
    out = capsys.readouterr().out
    assert "only 鼓" in out and "played 3 strokes" in out


def test_play_says_what_it_plays_in_simplified_chinese(monkeypatch, capsys):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.setattr(midiport, "open_port", lambda name: RecordingPort())
    argv = ["play", "○□○", "--interval", "0.05", "--count-in", "2", "--midi-port", "synth"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    first, last = lines[0], lines[-1]
    assert first.startswith("在「Test Synth」MIDI 端口上演奏自定鼓谱 ")
    assert "：2 下预备拍后 3 击，每分钟 1200 击（相隔 0.05 秒）" in first
    assert last == "已演奏 3 击"


# --- play --check: e-drum pads on a MIDI input port, through a mido test backend ---------------

PADS = "E-drum pads"
SYNTH = "Fake synth"
ALONG = "○□○○□半○□□○○□"  # 11 strokes


def played_along(drums, interval, offsets_ms, *, start=0.01, missed=(), wrong=(), extra=()):
    """The pads' notes, (seconds after the first stroke sounds, note, velocity): stroke k at start +
    k × interval + its offset, `missed` left out, `wrong` on the other drum, `extra` (beat,
    drum) added; and the beat of each stroke played."""
    midimap = MidiMap()
    other = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}
    notes = []
    for k, drum in enumerate(drums):
        if k in missed:
            continue
        played = other[drum] if k in wrong else drum
        notes.append((start + k * interval + offsets_ms[k] / 1000, midimap.note(played), 100))
    notes += [(start + beat * interval, midimap.note(drum), 100) for beat, drum in extra]
    return sorted(notes)


def delivered_offsets(port, beats):
    """Each stroke's offset (ms) from the least-squares even beat through the times the test
    port delivered its notes (on the virtual clock: exactly the times played), and that beat's
    tempo (strokes a minute)."""
    times = np.array([t for t, _ in port.delivered])
    chosen = times[[i for i, _ in beats]]
    slope, start = np.polyfit([k for _, k in beats], chosen, 1)
    offsets = {k: (t - (start + slope * k)) * 1000 for (_, k), t in zip(beats, chosen, strict=True)}
    return offsets, 60 / slope


def pads_port():
    import fake_midi_backend

    return next(p for p in fake_midi_backend.opened if isinstance(p, fake_midi_backend.Input))


def test_play_check_recovers_the_offsets_and_names_missed_extra_and_wrong(
    fake_midi, cli, monkeypatch
):
    play_on_virtual_time(monkeypatch)
    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    offsets = [-0.7, 12.7, -11.2, 0.0, -5.7, -2.1, 10.3, -2.0, 2.5, -12.9, 9.1]
    notes = played_along(drums, 0.2, offsets, missed={3}, wrong={6}, extra=[(8.5, Drum.PI)])
    fake_midi(inputs=[PADS], outputs=[SYNTH], notes=notes, follow=True)
    code, out, err = cli(
        "play",
        ALONG,
        "--bpm",
        "300",
        "--midi-port",
        "synth",
        "--check",
        "--midi-in",
        "pads",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert data["missing"] == [4]
    assert data["wrong"] == [7]
    assert [(e["after"], e["heard"]) for e in data["extra"]] == [(9, "○")]
    assert data["performance"]["file"] == f"MIDI input {PADS!r}"
    port = pads_port()
    # on the virtual clock every note arrives exactly when played
    assert [t for t, _m in port.delivered] == [n[0] for n in notes]
    heard = [k for k in range(len(drums)) if k != 3]
    order = sorted(range(len(notes)), key=lambda i: notes[i][0])
    # the delivered notes in time order; the extra one (at 8.5 beats) is the 9th
    strokes_at = [i for i in order if notes[i][0] != pytest.approx(0.01 + 8.5 * 0.2)]
    beats = list(zip(strokes_at, heard, strict=True))
    truth, tempo = delivered_offsets(port, beats)
    found = {s["index"] - 1: s["offset_ms"] for s in data["strokes"] if s["offset_ms"] is not None}
    assert set(found) == set(heard)
    for k in heard:  # exact, to the report's thousandth of a millisecond
        assert found[k] == pytest.approx(truth[k], abs=0.0005 + 1e-9), k
    assert data["tempo_bpm"] == pytest.approx(tempo, abs=0.00005 + 1e-9)


def test_play_check_with_only_checks_the_other_drum_and_prints_the_report(
    fake_midi, cli, monkeypatch
):
    """--only 鼙 sounds ○; the pads play □ alone, and only □ strokes are checked."""
    play_on_virtual_time(monkeypatch)
    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    offsets = [0.0, 3.1, 0.0, 0.0, -4.4, 2.6, 0.0, -1.3, 5.2, 0.0, 0.0]
    gu = [k for k, d in enumerate(drums) if d is Drum.GU]
    notes = played_along(drums, 0.2, offsets, missed={k for k in range(len(drums)) if k not in gu})
    fake_midi(inputs=[PADS], outputs=[SYNTH], notes=notes, follow=True)
    code, out, err = cli(
        "play",
        ALONG,
        "--bpm",
        "300",
        "--midi-port",
        "synth",
        "--only",
        "pi",
        "--check",
        "--midi-in",
        PADS,
        "-q",
    )
    assert code == 0, err
    assert "missed     none" in out
    assert "wrong drum none" in out
    rows = [line.split() for line in out.splitlines() if re.match(r"^\d+\s", line)]
    assert [int(r[0]) - 1 for r in rows] == gu
    truth, _tempo = delivered_offsets(pads_port(), list(enumerate(gu)))
    for r in rows:  # "+0.3 ms": the offset (ms) from the beat through the notes, to a tenth
        assert float(r[-2].replace("\u2212", "-")) == pytest.approx(
            truth[int(r[0]) - 1], abs=0.05 + 1e-9
        ), r


@pytest.mark.parametrize("reading", ["zheng", "mao"])
def test_play_check_of_a_perfect_take_with_a_count_in_before_every_pass_finds_no_fault(
    fake_midi, cli, monkeypatch, reading
):
    """--count-in 2 --count-in-each --repeat 2: the pads play every stroke on its beat as the
    conductor lays it out (pass 2 after its own count-in), and the check finds no fault; the
    report shows each stroke's sign as printed with the drum the reading strikes."""
    play_on_virtual_time(monkeypatch)
    interval = 0.2
    # beats from the first count stroke (the first note sounded): 2 counts, 11 strokes, 2, 11
    beats = [*range(2, 13), *range(15, 26)]
    read = Reading.parse(reading)
    strokes = resolve(ALONG).pattern.strokes
    drums = [read.drum(s) for s in strokes] * 2
    midimap = MidiMap()
    notes = [(b * interval, midimap.note(d), 100) for b, d in zip(beats, drums, strict=True)]
    fake_midi(inputs=[PADS], outputs=[SYNTH], notes=notes, follow=True)
    argv = ("play", ALONG, "--bpm", "300", "--midi-port", "synth", "--reading", reading)
    practice = ("--count-in", "2", "--count-in-each", "--repeat", "2")
    code, out, err = cli(*argv, *practice, "--check", "--midi-in", "pads", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["missing"] == [] and data["wrong"] == [] and data["extra"] == []
    assert len(data["strokes"]) == 22
    assert max(abs(s["offset_ms"]) for s in data["strokes"]) < 0.01
    assert data["reading"] == reading
    printed = [s.drum.symbol for s in strokes] * 2
    assert [s["expected"] for s in data["strokes"]] == printed
    assert [s["expected_drum"] for s in data["strokes"]] == [d.value for d in drums]


def test_play_check_stopped_by_ctrl_c_reports_the_strokes_played_until_then(
    fake_midi, cli, monkeypatch
):
    clock = play_on_virtual_time(monkeypatch)
    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    offsets = [1.5, -2.5, 0.0, 4.0, -3.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0]
    notes = played_along(drums, 0.2, offsets)
    fake_midi(inputs=[PADS], outputs=[SYNTH], notes=notes, follow=True, interrupt_at=7)
    code, out, err = cli(
        "play",
        ALONG,
        "--bpm",
        "300",
        "--midi-port",
        "synth",
        "--check",
        "--midi-in",
        "pads",
        "--json",
    )
    assert code == 0, err
    data = json.loads(out)
    assert [s["index"] for s in data["strokes"]] == list(range(1, 7))  # the 7th never sounded
    assert data["missing"] == [] and data["wrong"] == []
    # stopped as the 7th stroke was to sound, 6 beats after the first: the pads' notes up to
    # then were heard, none after
    assert clock() == pytest.approx(6 * 0.2, abs=1e-9)
    truth, tempo = delivered_offsets(pads_port(), [(k, k) for k in range(6)])
    for s in data["strokes"]:
        assert s["offset_ms"] == pytest.approx(truth[s["index"] - 1], abs=0.0005 + 1e-9)
    assert data["tempo_bpm"] == pytest.approx(tempo, abs=0.00005 + 1e-9)


def test_play_check_without_a_note_from_the_pads_says_so(fake_midi, cli):
    fake_midi(inputs=[PADS], outputs=[SYNTH], notes=[])
    code, _, err = cli(
        "play", "○□", "--bpm", "600", "--midi-port", "synth", "--check", "--midi-in", "pads"
    )
    assert code == 2
    assert f"no note arrived on MIDI input {PADS!r}" in err
    assert "Traceback" not in err


def test_play_check_on_an_unknown_input_port_lists_the_ports(fake_midi, capsys):
    fake_midi(inputs=[PADS, "Keyboard"], outputs=[SYNTH])
    err = expect_error(
        ["play", "○□", "--midi-port", "synth", "--check", "--midi-in", "roland"], capsys
    )
    assert "--midi-in 'roland'" in err
    assert f"{PADS!r}" in err and "'Keyboard'" in err


def test_play_check_with_no_input_port_at_all_says_what_to_connect(fake_midi, cli):
    fake_midi(inputs=[], outputs=[SYNTH])
    code, _, err = cli("play", "○□", "--midi-port", "synth", "--check", "--midi-in", "pads")
    assert code == 1
    assert "there are no MIDI input ports" in err and "e-drum pads" in err


def test_list_ports_shows_the_input_ports_too(fake_midi, cli):
    fake_midi(inputs=[PADS], outputs=[SYNTH])
    code, out, _ = cli("play", "--list-ports")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == SYNTH
    assert lines[-1].strip() == PADS


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--check"], f"give --midi-in NAME (the ports: {PADS!r})"),
        (["--midi-in", "pads"], "--midi-in 'pads' only applies with --check"),
        (["--json"], "--json only applies with --check"),
        (["--check", "--midi-in", "pads", "--ramp", "40:60:5"], "leave out one of them"),
        (["--check", "--midi-in", "pads", "--plot", "x.gif"], "use one of: .png .svg"),
        (["--check", "--midi-in", "pads", "--midi-in-notes", "40,40"], "--midi-in-notes '40,40'"),
    ],
)
def test_play_check_bad_options(argv, needle, fake_midi, capsys):
    fake_midi(inputs=[PADS], outputs=[SYNTH])
    assert needle in expect_error(["play", "○□", "--midi-port", "synth", *argv], capsys)
