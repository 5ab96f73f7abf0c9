"""Names and arguments in any encoding: the bytes that were not text under the locale come back
as UTF-8 where they are, as \\xNN escapes where they are not, so any file or stream holds them."""

from __future__ import annotations

import os

import pytest

from drumscore.files.reading import as_text


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"caf\xe9.txt", "caf\\xe9.txt"),  # Latin-1 under UTF-8
        ("鼓.txt".encode(), "鼓.txt"),  # UTF-8, each byte escaped under the C locale
        ("鼓.txt".encode("gb2312"), "\\xb9\\xc4.txt"),  # GB2312 under UTF-8
        ("plain 魯鼓".encode(), "plain 魯鼓"),
    ],
)
def test_undecodable_bytes_come_back_as_utf_8_or_escapes(raw, text):
    as_given = raw.decode("ascii", "surrogateescape")  # as Python holds it under any locale
    assert as_text(as_given) == text
    assert as_text(as_given).encode("utf-8")  # it can be written anywhere
    assert as_text(os.fsdecode(raw)).encode("utf-8")
