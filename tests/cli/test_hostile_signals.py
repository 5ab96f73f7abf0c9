"""Ctrl-C, SIGTERM and SIGHUP at any moment of any command: one line, the status README gives
(130, 143, 129), no traceback, and no partial output or temporary file left behind; `check`
does not swallow a signal that comes while libsndfile reads the recording."""

from __future__ import annotations

import io
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_run import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drumscore.files.atomic import TEMPORARY
from drumscore.performance import listen

LINES = {
    130: "drumscore: interrupted",
    143: "drumscore: terminated (SIGTERM); nothing half-written is left",
    129: "drumscore: the terminal closed (SIGHUP); nothing half-written is left",
}


class _Reader(io.RawIOBase):
    """A recording as libsndfile reads it (through callbacks into Python), that sends SIGTERM to
    this process from inside its third read: the moment cffi would swallow the exception."""

    def __init__(self, file) -> None:
        self.file = file
        self.reads = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        self.reads += 1
        if self.reads == 3:
            signal.raise_signal(signal.SIGTERM)
        return self.file.readinto(buffer)

    def read(self, size=-1) -> bytes:
        buffer = bytearray(size if size >= 0 else 1 << 20)
        n = self.readinto(buffer)
        return bytes(buffer[:n])

    def seek(self, offset, whence=0) -> int:
        return self.file.seek(offset, whence)

    def tell(self) -> int:
        return self.file.tell()

    def fileno(self) -> int:
        return self.file.fileno()


def test_sigterm_while_check_reads_the_recording_ends_it_with_143_and_no_plot(
    tmp_path, capsys, monkeypatch
):
    take = tmp_path / "take.wav"
    assert run_cli(["render", "lu", "--rate", "8000", "-o", str(take)], capsys)[0] == 0
    opened = listen.open_input

    def reading(*args, **kwargs):
        class Wrapped:
            def __enter__(self):
                self.inner = opened(*args, **kwargs)
                return _Reader(self.inner.__enter__())

            def __exit__(self, *exc):
                return self.inner.__exit__(*exc)

        return Wrapped()

    monkeypatch.setattr(listen, "open_input", reading)
    plot = tmp_path / "take.png"
    code, _, err = run_cli(["check", str(take), "lu", "--plot", str(plot)], capsys)
    assert code == 143, err
    assert err.strip().splitlines() == [LINES[143]]
    assert "Exception ignored" not in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["take.wav"]


def _leftovers(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if TEMPORARY.fullmatch(p.name))


def test_a_second_signal_during_the_clean_up_of_a_site_leaves_no_part_folder(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "site", str(tmp_path / "out")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not _leftovers(tmp_path) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _leftovers(tmp_path), "the site never started building"
        time.sleep(0.3)  # pages are being written
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.002)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143, err
    assert err.strip().splitlines() == [LINES[143]]
    assert list(tmp_path.iterdir()) == []


# --- SIGINT and SIGTERM at random moments of a dozen commands -------------------------------

FOLDER = Path(tempfile.mkdtemp(prefix="drumscore-signals-"))
PASSAGE = FOLDER / "passage.txt"
PASSAGE.write_text("魯鼓：○□○○□□○半○□○○□□○○□。\n薛鼓：○○□○○○□□○○□半○□○○□□○□○。\n", encoding="utf-8")
OUT = FOLDER / "out"


@pytest.fixture(scope="module", autouse=True)
def _remove_the_folder() -> Iterator[None]:
    """The commands need the folder as the module is read; it goes with the module's tests."""
    yield
    shutil.rmtree(FOLDER, ignore_errors=True)


#: Short commands, each writing into OUT (or nothing): what each may leave when it succeeds.
COMMANDS = [
    ["list"],
    ["show", "lu"],
    ["render", "lu", "-o", "{out}/a.mid"],
    ["render", "lu", "--rate", "8000", "-o", "{out}/a.wav"],
    ["render", "lu", "--repeat", "3", "-o", "{out}/a.flac"],
    ["render", "lu", "-o", "{out}/a.musicxml"],
    ["render", "lu", "xue", "-o", "{out}/{{key}}.mid"],
    ["collate", "lu/1"],
    ["collate", "--format", "mei", "-o", "{out}/c.mei"],
    ["compare", "lu/2", "lu/2@xunzuan"],
    ["extract", str(PASSAGE), "-o", "{out}/e.toml"],
    ["site", "{out}/site"],
]


def _run(argv: list[str], signum: int, delay: float) -> tuple[int, str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        try:
            proc.wait(timeout=delay)
        except subprocess.TimeoutExpired:
            proc.send_signal(signum)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    return proc.returncode, err


@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    st.sampled_from(range(len(COMMANDS))),
    st.sampled_from([signal.SIGINT, signal.SIGTERM]),
    st.floats(min_value=0.0, max_value=1.5),
)
def test_a_signal_at_any_moment_gives_one_line_its_status_and_no_partial_output(
    index, signum, delay
):
    OUT.mkdir(exist_ok=True)
    for old in sorted(OUT.rglob("*"), reverse=True):
        old.rmdir() if old.is_dir() else old.unlink()
    argv = [a.format(out=OUT) for a in COMMANDS[index]]
    code, err = _run(argv, signum, delay)
    assert "Traceback" not in err and "Exception ignored" not in err, (argv, err)
    assert _leftovers(OUT) == [], (argv, code)
    if code == 0:
        return  # finished before the signal: its outputs are whole (their own tests say so)
    if code == -signum:  # before the interpreter ran any of drumscore: nothing was begun
        assert err == "" and list(OUT.iterdir()) == [], (argv, err)
        return
    status = 128 + signum
    assert code == status, (argv, delay, code, err)
    assert err.splitlines()[-1] == LINES[status], (argv, err)
    if argv[0] != "render" or "{key}" not in argv[-1]:
        # a batch keeps the files it finished (README); anything else leaves nothing
        assert list(OUT.iterdir()) == [], (argv, sorted(OUT.iterdir()))
