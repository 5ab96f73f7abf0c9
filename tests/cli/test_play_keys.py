"""Keys while `drumscore play` plays, through a pseudo-terminal, against a paced output stream:
the stroke times are found in the samples the stream received and checked against the beat."""

from __future__ import annotations

import os
import re
import sys
import time
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from audio_checks import count_strokes, strokes

from drumscore.corpus import resolve
from drumscore.timing import MAX_BPM, MIN_BPM, Tempo

pexpect = pytest.importorskip("pexpect")

RATE = 44100
TESTS = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def spawn(tmp_path, *args, virtual=False):
    """`drumscore play ARGS` in a pseudo-terminal, its sound to a paced stream (`virtual`: on a
    clock of its own, for a play no key acts on), and the file the stream writes."""
    capture = tmp_path / "captured.raw"
    env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(TESTS.parent))
    clock = ["--virtual-clock"] if virtual else []
    child = pexpect.spawn(
        sys.executable,
        [str(TESTS / "fake_audio.py"), *clock, str(capture), *args],
        env=env,
        encoding="utf-8",
        dimensions=(24, 120),
        timeout=20,
    )
    child.delaybeforesend = None
    return child, capture


def heard(capture) -> np.ndarray:
    data = np.fromfile(capture, dtype="<f4")
    return data[: len(data) // 2 * 2].reshape(-1, 2)


def wait_for_stroke(child, n):
    child.expect(rf"stroke {n}/")


def test_tempo_changes_are_exact_at_the_next_stroke_pause_keeps_the_beat_q_ends_the_pass(
    tmp_path,
):
    notation = "○□○○□○□□"
    pattern = [s.drum for s in resolve(notation).pattern.strokes]
    child, capture = spawn(tmp_path, notation, "--bpm", "400", "--loop")
    wait_for_stroke(child, 3)
    child.send("]")  # +5: 400 → 405
    child.expect("405/min")
    wait_for_stroke(child, 7)
    child.send("-")  # 405 → 404
    child.expect("404/min")
    child.expect(r"stroke 3/8 .* pass 2")
    child.send(" ")
    child.expect("PAUSED")
    time.sleep(0.3)
    child.send(" ")
    wait_for_stroke(child, 6)
    child.send("q")
    child.expect("stop at end of pass")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    assert "keys:" in ANSI.sub("", child.before)

    found = strokes(heard(capture), RATE)
    assert len(found) % len(pattern) == 0  # q stopped at the end of a pass
    assert [d for _, d in found] == pattern * (len(found) // len(pattern))  # none lost, doubled
    frames = [f for f, _ in found]
    # every stroke on a grid counted from the last stroke before a change, at the new interval
    tempos = iter([Fraction(400), Fraction(405), Fraction(404)])
    step = Fraction(60) / next(tempos) * RATE
    anchor, changes, gaps = frames[0], [], []
    beat = 0
    for k in range(1, len(frames)):
        b = round((frames[k] - anchor) / step)
        if abs(frames[k] - anchor - round(b * step)) > 1:
            step = Fraction(60) / next(tempos) * RATE
            anchor, beat = frames[k - 1], 0
            changes.append(k)
            b = round((frames[k] - anchor) / step)
        assert abs(frames[k] - anchor - round(b * step)) <= 1, (k, frames[k])
        gaps.append(b - beat)
        beat = b
    assert len(changes) == 2
    assert 3 <= changes[0] <= 6 and 7 <= changes[1] <= 10  # at the next stroke or the one after
    assert gaps[changes[0] - 1] == gaps[changes[1] - 1] == 1  # no gap at a change
    paused = [g for g in gaps if g != 1]
    assert len(paused) == 1 and paused[0] >= 2  # silent beats, then on the same beat again


def test_tap_tempo_sets_the_tempo_tapped_and_escape_stops_at_once(tmp_path):
    """Taps through the terminal set the tempo the status line shows; what tempo the taps'
    gaps give is checked exactly on a virtual clock (tests/cli/test_live_tap.py), not here on
    the wall clock of a pseudo-terminal."""
    child, capture = spawn(tmp_path, "○□○□", "--bpm", "240", "--loop", "--count-in", "3")
    child.expect("count 1/3")
    wait_for_stroke(child, 2)
    for _ in range(4):
        child.send("t")
        time.sleep(0.3)
    child.expect(r"(\d+(\.\d)?)/min\s")
    while abs(float(child.match.group(1)) - 240) < 1:  # the old tempo, before the last tap
        child.expect(r"(\d+(\.\d)?)/min\s")
    tapped = float(child.match.group(1))
    child.send("\x1b")
    sent = time.monotonic()
    child.expect(pexpect.EOF)
    child.close()
    assert time.monotonic() - sent < 1.5
    assert child.exitstatus == 0
    assert tapped != 240 and MIN_BPM <= tapped <= MAX_BPM
    audio = heard(capture)
    counts, first = count_strokes(audio, RATE), strokes(audio, RATE)[0][0]
    assert [c - counts[0] for c in counts] == [0, RATE // 4, RATE // 2]  # on the beat of 240
    assert first - counts[0] == 3 * RATE // 4


def test_a_programme_on_the_big_display_names_each_item_and_restores_the_screen(tmp_path):
    from drumscore.play import liveview

    programme = tmp_path / "p.toml"
    programme.write_text(
        '[[item]]\nlabel = "first"\nscore = "○□"\ncount_in = 1\npause = 0.2\n'
        '[[item]]\nlabel = "second"\nscore = "□○○"\n',
        encoding="utf-8",
    )
    child, capture = spawn(
        tmp_path, "--programme", str(programme), "--bpm", "600", "--big", virtual=True
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    out = child.before
    assert out.index(liveview.ALT_SCREEN) < out.index("item 1/2: first")
    assert "count 1 of 1" in out and "item 2/2: second" in out
    assert liveview.FULL * 8 in out
    assert liveview.MAIN_SCREEN in out[out.rindex("item 2/2") :]
    assert "played 5 strokes" in ANSI.sub("", out)
    found = strokes(heard(capture), RATE)
    assert [d.symbol for _, d in found] == list("○□□○○")
    step = RATE // 10
    # the second item starts two beats and the 0.2 s pause after the first item's first stroke
    assert found[2][0] - found[0][0] == 2 * step + RATE // 5


class UnpacedStream:
    """An output stream that asks for each block as soon as the one before is written, as
    ALSA's file and null devices do, `blocks` times; it notes, at each block, the time on the
    player's clock and the seconds written before it."""

    BLOCK = 1024
    blocks = 400

    def __init__(self, samplerate, callback, finished_callback, **_):
        import threading

        self.rate = samplerate
        self.callback = callback
        self.finished_callback = finished_callback
        self.latency = 0.05
        self.time = 0.0  # (no DAC times: the player counts the latency back)
        self.seen: list[tuple[float, float]] = []
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _run(self) -> None:
        import types

        from drumscore.play import audio

        out = np.zeros((self.BLOCK, 2), np.float32)
        info = types.SimpleNamespace(outputBufferDacTime=0.0)
        for j in range(self.blocks):
            self.seen.append((audio.clock.monotonic(), j * self.BLOCK / self.rate))
            self.callback(out, self.BLOCK, info, None)
        self.finished_callback()

    def join(self) -> None:
        self._thread.join()

    def abort(self, ignore_errors=True) -> None:
        pass

    def close(self, ignore_errors=True) -> None:
        pass


def test_a_loop_on_a_stream_that_does_not_pace_is_held_to_the_clock(monkeypatch):
    """The player's own pacing, on a clock that moves only as the player waits for it: a loop
    never runs more than PACE_AHEAD and a block ahead of the clock, and the clock is not held
    back either (the loop keeps the clock's pace). On a real device and the real clock:
    test_a_loop_on_a_device_that_does_not_pace_is_held_to_the_clock (in the slow run)."""
    import threading
    import types

    from drumscore.conductor.timeline import arrange
    from drumscore.play import audio

    class Waiting(threading.Event):
        """The player's event of the stream's end, whose waits move the clock on."""

        def wait(self, timeout=None):
            if timeout is not None and not self.is_set():
                clock.now += timeout
                return False
            return super().wait(timeout)

    clock = types.SimpleNamespace(now=100.0)
    clock.monotonic = lambda: clock.now
    monkeypatch.setattr(audio, "clock", clock)
    device = types.SimpleNamespace(
        OutputStream=UnpacedStream, PortAudioError=OSError, CallbackStop=StopIteration
    )
    monkeypatch.setattr(audio, "load_sounddevice", lambda: device)
    t = arrange(resolve("○□"), None, Tempo.from_interval("0.05"), 1)
    player = audio.AudioPlayer(audio.Feed(t, loop=True))
    player._finished = Waiting()
    player.start()
    stream = player.stream
    stream.join()
    player.close()
    assert player.paced
    block = UnpacedStream.BLOCK / stream.rate
    start = stream.seen[0][0]
    for now, written in stream.seen:
        assert written - (now - start) <= audio.PACE_AHEAD + block + 1e-9, (now, written)
        if written >= audio.PACE_AHEAD + block:  # (from when it is that far ahead)
            assert written - (now - start) >= audio.PACE_AHEAD - block - 1e-9, (now, written)


@pytest.mark.slow  # on the real clock of a real device: its 1.5 s are what it tests
@pytest.mark.requires("portaudio")
def test_a_loop_on_a_device_that_does_not_pace_is_held_to_the_clock(tmp_path):
    from alsa_capture import alsa_env, play_command, read_capture

    capture = tmp_path / "captured.raw"
    env = alsa_env(tmp_path / "home", capture)
    child = pexpect.spawn(
        play_command("○□", "--interval", "0.05", "--loop")[0],
        play_command("○□", "--interval", "0.05", "--loop")[1:],
        env=env,
        encoding="utf-8",
        codec_errors="replace",  # Ctrl-C may cut a character short as it is written
        timeout=20,
    )
    child.expect("stroke 2/2")
    started = time.monotonic()
    time.sleep(1.5)
    child.sendintr()
    child.expect(pexpect.EOF)
    elapsed = time.monotonic() - started
    child.close()
    seconds = len(read_capture(capture)) / RATE
    # ALSA's file plugin takes samples as fast as they come: without pacing, minutes by now
    assert seconds < elapsed + 1.5
    assert seconds > elapsed - 0.5
