import pytest
from sourcefiles import SOURCES

from drumscore import i18n
from drumscore.editions.encoding import decode
from drumscore.editions.extract import extract
from drumscore.errors import EncodingError

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


@pytest.mark.parametrize("codec", ["utf-8", "utf-8-sig", "gb18030", "utf-16"])
def test_byte_order_mark_is_dropped_with_any_encoding(codec):
    text = (SOURCES / ZHUSHU).read_text(encoding="utf-8").replace("¶", "")
    data = ("\ufeff" + text).encode(codec)
    for given in (codec, None) if codec in ("utf-8", "gb18030") else (codec,):
        decoded = decode(data, given)
        assert decoded.text == text
        assert extract(decoded.text).provenance.kanripo == "KR1d0053"


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


@pytest.mark.parametrize("name", ["rot13", "rot-13", "base64", "hex", "zlib", "bz2"])
def test_codecs_that_are_not_text_encodings(name):
    with pytest.raises(EncodingError) as info:
        decode(b"abc", name)
    assert str(info.value) == f"unknown text encoding {name!r}; use e.g. utf-8, gb18030 or big5"


def test_wrong_explicit_encoding():
    with pytest.raises(EncodingError, match="not valid"):
        decode("魯鼓○□".encode("gb18030") + b"\xff\xff", "utf-8")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "這段原文 是二進位檔案（含有 NUL 位元組），不是純文字的原文"),
        ("zh_Hans", "这段原文 是二进制文件（含有 NUL 字节），不是纯文本的原文"),
    ],
)
def test_binary_is_refused_in_chinese(language, expected):
    with i18n.speaking(language), pytest.raises(EncodingError) as info:
        decode(b"\x00\x01\x02 not text")
    assert str(info.value) == expected
