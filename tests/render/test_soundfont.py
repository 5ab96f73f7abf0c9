"""SoundFont rendering through FluidSynth, against Debian's fluid-soundfont-gm."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
import soundfile as sf
from system_tools import SOUNDFONT

from drumscore.conductor.expression import Expression
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.corpus import resolve
from drumscore.files.audio import stream_audio
from drumscore.model import Drum
from drumscore.render.midimap import MidiMap
from drumscore.render.soundfont import SoundFontError, check_soundfont, render_blocks, strikes
from drumscore.timing import Tempo

GM = SOUNDFONT


def test_strikes_follow_the_timeline():
    tl = arrange(resolve("lu"), tempo=Tempo.from_bpm("37.3"), expression=Expression(40, 100))
    found = strikes(tl, 44100, MidiMap(pi_note=60, gu_note=36))
    events = list(Track.single(tl).hits(44100))
    exact = [Fraction(k * 60 * 44100) / Fraction("37.3") for k in range(len(events))]
    assert [s.frame for s in found] == [int(x + Fraction(1, 2)) for x in exact]
    assert [s.note for s in found] == [60 if e.drum is Drum.PI else 36 for e in events]
    assert [s.velocity for s in found] == [40 if e.drum is Drum.PI else 100 for e in events]


@pytest.mark.requires("fluidsynth", "soundfont")
def test_pi_sounds_lower_than_gu_through_the_general_midi_map():
    def fundamental(symbol: str) -> float:
        _, blocks = render_blocks(arrange(resolve(symbol)), GM, 22050, normalize=False)
        mono = np.concatenate(list(blocks))[:22050, 0]
        spectrum, hz = np.abs(np.fft.rfft(mono)), np.fft.rfftfreq(len(mono), 1 / 22050)
        drum_range = (hz > 30) & (hz < 300)
        return float(hz[drum_range][np.argmax(spectrum[drum_range])])

    pi, gu = fundamental("○"), fundamental("□")
    assert pi < gu * 0.85, (pi, gu)  # 鼙 其聲下, as the built-in kit plays it


@pytest.mark.requires("fluidsynth", "soundfont")
def test_renders_through_the_real_synthesiser(tmp_path):
    rate = 44100
    tl = arrange(resolve("lu"), tempo=Tempo.from_bpm(120))
    frames, blocks = render_blocks(tl, GM, rate)
    out = tmp_path / "sf.wav"
    stream_audio(out, blocks, rate, frames, "FLOAT")
    audio, file_rate = sf.read(str(out), dtype="float32", always_2d=True)
    assert file_rate == rate and audio.shape[1] == 2
    assert len(audio) <= frames
    level = np.abs(audio).max(axis=1)
    assert level.max() > 0.05
    for event in Track.single(tl).hits(44100):
        onset = tl.tempo.onset_sample(event.k, rate)
        # FluidSynth starts a note on its next 64-frame step, and the attack follows.
        before = level[max(0, onset - 4000) : onset]
        after = level[onset : onset + 1500]
        assert after.max() > 0.02, event
        assert event.k == 0 or after.max() > 2 * np.median(before), event


@pytest.mark.requires("fluidsynth", "soundfont")
def test_velocity_changes_the_level(tmp_path):
    levels = []
    for velocity in (30, 127):
        tl = arrange(resolve("□"), expression=Expression(gu_velocity=velocity))
        _, blocks = render_blocks(tl, GM, 22050, normalize=False)  # one stroke: its own level
        levels.append(max(float(np.abs(b).max()) for b in blocks))
    assert levels[1] > 2 * levels[0]


# --- bad input -------------------------------------------------------------------------------


def test_missing_soundfont(tmp_path):
    with pytest.raises(SoundFontError, match="does not exist"):
        check_soundfont(tmp_path / "none.sf2")


def test_not_a_soundfont(tmp_path):
    bad = tmp_path / "bad.sf2"
    bad.write_bytes(b"RIFF\0\0\0\0WAVEjunk")
    with pytest.raises(SoundFontError, match="not a SoundFont"):
        check_soundfont(bad)


def test_rate_out_of_fluidsynths_range():
    tl = arrange(resolve("lu"))
    with pytest.raises(SoundFontError, match="192000"):
        render_blocks(tl, GM, 192000)


@pytest.mark.requires("fluidsynth", "soundfont")
def test_a_truncated_soundfont_is_one_line_without_fluidsynths_own_messages(tmp_path, capfd):
    cut = tmp_path / "cut.sf2"
    cut.write_bytes(GM.read_bytes()[:64])  # a SoundFont header and nothing else
    with pytest.raises(SoundFontError, match="cannot load a drum kit") as err:
        render_blocks(arrange(resolve("lu")), cut, 44100)
    assert "FluidR3_GM.sf2" in str(err.value)  # it says what to use instead
    assert capfd.readouterr().err == ""


@pytest.mark.requires("fluidsynth", "soundfont")
def test_the_soundfont_render_is_peak_normalised_like_the_kit():
    from drumscore.render.mix import PEAK_DBFS

    timeline = arrange(resolve("xue"), "touhu", Tempo.from_bpm(120))
    _, normal = render_blocks(timeline, GM, 22050)
    _, raw = render_blocks(timeline, GM, 22050, normalize=False)
    normal = np.concatenate([b.copy() for b in normal])
    raw = np.concatenate([b.copy() for b in raw])
    assert 20 * np.log10(np.abs(normal).max()) == pytest.approx(PEAK_DBFS, abs=0.01)
    assert 20 * np.log10(np.abs(raw).max()) < PEAK_DBFS - 6  # FluidSynth's own level is lower
    # the same performance, only louder: one gain throughout
    loud = np.abs(raw) > 1e-3
    ratio = normal[loud] / raw[loud]
    assert np.allclose(ratio, ratio[0], rtol=1e-5) and ratio[0] > 1


_SAMPLES_AFTER_RAND = """
import ctypes, hashlib, sys
import numpy as np
if sys.argv[2] == "rand":  # what another library may do before the first synthesiser is made
    libc = ctypes.CDLL(None)
    libc.srand(987)
    for _ in range(5):
        libc.rand()
from drumscore.conductor.timeline import arrange
from drumscore.corpus import resolve
from drumscore.render.soundfont import render_blocks
_, blocks = render_blocks(arrange(resolve("○□○")), sys.argv[1], 8000)
print(hashlib.sha256(np.concatenate(list(blocks)).tobytes()).hexdigest())
"""


@pytest.mark.requires("fluidsynth", "soundfont")
def test_the_samples_are_the_same_whatever_the_process_did_before():
    """FluidSynth's 16-bit output is dithered from a table filled by the C library's rand() when
    the first synthesiser is made; the render reads floats, so calls to rand() before change
    nothing."""
    import subprocess
    import sys

    hashes = {
        mode: subprocess.run(
            [sys.executable, "-c", _SAMPLES_AFTER_RAND, str(GM), mode],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        for mode in ("plain", "rand")
    }
    assert len(hashes["plain"]) == 64
    assert hashes["plain"] == hashes["rand"]
