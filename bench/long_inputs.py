"""Time and peak memory of each output at the longest input drumscore takes, beside a peer.

Each case runs the command line in a fresh process (python -m drumscore), so its figures hold
the import of the libraries it needs; the peer is the nearest command on the same input:

- a 10,000-stroke pattern repeated twice to MusicXML, beside the same to MIDI;
- that pattern engraved to SVG (Verovio), beside its MusicXML;
- compare --plot of two 10,000-stroke patterns shifted by three strokes, beside compare alone;
- a site with two editions of 10,000-stroke patterns, beside collate of the same editions;
- extract of a passage of a million line breaks, beside extract of a printed passage;
- site8000: a site with two user editions of 8,000 strokes each (issue 43), beside collate of the
  same two;
- site2000: a site of the corpus and 2,000 user editions (bench/groups_bench.py's, readings
  copied from one another), beside `collate --groups` of the same.

Run: python bench/long_inputs.py [--only NAME[,NAME]] [--tree DIR]
(NAME: musicxml, svg, plot, site, extract, site8000, site2000; DIR: the drumscore tree to run,
by default this one, so that a branch and main may be measured in one run.)
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STROKES = 10_000
HERE = Path(__file__).resolve().parent.parent
PASSAGE = HERE / "tests" / "sources" / "KR1d0053_058_禮記注疏.txt"


def _pattern(seed: int, count: int = STROKES) -> str:
    rng = random.Random(seed)
    strokes = "".join(rng.choice("○□") for _ in range(count))
    return f"{strokes[: count // 2]}半{strokes[count // 2 :]}"


def _edition(folder: Path, ident: str, pattern: str) -> Path:
    path = folder / f"{ident}.toml"
    path.write_text(
        f'id = "{ident}"\nname = "{ident}"\n[[score]]\nfigure = 1\nstate = "魯"\n'
        f'label = "魯鼓"\nprinted = "{pattern}"\n',
        encoding="utf-8",
    )
    return path


def _run(
    argv: list[str], cwd: Path, tree: Path = HERE, extra: dict[str, str] | None = None
) -> tuple[float, float, int, float]:
    """Seconds, peak memory in MiB, exit status and CPU seconds (its workers' too) of
    `drumscore ARGV` (of `tree`), with the environment's `extra` variables."""
    env = {**os.environ, "PYTHONPATH": str(tree), **(extra or {})}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        cwd=cwd,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        print(f"    ({' '.join(argv)[:60]}… exit {proc.returncode})", file=sys.stderr)
    return seconds, usage.ru_maxrss / 1024, proc.returncode, usage.ru_utime + usage.ru_stime


def cases(
    work: Path, only: set[str], count: int = 2000
) -> dict[str, tuple[list[str], list[str], dict[str, str]]]:
    """Each case's command and its peer's, and the environment both run in, with the inputs
    made in `work` (the large ones only for the cases in `only`, if any; `count` user
    editions for site2000)."""
    a, b = _pattern(1), _pattern(2)
    (work / "a.txt").write_text(a, encoding="utf-8")
    shifted = "○□○" + a.replace("半", "")[:-3]
    half = len(shifted) // 2
    (work / "shifted.txt").write_text(f"{shifted[:half]}半{shifted[half:]}", encoding="utf-8")
    editions = work / "editions"
    editions.mkdir()
    _edition(editions, "long-a", a)
    _edition(editions, "long-b", b)
    (work / "newlines.txt").write_text("\n" * 1_000_000, encoding="utf-8")
    shutil.copyfile(PASSAGE, work / "passage.txt")
    long8k = work / "editions8000"
    long8k.mkdir()
    _edition(long8k, "long-a", _pattern(1, 8000))
    _edition(long8k, "long-b", _pattern(2, 8000))
    many = work / "editions2000"
    many.mkdir()
    if not only or "site2000" in only:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from groups_bench import write_editions

        write_editions(many, count)
    users = {"DRUMSCORE_EDITIONS": str(many), "XDG_DATA_HOME": str(work)}
    plain: dict[str, str] = {}
    found = {
        "musicxml": (
            ["render", "a.txt", "--repeat", "2", "-q", "-o", "a.musicxml"],
            ["render", "a.txt", "--repeat", "2", "-q", "-o", "a.mid"],
        ),
        "svg": (
            ["render", "a.txt", "-q", "-o", "a.svg"],
            ["render", "a.txt", "-q", "-o", "a1.musicxml"],
        ),
        "plot": (
            ["compare", "a.txt", "shifted.txt", "--plot", "ab.png"],
            ["compare", "a.txt", "shifted.txt"],
        ),
        "site": (
            ["site", "site", "--edition", "editions"],
            ["collate", "--edition", "editions/long-a.toml", "--edition", "editions/long-b.toml"],
        ),
        "extract": (["extract", "newlines.txt"], ["extract", "passage.txt"]),
    }
    out = {name: (argv, peer, plain) for name, (argv, peer) in found.items()}
    out["site8000"] = (
        ["site", "site8000", "--edition", "editions8000", "-q"],
        [
            "collate",
            "--edition",
            "editions8000/long-a.toml",
            "--edition",
            "editions8000/long-b.toml",
        ],
        plain,
    )
    out["site2000"] = (["site", "site2000", "-q"], ["collate", "--groups"], users)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--only",
        help="the cases, comma-separated: musicxml, svg, plot, site, extract, site8000, site2000",
    )
    parser.add_argument("--tree", type=Path, default=HERE, help="the drumscore tree to run")
    parser.add_argument(
        "--editions", type=int, default=2000, help="user editions of site2000 (default 2000)"
    )
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else set()
    with tempfile.TemporaryDirectory(prefix="drumscore-long-") as folder:
        work = Path(folder)
        for name, (argv, peer, env) in cases(work, only, args.editions).items():
            if only and name not in only:
                continue
            seconds, peak, _, cpu = _run(argv, work, args.tree, env)
            peer_seconds, peer_peak, _, peer_cpu = _run(peer, work, args.tree, env)
            if name == "site2000" and args.editions != 2000:
                name = f"site{args.editions}"
            print(
                f"{name:<9} {seconds:7.1f} s ({cpu:6.1f} s CPU) {peak:6.0f} MiB   peer "
                f"({peer[0]} …): {peer_seconds:6.1f} s ({peer_cpu:6.1f} s CPU) {peer_peak:6.0f} MiB"
            )
            if argv[0] == "site" and (work / argv[1] / "index.html").is_file():
                print(f"{'':<9} {_pages(work / argv[1])}")


def _pages(site: Path) -> str:
    """The sizes of a built site's index and compare page, and of its scores' data files."""
    sizes = [(site / name).stat().st_size for name in ("index.html", "compare.html")]
    data = sorted(p.stat().st_size for p in (site / "data").glob("*.js"))
    mib = 2**20
    return (
        f"index.html {sizes[0] / mib:.1f} MiB, compare.html {sizes[1] / mib:.2f} MiB, "
        f"{len(data)} data files of {data[0] / 1024:.1f}–{data[-1] / 1024:.1f} KiB"
        if data
        else f"index.html {sizes[0] / mib:.1f} MiB, compare.html {sizes[1] / mib:.2f} MiB"
    )


if __name__ == "__main__":
    main()
