"""The full-table alignment (Needleman–Wunsch) and the linear-memory one (Hirschberg), side by
side: time and peak memory of aligning two random stroke sequences, each in a fresh process.

    python bench/align_bench.py [N ...]
"""

from __future__ import annotations

import subprocess
import sys

CHILD = """
import random, sys, time
sys.path.insert(0, {tools!r})
from peak_memory import peak
from drumscore.apparatus import linear as align
import numpy  # loaded before the baseline, by both
random.seed(1)
n = {n}
a = [random.choice("○□") for _ in range(n)]
b = list(a)
for _ in range(n // 10):
    b[random.randrange(n)] = random.choice("○□")
del b[: n // 20]
before = peak()
start = time.perf_counter()
pairs = getattr(align, {fn!r})(a, b)
took = time.perf_counter() - start
print(took, peak() - before, sum(1 for i, j in pairs if i is None or j is None or a[i] != b[j]))
"""


def run(fn: str, n: int) -> tuple[float, int, int]:
    from pathlib import Path

    tools = str(Path(__file__).resolve().parents[1] / "tools")
    out = subprocess.run(
        [sys.executable, "-c", CHILD.format(tools=tools, n=n, fn=fn)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return float(out[0]), int(out[1]), int(out[2])


def main() -> None:
    sizes = [int(x) for x in sys.argv[1:]] or [1000, 3000, 10000]
    print(f"{'strokes':>8} {'method':<18} {'time':>8} {'peak memory':>12} {'cost':>6}")
    for n in sizes:
        for fn, label in (("needleman_wunsch", "full table"), ("align", "Hirschberg")):
            took, grown, cost = run(fn, n)
            print(f"{n:>8} {label:<18} {took:>7.2f}s {grown / 1024**2:>9.1f} MiB {cost:>6}")


if __name__ == "__main__":
    main()
