"""Files at the edge: atomic writes that never leave a partial file or clobber a good one."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from .errors import OutputError


def check_writable(path: str | Path) -> Path:
    """The output path, after checking its folder exists and it is not itself a folder."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise OutputError(
            f"output {str(path)!r} is a folder; give a file name such as {str(path / 'out.wav')!r}"
        )
    if not parent.is_dir():
        raise OutputError(
            f"output folder {str(parent)!r} does not exist; create it first (mkdir -p {parent})"
        )
    if not os.access(parent, os.W_OK):
        raise OutputError(f"output folder {str(parent)!r} is not writable; choose another -o path")
    return path


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`: on success it replaces `path`, else it is removed.

    A symbolic link is followed, so the file it points to is replaced and the link kept.
    """
    path = check_writable(os.path.realpath(path) if os.path.islink(path) else path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent or ".")
    except OSError as exc:
        raise OutputError(f"cannot write in {str(path.parent)!r}: {exc.strerror}") from None
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        if path.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp_path, path.stat().st_mode & 0o777)
        else:
            os.chmod(tmp_path, 0o666 & ~_umask())
        os.replace(tmp_path, path)
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
