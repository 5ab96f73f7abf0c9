"""What drumscore render writes, drumscore check reads back exactly: a take rendered with any
practice options (count-in once or before each pass, clicks, silent passes, a ramp, one drum,
some strokes, humanizing; in a recording, clicks and humanizing not together), as WAV and as
MIDI, checked with the same options, finds every stroke that sounds, none extra or wrong, each
offset the humanizing put in (less its mean and trend, which the performer's own even beat
takes up) and the tempo exactly.

The expected offsets and tempo are computed here from the options alone: the humanizing draws
(Expression's seeded shaper, the input of the render), the times the strokes are put at (each
pass's tempo and count-in, summed here), and a least-squares line through them (numpy).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from drumscore.cli import main
from drumscore.conductor.expression import Expression
from drumscore.corpus import resolve
from drumscore.model import Drum, Section

#: Scores short enough to render fast, each with a 半 (so both sections exist).
SCORES = ("lu/2", "xue/2", "○□○○□半□○□○", "□○□□○半○□□")
#: The sample rate of the WAV takes: a sample is 0.0625 ms, well inside the 0.1 ms asked.
RATE = 16000
TICKS = 480  # MIDI ticks a beat, as render writes them


def run(argv: list[str]) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `drumscore ARGV` (hypothesis cannot use capsys)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = int(exc.code or 0)
    return code, out.getvalue(), err.getvalue()


def half_up(x: Fraction) -> int:
    """The nearest whole number, a half rounded up."""
    return math.floor(x + Fraction(1, 2))


@dataclass(frozen=True)
class Take:
    """The options of one take, as render and check are both given them."""

    score: str
    section: str
    bpm: int
    repeat: int
    click: int
    count_in: int
    count_each: bool
    silent_every: int
    ramp: tuple[int, int, int] | None
    only: str | None
    strokes: tuple[int, int] | None
    humanize: int
    seed: int

    def options(self) -> list[str]:
        argv = [self.score, "--section", self.section, "--repeat", str(self.repeat)]
        if self.ramp is None:
            argv += ["--bpm", str(self.bpm)]
        else:
            argv += ["--ramp", ":".join(str(x) for x in self.ramp)]
        if self.click:
            argv += ["--click", str(self.click)]
        if self.count_in:
            argv += ["--count-in", str(self.count_in)]
        if self.count_each:
            argv += ["--count-in-each"]
        if self.silent_every:
            argv += ["--silent-every", str(self.silent_every)]
        if self.only:
            argv += ["--only", self.only]
        if self.strokes:
            argv += ["--strokes", f"{self.strokes[0]}-{self.strokes[1]}"]
        return argv

    def render_options(self) -> list[str]:
        extra = (
            ["--humanize", str(self.humanize), "--seed", str(self.seed)] if self.humanize else []
        )
        return [*self.options(), *extra]

    def drums(self) -> list[Drum]:
        """The section's strokes (those --strokes keeps), one pass."""
        strokes = resolve(self.score).pattern.section(self.section)
        drums = [s.drum for s in strokes]
        if self.strokes:
            drums = drums[self.strokes[0] - 1 : self.strokes[1]]
        return drums

    def bpm_of(self, p: int) -> Fraction:
        """The tempo of pass p (from 0)."""
        if self.ramp is None:
            return Fraction(self.bpm)
        start, stop, step = self.ramp
        bpm = start + step * p
        return Fraction(min(bpm, stop) if step > 0 else max(bpm, stop))

    def expected(self, midi: bool) -> tuple[list[int], np.ndarray, np.ndarray]:
        """The strokes that sound (numbers from 1 over every pass), their times on the asked
        beat (seconds from the first beat) and the times they are put at in the file: a WAV's
        to the sample (each pass from its first beat's sample, each beat and each humanizing
        offset rounded to a sample, as docs/rendering.md says), a MIDI file's to the tick."""
        drums = self.drums()
        amount = str(self.humanize) if self.humanize else None
        shape = Expression.from_options(None, amount, str(self.seed) if amount else None).shaper()
        numbers, times, put = [], [], []
        at, frame = Fraction(0), 0  # each pass's first beat: seconds, and its sample in a WAV
        for p in range(self.repeat):
            interval = 60 / self.bpm_of(p)
            beats = len(drums)
            if self.count_in and (p == 0 or self.count_each):
                beats += self.count_in
            first = beats - len(drums)  # the count-in's beats before the pass's first stroke
            for j, drum in enumerate(drums):
                k = p * len(drums) + j
                _velocity, offset = shape(k, drum, interval)
                silent = self.silent_every and (p + 1) % self.silent_every == 0
                if silent or (self.only is not None and drum is not Drum.parse(self.only, "only")):
                    continue
                beat = (first + j) * interval
                numbers.append(k + 1)
                times.append(float(at + beat))
                if midi:
                    ticks = round(offset / float(interval) * TICKS)
                    put.append(float(at + beat) + ticks / TICKS * float(interval))
                else:
                    # a ramp counts each pass from its first beat's sample; a tempo, from the first
                    on = frame + half_up(beat * RATE) if self.ramp else half_up((at + beat) * RATE)
                    put.append((on + round(offset * RATE)) / RATE)
            at += beats * interval
            frame += half_up(beats * interval * RATE)
        return numbers, np.asarray(times), np.asarray(put)


@st.composite
def takes(draw: st.DrawFn, *, audio: bool) -> Take:
    score = draw(st.sampled_from(SCORES))
    section = draw(st.sampled_from([s.value for s in Section]))
    length = len(resolve(score).pattern.section(section))
    strokes = None
    if length >= 5 and draw(st.booleans()):
        first = draw(st.integers(1, length - 3))
        strokes = (first, draw(st.integers(first + 3, length)))
    repeat = draw(st.integers(1, 3))
    ramp = None
    if draw(st.booleans()):
        start = draw(st.integers(50, 120))
        stop = draw(st.integers(50, 120).filter(lambda b: b != start))
        step = draw(st.integers(3, 15)) * (1 if stop > start else -1)
        ramp = (start, stop, step)
    bpm = draw(st.integers(40, 150 if audio else 300))
    click = draw(st.integers(0, 4))
    count_in = draw(st.integers(0, 4))
    count_each = count_in > 0 and draw(st.booleans())
    silent = repeat > 1 and draw(st.booleans())
    silent_every = draw(st.integers(2, repeat)) if silent else 0
    only = draw(st.sampled_from([None, "pi", "gu"]))
    # a click sounds on the beat, not where humanizing moves the stroke (up to a quarter beat,
    # 3-12 ms here): in a recording the two start within one onset's reach (listen's
    # MERGE_SECONDS, 80 ms, in which a flam is one stroke too) and are heard as one sound,
    # whose attack is that of the earlier of them. Where the drum's own attack starts under a
    # click already sounding cannot be read from that one onset (tried: a stroke humanized by
    # 3 ms was read back 1.4 ms off): a humanized recording has no click.
    plain_beat = audio and (click or silent_every)
    humanize = 0 if plain_beat else draw(st.sampled_from([0, 0, 3, 8, 12]))
    take = Take(
        score, section, bpm, repeat, click, count_in, count_each, silent_every, ramp, only,
        strokes, humanize, draw(st.integers(0, 99)),
    )  # fmt: skip
    numbers, _times, _put = take.expected(midi=True)
    fastest = max(take.bpm_of(p) for p in range(repeat))
    assume(len(numbers) >= 3)  # an even beat needs a few strokes that sound
    assume(humanize <= 60_000 / float(fastest) / 4)  # as render allows
    return take


def check_take(take: Take, path: str, midi: bool) -> None:
    rate = [] if midi else ["--rate", str(RATE)]
    code, _out, err = run(["render", *take.render_options(), *rate, "-q", "-o", path])
    assert code == 0, err
    code, out, err = run(["check", path, *take.options(), "--json"])
    assert code == 0, err
    data = json.loads(out)
    numbers, times, put = take.expected(midi)
    assert [s["index"] for s in data["strokes"]] == numbers, take
    faults = data["missing"], data["extra"], data["wrong"]
    assert faults == ([], [], []), (take, faults)
    # the performer's even beat through the strokes as put: their offsets less mean and trend
    slope, origin = np.polyfit(times, put, 1)
    want = (put - (origin + slope * times)) * 1000
    got = np.asarray([s["offset_ms"] for s in data["strokes"]])
    assert np.max(np.abs(got - want)) <= 0.1, (take, got - want)
    first = float(take.bpm_of(0))
    # exact: as exact as the offsets are, over the take's length (a MIDI file's tempo is whole
    # microseconds a beat)
    within = 2e-5 if midi else 0.0001 / (times[-1] - times[0])
    assert data["tempo_bpm"] == pytest.approx(first / slope, rel=within, abs=1e-4), take
    left = data["take"]
    assert left["silent_strokes"] + len(numbers) == len(take.drums()) * take.repeat


SETTINGS = {
    "deadline": None,
    "derandomize": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much],
}


@settings(max_examples=60, **SETTINGS)
@given(take=takes(audio=False))
def test_a_midi_render_is_read_back_exactly_under_its_own_options(take, tmp_path_factory):
    check_take(take, str(tmp_path_factory.mktemp("midi") / "take.mid"), midi=True)


@settings(max_examples=40, **SETTINGS)
@given(take=takes(audio=True))
def test_a_wav_render_is_read_back_exactly_under_its_own_options(take, tmp_path_factory):
    check_take(take, str(tmp_path_factory.mktemp("wav") / "take.wav"), midi=False)
