"""Playback: the mix fed to the device, the stream clock, device choice, and PortAudio failures.

The real device path (PortAudio on ALSA) is tested end to end in tests/cli/test_play.py; here the
stream is simulated so the clock and the failures can be controlled.
"""

from __future__ import annotations

import threading
import time
import types

import numpy as np
import pytest
from audio_checks import strokes
from fake_audio import no_library

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError, MissingDependencyError, OptionError, PlaybackError
from drumscore.play import audio as playback
from drumscore.render.mix import render_audio
from drumscore.timing import Tempo

RATE = 44100


def timeline(notation="○□○半○□", interval="0.2", repeats=1):
    return arrange(resolve(notation), None, Tempo.from_interval(interval), repeats)


def read_all(feed: playback.Feed, block: int) -> np.ndarray:
    parts = []
    while len(part := feed.read(block)):
        parts.append(part)
    return np.concatenate(parts)


# --- the mix that is fed to the device -------------------------------------------------------


@pytest.mark.parametrize("block", [64, 441, 4096])
def test_the_feed_is_the_render_whatever_the_block_size(block):
    t = timeline("lu", "0.25")
    fed = read_all(playback.Feed(t), block)
    rendered = render_audio(t)
    assert fed.shape == rendered.shape
    assert np.allclose(fed, rendered, atol=1e-6)


def test_a_long_repeat_is_as_loud_as_its_render_though_only_its_start_sets_the_level():
    t = timeline("□○半□", "0.05", repeats=40)  # each 鼓 rings on through ten passes
    fed = read_all(playback.Feed(t), 1024)
    assert np.allclose(fed, render_audio(t), atol=1e-6)


def test_the_feed_sounds_every_stroke_on_the_beat_with_its_drum():
    t = timeline("xue", "0.25")
    fed = read_all(playback.Feed(t), 512)
    heard = strokes(fed, RATE)
    assert [d for _, d in heard] == [e.drum for e in Track.single(t).hits(44100)]
    for (onset, _), event in zip(heard, Track.single(t).hits(44100), strict=True):
        assert abs(onset - t.tempo.onset_sample(event.k, RATE)) <= 2


def test_a_looping_feed_starts_each_pass_on_the_beat():
    t = timeline("○□○半○□", "0.2")
    feed = playback.Feed(t, loop=True)
    assert feed.length is None
    n = len(t)
    audio = feed.read(round(3 * n * 0.2 * RATE) - 100)  # three passes, tails into the next
    heard = strokes(audio, RATE)
    assert len(heard) == 3 * n
    laid = [h for h in feed.laid if h.frame < len(audio)]  # where the conductor put them
    assert [h.k for h in laid] == list(range(3 * n))
    drums = [e.drum for e in Track.single(t).hits(44100)]
    assert [d for _, d in heard] == [h.drum for h in laid] == drums * 3
    for (onset, _), hit in zip(heard, laid, strict=True):
        assert hit.frame == t.tempo.onset_sample(hit.k, RATE)  # each pass on the beat
        assert abs(onset - hit.frame) <= 2  # as onset detection finds it


def test_a_looping_feed_never_clips_where_a_tail_rings_into_the_next_pass():
    t = timeline("□□□半□□", "0.05")
    feed = playback.Feed(t, loop=True)
    audio = feed.read(round(6 * len(t) * 0.05 * RATE))
    assert np.max(np.abs(audio)) <= 10 ** (-1 / 20) + 1e-6


# --- the stream clock ------------------------------------------------------------------------


class FakeStream:
    """A PortAudio stream in real time: blocks are asked for just in time, and each reaches the
    listener `LATENCY` seconds later (its DAC time), as a sound card's buffer would make it."""

    LATENCY = 0.2
    BLOCK = 256

    def __init__(self, samplerate, callback, finished_callback, **_):
        self.rate = samplerate
        self.callback = callback
        self.finished_callback = finished_callback
        self.latency = self.LATENCY
        self.t0 = time.monotonic()
        self.stopped = threading.Event()

    @property
    def time(self) -> float:
        return time.monotonic() - self.t0

    def start(self) -> None:
        threading.Thread(target=self._run, daemon=True).start()

    def _run(self) -> None:
        out = np.zeros((self.BLOCK, 2), np.float32)
        j = 0
        while not self.stopped.is_set():
            due = j * self.BLOCK / self.rate
            if (wait := due - self.time) > 0:
                time.sleep(wait)
            info = types.SimpleNamespace(outputBufferDacTime=due + self.LATENCY)
            try:
                self.callback(out, self.BLOCK, info, None)
            except FakeSoundDevice.CallbackStop:
                time.sleep(self.LATENCY)
                break
            j += 1
        self.finished_callback()

    def abort(self, ignore_errors=True) -> None:
        self.stopped.set()

    def close(self, ignore_errors=True) -> None:
        self.stopped.set()


class FakeSoundDevice:
    """Enough of the sounddevice module to choose devices and open a stream."""

    class PortAudioError(Exception):
        pass

    class CallbackStop(Exception):
        pass

    def __init__(self, devices=(("Speakers", 2), ("Mic", 0), ("USB Audio", 2)), default=0):
        self.devices = [
            {
                "index": i,
                "name": name,
                "hostapi": 0,
                "max_output_channels": channels,
                "default_samplerate": 48000.0,
            }
            for i, (name, channels) in enumerate(devices)
        ]
        self.default = types.SimpleNamespace(device=[-1, default])
        self.OutputStream = FakeStream

    def query_devices(self, kind=None):
        if kind == "output":
            raise self.PortAudioError("no default output device")
        return self.devices

    def query_hostapis(self):
        return [{"name": "ALSA"}]


@pytest.fixture
def fake_sd(monkeypatch):
    sd = FakeSoundDevice()
    monkeypatch.setattr(playback, "load_sounddevice", lambda: sd)
    return sd


#: Strokes of 鼙 only, whose sound rings 0.5 s (鼓's 1.6 s): a stream of them ends soon, at
#: the pace of a sound card.
SHORT = "○○○半○○"


def test_each_stroke_is_reported_when_the_stream_clock_says_it_is_heard(fake_sd):
    t = timeline(SHORT, "0.05")
    seen = []
    with playback.AudioPlayer(playback.Feed(t)) as player:
        stream = player.stream
        for hit in player.hits():
            seen.append((hit, stream.time))  # the stream's own clock, as the player reads it
        player.wait()
    assert [hit.k for hit, _ in seen] == list(range(len(t)))
    for hit, at in seen:
        # the stroke reaches the listener at its frame's DAC time: its onset plus the latency
        heard_at = hit.frame / RATE + FakeStream.LATENCY
        assert hit.frame == t.tempo.onset_sample(hit.k, RATE)
        assert at >= heard_at - 1e-9, f"stroke {hit.k} shown {heard_at - at:.4f} s before it sounds"
        assert at <= heard_at + 0.5, f"stroke {hit.k} shown {at - heard_at:.3f} s late"


def test_the_player_reports_strokes_after_the_stream_ends_at_once(fake_sd, monkeypatch):
    """Once the stream has ended, every stroke is reported without waiting: neither for the
    player's tick nor for the stream's clock (a wait fails the test, whatever the machine's
    load; a wall-clock bound would not tell a wait from a busy machine)."""
    t = timeline(SHORT, "0.05")
    with playback.AudioPlayer(playback.Feed(t)) as player:
        player.wait()

        def waited(*_):
            raise AssertionError("the player waited after the stream had ended")

        monkeypatch.setattr(player._tick, "wait", waited)
        monkeypatch.setattr(player, "heard_frame", waited)
        assert [hit.k for hit in player.hits()] == list(range(len(t)))


def test_closing_the_player_stops_the_stream(fake_sd):
    t = timeline("○□○半○□", "0.05")
    player = playback.AudioPlayer(playback.Feed(t, loop=True))
    player.start()
    stream = player.stream
    player.close()
    assert stream.stopped.is_set()
    assert player.stream is None


# --- choosing a device -----------------------------------------------------------------------


def test_devices_that_cannot_play_are_not_listed(fake_sd):
    names = [d.name for d in playback.output_devices()]
    assert names == ["Speakers", "USB Audio"]
    assert [d.is_default for d in playback.output_devices()] == [True, False]


@pytest.mark.parametrize(
    ("name", "expected"), [(None, "Speakers"), ("2", "USB Audio"), ("usb", "USB Audio")]
)
def test_a_device_is_found_by_number_name_or_part_of_its_name(fake_sd, name, expected):
    assert playback.choose_device(name).name == expected


# --- bad input and missing pieces ------------------------------------------------------------


def test_a_missing_portaudio_library_says_to_install_libportaudio2_or_render(monkeypatch):
    monkeypatch.setattr(playback.importlib, "import_module", no_library)
    with pytest.raises(MissingDependencyError) as caught:
        playback.choose_device()
    message = str(caught.value)
    assert "libportaudio2" in message
    assert "drumscore render" in message
    assert "PortAudio library not found" in message


def test_a_missing_sounddevice_package_says_how_to_install_it(monkeypatch):
    def no_package(name):
        raise ModuleNotFoundError(f"No module named {name!r}")

    monkeypatch.setattr(playback.importlib, "import_module", no_package)
    with pytest.raises(MissingDependencyError, match=r"drumscore\[play\]"):
        playback.output_devices()


def test_no_output_device_says_to_render_instead(monkeypatch):
    sd = FakeSoundDevice(devices=(("Mic", 0),), default=-1)
    monkeypatch.setattr(playback, "load_sounddevice", lambda: sd)
    with pytest.raises(PlaybackError, match="no audio output device") as caught:
        playback.choose_device()
    assert "drumscore render" in str(caught.value)


def test_an_unknown_device_name_lists_the_devices(fake_sd):
    with pytest.raises(OptionError) as caught:
        playback.choose_device("HDMI")
    assert "'HDMI'" in str(caught.value)
    assert "'Speakers'" in str(caught.value)
    assert isinstance(caught.value, DrumscoreError)


def test_an_ambiguous_device_name_asks_for_more(monkeypatch):
    sd = FakeSoundDevice(devices=(("USB Audio 1", 2), ("USB Audio 2", 2)))
    monkeypatch.setattr(playback, "load_sounddevice", lambda: sd)
    with pytest.raises(OptionError, match="several") as caught:
        playback.choose_device("usb")
    assert caught.value.option == "device"


def test_a_stream_portaudio_refuses_to_open_is_a_clear_error(fake_sd):
    def refuse(**_):
        raise fake_sd.PortAudioError("Invalid sample rate")

    fake_sd.OutputStream = refuse
    player = playback.AudioPlayer(playback.Feed(timeline()), playback.choose_device())
    with pytest.raises(PlaybackError, match="Invalid sample rate") as caught:
        player.start()
    assert "'Speakers'" in str(caught.value)
    assert caught.value.option == "device"


# --- live layout: a tempo change in the feed, and a SoundFont played live ----------------------


def test_a_tempo_change_in_the_feed_counts_from_the_last_stroke_mixed():
    t = timeline("○□○○□○", "0.25", repeats=2)
    feed = playback.Feed(t)
    first = feed.read(int(0.6 * RATE))  # strokes 0, 1 and 2 are mixed (0.5 s)
    feed.set_tempo(Tempo.from_interval("0.2"))
    rest = read_all(feed, 512)
    heard = strokes(np.concatenate([first, rest]), RATE)
    assert [d for _, d in heard] == [e.drum for e in Track.single(t).hits(44100)]
    expected = [round(k * 0.25 * RATE) for k in range(3)]
    expected += [expected[-1] + round(m * 0.2 * RATE) for m in range(1, len(t) - 2)]
    assert [f for f, _ in heard] == pytest.approx(expected, abs=1)


@pytest.mark.requires("fluidsynth", "soundfont")
def test_a_soundfont_feed_plays_each_stroke_and_the_count_on_the_beat():
    from audio_checks import level_onsets
    from system_tools import SOUNDFONT

    from drumscore.conductor.track import Track

    t = timeline("○□○□", "0.5")
    feed = playback.SoundFontFeed(Track.single(t, 2), SOUNDFONT)
    audio = read_all(feed, 1024)
    onsets = level_onsets(audio, RATE)
    assert len(onsets) == 6  # two count strokes (Hi Wood Block), then four drum strokes
    assert onsets == pytest.approx([k * 0.5 for k in range(6)], abs=64 / RATE + 0.003)


def test_a_garbage_alsa_configuration_is_one_line_and_exit_1(tmp_path):
    """PortAudio fails as sounddevice is imported: one line naming it, not a traceback."""
    import importlib.util
    import os
    import subprocess
    import sys

    if importlib.util.find_spec("sounddevice") is None:
        pytest.skip("sounddevice is not installed (the play extra)")
    garbage = tmp_path / "asound.conf"
    garbage.write_text("garbage {{{ ;;\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "drumscore", "play", "lu"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ALSA_CONFIG_PATH": str(garbage)},
    )
    if "cannot load the PortAudio library" in done.stderr:
        pytest.skip("libportaudio2 is not installed")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("drumscore: error: PortAudio cannot start (")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
