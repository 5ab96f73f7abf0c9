"""What drumscore's everyday jobs cost, each beside its reference, against its target.

Each job runs in a fresh process (the median of --runs runs after one warm-up, where a run is
short), and prints wall seconds, CPU seconds (user + system, worker processes included) and peak
resident memory, from wait4's rusage:

    drumscore --help             against `python -c pass`          target ≤ 6× its time
    drumscore site DIR           new folder, then again into it     target < 3 s wall
    drumscore site DIR --lang all                                   target < 6 s wall
    render lu --duration 1h (WAV) against FluidSynth on its MIDI    target ≤ 0.08×, ≤ 45 MB
    README's test command (--suite), with the tools and without     target ≤ 150 s, ≤ 90 s

Usage: python bench/cost.py [--runs N] [--only help,site,all,hour,suite] [--suite]
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
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GM = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
#: Children may cache bytecode, as an installed package has it: `pip install` compiles it.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
DRUMSCORE = [sys.executable, "-m", "drumscore"]


@dataclass(frozen=True)
class Cost:
    """One run of a process: wall and CPU seconds, peak resident memory in MB."""

    wall: float
    cpu: float
    rss: float

    def __str__(self) -> str:
        return f"{self.wall:8.2f} s wall {self.cpu:7.2f} s CPU {self.rss:7.1f} MB"


def measure(argv: list[str], cwd: Path | None = None) -> Cost:
    """The cost of one process running `argv` (its worker processes' CPU included)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=CHILD_ENV, cwd=cwd
    )
    before = os.times()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    after = os.times()
    if os.waitstatus_to_exitcode(status) != 0:
        assert proc.stderr is not None
        raise SystemExit(f"{' '.join(argv)} failed: {proc.stderr.read().decode(errors='replace')}")
    assert proc.stderr is not None
    proc.stderr.close()
    # the process's own CPU, and that of the workers it waited for (the grandchildren)
    workers = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    cpu = max(usage.ru_utime + usage.ru_stime, workers)
    return Cost(wall, cpu, usage.ru_maxrss / 1024)


def median(runs: int, make: Callable[[], Cost], warm: bool = True) -> Cost:
    """The median wall and CPU time and the highest memory of `runs` runs (after a warm-up)."""
    if warm:
        make()
    costs = [make() for _ in range(runs)]
    return Cost(
        statistics.median(c.wall for c in costs),
        statistics.median(c.cpu for c in costs),
        max(c.rss for c in costs),
    )


def verdict(ok: bool) -> str:
    return "meets the target" if ok else "MISSES the target"


def bench_help(runs: int) -> None:
    python = median(runs * 3, lambda: measure([sys.executable, "-c", "pass"]))
    helped = median(runs * 3, lambda: measure([*DRUMSCORE, "--help"]))
    site = median(runs * 3, lambda: measure([*DRUMSCORE, "site", "--help"]))
    ratio = helped.wall / python.wall
    print(f"{'python -c pass':<34} {python}")
    print(f"{'drumscore --help':<34} {helped}")
    print(f"{'drumscore site --help':<34} {site}")
    print(f"{'':<34} --help takes {ratio:.1f}× python -c pass (target ≤ 6×): {verdict(ratio <= 6)}")


def bench_site(runs: int, folder: Path, languages: list[str], target: float, name: str) -> None:
    folder.mkdir()

    def fresh() -> Cost:
        out = folder / "fresh"
        shutil.rmtree(out, ignore_errors=True)
        return measure([*DRUMSCORE, "site", str(out), *languages])

    def again() -> Cost:
        return measure([*DRUMSCORE, "site", str(folder / "again"), "--force", *languages])

    built = median(runs, fresh, warm=False)
    rebuilt = median(runs, again)
    print(f"{name + ', a new folder':<34} {built}")
    print(f"{name + ', an earlier site':<34} {rebuilt}")
    print(
        f"{'':<34} new folder {built.wall:.2f} s (target < {target} s): "
        f"{verdict(built.wall < target)}"
    )


def bench_hour(runs: int, folder: Path) -> None:
    wav, mid = folder / "hour.wav", folder / "hour.mid"
    render = [*DRUMSCORE, "render", "lu", "-q", "--duration", "1h"]
    ours = median(runs, lambda: measure([*render, "--force", "-o", str(wav)]))
    print(f"{'1 h WAV, drumscore':<34} {ours}")
    fluidsynth = shutil.which("fluidsynth")
    if fluidsynth is None or not GM.exists():
        print(
            f"{'':<34} no FluidSynth or {GM}: no reference "
            "(apt install fluidsynth fluid-soundfont-gm)"
        )
        return
    subprocess.run([*render, "-o", str(mid)], check=True, env=CHILD_ENV)
    synth = [
        fluidsynth,
        "-ni",
        "-q",
        "-r",
        "44100",
        "-F",
        str(folder / "fs.wav"),
        str(GM),
        str(mid),
    ]
    theirs = median(runs, lambda: measure(synth))
    ratio = ours.wall / theirs.wall
    print(f"{'1 h WAV, FluidSynth (same MIDI)':<34} {theirs}")
    ok = ratio <= 0.08 and ours.rss <= 45
    print(
        f"{'':<34} {ratio:.3f}× FluidSynth's time (target ≤ 0.08×), {ours.rss:.1f} MB "
        f"(target ≤ 45 MB): {verdict(ok)}"
    )


def bench_suite() -> None:
    readme = [str(ROOT / ".venv/bin/python"), "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    for name, prefix, target in (
        ("README's tests, tools present", [], 150),
        ("README's tests, bare machine", ["bash", str(ROOT / ".ci/without-tools")], 90),
    ):
        cost = measure([*prefix, *readme], cwd=ROOT)
        print(f"{name:<34} {cost}")
        print(f"{'':<34} {cost.wall:.0f} s (target ≤ {target} s): {verdict(cost.wall <= target)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each job (default 3)")
    parser.add_argument(
        "--only", default="help,site,all,hour", help="the jobs, of help,site,all,hour,suite"
    )
    parser.add_argument("--suite", action="store_true", help="also run the test suite (minutes)")
    args = parser.parse_args()
    jobs = set(args.only.split(",")) | ({"suite"} if args.suite else set())
    with open("/proc/loadavg", encoding="ascii") as load:
        print(f"load average {load.read().split()[0]} on {os.cpu_count()} cores")
    folder = Path(tempfile.mkdtemp(prefix="drumscore-cost-"))
    try:
        if "help" in jobs:
            bench_help(args.runs)
        if "site" in jobs:
            bench_site(args.runs, folder / "one", [], 3, "site DIR")
        if "all" in jobs:
            bench_site(args.runs, folder / "all", ["--lang", "all"], 6, "site DIR --lang all")
        if "hour" in jobs:
            bench_hour(args.runs, folder)
        if "suite" in jobs:
            bench_suite()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
