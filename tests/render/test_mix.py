"""Mixing: strokes heard in order, exact onsets with every kit, streams equal to whole renders."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import soundfile as sf
from audio_checks import features, level_onsets, strokes, two_groups

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.files.audio import stream_audio
from drumscore.model import Drum, Score
from drumscore.notation import parse
from drumscore.render.kit import builtin_kit, load_kit
from drumscore.render.mix import PEAK_DBFS, blocks, mix_range, normalise, peak, plan, render_audio
from drumscore.timing import Tempo

PI_CLICK, GU_CLICK = 0.5, 1.0
LU1 = "○□○○□□○□○○□○□○□○○○□□○□○"


def click_kit(folder, rate: int):
    """A kit whose samples are one-sample impulses: 鼙 at half the height of 鼓."""
    sf.write(str(folder / "pi.wav"), np.array([[PI_CLICK]], np.float32), rate, subtype="FLOAT")
    sf.write(str(folder / "gu.wav"), np.array([[GU_CLICK]], np.float32), rate, subtype="FLOAT")
    (folder / "kit.toml").write_text(
        'name = "click"\n[pi]\nsamples = ["pi.wav"]\n[gu]\nsamples = ["gu.wav"]\n'
    )
    return load_kit(folder / "kit.toml")


def expected_onset(k: int, bpm: str, rate: int) -> int:
    """round(k × 60/bpm × rate), halves up, in exact arithmetic."""
    x = Fraction(k) * 60 / Fraction(bpm) * rate
    return int(x + Fraction(1, 2)) if x.denominator != 1 else int(x)


def clicks(audio: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the clicks are, and their heights (left channel)."""
    where = np.flatnonzero(audio[:, 0])
    return where, audio[where, 0]


@pytest.mark.parametrize("rate", [44100, 48000])
@pytest.mark.parametrize("bpm", ["37.3", "96", "240"])
def test_each_stroke_starts_on_its_sample(tmp_path, rate, bpm):
    kit = click_kit(tmp_path, rate)
    timeline = arrange(resolve("lu"), tempo=Tempo.from_bpm(bpm), repeats=3)
    out = tmp_path / "out.wav"
    p = plan(timeline, kit, rate)
    stream_audio(out, blocks(p, block_frames=10007), rate, p.length, "FLOAT")
    audio, file_rate = sf.read(str(out), dtype="float32", always_2d=True)
    assert file_rate == rate
    where, heights = clicks(audio)
    events = list(Track.single(timeline).hits(44100))
    assert where.tolist() == [expected_onset(e.k, bpm, rate) for e in events]
    gu = np.float32(10 ** (-1 / 20))
    for event, height in zip(events, heights, strict=True):
        want = gu if event.drum is Drum.GU else gu * np.float32(PI_CLICK / GU_CLICK)
        assert height == pytest.approx(want, rel=1e-6)


def test_one_hour_render_keeps_the_last_stroke_on_its_sample(tmp_path):
    rate, bpm = 44100, "37.3"
    kit = click_kit(tmp_path, rate)
    timeline = arrange(resolve("lu"), tempo=Tempo.from_bpm(bpm), duration=Fraction(3600))
    p = plan(timeline, kit, rate)
    assert 3500 < p.length / rate <= 3600
    found = []
    start = 0
    for block in blocks(p):
        found.extend((start + np.flatnonzero(block[:, 0])).tolist())
        start += len(block)
    assert start == p.length
    assert found == [expected_onset(k, bpm, rate) for k in range(len(timeline))]
    assert found[-1] == expected_onset(len(timeline) - 1, bpm, rate)


@pytest.mark.parametrize("bpm", ["37.3", "60", "200"])
def test_streamed_blocks_equal_the_whole_render(bpm):
    timeline = arrange(resolve("xue"), tempo=Tempo.from_bpm(bpm), repeats=4)
    whole = render_audio(timeline)
    streamed = np.concatenate([b.copy() for b in blocks(plan(timeline), block_frames=7919)])
    assert np.array_equal(whole, streamed)
    assert np.max(np.abs(whole)) == pytest.approx(10 ** (-1 / 20), rel=1e-6)


def test_peak_found_in_advance_is_the_peak_of_the_mix():
    from drumscore.conductor.expression import Expression

    for ex in (None, Expression(humanize_ms=20, seed=5), Expression(30, 127)):
        timeline = arrange(resolve("lu"), tempo=Tempo.from_bpm("150"), repeats=5, expression=ex)
        p = plan(timeline)
        assert peak(p) == float(np.max(np.abs(mix_range(p, 0, p.length))))


def test_mix_range_pieces_join_up():
    p = plan(arrange(resolve("lu"), tempo=Tempo.from_bpm("300")))
    whole = mix_range(p, 0, p.length)
    cut = p.length // 3 + 17
    assert np.array_equal(
        np.concatenate([mix_range(p, 0, cut), mix_range(p, cut, p.length)]), whole
    )


def test_normalise_silence_is_left_alone():
    silent = np.zeros((10, 2), np.float32)
    assert np.array_equal(normalise(silent), silent)


# --- bad input -------------------------------------------------------------------------------


def test_failed_stream_leaves_no_file_and_keeps_the_old_one(tmp_path):
    out = tmp_path / "keep.wav"
    sf.write(str(out), np.full((100, 2), 0.25, np.float32), 44100)
    before = out.read_bytes()

    def broken():
        yield np.zeros((100, 2), np.float32)
        raise RuntimeError("disk on fire")

    with pytest.raises(RuntimeError):
        stream_audio(out, broken(), 44100, 200)
    assert out.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.wav"]


# --- heard: the built-in kit, analysed like a listener would ---------------------------------


def heard(audio, rate):
    """Onset frames and drums of the built-in kit's strokes, found by matching its samples."""
    found = strokes(audio, rate)
    return [frame for frame, _ in found], "".join(drum.symbol for _, drum in found)


def test_the_two_drums_are_told_apart_by_sound_alone(tmp_path):
    """Nothing of the kit is known: onsets are found in the rendered file by level alone, and
    the strokes are sorted into two groups by their sound (2-means on level and brightness).
    The groups follow the ○/□ order and the strokes are evenly spaced."""
    out = tmp_path / "lu.wav"
    p = plan(arrange(resolve("lu"), "she", Tempo.from_bpm(120)))
    stream_audio(out, blocks(p), 44100, p.length)
    audio, rate = sf.read(str(out), dtype="float32", always_2d=True)
    assert rate == 44100
    times = level_onsets(audio, rate)
    labels = two_groups(features(audio, rate, times))
    assert len(times) == 23
    assert times == pytest.approx([0.5 * k for k in range(23)], abs=0.001)
    assert "".join("□" if g else "○" for g in labels) == LU1


def test_whole_lu_at_120_has_23_even_strokes_in_order():
    audio = render_audio(arrange(resolve("lu"), "she", Tempo.from_bpm(120)))
    frames, order = heard(audio, 44100)
    assert frames == [expected_onset(k, "120", 44100) for k in range(23)]
    assert order == LU1


def test_touhu_section_is_the_twelve_after_half():
    audio = render_audio(arrange(resolve("lu"), "touhu", Tempo.from_bpm(120)))
    frames, order = heard(audio, 44100)
    assert order == LU1[11:]
    assert frames == [expected_onset(k, "120", 44100) for k in range(12)]


def test_second_xue_heard_in_order_at_a_fast_tempo():
    score = resolve("xue/2")
    audio = render_audio(arrange(score, "she", Tempo.from_bpm(200)))
    frames, order = heard(audio, 44100)
    assert order == "".join(s.drum.symbol for s in score.pattern.strokes)
    assert frames == [expected_onset(k, "200", 44100) for k in range(len(frames))]


def test_the_last_stroke_rings_out_in_full():
    kit = builtin_kit()
    timeline = arrange(Score(parse("○□")), "she", Tempo.from_bpm(60))
    audio = render_audio(timeline, kit)
    assert len(audio) == 44100 + len(kit.voice(Drum.GU).samples[0])


def test_render_is_peak_normalised_without_clipping():
    audio = render_audio(arrange(resolve("xue"), "she", Tempo.from_bpm(600)))
    assert audio.dtype == np.float32 and audio.shape[1] == 2
    assert np.abs(audio).max() == pytest.approx(10 ** (PEAK_DBFS / 20), rel=1e-4)


def test_a_kit_is_resampled_to_the_output_rate():
    kit = builtin_kit()
    at48 = kit.at_rate(48000)
    original = len(kit.voice(Drum.GU).samples[0])
    assert len(at48.voice(Drum.GU).samples[0]) == pytest.approx(original * 48000 / 44100, abs=2)
    audio = render_audio(arrange(Score(parse("○□○")), "she", Tempo.from_bpm(120)), rate=48000)
    frames, order = heard(audio, 48000)
    assert order == "○□○" and frames == [0, 24000, 48000]
