"""Keep how long each test file took in this checkout's last full runs as tests/file-seconds.json.

    .venv/bin/python -m pytest && .venv/bin/python -m pytest -m slow
    .venv/bin/python tools/file_seconds.py

The tests' scheduler (tests/conftest.py) hands out the longest files first, timed by the last
runs in pytest's cache; a fresh clone has no cache, and orders its first run by this table.
"""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".pytest_cache" / "v" / "drumscore" / "file-seconds"
TABLE = ROOT / "tests" / "file-seconds.json"


def main() -> int:
    if not CACHE.is_dir():
        print(f"error: no timings in {CACHE}: run the tests first", file=sys.stderr)
        return 1
    table = {}
    for selection in sorted(CACHE.iterdir()):
        seconds = json.loads(selection.read_text("utf-8"))
        table[selection.name] = {
            name: round(s, 1) for name, s in sorted(seconds.items()) if (ROOT / name).is_file()
        }
    TABLE.write_text(json.dumps(table, indent=1, ensure_ascii=False) + "\n", "utf-8")
    counts = ", ".join(f"{name} {len(seconds)} files" for name, seconds in table.items())
    print(f"{TABLE.relative_to(ROOT)}: {counts}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
