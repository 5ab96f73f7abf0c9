"""The command line: list, show, render; one clear line and exit 2 for every bad input."""

import errno
import json
import os
import subprocess
import sys

import mido
import pytest
import soundfile as sf
from cli_run import started

from drumscore.cli import main
from drumscore.cli.commands import corpus as corpus_command


def run(*args, cwd=None):
    """Run the installed command line in a subprocess, as a user would."""
    return subprocess.run(
        [sys.executable, "-m", "drumscore", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def test_list_shows_every_score_with_counts(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "禮記注疏" in out and "lu/2@benyi" in out
    assert "○13 □10" in out  # the whole first 魯


def test_list_json_is_data(capsys):
    main(["list", "--json"])
    data = json.loads(capsys.readouterr().out)
    first = next(d for d in data if d["key"] == "lu/1@zhushu")
    assert first["counts"]["touhu"] == {"strokes": 12, "pi": 7, "gu": 5}


def test_show_marks_the_half_and_cites_the_source(capsys):
    assert main(["show", "lu"]) == 0
    out = capsys.readouterr().out
    assert "○□○○□□○□○○□ │半│ ○□○□○○○□□○□○" in out
    assert "KR1d0053" in out and "CC BY-SA" in out


def test_show_checks_the_counts_the_commentators_state(capsys):
    assert main(["show", "xue/2@benyi"]) == 0
    out = capsys.readouterr().out
    assert "鼙 22 where 徐伯魯 counts 21" in out
    assert "徐伯魯, touhu: 鼙 7 鼓 3" in out and "— agrees" in out
    main(["show", "xue/2@benyi", "--json"])
    stated = json.loads(capsys.readouterr().out)["stated_counts"]
    by_section = {(s["by"], s["section"]): s["agrees"] for s in stated}
    assert by_section[("徐伯魯", "touhu")] is True
    assert by_section[("徐伯魯", "she")] is False


def test_show_of_raw_notation_has_no_stated_counts(capsys):
    main(["show", "○□半○", "--json"])
    assert json.loads(capsys.readouterr().out)["stated_counts"] == []


def test_show_json_has_provenance(capsys):
    main(["show", "xue/2@benyi", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["counts"]["she"]["pi"] == 22
    assert data["provenance"]["file"].startswith("001_")


def test_show_json_counts_in_section_order(capsys):
    main(["show", "lu", "--json"])
    assert list(json.loads(capsys.readouterr().out)["counts"]) == ["head", "touhu", "she"]


def test_render_wav_defaults(tmp_path, cli):
    out = tmp_path / "lu.wav"
    code, printed, err = cli("render", "lu", "-o", out)
    assert code == 0, err
    info = sf.info(str(out))
    assert (info.samplerate, info.channels, info.subtype, info.format) == (
        44100,
        2,
        "PCM_16",
        "WAV",
    )
    assert info.duration > 22  # 23 strokes a second apart, then the ring-out
    assert "23 strokes" in printed


@pytest.mark.parametrize("ext", ["wav", "flac", "ogg"])
def test_an_audio_file_says_which_reading_it_holds(tmp_path, ext):
    out = tmp_path / f"x.{ext}"
    assert main(["render", "xue/2@benyi", "--section", "touhu", "--bpm", "90", "-o", str(out)]) == 0
    with sf.SoundFile(str(out)) as f:
        title, comment = f.title, f.comment
    assert "禮經本義" in title and "薛" in title and "figure 2" in title
    assert comment.startswith("xue/2@benyi, section touhu, bpm 90;")
    assert "○□○○○○□○□○□○○○○□○□○○□○半○□○□○○○○□○" in comment  # as printed
    assert "001_a32c6902e9fda003.txt" in comment  # the source


def test_render_midi_section_and_tempo(tmp_path):
    out = tmp_path / "xue2.mid"
    assert main(["render", "xue/2", "--section", "touhu", "--bpm", "96", "-o", str(out)]) == 0
    midi = mido.MidiFile(str(out), charset="utf-8")
    assert sum(1 for m in midi if m.type == "note_on") == 10


def test_render_raw_notation_to_flac_with_interval(tmp_path):
    out = tmp_path / "mine.flac"
    assert main(["render", "○□○○半○□○", "--interval", "0.75", "-o", str(out)]) == 0
    info = sf.info(str(out))
    assert info.format == "FLAC" and info.duration > 0.75 * 6


@pytest.mark.parametrize("ext", ["ogg", "midi"])
def test_render_other_formats(tmp_path, ext):
    out = tmp_path / f"x.{ext}"
    assert main(["render", "○□", "-o", str(out)]) == 0
    assert out.stat().st_size > 0


def test_help_lists_the_commands(cli):
    code, printed, _ = cli("--help")
    assert code == 0
    assert all(cmd in printed for cmd in ("list", "show", "render"))


# --- bad input ------------------------------------------------------------------------------

BAD = [
    (["render", "lu", "--bpm", "0", "-o", "{d}/a.wav"], "--bpm '0'"),
    (["render", "lu", "--bpm", "-5", "-o", "{d}/a.wav"], "--bpm '-5'"),
    (["render", "lu", "--bpm", "nan", "-o", "{d}/a.wav"], "'nan'"),
    (["render", "lu", "--bpm", "inf", "-o", "{d}/a.wav"], "'inf'"),
    (["render", "lu", "--bpm", "99999", "-o", "{d}/a.wav"], "out of range"),
    (["render", "lu", "--interval", "0", "-o", "{d}/a.wav"], "--interval '0'"),
    (["render", "lu", "--bpm", "60", "--interval", "1", "-o", "{d}/a.wav"], "not allowed with"),
    (["render", "nope", "-o", "{d}/a.wav"], "unknown score 'nope'"),
    (["render", "lu/3", "-o", "{d}/a.wav"], "unknown figure"),
    (["render", "lu@nowhere", "-o", "{d}/a.wav"], "unknown edition"),
    (["render", "lu", "-o", "{d}/missing/a.wav"], "does not exist"),
    (["render", "lu", "-o", "{d}/a.xyz"], "it does not write .xyz files; use one of"),
    (["render", "lu", "-o", "{d}"], "is a folder"),
    (["render", "○□", "--section", "touhu", "-o", "{d}/a.wav"], "no 半"),
    (["render", "○□X", "-o", "{d}/a.wav"], "column 3"),
    (["render", "lu", "--repeat", "0", "-o", "{d}/a.wav"], "--repeat"),
    (["render", "lu", "--rate", "10", "-o", "{d}/a.wav"], "--rate 10 is out of range"),
    (["render", "lu", "--rate", "0", "-o", "{d}/a.wav"], "use 8000 to 192000 Hz"),
    (["render", "lu", "--rate", "192001", "-o", "{d}/a.wav"], "--rate 192001"),
    (["render", "lu", "--subtype", "NOPE", "-o", "{d}/a.wav"], "--subtype 'NOPE'"),
    (["render", "lu", "--midi-notes", "1", "-o", "{d}/a.mid"], "--midi-notes"),
    (["render", "lu"], "-o/--output"),
    (["show", "半"], "only a 半"),
    (["frobnicate"], "invalid choice"),
]


@pytest.mark.parametrize(("args", "expected"), BAD, ids=[e for _, e in BAD])
def test_bad_input_is_one_clear_error_and_exit_2(tmp_path, expect_error, args, expected):
    """In-process (the exit status and stderr are main's; test_a_failed_render_keeps_the_
    existing_file and tests/cli/test_hostile.py see the same from a real process)."""
    err = expect_error(*[a.format(d=tmp_path) for a in args])
    assert expected in err
    assert list(tmp_path.iterdir()) == []


def test_a_terminated_render_leaves_no_partial_file(tmp_path):
    import signal
    import time

    out = tmp_path / "long.flac"
    with started(["render", "lu", "--duration", "3h", "-o", str(out)]) as proc:
        deadline = time.monotonic() + 30
        while not any(tmp_path.iterdir()) and time.monotonic() < deadline:
            time.sleep(0.05)  # wait until the render has started writing
        assert any(tmp_path.iterdir()), "the render never started writing"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 143
    assert b"Traceback" not in err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_render_keeps_the_existing_file(tmp_path):
    out = tmp_path / "keep.wav"
    out.write_bytes(b"precious")
    result = run("render", "lu", "--bpm", "0", "-o", str(out))
    assert result.returncode == 2
    assert out.read_bytes() == b"precious"
    assert [p.name for p in tmp_path.iterdir()] == ["keep.wav"]


def test_an_unwritable_folder_is_a_clear_error(tmp_path, monkeypatch, capsys):
    import tempfile

    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", refuse)
    with pytest.raises(SystemExit) as exit_:
        main(["render", "lu", "-o", str(tmp_path / "a.wav")])
    assert exit_.value.code == 1  # the input was good: writing failed
    assert "cannot write in" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.3])
def test_ctrl_c_just_after_a_musicxml_is_written_ends_with_the_message_and_130(tmp_path, delay):
    """The window after the file is in place: the command's last lines, then the interpreter's
    teardown. Either the run is still going (130, the message) or it is over (0): never a
    death by SIGINT without a word, and the file is whole either way."""
    import signal
    import time
    import xml.etree.ElementTree as ET

    out = tmp_path / "lu.musicxml"
    proc = subprocess.Popen(
        [sys.executable, "-m", "drumscore", "render", "lu", "-o", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while proc.poll() is None and not out.exists() and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(delay)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode in (0, 130), (proc.returncode, err)
    assert err == ("drumscore: interrupted\n" if proc.returncode == 130 else "")
    assert ET.parse(out).getroot().tag == "score-partwise"


@pytest.mark.parametrize(
    ("raised", "status", "said"),
    [
        (KeyboardInterrupt(), 130, "drumscore：已中斷"),
        (
            OSError(errno.ENAMETOOLONG, "File name too long", "名" * 100),
            2,
            f"drumscore：錯誤：名稱「{'名' * 60}」…（共 100 個字元）對檔案系統來說太長；"
            "請改用較短的名稱",
        ),
        (
            OSError(errno.EIO, "Input/output error", "out.wav"),
            1,
            "drumscore：錯誤：輸入／輸出失敗 'out.wav'：Input/output error",
        ),
    ],
)
def test_the_last_word_in_traditional_chinese(cli, monkeypatch, raised, status, said):
    """Ctrl-C, a name too long and a failed write, as the command line reports them."""

    def fails(args):
        raise raised

    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    monkeypatch.setattr(corpus_command, "run_list", fails)
    assert cli("list") == (status, "", said + "\n")


def test_a_file_error_a_signal_left_behind_ends_as_the_signal(cli, monkeypatch):
    """A descriptor closed as Ctrl-C's KeyboardInterrupt went by fails the next write (Bad file
    descriptor): the run was stopped by the signal, and says so with its status, not as a
    failed write."""

    def fails(args):
        raise OSError(errno.EBADF, "Bad file descriptor")

    def fails_in_context(args):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise OSError(errno.EBADF, "Bad file descriptor")  # noqa: B904 (as Python leaves it)

    monkeypatch.setattr(corpus_command, "run_list", fails_in_context)
    status, _out, err = cli("list")
    assert status == 130 and "Bad file descriptor" not in err
    monkeypatch.setattr(corpus_command, "run_list", fails)  # no signal behind it: a failure
    status, _out, err = cli("list")
    assert status == 1 and "Bad file descriptor" in err


def test_portaudio_is_ended_before_the_process_ends_at_once(monkeypatch):
    """The console script ends the process at once (os._exit), skipping sounddevice's own
    ending of PortAudio at the interpreter's exit: it ends PortAudio itself first, so that a
    sound server's client (JACK's) is closed rather than left for the server to find dead."""
    import types

    from drumscore import cli
    from drumscore.files import signals

    ended = []
    sounddevice = types.ModuleType("sounddevice")
    sounddevice.PortAudioError = type("PortAudioError", (Exception,), {})  # type: ignore[attr-defined]
    sounddevice._exit_handler = lambda: ended.append("PortAudio")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "sounddevice", sounddevice)
    monkeypatch.setattr(signals, "install", lambda: {})
    monkeypatch.setattr(sys, "argv", ["drumscore", "list"])

    def exit_at_once(code):
        ended.append(code)
        raise SystemExit(code)

    monkeypatch.setattr(os, "_exit", exit_at_once)
    with pytest.raises(SystemExit):
        cli.run()
    assert ended == ["PortAudio", 0]
