"""--duration: parsing, and looping whole patterns up to the length."""

from __future__ import annotations

from fractions import Fraction

import pytest

from drumscore.corpus import resolve
from drumscore.duration import MAX_SECONDS, parse_duration
from drumscore.errors import OptionError
from drumscore.timeline import arrange
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
