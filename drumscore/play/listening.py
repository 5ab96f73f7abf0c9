"""Listening while a score plays: drums heard through a microphone (a PortAudio input) or a
recorded take delivered at its own pace, fed to check's own listener (performance.stream), and
each stroke judged as it is heard against the strokes laid out (LiveCheck).

With no calibration of the sound card's round trip, the heard strokes are timed against the
performer's own first strokes: the first stroke heard is the first stroke of the score, and the
beat is the performer's (the mean offset of the strokes heard so far is theirs, not a fault).
"""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from drumscore.conductor.track import Hit, Role
from drumscore.errors import DrumscoreError, PlaybackError
from drumscore.files.format_choice import suffixes
from drumscore.i18n import _, quoted, seconds
from drumscore.model import Drum

if TYPE_CHECKING:
    import numpy as np

    from drumscore.performance.heard import Performance
    from drumscore.performance.stream import Heard, Listener

#: How long a thread holds the interpreter's lock while another waits for it, while listening.
SWITCH_SECONDS = 0.0005

#: How far a microphone's sound may run ahead of the clock (s: a sound card's own clock and
#: its bursts) before the input is taken for no microphone (a file, a null device).
AHEAD_SECONDS = 1.0

#: A take is delivered, and a microphone read, this many frames at a time (2.9 ms at 44.1 kHz):
#: a stroke's sound waits for its block to be whole before it is heard.
BLOCK = 128

#: A recording's block is taken this long after the time it ends (the clock read later than it
#: would be, rather than a look too soon for it).
DUE_SLACK = 0.0001


class OneBlasThread:
    """numpy's BLAS held to one thread while listening (threadpoolctl), until `close`: the
    listener's matrix products are small, and a second thread spins on them, costing more CPU
    than it saves time (0.25 of a core against 0.15, measured by bench/listen.py)."""

    def __init__(self) -> None:
        from threadpoolctl import threadpool_limits

        self._limits = threadpool_limits(limits=1, user_api="blas")

    def close(self) -> None:
        self._limits.restore_original_limits()


def is_device(source: str) -> bool:
    """Whether an input names a PortAudio input (a number or a name) rather than a recording
    (a file whose ending is one of the audio formats)."""
    return Path(source).suffix.lower() not in suffixes("audio").split()


class TakeInput:
    """A recording delivered as a microphone delivers a take: each block once the time it lasts
    has passed on the clock since `begin`, in the samples check reads (recording.blocks)."""

    def __init__(self, path: str) -> None:
        import contextlib
        import os

        import soundfile as sf

        from drumscore.files.headers import check_audio_header
        from drumscore.files.reading import open_input
        from drumscore.performance import recording

        self.name = path
        self.shown = quoted(path)
        # opened as check opens a take: a regular file under the limit (a FIFO or a device is
        # refused, not waited on), its header checked before it sizes anything
        self._closing = contextlib.ExitStack()
        try:
            file = self._closing.enter_context(open_input(path, "performance"))
            self.audio = self._closing.enter_context(sf.SoundFile(file.fileno(), closefd=False))
            check_audio_header(
                path,
                self.audio.samplerate,
                self.audio.channels,
                self.audio.frames,
                (str(self.audio.format), str(self.audio.subtype)),
                os.fstat(file.fileno()).st_size,
            )
        except (sf.LibsndfileError, RuntimeError, OSError, ValueError, TypeError) as exc:
            self._closing.close()
            if isinstance(exc, DrumscoreError):
                raise
            from drumscore.performance.listen import not_audio  # numpy: once a take is opened

            raise not_audio(path, exc, option="input") from None
        except BaseException:
            self._closing.close()
            raise
        self.rate = int(self.audio.samplerate)
        self._blocks = recording.blocks(self.audio)
        self._left: np.ndarray | None = None
        self.delivered = 0
        self.ended = False  # all of it delivered

    def take(self, until: float) -> list[np.ndarray]:
        """The blocks that have sounded `until` s after the start."""
        out = []
        due = until * self.rate
        while self.delivered + BLOCK <= due or (self._left is not None and len(self._left) == 0):
            if self._left is None or len(self._left) == 0:
                self._left = next(self._blocks, None)
                if self._left is None:
                    self.ended = True
                    break
                continue
            n = min(BLOCK, len(self._left))
            out.append(self._left[:n])
            self._left = self._left[n:]
            self.delivered += n
        return out

    def close(self) -> None:
        self._closing.close()


class PushedInput:
    """Sound sent in (`push`) as it is recorded elsewhere (a served page's microphone): its
    blocks as they came, mono float32 samples at `rate`."""

    def __init__(self, name: str, rate: int) -> None:
        self.name = name
        self.shown = quoted(name)
        self.rate = rate
        self._queue: queue.SimpleQueue[np.ndarray] = queue.SimpleQueue()

    def push(self, samples: np.ndarray) -> None:
        self._queue.put(samples)

    def take(self, until: float) -> list[np.ndarray]:
        """The blocks that came since the last take (those that come meanwhile wait for the
        next: an input faster than the listener cannot keep it taking)."""
        out = []
        for _k in range(self._queue.qsize()):
            try:
                out.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return out

    def close(self) -> None:
        """Nothing to close."""


class DeviceInput(PushedInput):
    """A PortAudio input (a microphone): its blocks as they arrive, the channels' mean."""

    def __init__(self, name: str) -> None:
        from drumscore.play.audio import choose_device, load_sounddevice

        sd = load_sounddevice()
        device = choose_device(name, "input")
        super().__init__(device.name, int(device.default_rate))
        try:
            self.stream = sd.InputStream(
                device=device.index,
                samplerate=self.rate,
                blocksize=BLOCK,
                dtype="float32",
                callback=self._arrived,
            )
            self.stream.start()
        except (ValueError, sd.PortAudioError) as exc:
            raise PlaybackError(
                _("cannot listen on audio input {name!r}: {error}").format(name=name, error=exc)
            ) from None

    def _arrived(self, data: Any, frames: int, when: Any, status: Any) -> None:
        self.push(data.mean(axis=1).astype("float32"))

    def close(self) -> None:
        self.stream.stop()
        self.stream.close()


class AudioListener:
    """The strokes played along on drums, heard as they sound: an input (a recording or a
    PortAudio input) fed to check's listener. Shaped as midiport.Listener is (begin, elapsed,
    linger, close), for play's loop; `catch_up` feeds what has sounded and returns the strokes
    it told; `finish` is the performance check reads in the whole take."""

    def __init__(
        self,
        source: str | PushedInput,
        *,
        count_sound: bool = False,
        click_velocity: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], object] = time.sleep,
    ) -> None:
        from drumscore.performance.stream import Listener

        self.input: TakeInput | DeviceInput | PushedInput
        if isinstance(source, PushedInput):
            self.input = source
        else:
            self.input = DeviceInput(source) if is_device(source) else TakeInput(source)
        self.name = self.input.name
        self.clock = clock
        self.sleep = sleep
        self.start = clock()
        self._lock = threading.Lock()
        self.listener: Listener = Listener(
            self.input.rate,
            source=self.name,
            count_sound=count_sound,
            click_velocity=click_velocity,
        )
        #: The strokes told as they sounded, each once; and the revisions of those lines told
        #: later, as check's reading further past a stroke settled it (a flam moved to its main
        #: stroke, a line withdrawn, a drum retold; stream.Heard.revises).
        self.heard: list[Heard] = []
        self.revised: list[Heard] = []
        #: Both, in the order they were told.
        self.told: list[Heard] = []
        self.blas = OneBlasThread()
        # the input's callback runs in PortAudio's thread and needs the interpreter's lock:
        # while the listener computes it waits at most this long for it, within a sound card's
        # period (a JACK period is 5 ms, Python's own switch interval as long)
        self._switch = sys.getswitchinterval()
        sys.setswitchinterval(SWITCH_SECONDS)
        self._stopped = False

    def begin(self, early: float = 0.0) -> None:
        """Playback starts now: the take's time counts from here. What a microphone heard
        before is let go, so that its take, as a recording's, starts with playback: the strokes
        heard are on the score's clock, late only by the sound card's own latency."""
        with self._lock:
            if isinstance(self.input, DeviceInput):
                self.input.take(0.0)
            self.start = self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.start

    def due(self) -> float | None:
        """Seconds from now until the listener's next look has its sound (the recording's block
        that ends it delivered, and DUE_SLACK): none is worth taking before. None where that is
        not known beforehand (a microphone's blocks come as its sound card gives them), or no
        more sound is coming (the recording delivered whole)."""
        if not isinstance(self.input, TakeInput) or self.input.ended:
            return None
        wanted = self.listener.probed + self.listener.step
        delivered = -(-wanted // BLOCK) * BLOCK
        return max(0.0, self.start + delivered / self.input.rate + DUE_SLACK - self.clock())

    def catch_up(self) -> list[Heard]:
        """Feed what has sounded so far; the strokes it let be told (their revisions kept in
        `revised`)."""
        import numpy as np  # loaded with the listener already

        with self._lock:
            blocks = self.input.take(self.elapsed())
            if isinstance(self.input, DeviceInput):
                self._paced(sum(len(b) for b in blocks))
            # the blocks come together: heard at once (the listener hears any chunk alike)
            new = self.listener.feed(np.concatenate(blocks)) if blocks else []
            self.told += new
            self.revised += [h for h in new if h.revises is not None]
            new = [h for h in new if h.revises is None]
            self.heard += new
            return new

    def _paced(self, coming: int) -> None:
        """Refuse an input that gives sound faster than time passes (a file read as fast as it
        is asked, a null device): listening to it would fall ever further behind and never
        end."""
        heard = (self.listener.samples.frames + coming) / self.input.rate
        passed = self.clock() - self.start
        if heard > passed + AHEAD_SECONDS:
            raise PlaybackError(
                _(
                    "input {name}: it gave {heard} of sound in {passed}, faster than time "
                    "passes, so it is no microphone (a file or a null device read as fast as it "
                    "is asked); give a sound card's input, or the recording itself"
                ).format(
                    name=self.input.shown,
                    heard=seconds(f"{heard:.1f}"),
                    passed=seconds(f"{passed:.1f}"),
                ),
                option="input",
            )

    @property
    def heard_until(self) -> float:
        """How much of the take has been heard (s from the start of playback)."""
        return self.listener.samples.frames / self.listener.rate

    def linger(self, seconds: float) -> None:
        """Go on listening for `seconds` (a last stroke played a little late)."""
        if seconds > 0:
            self.sleep(seconds)
        self.catch_up()

    def stop(self) -> None:
        """Playback was stopped before the score's end (Ctrl-C, q, Esc): a recording ends where
        it was heard to, as a microphone's take does; its rest is not heard."""
        self._stopped = True

    def finish(self) -> Performance:
        """The strokes of the whole take, as check finds them in its recording (a recording's
        rest, after the score, heard at once)."""
        self._rest()
        return self.listener.finish()

    def _rest(self) -> None:
        """A recording's rest, after the score, heard at once (not shown)."""
        with self._lock:
            if isinstance(self.input, TakeInput) and not self._stopped:
                for block in self.input.take(float("inf")):
                    self.listener.feed(block, tell=False)

    def recording(self, fmt: str) -> bytes:
        """The take heard, as a recording in `fmt` (WAV, FLAC, OGG): the samples the listener
        heard (the channels' mean), as floats in a WAV, so that check reads the strokes heard."""
        import io

        import soundfile as sf

        self._rest()
        subtype = {"WAV": "FLOAT", "FLAC": "PCM_24", "OGG": "VORBIS"}[fmt]
        samples = self.listener.samples
        data = io.BytesIO()
        sf.write(data, samples.span(0, samples.frames), samples.samplerate, subtype, format=fmt)
        return data.getvalue()

    def __enter__(self) -> AudioListener:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.input.close()
        self.blas.close()
        sys.setswitchinterval(self._switch)


# --- each stroke judged as it is heard ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Verdict:
    """A stroke heard (or missed) as it was judged live: `kind` is "played" (on the drum the score
    has), "wrong" (on the other drum), "extra" (no stroke of the score near it) or "missed" (a
    stroke of the score with none heard); `number` the score's stroke (from 1, None for an
    extra); `offset_ms` from the performer's even beat."""

    kind: str
    drum: Drum | None
    expected: Drum | None = None
    number: int | None = None
    offset_ms: float | None = None


@dataclass
class _Expected:
    time: float
    drum: Drum
    number: int
    heard: bool = False
    #: Said missed (`passed`): a stroke for it that comes to light later is still its own.
    missed: bool = False


class LiveCheck:
    """The strokes laid out as the score plays (`expect`), and each stroke heard judged against
    them (`hear`): its nearest stroke of the score within half a beat, once the first stroke
    heard has set the performer's own beat; the strokes passed with none heard (`passed`)."""

    def __init__(
        self, rate: int, interval: float, only: Drum | None = None, lag: float | None = None
    ) -> None:
        self.rate = rate
        self.interval = interval
        self.only = only
        self.expected: list[_Expected] = []
        self.lags: list[float] = []  # heard − laid out, of the strokes matched
        #: The round trip measured (latency.measure): the strokes heard are put on the
        #: score's clock by it, not by the performer's first strokes.
        self.fixed = lag

    def expect(self, hit: Hit) -> None:
        if hit.role is not Role.STROKE or hit.drum is None or hit.drum is self.only:
            return
        self.expected.append(_Expected(hit.frame / self.rate, hit.drum, hit.k + 1))

    @property
    def lag(self) -> float | None:
        if self.fixed is not None:
            return self.fixed
        return sum(self.lags) / len(self.lags) if self.lags else None

    def hear(self, time: float, drum: Drum, *, final: bool = False) -> Verdict | None:
        """The verdict on a stroke heard at `time` (s from the start of playback); None while
        no stroke of the score has sounded to set the performer's beat by, or while the strokes
        laid out end more than half a beat before it (ask again later, or `final`ly)."""
        lag = self.lag
        if lag is None:  # the first stroke heard: the first of the score not yet heard
            waiting = [e for e in self.expected if not e.heard]
            if not waiting:
                return None
            lag = time - waiting[0].time
        elif not final and (
            not self.expected or time - lag > self.expected[-1].time + self.interval / 2
        ):
            return None  # its stroke of the score may not be laid out yet
        near = [e for e in self.expected if not e.heard or e.missed]
        best = min(near, key=lambda e: abs(time - lag - e.time), default=None)
        if best is None or abs(time - lag - best.time) > self.interval / 2:
            return Verdict("extra", drum)
        best.heard, best.missed = True, False
        self.lags.append(time - best.time)
        offset = (time - best.time - (self.lag or 0.0)) * 1000  # from the score's beat when fixed
        kind = "played" if best.drum is drum else "wrong"
        return Verdict(kind, drum, best.drum, best.number, offset)

    def passed(self, now: float, lookahead: float = 0.06) -> list[Verdict]:
        """The strokes of the score more than half a beat (and the listener's lookahead) past,
        on the performer's clock, with none heard: missed."""
        lag = self.lag
        if lag is None:
            return []
        out = []
        for e in self.expected:
            if not e.heard and e.time + lag + self.interval / 2 + lookahead < now:
                e.heard = e.missed = True
                out.append(Verdict("missed", None, e.drum, e.number))
        return out

    def forget(self, verdict: Verdict, time: float) -> None:
        """Take back the verdict on a stroke heard at `time` (the listener revised it): its
        stroke of the score is unheard again, and its lag no longer sets the beat."""
        if verdict.number is None or verdict.kind == "missed":
            return
        for e in self.expected:
            if e.number == verdict.number:
                e.heard = False
                lag = time - e.time
                if self.lags:
                    self.lags.pop(min(range(len(self.lags)), key=lambda k: abs(self.lags[k] - lag)))
                return
