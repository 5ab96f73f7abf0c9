"""Audio outputs cut short part-way through the stream: under a file-size limit (RLIMIT_FSIZE)
that falls in the header, the first block, the middle or the last block, every command that
writes audio, in every audio format, fails with one line naming the output, exit 1, and leaves
no file (or, in a batch, only files that are whole)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

#: Each command that writes audio, with OUT where its output goes ({fmt} its format).
COMMANDS = {
    "render": ["render", "lu", "--bpm", "240", "-o", "OUT/lu.{fmt}"],
    "batch": [
        "render",
        "lu",
        "xue",
        "--section",
        "touhu",
        "--bpm",
        "240",
        "-o",
        "OUT/{{key}}.{fmt}",
    ],
    "compare": ["compare", "lu/1", "lu/2", "--bpm", "240", "--audio", "OUT/ab.{fmt}"],
    "loopable": ["render", "lu", "--bpm", "240", "--loopable", "-o", "OUT/loop.{fmt}"],
    "programme": ["render", "--programme", "rite", "--bpm", "480", "-o", "OUT/rite.{fmt}"],
    "soundfont": ["render", "xue", "--bpm", "240", "--soundfont", "SF2", "-o", "OUT/sf.{fmt}"],
}
FORMATS = ("wav", "flac", "ogg")
#: Where the limit falls: in the header, the first block, the middle, the very last bytes.
POINTS = ("header", "first block", "middle", "last block")
SOUNDFONT = Path("/usr/share/sounds/sf2/FluidR3_GM.sf2")
#: The tests folder, whose cli_run the driver below runs drumscore with.
TESTS = str(Path(__file__).resolve().parent.parent)

DRIVER = r"""
import json, os, resource, sys
sys.path.insert(0, sys.argv[4])
from cli_run import run_quietly as run

def sizes(folder):
    return {name: os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder)}

cases, points, work = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3]
results = {}
for name, argv in cases.items():
    whole = os.path.join(work, name, "whole")
    os.makedirs(whole)
    code, err = run([a.replace("OUT", whole) for a in argv])
    assert code == 0, (name, err)
    full = max(sizes(whole).values())
    limits = {"header": 20, "first block": 6000, "middle": full // 2, "last block": full - 1}
    for point in points:
        out = os.path.join(work, name, point.replace(" ", "-"))
        os.makedirs(out)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limits[point], resource.RLIM_INFINITY))
        try:
            code, err = run([a.replace("OUT", out) for a in argv])
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY,) * 2)
        results[f"{name}|{point}"] = [code, err, out, whole]
print(json.dumps(results))
"""


def _cases(wanted: set[str]) -> dict[str, list[str]]:
    cases = {}
    for name, argv in COMMANDS.items():
        if name == "soundfont" and not SOUNDFONT.is_file():
            continue
        for fmt in FORMATS:
            if f"{name}-{fmt}" in wanted:
                cases[f"{name}-{fmt}"] = [
                    a.replace("SF2", str(SOUNDFONT)).format(fmt=fmt) for a in argv
                ]
    return cases


@pytest.fixture(scope="module")
def cut_short(request, tmp_path_factory) -> dict[str, list]:
    """Each command and format this run tests, first whole, then cut short at each point, in
    one process."""
    wanted = {
        f"{item.callspec.params['command']}-{item.callspec.params['fmt']}"
        for item in request.session.items
        if item.path == request.path and hasattr(item, "callspec")
    }
    work = tmp_path_factory.mktemp("short")
    cases = _cases(wanted)
    done = subprocess.run(
        [sys.executable, "-c", DRIVER, json.dumps(cases), json.dumps(POINTS), str(work), TESTS],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def _command_and_format() -> list:
    """Every command in WAV and every format from render; the rest of the matrix is slow."""
    return [
        pytest.param(
            command,
            fmt,
            marks=[] if fmt == "wav" or command == "render" else [pytest.mark.slow],
        )
        for command in sorted(COMMANDS)
        for fmt in FORMATS
    ]


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize(("command", "fmt"), _command_and_format())
def test_an_audio_write_cut_short_is_one_line_exit_1_and_no_file(cut_short, command, fmt, point):
    if command == "soundfont" and not SOUNDFONT.is_file():
        pytest.skip(f"no SoundFont at {SOUNDFONT} (Debian's fluid-soundfont-gm)")
    if command == "soundfont" and shutil.which("fluidsynth") is None:
        pytest.importorskip("fluidsynth", reason="FluidSynth is not installed")
    code, err, out, whole = cut_short[f"{command}-{fmt}|{point}"]
    left = sorted(p.name for p in Path(out).iterdir())
    assert not [name for name in left if name.endswith(".part")], left
    assert "Traceback" not in err and "AssertionError" not in err, err
    if code == 0:
        # the limit fell past this output's size (a batch's smaller file, an OGG page): whole
        assert point == "last block" or command == "batch", err
    else:
        assert code == 1, err
        lines = err.splitlines()
        # one line per failed output (a batch's lines start with the score and section)
        assert lines and all(line.startswith("drumscore: error: ") for line in lines), err
        assert all(f"cannot write {out!r}/"[:-2] in line for line in lines), err
    for name in left:
        # a file that is there is whole: the same samples as the render without a limit (an
        # OGG stream's serial number differs from run to run, so samples, not bytes)
        written, expected = sf.read(Path(out) / name), sf.read(Path(whole) / name)
        assert written[1] == expected[1] and np.array_equal(written[0], expected[0]), name
    if command != "batch":
        assert (code == 0) == bool(left), (code, left)
