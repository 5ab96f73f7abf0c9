"""Files at the edge: atomic writes that never leave a partial file or clobber a good one.

A file is written under a temporary name beside it, .NAME.drumscore-PID-XXXXXXXX.part (PID the
writer's process id; NAME shortened so the whole stays within the file-name limit), and renamed
when complete. The rename keeps the rule the command claimed for the output at its start
(files.reading.claim_output): an output claimed new is renamed only where nothing is, so a file,
link or folder that appears there meanwhile is never written over (put_in_place); and only a
regular file is ever replaced. A writer killed outright (SIGKILL, a crash) cannot remove its
temporary file, so every write first removes the temporary files in its folder whose process is
gone (remove_stale), and tells the function given to on_stale_removed.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from drumscore.errors import DrumscoreError, OutputError, WriteError
from drumscore.files.signals import held
from drumscore.i18n import _, ngettext

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


def make_temporary(path: Path, folder_too: bool = False) -> Path:
    """A new temporary file (or folder) beside `path`, named for it (see temporary_prefix),
    once the stale ones of writers that are gone are removed from that folder."""
    folder = path.parent if str(path.parent) else Path(".")
    remove_stale(folder)
    prefix = temporary_prefix(path)
    try:
        if folder_too:
            return Path(tempfile.mkdtemp(prefix=prefix, suffix=_SUFFIX, dir=folder))
        fd, name = tempfile.mkstemp(prefix=prefix, suffix=_SUFFIX, dir=folder)
    except OSError as exc:
        raise WriteError(
            _("cannot write in {path!r}: {reason}").format(path=str(folder), reason=exc.strerror)
        ) from None
    os.close(fd)
    return Path(name)


def write_failed(path: str | Path, exc: OSError) -> WriteError:
    """The one-line error for an output that failed while it was written."""
    return WriteError(
        _("cannot write {path!r}: {reason}").format(path=str(path), reason=exc.strerror or exc)
    )


def check_writable(path: str | Path) -> Path:
    """The output path, after checking its folder exists and it is not itself a folder."""
    if not str(path):
        raise OutputError(_("the output name is empty; give a file name such as 'out.wav'"))
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    for part in path.parts:
        if len(os.fsencode(part)) > NAME_MAX:
            size = len(os.fsencode(part))
            if part == path.name:
                message = _(
                    "output name {name!r}… is {size:,} bytes long, over the limit of {limit} for "
                    "a file name; choose a shorter one"
                )
            else:
                message = _(
                    "in output {path!r}…, the folder {name!r}… is {size:,} bytes long, over the "
                    "limit of {limit} for a file name; choose a shorter one"
                )
            raise OutputError(
                message.format(path=str(path)[:40], name=part[:40], size=size, limit=NAME_MAX)
            )
    if path.is_dir():
        raise OutputError(
            _("output {path!r} is a folder; give a file name such as {example!r}").format(
                path=str(path), example=str(path / f"out{path.suffix or '.wav'}")
            )
        )
    check_replaceable(path)
    if os.path.lexists(parent) and not parent.is_dir():
        raise OutputError(
            _("in output {output!r}, {path!r} is not a folder; choose another output path").format(
                output=str(path), path=str(parent)
            )
        )
    if not parent.is_dir():
        raise OutputError(
            _("output folder {path!r} does not exist; create it first (mkdir -p {folder})").format(
                path=str(parent), folder=parent
            )
        )
    if not os.access(parent, os.W_OK):
        raise OutputError(
            _("output folder {path!r} is not writable; choose another output path").format(
                path=str(parent)
            )
        )
    return path


def check_replaceable(path: str | Path, *, follow_links: bool = True) -> None:
    """Refuse an output whose place holds anything but a regular file (a device, a pipe, a
    socket): a write replaces regular files only. A link is judged by what it leads to (a link
    itself too, with `follow_links` false); nothing there passes."""
    from drumscore.files.reading import kind_of

    try:
        info = os.stat(path) if follow_links else os.lstat(path)
    except (OSError, ValueError):
        return
    if stat.S_ISLNK(info.st_mode):
        return
    kind = kind_of(info.st_mode)
    if kind is not None:
        raise OutputError(
            _(
                "output {path!r} is {kind}, not a regular file: only a regular file is written "
                "over; choose another output path"
            ).format(path=str(path), kind=kind)
        )


def appeared(path: str | Path) -> OutputError:
    """The error for an output claimed new that something took the place of meanwhile."""
    return OutputError(
        _(
            "{path!r} appeared while drumscore ran and is left as it is, nothing written over "
            "it; choose another name, or run again to decide about it"
        ).format(path=str(path))
    )


def _renameat2() -> Callable[..., int] | None:
    """The system's renameat2 (Linux), or None."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (AttributeError, OSError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function  # type: ignore[no-any-return]


_AT_FDCWD = -100
_RENAME_NOREPLACE = 1


def rename_new(source: str | Path, target: str | Path) -> None:
    """Rename `source` (a file or a folder) to `target` only where nothing is: FileExistsError
    if a file, link or folder is there, at the moment of the rename (renameat2's NOREPLACE;
    where the system lacks it, a hard link for a file, an empty folder made for a folder)."""
    import ctypes

    function = _renameat2()
    if function is not None:
        done = function(
            _AT_FDCWD, os.fsencode(source), _AT_FDCWD, os.fsencode(target), _RENAME_NOREPLACE
        )
        if done == 0:
            return
        code = ctypes.get_errno()
        if code not in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
            raise OSError(code, os.strerror(code), str(target))
    if os.path.isdir(source) and not os.path.islink(source):
        os.mkdir(target)  # the place taken; then only an empty folder of ours is replaced
        os.rename(source, target)
        return
    try:
        os.link(source, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: the place is checked, then taken
        if os.path.lexists(target):
            raise FileExistsError(errno.EEXIST, os.strerror(errno.EEXIST), str(target)) from None
        os.rename(source, target)
        return
    os.unlink(source)


def put_in_place(
    tmp: str | Path,
    path: str | Path,
    *,
    follow_links: bool = True,
    claimed: str | Path | None = None,
) -> None:
    """Rename the finished `tmp` to `path` under the rule claimed for `path` (or for `claimed`,
    the first page of a series): claimed new, only where nothing is (an OutputError if something
    appeared); otherwise over a regular file only (check_replaceable), at the moment of the
    rename."""
    from drumscore.files.reading import output_claim

    if output_claim(path if claimed is None else claimed) is False:
        try:
            rename_new(tmp, path)
        except FileExistsError:
            raise appeared(path) from None
        return
    check_replaceable(path, follow_links=follow_links)
    os.replace(tmp, path)


def check_not_inputs(outputs: Iterable[str | Path]) -> None:
    """Refuse, before anything is written, an output that is one of the command's inputs (the
    same file, by device and inode, as files.reading noted them): writing it would lose it."""
    from drumscore.files.reading import inputs

    read = inputs()
    if not read:
        return
    for output in outputs:
        try:
            info = os.stat(output)
        except (OSError, ValueError):
            continue
        source = read.get((info.st_dev, info.st_ino))
        if source is not None:
            raise OutputError(
                _(
                    "output {path!r} is the input {source!r}: writing it would lose the input; "
                    "choose another output name"
                ).format(path=str(output), source=source)
            )


def check_not_inside(folder: str | Path) -> None:
    """Refuse a folder to be replaced that holds one of the command's inputs."""
    from drumscore.files.reading import inputs

    root = os.path.realpath(folder)
    for source in inputs().values():
        real = os.path.realpath(source)
        if real == root or real.startswith(root.rstrip(os.sep) + os.sep):
            raise OutputError(
                _(
                    "output folder {path!r} holds the input {source!r}, and writing the folder "
                    "would replace it; choose another folder or move the input out"
                ).format(path=str(folder), source=source)
            )


@contextlib.contextmanager
def atomic_path(path: str | Path, *, follow_links: bool = True) -> Iterator[Path]:
    """Yield a temporary path beside `path`: on success it replaces `path`, else it is removed.

    A symbolic link is followed, so the file it points to is replaced and the link kept; with
    `follow_links` false the link itself is replaced (a folder of drumscore's own, where a link
    planted by another must not lead the write elsewhere).
    """
    from drumscore.files.reading import output_claim

    check_not_inputs([path])
    given = path
    if output_claim(given) is False and os.path.lexists(given):
        # claimed new at the start (nothing there then): a file, link or folder there now
        # appeared meanwhile (play --record listens for minutes between), and is not followed
        raise appeared(given)
    followed = follow_links and os.path.islink(path)
    path = check_writable(os.path.realpath(path) if followed else path)
    tmp_path: Path | None = None
    try:
        with held():  # a signal now is raised once the name is known, so it is removed
            tmp_path = make_temporary(path)
        yield tmp_path
        _set_mode(tmp_path, path)
        if followed:  # the link's own place was claimed; the file it leads to is replaced
            check_replaceable(path)
            os.replace(tmp_path, path)
        else:
            put_in_place(tmp_path, given, follow_links=follow_links)
    except OSError as exc:
        remove_temporary(tmp_path)
        if isinstance(exc, DrumscoreError):
            raise
        raise write_failed(path, exc) from None
    except BaseException:
        remove_temporary(tmp_path)
        raise


def remove_temporary(tmp: Path | None, folder: bool = False) -> None:
    """Remove a temporary file (or folder), whatever signal comes meanwhile (files.signals)."""
    if tmp is None:
        return
    with held():
        if folder:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            with contextlib.suppress(OSError):
                tmp.unlink(missing_ok=True)


def _set_mode(tmp_path: Path, path: Path) -> None:
    """Give the new file the mode of the file it replaces, or the umask's default."""
    if path.exists() and not path.is_symlink():
        with contextlib.suppress(OSError):
            os.chmod(tmp_path, path.stat().st_mode & 0o777)
    else:
        os.chmod(tmp_path, 0o666 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_bytes(path: str | Path, data: bytes, *, follow_links: bool = True) -> None:
    """Write `data` to `path` atomically (see atomic_path)."""
    with atomic_path(path, follow_links=follow_links) as tmp:
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
    check_not_inputs(series_paths(path, len(pages)))
    given = path
    path = check_writable(path)
    if not pages:
        raise OutputError(_("no pages to write to {path!r}").format(path=str(path)))
    targets = series_paths(path, len(pages))
    staging: Path | None = None
    try:
        with held():
            staging = make_temporary(path, folder_too=True)
        staged = []
        for target, page in zip(targets, pages, strict=True):
            tmp = staging / target.name
            tmp.write_bytes(page)
            _set_mode(tmp, target)
            staged.append(tmp)
        for tmp, target in zip(staged, targets, strict=True):
            put_in_place(tmp, target, claimed=given)
    except OSError as exc:
        if isinstance(exc, DrumscoreError):
            raise
        raise write_failed(path, exc) from None
    finally:
        remove_temporary(staging, folder=True)
    for old in stale_pages(path, len(pages)):
        try:
            old.unlink(missing_ok=True)
        except OSError as exc:
            raise WriteError(
                ngettext(
                    "wrote {n} page to {path!r} but cannot remove the earlier page {old!r}: "
                    "{reason}; delete it by hand",
                    "wrote {n} pages to {path!r} but cannot remove the earlier page {old!r}: "
                    "{reason}; delete it by hand",
                    len(pages),
                ).format(n=len(pages), path=str(path), old=str(old), reason=exc.strerror)
            ) from None
    return targets
