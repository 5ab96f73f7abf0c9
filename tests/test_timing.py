"""Tempo and stroke times: exact, even, and never accumulated."""

from fractions import Fraction

import numpy as np
import pytest
from speaking import refused

from drumscore import Tempo, TempoError
from drumscore.timing import DEFAULT_BPM, whole_text


def test_bpm_and_interval_agree():
    assert Tempo.from_bpm(120).interval == Fraction(1, 2)
    assert Tempo.from_interval("0.75").bpm == 80
    assert Tempo.from_options().bpm == DEFAULT_BPM


def test_decimal_strings_stay_exact():
    assert Tempo.from_bpm("37.3").interval == Fraction(600, 373)


def test_onset_is_rounded_from_k_never_accumulated():
    tempo = Tempo.from_bpm("37.3")
    rate = 44100
    for k in (1, 7, 1000, 5659):
        exact = Fraction(k) * 60 / Fraction("37.3") * rate
        assert tempo.onset_sample(k, rate) == int(exact + Fraction(1, 2))


def test_intervals_between_strokes_differ_by_at_most_one_sample():
    tempo = Tempo.from_bpm("37.3")
    gaps = np.diff([tempo.onset_sample(k, 44100) for k in range(10_000)])
    assert gaps.max() - gaps.min() <= 1


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize("bpm", ["0", "-60", "nan", "inf", "-inf", "1e400", "abc", "", "1/0", 1e9])
def test_bad_bpm_is_a_tempo_error(bpm):
    with pytest.raises(TempoError) as err:
        Tempo.from_bpm(bpm)
    assert repr(bpm) in str(err.value)


@pytest.mark.parametrize("seconds", ["0", "-1", "nan", "100", "0.001"])
def test_bad_interval_is_a_tempo_error(seconds):
    with pytest.raises(TempoError, match=r"^interval") as info:
        Tempo.from_interval(seconds)
    assert info.value.option == "interval"


def test_bpm_and_interval_together_is_an_error():
    with pytest.raises(TempoError, match="not both"):
        Tempo.from_options(bpm="60", interval="1")


def test_float_nan_is_refused():
    with pytest.raises(TempoError):
        Tempo.from_bpm(float("nan"))


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "value", "expected"),
    [
        ("zh_Hant", "fast", "--bpm 須為正數，例如 60 或 96.5，不能是「fast」"),
        ("zh_Hans", "fast", "--bpm 须为正数，例如 60 或 96.5，不能是「fast」"),
        ("en", "fast", "--bpm must be a positive number such as 60 or 96.5, not 'fast'"),
        ("zh_Hant", "5000", "--bpm「5000」超出範圍（每分鐘 6～1200 擊；預設為 60）"),
        ("zh_Hans", "5000", "--bpm「5000」超出范围（每分钟 6～1200 击；默认为 60）"),
        ("en", "5000", "--bpm '5000' is out of range; use 6 to 1200 strokes per minute"),
    ],
)
def test_a_bad_bpm_names_the_flag_first_in_every_language(
    cli, monkeypatch, tmp_path, language, value, expected
):
    """The translation keeps the parameter's name first, so the command line puts --bpm there."""
    argv = ("render", "lu", "--bpm", value, "-o", tmp_path / "x.wav")
    assert refused(cli, monkeypatch, language, tmp_path, *argv).startswith(expected)


def test_a_bad_bpm_in_chinese_from_the_library_names_the_parameter(monkeypatch):
    from drumscore import i18n

    with i18n.speaking("zh-Hant"), pytest.raises(TempoError) as err:
        Tempo.from_bpm("1e9999")
    assert err.value.option == "bpm"
    assert str(err.value).startswith("bpm「1e9999」超出範圍")


@pytest.mark.parametrize(
    ("text", "signed", "expected"),
    [
        ("12", False, 12),
        (" 4 ", False, 4),
        (7, False, 7),
        ("-3", True, -3),
        ("+3", True, 3),
        ("-3", False, None),
        ("+3", False, None),
        ("²", False, None),
        ("٣", False, None),
        ("３", False, None),
        ("1.0", False, None),
        ("", False, None),
        (True, False, None),
        ("9" * 12, False, 999_999_999_999),
        ("9" * 13, False, None),
        (None, False, None),
    ],
)
def test_a_whole_number_is_ascii_digits_only(text, signed, expected):
    assert whole_text(text, signed=signed) == expected
