"""Files at the edge: atomic writes that never leave a partial file or clobber a good one.

A file is written under a temporary name beside it, .NAME.drumscore-PID-XXXXXXXX.part (PID the
writer's process id; NAME shortened so the whole stays within the file-name limit), and renamed
when complete. A writer killed outright (SIGKILL, a crash) cannot remove its temporary file, so
every write first removes the temporary files in its folder whose process is gone (remove_stale),
and tells the function given to on_stale_removed.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from drumscore.errors import DrumscoreError, OutputError, WriteError

#: The temporary names of every writer: .NAME.drumscore-PID-XXXXXXXX.part.
TEMPORARY = re.compile(r"\..*\.drumscore-([1-9][0-9]*)-[a-z0-9_]{8}\.part", re.DOTALL)
_SUFFIX = ".part"
#: The file-name limit where the system does not say (NAME_MAX on Linux and macOS).
NAME_MAX = 255

#: Called with each stale temporary file a write removed (see on_stale_removed).
_stale_callback: Callable[[Path, int], None] | None = None


def on_stale_removed(
    callback: Callable[[Path, int], None] | None,
) -> Callable[[Path, int], None] | None:
    """Have `callback(path, pid)` told of every stale temporary file a write removes; returns the
    callback it replaces."""
    global _stale_callback
    previous, _stale_callback = _stale_callback, callback
    return previous


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # it exists, but belongs to someone else
        return True
    return True


def remove_stale(folder: str | Path) -> list[tuple[Path, int]]:
    """Remove the temporary files (and page folders) in `folder` left by writers that are gone;
    return each with the process id that left it."""
    removed: list[tuple[Path, int]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        match = TEMPORARY.fullmatch(entry.name)
        if not match:
            continue
        pid = int(match.group(1))
        if pid == os.getpid() or _alive(pid):
            continue
        try:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)
        except OSError:
            continue
        removed.append((Path(entry.path), pid))
        if _stale_callback is not None:
            _stale_callback(Path(entry.path), pid)
    return removed


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return NAME_MAX


def temporary_prefix(path: Path) -> str:
    """The start of a temporary name for `path`: `path`'s name, shortened to fit the limit."""
    folder = path.parent if str(path.parent) else Path(".")
    tag = f".drumscore-{os.getpid()}-"
    room = _name_max(folder) - len(os.fsencode(f".{tag}{_SUFFIX}")) - 8  # mkstemp adds 8
    name = path.name
    while name and len(os.fsencode(name)) > room:
        name = name[:-1]
    return f".{name}{tag}"


def _make_temporary(path: Path, folder_too: bool = False) -> Path:
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale(folder)
    prefix = temporary_prefix(path)
    try:
        if folder_too:
            return Path(tempfile.mkdtemp(prefix=prefix, suffix=_SUFFIX, dir=folder))
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=_SUFFIX, dir=folder)
    except OSError as exc:
        raise WriteError(f"cannot write in {str(folder)!r}: {exc.strerror}") from None
    os.close(fd)
    return Path(name)


def write_failed(path: str | Path, exc: OSError) -> WriteError:
    """The one-line error for an output that failed while it was written."""
    return WriteError(f"cannot write {str(path)!r}: {exc.strerror or exc}")


def check_writable(path: str | Path) -> Path:
    """The output path, after checking its folder exists and it is not itself a folder."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    if len(os.fsencode(path.name)) > NAME_MAX:
        raise OutputError(
            f"output name {path.name[:40]!r}… is {len(os.fsencode(path.name)):,} bytes long, over "
            f"the limit of {NAME_MAX} for a file name; choose a shorter one"
        )
    if path.is_dir():
        raise OutputError(
            f"output {str(path)!r} is a folder; give a file name such as {str(path / 'out.wav')!r}"
        )
    if not parent.is_dir():
        raise OutputError(
            f"output folder {str(parent)!r} does not exist; create it first (mkdir -p {parent})"
        )
    if not os.access(parent, os.W_OK):
        raise OutputError(
            f"output folder {str(parent)!r} is not writable; choose another output path"
        )
    return path


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside `path`: on success it replaces `path`, else it is removed.

    A symbolic link is followed, so the file it points to is replaced and the link kept.
    """
    path = check_writable(os.path.realpath(path) if os.path.islink(path) else path)
    tmp_path = _make_temporary(path)
    try:
        yield tmp_path
        _set_mode(tmp_path, path)
        os.replace(tmp_path, path)
    except OSError as exc:
        tmp_path.unlink(missing_ok=True)
        if isinstance(exc, DrumscoreError):
            raise
        raise write_failed(path, exc) from None
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def _set_mode(tmp_path: Path, path: Path) -> None:
    """Give the new file the mode of the file it replaces, or the umask's default."""
    if path.exists():
        with contextlib.suppress(OSError):
            os.chmod(tmp_path, path.stat().st_mode & 0o777)
    else:
        os.chmod(tmp_path, 0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write `data` to `path` atomically."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def series_paths(path: str | Path, count: int) -> list[Path]:
    """The files of a series of `count` pages: `path` itself, then NAME-2.EXT, NAME-3.EXT…"""
    path = Path(path)
    return [path, *(path.with_name(f"{path.stem}-{n}{path.suffix}") for n in range(2, count + 1))]


def stale_pages(path: str | Path, count: int) -> list[Path]:
    """Pages of an earlier, longer series beside `path`: NAME-N.EXT for N beyond `count`.

    Only that exact naming counts (N a whole number without leading zeros, the same extension).
    """
    path = Path(path)
    folder = path.parent if str(path.parent) else Path(".")
    naming = re.compile(rf"{re.escape(path.stem)}-([1-9][0-9]*){re.escape(path.suffix)}")
    found: list[tuple[int, Path]] = []
    for entry in folder.iterdir():
        match = naming.fullmatch(entry.name)
        if match and int(match.group(1)) > count and entry.is_file():
            found.append((int(match.group(1)), entry))
    return [entry for _, entry in sorted(found)]


def write_series(path: str | Path, pages: Sequence[bytes]) -> list[Path]:
    """Write `pages` as one set: `path`, NAME-2.EXT… (see series_paths); return their paths.

    The pages are written to a temporary folder beside `path` and moved into place only when all
    are written, so a failure leaves the earlier files as they were. Then the pages of an earlier,
    longer series (stale_pages) are removed, so the folder holds exactly the new set.
    """
    path = check_writable(path)
    if not pages:
        raise OutputError(f"no pages to write to {str(path)!r}")
    targets = series_paths(path, len(pages))
    staging = _make_temporary(path, folder_too=True)
    try:
        staged = []
        for target, page in zip(targets, pages, strict=True):
            tmp = staging / target.name
            tmp.write_bytes(page)
            _set_mode(tmp, target)
            staged.append(tmp)
        for tmp, target in zip(staged, targets, strict=True):
            os.replace(tmp, target)
    except OSError as exc:
        raise write_failed(path, exc) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    for old in stale_pages(path, len(pages)):
        try:
            old.unlink(missing_ok=True)
        except OSError as exc:
            raise WriteError(
                f"wrote {len(pages)} page(s) to {str(path)!r} but cannot remove the earlier page "
                f"{str(old)!r}: {exc.strerror}; delete it by hand"
            ) from None
    return targets
