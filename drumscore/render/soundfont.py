"""Rendering through a SoundFont with FluidSynth (pyfluidsynth and libfluidsynth3), in blocks.

The strokes are played on the General MIDI percussion channel with the notes of the MIDI
mapping, at the same sample onsets and velocities as the kit renderer and the MIDI file.

The samples are read as floats (fluid_synth_write_float), never as 16-bit: FluidSynth dithers
16-bit output from a table it fills once per process from the C library's rand(), so whatever
called rand() before (another library, another test) changed every sample. Float output has no
dither, so the same events give the same samples in every process.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import Track, as_track
from drumscore.errors import DrumscoreError, InputMissingError, SoundFontError, require
from drumscore.files.cstderr import captured
from drumscore.files.reading import open_input
from drumscore.i18n import _, aside, clause_text
from drumscore.render.midimap import PERCUSSION_CHANNEL, MidiMap

if TYPE_CHECKING:
    import fluidsynth
    import numpy as np

#: FluidSynth's master gain: its default (0.2) leaves GM drums some 15 dB below full scale.
SYNTH_GAIN = 0.5
#: The longest ring-out after the last stroke, in seconds (reverb tail included).
MAX_TAIL = 5.0
#: The sample rates FluidSynth accepts.
SYNTH_MIN_RATE, SYNTH_MAX_RATE = 8000, 96000
#: Drum kits live in bank 128 of a General MIDI SoundFont.
DRUM_BANK = 128


@dataclass(frozen=True)
class Strike:
    """A note-on at a sample frame, and the frame of its note-off."""

    frame: int
    note: int
    velocity: int
    off: int


def strikes(played: Timeline | Track, rate: int, midimap: MidiMap | None = None) -> list[Strike]:
    """Where each hit of a track (or one score's timeline) starts, in frames, as the kit renderer
    places it (conductor.track's conductor); its note (count strokes on the count note), its
    velocity, and its note-off half a beat later."""
    midimap = midimap or MidiMap()
    found = []
    for hit in as_track(played).hits(rate):
        if hit.muted:
            continue
        note = midimap.hit_note(hit.drum)
        off = hit.frame + hit.note_frames(rate)
        found.append(Strike(hit.frame, note, hit.velocity, off))
    found.sort(key=lambda s: s.frame)
    return found


def check_soundfont(path: str | Path) -> Path:
    """The path of a readable SoundFont 2 file (RIFF 'sfbk'), or a SoundFontError."""
    path = Path(path)
    try:
        with open_input(path, "SoundFont") as f:
            head = f.read(12)
    except InputMissingError as exc:
        hint = _("on Debian, apt install fluid-soundfont-gm gives {path}")
        raise SoundFontError(
            clause_text([str(exc), hint.format(path="/usr/share/sounds/sf2/FluidR3_GM.sf2")])
        ) from None
    except OSError as exc:
        if isinstance(exc, DrumscoreError):
            raise
        raise SoundFontError(
            _("SoundFont {path!r} cannot be read: {reason}").format(
                path=str(path), reason=exc.strerror
            )
        ) from None
    if len(head) < 12 or head[:4] != b"RIFF" or head[8:12] != b"sfbk":
        raise SoundFontError(_("{path!r} is not a SoundFont 2 (.sf2) file").format(path=str(path)))
    return path


def _rate_message(rate: int) -> str:
    return _(
        "rate {rate} Hz is outside what FluidSynth renders, {low} to {high} Hz; choose another rate"
    ).format(rate=rate, low=SYNTH_MIN_RATE, high=SYNTH_MAX_RATE)


def _fluidsynth() -> ModuleType:
    return require(
        "fluidsynth",
        extra="soundfont",
        debian="libfluidsynth3",
        needed=_("soundfont needs FluidSynth"),
        option="soundfont",
    )


def render_blocks(
    played: Timeline | Track,
    soundfont: str | Path,
    rate: int,
    midimap: MidiMap | None = None,
    block_frames: int = 1 << 16,
    normalize: bool = True,
) -> tuple[int, Iterator]:
    """(most frames, blocks): float32 stereo blocks of the track played by FluidSynth.

    The synthesiser is made (and the SoundFont loaded) here, before any block is asked for.
    With `normalize` (the default) the render is peak-normalised like the kit's, to PEAK_DBFS: it is
    played twice, once to find its peak and once to write it (FluidSynth plays the same events
    to the same samples), so it streams in blocks however long it is.
    """
    if not SYNTH_MIN_RATE <= rate <= SYNTH_MAX_RATE:
        raise SoundFontError(_rate_message(rate), option="rate")
    synth = open_synth(soundfont, rate)
    plan = strikes(played, rate, midimap)
    tail = int(MAX_TAIL * rate)
    most = (plan[-1].off if plan else 0) + tail
    if not normalize:
        return most, _blocks(synth, plan, rate, block_frames, tail)
    highest = 0.0
    for block in _blocks(synth, plan, rate, block_frames, tail):
        highest = max(highest, float(abs(block).max(initial=0.0)))
    return most, _scaled(open_synth(soundfont, rate), plan, rate, block_frames, tail, highest)


def _scaled(
    synth: fluidsynth.Synth,
    plan: list[Strike],
    rate: int,
    block_frames: int,
    tail: int,
    highest: float,
) -> Iterator:
    from drumscore.render.mix import gain_for  # render.mix imports numpy

    gain = gain_for(highest)
    for block in _blocks(synth, plan, rate, block_frames, tail):
        yield block * gain


def open_synth(soundfont: str | Path, rate: int) -> fluidsynth.Synth:
    """A FluidSynth synthesiser at `rate`, the SoundFont's drum kit on the percussion channel."""
    if not SYNTH_MIN_RATE <= rate <= SYNTH_MAX_RATE:
        raise SoundFontError(_rate_message(rate), option="rate")
    path = check_soundfont(soundfont)
    fluidsynth = _fluidsynth()
    with captured() as said:
        synth = fluidsynth.Synth(gain=SYNTH_GAIN, samplerate=float(rate))
        sfid = synth.sfload(str(path))
        selected = sfid >= 0 and synth.program_select(PERCUSSION_CHANNEL, sfid, DRUM_BANK, 0) == 0
    if not selected:
        synth.delete()
        why = aside("", said[-1].strip()) if said else ""  # " (…)", in Chinese "（…）"
        raise SoundFontError(
            _(
                "FluidSynth cannot load a drum kit from SoundFont {path!r}{why}; give a General "
                "MIDI SoundFont 2 file such as /usr/share/sounds/sf2/FluidR3_GM.sf2"
            ).format(path=str(path), why=why)
        )
    return synth


def synth_samples(synth: fluidsynth.Synth, frames: int) -> np.ndarray:
    """The next `frames` frames of `synth`, float32 stereo (frames, 2), undithered: the same
    in every process (the module's docstring says why not pyfluidsynth's 16-bit get_samples)."""
    import ctypes

    import numpy as np

    out = np.zeros((frames, 2), np.float32)
    if frames > 0:
        where = out.ctypes.data_as(ctypes.c_void_p)
        _write_float()(synth.synth, frames, where, 0, 2, where, 1, 2)
    return out


@functools.cache
def _write_float() -> Any:
    """libfluidsynth's fluid_synth_write_float, as pyfluidsynth's own functions are declared."""
    import ctypes

    fluidsynth = _fluidsynth()
    return fluidsynth.cfunc(
        "fluid_synth_write_float",
        ctypes.c_int,
        ("synth", ctypes.c_void_p, 1),
        ("len", ctypes.c_int, 1),
        ("lout", ctypes.c_void_p, 1),
        ("loff", ctypes.c_int, 1),
        ("lincr", ctypes.c_int, 1),
        ("rout", ctypes.c_void_p, 1),
        ("roff", ctypes.c_int, 1),
        ("rincr", ctypes.c_int, 1),
    )


def _blocks(
    synth: fluidsynth.Synth, plan: list[Strike], rate: int, block_frames: int, tail: int
) -> Iterator:
    # Note-ons and note-offs in frame order; FluidSynth starts each at its next 64-frame step.
    todo = sorted(
        [(s.frame, 1, s.note, s.velocity) for s in plan] + [(s.off, 0, s.note, 0) for s in plan]
    )
    now = 0

    def run(frames: int) -> Iterator:
        nonlocal now
        while frames > 0:
            n = min(frames, block_frames)
            out = synth_samples(synth, n)
            now += n
            frames -= n
            yield out

    try:
        for frame, on, note, velocity in todo:
            yield from run(frame - now)
            if on:
                synth.noteon(PERCUSSION_CHANNEL, note, velocity)
            else:
                synth.noteoff(PERCUSSION_CHANNEL, note)
        end = now + tail
        step = rate // 10
        while now < end:
            yield from run(min(step, end - now))
            if synth.get_active_voice_count() == 0:
                yield from run(min(rate // 2, end - now))  # the reverb's own tail
                break
    finally:
        synth.delete()
