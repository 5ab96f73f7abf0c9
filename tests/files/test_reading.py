"""Every input path is checked before it is read: pipes, devices and folders are refused at once,
files over their kind's limit too, and the error names the file and the limit."""

import contextlib
import os
import threading
from collections.abc import Callable

import pytest
from cli_run import expect_error
from speaking import refused

from drumscore.errors import InputFileError, InputMissingError
from drumscore.files.reading import LIMITS, read_input, read_input_text


@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


def refused_without_opening(fifos: list[str], refuse: Callable[[], object]) -> object:
    """What `refuse()` returns, run beside this thread: opening one of `fifos` to read would
    wait for a writer for ever, so if it has not returned within a minute (however busy the
    machine) a writer is opened to free it and the test fails."""
    done = threading.Event()
    result: list[object] = []

    def run() -> None:
        try:
            result.append(refuse())
        except BaseException as exc:  # given back to the test
            result.append(exc)
        done.set()

    threading.Thread(target=run, daemon=True).start()
    if not done.wait(60):
        for path in fifos:
            with contextlib.suppress(OSError):
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))
        done.wait(10)
        raise AssertionError(f"a reader waited for a writer of {fifos}")
    (found,) = result
    if isinstance(found, BaseException):
        raise found
    return found


def test_a_fifo_is_refused_without_waiting_for_a_writer(fifo):
    with pytest.raises(InputFileError, match=r"is not a regular file \(a pipe"):
        refused_without_opening([str(fifo)], lambda: read_input(fifo, "kit file"))


def test_a_device_and_a_folder_are_refused(tmp_path):
    with pytest.raises(InputFileError, match=r"'/dev/zero' is not a regular file \(a device\)"):
        read_input("/dev/zero", "edition file")
    with pytest.raises(InputFileError, match=r"is not a regular file \(a folder\)"):
        read_input(tmp_path, "notation file")


def test_a_file_over_the_limit_names_file_and_limit(tmp_path):
    path = tmp_path / "big.toml"
    path.write_bytes(b"#" * 2000)
    with pytest.raises(InputFileError, match=r"big\.toml' is more than 1,000 bytes") as caught:
        read_input(path, "edition file", limit=1000)
    assert caught.value.limit == 1000 and caught.value.path == str(path)
    assert read_input(path, "edition file", limit=2000) == b"#" * 2000


def test_a_missing_file_and_bad_text(tmp_path):
    with pytest.raises(InputMissingError, match="does not exist"):
        read_input(tmp_path / "none", "kit file")
    (tmp_path / "latin1.toml").write_bytes(b"name = '\xe9'")
    with pytest.raises(InputFileError, match="is not UTF-8 text"):
        read_input_text(tmp_path / "latin1.toml", "kit file")


def test_every_limit_is_named_in_the_readme():
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    limits = readme.split("## Limits", 1)[1].split("\n## ", 1)[0]
    for what, limit in LIMITS.items():
        assert what in limits and f"{limit // 1024**2} MiB" in limits, what


def _kit(folder, sample="s.wav"):
    (folder / "kit.toml").write_text(
        f"[pi]\nsamples = ['{sample}']\n[gu]\nsamples = ['{sample}']\n"
    )
    return folder


@pytest.mark.parametrize(
    "case",
    ["edition", "edition-at", "notation-file", "kit-file", "kit-sample", "soundfont", "passage"],
)
@pytest.mark.parametrize("special", ["fifo", "zero"])
def test_every_reader_refuses_pipes_and_devices_at_once(case, special, tmp_path, capsys):
    fifos = []

    def node(name):
        path = tmp_path / name
        if special == "fifo":
            os.mkfifo(path)
            fifos.append(str(path))
        else:
            path.symlink_to("/dev/zero")
        return str(path)

    out = str(tmp_path / "out.wav")
    argv = {
        "edition": lambda: ["show", node("e.toml")],
        "edition-at": lambda: ["render", f"xue@{node('e.toml')}", "-o", out],
        "notation-file": lambda: ["render", node("p.txt"), "-o", out],
        "kit-file": lambda: ["render", "lu", "--kit", node("kit.toml"), "-o", out],
        "kit-sample": lambda: [
            "render",
            "lu",
            "--kit",
            str(_kit(tmp_path, node("s.wav"))),
            "-o",
            out,
        ],
        "soundfont": lambda: ["render", "lu", "--soundfont", node("gm.sf2"), "-o", out],
        "passage": lambda: ["extract", node("passage.txt")],
    }[case]()
    err = refused_without_opening(fifos, lambda: expect_error(argv, capsys))
    assert isinstance(err, str)
    assert "is not a regular file" in err and err.count("\n") == 1, err
    assert not (tmp_path / "out.wav").exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh_Hant", ["譜字檔案「", "」超過 1 MiB（1,048,577 位元組），即譜字檔案的上限"]),
        ("zh_Hans", ["谱字文件「", "」超过 1 MiB（1,048,577 字节），即谱字文件的上限"]),
        (
            "en",
            ["notation file ", " is more than 1 MiB (1,048,577 bytes), the limit for a notation"],
        ),
    ],
)
def test_a_file_over_its_limit_names_its_kind_in_each_language(
    cli, monkeypatch, tmp_path, language, words
):
    big = tmp_path / "in" / "big.txt"
    big.parent.mkdir()
    big.write_bytes(b"o" * (LIMITS["notation file"] + 1))
    out = tmp_path / "out"
    out.mkdir()
    err = refused(cli, monkeypatch, language, out, "render", big, "-o", out / "x.wav")
    assert err.startswith(words[0]) and str(big) in err.splitlines()[0]
    assert words[1] in err


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("zh_Hant", "：不是有效的 TOML："),
        ("zh_Hans", "：不是有效的 TOML："),
        ("en", ": not valid TOML: "),
    ],
)
def test_malformed_toml_in_each_language(cli, monkeypatch, tmp_path, language, words):
    bad = tmp_path / "in" / "bad.toml"
    bad.parent.mkdir()
    bad.write_text("id = \n", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    err = refused(cli, monkeypatch, language, out, "render", bad, "-o", out / "x.wav")
    assert err.startswith(str(bad) + words)
