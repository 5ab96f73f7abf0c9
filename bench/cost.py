"""What drumscore's everyday jobs cost, each beside a reference measured in the same run.

A figure alone says as much about the machine (its speed, its load, whether the bytecode was
compiled) as about drumscore; each is printed beside a reference the same machine runs in the
same minutes, so that the ratio holds from one machine to another:

    drumscore --help          against `python -c pass`, run alternately    target ≤ 4× its time
    drumscore site DIR        against REFERENCE, a fixed CPU-bound         target < 2 s CPU
    drumscore site DIR --lang all    Python job (about 1 s of CPU)         target < 5 s CPU
    render lu --duration 1h (WAV) against FluidSynth on its MIDI           target ≤ 0.08×, ≤ 45 MB
    README's test command (--suite), with the tools and without            target ≤ 150 s, ≤ 90 s
                                      and from pytest's summary line to its exit: ≤ 5 s

Why figures differed between machines (issue 42: 7.4× against 3.3× for --help, 7.60 s against
2.41 s for the site), and what this bench now fixes:
- bytecode: with PYTHONDONTWRITEBYTECODE set (as in many CI and container shells) and no
  __pycache__ yet, every start compiles drumscore's modules again: --help took twice as long.
  The bench compiles the package first (as `pip install` does) and says whether it did.
- the earlier site: building into an earlier site's folder reuses its engravings
  (.drumscore-staves.json), a build into a new folder engraves them all; the two are reported
  apart, and the CPU of the engraving processes is counted.
- load: wall time on a shared machine is the machine's; CPU time (user + system, the worker
  processes included) is drumscore's, and is what the targets are set on.

Each job runs in a fresh process (the median of --runs runs after one warm-up) and prints wall
seconds, CPU seconds and peak resident memory, from wait4's rusage.

Usage: python bench/cost.py [--runs N] [--only help,site,all,hour,suite] [--suite]
"""

from __future__ import annotations

import argparse
import os
import re
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
#: The fixed CPU-bound job the site is measured against: pure Python (loops, integers, strings
#: and a dict, as a build's own work is), about a second of CPU on the 2-core test machine.
REFERENCE = (
    "d = {}\n"
    "for i in range(2_500_000):\n"
    "    d[str(i % 5000)] = d.get(str(i % 5000), 0) + i * i % 7\n"
    "assert len(d) == 5000"
)


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


def alternately(runs: int, *argvs: list[str]) -> list[Cost]:
    """The median cost of each of `argvs`, run in turn `runs` times (after one warm-up each),
    so that a change in the machine's load weighs on each alike."""
    for argv in argvs:
        measure(argv)
    costs: list[list[Cost]] = [[] for _ in argvs]
    for _ in range(runs):
        for argv, found in zip(argvs, costs, strict=True):
            found.append(measure(argv))
    return [
        Cost(
            statistics.median(c.wall for c in found),
            statistics.median(c.cpu for c in found),
            max(c.rss for c in found),
        )
        for found in costs
    ]


def compile_bytecode() -> str:
    """The package's bytecode compiled, as `pip install` leaves it; what the bench found."""
    cache = ROOT / "drumscore" / "__pycache__"
    had = cache.is_dir() and any(cache.iterdir())
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", str(ROOT / "drumscore")],
        check=True,
        env=CHILD_ENV,
    )
    said = "was compiled" if had else "was not compiled: compiled now"
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        said += " (PYTHONDONTWRITEBYTECODE is set here, not for the runs)"
    return said


def bench_help(runs: int) -> None:
    python, helped, site = alternately(
        runs * 3,
        [sys.executable, "-c", "pass"],
        [*DRUMSCORE, "--help"],
        [*DRUMSCORE, "site", "--help"],
    )
    ratio, cpu = helped.wall / python.wall, helped.cpu / max(python.cpu, 1e-3)
    print(f"{'python -c pass (the reference)':<34} {python}")
    print(f"{'drumscore --help':<34} {helped}")
    print(f"{'drumscore site --help':<34} {site}")
    print(
        f"{'':<34} --help takes {ratio:.1f}× python -c pass ({cpu:.1f}× its CPU) "
        f"(target ≤ 4×): {verdict(ratio <= 4)}"
    )


def bench_reference(runs: int) -> Cost:
    """The fixed CPU-bound job (REFERENCE) in a fresh process: the unit the site is read in."""
    reference = median(runs, lambda: measure([sys.executable, "-c", REFERENCE]))
    print(f"{'REFERENCE (fixed CPU-bound job)':<34} {reference}")
    return reference


def bench_site(
    runs: int, folder: Path, languages: list[str], target: float, name: str, reference: Cost
) -> None:
    folder.mkdir()

    def fresh() -> Cost:
        out = folder / "fresh"
        shutil.rmtree(out, ignore_errors=True)
        return measure([*DRUMSCORE, "site", str(out), *languages])

    def again() -> Cost:
        return measure([*DRUMSCORE, "site", str(folder / "again"), "--force", *languages])

    built = median(runs, fresh)
    rebuilt = median(runs, again)
    print(f"{name + ', a new folder':<34} {built}")
    print(f"{name + ', an earlier site':<34} {rebuilt}")
    print(
        f"{'':<34} new folder {built.cpu:.2f} s CPU = {built.cpu / reference.cpu:.2f} REFERENCE "
        f"(target < {target} s): {verdict(built.cpu < target)}"
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


def timed_suite(argv: list[str]) -> tuple[Cost, float | None]:
    """The cost of README's test command, and the seconds from pytest's summary line (the
    last line it prints, `N passed in T s`) to the process's end: the removal of the run's
    temporary folder and whatever else runs after the summary."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=CHILD_ENV, cwd=ROOT
    )
    summary = None
    assert proc.stdout is not None
    for line in proc.stdout:
        if re.match(rb"=+ .*\b(passed|failed|error)\b.* in [\d.]+s", line):
            summary = time.perf_counter()
    _, _, usage = os.wait4(proc.pid, 0)
    end = time.perf_counter()
    cost = Cost(end - start, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024)
    return cost, None if summary is None else end - summary


def bench_suite() -> None:
    readme = [str(ROOT / ".venv/bin/python"), "-m", "pytest", "-p", "no:cacheprovider"]
    for name, prefix, target in (
        ("README's tests, tools present", [], 150),
        ("README's tests, bare machine", ["bash", str(ROOT / ".ci/without-tools")], 90),
    ):
        cost, after = timed_suite([*prefix, *readme])
        print(f"{name:<34} {cost}")
        print(f"{'':<34} {cost.wall:.0f} s (target ≤ {target} s): {verdict(cost.wall <= target)}")
        if after is not None:
            print(f"{'':<34} summary to exit {after:.1f} s (target ≤ 5 s): {verdict(after <= 5)}")


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
    print(f"drumscore's bytecode {compile_bytecode()}")
    folder = Path(tempfile.mkdtemp(prefix="drumscore-cost-"))
    try:
        if "help" in jobs:
            bench_help(args.runs)
        if {"site", "all"} & jobs:
            reference = bench_reference(args.runs)
        if "site" in jobs:
            bench_site(args.runs, folder / "one", [], 2, "site DIR", reference)
        if "all" in jobs:
            bench_site(
                args.runs, folder / "all", ["--lang", "all"], 5, "site DIR --lang all", reference
            )
        if "hour" in jobs:
            bench_hour(args.runs, folder)
        if "suite" in jobs:
            bench_suite()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
