"""Fixtures every test folder can use: the command line run in-process, the one shape of a
bad-input error, the source passages in tests/sources/; the `requires` marker for system tools;
and a home, data, cache and editions folder of its own for every test.

The helpers behind them (cli_run, sourcefiles) can still be imported by bare name.
"""

import json
import os
import re
import shutil
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import cli_run
import pytest
import sourcefiles
import system_tools
from hypothesis import settings

from drumscore import i18n

# The suite's modules compiled once, not in every run and every process: where the shell sets
# PYTHONDONTWRITEBYTECODE (as many CI and container shells do), each worker would otherwise
# rewrite and compile every test module again (7 s of a worker's CPU before its first test), and
# each `python -m drumscore` a test starts would compile drumscore's modules again. The bytecode
# goes to __pycache__ beside each module (git ignores it), as Python writes it by default.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

# The tests send drumscore the signals a user sends, and check what Python does with its own
# (SIGINT's KeyboardInterrupt). A run started where they are ignored (under nohup, or as a
# background job of a script: SIGHUP, SIGINT and SIGQUIT) would hand the ignoring on to every
# process it starts: the run sets them back to their defaults, in itself and so in its workers
# and their subprocesses, before any is started.
for _signal in (signal.SIGHUP, signal.SIGINT, signal.SIGQUIT, signal.SIGTERM):
    if signal.getsignal(_signal) == signal.SIG_IGN:
        signal.signal(
            _signal, signal.default_int_handler if _signal == signal.SIGINT else signal.SIG_DFL
        )

# Property tests judge what the code does, never how fast: speed is measured in bench/, so a busy
# machine (two test runs on two cores) must not fail a test by Hypothesis's per-example deadline.
settings.register_profile("drumscore", deadline=None)
settings.load_profile("drumscore")

#: Where a test's user folders point: HOME and the XDG folders (platformdirs follows them),
#: matplotlib's; drumscore's editions folder is then the one in XDG_DATA_HOME (none listed).
USER_FOLDERS: dict[str, str | None] = {
    "HOME": "home",
    "XDG_DATA_HOME": "home/.local/share",
    "XDG_CACHE_HOME": "home/.cache",
    "XDG_CONFIG_HOME": "home/.config",
    "XDG_STATE_HOME": "home/.local/state",
    "MPLCONFIGDIR": "home/.config/matplotlib",
    "DRUMSCORE_EDITIONS": None,
    # messages in English unless a test asks for another language (tests/test_i18n.py)
    "LANGUAGE": None,
    "LC_ALL": None,
    "LC_MESSAGES": None,
    "LANG": "C.UTF-8",
}


def _point_user_folders(root: Path) -> None:
    for name, sub in USER_FOLDERS.items():
        if sub is None:
            os.environ.pop(name, None)
        elif sub.startswith("C."):
            os.environ[name] = sub
        else:
            os.environ[name] = str(root / sub)
    (root / "home").mkdir(parents=True, exist_ok=True)


def _run_folder_parent() -> str | None:
    """Where the run's temporary folder goes: in TMPDIR where the shell sets one; otherwise in
    memory (/dev/shm) where there is room for it, and else the system's temporary folder. Each
    test makes and removes a few folders (its home, its tmp_path), and the site and render tests
    write and remove thousands of files: on a disk that other work keeps busy, removing a folder
    took 3 ms (a second in every 300 tests), in memory a few microseconds."""
    if os.environ.get("TMPDIR"):
        return None
    shm = "/dev/shm"
    try:
        free = os.statvfs(shm)
    except OSError:
        return None
    room = free.f_bavail * free.f_frsize >= 2 << 30
    return shm if room and os.path.isdir(shm) and os.access(shm, os.W_OK | os.X_OK) else None


# The whole run's temporary files in one folder of its own (TMPDIR, which the workers and every
# subprocess inherit), so that what a test leaves behind is found: the run fails on it.
if "PYTEST_XDIST_WORKER" not in os.environ:
    _RUN = Path(tempfile.mkdtemp(prefix="drumscore-run-", dir=_run_folder_parent()))
    os.environ["TMPDIR"] = str(_RUN)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again
else:
    _RUN = None

# Before any test module is imported (matplotlib settles its folders on import), the whole run
# gets folders in a temporary directory; each test then gets its own under tmp_path.
_SESSION = tempfile.TemporaryDirectory(prefix="drumscore-tests-")
_SAVED = {name: os.environ.get(name) for name in USER_FOLDERS}
_point_user_folders(Path(_SESSION.name))


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "requires(*tools): skip unless each system tool is here (tests/system_tools.py)"
    )
    config.addinivalue_line(
        "markers",
        "slow: a test whose cost only a full run pays (README's command leaves it out; "
        ".ci/checks runs it: pytest -m slow)",
    )


def _selection(config: pytest.Config) -> str:
    """The tests chosen by marks, as a name: "not-slow" (README's command), "slow" (-m slow)."""
    return re.sub(r"\W+", "-", config.getoption("markexpr") or "all")


def _seconds_key(config: pytest.Config) -> str:
    """pytest's cache key for how long each test file took in the runs before (seconds, wall),
    one for each selection by marks (README's command, -m slow)."""
    return f"drumscore/file-seconds/{_selection(config)}"


#: How long each test file took in a full run (tools/file_seconds.py writes it from a run's
#: cache): the order of a run that has no timings of its own yet, as in a fresh clone.
FILE_SECONDS = Path(__file__).with_name("file-seconds.json")


def _file_seconds(config: pytest.Config) -> dict[str, float]:
    """Seconds per test file: this checkout's last runs, else the committed table's."""
    try:
        seconds: dict[str, float] = json.loads(FILE_SECONDS.read_text("utf-8"))[_selection(config)]
    except (OSError, ValueError, KeyError, TypeError):
        seconds = {}
    cache = getattr(config, "cache", None)
    if cache is not None:
        seconds.update(cache.get(_seconds_key(config), {}))
    return seconds


def _file_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log):
    """`--dist loadfile`, the longest files first: a file goes to the worker that runs low, as
    xdist does, but the one with the most seconds left to run (as the last runs timed it, or
    tests/file-seconds.json; a file timed in neither by its number of tests), not the one with
    the most tests. Otherwise a long file of few tests (a browser's, a listener's) comes last
    and one worker runs it alone while the other waits."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    seconds = _file_seconds(config)

    class LongestFirst(LoadFileScheduling):
        def _assign_work_unit(self, node) -> None:
            def cost(scope: str) -> float:
                return seconds.get(_file_of(scope), 0.05 * len(self.workqueue[scope]))

            self.workqueue.move_to_end(max(self.workqueue, key=cost), last=False)
            super()._assign_work_unit(node)

    return LongestFirst(config, log)


#: Seconds each file took in this run (the controller's count, from every worker's reports).
_TIMED: dict[str, float] = {}
#: The files with a test that ran (was not skipped before its call) in this run.
_RAN: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """A skipped test does not time its file: a file whose tests all skip here (no Chromium,
    as .ci/without-tools has it) keeps the seconds of the last run that ran it, and is not
    handed out last in the next run that does."""
    name = _file_of(report.nodeid)
    if not report.skipped:
        _TIMED[name] = _TIMED.get(name, 0.0) + report.duration
    if report.when == "call":  # (a test skipped in its setup has no call)
        _RAN.add(name)


def _keep_file_seconds(config: pytest.Config) -> None:
    """The files timed in this run, for the next run's order (pytest_xdist_make_scheduler)."""
    cache = getattr(config, "cache", None)
    if cache is None or hasattr(config, "workerinput") or not _TIMED or config.option.keyword:
        return  # (a run of some tests of a file, by -k, does not time the file)
    seconds = cache.get(_seconds_key(config), {})
    seconds.update({name: round(s, 2) for name, s in _TIMED.items() if name in _RAN})
    cache.set(_seconds_key(config), seconds)


def _left_behind() -> list[str]:
    """What the run left in its temporary folder: not pytest's own, not the user folders."""
    if _RUN is None or not _RUN.is_dir():
        return []
    # pytest's and each process's user folders, what the workers build once for all of them
    # (tests/site/conftest.py built_once); the caches and runtime folders of the tools run
    # (music21, MuseScore's Qt and PulseAudio), which go with the run's folder
    own = (
        "pytest-",
        "drumscore-tests-",
        "drumscore-built",
        "music21",
        "pulse-",
        "qtsingleapp-",
        "runtime-",
    )
    return sorted(p.name for p in _RUN.iterdir() if not p.name.startswith(own))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run fails if a test left a file or folder in the temporary folder."""
    _keep_file_seconds(session.config)
    left = _left_behind()
    if left and not hasattr(session.config, "workerinput"):
        session.config.get_terminal_writer().line(
            f"error: the tests left these in the temporary folder: {left[:20]}", red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_unconfigure(config: pytest.Config) -> None:
    for name, value in _SAVED.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    _SESSION.cleanup()
    if _RUN is not None:
        shutil.rmtree(_RUN, ignore_errors=True)


def pytest_runtest_setup(item: pytest.Item) -> None:
    """@pytest.mark.requires("musescore", ...): skip, saying what is missing and its package."""
    for mark in item.iter_markers("requires"):
        for tool in mark.args:
            why = system_tools.missing(tool)
            if why:
                pytest.skip(f"needs {tool}: {why}")


def _made_meanwhile(factory: pytest.TempPathFactory) -> Callable[[], list[Path]]:
    """What lists the folders tmp_path_factory.mktemp has made from now on (in this process,
    where one test runs at a time)."""
    base = factory.getbasetemp()
    before = set(base.iterdir())
    return lambda: [path for path in base.iterdir() if path not in before]


def _remove(paths: list[Path]) -> None:
    for path in paths:
        shutil.rmtree(path, ignore_errors=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    """The folders a module's or the session's fixture makes (tmp_path_factory.mktemp) as it
    is set up go when it does, not at the end of the run."""
    if fixturedef.scope == "function" or fixturedef.argname == "tmp_path_factory":
        yield
        return
    made = _made_meanwhile(request.getfixturevalue("tmp_path_factory"))
    yield
    folders = made()
    fixturedef.addfinalizer(lambda: _remove(folders))


#: Set on a test whose setup or call failed: the folders it made are kept to look at.
_FAILED = pytest.StashKey[bool]()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo):
    outcome = yield
    if outcome.get_result().failed:
        item.stash[_FAILED] = True


@pytest.fixture(autouse=True)
def own_user_folders(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    """HOME, the XDG folders and the editions folder inside this test's temporary folders,
    removed when it passes, with every folder the test made with tmp_path_factory (as
    pyproject's tmp_path_retention_policy removes a passing test's tmp_path): the run's
    temporary folder holds only what the tests running now write, and is gone in a moment."""
    saved = {name: os.environ.get(name) for name in USER_FOLDERS}
    made = _made_meanwhile(tmp_path_factory)
    _point_user_folders(tmp_path_factory.mktemp("user"))
    i18n.set_language(None)
    yield
    i18n.set_language(None)
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    if not request.node.stash.get(_FAILED, False):
        _remove(made())


@pytest.fixture
def cli(capsys) -> Callable[..., tuple[int, str, str]]:
    """cli("render", "lu", "-o", path): exit status, stdout and stderr of drumscore."""
    return lambda *argv: cli_run.run_cli([str(a) for a in argv], capsys)


@pytest.fixture
def expect_error(capsys) -> Callable[..., str]:
    """expect_error("render", "○X"): stderr of a run that fails as bad input (exit 2, one line
    starting "drumscore: error:", no traceback)."""
    return lambda *argv: cli_run.expect_error([str(a) for a in argv], capsys)


@pytest.fixture
def source_text() -> Callable[[str], str]:
    """source_text(NAME): the text of a source passage in tests/sources/."""
    return sourcefiles.source_text


@pytest.fixture
def fake_midi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[..., Path]:
    """fake_midi(inputs=[...], outputs=[...], notes=[(s, note, velocity)], follow=False): mido's
    backend is tests/fake_midi_backend.py for this test (as MIDO_BACKEND chooses any), its ports
    and the notes its input plays as given (with `follow`, timed from the first note sounded;
    with `interrupt_at` n, Ctrl-C is pressed as the n-th note sounds)."""
    import json
    import threading

    import fake_midi_backend

    def configure(inputs=(), outputs=(), notes=(), follow=False, interrupt_at=None) -> Path:
        path = tmp_path / "fake_midi.json"
        data = {
            "inputs": list(inputs),
            "outputs": list(outputs),
            "notes": [list(n) for n in notes],
            "follow": follow,
            "interrupt_at": interrupt_at,
        }
        path.write_text(json.dumps(data), encoding="utf-8")
        monkeypatch.setenv("FAKE_MIDI", str(path))
        return path

    monkeypatch.setenv("MIDO_BACKEND", "fake_midi_backend")
    monkeypatch.setattr(fake_midi_backend, "opened", [])
    monkeypatch.setattr(fake_midi_backend, "first_sound", [])
    monkeypatch.setattr(fake_midi_backend, "sounded", threading.Event())
    configure()
    return configure
