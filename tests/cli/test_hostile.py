"""Hostile input and faults at the command line: huge numbers, signals, killed writers, long
names, a closed or full stderr. Each is one clear line and the right exit status, at once, with
no file left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
import soundfile as sf
from cli_run import run_cli, started
from hostile_checks import refused

from drumscore.files.atomic import TEMPORARY

HUGE = "9" * 5000

NUMBERS = [
    (["--bpm", "1e999999999"], "--bpm '1e999999999' is out of range"),
    (["--bpm", HUGE], "--bpm '999"),
    (["--interval", "1e-99999999"], "--interval '1e-99999999' is out of range"),
    (["--interval", HUGE], "characters long"),
    (["--duration", "1e999999999"], "over the limit of 12 hours"),
    (["--duration", HUGE], "characters long"),
    (["--duration", HUGE + "s"], "characters long"),
    (["--repeat", HUGE], "not a whole number"),
    (["--rate", HUGE], "not a whole number"),
    (["--humanize", "1e99999"], "--humanize takes milliseconds"),
    (["--humanize", HUGE], "characters long"),
    (["--humanize", "5", "--seed", HUGE], "--seed"),
    (["--velocity", HUGE + ",1"], "--velocity"),
]


@pytest.mark.parametrize(("options", "said"), NUMBERS, ids=[" ".join(o)[:30] for o, _ in NUMBERS])
def test_huge_and_tiny_numbers_are_refused_at_once(options, said, tmp_path, capsys):
    line = refused(["render", "lu", *options, "-o", f"{tmp_path}/a.wav"], capsys, tmp_path)
    assert said in line and len(line) < 300, line


def test_a_midi_notes_of_5000_digits_is_refused_at_once(tmp_path, capsys):
    line = refused(["render", "lu", "--midi-notes", HUGE, "-o", f"{tmp_path}/a.mid"], capsys)
    assert "--midi-notes" in line and len(line) < 300


def test_a_tiny_duration_plays_the_section_once_at_once(tmp_path, capsys):
    start = time.thread_time()  # CPU, not wall time: a busy machine does not make it slow
    code, out, err = run_cli(
        ["render", "lu", "--duration", "1e-99999999", "-o", f"{tmp_path}/a.mid"], capsys
    )
    assert code == 0, err
    assert "23 strokes" in out
    assert time.thread_time() - start < 2


def test_opus_is_checked_against_the_rate_before_anything_is_written(tmp_path, capsys):
    line = refused(
        ["render", "lu", "--subtype", "OPUS", "-o", f"{tmp_path}/a.ogg"], capsys, tmp_path
    )
    assert "OPUS takes a sample rate of 8, 12, 16, 24, 48 kHz, not 44100 Hz" in line
    code, _, err = run_cli(  # three strokes: a longer take says no more of the rate
        ["render", "○□○", "--subtype", "opus", "--rate", "48000", "-o", f"{tmp_path}/a.ogg"],
        capsys,
    )
    assert code == 0, err
    assert sf.info(str(tmp_path / "a.ogg")).subtype == "OPUS"


@pytest.mark.parametrize("name", ["a" * 246 + ".mid", "鼓" * 83 + ".mid"])
def test_an_output_name_near_the_limit_is_written(name, tmp_path, capsys):
    assert len(os.fsencode(name)) >= 250
    code, _, err = run_cli(["render", "lu", "-o", str(tmp_path / name)], capsys)
    assert code == 0, err
    assert [p.name for p in tmp_path.iterdir()] == [name]


def _wait_for_writing(folder):
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = [p for p in folder.iterdir() if TEMPORARY.fullmatch(p.name)]
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError("the render never started writing")


def test_sighup_ends_a_render_like_sigterm_and_leaves_no_file(tmp_path):
    with started(["render", "lu", "--duration", "3h", "-o", str(tmp_path / "long.flac")]) as proc:
        _wait_for_writing(tmp_path)
        proc.send_signal(signal.SIGHUP)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 129 and b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_killed_writer_leaves_a_named_temporary_file_the_next_write_removes(tmp_path, capsys):
    with started(["render", "lu", "--duration", "3h", "-o", str(tmp_path / "long.wav")]) as proc:
        (left,) = _wait_for_writing(tmp_path)
        proc.kill()  # SIGKILL: nothing can clean up
        proc.communicate(timeout=30)
    assert left.exists() and f".drumscore-{proc.pid}-" in left.name
    assert left.name.startswith(".long.wav.")
    code, _, err = run_cli(["render", "lu", "-o", str(tmp_path / "other.mid")], capsys)
    assert code == 0
    assert not left.exists()
    (said,) = [line for line in err.splitlines() if "removed" in line]
    assert left.name in said and f"process {proc.pid}" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.mid"]


def test_a_live_writers_temporary_file_is_left_alone(tmp_path, capsys):
    live = tmp_path / f".x.wav.drumscore-{os.getppid()}-abcdefgh.part"
    live.write_bytes(b"being written")
    assert run_cli(["render", "lu", "-o", str(tmp_path / "a.mid")], capsys)[0] == 0
    assert live.exists()


def _with_stderr(stderr_setup, *args):
    """Exit status of drumscore with fd 2 closed ('closed') or on /dev/full ('full')."""

    def prepare():
        if stderr_setup == "closed":
            os.close(2)
        else:
            full = os.open("/dev/full", os.O_WRONLY)
            os.dup2(full, 2)
            os.close(full)

    return subprocess.run(
        [sys.executable, "-m", "drumscore", *args],
        stdout=subprocess.DEVNULL,
        preexec_fn=prepare,
        timeout=60,
    ).returncode


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
@pytest.mark.parametrize("stderr_setup", ["closed", "full"])
def test_a_closed_or_full_stderr_keeps_the_exit_status(stderr_setup, tmp_path):
    assert _with_stderr(stderr_setup, "render", "○X", "-o", str(tmp_path / "a.mid")) == 2
    assert _with_stderr(stderr_setup, "render", "lu", "-o", str(tmp_path / "a.mid")) == 0
    assert (tmp_path / "a.mid").read_bytes().startswith(b"MThd")
    assert [p.name for p in tmp_path.iterdir()] == ["a.mid"]
