"""How `drumscore check` hears drums that are not the kit, in rooms and through a phone: the takes
of bench/check_takes.py checked in the default mode, and per condition the offset error (mean,
95th percentile, max, ms), stroke precision and recall, fault precision and recall, tempo error
and false wrong drums, beside librosa's and aubio's onsets on the same audio.

    python bench/check_real.py            # every take
    python bench/check_real.py --only phone --verbose
    python bench/check_real.py --long     # also a 10- and a 60-minute take: wall and memory

Offsets are errors of each heard stroke's time against the stroke's true attack, less their
own least-squares line in time (a constant latency or a slope does not count, as the check's
offsets are from the performer's own fitted beat). A heard onset is a stroke found when it
lies within 25 ms of one, after the median latency is taken away (the same for every detector).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
import soundfile as sf

sys.path.insert(0, str(Path(__file__).parent))

from check_takes import SOUNDFONT, Take, Truth, long_take, takes

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError
from drumscore.performance.check import check
from drumscore.performance.heard import read_performance
from drumscore.performance.identify import better_fit

TOLERANCE = 0.025


def matched(found: np.ndarray, true: np.ndarray) -> tuple[list[tuple[int, int]], float]:
    """Pairs (found, true) within TOLERANCE after the median latency, greedily nearest first."""
    if len(found) == 0 or len(true) == 0:
        return [], 0.0
    near = np.abs(found[:, None] - true[None, :])
    first = near.argmin(axis=1)
    diffs = found - true[first]
    lag = float(np.median(diffs[np.abs(diffs) < 0.06])) if np.any(np.abs(diffs) < 0.06) else 0.0
    near = np.abs(found[:, None] - lag - true[None, :])
    order = np.dstack(np.unravel_index(np.argsort(near, axis=None), near.shape))[0]
    used_f, used_t, pairs = set(), set(), []
    for i, j in order:
        if near[i, j] > TOLERANCE:
            break
        if i in used_f or j in used_t:
            continue
        used_f.add(int(i))
        used_t.add(int(j))
        pairs.append((int(i), int(j)))
    return pairs, lag


def onset_figures(found: np.ndarray, true: np.ndarray) -> dict[str, float]:
    """Precision, recall and the detrended offset errors (ms) of onsets against the truth."""
    pairs, _lag = matched(np.asarray(found, float), np.asarray(true, float))
    p = len(pairs) / len(found) if len(found) else 0.0
    r = len(pairs) / len(true) if len(true) else 0.0
    errors = np.zeros(0)
    if len(pairs) >= 3:
        tt = np.asarray([true[j] for _i, j in pairs])
        err = np.asarray([found[i] - true[j] for i, j in pairs])
        line = np.polyval(np.polyfit(tt, err, 1), tt)
        errors = np.abs(err - line) * 1000
    return {"P": p, "R": r, "errors": errors}


def librosa_onsets(y: np.ndarray, rate: int) -> np.ndarray:
    import librosa

    return librosa.onset.onset_detect(y=y, sr=rate, units="time", backtrack=False)


def aubio_onsets(y: np.ndarray, rate: int) -> np.ndarray | None:
    try:
        import aubio
    except ImportError:
        return None
    hop = 256
    detector = aubio.onset("default", 1024, hop, rate)
    out = []
    data = np.concatenate([y, np.zeros(hop)]).astype(np.float32)
    for at in range(0, len(data) - hop + 1, hop):
        if detector(data[at : at + hop]):
            out.append(detector.get_last_s())
    return np.asarray(out)


def evaluate(take: Take, path: Path) -> dict:
    """The check of one take scored against its truth."""
    truth: Truth = take.truth
    true_times = np.asarray([t for t, _d, _k in truth.strokes])
    timeline = arrange(resolve(truth.checked_score), truth.section, repeats=truth.repeats)
    row: dict = {"name": take.name, "condition": take.condition}
    try:
        performance = read_performance(path)
        result = check(performance, timeline)
    except DrumscoreError as exc:
        row["error"] = str(exc)
        return row
    heard = np.asarray([s.time for s in performance.strokes])
    row["ours"] = onset_figures(heard, true_times)
    row["how"] = performance.how
    fit = better_fit(performance, result)
    row["named"] = None if fit is None else fit.timeline.description
    if truth.played_score != truth.checked_score:
        played = arrange(resolve(truth.played_score), truth.section, repeats=truth.repeats)
        row["identified"] = fit is not None and [s.drum for s in fit.timeline.strokes] == [
            s.drum for s in played.strokes
        ]
        return row
    # the faults reported against the truth's
    true_faults = {("missed", k) for k in truth.missed} | {("wrong", k) for k in truth.wrong}
    said = {("missed", s.index) for s in result.missing} | {
        ("wrong", s.index) for s in result.wrong
    }
    hits = len(true_faults & said)
    extra_hits = sum(
        1 for e in result.extra if any(abs(e.time - t) < TOLERANCE * 2 for t in truth.extra)
    )
    reported = len(said) + len(result.extra)
    actual = len(true_faults) + len(truth.extra)
    row["faults"] = (hits + extra_hits, reported, actual)
    false = {k for kind, k in said if kind == "wrong"} - truth.wrong
    row["false_wrong"] = len(false)
    row["false_sure"] = sum(1 for s in result.wrong if s.index in false and not s.doubtful)
    interval, _start = truth.beat_line()
    row["tempo_error"] = abs(result.tempo_bpm - 60 / interval)
    row["named_wrongly"] = fit is not None
    return row


def summarise(rows: list[dict], *, with_aubio: bool) -> None:
    by: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by[row["condition"]].append(row)
    head = (
        f"{'condition':<20}{'n':>3} {'mean':>6}{'p95':>7}{'max':>7}  {'P':>5}{'R':>6}"
        f"  {'fault P':>7}{'R':>6}  {'tempo':>6} {'false wrong':>11}"
        f"  | {'librosa P/R':>11} {'p95':>6}"
    )
    if with_aubio:
        head += f"  | {'aubio P/R':>11} {'p95':>6}"
    print(head)
    print("-" * len(head))
    for condition, group in by.items():
        failed = [r for r in group if "error" in r]
        good = [r for r in group if "error" not in r]
        line = f"{condition:<20}{len(group):>3} "
        if good:
            errors = np.concatenate([r["ours"]["errors"] for r in good])
            p = np.mean([r["ours"]["P"] for r in good])
            r_ = np.mean([r["ours"]["R"] for r in good])
            line += f"{errors.mean():6.2f}{np.percentile(errors, 95):7.2f}{errors.max():7.2f}"
            line += f"  {p:5.3f}{r_:6.3f}"
            scored = [r for r in good if "faults" in r]
            if scored:
                hits = sum(r["faults"][0] for r in scored)
                reported = sum(r["faults"][1] for r in scored)
                actual = sum(r["faults"][2] for r in scored)
                fp = hits / reported if reported else 1.0
                fr = hits / actual if actual else 1.0
                tempo = max(r["tempo_error"] for r in scored)
                false_wrong = sum(r["false_wrong"] for r in scored)
                sure = sum(r["false_sure"] for r in scored)
                line += f"  {fp:7.2f}{fr:6.2f}  {tempo:6.3f} {f'{false_wrong} ({sure})':>11}"
            else:
                named = sum(r["identified"] for r in good)
                line += f"  {'named the score played':>21} {named}/{len(good)}      "
        if failed:
            line += f"  ({len(failed)} refused)"
        for key in ("librosa", "aubio") if with_aubio else ("librosa",):
            figures = [r[key] for r in group if key in r]
            if figures:
                errors = np.concatenate([f["errors"] for f in figures]) if figures else np.zeros(1)
                p = np.mean([f["P"] for f in figures])
                r_ = np.mean([f["R"] for f in figures])
                p95 = np.percentile(errors, 95) if len(errors) else float("nan")
                line += f"  | {p:5.3f}/{r_:5.3f} {p95:6.2f}"
        print(line)


#: Run in a fresh process: a command, then its wall and CPU time and peak resident memory.
MEASURE = """
import json, resource, subprocess, sys, time
began = time.perf_counter()
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
took = time.perf_counter() - began
use = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": took, "cpu": use.ru_utime + use.ru_stime, "rss": use.ru_maxrss / 1024,
                  "code": done.returncode, "out": done.stdout, "err": done.stderr}))
"""


def measured(argv: list[str]) -> dict:
    done = subprocess.run([sys.executable, "-c", MEASURE, *argv], capture_output=True, text=True)
    return json.loads(done.stdout)


def long_figures(minutes: float, runs: int = 3) -> None:
    """A long take written block by block, checked in fresh processes: the median wall and CPU
    time, the peak resident memory, and the faults found (none were played)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder, f"long{minutes:g}.wav")
        passes = long_take(minutes, path)
        check_argv = [sys.executable, "-m", "drumscore", "check", str(path), "lu"]
        check_argv += ["--repeat", str(passes), "--json"]
        imports = "import drumscore.cli, drumscore.performance.listen, drumscore.performance.check"
        startup = [measured([sys.executable, "-c", imports]) for _ in range(runs)]
        checks = [measured(check_argv) for _ in range(runs)]
        data = json.loads(checks[0]["out"]) if checks[0]["code"] == 0 else {}
        faults = sum(len(data.get(key, [])) for key in ("missing", "extra", "wrong"))
        wall = float(np.median([c["wall"] for c in checks]))
        cpu = float(np.median([c["cpu"] for c in checks]))
        base = float(np.median([c["wall"] for c in startup]))
        base_cpu = float(np.median([c["cpu"] for c in startup]))
        rss = max(c["rss"] for c in checks)
        print(
            f"{minutes:g}-minute take (lu ×{passes}, {passes * 23} strokes): {wall:.2f} s wall, "
            f"{cpu:.2f} s CPU, {rss:.0f} MB peak; Python start-up and imports {base:.2f} s wall, "
            f"{base_cpu:.2f} s CPU; beyond them {wall - base:.2f} s wall, {cpu - base_cpu:.2f} s "
            f"CPU; exit {checks[0]['code']}, {faults} faults (0 played)"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="only the takes whose name starts so")
    parser.add_argument("--verbose", action="store_true", help="a line per take")
    parser.add_argument("--long", action="store_true", help="also the 10- and 60-minute takes")
    parser.add_argument("--no-others", action="store_true", help="without librosa and aubio")
    parser.add_argument("--seed", type=int, default=29, help="another set of takes (default 29)")
    args = parser.parse_args()
    began = time.perf_counter()
    made = takes(SOUNDFONT.is_file(), args.seed)
    if args.only:
        made = [t for t in made if t.name.startswith(args.only)]
    print(f"{len(made)} takes made in {time.perf_counter() - began:.1f} s")
    rows = []
    with_aubio = not args.no_others and aubio_onsets(np.zeros(1024), 44100) is not None
    with tempfile.TemporaryDirectory() as folder:
        for take in made:
            path = Path(folder, f"{take.name}.wav")
            sf.write(path, take.audio, take.rate, subtype="PCM_16")
            with contextlib.redirect_stdout(io.StringIO()):
                row = evaluate(take, path)
            true_times = np.asarray([t for t, _d, _k in take.truth.strokes])
            if not args.no_others:
                mono, rate = sf.read(path, dtype="float32", always_2d=True)
                mono = mono.mean(axis=1)
                row["librosa"] = onset_figures(librosa_onsets(mono, rate), true_times)
                found = aubio_onsets(mono, rate)
                if found is not None:
                    row["aubio"] = onset_figures(found, true_times)
            rows.append(row)
            if args.verbose:
                ours = row.get("ours", {})
                errors = ours.get("errors", np.zeros(1))
                print(
                    f"  {take.name:<14} {row.get('error', '')}"
                    f" P {ours.get('P', 0):.3f} R {ours.get('R', 0):.3f}"
                    f" p95 {np.percentile(errors, 95) if len(errors) else 0:.2f} max "
                    f"{errors.max() if len(errors) else 0:.2f}"
                    f" faults {row.get('faults')} false wrong {row.get('false_wrong')}"
                    f" named {row.get('named')} | {row.get('how', '')}"
                )
    summarise(rows, with_aubio=with_aubio)
    if args.long:
        for minutes in (10, 60):
            long_figures(minutes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
