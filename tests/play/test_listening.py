"""The listener of play --listen: numpy's BLAS held to one thread while it listens, and given
back as it was when it closes; a recorded take opened as check opens one (a regular file under
the limit, its header checked), delivered whole whatever libsndfile can seek in, and heard only
as far as a stopped play went."""

import contextlib
import io
import os
import struct
import threading
import time

import numpy as np
import pytest
import soundfile as sf
from performances import take, write_audio
from threadpoolctl import threadpool_info, threadpool_limits

from drumscore.errors import InputFileError, PerformanceError
from drumscore.model import Drum
from drumscore.play.listening import AudioListener, TakeInput


def _delivered(source: TakeInput) -> np.ndarray:
    return np.concatenate(source.take(float("inf")))


def test_a_gsm_take_is_delivered_whole_as_check_reads_it(tmp_path):
    pcm = write_audio(tmp_path / "take.wav", take([Drum.PI, Drum.GU] * 3, 120, seed=3), 8000)
    data, rate = sf.read(pcm, always_2d=True)
    gsm = tmp_path / "gsm.wav"
    sf.write(gsm, data.mean(axis=1), rate, format="WAV", subtype="GSM610")
    source = TakeInput(str(gsm))
    try:
        heard = _delivered(source)
    finally:
        source.close()
    decoded = sf.read(gsm, dtype="float32")[0]
    assert len(heard) == len(decoded) == sf.info(gsm).frames
    assert np.allclose(heard, decoded, atol=1e-6)


def test_a_fifo_is_refused_at_once_not_waited_on(tmp_path):
    fifo = tmp_path / "take.wav"
    os.mkfifo(fifo)

    def writer() -> None:  # frees a reader that waits on the FIFO, so the test cannot hang
        time.sleep(3)
        with contextlib.suppress(OSError):  # no reader (refused at once): nothing to free
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))

    threading.Thread(target=writer, daemon=True).start()
    start = time.monotonic()
    with pytest.raises(InputFileError, match="not a regular file"):
        TakeInput(str(fifo))
    assert time.monotonic() - start < 2


def test_a_header_of_2_000_000_000_hz_is_refused_before_it_sizes_anything(tmp_path):
    frames = b"\0\0" * 4000
    fmt = struct.pack("<HHIIHH", 1, 1, 2_000_000_000, 4_000_000_000 % 2**32, 2, 16)
    body = b"WAVE" + b"fmt " + struct.pack("<I", 16) + fmt
    body += b"data" + struct.pack("<I", len(frames)) + frames
    path = tmp_path / "lies.wav"
    path.write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    with pytest.raises(PerformanceError, match="sample rate"):
        TakeInput(str(path))


def test_a_takes_rest_after_the_score_is_read_as_check_reads_it_not_probed_step_by_step(
    tmp_path, monkeypatch
):
    """A take far longer than the score: what is left when the score ends is kept for check's
    reading at once, not probed every few milliseconds as a live line would be (a ten-minute
    take took minutes so)."""
    from drumscore.performance import stream
    from drumscore.performance.listen import read_audio
    from drumscore.play.listening import AudioListener

    drums = [Drum.PI, Drum.GU, Drum.PI, Drum.PI, Drum.GU, Drum.GU]
    path = write_audio(tmp_path / "take.wav", take(drums, 120, seed=4, spread_ms=10), 16000)
    data, rate = sf.read(path, always_2d=True)
    longer = np.concatenate([data, np.zeros((rate * 12, data.shape[1]))])  # four times the score
    sf.write(path, longer, rate, subtype="PCM_16")
    probes = []
    made = stream.Listener._probe
    monkeypatch.setattr(
        stream.Listener, "_probe", lambda self, now: probes.append(now) or made(self, now)
    )
    with AudioListener(str(path)) as listener:
        listener.begin()
        listener.catch_up()  # the score ended at once: nothing sounded yet
        heard = listener.finish()
    assert probes == []
    checked = read_audio(path)
    assert [s.drum for s in heard.strokes] == [s.drum for s in checked.strokes] == drums
    assert [s.time for s in heard.strokes] == [s.time for s in checked.strokes]


def test_a_take_stopped_ends_where_it_was_heard_to(tmp_path):
    """Ctrl-C, q or Esc before the score's end: the take ends there, as a microphone's would;
    its rest is neither checked nor recorded."""
    from drumscore.performance.listen import read_audio
    from drumscore.play.listening import AudioListener

    drums = [Drum.PI, Drum.GU] * 4
    path = write_audio(tmp_path / "take.wav", take(drums, 120, seed=6, spread_ms=5), 16000)
    now = [0.0]
    with AudioListener(str(path), clock=lambda: now[0], sleep=lambda s: None) as listener:
        listener.begin()
        now[0] = 2.3  # four strokes sounded (0.5, 1, 1.5, 2 s), and most of a beat after
        listener.catch_up()
        listener.stop()
        heard = listener.finish()
        recorded = listener.recording("WAV")
    frames = sf.info(io.BytesIO(recorded)).frames
    assert frames == listener.listener.samples.frames < 2.5 * 16000
    data, rate = sf.read(path, always_2d=True)
    sf.write(tmp_path / "cut.wav", data[:frames], rate)  # the take as far as it was heard
    checked = read_audio(tmp_path / "cut.wav")
    assert len(heard.strokes) == len(checked.strokes) < len(drums)
    assert [s.time for s in heard.strokes] == [s.time for s in checked.strokes]


def test_a_noisy_take_is_refused_as_check_refuses_it(tmp_path):
    """The same take, too noisy to judge: play --listen says so with its SNR, as check does, not
    that it holds no strokes."""
    from drumscore.errors import NoisyPerformanceError
    from drumscore.performance.listen import read_audio
    from drumscore.play.listening import AudioListener

    path = write_audio(tmp_path / "take.wav", take([Drum.PI, Drum.GU] * 3, 240, seed=7))
    data, rate = sf.read(path, always_2d=True)
    noise = np.random.default_rng(7).normal(0, 0.05, data.shape)
    sf.write(path, np.clip(data * 0.3 + noise, -1, 1), rate)
    with pytest.raises(NoisyPerformanceError) as checked:
        read_audio(path)
    with AudioListener(str(path)) as listener, pytest.raises(NoisyPerformanceError) as heard:
        listener.finish()
    assert heard.value.snr_db == pytest.approx(checked.value.snr_db)
    assert heard.value.lost == checked.value.lost >= 2
    assert "dB" in str(heard.value)


def blas_threads() -> set[int]:
    return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}


def test_listening_holds_blas_to_one_thread_and_gives_it_back(tmp_path):
    path = write_audio(tmp_path / "take.wav", take([Drum.PI, Drum.GU], 120))
    with threadpool_limits(limits=2, user_api="blas"):
        assert blas_threads() == {2}
        with AudioListener(str(path)):
            assert blas_threads() == {1}
        assert blas_threads() == {2}


def test_listening_lets_the_inputs_thread_have_the_interpreter_soon_and_gives_it_back(tmp_path):
    """A sound card's callback (PortAudio's thread) waits for the interpreter's lock while the
    listener computes: at most half a millisecond while listening, Python's own after."""
    import sys

    path = write_audio(tmp_path / "take.wav", take([Drum.PI, Drum.GU], 120))
    before = sys.getswitchinterval()
    with AudioListener(str(path)):
        assert sys.getswitchinterval() == pytest.approx(0.0005)
    assert sys.getswitchinterval() == before
