"""Tempo and stroke times: exact, even, and never accumulated."""

from fractions import Fraction

import numpy as np
import pytest

from drumscore import Tempo, TempoError
from drumscore.timing import DEFAULT_BPM


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


def test_vectorised_onsets_equal_the_scalar_ones():
    for bpm, rate in (("37.3", 44100), ("96", 48000), ("240", 44100), ("61.7", 22050)):
        tempo = Tempo.from_bpm(bpm)
        vector = tempo.onset_samples(0, 3000, rate)
        assert vector.dtype == np.int64
        assert list(vector) == [tempo.onset_sample(k, rate) for k in range(3000)]


def test_intervals_between_strokes_differ_by_at_most_one_sample():
    gaps = np.diff(Tempo.from_bpm("37.3").onset_samples(0, 10_000, 44100))
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
