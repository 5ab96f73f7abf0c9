"""Strokes heard as they are played: check's own listener (performance.onsets, performance.drums)
fed the sound in chunks of any size, as a microphone or a take delivered at its own pace gives it.

Two things are done with every chunk. The onset envelope of the whole take grows by it
(Envelope.feed), so that when the take ends its strokes are found exactly as `check`
finds them in the recording (Listener.finish: pick_peaks over the whole envelope, strokes_at and
the drums told over the take). And, so that each stroke is shown as it sounds, the last
PROBE_SECONDS of sound are looked at afresh every STEP_SECONDS: their own envelope (a new
Envelope, as the one of the whole take is held back by its resampler for up to 0.1 s), its peaks
(pick_peaks), and each new one's stroke found to the sample and its drum told from the take's own
samples (strokes_at, by_kit), as soon as the samples it is judged on have been heard: a stroke's
first stroke_length samples (46 ms at 44.1 kHz) and LOOKAHEAD_SECONDS past its onset's attack
window, so that its line comes within 60 ms of its sound.

Check reads further than that: a flam's main stroke up to FLAM_SECONDS after its grace note,
a stroke's peak over PEAK_SECONDS, and its candidates by the flux of the second around them.
So the lines told are settled a second and a half later (_settle): the strokes there found as
check finds them in the whole take's envelope, and where that moves a line (a flam's grace note
first taken for its stroke), drops it or finds one the first judgement missed, a Heard says
so (`revises`, `withdrawn`); when the take ends the rest are settled (`ended`). The strokes
heard live, revisions applied (`applied`), are those check finds.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, replace

import numpy as np

from drumscore.errors import PerformanceError
from drumscore.i18n import _
from drumscore.model import Drum
from drumscore.performance.bands import BANDS, shapes, stroke_length
from drumscore.performance.drums import (
    DRUM_METHODS,
    KIT_DISTANCE_DB,
    by_groups,
    by_kit,
    count_bands,
    kit_bands,
    like_count,
)
from drumscore.performance.heard import HeardStroke, Performance
from drumscore.performance.listen import performance_of
from drumscore.performance.onsets import (
    ATTACK_SLACK_MS,
    ENVELOPE_FFT,
    ENVELOPE_RATE,
    FLAM_SECONDS,
    HOP,
    MERGE_SECONDS,
    PEAK_SECONDS,
    Envelope,
    Found,
    Onset,
    onset_at,
    peak_tops,
    pick_peaks,
    strokes_at,
)
from drumscore.render.kit import Kit, builtin_kit

#: The stretch of the latest sound whose envelope is looked at for new strokes, and how often.
PROBE_SECONDS = 0.15
STEP_SECONDS = 0.005
#: The start of a probe's envelope is not judged: its first frames rise out of the silence it
#: supposes before it.
WARM_SECONDS = 0.08
#: The strokes before a new one it is weighed against (strokes_at: far quieter than the strokes,
#: or within MERGE_SECONDS of a louder one).
RECENT = 8
#: How far past an onset's attack window a stroke is first judged (strokes_at's lookahead).
LOOKAHEAD_SECONDS = 0.03
#: How often the lines told are settled as check tells them, and how much of the take before
#: them their strokes are weighed with (strokes_at: far quieter than the strokes).
SETTLE_SECONDS = 0.25
HISTORY_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Heard:
    """A stroke as it was heard: the stroke (its time from the start of the take, its drum) and
    how many samples of the take had been heard when it was told (`heard_at`)."""

    stroke: HeardStroke
    heard_at: int
    #: The time (s) of the line told before for this stroke that this one replaces (check's
    #: reading further past the onset moved it, or retold its drum), if any.
    revises: float | None = None
    #: Whether the line told at `revises` is withdrawn (no stroke there after all).
    withdrawn: bool = False


def applied(heard: list[Heard]) -> list[HeardStroke]:
    """The strokes heard live, each revision applied to the line it revises."""
    out: list[HeardStroke] = []
    for h in heard:
        if h.revises is not None:
            out = [s for s in out if s.time != h.revises]
        if not h.withdrawn:
            out.append(h.stroke)
    return sorted(out, key=lambda s: s.time)


class Samples:
    """The take heard so far, read as listen reads an open recording (a mono float stream with
    `samplerate`, `frames`, `seek` and `read`): what strokes_at and stroke_bands read spans of."""

    subtype = "FLOAT"
    channels = 1

    def __init__(self, rate: int) -> None:
        self.samplerate = rate
        self.frames = 0
        self._data = np.zeros(rate, dtype=np.float32)
        self._at = 0

    def append(self, chunk: np.ndarray) -> None:
        end = self.frames + len(chunk)
        if end > len(self._data):
            grown = np.zeros(max(end, 2 * len(self._data)), dtype=np.float32)
            grown[: self.frames] = self._data[: self.frames]
            self._data = grown
        self._data[self.frames : end] = chunk
        self.frames = end

    def span(self, start: int, stop: int) -> np.ndarray:
        return self._data[max(0, start) : min(stop, self.frames)]

    def seek(self, frame: int) -> int:
        self._at = frame
        return frame

    def read(self, frames: int, dtype: str = "float32", always_2d: bool = True) -> np.ndarray:
        out = self._data[self._at : min(self._at + frames, self.frames)].astype(dtype)
        self._at += len(out)
        return out[:, None]


class Listener:
    """Check's listener fed a take in chunks of mono float32 samples at `rate` (as
    recording.blocks reads a recording: the channels' mean). `feed` returns the strokes told by
    the chunk, each once; `finish` the performance `check` finds in the whole take."""

    def __init__(
        self,
        rate: int,
        *,
        source: str = "",
        kit: Kit | None = None,
        drums: str = "kit",
        count_sound: bool = False,
        click_velocity: int | None = None,
    ) -> None:
        if drums not in DRUM_METHODS:  # as read_audio refuses it
            raise PerformanceError(
                _("drums {drums!r} is not a way to tell the drums apart; use kit or split").format(
                    drums=drums
                ),
                option="drums",
            )
        self.rate = rate
        self.source = source
        self.kit = kit or builtin_kit()
        self.drums = drums
        self.count_sound = count_sound
        self.click_velocity = click_velocity
        self.samples = Samples(rate)
        self.envelope = Envelope(rate)
        self._resampler = Envelope.resampler_for(rate)  # each probe's, cleared after it
        self.scale = rate / ENVELOPE_RATE
        self.hop = HOP * self.scale  # samples of the take a frame of the envelope
        self.probe = round(PROBE_SECONDS * rate)
        self.step = max(1, round(STEP_SECONDS * rate))
        self.warm = round(WARM_SECONDS * rate)
        self.size = stroke_length(rate)
        self.merge = round(MERGE_SECONDS * rate)
        self.again = round(MERGE_SECONDS / 2 * ENVELOPE_RATE / HOP)
        width = max(1, round(rate / 1000))
        window = round(ENVELOPE_FFT / 2 * self.scale) + ATTACK_SLACK_MS * width
        self.lookahead = round(LOOKAHEAD_SECONDS * rate)
        self.reach = window + self.lookahead  # after a frame's centre, what a first judgement reads
        # ...and what check's reads (and the flux of the frames it reads, whole)
        self.full = (
            window
            + round(FLAM_SECONDS * rate)
            + round(PEAK_SECONDS * rate)
            + round(ENVELOPE_FFT * self.scale)
        )
        self.probed = 0  # samples heard at the last probe
        self.judged = -1  # the last frame judged
        #: The spectral flux of the take so far, frame by frame as each probe found it (the
        #: whole take's envelope lags by its resampler's delay).
        self.flux = np.zeros(0, np.float32)
        #: The flux before this frame is no longer looked at afresh: as it will stay.
        self.fixed = 0
        self._onsets: dict[int, Onset] = {}  # the candidates' onsets so read (_onset)
        self.pending: list[int] = []  # frames found, waiting for their samples
        self._ready: dict[int, int] = {}  # ...and when they may be told
        self._done: set[int] = set()  # frames judged lately, not judged again
        self.recent: list[int] = []  # frames of the strokes told, latest last
        self.told: list[int] = []  # first samples of the strokes told
        #: Lines before this sample have been settled as check tells them (_settle).
        self.settled = 0
        self._sure: set[int] = set()  # first samples of the lines settled
        self.context = round(ENVELOPE_RATE / HOP)  # pick_peaks' second, frames
        self.around = round(MERGE_SECONDS / 2 * ENVELOPE_RATE / HOP)
        # what settling a stroke reads after it: strokes_at's reach, and the candidates it is
        # weighed with (one MERGE_SECONDS after, and their own reach)
        self.margin = 2 * self.merge + self.full
        self.settle_step = round(SETTLE_SECONDS * rate)
        self.history = round(HISTORY_SECONDS * rate)
        self._tops_seen = np.zeros(0, np.float32)  # the flux at its peaks, frames 0…_tops_to
        self._tops_to = 0
        self._lines: dict[int, Heard] = {}  # the line told for each first sample
        self.ended: list[Heard] = []  # the revisions told when the take ended
        self._whole_flux = np.zeros(0, np.float32)
        self._whole_parts = 0  # of the pieces of the whole take's flux, those joined
        self._peaks = np.zeros(0, np.float32)
        self._peak_parts = 0  # of the pieces of the take's peaks, those joined
        #: The strokes told (by first sample): bands, distance to the kit.
        self._strokes: dict[int, tuple[np.ndarray, float]] = {}
        self._kit_bands: tuple[list[Drum], np.ndarray, np.ndarray | None] | None = None

    def feed(self, chunk: np.ndarray, *, tell: bool = True) -> list[Heard]:
        """Hear the next samples; the strokes they let be told. With `tell` false they are only
        kept for `finish` (a recording's rest, after the score: no line is told of it), at the
        cost of check's own reading rather than a probe every step."""
        chunk = np.asarray(chunk, dtype=np.float32).reshape(-1)
        if not np.all(np.isfinite(chunk)):
            raise PerformanceError(
                _("performance {path!r} holds invalid (NaN or infinite) samples").format(
                    path=self.source
                )
            )
        self.samples.append(chunk)
        self.envelope.feed(chunk)
        out: list[Heard] = []
        if not tell:
            self.probed = self.samples.frames
            return out
        while self.probed + self.step <= self.samples.frames:
            self.probed += self.step  # as if the chunk had come a step at a time
            out += self._probe(self.probed)
        return out

    def _probe(self, now: int) -> list[Heard]:
        """The strokes told by the `now` samples heard so far (never reading past them)."""
        frame_of = 1.0 / self.hop
        start = max(0, now - self.probe)
        first = int(np.ceil(start * frame_of))  # a probe starts on a frame of the take's envelope
        start = round(first * self.hop)
        if now - start > self.warm or start == 0:
            flux = Envelope.flux_of(self.rate, self.samples.span(start, now), self._resampler)
            # from the take's start, the silence the envelope supposes before it is there
            warm = int(np.ceil(self.warm * frame_of)) if start else 0
            self._keep_flux(first + warm, flux[warm:])
            if start:  # the probes after this one look no further back
                self.fixed = first + warm
            # frames whose onset can be judged now: strokes_at's span heard, the zeros past the
            # end of the probe far enough away
            last = int((now - self.reach) * frame_of) - first
            for f in pick_peaks(flux[warm:]) + warm:
                frame = int(f) + first
                # a peak judged a frame or two before may stand a frame off in this probe: it
                # is told once all the same (by its first sample)
                if (
                    self.judged - self.again < frame
                    and f <= last
                    and frame not in self.pending
                    and frame not in self._done
                ):
                    self.pending.append(frame)
            self.judged = max(self.judged, first + last)
        return self._tell(now)

    def _keep_flux(self, first: int, flux: np.ndarray) -> None:
        """Keep a probe's flux from envelope frame `first` on, over what an earlier probe said."""
        end = first + len(flux)
        if len(self.flux) < end:
            self.flux = np.concatenate([self.flux, np.zeros(end - len(self.flux), np.float32)])
        self.flux[first:end] = flux

    def _flux_to(self, candidates: np.ndarray) -> np.ndarray:
        """The flux kept, long enough to be read at every candidate frame."""
        need = int(candidates.max(initial=-1)) + 1
        if len(self.flux) >= need:
            return self.flux
        return np.concatenate([self.flux, np.zeros(need - len(self.flux), np.float32)])

    def _tell(self, now: int) -> list[Heard]:
        out = self._first(now) if self.pending else []
        # the lines a second and more back settled as check tells them: its candidates are
        # told by the flux of the second around them, and read as far as strokes_at reads
        whole = self._whole()
        decided = (len(whole) - 1 - self.context) * self.hop  # candidacy known up to here
        until = int(min(now - self.full, decided) - self.margin)
        if until - self.settled >= self.settle_step:
            out += self._settle(whole, until, now)
        return out

    def _first(self, now: int) -> list[Heard]:
        """The strokes of the frames found, first judged on LOOKAHEAD_SECONDS past them."""
        if all(self._ready.get(f, 0) > now for f in self.pending):
            return []  # each waits for its sound, as the last judgement found it
        peaks = self._noise()
        candidates = np.asarray(sorted({*self.recent[-RECENT:], *self.pending}), dtype=np.int64)
        flux = self._flux_to(candidates)
        onsets = [self._onset(int(f), flux) for f in candidates]
        self._onsets = {int(f): self._onsets[f] for f in candidates if f in self._onsets}
        found = strokes_at(self.samples, candidates, peaks, flux, self.lookahead, onsets)
        out: list[Heard] = []
        merge = round(MERGE_SECONDS * self.rate)
        waiting: list[int] = []
        for frame in self.pending:
            centre = round(frame * self.hop)
            near = [
                k
                for k, s in enumerate(found.starts)
                if centre - self.reach - merge <= s <= centre + self.reach
            ]
            mine = [
                k
                for k in near
                if all(abs(int(found.starts[k]) - t) >= merge for t in self.told[-RECENT:])
            ]
            if not near and centre + self.reach + self.size > now:
                # a stroke starting as late as this frame reaches is not all heard yet, and
                # strokes_at finds none it cannot judge whole (a first stroke a few ms into
                # the take): look again at the next probe, rather than let it go until the
                # lines are settled
                waiting.append(frame)
                self._ready[frame] = now + 1
                continue
            if not mine:
                self._done.add(frame)
                continue  # not a stroke, or one already told
            k = mine[0]
            start = int(found.starts[k])
            if start + self.size > now:
                waiting.append(frame)  # its sound is not all heard yet
                self._ready[frame] = start + self.size
                continue
            out.append(self._line(found, k, now))
            self.recent.append(frame)
            self._done.add(frame)
        self.pending = waiting
        self._done = {f for f in self._done if f > self.judged - 2 * self.again}
        self._ready = {f: self._ready[f] for f in waiting if f in self._ready}
        return out

    def _onset(self, frame: int, flux: np.ndarray) -> Onset:
        """A candidate's onset as strokes_at first judges it, kept once what it reads is heard
        for good (its sound heard, its flux no longer looked at afresh): the strokes told
        before a new one are weighed with it at each look, and not read again."""
        kept = self._onsets.get(frame)
        if kept is not None:
            return kept
        onset, heard, read = onset_at(self.samples, frame, flux, self.lookahead)
        if heard <= self.samples.frames and read <= self.fixed:
            self._onsets[frame] = onset
        return onset

    def _whole(self) -> np.ndarray:
        """The spectral flux of the whole take's envelope so far (lagging by its resampler's
        delay): the flux check reads."""
        new = self.envelope.flux[self._whole_parts :]
        if new:
            self._whole_flux = np.concatenate([self._whole_flux, *new])
            self._whole_parts += len(new)
        return self._whole_flux

    def _settle(self, whole: np.ndarray, until: int, now: int) -> list[Heard]:
        """The strokes from `settled` to `until` as check tells them (its candidates in the
        whole take's flux, `whole`, with the typical stroke height of the flux so far; strokes_at
        reading as far as it reads), against the lines told for them: a Heard for each line
        that moves (a flam's main stroke), goes, or comes."""
        frame_of = 1.0 / self.hop
        done = self._tops_to
        ends = len(whole) - self.context
        new = peak_tops(whole[max(0, done - self.context) : ends])
        new += max(0, done - self.context)
        new = new[new >= done]
        self._tops_seen = np.concatenate([self._tops_seen, whole[new]])
        self._tops_to = ends
        if len(self._tops_seen) == 0:
            self.settled = until
            return []
        height = float(np.percentile(self._tops_seen, 90))
        lo = max(0, int((self.settled - self.history) * frame_of))
        hi = int((until + self.margin) * frame_of) + 1
        cut = max(0, lo - self.context - self.around)
        frames = pick_peaks(whole[cut:], height) + cut
        frames = frames[(frames >= lo) & (frames <= hi)]
        # the height is that of the take so far, not yet of the whole take: a line is withdrawn
        # only when no stroke stands there with half of it either
        lenient = pick_peaks(whole[cut:], height / 2) + cut
        lenient = lenient[(lenient >= lo) & (lenient <= hi)]
        out = self._reconcile(frames, whole, until, now, lenient)
        self.settled = until
        return out

    def _reconcile(
        self, frames: np.ndarray, whole: np.ndarray, until: int, now: int, lenient: np.ndarray
    ) -> list[Heard]:
        """Check's strokes found from candidate `frames`, against the lines told before `until`
        and not yet settled; a line no stroke is found for is withdrawn unless one is from
        the `lenient` candidates."""
        out: list[Heard] = []
        if len(frames):
            found = strokes_at(self.samples, frames, self._noise(), whole)
        else:
            found = Found(np.zeros(0, np.int64), np.zeros((0, BANDS)))
        ours = [
            k
            for k, s in enumerate(found.starts)
            if s >= self.settled - self.merge
            and int(s) not in self._sure
            and (s < until or any(abs(int(s) - t) < self.merge for t in self.told if t < until))
        ]
        # (a line spared before stays as it is told until the take ends)
        lines = [
            t for t in self.told if self.settled - self.merge <= t < until and t not in self._sure
        ]
        for k in ours:
            start = int(found.starts[k])
            near = [t for t in lines if abs(t - start) < self.merge]
            if near:
                was = min(near, key=lambda t: abs(t - start))
                lines.remove(was)
                if (
                    was == start
                ):  # where it was told; its drum as the strokes since tell it, and whether a flam
                    self._sure.add(start)
                    line = self._lines[start].stroke
                    drum, doubtful = self._again(start) or (line.drum, line.doubtful)
                    grace = float(found.graces[k]) * 1000 if len(found.graces) else 0.0
                    if (drum, doubtful, grace) != (line.drum, line.doubtful, line.grace_ms):
                        stroke = replace(line, drum=drum, doubtful=doubtful, grace_ms=grace)
                        self._lines[start] = Heard(stroke, now, line.time)
                        out.append(self._lines[start])
                    continue
                old = self._lines.pop(was)
                self.told.remove(was)
                self._strokes.pop(was, None)
                out.append(self._line(found, k, now, old.stroke.time))
            elif start < until:
                out.append(self._line(found, k, now))
            else:
                continue
            self._sure.add(start)
        if lines and len(lenient):
            spare = strokes_at(self.samples, lenient, self._noise(), whole).starts
            lines = [t for t in lines if not np.any(np.abs(spare - t) < self.merge)]
        for was in lines:  # told, and no stroke of check's
            old = self._lines.pop(was)
            self.told.remove(was)
            self._strokes.pop(was, None)
            out.append(Heard(old.stroke, now, old.stroke.time, withdrawn=True))
        return out

    def _line(self, found: Found, k: int, now: int, revises: float | None = None) -> Heard:
        """The line for stroke `k` of those found, told once `now` samples are heard."""
        start = int(found.starts[k])
        drum, doubtful, count = self._drum(start, found.bands[k : k + 1])
        grace = float(found.graces[k]) * 1000 if len(found.graces) else 0.0
        stroke = HeardStroke(start / self.rate, drum, doubtful, count, grace)
        heard = Heard(stroke, now, revises)
        bisect.insort(self.told, start)
        self._lines[start] = heard
        return heard

    def _noise(self) -> np.ndarray:
        """The peaks of the take's 10 ms stretches so far (its noise floor)."""
        new = self.envelope.peaks[self._peak_parts :]
        if new:  # joined as they come, not all again at each look
            self._peaks = np.concatenate([self._peaks, *new])
            self._peak_parts += len(new)
        return self._peaks

    def _drum(self, start: int, bands: np.ndarray) -> tuple[Drum, bool, bool]:
        """A new stroke's drum as tell_drums tells it among the strokes heard so far: by the
        kit (by_kit) while they sound like it, else by two groups of their own sound
        (by_groups); and whether it sounds like the count sound (like_count)."""
        if self._kit_bands is None:
            drums, known = kit_bands(self.kit, self.rate)
            known = shapes(known)
            count: np.ndarray | None = None
            if self.count_sound:
                sounds, mixed_drums, mixed = count_bands(self.kit, self.rate, self.click_velocity)
                drums = drums + mixed_drums
                known = np.concatenate([known, shapes(mixed)])
                count = shapes(sounds)
            self._kit_bands = (drums, known, count)
        drums, known, count = self._kit_bands
        heard = shapes(bands)
        counted = count is not None and bool(like_count(heard, known, count)[0])
        named, doubtful, nearest = by_kit(heard, drums, known)
        if not counted:
            self._strokes[start] = (bands[0], float(nearest[0]))
        if counted or not self._strokes:
            return named[0], doubtful[0], counted
        distance = float(np.median([d for _b, d in self._strokes.values()]))
        if self.drums == "kit" and distance <= KIT_DISTANCE_DB:
            return named[0], doubtful[0], False
        every = np.asarray([b for b, _d in self._strokes.values()])
        some, unsure, _notes, _apart = by_groups(shapes(every), every, self.rate)
        return some[-1], unsure[-1], False

    def _again(self, start: int) -> tuple[Drum, bool] | None:
        """The drum of the stroke told at `start` as the strokes heard since tell it (None: it
        sounded like the count sound)."""
        if start not in self._strokes or self._kit_bands is None:
            return None
        drums, known, _count = self._kit_bands
        distance = float(np.median([d for _b, d in self._strokes.values()]))
        if self.drums == "kit" and distance <= KIT_DISTANCE_DB:
            heard = shapes(self._strokes[start][0][None, :])
            named, doubtful, _nearest = by_kit(heard, drums, known)
            return named[0], doubtful[0]
        every = np.asarray([b for b, _d in self._strokes.values()])
        some, unsure, _notes, _apart = by_groups(shapes(every), every, self.rate)
        k = list(self._strokes).index(start)
        return some[k], unsure[k]

    def finish(self) -> Performance:
        """The take's strokes as `check` finds them in its recording: the whole envelope's peaks,
        each stroke to the sample, the drums told over them all. The lines told are brought to
        them (`ended`: a Heard for each line that moves, goes, comes or changes its drum)."""
        flux, peaks = self.envelope.finish()
        candidates = pick_peaks(flux)
        found = (
            strokes_at(self.samples, candidates, peaks, flux)
            if len(candidates)
            else Found(np.zeros(0, np.int64), np.zeros((0, 1)))
        )
        try:
            performance = performance_of(
                found,
                self.source,
                self.rate,
                self.samples.frames,
                self.kit,
                self.drums,
                self.count_sound,
                self.click_velocity,
            )
        except PerformanceError:
            self.ended = self._final(())
            raise
        self.ended = self._final(performance.strokes)
        return performance

    def _final(self, strokes: tuple[HeardStroke, ...]) -> list[Heard]:
        """The lines told brought to check's `strokes` of the whole take."""
        now = self.samples.frames
        lines = sorted(self._lines)
        out: list[Heard] = []
        for stroke in strokes:
            start = round(stroke.time * self.rate)
            near = [t for t in lines if abs(t - start) < self.merge]
            if not near:
                out.append(Heard(stroke, now))
                continue
            was = min(near, key=lambda t: abs(t - start))
            lines.remove(was)
            old = self._lines[was].stroke
            if old != stroke:
                out.append(Heard(stroke, now, old.time))
        out += [Heard(self._lines[t].stroke, now, self._lines[t].stroke.time, True) for t in lines]
        return out
