"""Audio rendering: strokes land on their samples, and the two drums can be told apart by ear."""

import numpy as np
import pytest
from audio_analysis import features, onsets, two_groups

from drumscore import Tempo, parse
from drumscore.corpus import resolve
from drumscore.kit import Kit, Voice, builtin_kit
from drumscore.mix import PEAK_DBFS, mix_range, normalise, plan, render_audio
from drumscore.model import Drum, Score
from drumscore.timeline import arrange

LU1 = "○□○○□□○□○○□○□○□○○○□□○□○"


def click_kit(rate=44100) -> Kit:
    """One-sample impulses: 鼙 +0.5, 鼓 -1.0, so each onset can be read off exactly."""

    def impulse(value):
        x = np.zeros((4, 2), dtype=np.float32)
        x[0] = value
        return x

    return Kit("click", rate, {Drum.PI: Voice((impulse(0.5),)), Drum.GU: Voice((impulse(-1.0),))})


def heard(audio, rate):
    times = onsets(audio, rate)
    labels = two_groups(features(audio, rate, times))
    return times, "".join("□" if g else "○" for g in labels)


def test_whole_lu_at_120_has_23_even_strokes_in_order():
    audio = render_audio(arrange(resolve("lu"), "she", Tempo.from_bpm(120)))
    times, order = heard(audio, 44100)
    assert len(times) == 23
    assert times == pytest.approx([0.5 * k for k in range(23)], abs=0.001)
    assert order == LU1


def test_touhu_section_is_the_twelve_after_half():
    audio = render_audio(arrange(resolve("lu"), "touhu", Tempo.from_bpm(120)))
    times, order = heard(audio, 44100)
    assert order == LU1[11:]
    assert times == pytest.approx([0.5 * k for k in range(12)], abs=0.001)


def test_second_xue_heard_in_order_at_a_fast_tempo():
    score = resolve("xue/2")
    audio = render_audio(arrange(score, "she", Tempo.from_bpm(200)))
    times, order = heard(audio, 44100)
    assert order == "".join(s.drum.symbol for s in score.pattern.strokes)
    assert np.diff(times) == pytest.approx(0.3, abs=0.001)


@pytest.mark.parametrize(("bpm", "rate"), [("37.3", 44100), ("96", 48000), ("240", 44100)])
def test_every_stroke_starts_on_its_exact_sample(bpm, rate):
    tempo = Tempo.from_bpm(bpm)
    timeline = arrange(Score(parse("○□○○□半□○")), "she", tempo, repeats=5)
    p = plan(timeline, click_kit(rate), rate)
    audio = mix_range(p, 0, p.length)
    hits = np.flatnonzero(audio[:, 0] != 0)
    assert list(hits) == [tempo.onset_sample(k, rate) for k in range(35)]
    signs = "".join("□" if audio[h, 0] < 0 else "○" for h in hits)
    assert signs == "○□○○□□○" * 5


def test_the_last_stroke_rings_out_in_full():
    kit = builtin_kit()
    timeline = arrange(Score(parse("○□")), "she", Tempo.from_bpm(60))
    audio = render_audio(timeline, kit)
    assert len(audio) == 44100 + len(kit.voice(Drum.GU).samples[0])


def test_render_is_peak_normalised_without_clipping():
    audio = render_audio(arrange(resolve("xue"), "she", Tempo.from_bpm(600)))
    assert audio.dtype == np.float32 and audio.shape[1] == 2
    assert np.abs(audio).max() == pytest.approx(10 ** (PEAK_DBFS / 20), rel=1e-4)


def test_mixing_in_blocks_equals_mixing_at_once():
    p = plan(arrange(resolve("lu"), "she", Tempo.from_bpm(300)))
    whole = mix_range(p, 0, p.length)
    starts = range(0, p.length, 4096)
    blocks = np.concatenate([mix_range(p, a, min(a + 4096, p.length)) for a in starts])
    np.testing.assert_array_equal(whole, blocks)


def test_a_kit_is_resampled_to_the_output_rate():
    kit = builtin_kit()
    at48 = kit.at_rate(48000)
    original = len(kit.voice(Drum.GU).samples[0])
    assert len(at48.voice(Drum.GU).samples[0]) == pytest.approx(original * 48000 / 44100, abs=2)
    audio = render_audio(arrange(Score(parse("○□○")), "she", Tempo.from_bpm(120)), rate=48000)
    times, order = heard(audio, 48000)
    assert order == "○□○" and times == pytest.approx([0, 0.5, 1.0], abs=0.001)


def test_normalise_leaves_silence_alone():
    silence = np.zeros((10, 2), dtype=np.float32)
    np.testing.assert_array_equal(normalise(silence), silence)
