"""play --listen and --record under a hostile user: the take as the recording's own place, a
format --record cannot write. Each is one clear line, exit 2, before anything is played, and the
take is left as it was."""

import os

from hostile_checks import refused
from performances import take, write_audio

from drumscore.corpus import resolve

ALONG = "○□○半○□"
BPM = 240


def _take(folder):
    drums = [s.drum for s in resolve(ALONG).pattern.strokes]
    return write_audio(folder / "take.wav", take(drums, BPM, seed=2, spread_ms=5))


def _listen(path, *more):
    return ["play", ALONG, "--bpm", BPM, "--midi-port", "synth", "--listen", "--input", path, *more]


def test_recording_over_its_own_take_is_refused_before_it_is_played(
    fake_midi, cli, tmp_path, monkeypatch
):
    fake_midi(outputs=["Fake synth"])
    played = _take(tmp_path)
    kept = played.read_bytes()
    os.link(played, tmp_path / "same.wav")
    monkeypatch.chdir(tmp_path)
    for record in ("./take.wav", str(tmp_path / "same.wav")):
        code, out, err = cli(*_listen("take.wav", "--record", record, "--force"))
        assert code == 2, err
        assert err.startswith("drumscore: error: output ") and "is the input" in err, err
        assert "Traceback" not in err and len(err.strip().splitlines()) == 1, err
        assert "stroke" not in out  # refused before the score was played
        assert played.read_bytes() == kept


def test_record_in_a_format_it_cannot_write_names_its_flag_once(fake_midi, capsys, tmp_path):
    fake_midi(outputs=["Fake synth"])
    played = _take(tmp_path)
    line = refused(
        [str(a) for a in _listen(played, "--record", str(tmp_path / "take.mp3"))],
        capsys,
        tmp_path,
    )
    assert line.startswith("drumscore: error: --record '"), line
    assert ".mp3" in line and ".wav" in line
