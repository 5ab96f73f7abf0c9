"""Files at the edge, read side: every input path is checked before it is read.

A FIFO, a device or a folder is refused at once, without waiting on it (it is opened with
O_NONBLOCK, or only stat'ed when a library opens the path itself), and so is a file over its
kind's size limit (LIMITS). The error names the file and the limit. Every reader of an input path
(edition, passage, kit and notation files, kit samples, SoundFonts) goes through here.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

from drumscore.errors import InputFileError, InputMissingError
from drumscore.i18n import N_, _, list_text, ngettext

MiB = 1024**2
#: The largest input file of each kind, in bytes (see README, "Limits"). The kinds are English
#: words, marked for the catalogs: a message shows a kind in the reader's language.
LIMITS = {
    N_("edition file"): 1 * MiB,
    N_("kit file"): 1 * MiB,
    N_("notation file"): 1 * MiB,
    N_("programme file"): 1 * MiB,
    N_("passage"): 4 * MiB,
    N_("kit sample"): 256 * MiB,
    N_("SoundFont"): 2048 * MiB,
    N_("performance"): 2048 * MiB,
    N_("MIDI performance"): 16 * MiB,
}

#: What to do about a file over the limit.
HINTS = {
    "passage": N_("cut out the pages with the drum figures"),
    "kit sample": N_("trim it to the drum's stroke and its ring"),
}


# --- the files of one command: its inputs, never written over, and the outputs it claimed ----

#: Every input read while watch_inputs() is active: (device, inode) -> the path as given.
_inputs: dict[tuple[int, int], str] | None = None
#: Every output claimed while watch_inputs() is active: its absolute path -> whether what is
#: there may be written over (--force), as the command decided at its start.
_claims: dict[str, bool] | None = None


@contextlib.contextmanager
def watch_inputs() -> Iterator[None]:
    """Note every input file read inside the block (see inputs) and every output claimed (see
    claim_output), for the output checks of files.atomic; outside such a block nothing is noted."""
    global _inputs, _claims
    previous, _inputs = _inputs, {}
    previous_claims, _claims = _claims, {}
    try:
        yield
    finally:
        _inputs, _claims = previous, previous_claims


def claim_output(path: str | Path, replace: bool) -> None:
    """Note the rule the command decided for the output `path` at its start: `replace` false, it
    was not there and nothing that appears there meanwhile may be written over (files.atomic
    renames into place only where nothing is); true, a regular file there may be replaced."""
    if _claims is not None:
        _claims[os.path.abspath(path)] = replace


def output_claim(path: str | Path) -> bool | None:
    """The rule claimed for the output `path` (claim_output), None where none was claimed."""
    if _claims is None:
        return None
    return _claims.get(os.path.abspath(path))


def _note(info: os.stat_result, path: str) -> None:
    if _inputs is not None:
        _inputs.setdefault((info.st_dev, info.st_ino), path)


def note_input(path: str | Path) -> None:
    """Note `path` as an input, as reading it would (for data read once and cached)."""
    if _inputs is not None:
        with contextlib.suppress(OSError, ValueError):
            _note(os.stat(path), str(path))


def inputs() -> dict[tuple[int, int], str]:
    """The inputs read so far inside watch_inputs(), by (device, inode): the paths as given."""
    return dict(_inputs or {})


def release(path: str | Path) -> None:
    """Drop `path` from the inputs: a file the command means to replace (an edition file
    written again over itself), which it read only to keep what it holds."""
    if _inputs is None:
        return
    with contextlib.suppress(OSError, ValueError):
        info = os.stat(path)
        _inputs.pop((info.st_dev, info.st_ino), None)


#: A run of the code points that stand for bytes undecodable in the file system's encoding.
_UNDECODED = re.compile("[\udc80-\udcff]+")


def as_text(text: str | Path) -> str:
    """A file name or argument as text that any file or stream can hold: the bytes that were not
    text in the file system's encoding (a Latin-1 name under UTF-8, a UTF-8 one under the C
    locale) read as UTF-8, and any byte that still is not shown as a \\xNN escape."""
    return _UNDECODED.sub(
        lambda run: bytes(ord(c) - 0xDC00 for c in run.group()).decode("utf-8", "backslashreplace"),
        os.fspath(text),
    )


def _size(limit: int) -> str:
    if limit % MiB == 0:
        return _("{n} MiB").format(n=limit // MiB)
    return ngettext("{n:,} byte", "{n:,} bytes", limit).format(n=limit)


def kind_of(mode: int) -> str | None:
    """What a non-regular file is, in words (the reader's language); None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return _("a folder")
    if stat.S_ISFIFO(mode):
        return _("a pipe (FIFO)")
    if stat.S_ISSOCK(mode):
        return _("a socket")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return _("a device")
    return _("not a regular file")


def _not_regular(what: str, path: str, kind: str) -> InputFileError:
    return InputFileError(
        _("{what} {path!r} is not a regular file ({kind})").format(
            what=_(what), path=path, kind=kind
        ),
        path=path,
    )


def _check(info: os.stat_result, path: str, what: str, limit: int) -> None:
    kind = kind_of(info.st_mode)
    if kind is not None:
        raise _not_regular(what, path, kind)
    if info.st_size > limit:
        raise _too_big(path, what, limit, info.st_size)


def _too_big(path: str, what: str, limit: int, size: int | None = None) -> InputFileError:
    hint = HINTS.get(what)
    if size is None:
        message = _("{what} {path!r} is more than {limit}, the limit for a {what}")
    else:
        message = _("{what} {path!r} is more than {limit} ({size:,} bytes), the limit for a {what}")
    message = message.format(what=_(what), path=path, limit=_size(limit), size=size)
    if hint:
        message = _("{message}; {hint}").format(message=message, hint=_(hint))
    return InputFileError(message, path=path, limit=limit)


def _failed(exc: OSError, path: str, what: str) -> InputFileError:
    if isinstance(exc, FileNotFoundError):
        return InputMissingError(
            _("{what} {path!r} does not exist").format(what=_(what), path=path), path=path
        )
    if isinstance(exc, IsADirectoryError):
        return _not_regular(what, path, _("a folder"))
    return InputFileError(
        _("{what} {path!r} cannot be read: {reason}").format(
            what=_(what), path=path, reason=exc.strerror or exc
        ),
        path=path,
    )


def _unusable_name(what: str, path: str) -> InputFileError:
    return InputFileError(
        _("{what} {path!r} is not a usable file name").format(what=_(what), path=path), path=path
    )


def _limit(what: str, limit: int | None) -> int:
    return LIMITS[what] if limit is None else limit


@contextlib.contextmanager
def open_input(
    path: str | Path, what: str, limit: int | None = None
) -> Iterator[io.BufferedReader]:
    """The file open for reading in binary, once it is known to be a regular file under the limit.

    It is opened with O_NONBLOCK, so a FIFO cannot make the open wait, then checked with fstat.
    """
    limit = _limit(what, limit)
    text = str(path)
    try:
        fd = os.open(text, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except ValueError:
        raise _unusable_name(what, text) from None
    except OSError as exc:
        raise _failed(exc, text, what) from None
    try:
        info = os.fstat(fd)
        _check(info, text, what, limit)
        _note(info, text)
        os.set_blocking(fd, True)
        file = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with file:
        yield file


def read_input(path: str | Path, what: str, limit: int | None = None) -> bytes:
    """The bytes of an input file (see open_input); a file that grew past the limit is refused."""
    limit = _limit(what, limit)
    with open_input(path, what, limit) as file:
        try:
            data = file.read(limit + 1)
        except OSError as exc:
            raise _failed(exc, str(path), what) from None
    if len(data) > limit:
        raise _too_big(str(path), what, limit)
    return data


def read_input_text(
    path: str | Path, what: str, limit: int | None = None, encoding: str = "utf-8-sig"
) -> str:
    """The text of an input file (see read_input); bytes that are not `encoding` are an error."""
    data = read_input(path, what, limit)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputFileError(
            _(
                "{what} {path!r} is not {encoding} text (bad byte at offset {offset}); save it as "
                "UTF-8"
            ).format(
                what=_(what),
                path=str(path),
                encoding=encoding.removesuffix("-sig").upper(),
                offset=exc.start,
            ),
            path=str(path),
        ) from None


# --- TOML: parsed with a bound on nesting, checked against a schema ---------------------------

#: The deepest nesting of arrays and tables any drumscore file needs is 4; past this, a value is
#: refused rather than walked (and tomllib's own recursion is caught).
MAX_DEPTH = 8
#: The longest text value and the most items of an array in any input file.
MAX_STRING = 100_000
MAX_ITEMS = 10_000

#: A schema: a type (str, int, float, bool), [schema] for an array of such values, {key: schema}
#: for a table (keys not named are allowed, within MAX_DEPTH and the sizes), or a tuple of
#: schemas of which the value may be any, or OneOf(texts) for the texts it may be. `float`
#: takes an int too; `int` never a bool.
Schema = object

_NAMES = {
    str: N_("text"),
    int: N_("a whole number"),
    float: N_("a number"),
    bool: N_("true or false"),
}


def parse_toml(text: str, where: str, error: type[Exception]) -> dict:
    """The parsed TOML `text` of the file `where`; malformed or too deeply nested TOML is an
    `error` naming the file."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(_("{where}: not valid TOML: {error}").format(where=where, error=exc)) from None
    except RecursionError:
        raise error(
            _(
                "{where}: arrays or tables nested too deeply to read; no drumscore file nests "
                "more than {limit} levels"
            ).format(where=where, limit=MAX_DEPTH)
        ) from None


class OneOf(tuple):
    """A schema: one of these texts."""


def _expected(schema: Schema) -> str:
    if isinstance(schema, OneOf):
        *most, last = schema
        if not most:
            return str(last)
        return _("{most} or {last}").format(most=list_text(most), last=last)
    if isinstance(schema, tuple):
        return _(" or ").join(_expected(s) for s in schema)
    if isinstance(schema, list):
        return _("an array of {kind}").format(kind=_expected(schema[0]))
    if isinstance(schema, dict):
        return _("a table")
    assert isinstance(schema, type)
    return _(_NAMES[schema])


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + "…"


def _fits(value: object, schema: Schema) -> bool:
    """Whether `value` has the shape of `schema` at its top level."""
    if isinstance(schema, OneOf):
        return isinstance(value, str) and value in schema
    if isinstance(schema, tuple):
        return any(_fits(value, s) for s in schema)
    if isinstance(schema, list):
        return isinstance(value, list)
    if isinstance(schema, dict):
        return isinstance(value, dict)
    if schema is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if schema is int:
        return isinstance(value, int) and not isinstance(value, bool)
    assert isinstance(schema, type)
    return isinstance(value, schema)


def check_schema(
    data: object, schema: Schema, where: str, error: type[Exception], key: str = "", depth: int = 0
) -> None:
    """Check parsed TOML against `schema`: types, lengths and depth. The `error` names the file
    (`where`), the key (such as score[2].printed) and what was expected."""
    at = key or _("the file")
    if depth > MAX_DEPTH:
        raise error(
            _("{where}: {key} is nested more than {limit} levels deep").format(
                where=where, key=at, limit=MAX_DEPTH
            )
        )
    if schema is not None and not _fits(data, schema):
        expected = _expected(schema)
        if isinstance(schema, list) and isinstance(schema[0], dict):
            expected = _("written as [[{name}]] tables").format(name=key)
        raise error(
            _("{where}: {key} must be {expected}, not {value}").format(
                where=where, key=at, expected=expected, value=_short(data)
            )
        )
    if isinstance(schema, tuple) and not isinstance(schema, OneOf):
        schema = next(s for s in schema if _fits(data, s))
    if isinstance(data, str) and len(data) > MAX_STRING:
        raise error(
            _("{where}: {key} is {length:,} characters long; at most {limit:,}").format(
                where=where, key=at, length=len(data), limit=MAX_STRING
            )
        )
    if isinstance(data, list):
        if len(data) > MAX_ITEMS:
            raise error(
                _("{where}: {key} has {count:,} items; at most {limit:,}").format(
                    where=where, key=at, count=len(data), limit=MAX_ITEMS
                )
            )
        inner = schema[0] if isinstance(schema, list) else None
        for i, item in enumerate(data, 1):
            if isinstance(inner, dict) and not isinstance(item, dict):
                raise error(
                    _("{where}: {key} must be {expected}, not {value}").format(
                        where=where,
                        key=f"{key}[{i}]",
                        expected=_("written as [[{name}]] tables").format(name=key),
                        value=_short(item),
                    )
                )
            check_schema(item, inner, where, error, f"{key}[{i}]", depth + 1)
    elif isinstance(data, dict):
        if len(data) > MAX_ITEMS:
            raise error(
                _("{where}: {key} has {count:,} keys; at most {limit:,}").format(
                    where=where, key=at, count=len(data), limit=MAX_ITEMS
                )
            )
        fields = schema if isinstance(schema, dict) else {}
        for name, value in data.items():
            check_schema(
                value, fields.get(name), where, error, f"{key}.{name}" if key else name, depth + 1
            )
