"""Render speed and memory: drumscore against FluidSynth on the same MIDI.

Renders the first 魯 pattern (lu) and a one-hour loop of it to 16-bit 44.1 kHz stereo WAV, each
in a fresh process, and prints wall time, times-realtime and peak resident memory (from
wait4's rusage of that one process). Where `fluidsynth` and a General MIDI SoundFont are
installed, it renders the same MIDI with `fluidsynth -ni -F` and prints the ratios against the
targets: the hour in at most a quarter of FluidSynth's time, the short render in at most half,
and at most 100 MB resident for the hour.

Usage: python bench/render_bench.py [--runs N] [--soundfont FILE.sf2] [--keep DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import soundfile as sf

GM = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
CASES = (("first 魯 pattern", []), ("one-hour loop", ["--duration", "1h"]))
TARGET_RATIO = {"first 魯 pattern": 0.5, "one-hour loop": 0.25}
TARGET_RSS_MB = 100
#: Children may cache bytecode, as an installed package has it: `pip install` compiles it.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def measure(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB) of one process running `argv`."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"{argv[0]} failed: {proc.stderr.read().decode(errors='replace')}")
    proc.stderr.close()
    return wall, usage.ru_maxrss / 1024


def best_of(runs: int, argv: list[str]) -> tuple[float, float]:
    """The median wall time and the highest RSS over `runs` runs, after one warm-up run."""
    measure(argv)
    results = [measure(argv) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each render (default 3)")
    parser.add_argument("--soundfont", type=Path, default=GM, help=f"default {GM}")
    parser.add_argument("--keep", type=Path, help="keep the rendered files in this folder")
    args = parser.parse_args()
    folder = Path(args.keep or tempfile.mkdtemp(prefix="drumscore-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    fluidsynth = shutil.which("fluidsynth") if args.soundfont.exists() else None
    drumscore = [sys.executable, "-m", "drumscore", "render", "lu", "-q"]
    startup, _ = best_of(args.runs, [sys.executable, "-c", "import numpy, soundfile, drumscore"])
    print(
        f"Python start-up with numpy and soundfile imported: {startup:.2f} s of each drumscore run"
    )
    print(f"{'render':<18} {'tool':<11} {'wall s':>8} {'× realtime':>11} {'peak RSS MB':>12}")
    try:
        for name, extra in CASES:
            slug = name.split()[0].replace("-", "")
            wav, mid = folder / f"{slug}.wav", folder / f"{slug}.mid"
            wall, rss = best_of(args.runs, [*drumscore, *extra, "-o", str(wav)])
            seconds = sf.info(str(wav)).duration
            print(f"{name:<18} {'drumscore':<11} {wall:8.2f} {seconds / wall:11.0f} {rss:12.1f}")
            ok_rss = rss <= TARGET_RSS_MB
            if not fluidsynth:
                print(
                    f"{'':<18} fluidsynth not installed (apt install fluidsynth fluid-soundfont-gm)"
                )
                continue
            subprocess.run([*drumscore, *extra, "-o", str(mid)], check=True)
            fs_wav = folder / f"{slug}-fluidsynth.wav"
            fs_argv = [fluidsynth, "-ni", "-q", "-r", "44100", "-F", str(fs_wav)]
            fs_wall, fs_rss = best_of(args.runs, [*fs_argv, str(args.soundfont), str(mid)])
            fs_seconds = sf.info(str(fs_wav)).duration
            print(
                f"{'':<18} {'fluidsynth':<11} {fs_wall:8.2f} {fs_seconds / fs_wall:11.0f} "
                f"{fs_rss:12.1f}"
            )
            ratio, target = wall / fs_wall, TARGET_RATIO[name]
            verdict = "meets" if ratio <= target and ok_rss else "MISSES"
            print(
                f"{'':<18} ratio: time {ratio:.2f} of FluidSynth's (target ≤ {target}), "
                f"memory {rss / fs_rss:.2f}; {verdict} the target"
            )
    finally:
        if not args.keep:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
