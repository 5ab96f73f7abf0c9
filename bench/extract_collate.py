"""Time extract on every source passage (and on a chapter-sized text), and a full collate; and
the peak memory of `drumscore extract` on a 2 MB passage, in a fresh process."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from drumscore.analysis.collate import collate
from drumscore.analysis.compare import compare
from drumscore.corpus import builtin_editions, editions, resolve
from drumscore.editions.extract import extract
from drumscore.errors import ExtractError

SOURCES = Path(__file__).resolve().parent.parent / "tests" / "sources"


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


PEAK_MEMORY = Path(__file__).resolve().parents[1] / "tools" / "peak_memory.py"


def peak_memory(text: str) -> int:
    """Peak memory (bytes) that extracting `text` adds to a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "passage.txt"
        path.write_text(text, encoding="utf-8")
        out = subprocess.run(
            [sys.executable, str(PEAK_MEMORY), "extract", str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    code, grown = map(int, out.split())
    if code != 0:
        raise SystemExit(f"extract failed with status {code}")
    return grown


def main() -> None:
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted(SOURCES.glob("*.txt"))}

    def extract_all():
        for text in texts.values():
            with contextlib.suppress(ExtractError):
                extract(text)

    chars = sum(len(t) for t in texts.values())
    print(f"extract, {len(texts)} passages ({chars:,} chars): {best(extract_all) * 1000:.1f} ms")
    prose = texts["003_69e158327cd5ca34.txt"].replace("○", "").replace("□", "")
    big = prose * 200 + texts["KR1d0053_058_禮記注疏.txt"]
    t = best(lambda: extract(big), 3)
    print(f"extract, one {len(big):,}-char passage: {t * 1000:.0f} ms")
    two_mb = prose * (2_000_000 // len(prose.encode())) + texts["KR1d0053_058_禮記注疏.txt"]
    grown = peak_memory(two_mb)
    print(
        f"extract, a {len(two_mb.encode()) / 1e6:.1f} MB passage: "
        f"{grown / 1e6:.0f} MB of memory above start-up"
    )
    builtin_editions.cache_clear()
    print(f"load corpus: {best(editions, 1) * 1000:.1f} ms ({len(editions())} editions)")
    print(f"collate, all four pairs: {best(collate) * 1000:.1f} ms")
    a, b = resolve("xue/1"), resolve("xue/2")
    print(f"compare xue/1 xue/2: {best(lambda: compare(a, b)) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
