"""Time extract on every source passage (and on a chapter-sized text), and a full collate; and
the peak memory of `drumscore extract` on a 2 MB passage, in a fresh process."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from drumscore.collate import collate
from drumscore.compare import compare
from drumscore.corpus import editions, resolve
from drumscore.errors import ExtractError
from drumscore.extract import extract

SOURCES = Path(__file__).resolve().parent.parent / "tests" / "sources"


def best(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


#: Run in a child process: the growth of its peak memory (ru_maxrss) while extracting argv[1].
_MEMORY = """
import contextlib, io, resource, sys
from drumscore.cli import main


def peak():
    # VmHWM is this process image's own peak; ru_maxrss also counts the parent's before exec
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    scale = 1 if sys.platform == "darwin" else 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


before = peak()
with contextlib.redirect_stdout(io.StringIO()):
    code = main(["extract", sys.argv[1]])
print(before, peak())
"""


def peak_memory(text: str) -> tuple[int, int]:
    """(peak bytes after start-up, peak bytes after extracting `text`) of a fresh process."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "passage.txt"
        path.write_text(text, encoding="utf-8")
        out = subprocess.run(
            [sys.executable, "-c", _MEMORY, str(path)], capture_output=True, text=True, check=True
        ).stdout
    before, after = map(int, out.split())
    return before, after


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
    before, after = peak_memory(two_mb)
    print(
        f"extract, a {len(two_mb.encode()) / 1e6:.1f} MB passage: peak memory "
        f"{after / 1e6:.0f} MB ({(after - before) / 1e6:.0f} MB above start-up)"
    )
    editions.cache_clear()
    print(f"load corpus: {best(editions, 1) * 1000:.1f} ms ({len(editions())} editions)")
    print(f"collate, all four pairs: {best(collate) * 1000:.1f} ms")
    a, b = resolve("xue/1"), resolve("xue/2")
    print(f"compare xue/1 xue/2: {best(lambda: compare(a, b)) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
