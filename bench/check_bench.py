"""drumscore check on a 10-minute performance: target under 2 s beyond Python's start-up.

Renders the first 魯 pattern 26 times at 60 strokes a minute (598 strokes, about 10 minutes),
humanized, as a WAV and as a MIDI file, then times `drumscore check` on each in a fresh process
(the median of a few runs after a warm-up; also its CPU time, which a busy shared machine
inflates less), beside Python start-up with the check's modules imported (what every check of
a recording pays before it reads a sample) and the render of the same performance. It also
checks that the check found every stroke.

Usage: python bench/check_bench.py [--runs N] [--repeat N]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from render_bench import best_of

TARGET_SECONDS = 2.0


def timed(runs: int, argv: list[str]) -> tuple[float, float, float]:
    """best_of's median wall time and peak RSS, and the mean CPU seconds (user and system) of
    one run: the figure a shared, busy machine does not inflate as much as the wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, rss = best_of(runs, argv)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, rss, cpu / (runs + 1)  # best_of runs once more to warm up


DRUMSCORE = [sys.executable, "-m", "drumscore"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each command (default 3)")
    parser.add_argument("--repeat", type=int, default=26, help="passes of lu (default 26)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        wav, mid = Path(folder, "take.wav"), Path(folder, "take.mid")
        render = [*DRUMSCORE, "render", "lu", "--repeat", str(args.repeat), "--humanize", "15"]
        render_s, _ = best_of(1, [*render, "-q", "-o", str(wav)])
        subprocess.run([*render, "-q", "-o", str(mid)], check=True)
        minutes = args.repeat * 23 / 60
        print(f"performance: lu ×{args.repeat}, {args.repeat * 23} strokes, {minutes:.1f} min")
        print(f"  render to WAV (for scale)             {render_s:6.2f} s")
        imports = "import drumscore.cli, drumscore.performance.listen, drumscore.performance.check"
        startup, _, startup_cpu = timed(args.runs, [sys.executable, "-c", imports])
        print(
            f"  Python start-up + the check's imports  {startup:6.2f} s wall, "
            f"{startup_cpu:5.2f} s CPU"
        )
        misread = False  # a check that misses, adds or mistakes a stroke of its own render
        for path in (wav, mid):
            argv = [*DRUMSCORE, "check", str(path), "lu", "--repeat", str(args.repeat)]
            took, rss, cpu = timed(args.runs, argv)
            data = json.loads(
                subprocess.run([*argv, "--json"], capture_output=True, check=True).stdout
            )
            faults = len(data["missing"]) + len(data["extra"]) + len(data["wrong"])
            misread = misread or faults > 0
            verdict = "meets" if took - startup < TARGET_SECONDS else "MISSES"
            print(
                f"  check {path.suffix:<5}                       {took:6.2f} s wall, {cpu:5.2f} s "
                f"CPU, {rss:5.0f} MB "
                f"resident; {verdict} the target of {TARGET_SECONDS:g} s beyond start-up; "
                f"{faults} strokes missed, extra or wrong (0 expected)"
            )
    return 1 if misread else 0


if __name__ == "__main__":
    raise SystemExit(main())
