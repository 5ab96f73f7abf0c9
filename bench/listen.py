"""How soon `drumscore play --listen` shows a stroke it hears, and what listening costs.

A take of drums (the kit's own samples placed on an even beat with offsets, one stroke missed and
one on the other drum: tests/performances.py) is played along with `drumscore play SCORE
--listen --input TAKE.wav`, in a pseudo-terminal (so the real display paints it: LiveView, or
BigView with --big), on the real clock, the score sent to a MIDI port (tests/fake_midi_backend.py,
paced on the monotonic clock as a synthesiser would sound it). The take is delivered from the
moment playback begins (AudioListener.begin, stamped on the monotonic clock in the child); each
stroke sounds at its time in the take, and its line is on screen when the terminal receives the
text `stroke N` (read from the pseudo-terminal's master, stamped on the same clock).

Each figure is printed beside a reference measured in the same run:

    sound → line on screen        beside  check's listener alone on the same take, in-process
                                          (stream.Heard.heard_at − the stroke's onset: the
                                          lookahead it needs)          target: within 60 ms
    CPU while listening           beside  the same play without --listen (the player and the
                                          display), and listening with numpy's default BLAS
                                          thread pool                   target: < 0.25 core

A capture device paced like a microphone (JACK's dummy driver, a take played from its ports by
sndfile-jackplay) is what tests/cli/test_play_listen.py plays a take through; ALSA's `file`
plugin is not one (its slave `null` delivers as fast as it is read: 2270 s of sound in 2 s),
and play refuses such an input at once.

Usage: python bench/listen.py [--runs N] [--big]
"""

from __future__ import annotations

import argparse
import json
import os
import pty
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import soundfile as sf

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from performances import take, write_audio  # noqa: E402

from drumscore.corpus import resolve  # noqa: E402

SCORE = "lu"
BPM = 100
SYNTH = "bench synth"

#: The child: drumscore's own main, with playback's start and the CPU used stamped on stderr.
CHILD = """
import os, sys, time
import drumscore.play.listening as listening
import drumscore.play.player
if os.environ.get("BENCH_BLAS") == "default":  # numpy's default thread pool, for comparison
    class Pool:
        def close(self):
            pass
    listening.OneBlasThread = Pool
from drumscore.cli.commands import play
original = play._play
def timed(*args, **kwargs):
    print(f"BEGIN {time.monotonic():.6f} {time.process_time():.6f}", file=sys.stderr, flush=True)
    try:
        return original(*args, **kwargs)
    finally:
        print(f"END {time.monotonic():.6f} {time.process_time():.6f}", file=sys.stderr, flush=True)
play._play = timed
caught = listening.AudioListener.catch_up
def catch_up(self):
    entered, cpu = time.monotonic(), time.thread_time()
    new = caught(self)
    for h in new:
        stamp = (
            f"TOLD {time.monotonic():.6f} {h.stroke.time:.6f} {h.heard_at} {entered:.6f} "
            f"{time.thread_time() - cpu:.6f}"
        )
        print(stamp, file=sys.stderr, flush=True)
    return new
listening.AudioListener.catch_up = catch_up
from drumscore.cli import main
sys.exit(main(sys.argv[1:]))
"""


def make_take(folder: Path) -> tuple[Path, list[tuple[int, float]]]:
    """The take (one stroke missed, one on the other drum), and (score stroke number, time in
    the take) of each stroke played."""
    drums = [s.drum for s in resolve(SCORE).pattern.strokes]
    t = take(drums, BPM, seed=7, spread_ms=15, missed=[5], wrong=[9])
    t.start = 0.05  # the drums answer the score's first stroke (at 0) 50 ms later
    path = write_audio(folder / "take.wav", t)
    played = [(k + 1, t.time(k) + float(t.offsets[k])) for k in t.played]
    return path, played


def detector_delays(path: Path, played: list[tuple[int, float]]) -> list[float]:
    """check's listener alone: how long after each stroke's onset its line is told (ms)."""
    import soundfile as sf

    from drumscore.performance.stream import Listener
    from drumscore.play.listening import BLOCK

    samples, rate = sf.read(path, dtype="float32")
    mono = samples.mean(axis=1)
    listener = Listener(rate)
    told = []
    for at in range(0, len(mono), BLOCK):
        told += [h for h in listener.feed(mono[at : at + BLOCK]) if h.revises is None]
    out = []
    for _number, onset in played:
        near = [h for h in told if abs(h.stroke.time - onset) < 0.03]
        if near:
            out.append((near[0].heard_at / rate - onset) * 1000)
    return out


@dataclass(frozen=True)
class Told:
    """A stroke the listener told the display (AudioListener.catch_up): its time in the take,
    when catch_up began and returned it (s after playback began), the samples heard when the
    listener told it, and the CPU that catch_up took."""

    time: float
    entered: float
    told: float
    heard_at: int
    cpu: float


@dataclass(frozen=True)
class Run:
    """A play timed: when each score stroke's line first reached the terminal (monotonic), when
    playback began, its wall and CPU seconds, and the strokes the listener told the display."""

    seen: dict[int, float]
    start: float
    wall: float
    cpu: float
    told: list[Told]


def run_play(take_path: Path, listen: bool, env: dict[str, str], big: bool = False) -> Run:
    """`drumscore play` in a pseudo-terminal, timed."""
    argv = ["play", SCORE, "--bpm", str(BPM), "--midi-port", SYNTH]
    if listen:
        argv += ["--listen", "--input", str(take_path)]
    if big:
        argv.append("--big")
    master, slave = pty.openpty()
    os.set_blocking(master, False)
    import fcntl
    import struct
    import termios

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, *argv],
        stdin=slave,
        stdout=slave,
        stderr=subprocess.PIPE,
        env=env,
        close_fds=True,
    )
    os.close(slave)
    seen: dict[int, float] = {}
    text = ""
    while True:
        ready = select.select([master], [], [], 0.2)[0]
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                break
            now = time.monotonic()
            if not data:
                break
            text += data.decode("utf-8", errors="replace")
            for m in re.finditer(r"stroke (\d+)(?::| \()", text):
                seen.setdefault(int(m[1]), now)
            text = text[-200:]  # a line split between reads is whole in the next
        elif proc.poll() is not None:
            break
    proc.wait()
    os.close(master)
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    if proc.returncode != 0:
        raise SystemExit(f"drumscore {' '.join(argv)} failed:\n{err}")
    begin = next(line.split() for line in err.splitlines() if line.startswith("BEGIN "))
    end = next(line.split() for line in err.splitlines() if line.startswith("END "))
    start = float(begin[1])
    told = []
    for line in err.splitlines():
        if line.startswith("TOLD "):
            at, time_, heard_at, entered, cpu = line.split()[1:]
            told.append(
                Told(
                    float(time_),
                    float(entered) - start,
                    float(at) - start,
                    int(heard_at),
                    float(cpu),
                )
            )
    return Run(seen, start, float(end[1]) - start, float(end[2]) - float(begin[2]), told)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--big", action="store_true", help="the big display, not the normal one")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        take_path, played = make_take(folder)
        rate = sf.info(str(take_path)).samplerate
        (folder / "midi.json").write_text(
            json.dumps({"inputs": [], "outputs": [SYNTH], "notes": []}), encoding="utf-8"
        )
        env = dict(
            os.environ,
            LANG="C.UTF-8",
            LANGUAGE="en",
            MIDO_BACKEND="fake_midi_backend",
            FAKE_MIDI=str(folder / "midi.json"),
            PYTHONPATH=os.pathsep.join([str(ROOT), str(ROOT / "tests")]),
        )
        env.pop("DRUMSCORE_LANG", None)
        delays = detector_delays(take_path, played)
        print(
            f"take: {SCORE} at {BPM} a minute, {len(played)} strokes played "
            f"(one missed, one on the other drum), {take_path.stat().st_size // 1024} KB"
        )
        print(
            f"  reference: check's listener alone tells each stroke "
            f"{statistics.median(delays):.0f} ms after its onset (median; "
            f"{min(delays):.0f}–{max(delays):.0f} ms)",
            flush=True,
        )
        lags: list[float] = []
        told: list[float] = []
        # where the time from a stroke's sound to its line goes: the sound the listener needs
        # (its lookahead), the wait for that sound to reach catch_up (a block whole, the loop's
        # wakeup), catch_up's work (and its CPU), and the display with the terminal
        parts: dict[str, list[float]] = {"sound": [], "wait": [], "work": [], "cpu": [], "show": []}
        cpu_listen: list[float] = []
        cpu_default: list[float] = []
        cpu_play: list[float] = []
        for _ in range(args.runs):
            run = run_play(take_path, True, env, args.big)
            for number, onset in played:
                if number in run.seen:
                    lags.append((run.seen[number] - run.start - onset) * 1000)
                near = [t for t in run.told if abs(t.time - onset) < 0.03]
                told += [(t.told - onset) * 1000 for t in near]
                if near and number in run.seen:
                    first = near[0]
                    ready = first.heard_at / rate
                    parts["sound"].append((ready - onset) * 1000)
                    parts["wait"].append((first.entered - ready) * 1000)
                    parts["work"].append((first.told - first.entered) * 1000)
                    parts["cpu"].append(first.cpu * 1000)
                    parts["show"].append((run.seen[number] - run.start - first.told) * 1000)
            cpu_listen.append(run.cpu / run.wall)
            alone = run_play(take_path, False, env, args.big)
            cpu_play.append(alone.cpu / alone.wall)
            pool = run_play(take_path, True, dict(env, BENCH_BLAS="default"), args.big)
            cpu_default.append(pool.cpu / pool.wall)
        display = "--big" if args.big else "normal"
        shown = len(lags) / args.runs
        print(
            f"sound → line on screen ({display} display, a pseudo-terminal, {shown:.0f} of "
            f"{len(played)} strokes a run, {args.runs} runs): median {statistics.median(lags):.0f} "
            f"ms, 90% within {np.percentile(lags, 90):.0f} ms, worst {max(lags):.0f} ms "
            f"(target: within 60 ms; the listener alone {statistics.median(delays):.0f} ms)"
        )
        print(
            f"  of which told to the display (AudioListener.catch_up) after a median "
            f"{statistics.median(told):.0f} ms: the rest is the display and the terminal"
        )
        m = {k: statistics.median(v) for k, v in parts.items()}
        print(
            f"  where it goes (medians): the sound judged {m['sound']:.0f} ms, its wait to reach "
            f"catch_up {m['wait']:.0f} ms, catch_up's work {m['work']:.0f} ms ({m['cpu']:.0f} ms "
            f"of CPU), the display and the terminal {m['show']:.0f} ms"
        )
        listen = statistics.median(cpu_listen)
        base = statistics.median(cpu_play)
        default_pool = statistics.median(cpu_default)
        ok = "meets" if listen < 0.25 else "MISSES"
        print(
            f"CPU while playing and listening: {listen:.2f} of a core (one BLAS thread; {ok} "
            f"the target < 0.25), beside {base:.2f} playing alone and {default_pool:.2f} "
            f"listening with numpy's default BLAS pool; listening itself "
            f"{listen - base:.2f} of a core"
        )


if __name__ == "__main__":
    main()
