"""Ctrl-C, SIGTERM and SIGHUP at any moment of any command: one line, the status README gives
(130, 143, 129), no traceback, and no partial output or temporary file left behind; `check`
does not swallow a signal that comes while libsndfile reads the recording."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drumscore.files.atomic import TEMPORARY

LINES = {
    130: "drumscore: interrupted",
    143: "drumscore: terminated (SIGTERM); nothing half-written is left",
    129: "drumscore: the terminal closed (SIGHUP); nothing half-written is left",
}


def test_sigterm_while_check_reads_the_recording_ends_it_with_143_and_no_plot(
    tmp_path, capsys, monkeypatch
):
    import soundfile as sf

    take = tmp_path / "take.wav"
    assert run_cli(["render", "lu", "--rate", "8000", "-o", str(take)], capsys)[0] == 0
    read = sf.SoundFile.read
    reads = []

    def reading(self, *args, **kwargs):
        reads.append(1)
        if len(reads) == 2:  # in the middle of the recording
            signal.raise_signal(signal.SIGTERM)
        return read(self, *args, **kwargs)

    monkeypatch.setattr(sf.SoundFile, "read", reading)
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
    # both may be pending when Python next runs its handlers (inside a C call), SIGINT first
    assert proc.returncode in (130, 143), err
    assert err.strip().splitlines() == [LINES[proc.returncode]]
    assert list(tmp_path.iterdir()) == []


# --- SIGINT and SIGTERM at random moments of a dozen commands -------------------------------

PASSAGE = "魯鼓：○□○○□□○半○□○○□□○○□。\n薛鼓：○○□○○○□□○○□半○□○○□□○□○。\n"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The inputs ({in}: a passage) and the output folder ({out}) of the commands below."""
    found = tmp_path_factory.mktemp("signals")
    (found / "passage.txt").write_text(PASSAGE, encoding="utf-8")
    return found


#: Short commands, each writing into {out} (or nothing): what each may leave when it succeeds.
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
    ["extract", "{in}/passage.txt", "-o", "{out}/e.toml"],
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


def _before_drumscore(code: int, err: str, signum: int) -> bool:
    """Whether the signal came while Python itself started, before drumscore's first line
    (its policy holds from there): a death by the signal, or Python's own KeyboardInterrupt
    in its start-up frames (site, runpy, the import system), none of them drumscore's."""
    if code == -signum and err == "":
        return True
    lines = err.strip().splitlines()
    frames = [line.strip() for line in lines if line.lstrip().startswith("File")]
    site_said = lines and lines[0].startswith("Error processing line")
    if site_said and "Remainder of file ignored" in err:
        # Python's site caught the interrupt in a .pth file's line (an editable install's finder
        # importing pathlib), said so, and went on: the interpreter's start, not drumscore's
        return not any("/drumscore/" in frame for frame in frames)
    return (
        "Traceback (most recent call last):" in lines
        and lines[-1] == "KeyboardInterrupt"
        and all(_before_the_policy(frame) for frame in frames if "/drumscore/" in frame)
    )


#: The modules drumscore runs before its signal policy is installed: the package's first lines
#: and the policy's own module, while they are imported (their module level, not install()).
_START_UP = ("drumscore/__init__.py", "drumscore/files/__init__.py", "drumscore/files/signals.py")


def _before_the_policy(frame: str) -> bool:
    return frame.endswith("in <module>") and any(f'{name}"' in frame for name in _START_UP)


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
    # from drumscore's first line: the interpreter's own start-up before it is Python's
    st.floats(min_value=0.05, max_value=1.5),
)
def test_a_signal_at_any_moment_gives_one_line_its_status_and_no_partial_output(
    folder, index, signum, delay
):
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    argv = [a.format(**{"in": folder, "out": out}) for a in COMMANDS[index]]
    code, err = _run(argv, signum, delay)
    if _before_drumscore(code, err, signum):  # a loaded machine's slow start-up
        assert list(out.iterdir()) == [], (argv, err)
        return
    assert "Traceback" not in err and "Exception ignored" not in err, (argv, err)
    assert _leftovers(out) == [], (argv, code)
    if code == 0:
        return  # finished before the signal: its outputs are whole (their own tests say so)
    status = 128 + signum
    assert code == status, (argv, delay, code, err)
    assert err.splitlines()[-1] == LINES[status], (argv, err)
    # what is there was finished before the signal (a batch's done files, an output already in
    # place when the signal came as the command said so): each is whole
    for path in out.rglob("*"):
        assert path.is_dir() or _whole(path), (argv, path)


def _whole(path: Path) -> bool:
    """Whether an output reads back whole, by its own format's reader."""
    import tomllib
    import xml.etree.ElementTree as ET

    import mido
    import soundfile as sf

    try:
        if path.suffix == ".toml":
            tomllib.loads(path.read_text(encoding="utf-8"))
        elif path.suffix == ".mid":
            mido.MidiFile(path)
        elif path.suffix in (".wav", ".flac"):
            info = sf.info(str(path))
            data, _rate = sf.read(str(path))
            return len(data) == info.frames > 0
        elif path.suffix in (".musicxml", ".mei", ".svg"):
            ET.parse(path)
        elif path.suffix == ".html":  # HTML, not XML: from its doctype to its closing tag
            text = path.read_text(encoding="utf-8").strip()
            return text.lower().startswith("<!doctype html>") and text.endswith("</html>")
        return True
    except Exception:
        return False


# --- the first 300 ms: from the console script's first instruction, the policy holds ----------

#: Five commands as they start: each reads, and two write into {out}.
START_UP = [
    ["list"],
    ["show", "lu"],
    ["collate", "lu/1"],
    ["render", "lu", "-o", "{out}/a.mid"],
    ["extract", "{in}/passage.txt", "-o", "{out}/e.toml"],
]


def _launcher(index: int) -> list[str]:
    """The console script for even commands (where the venv has it), python -m for odd ones."""
    script = Path(sys.executable).with_name("drumscore")
    if index % 2 == 0 and script.exists():
        return [sys.executable, str(script)]  # as its #! line runs it, with this interpreter
    return [sys.executable, "-m", "drumscore"]


def _caught(pid: int) -> int:
    """The signals process `pid` has a handler for (its SigCgt mask); 0 once it is gone."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("SigCgt:"):
                    return int(line.split()[1], 16)
    except OSError:
        pass
    return 0


def _policy_in(pid: int) -> bool:
    """Whether drumscore's policy is installed in `pid`: only it catches SIGTERM."""
    return bool(_caught(pid) & 1 << (signal.SIGTERM - 1))


def _start_up_case(folder: Path, index: int, signum: int, after: float | None) -> None:
    """Run START_UP[index] and send `signum` `after` seconds from its start (None: the moment
    the policy is seen installed, a measured point); then the exit rule: once the policy was in,
    exactly; before it (the interpreter's own start, nothing of drumscore's run yet), a death
    by the signal or Python's own KeyboardInterrupt, and nothing written."""
    out = folder / "out"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    argv = [a.format(**{"in": folder, "out": out}) for a in START_UP[index]]
    started = time.monotonic()
    proc = subprocess.Popen(
        [*_launcher(index), *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        if after is None:
            deadline = started + 30
            while not _policy_in(proc.pid) and proc.poll() is None and time.monotonic() < deadline:
                time.sleep(0.0002)
        else:
            while time.monotonic() < started + after and proc.poll() is None:
                time.sleep(0.0005)
        policy = _policy_in(proc.pid)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    code, case = proc.returncode, (argv, signum, after, proc.returncode, err)
    if not policy and _before_drumscore(code, err, signum):
        # the interpreter's own start: nothing half-written, and any output there is whole
        assert _leftovers(out) == [], case
        assert all(_whole(path) for path in out.rglob("*")), case
        return
    assert "Traceback" not in err and "Fatal Python error" not in err, case
    assert "Exception ignored" not in err, case
    assert _leftovers(out) == [], case
    if code == 0:
        for path in out.rglob("*"):
            assert _whole(path), case
        return
    assert code == 128 + signum, case
    assert err.splitlines() == [LINES[code]], case


@pytest.mark.parametrize("index", range(len(START_UP)))
def test_a_signal_as_the_policy_is_installed_and_just_after_keeps_the_exit_rule(folder, index):
    """At the measured moment the policy appears, then 10, 50 and 150 ms on; signals in turn."""
    for n, later in enumerate((None, 0.01, 0.05, 0.15)):
        signum = (signal.SIGINT, signal.SIGTERM)[(n + index) % 2]
        if later is None:
            _start_up_case(folder, index, signum, None)
        else:
            _start_up_case(folder, index, signum, later + _policy_time(index))


#: When the policy was seen installed after the start, per command (measured once).
_measured: dict[int, float] = {}


def _policy_time(index: int) -> float:
    if index not in _measured:
        proc = subprocess.Popen(
            [*_launcher(index), "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        started = time.monotonic()
        while not _policy_in(proc.pid) and proc.poll() is None:
            time.sleep(0.0002)
        _measured[index] = time.monotonic() - started
        proc.wait()
    return _measured[index]


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("index", range(len(START_UP)))
def test_a_signal_at_every_10_ms_of_the_first_300_ms_keeps_the_exit_rule(folder, index, signum):
    for ms in range(0, 300, 10):
        _start_up_case(folder, index, signum, ms / 1000)


def test_importing_drumscore_in_another_program_installs_no_signal_policy(tmp_path):
    """python -m THEIRS whose package imports drumscore: its signals stay its own."""
    host = tmp_path / "hostapp"
    host.mkdir()
    (host / "__init__.py").write_text(
        "import signal\nimport drumscore\n"
        "print(signal.getsignal(signal.SIGTERM) == signal.SIG_DFL,\n"
        "      signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n",
        encoding="utf-8",
    )
    (host / "__main__.py").write_text("", encoding="utf-8")
    import os

    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}
    for argv in (["-m", "hostapp"], ["-c", "import hostapp"]):
        done = subprocess.run(
            [sys.executable, *argv], capture_output=True, text=True, env=env, timeout=60
        )
        assert done.stdout.split() == ["True", "True"], done
    # and drumscore's own process has it from the package's first lines
    as_drumscore = "import sys; sys.argv[0] = '-m'; sys.orig_argv[1:] = ['-m', 'drumscore']"
    probe = "import signal; print(signal.getsignal(signal.SIGTERM).__module__)"
    done = subprocess.run(
        [sys.executable, "-c", f"{as_drumscore}; import drumscore; {probe}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "drumscore.files.signals", done


# --- SIGKILL of site: its worker processes end with it, and let go of its output ---------------


def _descendants(pid: int) -> set[int]:
    """The live processes under `pid` (by their parent, from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = dict(
                    line.split(":\t", 1) for line in (entry / "status").read_text().splitlines()
                )
            except (OSError, ValueError):
                continue
            if not fields.get("State", "").startswith("Z"):
                parents[int(entry.name)] = int(fields.get("PPid", "0"))
    found, frontier = set(), {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _alive(pids: set[int]) -> set[int]:
    left = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        if "\nState:\tZ" not in state:
            left.add(pid)
    return left


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc")
def test_sigkill_of_site_ends_its_workers_within_a_second_and_frees_its_output(tmp_path):
    from drumscore.site.artefacts import cores

    if cores() < 2:
        pytest.skip("one core: the site is built without worker processes")
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "site", str(tmp_path / "s"), "--lang", "all"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 120
        while not workers and proc.poll() is None and time.monotonic() < deadline:
            workers = _descendants(proc.pid)
            time.sleep(0.01)
        assert workers, "the site started no worker process"
        time.sleep(0.2)  # the workers at work
        workers |= _descendants(proc.pid)
        proc.kill()
        proc.wait(timeout=10)
        killed = time.monotonic()
        while _alive(workers) and time.monotonic() < killed + 1:
            time.sleep(0.01)
        assert _alive(workers) == set()
        # nothing holds the output open: whoever reads it sees its end at once
        for stream in (proc.stdout, proc.stderr):
            os.set_blocking(stream.fileno(), False)
            ended = False
            while not ended and time.monotonic() < killed + 1.5:
                try:
                    ended = os.read(stream.fileno(), 65536) == b""
                except BlockingIOError:
                    time.sleep(0.01)
            assert ended, "a worker holds the output of the killed site open"
    finally:
        # the workers too, had they outlived the build (their parent is init's then)
        for pid in _alive(workers | _descendants(proc.pid) | {proc.pid}):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        proc.communicate()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_policy_itself_loads_is_given_to_it(signum):
    """drumscore's own process (as python -m drumscore has it), a signal sent at the moment the
    policy's module is being found: kept by the package's first lines, then the policy's line
    and status, no traceback."""
    code = f"""
import os, sys
sys.argv[0] = "-m"
sys.orig_argv[1:] = ["-m", "drumscore"]

class Moment:
    def find_spec(self, name, path=None, target=None):
        if name == "drumscore.files.signals":
            os.kill(os.getpid(), {int(signum)})
        return None

sys.meta_path.insert(0, Moment())
import drumscore
print("went on")
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 128 + signum, done
    assert done.stderr.splitlines() == [LINES[128 + signum]], done
    assert done.stdout == ""
