"""Playback on an audio device through PortAudio (sounddevice), and the clock of what is heard.

The audio callback mixes each block on demand with drumscore.render.mix, so sound starts as soon
as the first block is ready; the stream's own clock says which frame is reaching the listener, and
the display follows that rather than a timer of its own.
"""

from __future__ import annotations

import bisect
import dataclasses
import importlib
import threading
import time as clock
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Self

import numpy as np

from drumscore.conductor.timeline import MAX_REPEAT, Timeline
from drumscore.conductor.track import Conductor, Hit, Track, as_track
from drumscore.errors import MissingDependencyError, PlaybackError, install_line
from drumscore.i18n import N_, _, quoted
from drumscore.model import Section
from drumscore.play.choose import choose_by_name
from drumscore.play.player import Poll, next_poll
from drumscore.render.kit import Kit
from drumscore.render.midimap import MidiMap
from drumscore.render.mix import DEFAULT_RATE, SoundChooser, gain_for, peak, plan
from drumscore.render.soundfont import MAX_TAIL, PERCUSSION_CHANNEL, open_synth, synth_samples
from drumscore.timing import Tempo, whole_text

PORTAUDIO_INSTALL = N_(
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
            _("cannot load the PortAudio library ({reason})").format(reason=exc),
            _(PORTAUDIO_INSTALL),
        ) from None
    except ImportError:
        raise MissingDependencyError(
            _("playback needs the Python package sounddevice"),
            _("{install}; or write the sound to a file with 'drumscore render'").format(
                install=install_line("play")
            ),
        ) from None
    except Exception as exc:
        # PortAudio starts when sounddevice is imported: a broken sound system (a garbage ALSA
        # configuration) fails there, with sounddevice's own error class not yet importable
        if type(exc).__name__ != "PortAudioError":
            raise
        text = " ".join(str(exc).split())
        raise PlaybackError(
            _(
                "PortAudio cannot start ({reason}); check the sound system's configuration (for "
                "ALSA: ~/.asoundrc, /etc/asound.conf, ALSA_CONFIG_PATH), or write the sound to a "
                "file with 'drumscore render'"
            ).format(reason=text)
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
    return _devices("output")


def input_devices() -> tuple[OutputDevice, ...]:
    """Every device that can record sound (a microphone, for play to listen to drums by),
    the default marked."""
    return _devices("input")


def _devices(kind: str) -> tuple[OutputDevice, ...]:
    sd = load_sounddevice()
    try:
        devices = sd.query_devices()
        apis = sd.query_hostapis()
        default = sd.default.device[1 if kind == "output" else 0]
    except sd.PortAudioError as exc:
        raise PlaybackError(
            _("PortAudio cannot list the audio devices ({reason}); {install}").format(
                reason=exc, install=_(PORTAUDIO_INSTALL)
            )
        ) from None
    if default is None or default < 0:
        try:
            default = sd.query_devices(kind=kind)["index"]
        except (sd.PortAudioError, KeyError, TypeError):
            default = -1
    found = []
    for device in devices:
        channels = device.get(f"max_{kind}_channels", 0)
        if channels < 1:
            continue
        found.append(
            OutputDevice(
                index=device["index"],
                name=device["name"],
                hostapi=apis[device["hostapi"]]["name"],
                channels=channels,
                default_rate=device["default_samplerate"],
                is_default=device["index"] == default,
            )
        )
    return tuple(found)


def choose_device(name: str | None = None, kind: str = "output") -> OutputDevice:
    """The device called `name` (its number in output_devices() or input_devices(), as `kind`
    says, its name, or part of it), or the default one when `name` is None."""
    devices = _devices(kind)
    if not devices and kind == "input":
        raise PlaybackError(
            _(
                "no audio input device found (no microphone, or the sound system is not "
                "running); give a recorded take instead"
            )
        )
    if not devices:
        raise PlaybackError(
            _(
                "no audio output device found (no sound card, or the sound system is not "
                "running); write the sound to a file with {command} instead"
            ).format(command=quoted("drumscore render SCORE -o out.wav"))
        )
    if name is None:
        return next((d for d in devices if d.is_default), devices[0])
    wanted = name.strip()
    index = whole_text(wanted)
    if index is not None:
        for device in devices:
            if device.index == index:
                return device
    names = [d.name for d in devices]
    if kind == "input":
        return devices[choose_by_name(name, names, what=_("audio input device"), option="input")]
    what = _("audio output device")
    return devices[choose_by_name(name, names, what=what, option="device")]


class Feed:
    """The normalised mix of a track, block by block, laid out by a Conductor as it is asked for.

    Each block lays out the beats that fall in it (conductor.track), so a tempo change, a pause or
    a switch takes effect at the next beat not yet mixed; with no change the samples are those
    `drumscore render` writes. Normalised as render normalises: the level is found from the first
    passes (later ones repeat them), so long or looping playback starts without mixing
    everything first. A faster tempo whose tails pile up higher lowers the level (never raises
    it), so nothing clips.
    """

    def __init__(
        self,
        timeline: Timeline | Track,
        kit: Kit | None = None,
        rate: int = DEFAULT_RATE,
        loop: bool = False,
    ) -> None:
        self._lay_out(as_track(timeline), rate, loop)
        self.kit = kit
        self.sounds = SoundChooser(kit, rate)
        self._voices: list[tuple[int, int, np.ndarray, float]] = []  # (onset, n, sound, gain)
        self._n = 0
        self.gain = gain_for(self._peak(self.track))

    def _lay_out(self, track: Track, rate: int, loop: bool) -> None:
        """What every feed keeps: the track, its conductor, and the hits laid out so far."""
        self.track = track
        self.timeline = track.first
        self.rate = rate
        self.loop = loop
        self.conductor = Conductor(track, rate, loop)
        self.position = 0
        self.laid: deque[Hit] = deque()
        self._lock = threading.Lock()
        self._lookahead = self._humanize_frames()

    def _humanize_frames(self) -> int:
        expression = self.timeline.expression
        if expression is None or not expression.humanize_ms:
            return 0
        return int(expression.humanize_ms / 1000 * self.rate) + 1

    def _peak(self, track: Track) -> float:
        """The loudest sample of the track, or of its first passes (later ones repeat them)."""
        if self.loop or len(track.items) == 1:
            item = track.items[0]
            t = item.timeline
            longest = self.sounds.longest
            period = max(1, t.tempo.onset_sample(len(t.strokes), self.rate))
            passes = -(-longest // period) + 2
            if self.loop or passes < t.repeats:
                t = dataclasses.replace(t, repeats=max(1, min(passes, MAX_REPEAT)))
                track = Track((dataclasses.replace(item, timeline=t),), title=track.title)
        return peak(plan(track, self.kit, self.rate))

    def set_tempo(self, tempo: Tempo) -> None:
        """A new tempo from the next beat not yet mixed; the level drops if it must."""
        with self._lock:
            item = self.conductor.item
        t = dataclasses.replace(self.conductor.timeline or item.timeline, tempo=tempo)
        lower = gain_for(self._peak(Track.single(t)))
        with self._lock:
            self.gain = min(self.gain, lower)
            self.conductor.set_tempo(tempo)

    def command(self, name: str, *args: bool | Section) -> None:
        """Pass a command (pause, switch_section, stop_after_pass, next_item) to the conductor."""
        with self._lock:
            getattr(self.conductor, name)(*args)

    def coming(self) -> tuple[Section, Section | None]:
        """The conductor's section laid out last, and the switch waiting (Conductor.coming)."""
        with self._lock:
            return self.conductor.coming()

    @property
    def length(self) -> int | None:
        """Frames in all, or None when looping (or not yet known)."""
        if self.loop:
            return None
        return plan(self.track, self.kit, self.rate).length

    def read(self, frames: int) -> np.ndarray:
        """The next `frames` frames, normalised; fewer (or none) at the end."""
        with self._lock:
            start = self.position
            stop = start + frames
            for hit in self.conductor.advance(stop + self._lookahead):
                if not hit.click:  # a click is heard, not shown
                    self.laid.append(hit)
                if hit.muted:
                    continue
                sound, gain = self.sounds.choose(hit)
                self._n += 1
                bisect.insort(self._voices, (hit.frame, self._n, sound, gain))
            if self.conductor.finished:
                ends = [onset + len(sound) for onset, _, sound, _ in self._voices]
                stop = min(stop, max([start, *ends]))
            out = np.zeros((stop - start, 2), dtype=np.float32)
            keep = []
            for voice in self._voices:
                onset, _start, sound, gain = voice
                a, b = max(start, onset), min(stop, onset + len(sound))
                if a < b:
                    piece = sound[a - onset : b - onset]
                    out[a - start : b - start] += piece if gain == 1 else piece * gain
                if onset + len(sound) > stop:
                    keep.append(voice)
            self._voices = keep
            self.position = stop
            out *= self.gain
            return out


class SoundFontFeed(Feed):
    """A track played live through FluidSynth: notes on and off at their frames, as laid out.

    Not normalised, as a SoundFont render is not: FluidSynth's own level.
    """

    def __init__(
        self,
        track: Timeline | Track,
        soundfont: str,
        midimap: MidiMap | None = None,
        rate: int = DEFAULT_RATE,
        loop: bool = False,
    ) -> None:

        self._lay_out(as_track(track), rate, loop)
        self.midimap = midimap or MidiMap()
        self.synth = open_synth(soundfont, rate)
        self.gain = np.float32(1)
        self._events: list[tuple[int, int, int, int]] = []  # (frame, on, note, velocity)
        self._tail = int(MAX_TAIL * rate)
        self._quiet_since: int | None = None

    def set_tempo(self, tempo: Tempo) -> None:
        with self._lock:
            self.conductor.set_tempo(tempo)

    @property
    def length(self) -> int | None:
        return None

    def read(self, frames: int) -> np.ndarray:
        with self._lock:
            start, stop = self.position, self.position + frames
            for hit in self.conductor.advance(stop + self._lookahead):
                if not hit.click:  # a click is heard, not shown
                    self.laid.append(hit)
                if hit.muted:
                    continue
                note = self.midimap.hit_note(hit.drum)
                off = hit.frame + hit.note_frames(self.rate)
                bisect.insort(self._events, (hit.frame, 1, note, hit.velocity))
                bisect.insort(self._events, (off, 0, note, 0))
            parts, now = [], start
            while now < stop:
                while self._events and self._events[0][0] <= now:
                    _when, on, note, velocity = self._events.pop(0)
                    if on:
                        self.synth.noteon(PERCUSSION_CHANNEL, note, velocity)
                    else:
                        self.synth.noteoff(PERCUSSION_CHANNEL, note)
                upto = min(stop, self._events[0][0]) if self._events else stop
                upto = max(upto, now + 1)
                parts.append(synth_samples(self.synth, upto - now))
                now = upto
            out = np.concatenate(parts) if parts else np.zeros((0, 2), np.float32)
            self.position = stop
            if self.conductor.finished and not self._events:
                if self.synth.get_active_voice_count() == 0:
                    self._quiet_since = self._quiet_since or stop
                if (self._quiet_since and stop - self._quiet_since > self.rate // 2) or (
                    stop - (self.conductor.end or stop) > self._tail
                ):
                    self.synth.delete()
                    return out[:0]
            return out


#: Output latency asked of PortAudio, in seconds.
LATENCY_S = 0.05
#: How far a looping stream may run ahead of the system clock before it is held back.
PACE_AHEAD = 0.5


class AudioPlayer:
    """Plays a Feed on an output device and says, by the stream clock, which stroke is heard (a
    drumscore.play.player.Player).

    A 50 ms output buffer starts the sound quickly yet leaves a busy machine time to mix each
    block (mixing takes well under 1 % of real time); the display follows the stream clock, so it
    stays in step whatever the latency.
    """

    def __init__(
        self, feed: Feed, device: OutputDevice | None = None, latency: float = LATENCY_S
    ) -> None:
        self.feed = feed
        self.device = device
        self.latency = latency
        self.stream = None
        self._lock = threading.Lock()
        self._tick = threading.Event()
        self._finished = threading.Event()
        self._anchor: tuple[int, float] | None = None
        self._written = 0
        self._started: float | None = None
        #: Whether the device ran ahead of the clock (ALSA null or file) and was held to it.
        self.paced = False

    def __enter__(self) -> Self:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def start(self) -> None:
        sd = self._sd = load_sounddevice()
        where = quoted(self.device.name) if self.device else _("the default device")
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
                _(
                    "cannot play on {device}: {reason}; choose another device, or write a file "
                    "with 'drumscore render'"
                ).format(device=where, reason=exc),
                option="device",
            ) from None

    def close(self) -> None:
        """Stop at once, dropping whatever is still buffered."""
        stream, self.stream = self.stream, None
        if stream is not None:
            stream.abort(ignore_errors=True)
            stream.close(ignore_errors=True)
        self._finished.set()

    def _callback(self, outdata: np.ndarray, frames: int, time: Any, status: Any) -> None:
        self._pace()
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

    def _pace(self) -> None:
        """Hold a looping stream to the system clock when the device does not pace it.

        ALSA's null and file devices take samples as fast as they are given; a loop would then
        fill a disk. A real device never runs PACE_AHEAD ahead of the clock, so this only waits
        on such devices.
        """
        if not self.feed.loop:
            return
        now = clock.monotonic()
        if self._started is None:
            self._started = now
        ahead = self._written / self.feed.rate - (now - self._started) - PACE_AHEAD
        if ahead > 0:
            self.paced = True
            self._finished.wait(ahead)

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

    def hits(self, poll: Poll | None = None) -> Iterator[Hit | None]:
        """Each hit as it is heard, by the stream clock; None between hits as `poll` says (so a
        display can show a change at once), until the stream has ended."""
        feed, rate = self.feed, self.feed.rate
        polled = next_poll(poll, clock.monotonic())  # when the next None is due
        while True:
            with feed._lock:
                hit = feed.laid.popleft() if feed.laid else None
            if hit is None:
                if self._finished.is_set():
                    with feed._lock:
                        if not feed.laid:
                            return
                    continue
                self._tick.clear()
                wait = MAX_WAIT if polled is None else polled - clock.monotonic()
                self._tick.wait(max(0.0, wait))
                if polled is not None:
                    yield None
                    polled = next_poll(poll, clock.monotonic())
                continue
            while not self._finished.is_set():
                ahead = hit.frame - self.heard_frame()
                if ahead <= 0:
                    break
                self._tick.clear()
                step = min(ahead / rate, MAX_WAIT)
                if polled is not None:
                    step = min(step, polled - clock.monotonic())
                self._tick.wait(max(0.0, step))
                if polled is not None and clock.monotonic() >= polled:
                    yield None
                    polled = next_poll(poll, clock.monotonic())
            yield hit
            polled = next_poll(poll, clock.monotonic())

    @property
    def rate(self) -> int:
        return self.feed.rate

    def set_tempo(self, tempo: Tempo) -> None:
        self.feed.set_tempo(tempo)

    def command(self, name: str, *args: bool | Section) -> None:
        self.feed.command(name, *args)

    def coming(self) -> tuple[Section, Section | None]:
        return self.feed.coming()

    def wait(self) -> None:
        """Until the stream has played everything (the last stroke rung out)."""
        while not self._finished.wait(MAX_WAIT):
            pass
