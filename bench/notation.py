"""Time MusicXML export (music21) and MuseScore engraving for growing numbers of repeats.

Run: python bench/notation.py [--engrave]
"""

from __future__ import annotations

import argparse
import resource
import time

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.render.musicxml import musicxml_bytes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--engrave", action="store_true", help="also time MuseScore PDF output")
    args = parser.parse_args()
    start = time.perf_counter()
    import music21  # noqa: F401

    print(f"import music21: {time.perf_counter() - start:.2f} s")
    for repeats in (1, 10, 100, 200):
        timeline = arrange(resolve("xue"), repeats=repeats)
        start = time.perf_counter()
        document = musicxml_bytes(timeline, lyrics="drum")
        took = time.perf_counter() - start
        print(
            f"xue ×{repeats:<5} {len(timeline):>6} strokes: MusicXML {took:6.2f} s, "
            f"{len(document) / 1024:8.0f} KiB"
        )
        if args.engrave and repeats <= 100:
            from drumscore.render.musescore import engrave

            start = time.perf_counter()
            pages = engrave(document, "pdf").pages
            print(
                f"    PDF by MuseScore: {time.perf_counter() - start:.2f} s, {len(pages[0])} bytes"
            )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    main()
