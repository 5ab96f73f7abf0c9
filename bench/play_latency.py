"""How soon `drumscore play` sounds, and how much of each audio block the mixing takes.

Start-up: the time from launching `drumscore play` to the first stroke being reported heard by the
stream clock (the plain, line-per-stroke output), on ALSA's file plugin as the device, so it runs
without a sound card. Target: under 0.3 s for a short score (beyond Python's own start-up).

Mixing: seconds of work per audio block in the callback, against the block's duration.

    python bench/play_latency.py            # needs libportaudio2 and drumscore[play]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

DEVICE = "bench_capture"
RUNS = 5


def alsa_home(root: Path) -> dict[str, str]:
    (root / ".asoundrc").write_text(
        f'pcm.{DEVICE} {{ type file; slave.pcm "null"; file "/dev/null"; format "raw" }}\n',
        encoding="utf-8",
    )
    env = dict(os.environ, HOME=str(root), XDG_CONFIG_HOME=str(root / ".config"))
    env.pop("ALSA_CONFIG_PATH", None)
    return env


def first_stroke(args: list[str], env: dict[str, str]) -> float:
    """Seconds from launch to the first stroke line on stdout."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "play", *args, "--device", DEVICE],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        text=True,
        encoding="utf-8",
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if line.lstrip().startswith("1 "):
            elapsed = time.perf_counter() - start
            break
    else:
        raise SystemExit(f"no stroke reported for {args}")
    proc.kill()
    proc.wait()
    return elapsed


WARM = """
import os, sys, time
import numpy, sounddevice, soundfile, mido  # the imports, already paid for
from drumscore.cli import main
start = time.perf_counter()
import drumscore.play.audio as pb
original = pb.AudioPlayer.hits
def timed(self, poll=None):
    for hit in original(self, poll):
        if hit is not None:
            print(f"FIRST {time.perf_counter() - start:.4f}", file=sys.stderr, flush=True)
            os._exit(0)
        yield hit
pb.AudioPlayer.hits = timed
main(sys.argv[1:])
"""


def after_imports(args: list[str], env: dict[str, str]) -> float:
    """Seconds from main() (libraries already imported) to the first stroke heard."""
    done = subprocess.run(
        [sys.executable, "-c", WARM, "play", *args, "--device", DEVICE],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=True,
    )
    line = next(ln for ln in done.stderr.splitlines() if ln.startswith("FIRST "))
    return float(line.split()[1])


def python_startup(env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=env, check=True)
    return time.perf_counter() - start


def mixing(score: str, block: int = 512, loop: bool = True) -> tuple[float, float]:
    """(mean, worst) seconds to mix one block, looping the score."""
    from drumscore.conductor.timeline import arrange
    from drumscore.corpus import resolve
    from drumscore.play.audio import Feed
    from drumscore.timing import Tempo

    feed = Feed(arrange(resolve(score), None, Tempo.from_bpm(240)), loop=loop)
    times = []
    for _ in range(2000):
        t = time.perf_counter()
        feed.read(block)
        times.append(time.perf_counter() - t)
    return statistics.mean(times), max(times)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        env = alsa_home(Path(tmp))
        base = min(python_startup(env) for _ in range(RUNS))
        print(f"python start-up alone: {base * 1000:.0f} ms")
        for args in (["○□○半○□"], ["lu"], ["xue/2", "--repeat", "100"], ["lu", "--loop"]):
            runs = [first_stroke(args, env) for _ in range(RUNS)]
            print(
                f"drumscore play {' '.join(args)}: first stroke heard after "
                f"{statistics.median(runs) * 1000:.0f} ms (median of {RUNS}, "
                f"best {min(runs) * 1000:.0f} ms)"
            )
        for args in (["○□○半○□"], ["lu"], ["xue/2", "--repeat", "100"]):
            warm = statistics.median(after_imports(args, env) for _ in range(RUNS))
            print(f"  {' '.join(args)}, libraries already imported: {warm * 1000:.0f} ms")
    block = 512
    mean, worst = mixing("xue/2", block)
    budget = block / 44100
    print(
        f"mixing a {block}-frame block ({budget * 1000:.1f} ms of sound): "
        f"mean {mean * 1e6:.0f} µs, worst {worst * 1e6:.0f} µs "
        f"({100 * mean / budget:.1f}% of real time)"
    )


if __name__ == "__main__":
    main()
