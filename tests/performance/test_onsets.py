"""The onset envelope and the attacks read around its peaks (performance.onsets): the shortcuts a
live listener takes, every few milliseconds, give what check's own reading gives."""

from __future__ import annotations

import numpy as np
import pytest

from drumscore.performance.onsets import (
    ENVELOPE_RATE,
    HOP,
    MERGE_SECONDS,
    Envelope,
    _local_tops,
    _window_max,
    pick_peaks,
)


@pytest.mark.parametrize("rate", [44100, 48000, 22050, 11025, 8000])
def test_a_stretch_of_sound_in_one_pass_has_the_flux_fed_then_finished(rate):
    """Envelope.flux_of (a probe's envelope, its frames in one pass) is, to the bit, the flux
    of an envelope fed the same samples and finished, as check reads a take."""
    rng = np.random.default_rng(rate)
    for length in (1, 300, 1000, 6615, 7001, 30000):
        sound = (rng.standard_normal(length) * rng.uniform(1e-4, 0.5)).astype(np.float32)
        sound[length // 3 :] += np.float32(0.3) * np.sin(np.arange(length - length // 3) / 7.0)
        fed = Envelope(rate)
        for at in range(0, length, 777):
            fed.feed(sound[at : at + 777])
        whole = Envelope(rate)
        whole.feed(sound)
        expected = fed.finish()[0]
        assert np.array_equal(whole.finish()[0], expected)  # however it was fed
        flux = Envelope.flux_of(rate, sound)
        assert flux.dtype == expected.dtype and np.array_equal(flux, expected)


@pytest.mark.parametrize("rate", [44100, 48000, 11025])
def test_a_listeners_kept_resampler_gives_each_look_the_flux_of_a_fresh_one(rate):
    """A live listener keeps one resampler for the looks it takes every few milliseconds:
    each look's flux is, to the bit, the flux of a fresh envelope's."""
    rng = np.random.default_rng(rate + 1)
    kept = Envelope.resampler_for(rate)
    for length in (6615, 300, 7001, 1, 6615, 30000, 6615):
        sound = (rng.standard_normal(length) * rng.uniform(1e-4, 0.5)).astype(np.float32)
        fresh = Envelope.flux_of(rate, sound)
        assert np.array_equal(Envelope.flux_of(rate, sound, kept), fresh)


def test_a_peak_is_the_largest_flux_within_half_the_merge_either_side():
    """_local_tops (pick_peaks' peaks, found by shifted maxima) marks the frames whose flux is
    the largest of the frames within MERGE_SECONDS / 2 either side, as read one by one."""
    reach = round(MERGE_SECONDS / 2 * ENVELOPE_RATE / HOP)
    rng = np.random.default_rng(5)
    for _ in range(300):
        n = int(rng.integers(1, 60))
        flux = np.round(rng.random(n) * 4, 1).astype(np.float32)  # ties too
        expected = [flux[k] >= flux[max(0, k - reach) : k + reach + 1].max() for k in range(n)]
        assert _local_tops(flux).tolist() == expected


def test_the_peaks_are_picked_by_the_90th_percentile_of_their_heights_one_or_many():
    """pick_peaks' typical stroke height is the 90th percentile of the flux at its peaks, taken
    without numpy's percentile where there is one peak (a live look often holds one)."""
    rng = np.random.default_rng(9)
    ones = 0
    for _ in range(400):
        n = int(rng.integers(3, 40))
        flux = (rng.random(n) * rng.choice([1e-3, 1.0, 40.0])).astype(np.float32)
        flux[rng.random(n) < rng.random()] = 0.0
        tops = flux[_local_tops(flux) & (flux > 0)]
        if len(tops) == 0:
            continue
        ones += len(tops) == 1
        height = float(np.percentile(tops, 90))
        assert np.array_equal(pick_peaks(flux), pick_peaks(flux, height))
    assert ones > 20


def test_the_largest_flux_of_each_span_is_found_for_all_at_once():
    rng = np.random.default_rng(3)
    for _ in range(500):
        n = int(rng.integers(1, 80))
        flux = (rng.random(n) * rng.choice([1e-3, 1.0, 40.0])).astype(np.float32)
        flux[rng.random(n) < 0.3] = 0.0
        m = int(rng.integers(1, 60))
        f0 = rng.integers(0, n + 1, m)
        f1 = np.clip(f0 + rng.integers(-3, 7, m), 0, n)
        got = _window_max(flux, f0, f1)
        assert got.dtype == flux.dtype
        for a, b, value in zip(f0, f1, got, strict=True):
            assert value == (flux[a:b].max() if b > a else 0.0)


# --- bad input ---------------------------------------------------------------------------------


def test_no_spans_and_empty_spans_are_nothing_and_zero():
    flux = np.array([1.0, 3.0, 2.0], dtype=np.float32)
    assert _window_max(flux, np.zeros(0, np.int64), np.zeros(0, np.int64)).shape == (0,)
    spans = _window_max(flux, np.array([0, 2, 3]), np.array([0, 1, 3]))  # each one empty
    assert np.array_equal(spans, [0.0, 0.0, 0.0])


def test_no_sound_at_all_has_the_flux_of_silence_either_way():
    empty = np.zeros(0, np.float32)
    fed = Envelope(44100)
    fed.feed(empty)
    assert np.array_equal(Envelope.flux_of(44100, empty), fed.finish()[0])
