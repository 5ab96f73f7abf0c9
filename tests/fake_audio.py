"""Stand-ins for a machine's audio: what tests put in place of what is not there."""

from __future__ import annotations


def no_library(name: str):
    """An importer for a machine without the PortAudio library: every import fails as it would."""
    raise OSError("PortAudio library not found")


# --- a paced output stream for whole runs of `drumscore play` -----------------------------------

PACED_BLOCK = 256
PACED_LATENCY = 0.05


class PacedStream:
    """A PortAudio output stream paced like a sound card: each block is asked for when the one
    before has been played (by the monotonic clock), reaches the listener PACED_LATENCY later,
    and is appended to `capture` (float32 stereo), so a test can find every stroke in it."""

    capture = None  # set by run_play

    def __init__(self, samplerate, callback, finished_callback, **_):
        import threading
        import time

        self.rate = samplerate
        self.callback = callback
        self.finished_callback = finished_callback
        self.latency = PACED_LATENCY
        self._clock = time.monotonic
        self._sleep = time.sleep
        self.t0 = self._clock()
        self.stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    @property
    def time(self) -> float:
        return self._clock() - self.t0

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import types

        import numpy as np

        out = np.zeros((PACED_BLOCK, 2), np.float32)
        j = 0
        with open(PacedStream.capture, "ab") as sink:
            while not self.stopped.is_set():
                due = j * PACED_BLOCK / self.rate
                if (wait := due - self.time) > 0:
                    self._sleep(wait)
                info = types.SimpleNamespace(outputBufferDacTime=due + self.latency)
                try:
                    self.callback(out, PACED_BLOCK, info, None)
                except PacedDevice.CallbackStop:
                    sink.write(out.astype("<f4").tobytes())
                    break
                sink.write(out.astype("<f4").tobytes())
                sink.flush()
                j += 1
        self.finished_callback()

    def abort(self, ignore_errors=True) -> None:
        self.stopped.set()

    def close(self, ignore_errors=True) -> None:
        self.stopped.set()


class VirtualClockStream(PacedStream):
    """A PacedStream on a clock of its own, which moves on only as the stream waits for its
    next block: each block is asked for as soon as the one before is written, and the stream's
    time says it has been played. A whole play takes the time its computing takes, and
    receives the same samples as on the monotonic clock."""

    def __init__(self, samplerate, callback, finished_callback, **kwargs):
        super().__init__(samplerate, callback, finished_callback, **kwargs)
        self.now = 0.0
        self.t0 = 0.0
        self._clock = lambda: self.now
        self._sleep = self._wait

    def _wait(self, seconds: float) -> None:
        self.now += seconds


class PacedDevice:
    """Enough of the sounddevice module for `drumscore play` on one paced output."""

    class PortAudioError(Exception):
        pass

    class CallbackStop(Exception):
        pass

    OutputStream = PacedStream

    def __init__(self):
        import types

        self.default = types.SimpleNamespace(device=[-1, 0])

    def query_devices(self, kind=None):
        return [
            {
                "index": 0,
                "name": "paced test output",
                "hostapi": 0,
                "max_output_channels": 2,
                "default_samplerate": 44100.0,
            }
        ]

    def query_hostapis(self):
        return [{"name": "test"}]


class VirtualClockDevice(PacedDevice):
    """A PacedDevice whose output is a VirtualClockStream: for a play that no one acts on
    while it plays (no key, no signal), which need not last as long as its sound."""

    OutputStream = VirtualClockStream


def run_play(capture: str, argv: list[str], virtual: bool = False) -> int:
    """`drumscore play ARGV` with its sound going to a PacedStream that writes to `capture`
    (with `virtual`, a VirtualClockStream)."""
    from drumscore.cli import main
    from drumscore.play import audio

    PacedStream.capture = capture
    device = VirtualClockDevice() if virtual else PacedDevice()
    audio.load_sounddevice = lambda: device
    return main(["play", *argv])


if __name__ == "__main__":
    import sys

    # fake_audio.py [--virtual-clock] CAPTURE ARGV...
    virtual = sys.argv[1] == "--virtual-clock"
    args = sys.argv[2:] if virtual else sys.argv[1:]
    raise SystemExit(run_play(args[0], args[1:], virtual))
