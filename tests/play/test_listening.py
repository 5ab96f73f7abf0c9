"""The listener of play --listen: numpy's BLAS held to one thread while it listens, and given
back as it was when it closes."""

from __future__ import annotations

from performances import take, write_audio
from threadpoolctl import threadpool_info, threadpool_limits

from drumscore.model import Drum
from drumscore.play.listening import AudioListener


def blas_threads() -> set[int]:
    return {p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"}


def test_listening_holds_blas_to_one_thread_and_gives_it_back(tmp_path):
    path = write_audio(tmp_path / "take.wav", take([Drum.PI, Drum.GU], 120))
    with threadpool_limits(limits=2, user_api="blas"):
        assert blas_threads() == {2}
        with AudioListener(str(path)):
            assert blas_threads() == {1}
        assert blas_threads() == {2}
