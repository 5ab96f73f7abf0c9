"""Running the command line in-process (or, where the process is what is tested, as a process
of its own), and what every bad-input error must look like."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections.abc import Iterator

from drumscore.cli import main


def run_cli(argv, capsys) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `drumscore ARGV`."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def run_quietly(argv) -> tuple[int, str]:
    """Exit status and stderr of `drumscore ARGV`, without pytest's capture (hypothesis tests and
    module-scoped fixtures cannot use capsys); stdout is dropped."""
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code
    return code, err.getvalue()


def expect_error(argv, capsys) -> str:
    """stderr of a run that fails as bad input: exit 2, one "drumscore: error:", no traceback."""
    code, _, err = run_cli(argv, capsys)
    assert code == 2, f"exit {code}, stderr {err!r}"
    assert err.startswith("drumscore: error: ") and err.count("drumscore: error:") == 1
    assert "Traceback" not in err
    return err


@contextlib.contextmanager
def started(argv, **kwargs) -> Iterator[subprocess.Popen]:
    """`python -m drumscore ARGV` as a process of its own (stdout and stderr piped), killed if it
    is still running when the block ends: a test that fails half-way (a signal not obeyed, a
    timeout) leaves no render of hours running behind it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        **kwargs,
    )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
