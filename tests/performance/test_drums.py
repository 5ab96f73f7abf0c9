"""Each stroke's drum told by its sound: here, by each drum's sound as the strokes of the score
have it (by_score), where two groups of the strokes' sound do not tell the drums."""

import numpy as np
import real_drums

from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.model import Drum
from drumscore.performance.check import check
from drumscore.performance.drums import by_groups, by_score
from drumscore.performance.listen import read_audio

TOUHU_TWICE = [s.drum for s in resolve("lu").pattern.section("touhu")] * 2
OTHER = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}


def colours(drums, seed=3, apart=6.0):
    """Colours of 40 bands whose strokes differ most in a loud spread along band 0 that is
    the same for both drums, and the drums only `apart` dB along band 1."""
    rng = np.random.default_rng(seed)
    out = rng.normal(0, 1.0, (len(drums), 40))
    out[:, 0] = rng.normal(0, 12.0, len(drums))
    out[:, 1] += [apart if d is Drum.PI else 0.0 for d in drums]
    return out


def test_drums_the_strokes_main_difference_hides_are_told_by_the_scores_strokes():
    played = list(TOUHU_TWICE)
    played[5] = OTHER[played[5]]  # stroke 6 on the other drum
    heard = colours(played)
    some, _doubt, _notes, _apart = by_groups(heard, np.ones((len(played), 40)), 22050)
    assert some != played and some != [OTHER[d] for d in played]  # the loud spread splits them
    told = by_score(heard, TOUHU_TWICE)
    assert told is not None and told[0] == played  # stroke 6 too: its own drum, not the score's


def test_strokes_of_one_drum_are_not_told_by_the_score():
    heard = colours([Drum.GU] * len(TOUHU_TWICE), apart=0.0)
    assert by_score(heard, TOUHU_TWICE) is None


def test_a_stroke_the_score_does_not_have_is_told_by_the_drums_learnt():
    played = [*TOUHU_TWICE, Drum.PI, Drum.GU]
    told = by_score(colours(played), [*TOUHU_TWICE, None, None])
    assert told is not None and told[0][-2:] == [Drum.PI, Drum.GU]


def test_drums_too_alike_for_two_groups_are_told_by_the_score_and_a_wrong_one_found(tmp_path):
    """Two membranes a whole tone apart (120 and 135 Hz): two groups of their sound are not
    clearly apart, so the drums would not be told at all; learnt from the strokes of the
    score, every stroke is told, stroke 6 (played on the other drum) wrong."""
    times = real_drums.even(TOUHU_TWICE, 90)
    played = list(TOUHU_TWICE)
    played[5] = OTHER[played[5]]
    y = real_drums.placed(times, played, real_drums.membranes(low=120, high=135))
    heard = read_audio(real_drums.write(tmp_path / "take.wav", y))
    assert not heard.apart  # two groups do not tell them
    result = check(heard, arrange(resolve("lu"), "touhu", repeats=2))
    assert result.performance.apart and not result.performance.swappable
    assert "learnt from the strokes of the score" in result.performance.how
    assert not any("cannot be told apart" in n for n in result.performance.notes)
    assert [s.index for s in result.wrong] == [6] and not result.doubtful
    assert [s.heard for s in result.strokes] == played
