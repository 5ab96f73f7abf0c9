"""What every refused hostile input must look like: one error line, the exit status, at once,
and no file left behind."""

from __future__ import annotations

import gc
import time
from pathlib import Path

from cli_run import run_cli

#: Seconds of the caller's CPU a refusal may take once the modules are loaded: nothing is
#: rendered (CPU time, not wall time, so a busy machine does not make a refusal slow).
AT_ONCE = 0.5


def refused(argv, capsys, folder: Path | None = None, status: int = 2) -> str:
    """Run `drumscore ARGV` twice (the first loads the modules) and check the second: exit
    `status`, one "drumscore: error:" line first, no traceback, at once; nothing new in `folder`.
    Returns the error line."""
    before = set(folder.iterdir()) if folder is not None else set()
    run_cli(argv, capsys)
    # the garbage of earlier tests is not this refusal's work: what the process holds now is
    # set aside from the collector while the refusal is timed (gc.collect() here would take
    # 0.1-0.2 s of a test process's CPU each time, more than most refusals)
    gc.freeze()
    try:
        start = time.thread_time()
        code, _, err = run_cli(argv, capsys)
        took = time.thread_time() - start
    finally:
        gc.unfreeze()
    assert code == status, f"exit {code}, stderr {err!r}"
    assert err.startswith("drumscore: error: ") and err.count("drumscore: error:") == 1, err
    assert "Traceback" not in err
    assert took < AT_ONCE, f"took {took:.2f} s"
    if folder is not None:
        assert set(folder.iterdir()) == before, sorted(set(folder.iterdir()) - before)
    return err.splitlines()[0]
