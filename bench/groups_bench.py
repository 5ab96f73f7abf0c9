"""Time `drumscore collate --groups` over the corpus and N user editions (default 100, 500 and
2000), each a temporary edition file; each run in a fresh process, its output thrown away.

Each score of an edition is one of N/10 + 1 readings (as editions copy one another), each the
standard text's with one to three random strokes changed, lost or added; `--distinct` gives
every edition readings of its own (N alignments per score, none shared).

`--site` times `drumscore site DIR` (one language) over the same editions instead.

    python bench/groups_bench.py [--distinct] [--site] [N ...]
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from drumscore.corpus import builtin_editions

SCORES = ((1, "魯"), (1, "薛"), (2, "魯"), (2, "薛"))


def varied(notation: str, rng: random.Random) -> str:
    """The notation with one to three strokes changed, lost or added (半 kept)."""
    signs = list(notation)
    for _ in range(rng.randint(1, 3)):
        strokes = [k for k, s in enumerate(signs) if s != "半"]
        k = rng.choice(strokes)
        kind = rng.choice("cda")
        if kind == "c":
            signs[k] = "○" if signs[k] == "□" else "□"
        elif kind == "d" and len(strokes) > 2:
            del signs[k]
        else:
            signs.insert(k, rng.choice("○□"))
    return "".join(signs)


def write_editions(folder: Path, count: int, distinct: bool = False, seed: int = 1) -> None:
    """`count` user edition files in `folder`."""
    rng = random.Random(seed)
    zhushu = next(e for e in builtin_editions() if e.id == "zhushu")
    pools: dict[tuple[int, str], list[str]] = {}
    for figure, state in SCORES:
        score = zhushu.score(state, figure)
        assert score is not None
        size = count if distinct else count // 10 + 1
        pools[(figure, state)] = [varied(score.pattern.notation, rng) for _ in range(size)]
    for n in range(count):
        lines = [f'id = "bench{n:04d}"', f'name = "試本 {n}"', 'script = "traditional"', ""]
        for figure, state in SCORES:
            pool = pools[(figure, state)]
            lines += [
                "[[score]]",
                f"figure = {figure}",
                f'state = "{state}"',
                f'printed = "{pool[n] if distinct else rng.choice(pool)}"',
                "",
            ]
        (folder / f"bench{n:04d}.toml").write_text("\n".join(lines), "utf-8")


def run(count: int, distinct: bool = False, site: bool = False) -> tuple[float, float, int]:
    """Seconds (wall clock, and CPU of the process) `collate --groups` (or `site DIR`) takes
    with `count` user editions, and its exit status."""
    import resource

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "editions"
        folder.mkdir()
        write_editions(folder, count, distinct)
        env = dict(os.environ, DRUMSCORE_EDITIONS=str(folder), XDG_DATA_HOME=str(Path(tmp)))
        command = ["site", str(Path(tmp) / "site")] if site else ["collate", "--groups"]
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "drumscore", *command],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
        if done.returncode:
            print(done.stderr, file=sys.stderr)
        return took, used, done.returncode


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("counts", nargs="*", type=int, default=[100, 500, 2000])
    parser.add_argument("--distinct", action="store_true", help="every edition its own readings")
    parser.add_argument("--site", action="store_true", help="time site DIR instead of collate")
    args = parser.parse_args()
    job = "site DIR" if args.site else "collate --groups"
    print(f"{'user editions':>14}  {'seconds':>8}  {'CPU s':>8}  {'status':>6}  ({job})")
    for count in args.counts:
        took, used, status = run(count, args.distinct, args.site)
        print(f"{count:>14}  {took:8.2f}  {used:8.2f}  {status:>6}")


if __name__ == "__main__":
    main()
