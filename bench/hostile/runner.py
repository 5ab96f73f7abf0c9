"""The campaign's runner: a case (Case) run in a sandbox of its own with a time bound
(run_case), what it did wrong counted by kind; and the table of all the cases (table)."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
PASSAGE = HERE / "tests" / "sources" / "KR1d0053_058_禮記注疏.txt"
TEMPORARY = re.compile(r"\..*\.drumscore-[1-9][0-9]*-[a-z0-9_]{8}\.part", re.DOTALL)
SIGNALS = {signal.SIGINT: 130, signal.SIGTERM: 143, signal.SIGHUP: 129}


@dataclass
class Case:
    """One run: `argv` (with {in} and {out} for the folders), the statuses it may end with,
    a signal sent after `delay` seconds (a second one `again` seconds later), its time bound."""

    name: str
    argv: list[str]
    statuses: set[int]
    setup: Callable[[Path], None] = lambda folder: None
    signum: int | None = None
    delay: float = 0.0
    again: int | None = None
    bound: float = 60.0
    env: dict[str, str] = field(default_factory=dict)
    wait_for_part: bool = False
    #: Once the command is writing (its temporary file seen), plant this at out/PATH: "file",
    #: "link", "folder", or "inside" (PATH made a folder holding a file of the user's).
    plant: tuple[str, str] | None = None
    #: What must hold of the folders (in, out) afterwards; false counts as an input lost.
    after: Callable[[Path, Path], bool] | None = None
    #: Words the last line said must hold (or one of several, split by |).
    says: str = ""
    #: The table's group the case is counted in.
    group: str = "before"
    #: Plant (as `plant`) this many seconds after the start instead of when a temporary file shows.
    plant_after: float | None = None
    #: Something done to the folders (in, out) this many seconds after the start.
    during: tuple[float, Callable[[Path, Path], None]] | None = None
    #: What must hold of what the command printed on stdout.
    printed: Callable[[str], bool] | None = None
    #: Extra paths for the module search (a fake MIDI backend, from tests/).
    tests_on_path: bool = False


PLANTED = "my own file"


def _plant(kind: str, place: Path) -> bool:
    """Plant `kind` at `place`; false if the command's own output was there first (the plant
    came too late: the case then expects the command's success)."""
    try:
        _plant_at(kind, place)
    except FileExistsError:
        return False
    return True


def _plant_at(kind: str, place: Path) -> None:
    if kind == "file":
        if place.exists():
            raise FileExistsError(place)
        place.write_text(PLANTED, encoding="utf-8")
    elif kind == "link":
        os.symlink("elsewhere", place)
    elif kind == "folder":
        place.mkdir()
        (place / "mine.txt").write_text(PLANTED, encoding="utf-8")
    else:
        place.mkdir(exist_ok=True)
        (place / "mine.txt").write_text(PLANTED, encoding="utf-8")


def _planted_intact(kind: str, place: Path) -> bool:
    try:
        if kind == "file":
            return place.read_text(encoding="utf-8") == PLANTED
        if kind == "link":
            return os.readlink(place) == "elsewhere"
        return (place / "mine.txt").read_text(encoding="utf-8") == PLANTED
    except OSError:
        return False


def _before_drumscore(code: int, said: str, signum: int) -> bool:
    """Whether the signal came while Python itself started, before drumscore's first line (a
    loaded machine's slow start-up): a death by the signal with no word, or Python's own
    KeyboardInterrupt in frames none of which is drumscore's."""
    if code == -signum and not said.strip():
        return True
    lines = said.strip().splitlines()
    return (
        "Traceback (most recent call last):" in lines
        and lines[-1] == "KeyboardInterrupt"
        and not any("/drumscore/" in ln for ln in lines if ln.lstrip().startswith("File"))
    )


def _snapshot(folder: Path) -> dict[str, str]:
    found = {}
    for path in folder.rglob("*"):
        if path.is_file() and not path.is_symlink():
            found[str(path)] = hashlib.sha256(path.read_bytes()).hexdigest()
    return found


def run_case(case: Case, root: Path) -> dict[str, object]:
    """Run one case in root/CASE: what went wrong, counted by kind."""
    sandbox = Path(tempfile.mkdtemp(dir=root))
    inputs, out = sandbox / "in", sandbox / "out"
    inputs.mkdir()
    out.mkdir()
    case.setup(inputs)
    before = _snapshot(inputs)
    outside_before = set(_snapshot(root.parent / "home"))
    argv = [a.format(**{"in": inputs, "out": out}) for a in case.argv]
    env = {**os.environ, "HOME": str(root.parent / "home"), "PYTHONPATH": str(HERE)}
    if case.tests_on_path:
        env["PYTHONPATH"] += os.pathsep + str(HERE / "tests")
    # caches (matplotlib's fonts, numba's) are the libraries' own: kept apart from HOME
    env["XDG_CACHE_HOME"] = str(root.parent / "cache")
    env["MPLCONFIGDIR"] = str(root.parent / "cache" / "matplotlib")
    env.update({k: v.format(**{"in": inputs, "out": out}) for k, v in case.env.items()})
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        stdout=subprocess.PIPE if case.printed is not None else subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=out,
        env=env,
    )
    hung = False
    printed = b""
    planted = True
    try:
        if case.during is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.during[0])
            case.during[1](inputs, out)
            before = _snapshot(inputs)  # the case's own change is not an input lost
        if case.plant is not None and case.plant_after is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.plant_after)
            planted = _plant(case.plant[0], out / case.plant[1])
        elif case.plant is not None:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                if any(TEMPORARY.fullmatch(p.name) for p in out.iterdir()):
                    break
                time.sleep(0.01)
            planted = _plant(case.plant[0], out / case.plant[1])
        if case.wait_for_part:
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                if any(TEMPORARY.fullmatch(p.name) for p in out.iterdir()):
                    break
                time.sleep(0.01)
            time.sleep(0.3)
        elif case.signum is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=case.delay)
        if case.signum is not None and proc.poll() is None:
            proc.send_signal(case.signum)
            if case.again is not None:
                time.sleep(0.002)
                proc.send_signal(case.again)
        printed, err = proc.communicate(timeout=max(1.0, case.bound - (time.monotonic() - start)))
    except subprocess.TimeoutExpired:
        hung = True
        proc.kill()
        printed, err = proc.communicate()
    seconds = time.monotonic() - start
    said = err.decode("utf-8", "replace")
    after = _snapshot(inputs)
    lost = sorted(p for p, digest in before.items() if after.get(p) != digest)
    parts = [str(p) for p in sandbox.rglob("*") if TEMPORARY.fullmatch(p.name)]
    if parts and (hung or case.signum == signal.SIGKILL):
        # a process killed outright cannot remove its temporary file: the next write in that
        # folder removes it (files.atomic.remove_stale), as it must
        for folder in {Path(p).parent for p in parts}:
            subprocess.run(
                [sys.executable, "-m", "drumscore", "render", "○□", "-q", "-o", "after.mid"],
                cwd=folder,
                env=env,
                capture_output=True,
                timeout=120,
            )
        parts = [str(p) for p in sandbox.rglob("*") if TEMPORARY.fullmatch(p.name)]
    outside = sorted(set(_snapshot(root.parent / "home")) - outside_before) + parts
    if case.name.startswith("site into a symbolic link"):
        outside = [p for p in outside if not p.startswith(str(inputs / "real"))]
    code = proc.returncode
    statuses = case.statuses if planted else {0}
    if (
        planted
        and case.plant is not None
        and not _planted_intact(case.plant[0], out / case.plant[1])
    ):
        lost.append(f"{case.plant[1]} (planted)")
    if case.after is not None and not case.after(inputs, out):
        lost.append("what the case keeps")
    early = (
        case.signum not in (None, signal.SIGKILL)  # SIGKILL's death is silent at any moment
        and _before_drumscore(code, said, case.signum)
    )
    unsaid = planted and bool(case.says) and not any(w in said for w in case.says.split("|"))
    if (
        case.printed is not None
        and code == 0
        and not case.printed(printed.decode("utf-8", "replace"))
    ):
        unsaid = True
    result = {
        "case": case.name,
        "group": case.group,
        "status": code,
        "seconds": seconds,
        "early": int(early),
        "traceback": int(not early and ("Traceback" in said or "Exception ignored" in said)),
        "hang": int(hung),
        "lost": len(lost),
        "outside": len(outside),
        "wrong": int(not hung and not early and (code not in statuses or unsaid)),
        "late": int(not planted),
        "said": said.strip().splitlines()[-1:] if said.strip() else [],
        "where": outside[:3],
        "full": said,
    }
    shutil.rmtree(sandbox, ignore_errors=True)
    return result


def report(result: dict[str, object]) -> dict[str, object]:
    """Print a case's line: what it did wrong, or ok; the result handed back."""
    flags = [k for k in ("early", "traceback", "hang", "lost", "outside", "wrong") if result[k]]
    mark = ", ".join(flags) if flags else "ok"
    if result["late"]:
        mark += " (planted too late: the output was in place first)"
    if result["outside"]:
        mark += f" {result['where']}"
    if result["traceback"]:
        mark += "\n" + str(result["full"])[-4000:]
    print(
        f"{result['case'][:58]:<58} {result['status']!s:>4} "
        f"{result['seconds']:6.1f} s  {mark}  {' '.join(result['said'])[:70]}",
        flush=True,
    )
    return result


def table(results: list[dict[str, object]]) -> int:
    """Print the table: the cases per group, and each kind of fault counted over all; the
    exit status (1 if any fault)."""
    print()
    groups: dict[str, int] = {}
    for r in results:
        groups[str(r["group"])] = groups.get(str(r["group"]), 0) + 1
    for group, count in groups.items():
        print(f"{'  ' + group:<24} {count}")
    print(f"{'cases':<16} {len(results)}")
    early = sum(int(r["early"]) for r in results)
    print(f"{'before start-up':<16} {early} (the signal came before drumscore's first line ran)")
    for key, title in (
        ("traceback", "tracebacks"),
        ("hang", "hangs"),
        ("lost", "inputs lost"),
        ("outside", "writes outside"),
        ("wrong", "wrong statuses"),
    ):
        print(f"{title:<16} {sum(int(r[key]) for r in results)}")
    bad = sum(int(r[k]) for r in results for k in ("traceback", "hang", "lost", "outside", "wrong"))
    return 1 if bad else 0
