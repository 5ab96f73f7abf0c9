"""One policy for SIGINT, SIGTERM and SIGHUP: each ends drumscore by raising Interrupted, which
unwinds every write (no partial output is left) up to the command line, which says one line and
exits 128 + the signal's number (130, 143, 129).

Two places must not see the exception: a C library's callback into Python (cffi prints an
exception raised there and goes on), and the clean-up of a write. Code in either runs inside
held(): a signal that comes meanwhile is kept and raised when the outermost held() ends. A
second signal while the first unwinds (TERM, then Ctrl-C a moment later) is not raised again,
so it cannot cut the clean-up short.

This module imports nothing but the standard library: the command line installs it first.
"""

from __future__ import annotations

import contextlib
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

#: The signals of the policy, those this system has.
SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
#: Seconds after a signal during which another is not raised again: the first is unwinding.
GRACE = 10.0


class Interrupted(KeyboardInterrupt):
    """A signal of the policy arrived: `signum` is which, `status` the exit status it gives."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    @property
    def status(self) -> int:
        """The shell's status of a death by the signal: 128 + its number."""
        return 128 + self.signum


class _State:
    """What the handler knows: how deep held() is in the main thread, the signal kept meanwhile,
    and when the last signal was raised."""

    depth = 0
    kept: int | None = None
    raised_at: float | None = None


def _handle(signum: int, frame: FrameType | None) -> None:
    if _State.depth > 0:
        if _State.kept is None:
            _State.kept = signum
        return
    now = time.monotonic()
    if _State.raised_at is not None and now - _State.raised_at < GRACE:
        return  # the first signal is still unwinding: its clean-up must finish
    _State.raised_at = now
    raise Interrupted(signum)


def install() -> None:
    """Make SIGINT, SIGTERM and SIGHUP raise Interrupted (in the main thread only, where Python
    runs handlers; elsewhere nothing is done). A signal ignored when drumscore started (nohup's
    SIGHUP) stays ignored."""
    if threading.current_thread() is not threading.main_thread():
        return
    for signum in SIGNALS:
        if signal.getsignal(signum) is signal.SIG_IGN and signum != signal.SIGINT:
            continue
        signal.signal(signum, _handle)


def installed() -> bool:
    """Whether the policy's handler is in force for SIGTERM (the command line installed it)."""
    return signal.getsignal(signal.SIGTERM) is _handle


def reset() -> None:
    """Forget signals raised before: a new run in the same process starts afresh."""
    _State.kept = None
    _State.raised_at = None


@contextlib.contextmanager
def held() -> Iterator[None]:
    """Keep SIGINT, SIGTERM and SIGHUP inside the block (a C library that calls back into Python,
    a clean-up that must finish): a signal that comes meanwhile is raised when the outermost
    held() ends. In another thread nothing is held: handlers run in the main thread only."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # a host program's own handlers (drumscore used as a library) are held too, for the block
    swapped = {}
    if _State.depth == 0:
        for signum in SIGNALS:
            handler = signal.getsignal(signum)
            if callable(handler) and handler is not _handle:
                swapped[signum] = handler
                signal.signal(signum, _handle)
    _State.depth += 1
    try:
        yield
    finally:
        _State.depth -= 1
        for signum, handler in swapped.items():
            signal.signal(signum, handler)
        if _State.depth == 0 and _State.kept is not None:
            signum, _State.kept = _State.kept, None
            handler = signal.getsignal(signum)
            if handler is _handle:
                _handle(signum, None)
            elif callable(handler):
                handler(signum, None)
