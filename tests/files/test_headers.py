"""Headers that lie: recordings and MIDI files whose header fields (rate, channels, frames,
division, tempo, event count, length) cannot be, refused with the field and the file named,
before anything is sized by them or parsed whole."""

from __future__ import annotations

import struct
import time

import numpy as np
import pytest
import soundfile as sf

from drumscore.errors import PerformanceError
from drumscore.files import headers
from drumscore.performance.listen import read_audio
from drumscore.performance.midifile import read_midi


def varlen(n: int) -> bytes:
    out = [n & 0x7F]
    n >>= 7
    while n:
        out.append(0x80 | (n & 0x7F))
        n >>= 7
    return bytes(reversed(out))


def smf(events: bytes, division: int = 480) -> bytes:
    """A format-0 Standard MIDI File of one track holding `events` (end of track added)."""
    track = events + b"\x00\xff\x2f\x00"
    return (
        b"MThd"
        + struct.pack(">IHHH", 6, 0, 1, division)
        + b"MTrk"
        + struct.pack(">I", len(track))
        + track
    )


def notes(count: int, delta: int = 240) -> bytes:
    """`count` note-ons of note 41 (鼙), each with its note-off, `delta` ticks apart."""
    one = varlen(delta) + b"\x99\x29\x64" + varlen(10) + b"\x89\x29\x00"
    return one * count


def write(tmp_path, name: str, data: bytes):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_a_plain_midi_file_passes_the_header_checks(tmp_path):
    performance = read_midi(write(tmp_path, "ok.mid", smf(notes(8))))
    assert len(performance.strokes) == 8
    assert performance.duration == pytest.approx(8 * 250 / 480 * 0.5, abs=0.01)


@pytest.mark.parametrize(
    ("data", "said"),
    [
        (smf(notes(4), division=0), "division is 0 ticks"),
        (smf(notes(4), division=0xE728), "division is SMPTE time code (25 frames a second)"),
        (smf(b"\x00\xff\x51\x03\x00\x00\x00" + notes(4)), "tempo is 0 microseconds a beat"),
        (
            smf(notes(3) + varlen(0x0FFFFFFF) + b"\x99\x29\x64"),
            "lasts 4,660.4 minutes",
        ),  # (0x0FFFFFFF + 750) ticks at 960 a second
    ],
    ids=["division 0", "SMPTE", "tempo 0", "deltas of days"],
)
def test_a_midi_header_that_lies_is_refused_naming_the_field_and_the_file(tmp_path, data, said):
    path = write(tmp_path, "lies.mid", data)
    with pytest.raises(PerformanceError) as info:
        read_midi(path)
    message = str(info.value)
    assert said in message and "lies.mid" in message
    assert "\n" not in message


def test_a_million_notes_are_refused_before_they_are_parsed(tmp_path, monkeypatch):
    import mido

    parsed = []
    monkeypatch.setattr(mido, "MidiFile", lambda *a, **k: parsed.append(1))
    one = b"\x00\x29\x64"  # running status: three bytes a note-on
    data = smf(b"\x00\x99\x29\x64" + one * 1_000_000)
    assert len(data) > 3_000_000
    path = write(tmp_path, "million.mid", data)
    start = time.process_time()
    with pytest.raises(PerformanceError, match=r"more than 250,000 MIDI events"):
        read_midi(path)
    assert time.process_time() - start < 5
    assert parsed == []


def _wav_with(tmp_path, *, rate: int | None = None, channels: int | None = None) -> object:
    """A short WAV, its header then made to say `rate` or `channels`."""
    path = tmp_path / "lies.wav"
    sf.write(path, np.zeros(800, np.int16), 8000, subtype="PCM_16")
    data = bytearray(path.read_bytes())
    assert data[12:16] == b"fmt "
    if rate is not None:
        data[24:28] = struct.pack("<I", rate)
    if channels is not None:
        data[22:24] = struct.pack("<H", channels)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"rate": 2_000_000_000}, "sample rate is 2,000,000,000 Hz"),
        ({"rate": 10}, "sample rate is 10 Hz"),
        ({"channels": 1000}, "channel count is 1,000"),
    ],
)
def test_a_recording_header_that_lies_is_refused_before_it_sizes_anything(tmp_path, fields, said):
    path = _wav_with(tmp_path, **fields)
    with pytest.raises(PerformanceError) as info:
        read_audio(path)
    assert said in str(info.value) and "lies.wav" in str(info.value)


def test_a_pcm_header_with_more_frames_than_bytes_is_refused():
    with pytest.raises(PerformanceError, match="frame count is 10,000,000, more than its"):
        headers.check_audio_header("x.wav", 8000, 2, 10_000_000, ("WAV", "PCM_16"), 1000)
    # compressed: the bytes say nothing of the frames; the length limit still holds
    headers.check_audio_header("x.flac", 8000, 2, 10_000_000, ("FLAC", "PCM_16"), 1000)
    with pytest.raises(PerformanceError, match="over the limit of 180 minutes"):
        headers.check_audio_header("x.flac", 8000, 2, 8000 * 4 * 3600, ("FLAC", "PCM_16"), 1000)
