"""Renders onto a full disk (a full tmpfs) and under a file-size limit (ulimit -f), in every
output format: one line naming the file and the system's reason, exit 1, and no file left."""

from __future__ import annotations

import contextlib
import gc
import resource
import subprocess
import sys
from pathlib import Path
from unittest.mock import patch

import pytest
from cli_run import run_quietly

from drumscore.files.format_choice import AUDIO, ENGRAVED, MIDI, NOTATION

#: Every output format, by its extension (not the aliases .midi and .xml).
FORMATS = sorted(
    ext[1:] for ext in [*AUDIO, *MIDI, *NOTATION, *ENGRAVED] if ext not in (".midi", ".xml")
)


_run = run_quietly


@pytest.fixture(scope="module")
def full_disk(tmp_path_factory):
    """A tmpfs filled to the last byte, or a skip saying why one cannot be mounted."""
    folder = tmp_path_factory.mktemp("full")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(folder)],
        capture_output=True,
        text=True,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.strip() or mounted.returncode}")
    try:
        with open(folder / "filler", "wb", buffering=0) as filler, contextlib.suppress(OSError):
            while True:
                filler.write(b"\0" * 4096)
                filler.flush()
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_render_onto_a_full_disk_is_one_line_and_exit_1(fmt, full_disk):
    out = full_disk / f"lu.{fmt}"
    code, err = _run(["render", "lu", "-q", "-o", str(out)])
    assert code == 1, err
    assert err == f"drumscore: error: cannot write {str(out)!r}: No space left on device\n"
    assert [p.name for p in full_disk.iterdir()] == ["filler"]


#: Bytes a file may have under the limit: less than the smallest render (a MIDI file).
FILE_SIZE_LIMIT = 64


@pytest.fixture(scope="module")
def under_ulimit(tmp_path_factory):
    """Each format rendered while the files this process writes may not pass FILE_SIZE_LIMIT
    bytes (ulimit -f): Python ignores SIGXFSZ, so a write past the limit fails with EFBIG as it
    does in `drumscore render` under the limit. The limit is lifted between renders; meanwhile
    no bytecode is written, which the limit would cut short (a .pyc of 64 bytes that every
    later import of its module fails on), and no garbage of earlier tests is collected (a file
    it closes could not be flushed, and would say so on the render's stderr)."""
    folder = tmp_path_factory.mktemp("ulimit")
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    results = {}
    collecting = gc.isenabled()
    for fmt in FORMATS:
        gc.disable()
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, hard))
        try:
            with patch.object(sys, "dont_write_bytecode", True):
                results[fmt] = _run(["render", "lu", "-q", "-o", f"{folder}/lu.{fmt}"])
        finally:
            resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
            if collecting:
                gc.enable()
    return folder, results


@pytest.mark.parametrize("fmt", FORMATS)
def test_a_render_past_the_file_size_limit_is_one_line_and_exit_1(fmt, under_ulimit):
    folder, results = under_ulimit
    code, err = results[fmt]
    assert code == 1, err
    assert err.startswith("drumscore: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    out = folder / f"lu.{fmt}"
    assert err == f"drumscore: error: cannot write {str(out)!r}: File too large\n"
    assert [p.name for p in Path(folder).iterdir() if p.name.startswith(f"lu.{fmt}")] == []
    assert not [p for p in Path(folder).iterdir() if ".drumscore-" in p.name]
