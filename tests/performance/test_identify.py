"""Which score a take plays: the other scores, figures and sections of its edition tried, and
the one it fits clearly better named."""

import numpy as np
import real_drums
from performances import take, write_midi

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.model import READINGS, Reading, Section
from drumscore.performance import identify
from drumscore.performance.check import check
from drumscore.performance.heard import read_performance
from drumscore.performance.listen import read_audio


def drums(name, section="she"):
    return [s.drum for s in resolve(name).pattern.section(section)]


def test_a_take_of_another_figure_names_it_with_both_counts_of_faults(tmp_path):
    played = drums("xue/2", "touhu")
    times = real_drums.even(played, 88)
    y = real_drums.placed(times, played, real_drums.membranes())
    heard = read_audio(real_drums.write(tmp_path / "take.wav", y))
    given = arrange(resolve("xue"), "touhu")
    result = check(heard, given)
    fit = identify.better_fit(heard, result)
    assert fit is not None
    assert fit.timeline.score.key == "xue/2@zhushu" and fit.timeline.section is Section.TOUHU
    assert fit.faults == 0 and fit.against == identify.faults(result) >= 2
    text = identify.fit_text(fit, given)
    assert text.startswith("this take fits xue/2@zhushu 投壺 without a fault, against ")
    assert text.endswith(" for xue/1@zhushu 投壺")


def test_a_take_of_the_score_checked_names_no_other(tmp_path):
    t = take(drums("lu"), 80, spread_ms=20, missed=[6])
    heard = read_performance(write_midi(tmp_path / "take.mid", t))
    result = check(heard, arrange(resolve("lu")))
    assert identify.faults(result) == 1
    assert identify.better_fit(heard, result) is None


def test_a_section_played_alone_is_named_when_checked_as_another_score(tmp_path):
    t = take(drums("lu/2", "touhu"), 70, spread_ms=10)
    heard = read_performance(write_midi(tmp_path / "take.mid", t))
    result = check(heard, arrange(resolve("xue/2"), "touhu"))
    fit = identify.better_fit(heard, result)
    assert fit is not None and fit.faults == 0
    assert [s.drum for s in fit.timeline.strokes] == drums("lu/2", "touhu")


def test_a_take_made_with_a_count_in_and_clicks_is_tried_against_others_made_alike(tmp_path):
    """Checked with the options it was made with (a count-in, two clicks a stroke), a take of lu
    checked against xue names lu: each other reading is tried as a take made with the same
    options, its count strokes and clicks left out, not taken for strokes."""
    from drumscore.conductor.track import Practice, Track
    from drumscore.render.midi import midi_bytes

    def made(timeline):
        return Track.single(timeline, count_in=2, practice=Practice(click=2))

    path = tmp_path / "take.mid"
    path.write_bytes(midi_bytes(made(arrange(resolve("lu")))))
    heard = read_performance(path)
    given = made(arrange(resolve("xue")))
    result = check(heard, given)
    fit = identify.better_fit(heard, result, given)
    assert fit is not None
    assert fit.timeline.score.key == "lu/1@zhushu" and fit.timeline.section is Section.SHE
    assert fit.faults == 0 and fit.against == identify.faults(result) >= 2
    assert not fit.result.extra and not fit.result.missing  # no count sound taken for a stroke


def test_the_readings_tried_are_each_strokes_once_and_never_the_one_checked():
    given = arrange(resolve("lu"), "touhu", repeats=2)
    tried = identify.candidates(given)
    seen = [tuple(s.drum for s in t.strokes) for t in tried]
    assert len(seen) == len(set(seen)) and tuple(drums("lu", "touhu")) not in seen
    assert all(t.repeats == 2 for t in tried)
    assert np.all([len(t.strokes) > 0 for t in tried])


def test_a_take_under_the_other_reading_of_the_signs_names_that_reading(tmp_path):
    """The same score and section read as 毛奇齡 reads the signs: named by the readings, not
    as the same score and section twice."""
    mao = Reading.parse("mao")
    played = [s.drum for s in arrange(resolve("lu"), reading=mao).strokes]
    t = take(played, 80, spread_ms=10)
    heard = read_performance(write_midi(tmp_path / "take.mid", t))
    given = arrange(resolve("lu"))
    result = check(heard, given)
    fit = identify.better_fit(heard, result)
    assert fit is not None and fit.faults == 0 and fit.timeline.reading is mao
    assert fit.timeline.score == given.score and fit.timeline.section is given.section
    said = str(identify.wrong_score(fit, given))
    assert said.startswith(f"this take fits lu/1@zhushu 射 ({mao.name}) without a fault, against ")
    assert f"for lu/1@zhushu 射 ({READINGS[0].name}); " in said
    assert said.endswith("check it with that reading of the signs")


def test_other_scores_are_tried_under_the_reading_the_take_was_checked_by():
    mao = Reading.parse("mao")
    tried = identify.candidates(arrange(resolve("lu"), reading=mao))
    assert [t.reading for t in tried].count(READINGS[0]) == 1  # the same score, 鄭玄's reading
    assert all(t.reading is mao for t in tried if t.score != resolve("lu"))
