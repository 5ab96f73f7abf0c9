"""--duration: parsing, and looping whole patterns up to the length."""

from __future__ import annotations

from fractions import Fraction

import pytest
from speaking import refused

from drumscore.conductor.duration import MAX_SECONDS, parse_duration
from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.timing import Tempo


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("90s", 90), ("20m", 1200), ("1h", 3600), ("1h30m", 5400), ("1.5h", 5400), ("45", 45),
     ("2m 30s", 150), ("12h", 43200)],
)  # fmt: skip
def test_parse(text, seconds):
    assert parse_duration(text) == seconds


def test_loops_whole_patterns_up_to_the_length():
    score = resolve("lu")
    tempo = Tempo.from_bpm(60)
    n = len(score.pattern)
    tl = arrange(score, tempo=tempo, duration=parse_duration("20m"))
    assert len(tl) % n == 0
    assert len(tl) * tempo.interval <= 1200 < (len(tl) + n) * tempo.interval


def test_a_duration_shorter_than_one_pattern_plays_it_once():
    tl = arrange(resolve("lu"), tempo=Tempo.from_bpm(60), duration=Fraction(1))
    assert tl.repeats == 1


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["0", "0s", "-5", "-1m", "1x", "", "h", "1h1h", "nan", "inf", "13h"]
)
def test_bad_durations(text):
    with pytest.raises(OptionError) as info:
        parse_duration(text)
    assert repr(text) in str(info.value)


def test_cap_is_documented_in_the_message():
    with pytest.raises(OptionError, match=str(MAX_SECONDS // 3600)):
        parse_duration("100h")


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "--duration「2x」不是時間長度；請用如 90s、20m、1h 或 1h30m 的長度"),
        ("zh_Hans", "--duration「2x」不是时间长度；请用如 90s、20m、1h 或 1h30m 的长度"),
        ("en", "--duration '2x' is not a length of time; use one such as 90s"),
    ],
)
def test_a_bad_duration_in_each_language(cli, monkeypatch, tmp_path, language, expected):
    argv = ("render", "lu", "--duration", "2x", "-o", tmp_path / "x.wav")
    assert refused(cli, monkeypatch, language, tmp_path, *argv).startswith(expected)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "zh_Hant",
            "輸出將長達 12 小時 30 分（2 個項目、預備拍與停頓皆計入），超過任何輸出 12 小時的上限",
        ),
        (
            "zh_Hans",
            "输出将长达 12 小时 30 分（2 个项目、预备拍与停顿均计入），超过任何输出 12 小时的上限",
        ),
        ("en", "the render would last 12 h 30 min (2 items, count-ins and pauses included)"),
    ],
)
def test_a_track_over_the_limit_says_what_it_counts_in_each_language(language, words):
    from drumscore import i18n
    from drumscore.conductor.track import Item, Track

    timeline = arrange(resolve("○"), tempo=Tempo.from_bpm(6), repeats=2200)  # 10 s a stroke
    item = Item(timeline, count_in=1, pause=Fraction(490))  # 22,000 s + 10 s + 490 s: 6 h 15 min
    with i18n.speaking(language), pytest.raises(OptionError) as err:
        Track((item, item))
    assert words in str(err.value)
