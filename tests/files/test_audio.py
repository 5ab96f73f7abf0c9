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
