"""A real PortAudio output device on a machine without a sound card: ALSA's `file` PCM plugin.

Its configuration goes in a temporary HOME given to a subprocess, never in the user's files.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

DEVICE = "drumscore_capture"


def alsa_env(home: Path, capture: Path | str, infile: Path | str | None = None) -> dict[str, str]:
    """Environment for a subprocess whose ALSA knows one output, DEVICE, writing raw to `capture`
    (and, with `infile`, one input too, reading it raw: as fast as it is asked, not paced).

    PortAudio plays float32, so `capture` receives interleaved float32 stereo frames.
    """
    home.mkdir(parents=True, exist_ok=True)
    reads = f'  infile "{infile}"\n' if infile is not None else ""
    (home / ".asoundrc").write_text(
        f'pcm.{DEVICE} {{\n  type file\n  slave.pcm "null"\n  file "{capture}"\n{reads}'
        '  format "raw"\n}\n',
        encoding="utf-8",
    )
    env = dict(os.environ)
    env.pop("ALSA_CONFIG_PATH", None)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        PYTHONIOENCODING="utf-8",
        PYTHONPATH=str(Path(__file__).resolve().parents[1]),
    )
    return env


def read_capture(path: Path) -> np.ndarray:
    """What the device received: float32 stereo frames."""
    data = np.fromfile(path, dtype="<f4")
    return data[: len(data) // 2 * 2].reshape(-1, 2)


def play_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "drumscore", "play", *args, "--device", DEVICE]
