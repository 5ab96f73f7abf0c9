"""The round trip of a sound card, measured by play --calibrate: clicks played through an output
and heard back through an input (here a loopback that delays them by a known time), kept per
pair of devices in the user's data folder."""

from __future__ import annotations

import json
import re
import types

import numpy as np
import pytest

from drumscore.errors import PlaybackError
from drumscore.play import audio, latency
from drumscore.play.audio import OutputDevice
from drumscore.play.listening import LiveCheck

RATE = 48000
SPEAKER = OutputDevice(1, "Loopback speaker", "test", 2, RATE)
MIC = OutputDevice(0, "Loopback microphone", "test", 1, RATE)


class Loopback:
    """Enough of sounddevice for playrec: what is played comes back `delay` s later, quieter,
    over a little noise, as a microphone by the speaker hears it."""

    class PortAudioError(Exception):
        pass

    def __init__(self, delay: float, gain: float = 0.3):
        self.delay, self.gain = delay, gain
        self.default = types.SimpleNamespace(device=[0, 1])
        self.asked: list[tuple] = []

    def playrec(self, data, samplerate, channels, dtype, device):
        self.asked.append((samplerate, channels, dtype, device))
        shift = round(self.delay * samplerate)
        out = np.zeros((len(data), channels), dtype=np.float32)
        out[shift:, 0] = data[: len(data) - shift, 0] * self.gain
        out[:, 0] += np.random.default_rng(1).normal(0, 1e-4, len(data)).astype(np.float32)
        return out

    def wait(self):
        pass

    def query_devices(self, kind=None):
        return [
            {"index": 0, "name": MIC.name, "hostapi": 0, "max_input_channels": 1,
             "max_output_channels": 0, "default_samplerate": float(RATE)},
            {"index": 1, "name": SPEAKER.name, "hostapi": 0, "max_input_channels": 0,
             "max_output_channels": 2, "default_samplerate": float(RATE)},
        ]  # fmt: skip

    def query_hostapis(self):
        return [{"name": "test"}]


@pytest.fixture
def data_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.mark.parametrize("delay", [0.0123, 0.087, 0.2])
def test_the_round_trip_is_measured_to_the_millisecond(monkeypatch, delay):
    loop = Loopback(delay)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: loop)
    measured = latency.measure(SPEAKER, MIC)
    assert abs(measured.seconds - delay) < 0.001
    assert measured.spread < 0.001
    assert measured.clicks == latency.CLICKS
    assert (measured.output, measured.input) == (SPEAKER.name, MIC.name)
    assert loop.asked == [(RATE, 1, "float32", (MIC.index, SPEAKER.index))]


def test_clicks_not_heard_back_say_what_to_do(monkeypatch):
    loop = Loopback(0.01, gain=0.0)
    monkeypatch.setattr(audio, "load_sounddevice", lambda: loop)
    with pytest.raises(PlaybackError, match=r"heard 0 of the 8 clicks.*turn the sound up"):
        latency.measure(SPEAKER, MIC)


def test_each_pair_of_devices_keeps_its_own_round_trip(data_home):
    assert latency.stored(SPEAKER.name, MIC.name) is None
    one = latency.Latency(SPEAKER.name, MIC.name, 0.05, 0.001, 8)
    two = latency.Latency("HDMI", MIC.name, 0.12, 0.002, 7)
    path = latency.store(one)
    latency.store(two)
    assert path == data_home / "drumscore" / "latency.json"
    assert latency.stored(SPEAKER.name, MIC.name) == one
    assert latency.stored("HDMI", MIC.name) == two
    assert len(json.loads(path.read_text(encoding="utf-8"))) == 2
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".part")]


def test_play_calibrate_measures_keeps_and_says_it(cli, monkeypatch, data_home):
    monkeypatch.setattr(audio, "load_sounddevice", lambda: Loopback(0.045))
    code, out, err = cli("play", "--calibrate", "--device", "speaker", "--input", "micro")
    assert code == 0, err
    assert re.search(r"'Loopback speaker' to 'Loopback microphone' is 45\.[01] ms", out)
    assert "8 of 8 heard back" in out
    kept = latency.stored(SPEAKER.name, MIC.name)
    assert kept is not None and abs(kept.seconds - 0.045) < 0.001


def test_play_calibrate_refuses_a_score_or_a_recording(expect_error):
    assert "leave out the score 'lu'" in expect_error("play", "lu", "--calibrate")
    assert "not a recording" in expect_error("play", "--calibrate", "--input", "take.wav")


def test_a_round_trip_measured_puts_the_strokes_on_the_scores_clock():
    from drumscore.conductor.timeline import arrange
    from drumscore.conductor.track import Track
    from drumscore.corpus import resolve
    from drumscore.timing import Tempo

    t = arrange(resolve("○□○○□○"), None, Tempo.from_interval("0.5"), 1)
    played = [h for h in Track.single(t).hits(44100) if h.drum is not None]
    live = LiveCheck(44100, 0.5, lag=0.1)  # heard 100 ms after they are laid out
    for hit in played:
        live.expect(hit)
    first = live.hear(played[0].frame / 44100 + 0.1 + 0.03, played[0].drum)
    # the first stroke 30 ms late is late: measured from the score's beat, not from itself
    assert first is not None and first.number == 1 and abs(first.offset_ms - 30) < 1e-6
    second = live.hear(played[1].frame / 44100 + 0.1 - 0.01, played[1].drum)
    assert second is not None and abs(second.offset_ms + 10) < 1e-6
