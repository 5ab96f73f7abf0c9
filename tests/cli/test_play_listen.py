"""drumscore play --listen: drums played along, heard through an audio input (here a recorded
take delivered at its own pace, on a virtual clock) while the score plays, each stroke shown as
it is heard, and check's own report at the end."""

import contextlib
import json
import re

import numpy as np
import pytest
import soundfile as sf
from performances import take, write_audio
from virtual_time import play_on_virtual_time

from drumscore.cli.commands import play as play_command
from drumscore.corpus import resolve

SYNTH = "Fake synth"
ALONG = "○□○○□半○□□○○□"  # 11 strokes
BPM = 200


def listening_on_virtual_time(monkeypatch):
    """The MIDI player and the audio listener of `play` timed on one VirtualClock: the take is
    heard exactly as fast as the score plays, however busy the machine."""
    clock = play_on_virtual_time(monkeypatch)
    made = play_command.AudioListener

    class Timed(made):  # type: ignore[misc,valid-type]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, clock=clock, sleep=clock.wait, **kwargs)

    monkeypatch.setattr(play_command, "AudioListener", Timed)
    return clock


@pytest.fixture
def faulty_take(tmp_path):
    """A take of ALONG at BPM with stroke 4 missed and stroke 7 on the other drum."""
    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    t = take(drums, BPM, seed=5, spread_ms=15, missed=[3], wrong=[6])
    t.start = 0.05
    return write_audio(tmp_path / "take.wav", t)


def test_play_listen_json_is_checks_json_on_the_same_take(fake_midi, cli, monkeypatch, faulty_take):
    listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    code, checked, err = cli("check", faulty_take, ALONG, "--bpm", BPM, "--json")
    assert code == 0, err
    code, out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", faulty_take,
        "--json",
    )  # fmt: skip
    assert code == 0, err
    heard, expected = json.loads(out), json.loads(checked)
    assert heard["missing"] == expected["missing"] == [4]
    assert heard["wrong"] == expected["wrong"] == [7]
    assert heard == expected  # the same strokes, drums, offsets and faults, to the digit


def test_each_stroke_is_shown_as_it_is_heard_then_checks_report(
    fake_midi, cli, monkeypatch, faulty_take
):
    listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    code, out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", faulty_take,
    )  # fmt: skip
    assert code == 0, err
    lines = out.splitlines()
    assert "listening to the take" in lines[0]
    heard = [line for line in lines if re.match(r"stroke \d+", line)]
    numbers = [int(re.match(r"stroke (\d+)", line)[1]) for line in heard]
    # every stroke of the score once, in order: the missed one said missed, the wrong one wrong
    assert sorted(numbers) == list(range(1, 12)), out
    assert "stroke 4 (鼙) missed" in heard
    assert any(line.startswith("stroke 7: 鼙 where the score has 鼓") for line in heard)
    # the offsets shown, from the performer's own beat, are near check's (its fitted beat)
    report = out[out.index("stroke  expected") :]
    offsets = {}
    for line in heard:
        m = re.match(r"stroke (\d+): .* ([+-]\d+) ms$", line)
        if m:
            offsets[int(m[1])] = int(m[2])
    checked = {
        int(m[1]): float(m[2].replace("−", "-"))
        for m in re.finditer(r"^(\d+)\s.*?([+−]\d+\.\d) ms", report, re.M)
    }
    assert set(offsets) == set(checked) and len(offsets) == 10, out
    assert max(abs(offsets[k] - checked[k]) for k in offsets) < 12
    # and the report is check's: the fitted tempo, the faults
    assert "missed     4 ○ 鼙" in out
    assert "wrong drum 7 (□ 鼓 expected, ○ 鼙 heard)" in out


def test_the_take_heard_is_kept_whole_and_checks_as_the_take(
    fake_midi, cli, monkeypatch, faulty_take, tmp_path
):
    listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    kept = tmp_path / "kept.wav"
    argv = ["play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", faulty_take]
    code, out, err = cli(*argv, "--record", kept)
    assert code == 0, err
    assert f"wrote {kept}" in out
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]
    original = sf.info(faulty_take)
    assert (sf.info(kept).frames, sf.info(kept).channels) == (original.frames, 1)
    # the mono samples the listener heard, to the bit: check finds the same strokes in it
    mono = sf.read(faulty_take, dtype="float32")[0].mean(axis=1)
    assert np.max(np.abs(sf.read(kept, dtype="float32")[0] - mono)) < 1e-6
    _code, of_take, _err = cli("check", faulty_take, ALONG, "--bpm", BPM, "--json")
    _code, of_kept, _err = cli("check", kept, ALONG, "--bpm", BPM, "--json")
    strokes = [(s["heard"], s["offset_ms"]) for s in json.loads(of_take)["strokes"]]
    assert [(s["heard"], s["offset_ms"]) for s in json.loads(of_kept)["strokes"]] == strokes
    # a second run does not write over it without --force
    code, _out, err = cli(*argv, "--record", kept)
    assert code == 2 and "--record" in err and "--force" in err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--listen"], "--listen hears the drums through an audio input: give --input"),
        (["--input", "take.wav"], "--input"),
        (["--record", "take.wav"], "--record"),
        (["--listen", "--input", "take.wav", "--record", "take.mp4"], "--record"),
        (["--listen", "--check", "--input", "take.wav"], "give one of them"),
        (["--listen", "--input", "take.wav", "--ramp", "2"], "--listen fits one even beat"),
    ],
)
def test_bad_listen_options_are_one_line(expect_error, argv, said):
    err = expect_error("play", ALONG, *argv)
    assert said in err


def test_a_take_that_cannot_be_read_is_one_line(expect_error, tmp_path):
    (tmp_path / "take.wav").write_bytes(b"not a recording")
    err = expect_error("play", ALONG, "--listen", "--input", tmp_path / "take.wav")
    assert "cannot be read as audio" in err and "take.wav" in err


def test_silence_says_there_is_nothing_to_check(fake_midi, cli, monkeypatch, tmp_path):
    listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    sf.write(tmp_path / "quiet.wav", np.zeros(44100 * 5, np.float32), 44100)
    code, _out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input",
        tmp_path / "quiet.wav",
    )  # fmt: skip
    assert code == 2
    assert "holds no strokes" in err and "Traceback" not in err


class FakeMicrophone:
    """Enough of sounddevice for one PortAudio input that plays `take` (mono samples) into its
    stream's callback a block at a time, each block when its time has passed on `clock`, as a
    sound card delivers what its microphone heard (or `pace` times as fast: a file read as fast
    as it is asked)."""

    class PortAudioError(Exception):
        pass

    def __init__(self, take, rate, clock, pace=1.0):
        import types

        self.take, self.rate, self.clock, self.pace = take, rate, clock, pace
        self.default = types.SimpleNamespace(device=[0, -1])
        self.opened = []
        mic = self

        class InputStream:
            def __init__(self, device, samplerate, blocksize, dtype, callback):
                assert (device, samplerate, dtype) == (0, mic.rate, "float32")
                self.callback, self.blocksize = callback, blocksize
                mic.opened.append(self)

            def start(self):
                t0 = mic.clock()
                for at in range(0, len(mic.take), self.blocksize):
                    block = mic.take[at : at + self.blocksize, None]
                    due = t0 + (at + len(block)) / mic.rate / mic.pace
                    mic.clock.at(due, lambda b=block: self.callback(b, len(b), None, None))

            def stop(self):
                pass

            def close(self):
                pass

        self.InputStream = InputStream

    def query_devices(self, kind=None):
        return [
            {
                "index": 0,
                "name": "Fake microphone",
                "hostapi": 0,
                "max_input_channels": 1,
                "max_output_channels": 0,
                "default_samplerate": float(self.rate),
            }
        ]

    def query_hostapis(self):
        return [{"name": "test"}]


def test_a_microphone_is_heard_as_check_hears_its_take(fake_midi, cli, monkeypatch, faulty_take):
    from drumscore.play import audio

    clock = listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    samples, rate = sf.read(faulty_take, dtype="float32")
    mic = FakeMicrophone(samples.mean(axis=1).astype(np.float32), rate, clock)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: mic)
    code, checked, err = cli("check", faulty_take, ALONG, "--bpm", BPM, "--json")
    assert code == 0, err
    code, out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", "microphone",
    )  # fmt: skip
    assert code == 0, err
    assert len(mic.opened) == 1
    assert "listening to audio input 'Fake microphone'" in out
    assert "stroke 4 (鼙) missed" in out.splitlines()
    # no round trip measured from a MIDI synthesiser: timed against the performer's own strokes
    assert "no round trip measured from the MIDI port to 'Fake microphone'" in out
    code, out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", "0", "--json",
    )  # fmt: skip
    heard, expected = json.loads(out), json.loads(checked)
    assert heard["performance"]["file"] == "Fake microphone"
    # the microphone heard what is left of the take when the score ends (not its silent tail)
    heard["performance"].pop("file"), expected["performance"].pop("file")
    heard["performance"].pop("duration_s", None), expected["performance"].pop("duration_s", None)
    assert heard == expected


def test_an_input_faster_than_time_is_refused_not_followed(fake_midi, cli, monkeypatch):
    """A file read as fast as it is asked (ALSA's file plugin on a null device) gives a minute of
    sound in a blink: listening to it would never catch up. Play stops at once and says so."""
    from drumscore.play import audio

    clock = listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    mic = FakeMicrophone(np.zeros(44100 * 60, np.float32), 44100, clock, pace=1000)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: mic)
    code, _out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", "0", "--json",
    )  # fmt: skip
    assert code == 1, err
    assert "--input 'Fake microphone': it gave" in err and "faster than time passes" in err
    assert "Traceback" not in err
    assert clock.now < 10 * 60 / BPM  # long before the score's end (11 strokes: 3 s)


@pytest.mark.requires("portaudio")
def test_alsas_file_device_as_the_input_is_refused_at_once(tmp_path):
    """ALSA's `file` plugin reading /dev/zero, on its `null` slave: a PortAudio input that gives
    sound as fast as it is read. play stops at once and says so (it followed it for ever)."""
    import subprocess

    from alsa_capture import DEVICE, alsa_env, play_command

    done = subprocess.run(
        play_command("lu", "--section", "touhu", "--listen", "--input", DEVICE, "--json"),
        env=alsa_env(tmp_path / "home", tmp_path / "out.raw", infile="/dev/zero"),
        capture_output=True, text=True, encoding="utf-8", timeout=120,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    assert f"--input '{DEVICE}': it gave" in done.stderr and "faster than time" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""


def test_an_input_that_gives_nothing_ends_with_the_score(fake_midi, cli, monkeypatch):
    from drumscore.play import audio

    clock = listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    mic = FakeMicrophone(np.zeros(0, np.float32), 44100, clock)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: mic)
    code, _out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", "0", "--json",
    )  # fmt: skip
    assert code == 2 and "holds no strokes" in err, err
    beat = 60 / BPM
    assert 10 * beat <= clock.now <= 11 * beat + 0.1  # the last stroke, and a beat to hear it


def test_the_inputs_are_listed_for_listen(cli, monkeypatch):
    from drumscore.play import audio

    mic = FakeMicrophone(np.zeros(10, np.float32), 48000, None)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: mic)
    code, out, _err = cli("play", "--list-devices")
    assert code == 0
    assert "audio inputs (for --listen --input):" in out
    assert re.search(r"\*\s+0\s+Fake microphone\s+test", out)


# --- a capture device paced like a microphone: a take played into JACK ---------------------------

#: drumscore's own main in a child, the take started (a newline to sndfile-jackplay, on the file
#: descriptor TAKE_FD) the moment playback begins: a performer playing along from the first beat.
#: The score is played on the capture device's own clock, the frames it has delivered: JACK's
#: dummy driver, woken late on a busy machine, skips the time it overslept (its sound is late,
#: none of it lost), and the score waits for it as it would for a sound card's.
PERFORMER = """
import os, sys, threading
import drumscore.play.listening as listening
from drumscore.cli.commands import play
from drumscore.play import midiport

class DeviceClock:
    def __init__(self):
        self.frames, self.rate, self.moved = 0, 0, threading.Condition()
    def __call__(self):
        with self.moved:
            return self.frames / self.rate if self.rate else 0.0
    def wait(self, seconds=None):
        until = self() + (seconds or 0.0)
        with self.moved:
            self.moved.wait_for(lambda: self.rate and self.frames >= until * self.rate, 1.0)
        return False
    def set(self):
        pass
    def clear(self):
        pass

clock = DeviceClock()
arrived = listening.DeviceInput._arrived
def counted(self, data, frames, when, status):
    arrived(self, data, frames, when, status)
    with clock.moved:
        clock.rate, clock.frames = self.rate, clock.frames + frames
        clock.moved.notify_all()
listening.DeviceInput._arrived = counted

class Listener(play.AudioListener):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, clock=clock, sleep=clock.wait, **kwargs)
    def begin(self, early=0.0):
        super().begin(early)
        os.write(int(os.environ["TAKE_FD"]), b"\\n")
play.AudioListener = Listener

class Player(midiport.MidiPlayer):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, clock=clock, **kwargs)
        self._wake = clock
midiport.MidiPlayer = Player

from drumscore.cli import main
sys.exit(main(sys.argv[1:]))
"""


#: Where JACK keeps what a server shares with its clients (jackd2 has it built in: no
#: environment moves it): each server's sockets and semaphores, named for it; the segments of
#: shared memory; and the registry of servers (eight slots, one freed only by a server of the
#: same name) and of segments.
JACK_SHM = "/dev/shm"


def _jack_registry(edit):
    """Call edit(shared, servers, segments) on JACK's registry, mapped (shared), with the
    offsets of its servers' slots (a pid, a name) and of its segments' entries (an index, the
    pid that allocated it, a size, a name): ranges whose step is the length of one."""
    import mmap
    import struct
    from pathlib import Path

    with (
        (Path(JACK_SHM) / "jack-shm-registry").open("r+b") as file,
        mmap.mmap(file.fileno(), 0) as shared,
    ):
        _magic, _protocol, _type, size, header, entry = struct.unpack_from("<IH2xIiii", shared)
        edit(shared, range(24, header, (header - 24) // 8), range(header, size, entry))


def _jack_files(name):
    """The sockets and semaphores of the JACK server `name`."""
    from pathlib import Path

    shm = Path(JACK_SHM)
    return [*shm.glob(f"jack_{name}_*"), *shm.glob(f"jack_sem.*_{name}_*")]


def _jack_leftovers(name, pid):
    """What the JACK server `name`, process `pid`, left: its files, its slot in the registry,
    the entries of the segments it allocated."""
    import struct

    left = [str(path) for path in _jack_files(name)]

    def find(shared, servers, segments):
        owned = [*servers, *(at + 4 for at in segments)]
        left.extend(
            f"registry at {at}" for at in owned if struct.unpack_from("<i", shared, at)[0] == pid
        )

    _jack_registry(find)
    return left


def _forget_jack_server(name, pid):
    """Remove what a JACK server killed (not let stop) leaves: its files and, in the registry,
    its slot and the segments it allocated (unlinked)."""
    import struct
    from pathlib import Path

    for path in _jack_files(name):
        path.unlink(missing_ok=True)

    def forget(shared, servers, segments):
        mine = f":{name}:".encode()
        for at in servers:
            if (
                struct.unpack_from("<i", shared, at)[0] == pid
                and mine in shared[at : at + servers.step]
            ):
                shared[at : at + servers.step] = bytes(servers.step)
        for at in segments:
            if struct.unpack_from("<i", shared, at + 4)[0] == pid:
                segment = shared[at + 12 : at + segments.step].split(b"\0")[0].decode()
                (Path(JACK_SHM) / segment.lstrip("/")).unlink(missing_ok=True)
                shared[at + 4 : at + segments.step] = bytes(segments.step - 4)

    _jack_registry(forget)


@contextlib.contextmanager
def _jack_server(log):
    """A JACK server of its own (its own name, on the dummy driver: paced by a timer at
    48 kHz, 1024 frames a period, no sound card), stopped when done (killed if it does not
    stop), leaving nothing behind; the environment that reaches it, and its process.
    Synchronous: a client late for a period (a busy machine) holds the period back rather than
    losing its sound; and one is not cut off for being late unless by 5 s."""
    import os
    import subprocess
    import uuid

    name = f"drumscore-{uuid.uuid4().hex[:12]}"
    env = dict(
        os.environ,
        JACK_DEFAULT_SERVER=name,
        JACK_NO_START_SERVER="1",
        JACK_NO_AUDIO_RESERVATION="1",
    )
    with log.open("wb") as out:
        server = subprocess.Popen(
            ["jackd", "--no-realtime", "--sync", "--timeout", "5000",
             "-d", "dummy", "-r", "48000", "-p", "1024"],
            env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        up = subprocess.run(["jack_wait", "-w", "-t", "10"], env=env, capture_output=True)
        assert up.returncode == 0, log.read_text(errors="replace")
        yield env, server
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:  # a server still waiting on a client gone
            server.kill()
            server.wait()
        _forget_jack_server(name, server.pid)
    assert not _jack_leftovers(name, server.pid)


@pytest.fixture
def jack_server(tmp_path):
    """A JACK server of the test's own, stopped after it, leaving nothing behind."""
    with _jack_server(tmp_path / "jackd.log") as (env, _server):
        yield env


@pytest.mark.requires("jackd")
def test_a_jack_server_killed_leaves_nothing_behind(tmp_path):
    """A server killed (as one that does not stop is) leaves its sockets, its semaphores and
    its slot in JACK's registry (eight, for all servers) behind it: they are removed."""
    with _jack_server(tmp_path / "jackd.log") as (env, server):
        server.kill()
        server.wait()
        assert _jack_leftovers(env["JACK_DEFAULT_SERVER"], server.pid)
    assert not _jack_leftovers(env["JACK_DEFAULT_SERVER"], server.pid)


def _until(test, seconds=10.0):
    import time

    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


@pytest.mark.requires("jackd", "sndfile-jackplay", "portaudio")
def test_a_take_played_into_a_capture_device_is_heard_as_check_hears_it(
    jack_server, fake_midi, cli, tmp_path
):
    """A real capture device, paced as a microphone is (JACK's dummy driver runs on a timer):
    sndfile-jackplay plays the take from its ports from the moment playback begins, PortAudio
    lists it as an audio input, and play --listen --input hears on it what check reads in the
    take, on the score's clock: the same strokes, drums and faults, each stroke late by one
    and the same latency (JACK's period and PortAudio's buffer), so each offset from the even
    beat within a millisecond of check's."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    t = take(drums, BPM, seed=5, spread_ms=15, missed=[3], wrong=[6])
    t.start = 0.05
    recording = write_audio(tmp_path / "take.wav", t, 48000)  # JACK's rate: played as it is
    # a stroke more in the score than in the take (missed by both): play listens a beat
    # longer, so the take, started by sndfile-jackplay a few periods after playback began
    # (later on a busy machine), is heard to its last stroke before play stops listening
    score = ALONG + "○"
    fake_midi(outputs=[SYNTH])
    root = Path(__file__).resolve().parents[2]
    env = dict(
        jack_server,
        **{k: os.environ[k] for k in ("FAKE_MIDI", "MIDO_BACKEND")},
        PYTHONPATH=os.pathsep.join([str(root), str(root / "tests")]),
    )
    player = subprocess.Popen(
        ["sndfile-jackplay", "--wait", str(recording)],
        env=env, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        ports = ["jack_lsp"]
        _until(
            lambda: (
                "jackplay:out_1"
                in subprocess.run(ports, env=env, capture_output=True).stdout.decode()
            )
        )
        listed = subprocess.run(
            [sys.executable, "-m", "drumscore", "play", "--list-devices"],
            env=env, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        inputs = listed.stdout[listed.stdout.index("audio inputs (for --listen --input):") :]
        assert re.search(r"\d+\s+jackplay\s+JACK Audio Connection Kit", inputs), listed.stdout
        assert player.stdin is not None
        fd = player.stdin.fileno()
        argv = ["play", score, "--bpm", str(BPM), "--midi-port", "synth", "--listen", "--input",
                "jackplay", "--json"]  # fmt: skip
        played = subprocess.run(
            [sys.executable, "-c", PERFORMER, *argv],
            env=dict(env, TAKE_FD=str(fd)), pass_fds=(fd,), capture_output=True, text=True,
            timeout=60,
        )  # fmt: skip
    finally:
        # the take played to its end (what play did not hear of it is its tail): a JACK client
        # killed while it plays holds its server's stopping back for seconds
        assert player.stdin is not None
        player.stdin.close()  # not started by play: started now
        try:
            player.wait(30)
        except subprocess.TimeoutExpired:
            player.kill()
            player.wait()
    assert played.returncode == 0, played.stderr
    code, checked, err = cli("check", recording, score, "--bpm", BPM, "--json")
    assert code == 0, err
    heard, expected = json.loads(played.stdout), json.loads(checked)
    assert heard["performance"]["file"] == "jackplay"
    assert heard["performance"]["strokes"] == expected["performance"]["strokes"] == 10
    assert heard["missing"] == expected["missing"] == [4, 12]
    assert heard["wrong"] == expected["wrong"] == [7]
    assert heard["extra"] == expected["extra"] == []
    fields = ("stroke", "expected", "heard", "heard_drum", "wrong", "doubtful", "flam")
    assert [[s[f] for f in fields] for s in heard["strokes"]] == [
        [s[f] for f in fields] for s in expected["strokes"]
    ]
    pairs = [
        (h, e) for h, e in zip(heard["strokes"], expected["strokes"], strict=True) if e["time_s"]
    ]
    assert max(abs(h["offset_ms"] - e["offset_ms"]) for h, e in pairs) < 1.0
    # on the score's clock: each stroke late by the device's one latency
    late = [h["time_s"] - e["time_s"] for h, e in pairs]
    assert min(late) >= 0 and max(late) < 0.1, late
    assert max(late) - min(late) < 0.001, late
    assert abs(heard["tempo_bpm"] - expected["tempo_bpm"]) < 0.1


def test_each_line_is_shown_as_soon_as_the_take_lets_the_listener_tell_it(
    fake_midi, cli, monkeypatch, faulty_take
):
    """play --listen wakes when the listener's next look has its sound (AudioListener.due), not
    on a fixed poll: each stroke's line is shown at the moment the block of the take that lets
    it be told arrives, and the loop wakes about once a look, not every few milliseconds."""
    from drumscore.play import judging, listening

    clock = listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    told: list[tuple[float, float]] = []  # (when told, when the block that let it be arrived)
    looks: list[tuple[int, int]] = []  # (samples looked at, a look's step) at each wake
    catch_up = listening.AudioListener.catch_up

    def timed(self):
        new = catch_up(self)
        looks.append((self.listener.probed, self.listener.step))
        for h in new:
            block = -(-h.heard_at // listening.BLOCK) * listening.BLOCK
            told.append((clock(), self.start + block / self.input.rate))
        return new

    shown: list[float] = []  # when each stroke's line was given the display
    given_lines: list[str] = []
    lines = judging.HeardLines.__call__

    def given(self, hit, final=False):
        out = lines(self, hit, final)
        shown.extend(clock() for line in out[len(given_lines) :] if "missed" not in line)
        given_lines[:] = out
        return out

    monkeypatch.setattr(listening.AudioListener, "catch_up", timed)
    monkeypatch.setattr(judging.HeardLines, "__call__", given)
    code, _out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", faulty_take,
    )  # fmt: skip
    assert code == 0, err
    assert len(told) == 10  # the strokes played, each told once
    for at, arrived in told:  # told as the block that let it be arrived
        assert arrived <= at <= arrived + listening.DUE_SLACK + 1e-9
    assert shown == [at for at, _arrived in told]  # ...and its line shown then
    # a wake for each look (every STEP_SECONDS of sound), and for little else
    probed, step = looks[-1]
    assert len(looks) < 1.2 * probed / step


@pytest.mark.timeout(60)
def test_a_take_shorter_than_the_score_is_listened_to_the_scores_end(
    fake_midi, cli, monkeypatch, faulty_take, tmp_path
):
    """A recorded take that ends before the score: play goes on listening, a look every
    LISTEN_POLL (as for a microphone that gives nothing), to the score's end; it neither waits
    on sound that will not come nor looks again and again at once."""
    from drumscore.play import listening

    clock = listening_on_virtual_time(monkeypatch)
    fake_midi(outputs=[SYNTH])
    samples, rate = sf.read(faulty_take, dtype="float32")
    short = tmp_path / "short.wav"
    sf.write(short, samples[:rate], rate, subtype="FLOAT")  # its first second: three strokes
    looks: list[float] = []
    catch_up = listening.AudioListener.catch_up

    def counted(self):
        looks.append(clock())
        return catch_up(self)

    monkeypatch.setattr(listening.AudioListener, "catch_up", counted)
    code, out, err = cli(
        "play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", short,
    )  # fmt: skip
    assert code == 0, err
    missed = next(line for line in out.splitlines() if line.startswith("missed "))
    assert missed.endswith("10 ○ 鼙, 11 □ 鼓"), out  # the strokes after the take's end
    beat = 60 / BPM
    assert 10 * beat <= clock.now <= 11 * beat + 0.1
    after = [t for t in looks if t > 1.1]  # once the take has ended
    assert len(after) <= (clock.now - 1.1) / play_command.LISTEN_POLL + 12  # a look each poll
