"""Strokes heard as they are played: check's listener fed a take in chunks of any size hears the
strokes, drums and times that check finds in the whole recording, each within 60 ms of its
sound."""

import numpy as np
import pytest
import real_drums
import soundfile as sf
from hypothesis import given, settings
from hypothesis import strategies as st
from performances import take, write_audio

from drumscore.corpus import resolve
from drumscore.errors import PerformanceError
from drumscore.model import Drum
from drumscore.performance.bands import stroke_length
from drumscore.performance.listen import read_audio
from drumscore.performance.recording import blocks
from drumscore.performance.stream import Listener, applied

P, G = Drum.PI, Drum.GU
ORDER = [P, G, P, P, G, G, P, G]
#: A stroke's line appears within this of its sound (issue 41).
LATEST = 0.060


def mono_of(path):
    """The take's samples as check reads them (blocks: the channels' mean)."""
    with sf.SoundFile(path) as audio:
        return np.concatenate(list(blocks(audio))), int(audio.samplerate)


def fed(path, sizes):
    """(the strokes heard as the take was fed in chunks of `sizes`, over and over; the
    performance when it ended)."""
    mono, rate = mono_of(path)
    listener = Listener(rate, source=str(path))
    heard = []
    at, k = 0, 0
    while at < len(mono):
        n = sizes[k % len(sizes)]
        heard += listener.feed(mono[at : at + n])
        at, k = at + n, k + 1
    ended = listener.finish()
    return heard + listener.ended, ended, rate


def assert_heard_as_checked(path, sizes, told=None):
    """Fed in chunks of `sizes`, the take is heard as check hears it: when it ends, and live
    (its lines, revisions applied), each stroke's first line within 60 ms of its sound. The
    Heard lines, for the figures."""
    checked = read_audio(path)
    heard, ended, rate = fed(path, sizes)
    # when the take ends: check's strokes, to the sample, with its drums and how they were told
    assert [s.time for s in ended.strokes] == pytest.approx(
        [s.time for s in checked.strokes], abs=0.001
    )
    assert [(s.drum, s.doubtful, s.count) for s in ended.strokes] == [
        (s.drum, s.doubtful, s.count) for s in checked.strokes
    ]
    assert (ended.how, ended.swappable, ended.duration) == (
        checked.how,
        checked.swappable,
        checked.duration,
    )
    # as it is played: each of those strokes, its drum, within 1 ms, once the revisions told
    # when check's reading further past an onset moved or dropped a line are applied
    live = applied(heard)
    if told is None:  # by two groups of their own sound: they are four strokes in the making
        told = 3 if checked.swappable else 0
    assert [s.drum for s in live[told:]] == [s.drum for s in checked.strokes[told:]]
    times = np.array([s.time for s in live])
    assert np.max(np.abs(times - [s.time for s in checked.strokes])) <= 0.001
    # each stroke's first line told once its own sound has been heard (stroke_length samples)
    # and within 60 ms of it: the line revised, the first line of its sound
    firsts = {h.stroke.time: h for h in heard if h.revises is None}
    for h in heard:
        if h.revises is not None and h.revises in firsts:
            firsts[h.stroke.time] = firsts.pop(h.revises)
    first = [firsts[s.time] for s in live]
    late = np.array([h.heard_at - round(h.stroke.time * rate) for h in first])
    assert np.all(late >= stroke_length(rate))
    assert np.max(late) <= LATEST * rate
    return heard


def _any_chunking(examples: int):
    """The property below drawn `examples` times: a take of any tempo, fault and start, fed in
    chunks of any sizes."""

    @settings(max_examples=examples, deadline=None)
    @given(
        seed=st.integers(0, 10_000),
        bpm=st.floats(90, 170),
        fault=st.sampled_from(["none", "missed", "wrong", "extra"]),
        sizes=st.lists(st.floats(0, np.log(44100)), min_size=1, max_size=40),
        start=st.floats(0.03, 0.6),
    )
    def test(tmp_path_factory, seed, bpm, fault, sizes, start):
        faults = {
            "none": {},
            "missed": {"missed": [2]},
            "wrong": {"wrong": [1]},
            "extra": {"extra": [(3.5, G)]},
        }[fault]
        t = take(ORDER, bpm, seed=seed, **faults)
        t.start = start  # the first stroke as soon as 30 ms into the take
        t.extra = [(t.time(beat), drum) for beat, drum in faults.get("extra", [])]
        path = write_audio(tmp_path_factory.mktemp("take") / "take.wav", t)
        # chunk sizes from one frame to one second, evenly spread in their logarithm
        assert_heard_as_checked(path, [int(np.exp(s)) for s in sizes])

    return test


# Each example is seconds of listening (chunks down to a frame): README's command draws two,
# the slow run (-m slow) eight more of its own.
test_any_chunking_hears_what_check_finds_within_60_ms = _any_chunking(2)
test_any_chunking_hears_what_check_finds_within_60_ms_at_length = pytest.mark.slow(_any_chunking(8))


def test_a_take_fed_a_frame_at_a_time_is_heard_as_checked(tmp_path):
    t = take([P, G, G, P], 180, seed=4)
    assert_heard_as_checked(write_audio(tmp_path / "take.wav", t), [1])


@pytest.mark.parametrize("rate", [48000, 22050])
def test_a_take_at_another_rate_is_heard_at_its_own(tmp_path, rate):
    t = take(ORDER, 120, seed=7, wrong=[2])
    assert_heard_as_checked(write_audio(tmp_path / "take.wav", t, rate=rate), [441, 5000, 3])


def test_invalid_samples_are_refused_as_check_refuses_them():
    listener = Listener(44100, source="microphone")
    with pytest.raises(PerformanceError, match=r"microphone.*invalid"):
        listener.feed(np.array([0.0, np.nan], dtype=np.float32))


def test_silence_holds_no_strokes_as_check_says():
    listener = Listener(44100, source="microphone")
    assert listener.feed(np.zeros(44100, dtype=np.float32)) == []
    with pytest.raises(PerformanceError, match="holds no strokes"):
        listener.finish()


# --- in rooms and with flams: check reads further past an onset than a live line waits for ----

TOUHU = [s.drum for s in resolve("lu").pattern.section("touhu")]


def test_flams_heard_live_are_moved_to_their_main_stroke_as_check_times_them(tmp_path):
    """A grace note 17–43 ms before a stroke: its line comes within 60 ms of the grace note, and
    once the main stroke has been heard a revision moves it there, marked a flam, as check has
    it; no line of a stroke played plain is moved or withdrawn."""
    times, y, flammed = real_drums.flammed_take(TOUHU)
    path = real_drums.write(tmp_path / "take.wav", y, real_drums.RATE)
    heard = assert_heard_as_checked(path, [512])
    assert [k for k, s in enumerate(applied(heard)) if s.flam] == flammed
    revised = [h for h in heard if h.revises is not None]
    assert not any(h.withdrawn for h in revised)
    moved = [h for h in revised if h.stroke.time != h.revises]
    assert moved  # some grace notes were first heard as the stroke
    nearest = [int(np.argmin(np.abs(np.asarray(times) - h.stroke.time))) for h in moved]
    assert set(nearest) <= set(flammed)
    # moved later, by a grace note's distance (17–43 ms)
    assert all(0.015 < h.stroke.time - h.revises < 0.045 for h in moved)


def test_a_low_drum_swelling_in_a_room_is_heard_live_as_check_hears_it(tmp_path):
    """鼙 a big drum swelling to its peak 50–80 ms after the tap, in a room: each stroke's line
    at its tap within 60 ms, and the take's strokes, revisions applied, those check finds."""
    times = real_drums.even(TOUHU, 80)
    gu = real_drums.membranes(high=190)

    def sound(drum, rng):
        return real_drums.swelling(rng) if drum is Drum.PI else gu(drum, rng)

    y = real_drums.room(real_drums.placed(times, TOUHU, sound), real_drums.RATE)
    path = real_drums.write(tmp_path / "take.wav", y, real_drums.RATE)
    assert_heard_as_checked(path, [512, 37, 4410])


def test_a_ringing_takes_swell_heard_live_is_withdrawn_as_check_leaves_it_out(tmp_path):
    """Drums ringing between strokes: a swell taken live for a stroke (before the take's
    strokes show how loud they are) is withdrawn once settled; revisions applied, the strokes
    are check's, each stroke's line within 60 ms."""
    times = real_drums.even(TOUHU, 100)
    sound = real_drums.membranes(low=100, high=170)
    y = real_drums.ringing(real_drums.placed(times, TOUHU, sound), times, real_drums.RATE)
    heard = assert_heard_as_checked(
        real_drums.write(tmp_path / "take.wav", y, real_drums.RATE), [512]
    )
    gone = [h for h in heard if h.withdrawn]
    assert gone
    assert all(np.min(np.abs(np.asarray(times) - h.revises)) > 0.1 for h in gone)


def test_a_first_stroke_a_few_ms_into_the_take_is_told_within_60_ms(tmp_path):
    """A take begun with playback has its first stroke a few ms in: its sound is not all heard
    when its frame is first looked at, and it is looked at again, not left to be settled
    seconds later."""
    t = take(ORDER, 90, seed=112)
    t.start = 0.03
    assert_heard_as_checked(write_audio(tmp_path / "take.wav", t), [441])


def test_the_onsets_a_listener_keeps_are_those_it_would_read_again(tmp_path, monkeypatch):
    """The strokes told before a new one are weighed with it at every look: their onsets,
    kept once their sound and flux are heard for good, are at every look those read afresh,
    and each is read once so kept rather than at every look."""
    import drumscore.performance.stream as stream

    t = take(ORDER, 150, seed=3)
    path = write_audio(tmp_path / "take.wav", t)
    reads: list[int] = []
    kept: list[int] = []
    read = stream.onset_at

    def counted(audio, frame, flux, lookahead=None):
        reads.append(frame)
        return read(audio, frame, flux, lookahead)

    onset = Listener._onset

    def checked(self, frame, flux):
        got = onset(self, frame, flux)
        if frame in self._onsets:
            kept.append(frame)
            assert got == read(self.samples, frame, flux, self.lookahead)[0]
        return got

    monkeypatch.setattr(stream, "onset_at", counted)
    monkeypatch.setattr(Listener, "_onset", checked)
    assert_heard_as_checked(path, [128])
    assert len(kept) > 2 * len(set(kept)) > 0
    assert len(reads) < len(kept)
