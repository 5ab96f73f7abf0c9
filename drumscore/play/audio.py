"""Playback on an audio device through PortAudio (sounddevice), and the clock of what is heard.

The audio callback mixes each block on demand with drumscore.render.mix, so sound starts as soon
as the first block is ready; the stream's own clock says which frame is reaching the listener, and
the display follows that rather than a timer of its own.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from drumscore.errors import MissingDependencyError, PlaybackError, install_line
from drumscore.play.choose import choose_by_name
from drumscore.render.kit import Kit
from drumscore.render.mix import DEFAULT_RATE, gain_for, mix_range, plan
from drumscore.timeline import Timeline

PORTAUDIO_INSTALL = (
    "install the PortAudio library (on Debian and Ubuntu: sudo apt install libportaudio2), "
    "or write the sound to a file with 'drumscore render'"
)
#: Longest the display waits between looks at the stream clock.
MAX_WAIT = 0.05


def load_sounddevice() -> Any:
    """The sounddevice module, or a MissingDependencyError saying what to install."""
    try:
        return importlib.import_module("sounddevice")
    except OSError as exc:  # sounddevice raises OSError when libportaudio is missing
        raise MissingDependencyError(
            f"cannot load the PortAudio library ({exc})", PORTAUDIO_INSTALL
        ) from None
    except ImportError:
        raise MissingDependencyError(
            "playback needs the Python package sounddevice",
            f"{install_line('play')}; or write the sound to a file with 'drumscore render'",
        ) from None


@dataclass(frozen=True, slots=True)
class OutputDevice:
    """An audio output that PortAudio offers."""

    index: int
    name: str
    hostapi: str
    channels: int
    default_rate: float
    is_default: bool = False


def output_devices() -> tuple[OutputDevice, ...]:
    """Every device that can play sound, the system default marked."""
    sd = load_sounddevice()
    try:
        devices = sd.query_devices()
        apis = sd.query_hostapis()
        default = sd.default.device[1]
    except sd.PortAudioError as exc:
        raise PlaybackError(
            f"PortAudio cannot list the audio devices ({exc}); {PORTAUDIO_INSTALL}"
        ) from None
    if default is None or default < 0:
        try:
            default = sd.query_devices(kind="output")["index"]
        except (sd.PortAudioError, KeyError, TypeError):
            default = -1
    found = []
    for device in devices:
        if device["max_output_channels"] < 1:
            continue
        found.append(
            OutputDevice(
                index=device["index"],
                name=device["name"],
                hostapi=apis[device["hostapi"]]["name"],
                channels=device["max_output_channels"],
                default_rate=device["default_samplerate"],
                is_default=device["index"] == default,
            )
        )
    return tuple(found)


def choose_device(name: str | None = None) -> OutputDevice:
    """The device called `name` (its number in output_devices(), its name, or part of it), or
    the default one when `name` is None."""
    devices = output_devices()
    if not devices:
        raise PlaybackError(
            "no audio output device found (no sound card, or the sound system is not running); "
            "write the sound to a file with 'drumscore render SCORE -o out.wav' instead"
        )
    if name is None:
        return next((d for d in devices if d.is_default), devices[0])
    wanted = name.strip()
    if wanted.isdigit():
        for device in devices:
            if device.index == int(wanted):
                return device
    names = [d.name for d in devices]
    return devices[choose_by_name(name, names, what="audio output device", option="device")]


class Feed:
    """The normalised mix of a timeline, block by block; with loop=True it starts again on the beat.

    Normalised as `drumscore render` normalises, so what is heard is what a render would write;
    the peak is found in the first passes (the later ones repeat them), so long or looping
    playback starts without mixing everything first.
    """

    def __init__(
        self, timeline: Timeline, kit: Kit | None = None, rate: int = DEFAULT_RATE, loop=False
    ):
        self.timeline = timeline
        self.rate = rate
        self.loop = loop
        self.plan = plan(timeline, kit, rate)
        self.position = 0
        self._strokes = len(timeline)
        heard = self.mix(0, self._steady_state())
        peak = float(np.max(np.abs(heard))) if heard.size else 0.0
        self.gain = gain_for(peak)

    def _steady_state(self) -> int:
        """Frames enough to hold the loudest moment: the section repeats, so once as many passes
        as the longest sample spans have sounded together, later ones only repeat them."""
        tempo, section = self.timeline.tempo, len(self.timeline.strokes)
        longest = max(len(s) for s in self.plan.sounds)
        period = max(1, tempo.onset_sample(section, self.rate))
        passes = -(-longest // period) + 2
        end = tempo.onset_sample(passes * section, self.rate) + longest
        return end if self.loop else min(end, self.plan.length)

    @property
    def length(self) -> int | None:
        """Frames in all, or None when looping."""
        return None if self.loop else self.plan.length

    def pass_start(self, p: int) -> int:
        """The frame where pass p (from 0) of a looped timeline begins: on the even beat."""
        return self.timeline.tempo.onset_sample(p * self._strokes, self.rate)

    def onset(self, k: int) -> int:
        """The frame where stroke k sounds (k runs on past the timeline when looping)."""
        return self.timeline.tempo.onset_sample(k, self.rate)

    def mix(self, start: int, stop: int) -> np.ndarray:
        """Frames start..stop of the unnormalised mix, passes overlapping where a tail rings on."""
        if not self.loop:
            stop = min(stop, self.plan.length)
            return mix_range(self.plan, start, max(start, stop))
        out = np.zeros((stop - start, 2), dtype=np.float32)
        length, period = self.plan.length, max(1, self.pass_start(1))
        p = max(0, (start - length) // period - 1)
        while (s := self.pass_start(p)) < stop:
            a, b = max(start, s), min(stop, s + length)
            if a < b:
                out[a - start : b - start] += mix_range(self.plan, a - s, b - s)
            p += 1
        return out

    def read(self, frames: int) -> np.ndarray:
        """The next `frames` frames, normalised; fewer (or none) at the end."""
        block = self.mix(self.position, self.position + frames)
        self.position += len(block)
        block *= self.gain
        return block


#: Output latency asked of PortAudio, in seconds.
LATENCY_S = 0.05


class AudioPlayer:
    """Plays a Feed on an output device and says, by the stream clock, which stroke is heard.

    A 50 ms output buffer starts the sound quickly yet leaves a busy machine time to mix each
    block (mixing takes well under 1 % of real time); the display follows the stream clock, so it
    stays in step whatever the latency.
    """

    def __init__(self, feed: Feed, device: OutputDevice | None = None, latency=LATENCY_S):
        self.feed = feed
        self.device = device
        self.latency = latency
        self.stream = None
        self._lock = threading.Lock()
        self._tick = threading.Event()
        self._finished = threading.Event()
        self._anchor: tuple[int, float] | None = None
        self._written = 0

    def __enter__(self) -> AudioPlayer:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def start(self) -> None:
        sd = self._sd = load_sounddevice()
        where = repr(self.device.name) if self.device else "the default device"
        try:
            self.stream = sd.OutputStream(
                samplerate=self.feed.rate,
                channels=2,
                dtype="float32",
                device=self.device.index if self.device else None,
                latency=self.latency,
                callback=self._callback,
                finished_callback=self._finished.set,
            )
            self.stream.start()  # type: ignore[attr-defined]
        except (sd.PortAudioError, ValueError) as exc:
            self.close()
            raise PlaybackError(
                f"cannot play on {where}: {exc}; choose another device, or write a file "
                "with 'drumscore render'",
                option="device",
            ) from None

    def close(self) -> None:
        """Stop at once, dropping whatever is still buffered."""
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.abort(ignore_errors=True)
            stream.close(ignore_errors=True)
        self._finished.set()

    def _callback(self, outdata, frames, time, status) -> None:
        block = self.feed.read(frames)
        n = len(block)
        outdata[:n] = block
        outdata[n:] = 0
        with self._lock:
            self._anchor = (self._written, time.outputBufferDacTime)
            self._written += n
        self._tick.set()
        if n < frames:
            raise self._sd.CallbackStop

    def heard_frame(self) -> float:
        """The frame reaching the listener now, from the stream clock; -1 before the first."""
        with self._lock:
            anchor, written = self._anchor, self._written
        stream = self.stream
        if anchor is None or stream is None:
            return -1.0
        if self._finished.is_set():
            return float(written)
        start, dac = anchor
        now = stream.time
        if dac > 0 and now > 0:
            heard = start + (now - dac) * self.feed.rate
        else:  # a host that gives no DAC times: count the output latency back from what is written
            heard = written - stream.latency * self.feed.rate
        return min(heard, float(written))

    def heard(self, count: int | None = None) -> Iterator[int]:
        """Stroke numbers 0, 1, 2… each as it is heard; all of them unless `count` stops sooner."""
        k = 0
        rate = self.feed.rate
        while count is None or k < count:
            onset = self.feed.onset(k)
            if count is None and self._finished.is_set():
                return  # a looping stream that stopped on its own: the device went away
            while not self._finished.is_set():
                ahead = onset - self.heard_frame()
                if ahead <= 0:
                    break
                self._tick.clear()
                self._tick.wait(min(ahead / rate, MAX_WAIT))
            yield k
            k += 1

    def wait(self) -> None:
        """Until the stream has played everything (the last stroke rung out)."""
        while not self._finished.wait(MAX_WAIT):
            pass
