"""16-bit audio written from float blocks, piece by piece: read back, every frame as given."""

from __future__ import annotations

import numpy as np
import pytest

from drumscore.files.audio import PCM16_FRAMES, stream_audio, write_audio

sf = pytest.importorskip("soundfile")


def test_blocks_longer_and_shorter_than_a_piece_are_written_frame_for_frame(tmp_path):
    frames = 2 * PCM16_FRAMES + 123  # across two piece boundaries, then a short block
    ramp = (np.arange(frames) % 60000 - 30000).astype(np.float32) / np.float32(32767)
    stereo = np.stack([ramp, -ramp], axis=1)
    path = tmp_path / "ramp.wav"
    stream_audio(path, [stereo, stereo[:5]], 44100, frames + 5, "PCM_16")
    back, rate = sf.read(path, dtype="int16")
    assert rate == 44100 and back.shape == (frames + 5, 2)
    expected = np.arange(frames) % 60000 - 30000
    assert np.array_equal(back[:frames, 0], expected)
    assert np.array_equal(back[:frames, 1], -expected)
    assert np.array_equal(back[frames:], back[:5])


def test_samples_are_rounded_half_to_even_and_clipped(tmp_path):
    given = np.array([1.0, -1.0, 2.0, -2.0, 0.5, 1.5, 2.5, -0.5, -1.5], dtype=np.float64)
    given[4:] /= 32767
    path = tmp_path / "mono.wav"
    write_audio(path, given, 8000, "PCM_16")
    back, _ = sf.read(path, dtype="int16")
    assert back.tolist() == [32767, -32767, 32767, -32768, 0, 2, 2, 0, -2]


def _gsm_take(path, seconds=3.0):
    """A GSM 6.10 WAV (8 kHz mono, what phones and old recorders write): a click a second."""
    rate = 8000
    frames = np.zeros(int(rate * seconds), np.float32)
    for start in range(0, len(frames), rate):
        frames[start : start + 400] = (
            0.6 * np.sin(np.arange(400) / 3) * np.exp(-np.arange(400) / 80)
        )
    sf.write(path, frames, rate, format="WAV", subtype="GSM610")
    return path


def test_a_recording_libsndfile_cannot_seek_in_is_read_through_a_seekable_copy(tmp_path):
    from drumscore.files.audio import seekable

    take = _gsm_take(tmp_path / "take.wav")
    forwards, _ = sf.read(take, dtype="float32", always_2d=True)  # reading forwards works
    with sf.SoundFile(take) as audio:
        assert not audio.seekable()  # the case: GSM 6.10 refuses a seek
        with seekable(audio) as passes:
            assert passes.seekable() and passes.frames == len(forwards)
            assert (passes.samplerate, passes.channels) == (8000, 1)
            passes.seek(len(forwards) // 2)  # the second pass starts anywhere
            second = passes.read(dtype="float32", always_2d=True)
            passes.seek(0)
            first = passes.read(dtype="float32", always_2d=True)
    assert np.array_equal(first, forwards)
    assert np.array_equal(second, forwards[len(forwards) // 2 :])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["take.wav"]  # the copy had no name


def test_a_seekable_recording_is_read_as_it_is(tmp_path):
    from drumscore.files.audio import seekable

    path = tmp_path / "pcm.wav"
    sf.write(path, np.zeros(100, np.float32), 8000)
    with sf.SoundFile(path) as audio, seekable(audio) as passes:
        assert passes is audio
