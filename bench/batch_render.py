"""Many scores in one process, and Verovio against MuseScore, each measured side by side.

1. Every corpus score × every section (head, touhu, she: 132 WAV files) rendered by one
   `drumscore render --all --section head,touhu,she -o TEMPLATE`, against one `drumscore render`
   process per file (the xargs way), against `dd` writing the same number of files of the same
   sizes. Targets: one command at most 0.15 × the per-file processes, and at most 3 × dd.
2. An SVG of lu engraved by Verovio in a fresh `drumscore render` process, against MuseScore 3
   converting the same MusicXML to PDF (`mscore3 -o lu.pdf lu.musicxml`). Target: at most 0.5 ×.

Each side is run --runs times (default 3), alternating, and the medians compared. Output goes to
a temporary folder on the same file system for every side (or --dir).

Usage: python bench/batch_render.py [--runs N] [--dir DIR] [--jobs N]
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

from drumscore.corpus import scores

SECTIONS = ("head", "touhu", "she")
TARGET_PROCESSES, TARGET_DD, TARGET_ENGRAVE = 0.15, 3.0, 0.5
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
DRUMSCORE = [sys.executable, "-m", "drumscore"]


def timed(argv: list[str], **kw) -> float:
    kw.setdefault("env", CHILD_ENV)
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, **kw)
    return time.perf_counter() - start


def slug(key: str) -> str:
    return key.replace("/", "_").replace("@", "_")


def one_command(folder: Path) -> float:
    template = str(folder / "{key}-{section}.wav")
    return timed(
        [*DRUMSCORE, "render", "--all", "--section", ",".join(SECTIONS), "-q", "-o", template]
    )


def per_process(folder: Path, jobs: int) -> float:
    """One drumscore process per file, as `xargs -n 1 -P jobs` runs them."""
    lines = "".join(f"{s.key} {sec}\n" for s in scores() for sec in SECTIONS)
    script = (
        f'exec {" ".join(DRUMSCORE)} render "$0" --section "$1" -q '
        f'-o "{folder}/$(echo "$0" | tr /@ __)-$1.wav"'
    )
    start = time.perf_counter()
    subprocess.run(
        ["xargs", "-P", str(jobs), "-n", "2", "sh", "-c", script],
        input=lines.encode(),
        check=True,
        env=CHILD_ENV,
    )
    return time.perf_counter() - start


def dd_same_bytes(folder: Path, sizes: list[int]) -> float:
    """dd writing files of the given sizes, one dd per file, from one shell."""
    script = "".join(
        f"dd if=/dev/zero of={folder}/f{i}.wav bs={size} count=1 iflag=fullblock status=none\n"
        for i, size in enumerate(sizes)
    )
    return timed(["sh", "-c", script])


def fresh(base: Path, name: str) -> Path:
    folder = base / name
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    return folder


def bench_batch(base: Path, runs: int, jobs: int) -> bool:
    keys = [s.key for s in scores()]
    count = len(keys) * len(SECTIONS)
    times = {"one command": [], "one process per file": [], "dd, same bytes": []}
    sizes: list[int] = []
    for _ in range(runs):
        folder = fresh(base, "batch")
        times["one command"].append(one_command(folder))
        files = sorted(folder.iterdir())
        assert len(files) == count, f"{len(files)} files, expected {count}"
        sizes = [p.stat().st_size for p in files]
        reference = {p.name: p.read_bytes() for p in files[:3]}
        folder = fresh(base, "xargs")
        times["one process per file"].append(per_process(folder, jobs))
        for name, data in reference.items():  # the same files either way
            assert (folder / name).read_bytes() == data, name
        times["dd, same bytes"].append(dd_same_bytes(fresh(base, "dd"), sizes))
    med = {k: statistics.median(v) for k, v in times.items()}
    total_mb = sum(sizes) / 1e6
    print(f"{count} WAV files ({len(keys)} scores × {', '.join(SECTIONS)}), {total_mb:.0f} MB")
    for name, value in med.items():
        runs_shown = ", ".join(f"{t:.2f}" for t in times[name])
        print(f"  {name:<24} {value:7.2f} s   (runs: {runs_shown})")
    r1 = med["one command"] / med["one process per file"]
    r2 = med["one command"] / med["dd, same bytes"]
    ok1, ok2 = r1 <= TARGET_PROCESSES, r2 <= TARGET_DD
    print(
        f"  one command / per-file processes = {r1:.3f} (target ≤ {TARGET_PROCESSES}) "
        f"{'met' if ok1 else 'NOT met'}"
    )
    print(f"  one command / dd = {r2:.2f} (target ≤ {TARGET_DD}) {'met' if ok2 else 'NOT met'}")
    return ok1 and ok2


def bench_engrave(base: Path, runs: int) -> bool:
    musescore = shutil.which("mscore3") or shutil.which("musescore3")
    folder = fresh(base, "engrave")
    document = folder / "lu.musicxml"
    subprocess.run(
        [*DRUMSCORE, "render", "lu", "-q", "-o", str(document)], check=True, env=CHILD_ENV
    )
    verovio, engrave_only, muse = [], [], []
    only = (
        "import sys; from pathlib import Path; from drumscore.render.verovio import engrave; "
        "Path(sys.argv[2]).write_bytes(engrave(Path(sys.argv[1]).read_bytes(), 'svg').pages[0])"
    )
    home = folder / "home"
    home.mkdir()
    env = {**CHILD_ENV, "QT_QPA_PLATFORM": "offscreen", "HOME": str(home)}
    for _ in range(runs):
        verovio.append(timed([*DRUMSCORE, "render", "lu", "-q", "-o", str(folder / "lu.svg")]))
        engrave_only.append(
            timed([sys.executable, "-c", only, str(document), str(folder / "only.svg")])
        )
        if musescore:
            muse.append(
                timed(
                    [musescore, "-o", str(folder / "lu.pdf"), str(document)],
                    env=env,
                    stderr=subprocess.DEVNULL,
                )
            )
    v = statistics.median(verovio)
    print(
        f"SVG of lu by Verovio, fresh drumscore process: {v:.2f} s   (runs: "
        + ", ".join(f"{t:.2f}" for t in verovio)
        + ")"
    )
    if not muse:
        print("  MuseScore 3 is not installed: no comparison")
        return True
    m = statistics.median(muse)
    print(
        f"PDF of the same MusicXML by MuseScore 3:        {m:.2f} s   (runs: "
        + ", ".join(f"{t:.2f}" for t in muse)
        + ")"
    )
    e = statistics.median(engrave_only)
    print(
        f"SVG of that MusicXML by Verovio, fresh process: {e:.2f} s   (runs: "
        + ", ".join(f"{t:.2f}" for t in engrave_only)
        + ")"
    )
    print(f"  whole render (music21 builds the MusicXML first) / MuseScore = {v / m:.2f}")
    ratio = e / m
    ok = ratio <= TARGET_ENGRAVE
    verdict = "met" if ok else "NOT met"
    print(
        f"  Verovio / MuseScore, same MusicXML = {ratio:.2f} (target ≤ {TARGET_ENGRAVE}) {verdict}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--engraving-only", action="store_true", help="skip the batch part")
    parser.add_argument("--dir", help="where to write (default: a temporary folder)")
    parser.add_argument(
        "--jobs", type=int, default=1, help="parallel processes for the per-file side (default 1)"
    )
    args = parser.parse_args()
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="drumscore-bench-"))
    try:
        ok = args.engraving_only or bench_batch(base, args.runs, args.jobs)
        ok = bench_engrave(base, args.runs) and ok
    finally:
        if not args.dir:
            shutil.rmtree(base, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
