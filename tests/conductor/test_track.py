"""The track and its conductor: count-in, items on one clock, and live changes on the beat."""

from __future__ import annotations

from fractions import Fraction

import pytest

from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Conductor, Item, Track
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError
from drumscore.model import Section
from drumscore.timing import Tempo

RATE = 44100


def tl(notation="○□○半○□", bpm=96, repeats=2, section=None):
    return arrange(resolve(notation), section, Tempo.from_bpm(bpm), repeats)


def grid(first_frame, interval, n, rate=RATE):
    """Frames of n beats from first_frame, each computed from its own number."""
    step = Fraction(interval) * rate
    return [first_frame + int(Fraction(k) * step + Fraction(1, 2)) for k in range(n)]


def test_count_strokes_come_first_on_the_same_beat():
    t = tl()
    hits = Track.single(t, 3).hits(RATE)
    assert [h.is_count for h in hits] == [True] * 3 + [False] * len(t)
    assert [h.frame for h in hits] == grid(0, t.tempo.interval, 3 + len(t))
    assert [h.drum for h in hits[3:]] == [e.drum for e in Track.single(t).hits(44100)]


def test_items_follow_on_one_clock_with_their_pauses_and_tempi():
    a, b = tl(bpm=60, repeats=1), tl(bpm=120, repeats=1)
    track = Track((Item(a, 2, Fraction(3)), Item(b, 1)))
    hits = track.hits(RATE)
    second = 2 + len(a) + 3  # beats of item 1 plus its pause, in seconds at one stroke a second
    assert track.starts(RATE) == [0, second * RATE]
    frames = [h.frame for h in hits if h.item == 1]
    assert frames == grid(second * RATE, Fraction(1, 2), 1 + len(b))
    assert track.end_frame(RATE) == second * RATE + (1 + len(b)) * RATE // 2


def test_a_tempo_change_counts_the_new_grid_from_the_last_beat_laid_out():
    t = tl(bpm=60, repeats=4)
    c = Conductor(Track.single(t), RATE)
    before = c.advance(int(2.5 * RATE))  # beats at 0, 1 s and 2 s
    assert [h.frame for h in before] == [0, RATE, 2 * RATE]
    c.set_tempo(Tempo.from_bpm(90))
    after = c.advance(None)
    assert [h.frame for h in after] == grid(2 * RATE, Fraction(2, 3), len(t) - 2)[1:]
    assert len(before) + len(after) == len(t)  # none lost, none doubled
    assert [h.drum for h in before + after] == [e.drum for e in Track.single(t).hits(44100)]


def test_pause_keeps_the_beat_silently_and_resumes_on_it():
    t = tl(bpm=60, repeats=1)
    c = Conductor(Track.single(t), RATE)
    first = c.advance(RATE // 2)
    c.pause()
    assert c.advance(int(3.5 * RATE)) == []  # beats 1, 2, 3 pass in silence
    c.pause(False)
    rest = c.advance(None)
    assert [h.frame for h in first + rest] == [0] + [k * RATE for k in range(4, 4 + len(t) - 1)]
    assert [h.k for h in first + rest] == list(range(len(t)))


def test_switch_and_stop_wait_for_the_end_of_the_pass():
    t = tl("○□○半○□", bpm=60, repeats=10, section="touhu")
    c = Conductor(Track.single(t), RATE)
    c.advance(RATE // 2)
    c.switch_section()
    c.advance(int(2.5 * RATE))  # the touhu pass (○□) ends at beat 1; the whole starts at 2
    c.stop_after_pass()
    rest = c.advance(None)
    sections = [h.timeline.section for h in rest]
    assert sections == [Section.SHE] * 4  # the rest of the first whole pass, then stop
    assert c.finished and c.end == 7 * RATE


def test_next_item_moves_on_at_the_end_of_the_pass():
    track = Track((Item(tl(repeats=50)), Item(tl("□□", repeats=1))))
    c = Conductor(track, RATE)
    c.advance(10)
    c.next_item()
    hits = c.advance(None)
    assert [h.item for h in hits] == [0] * 4 + [1] * 2


def test_a_track_longer_than_a_render_may_last_is_refused_with_its_length():
    item = Item(arrange(resolve("lu"), None, Tempo.from_bpm(60), 1000), 4, Fraction(60))
    with pytest.raises(DrumscoreError) as err:
        Track((item, item))
    assert "would last 12 h 48 min 48 s (2 items, count-ins and pauses included)" in str(err.value)


def test_a_ramp_lays_each_pass_out_at_its_tempo_from_its_first_beat():
    from drumscore.conductor.track import Practice, Ramp

    ramp = Ramp.parse("60:120:60")
    track = Track.single(
        arrange(resolve("○□"), None, ramp.tempo(1), 3), practice=Practice(ramp=ramp)
    )
    frames = [h.frame for h in track.hits(RATE)]
    assert frames == [0, RATE, 2 * RATE, 2 * RATE + RATE // 2, 3 * RATE, 3 * RATE + RATE // 2]
    assert track.end_frame(RATE) == 4 * RATE
    assert track.items[0].seconds == 4


def test_count_in_before_each_pass_and_muted_strokes_are_laid_out():
    from drumscore.conductor.track import Practice
    from drumscore.model import Drum

    practice = Practice(count_each=True, only=Drum.GU)
    hits = Track.single(tl("○□", bpm=60, repeats=2), 1, practice=practice).hits(RATE)
    assert [(h.is_count, h.drum, h.muted) for h in hits] == [
        (True, None, False),
        (False, Drum.PI, True),
        (False, Drum.GU, False),
    ] * 2
    assert [h.frame for h in hits] == [k * RATE for k in range(6)]


@pytest.mark.parametrize(
    ("text", "needle"),
    [("60:40:5", "negative step"), ("60", "START:STOP:STEP"), ("60:70:5:0", "EVERY")],
)
def test_a_bad_ramp_says_how_to_write_it(text, needle):
    from drumscore.conductor.track import Ramp
    from drumscore.errors import OptionError

    with pytest.raises(OptionError, match=needle) as err:
        Ramp.parse(text)
    assert err.value.option == "ramp"


def test_a_bad_practice_value_names_its_parameter():
    from drumscore.conductor.track import Practice
    from drumscore.errors import OptionError

    with pytest.raises(OptionError) as err:
        Practice(click=99)
    assert err.value.option == "click"


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "每擊 2 下節拍聲，力度 80、每 3 遍的最後一遍無聲、只響鼙、速度漸變 40:60:5"),
        ("zh_Hans", "每击 2 下节拍声，力度 80、每 3 遍的最后一遍无声、只响鼙、速度渐变 40:60:5"),
        ("en", "click 2 a stroke at velocity 80, every 3 passes silent, only 鼙, ramp 40:60:5"),
    ],
)
def test_what_a_practice_asks_for_is_said_in_the_readers_language(language, expected):
    from drumscore import i18n
    from drumscore.conductor.track import Practice, Ramp
    from drumscore.model import Drum

    practice = Practice(click=2, silent_every=3, only=Drum.PI, ramp=Ramp.parse("40:60:5"))
    with i18n.speaking(language):
        assert practice.parameters == expected


def test_a_switch_given_during_the_last_stroke_of_a_pass_acts_at_its_end():
    t = tl("○□○半○□", bpm=60, repeats=10, section="touhu")  # touhu: ○□, beats 0 and 1
    c = Conductor(Track.single(t), RATE)
    c.advance(RATE + 1)  # the pass's last stroke is laid out; the next beat is not
    c.switch_section()
    sections = [h.timeline.section for h in c.advance(3 * RATE + 1)]
    assert sections == [Section.SHE, Section.SHE]  # from beat 2 the whole pattern


def test_a_switch_to_the_section_playing_takes_back_the_switch_waiting():
    t = tl("○□○半○□", bpm=60, repeats=10, section="touhu")
    c = Conductor(Track.single(t), RATE)
    c.advance(RATE // 2)
    c.switch_section(Section.SHE)
    c.switch_section(Section.TOUHU)
    assert {h.timeline.section for h in c.advance(6 * RATE)} == {Section.TOUHU}


def test_the_last_pass_ends_the_track_at_once_whatever_waits():
    t = tl("○□", bpm=60, repeats=2)
    c = Conductor(Track.single(t), RATE)
    assert len(c.advance(3 * RATE + 1)) == 4
    assert c.finished and c.end == 4 * RATE
