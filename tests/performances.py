"""Performances made for tests: the built-in kit's own samples (render/samples/pi.wav and
gu.wav) or MIDI notes (mido) placed at known times, with strokes left out, added or played on
the other drum."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import soundfile as sf

from drumscore.model import Drum
from drumscore.render.midimap import MidiMap

#: The project's own map, 鼙 then 鼓, as check reads a MIDI file by default.
DEFAULT_NOTES = (MidiMap().pi_note, MidiMap().gu_note)

SAMPLES = Path(__file__).resolve().parents[1] / "drumscore" / "render" / "samples"
OTHER = {Drum.PI: Drum.GU, Drum.GU: Drum.PI}


@dataclass
class Take:
    """A performance of `drums` at `interval` s from `start`, each stroke `offsets[k]` s off the
    beat; `missed` strokes (indices from 0) left out, `wrong` ones played on the other drum,
    and `extra` strokes (time, drum) added. `offsets` have no mean and no trend over the
    played strokes, so the even beat that fits them best is the one they were made on."""

    drums: list[Drum]
    interval: float
    offsets: np.ndarray
    start: float = 0.5
    missed: set[int] = field(default_factory=set)
    wrong: set[int] = field(default_factory=set)
    extra: list[tuple[float, Drum]] = field(default_factory=list)

    @property
    def played(self) -> list[int]:
        return [k for k in range(len(self.drums)) if k not in self.missed]

    def time(self, k: float) -> float:
        """Time of beat k (from 0) on the even beat."""
        return self.start + k * self.interval

    def strokes(self) -> list[tuple[float, Drum]]:
        """(time, drum) of every stroke played, in time order."""
        out = [
            (self.time(k) + float(self.offsets[k]), OTHER[d] if k in self.wrong else d)
            for k, d in enumerate(self.drums)
            if k not in self.missed
        ]
        return sorted(out + self.extra, key=lambda s: s[0])


def take(
    drums: list[Drum],
    bpm: float,
    *,
    spread_ms: float = 25.0,
    seed: int = 1,
    missed=(),
    wrong=(),
    extra=(),
) -> Take:
    """A take with random offsets of up to about ±spread_ms, made free of mean and trend over
    the strokes played (so the fitted beat is the one they were placed on). `extra` gives beat
    positions (such as 7.5) and drums of strokes the score does not have."""
    interval = 60 / bpm
    rng = np.random.default_rng(seed)
    offsets = rng.uniform(-spread_ms, spread_ms, len(drums)) / 1000
    played = [k for k in range(len(drums)) if k not in set(missed)]
    design = np.vstack([np.ones(len(drums)), np.arange(len(drums))]).T
    fit = np.linalg.lstsq(design[played], offsets[played], rcond=None)[0]
    offsets = offsets - design @ fit
    t = Take(list(drums), interval, offsets, missed=set(missed), wrong=set(wrong))
    t.extra = [(t.time(beat), drum) for beat, drum in extra]
    return t


def kit_sample(drum: Drum) -> np.ndarray:
    data, _ = sf.read(SAMPLES / f"{drum.pinyin}.wav", dtype="float32", always_2d=True)
    return data


def write_audio(path: Path, t: Take, rate: int = 44100) -> Path:
    """The take as a stereo WAV of the kit's samples, each placed at the nearest sample."""
    sounds = {d: kit_sample(d) for d in Drum}
    strokes = t.strokes()
    length = round(strokes[-1][0] * rate) + len(sounds[Drum.GU]) + rate // 2
    audio = np.zeros((length, 2), dtype=np.float32)
    for time, drum in strokes:
        at = round(time * rate)
        audio[at : at + len(sounds[drum])] += sounds[drum]
    audio *= 0.9 / np.max(np.abs(audio))
    sf.write(path, audio, rate)
    return path


def write_midi(path: Path, t: Take, notes=DEFAULT_NOTES, bpm: float = 100.0, others=()) -> Path:
    """The take as a MIDI file of note-ons on channel 10 (notes 鼙, 鼓), at a tempo of its own
    (`bpm` in the file's tempo event, unrelated to the take's); `others` adds (time, note)."""
    import mido

    midi = mido.MidiFile(ticks_per_beat=960)
    track = mido.MidiTrack()
    midi.tracks.append(track)
    tempo = mido.bpm2tempo(bpm)
    track.append(mido.MetaMessage("set_tempo", tempo=tempo))
    events = [(time, notes[0] if d is Drum.PI else notes[1]) for time, d in t.strokes()]
    events = sorted(events + list(others))
    now = 0
    for time, note in events:
        tick = round(mido.second2tick(time, 960, tempo))
        track.append(mido.Message("note_on", channel=9, note=note, velocity=90, time=tick - now))
        track.append(mido.Message("note_off", channel=9, note=note, velocity=0, time=0))
        now = tick
    midi.save(path)
    return path
