"""The check itself, on strokes given directly: the beat walk, the alignment and the fit."""

import numpy as np
import pytest

from drumscore import i18n
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Practice, Track
from drumscore.corpus import resolve
from drumscore.errors import PerformanceError
from drumscore.model import Drum
from drumscore.performance.check import Expected, Grid, Sound, align_on_beats, check, walk
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.timing import Tempo

LU = resolve("lu")
DRUMS = [s.drum for s in LU.pattern.strokes]
OTHER = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}


def performance(times, drums, swappable=False):
    strokes = tuple(HeardStroke(float(t), d) for t, d in zip(times, drums, strict=True))
    return Performance("take.mid", "midi", strokes, float(times[-1]) + 1, "test", swappable)


def even(interval=0.8, start=2.0, drums=DRUMS):
    return [start + k * interval for k in range(len(drums))], list(drums)


def test_an_even_performance_has_no_offsets_and_its_own_tempo():
    times, drums = even(0.8)
    result = check(performance(times, drums), arrange(LU))
    assert result.tempo_bpm == pytest.approx(75.0)
    assert result.start == pytest.approx(2.0)
    assert max(abs(s.offset_ms) for s in result.strokes) < 1e-6
    assert result.missing == () and result.extra == () and result.wrong == ()
    assert result.drift_bpm == pytest.approx(0.0, abs=1e-6)


def test_the_first_stroke_missed_does_not_shift_the_rest():
    times, drums = even()
    result = check(performance(times[1:], drums[1:]), arrange(LU))
    assert [s.index for s in result.missing] == [1]
    assert result.wrong == () and result.extra == ()
    assert result.start == pytest.approx(2.0)


def test_the_part_after_half_played_alone_is_found_in_the_whole():
    times, drums = even()
    half = LU.pattern.half
    result = check(performance(times[half:], drums[half:]), arrange(LU))
    assert [s.index for s in result.missing] == list(range(1, half + 1))
    assert result.wrong == () and result.extra == ()
    assert max(abs(s.offset_ms) for s in result.matched) < 1e-6


def test_two_missed_strokes_in_a_row_and_an_early_end():
    times, drums = even()
    keep = [k for k in range(len(times)) if k not in (7, 8) and k < 20]
    result = check(performance([times[k] for k in keep], [drums[k] for k in keep]), arrange(LU))
    assert [s.index for s in result.missing] == [8, 9, 21, 22, 23]
    assert result.extra == () and result.wrong == ()


def test_an_extra_stroke_before_the_first_and_one_between_beats():
    times, drums = even(1.0)
    times = [times[0] - 1.0, *times[:10], times[9] + 0.5, *times[10:]]
    drums = [Drum.GU, *drums[:10], Drum.PI, *drums[10:]]
    result = check(performance(times, drums), arrange(LU))
    assert [(e.after, e.drum) for e in result.extra] == [(0, Drum.GU), (10, Drum.PI)]
    assert result.missing == () and result.wrong == ()
    assert result.tempo_bpm == pytest.approx(60.0)


def test_a_stroke_on_the_other_drum_is_wrong_not_missed():
    times, drums = even()
    drums[4] = OTHER[drums[4]]
    result = check(performance(times, drums), arrange(LU))
    assert [s.index for s in result.wrong] == [5]
    assert result.missing == () and result.extra == ()


def test_a_split_whose_names_are_the_wrong_way_round_is_swapped_to_fit_the_score():
    times, drums = even()
    result = check(performance(times, [OTHER[d] for d in drums], swappable=True), arrange(LU))
    assert result.swapped and result.wrong == ()
    # names that are not a guess are never swapped
    fixed = check(performance(times, [OTHER[d] for d in drums]), arrange(LU))
    assert not fixed.swapped and fixed.wrong


def beats_walked(times, pace=None, n=300):
    """The walk's beat of each heard time against strokes one a second (the first on beat 0),
    started at `pace` seconds a beat, or else from the first gaps."""
    take = Expected.of_track(Track.single(arrange(resolve("○" * n), tempo=Tempo.from_bpm(60))))
    grid = Grid.of(take)
    scale = pace if pace is not None else float(np.median(np.diff(times[:9])))
    return grid.to_beats(walk(np.asarray(times), 0.0, scale, take.sounds, grid))


def test_the_walk_keeps_count_through_a_steady_acceleration():
    bpm = np.linspace(50, 80, 300)
    times = np.concatenate([[0.0], np.cumsum(60 / bpm[:-1])])
    positions = beats_walked(times)
    assert np.array_equal(np.rint(positions), np.arange(300))
    assert np.max(np.abs(positions - np.arange(300))) < 0.1


def test_repeats_are_checked_pass_after_pass():
    times, drums = even(0.5, drums=DRUMS * 3)
    result = check(performance(times, drums), arrange(LU, repeats=3))
    assert len(result.strokes) == 69 and result.missing == ()
    assert result.tempo_bpm == pytest.approx(120.0)


def test_the_alignment_leaves_a_stroke_half_a_beat_off_as_extra():
    sounds = [Sound(0.0, 0.0, drum=Drum.PI, index=1), Sound(1.0, 1.0, drum=Drum.PI, index=2)]
    cost, pairs = align_on_beats(np.array([0.0, 0.5, 1.0]), [Drum.PI] * 3, sounds)
    assert pairs == [(0, 0), (1, None), (2, 1)]
    assert cost == pytest.approx(0.5)


# --- bad input --------------------------------------------------------------------------------


def test_a_single_stroke_cannot_give_a_beat():
    with pytest.raises(PerformanceError, match="at least 2 strokes"):
        check(performance([1.0], [Drum.PI]), arrange(LU))


def test_a_performance_far_longer_than_the_score_is_refused():
    times, drums = even(drums=DRUMS * 2)
    with pytest.raises(PerformanceError, match="46 strokes") as info:
        check(performance(times, drums), arrange(LU))
    assert info.value.option == "repeats"


def test_a_performance_of_another_pattern_is_refused_when_nothing_fits():
    with pytest.raises(PerformanceError, match="fit the strokes"):
        check(performance([0.0, 1.0], [Drum.PI] * 2), arrange(resolve("□")))


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "只有 1 擊；要求出均勻的節拍，至少須有 2 擊"),
        ("zh_Hans", "只有 1 击；要求出均匀的节拍，至少需要 2 击"),
    ],
)
def test_a_single_stroke_is_refused_in_chinese(language, expected):
    with i18n.speaking(language), pytest.raises(PerformanceError) as info:
        check(performance([1.0], [Drum.PI]), arrange(resolve("lu")))
    assert expected in str(info.value)


def left_to_player(drum, rate=1000):
    """The take of lu played along a live play that sounds only `drum`: the strokes on the
    other drum are the performer's, laid out by the conductor as the player plays them."""
    track = Track.single(arrange(LU), practice=Practice(only=drum))
    return Expected.of_hits(
        track.hits(rate), rate, track.first, played=lambda hit: hit.drum is not drum
    )


def test_beats_left_to_the_player_are_neither_checked_nor_missed():
    """The 鼓 part played alone against the whole score, 鼙 sounded by the player: with the
    known pace every □ stroke finds its own beat, and no ○ stroke is reported at all."""
    times, drums = even(0.8)
    gu = [k for k, d in enumerate(drums) if d is Drum.GU]
    played = performance([times[k] + (0.01 if k % 2 else -0.01) for k in gu], [Drum.GU] * len(gu))
    result = check(played, left_to_player(Drum.PI), pace=0.8)
    assert [s.index - 1 for s in result.strokes] == gu
    assert result.missing == () and result.extra == () and result.wrong == ()
    assert result.tempo_bpm == pytest.approx(75.0, rel=0.01)
    heard = [s.time for s in played.strokes]
    slope, start = np.polyfit(gu, heard, 1)
    for k, s in zip(gu, result.strokes, strict=True):
        assert s.offset_ms == pytest.approx((s.time - start - slope * k) * 1000, abs=1e-6)
        assert abs(s.offset_ms) > 5  # the ±10 ms are found, not fitted away


def test_a_stroke_missed_on_the_performers_drum_is_still_missed_with_beats_left_out():
    times, drums = even(0.8)
    gu = [k for k, d in enumerate(drums) if d is Drum.GU]
    kept = gu[:2] + gu[3:]
    result = check(
        performance([times[k] for k in kept], [Drum.GU] * len(kept)),
        left_to_player(Drum.PI),
        pace=0.8,
    )
    assert [s.index - 1 for s in result.missing] == [gu[2]]


def test_a_given_pace_places_strokes_a_beat_apart_even_when_the_first_gaps_are_two():
    times = np.asarray([0.0, 1.0, 2.0, 2.5, 3.0])
    assert list(beats_walked(times, pace=0.5)) == pytest.approx([0, 2, 4, 5, 6])
    assert beats_walked(times)[1] != pytest.approx(2)  # the first gaps taken for beats


def test_two_quick_extras_among_the_first_strokes_do_not_shift_the_count():
    # two strokes 0.35 and 0.45 of a gap after strokes 3 and 4: half the first gaps are split
    # ones, so their median is no beat; the walk starts from the scale that fits the most
    times, drums = even(0.81, start=0.9)
    times = [*times[:3], times[2] + 0.35 * 0.81, times[3], times[3] + 0.45 * 0.81, *times[4:]]
    drums = [*drums[:3], Drum.PI, drums[3], Drum.PI, *drums[4:]]
    result = check(performance(times, drums), arrange(LU))
    assert [e.after for e in result.extra] == [3, 4]
    assert [e.time for e in result.extra] == pytest.approx([times[3], times[5]])
    assert result.missing == () and result.wrong == ()
    assert result.tempo_bpm == pytest.approx(60 / 0.81)


def test_a_recorded_take_with_two_quick_extras_early_keeps_every_stroke_on_its_beat(tmp_path):
    from drumscore.performance.heard import read_performance
    from tests.performances import take, write_audio

    t = take(DRUMS, 74.0, spread_ms=15.0, extra=[(2.35, Drum.PI), (3.45, Drum.PI)], seed=7)
    heard = read_performance(write_audio(tmp_path / "quick.wav", t))
    result = check(heard, arrange(LU))
    assert [e.after for e in result.extra] == [3, 4]
    assert result.missing == () and result.wrong == ()
    played = [t.time(k) + t.offsets[k] for k in range(len(DRUMS))]
    assert [s.time for s in result.strokes] == pytest.approx(played, abs=0.002)
