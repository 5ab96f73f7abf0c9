"""Decoding a passage: UTF-8, or the legacy encodings GB18030 and Big5, told apart by content."""

from __future__ import annotations

import codecs
from dataclasses import dataclass

from drumscore.errors import EncodingError
from drumscore.i18n import _

#: Tried in this order when no encoding is given; UTF-8 wins whenever the bytes are valid UTF-8.
CANDIDATES = ("utf-8", "gb18030", "big5")
#: Characters a drum-score passage is full of; the right decoding of legacy bytes yields many.
MARKERS = frozenset("○□半鼓鼔魯鲁薛辥鼙圜方擊击為为之也者曰禮礼投壺壶射節节")
#: Share of control characters above which the data is taken for a binary file.
MAX_CONTROL_SHARE = 0.01
#: Codecs between bytes and text that are not encodings of a document: refused as unknown.
NOT_DOCUMENT_ENCODINGS = frozenset(
    {"punycode", "idna", "undefined", "unicode-escape", "raw-unicode-escape"}
)
#: U+FEFF at the start of a text is a byte order mark, whatever the encoding: never text.
BOM = "\ufeff"


@dataclass(frozen=True, slots=True)
class Decoded:
    """A passage's text and the encoding it was read in."""

    text: str
    encoding: str


def decode(data: bytes, encoding: str | None = None, *, name: str = "") -> Decoded:
    """The text of `data`: in `encoding` if given, else UTF-8, GB18030 or Big5, whichever fits.
    `name` says what the data is in messages (by default "the passage")."""
    name = name or _("the passage")
    if encoding:
        unknown = EncodingError(
            _("unknown text encoding {encoding!r}; use e.g. utf-8, gb18030 or big5").format(
                encoding=encoding[:40]
            )
        )
        try:
            info = codecs.lookup(encoding)
        except LookupError:
            raise unknown from None
        # rot13, base64, zlib…: codecs, but not between bytes and text; punycode, idna,
        # unicode_escape…: text codecs, but of names and escapes, not of a document
        if (
            len(encoding) > 40
            or not getattr(info, "_is_text_encoding", True)
            or info.name in NOT_DOCUMENT_ENCODINGS
        ):
            raise unknown
        codec = info.name
        try:
            text = data.decode(codec)
        except LookupError:
            raise unknown from None
        except (UnicodeError, ValueError) as exc:
            if not isinstance(exc, UnicodeDecodeError):
                raise EncodingError(
                    _("{name} is not valid {codec}; check the encoding").format(
                        name=name, codec=codec
                    )
                ) from None
            raise EncodingError(
                _(
                    "{name} is not valid {codec} (bad byte at offset {offset}); check the "
                    "encoding, or leave it out to detect it"
                ).format(name=name, codec=codec, offset=exc.start)
            ) from None
        return Decoded(_check_text(text, name), codec)
    if b"\x00" in data[:8192]:
        raise EncodingError(
            _("{name} is a binary file (it holds NUL bytes), not a text passage").format(name=name)
        )
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    decodings: list[tuple[int, int, str, str]] = []
    for codec in CANDIDATES:
        try:
            text = data.decode(codec)
        except UnicodeDecodeError:
            continue
        if codec == "utf-8":
            return Decoded(_check_text(text, name), codec)
        decodings.append((sum(ch in MARKERS for ch in text), -len(decodings), codec, text))
    if not decodings:
        raise EncodingError(
            _("{name} is neither UTF-8, GB18030 nor Big5 text; give its encoding").format(
                name=name
            ),
            option="encoding",
        )
    *_rest, codec, text = max(decodings)
    return Decoded(_check_text(text, name), codec)


def _check_text(text: str, name: str) -> str:
    """The text without a leading byte order mark, once it is known not to be binary data."""
    text = text.removeprefix(BOM)
    control = sum(1 for ch in text if ord(ch) < 32 and ch not in "\t\n\r\f")
    if text and control / len(text) > MAX_CONTROL_SHARE:
        raise EncodingError(
            _("{name} looks like a binary file, not a text passage").format(name=name)
        )
    return text
