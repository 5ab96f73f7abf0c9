import pytest
from sourcefiles import SOURCES

from drumscore.encoding import decode
from drumscore.errors import EncodingError
from drumscore.extract import extract

ZHUSHU = "KR1d0053_058_禮記注疏.txt"


@pytest.mark.parametrize("codec", ["gb18030", "big5"])
def test_legacy_encodings_are_detected(codec):
    # Big5 has no ¶; a legacy-encoded passage is plain text anyway.
    text = (SOURCES / ZHUSHU).read_text(encoding="utf-8").replace("¶", "")
    decoded = decode(text.encode(codec))
    assert decoded.encoding == codec
    assert decoded.text == text
    utf8 = extract(text)
    legacy = extract(decoded.text)
    assert [f.score.printed for f in legacy.scores] == [f.score.printed for f in utf8.scores]


def test_utf8_with_bom():
    assert decode("\ufeff○□".encode()).text == "○□"


def test_explicit_encoding():
    decoded = decode("魯鼓○□".encode("big5"), "big5")
    assert (decoded.text, decoded.encoding) == ("魯鼓○□", "big5")


# --- bad input ---


def test_binary_is_refused():
    with pytest.raises(EncodingError, match="binary"):
        decode(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")


def test_unknown_encoding_named():
    with pytest.raises(EncodingError, match="'klingon'"):
        decode(b"abc", "klingon")


def test_wrong_explicit_encoding():
    with pytest.raises(EncodingError, match="not valid"):
        decode("魯鼓○□".encode("gb18030") + b"\xff\xff", "utf-8")
