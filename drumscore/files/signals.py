"""One policy for SIGINT, SIGTERM and SIGHUP: each ends drumscore with one line and the status
128 + the signal's number (130, 143, 129), leaving no partial output.

While a command runs (inside raising()), a signal raises Interrupted, which unwinds every write
up to the command line, which says the line. Before and after (the imports of start-up, the last
flush), nothing is being written: the handler says the line and ends the process at once.

Two places must not see the exception: a C library's callback into Python (cffi prints an
exception raised there and goes on), and the clean-up of a write. Code in either runs inside
held(): a signal that comes meanwhile is kept and raised when the outermost held() ends. A
second signal while the first unwinds (TERM, then Ctrl-C a moment later) is not raised again,
so it cannot cut the clean-up short.

This module imports only the standard library (the catalogs when a line is said): the console
script installs it before anything else of drumscore is imported.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
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


def N_(text: str) -> str:
    """Mark `text` for the catalogs; it is translated where it is shown."""
    return text


#: The line said when a signal ends a run, by the signal's exit status.
LINES = {
    130: N_("drumscore: interrupted"),
    143: N_("drumscore: terminated (SIGTERM); nothing half-written is left"),
    129: N_("drumscore: the terminal closed (SIGHUP); nothing half-written is left"),
}


def line(status: int) -> str:
    """The line said when a signal ends a run with `status`, in the reader's language (in
    English while the catalogs are still being loaded, at start-up)."""
    text = LINES.get(status, LINES[130])
    translate = getattr(sys.modules.get("drumscore.i18n"), "_", None)
    if translate is None:
        return text
    try:
        return str(translate(text))
    except Exception:  # the catalogs half-loaded: a signal in the middle of start-up
        return text


def status_of(exc: KeyboardInterrupt) -> int:
    """The exit status a run ended by `exc` gives: 128 + its signal's number (a plain
    KeyboardInterrupt is Ctrl-C's, 130)."""
    return exc.status if isinstance(exc, Interrupted) else 128 + signal.SIGINT


def interrupt_in(exc: BaseException) -> KeyboardInterrupt | None:
    """The signal's KeyboardInterrupt that `exc` wraps, if any: Python wraps an exception raised
    in some hooks (a dataclass field's __set_name__ while a module loads, say) in a RuntimeError,
    so a signal that lands there reaches the top as that error, its cause the signal."""
    seen: set[int] = set()
    found: BaseException | None = exc
    while found is not None and id(found) not in seen:
        if isinstance(found, KeyboardInterrupt):
            return found
        seen.add(id(found))
        found = found.__cause__ or found.__context__
    return None


@contextlib.contextmanager
def ctrl_c_stops() -> Iterator[None]:
    """Inside the block Ctrl-C ends only the block (a live play, whose report follows); SIGTERM
    and SIGHUP still end the command."""
    try:
        yield
    except KeyboardInterrupt as exc:
        if status_of(exc) != 128 + signal.SIGINT:
            raise
        _State.raised_at = None  # handled: the next signal counts again


class _State:
    """What the handler knows: whether a command runs (raising), how deep held() is in the main
    thread, the signal kept meanwhile, and when the last signal was raised."""

    raising = 0
    depth = 0
    kept: int | None = None
    raised_at: float | None = None
    lost: int | None = None


def _handle(signum: int, frame: FrameType | None) -> None:
    now = time.monotonic()
    if _State.raised_at is not None and now - _State.raised_at < GRACE:
        return  # the first signal is still unwinding: its clean-up and its line must finish
    if _State.depth > 0:
        _keep(signum, frame)
        return
    if not _State.raising:
        _exit_now(signum)
    _State.raised_at = now
    raise Interrupted(signum)


def _keep(signum: int, frame: FrameType | None) -> None:
    """Inside held(): keep the first signal, to be raised when the block ends."""
    if _State.kept is None:
        _State.kept = signum


def _exit_now(signum: int) -> None:
    """Say the line and end the process: nothing is being written."""
    status = 128 + signum
    with contextlib.suppress(OSError, ValueError):
        encoding = getattr(sys.stderr, "encoding", None) or "utf-8"
        os.write(2, (line(status) + "\n").encode(encoding, "replace"))
    os._exit(status)


@contextlib.contextmanager
def raising() -> Iterator[None]:
    """Inside the block (a command's run), a signal raises Interrupted instead of ending the
    process at once, so every write unwinds; signals raised before are forgotten.

    A signal whose Interrupted Python cannot raise through (it came while a finalizer, __del__
    or a weakref callback, ran: Python prints such an exception and goes on) is not lost: it is
    kept, unprinted, the next signal counts again, and it is raised when the block ends."""
    _State.raising += 1
    outermost = _State.raising == 1
    if outermost:
        _State.kept = None
        _State.raised_at = None
        _State.lost = None
        hook, sys.unraisablehook = sys.unraisablehook, _unraisable(sys.unraisablehook)
    try:
        yield
    finally:
        _State.raising -= 1
        if outermost:
            sys.unraisablehook = hook
    if outermost and _State.lost is not None:
        signum, _State.lost = _State.lost, None
        raise Interrupted(signum)


def _unraisable(
    previous: Callable[[sys.UnraisableHookArgs], object],
) -> Callable[[sys.UnraisableHookArgs], None]:
    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if isinstance(unraisable.exc_value, Interrupted):
            if _State.lost is None:
                _State.lost = unraisable.exc_value.signum
            _State.raised_at = None  # nothing unwinds it: the next signal is raised
            return
        previous(unraisable)

    return hook


def started_as_drumscore() -> bool:
    """Whether this process is drumscore's own: the console script, or python -m drumscore while
    it imports the package; not another program that imports drumscore (python -m theirs)."""
    if sys.argv[:1] == ["-m"]:  # python -m MODULE, before MODULE runs: which?
        given = sys.orig_argv
        named = given[given.index("-m") + 1 :][:1] if "-m" in given else []
        return named == ["drumscore"] or "-mdrumscore" in given
    name = os.path.basename(sys.argv[0].replace("\\", "/")).removesuffix(".exe")
    main = getattr(sys.modules.get("__main__"), "__file__", None)
    return name == "drumscore" and main == sys.argv[0]


def take_over(before: dict[int, object], early: list[int]) -> None:
    """At the start of drumscore's own process (the package's first lines kept the signals that
    came while this module loaded in `early`, the handlers they replaced in `before`): put the
    policy in, and give it those signals; in another program that imports drumscore, put its
    handlers back and give them the signals."""
    ours = started_as_drumscore()
    for signum, handler in before.items():
        ignored = handler is signal.SIG_IGN or handler == signal.SIG_IGN
        if not ours or (ignored and signum != signal.SIGINT):
            signal.signal(signum, handler)  # type: ignore[arg-type]
    if ours:
        install()
    for signum in dict.fromkeys(early):
        signal.raise_signal(signum)


def install() -> dict[int, object]:
    """Put the policy's handler on SIGINT, SIGTERM and SIGHUP (in the main thread only, where
    Python runs handlers; elsewhere nothing is done); returns the handlers it replaced, for
    restore. A signal ignored when drumscore started (nohup's SIGHUP) stays ignored."""
    previous: dict[int, object] = {}
    if threading.current_thread() is not threading.main_thread():
        return previous
    for signum in SIGNALS:
        handler = signal.getsignal(signum)
        if handler is signal.SIG_IGN and signum != signal.SIGINT:
            continue
        previous[signum] = handler
        signal.signal(signum, _handle)
    return previous


def restore(previous: dict[int, object]) -> None:
    """Put back the handlers install replaced (drumscore run inside a host program)."""
    for signum, handler in previous.items():
        if callable(handler) or isinstance(handler, int):
            signal.signal(signum, handler)  # type: ignore[arg-type]


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
                signal.signal(signum, _keep)
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
