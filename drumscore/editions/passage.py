"""Reading a passage file: checked as an input file (a regular file under the size limit), then
decoded (UTF-8, GB18030 or Big5)."""

from __future__ import annotations

from pathlib import Path

from drumscore.editions.encoding import Decoded, decode
from drumscore.errors import InputMissingError, ScoreNotFoundError
from drumscore.files.reading import LIMITS, read_input

#: Passages are a page or a chapter (the longest real one is 16 KB, a whole 卷 well under 1 MB);
#: anything much larger is not a passage.
MAX_BYTES = LIMITS["passage"]


def read_passage(path: str | Path, encoding: str | None = None) -> Decoded:
    """The decoded text of a passage file and the encoding it was read in.

    A missing file is a ScoreNotFoundError; a folder, device, pipe or a file over MAX_BYTES an
    InputFileError; bytes that are no text an EncodingError. Nothing is printed.
    """
    name = str(path)
    try:
        data = read_input(name, "passage", MAX_BYTES)
    except InputMissingError as exc:
        raise ScoreNotFoundError(str(exc)) from None
    return decode(data, encoding, name=repr(name))
