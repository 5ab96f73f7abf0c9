"""Time extract on every source passage (and on a chapter-sized text), and a full collate; and
the peak memory of `drumscore extract` on a 2 MB passage, in a fresh process."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from drumscore.analysis.compare import compare
from drumscore.apparatus.gather import collate
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


def whole_juan(passage: str, lines: int = 5000) -> str:
    """A Kanripo-style 卷 of `lines` lines (¶, page breaks, notes with ○ glosses and □ headwords,
    〇 zeros, □ runs for lost characters) with `passage` in the middle."""
    prose = [
        "投壺之禮主人奉矢司射奉中使人執壺主人請曰某有枉矢哨壺¶",
        "請以樂賓(○奉音捧/枉紆往反)賓曰子有旨酒嘉肴某既賜矣¶",
        "又重以樂敢辭(□方鼓/鄭呼為鼓也)凡二〇〇〇字一〇〇卷¶",
        "此下闕□□□□□□□□字不可考壺頸修七寸口徑二寸半¶",
        "故魯鼓薛鼓總以鼓名之也〇壺中實小豆焉為其矢之躍而出也¶",
    ]
    body = [prose[i % len(prose)] for i in range(lines)]
    for i in range(0, lines, 20):
        body[i] = f"<pb:KR1x_WYG_001-{i // 20}a>¶"
    middle = lines // 2
    return "\n".join([*body[:middle], passage.rstrip("\n"), *body[middle:]]) + "\n"


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
    zhushu = texts["KR1d0053_058_禮記注疏.txt"]
    juan = whole_juan(zhushu[zhushu.index("鼓○") :])
    t = best(lambda: extract(juan), 3)
    lines = juan.count("\n")
    print(f"extract, a whole 卷 of {lines:,} lines ({len(juan):,} chars): {t * 1000:.0f} ms")
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
