"""Record what the renders say (tests/render_pins.py) in tests/render/pinned_output.json.

Run it only to pin the output of a known-good tree, before changing how renders are made:
    PYTHONPATH=. python tools/pin_render_output.py
The test tests/render/test_pinned_output.py then checks that every later tree says the same.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import render_pins  # noqa: E402

from drumscore.cli import main  # noqa: E402

TARGET = ROOT / "tests" / "render" / "pinned_output.json"


def main_() -> int:
    found = {}
    with tempfile.TemporaryDirectory() as folder:
        for name in render_pins.CASES:
            if not render_pins.can_run(name):
                sys.exit(f"cannot pin {name!r} here: FluidSynth or the SoundFont is missing")
            found[name] = render_pins.fingerprint(name, Path(folder) / "out", main)
            print(name, ", ".join(found[name]))
    TARGET.write_text(json.dumps(found, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main_())
