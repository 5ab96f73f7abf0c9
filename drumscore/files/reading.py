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
import stat
from collections.abc import Iterator
from pathlib import Path

from drumscore.errors import InputFileError, InputMissingError

MiB = 1024**2
#: The largest input file of each kind, in bytes (see README, "Limits").
LIMITS = {
    "edition file": 1 * MiB,
    "kit file": 1 * MiB,
    "notation file": 1 * MiB,
    "programme file": 1 * MiB,
    "passage": 4 * MiB,
    "kit sample": 256 * MiB,
    "SoundFont": 2048 * MiB,
    "performance": 2048 * MiB,
    "MIDI performance": 16 * MiB,
}

#: What to do about a file over the limit.
HINTS = {
    "passage": "cut out the pages with the drum figures",
    "kit sample": "trim it to the drum's stroke and its ring",
}


def _size(limit: int) -> str:
    return f"{limit // MiB} MiB" if limit % MiB == 0 else f"{limit:,} bytes"


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "not a regular file"


def _check(info: os.stat_result, path: str, what: str, limit: int) -> None:
    kind = _kind(info.st_mode)
    if kind is not None:
        raise InputFileError(f"{what} {path!r} is not a regular file ({kind})", path=path)
    if info.st_size > limit:
        raise _too_big(path, what, limit, f" ({info.st_size:,} bytes)")


def _too_big(path: str, what: str, limit: int, size: str = "") -> InputFileError:
    hint = HINTS.get(what)
    return InputFileError(
        f"{what} {path!r} is more than {_size(limit)}{size}, the limit for a {what}"
        + (f"; {hint}" if hint else ""),
        path=path,
        limit=limit,
    )


def _failed(exc: OSError, path: str, what: str) -> InputFileError:
    if isinstance(exc, FileNotFoundError):
        return InputMissingError(f"{what} {path!r} does not exist", path=path)
    if isinstance(exc, IsADirectoryError):
        return InputFileError(f"{what} {path!r} is not a regular file (a folder)", path=path)
    return InputFileError(f"{what} {path!r} cannot be read: {exc.strerror or exc}", path=path)


def _limit(what: str, limit: int | None) -> int:
    return LIMITS[what] if limit is None else limit


def check_input(path: str | Path, what: str, limit: int | None = None) -> Path:
    """`path` after checking (with stat, without opening it) that it is a regular file under the
    limit; for libraries that open the path themselves."""
    limit = _limit(what, limit)
    text = str(path)
    try:
        info = os.stat(text)
    except (OSError, ValueError) as exc:
        if isinstance(exc, ValueError):  # an embedded NUL character
            raise InputFileError(f"{what} {text!r} is not a usable file name", path=text) from None
        raise _failed(exc, text, what) from None
    _check(info, text, what, limit)
    return Path(path)


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
        raise InputFileError(f"{what} {text!r} is not a usable file name", path=text) from None
    except OSError as exc:
        raise _failed(exc, text, what) from None
    try:
        _check(os.fstat(fd), text, what, limit)
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
            f"{what} {str(path)!r} is not {encoding.removesuffix('-sig').upper()} text "
            f"(bad byte at offset {exc.start}); save it as UTF-8",
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

_NAMES = {str: "text", int: "a whole number", float: "a number", bool: "true or false"}


def parse_toml(text: str, where: str, error: type[Exception]) -> dict:
    """The parsed TOML `text` of the file `where`; malformed or too deeply nested TOML is an
    `error` naming the file."""
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{where}: not valid TOML: {exc}") from None
    except RecursionError:
        raise error(
            f"{where}: arrays or tables nested too deeply to read; no drumscore file nests "
            f"more than {MAX_DEPTH} levels"
        ) from None


class OneOf(tuple):
    """A schema: one of these texts."""


def _expected(schema: Schema) -> str:
    if isinstance(schema, OneOf):
        *most, last = schema
        return f"{', '.join(most)} or {last}" if most else last
    if isinstance(schema, tuple):
        return " or ".join(_expected(s) for s in schema)
    if isinstance(schema, list):
        return f"an array of {_expected(schema[0])}"
    if isinstance(schema, dict):
        return "a table"
    assert isinstance(schema, type)
    return _NAMES[schema]


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
    at = key or "the file"
    if depth > MAX_DEPTH:
        raise error(f"{where}: {at} is nested more than {MAX_DEPTH} levels deep")
    if schema is not None and not _fits(data, schema):
        expected = _expected(schema)
        if isinstance(schema, list) and isinstance(schema[0], dict):
            expected = f"written as [[{key}]] tables"
        raise error(f"{where}: {at} must be {expected}, not {_short(data)}")
    if isinstance(schema, tuple) and not isinstance(schema, OneOf):
        schema = next(s for s in schema if _fits(data, s))
    if isinstance(data, str) and len(data) > MAX_STRING:
        raise error(f"{where}: {at} is {len(data):,} characters long; at most {MAX_STRING:,}")
    if isinstance(data, list):
        if len(data) > MAX_ITEMS:
            raise error(f"{where}: {at} has {len(data):,} items; at most {MAX_ITEMS:,}")
        inner = schema[0] if isinstance(schema, list) else None
        for i, item in enumerate(data, 1):
            if isinstance(inner, dict) and not isinstance(item, dict):
                raise error(
                    f"{where}: {key}[{i}] must be written as [[{key}]] tables, not {_short(item)}"
                )
            check_schema(item, inner, where, error, f"{key}[{i}]", depth + 1)
    elif isinstance(data, dict):
        if len(data) > MAX_ITEMS:
            raise error(f"{where}: {at} has {len(data):,} keys; at most {MAX_ITEMS:,}")
        fields = schema if isinstance(schema, dict) else {}
        for name, value in data.items():
            check_schema(
                value, fields.get(name), where, error, f"{key}.{name}" if key else name, depth + 1
            )
