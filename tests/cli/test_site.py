"""drumscore site and drumscore serve: the folder written, the server on 127.0.0.1, Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from cli_run import expect_error, run_cli

import drumscore.site.build as site_build
from drumscore import corpus
from drumscore.site.serve import is_local

MINE = 'id = "mine"\nname = "Mine"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□半○"\n'


@pytest.fixture
def no_musicxml(monkeypatch):
    """Builds without the MusicXML downloads (the slow part), which test_build checks."""
    monkeypatch.setattr(site_build, "MUSICXML_SECTIONS", ())


@pytest.fixture
def one_edition(monkeypatch):
    """The corpus as its default edition alone (four scores, not the whole corpus's 68): what
    a test of the command checks (the corpus's pages and the user's, the folder's mode, its
    name, the leftovers removed, the server) is the same for a site of any size; the site of
    every edition is checked by tests/site and, through the command, test_chinese_views."""
    monkeypatch.setattr(corpus, "editions", lambda: corpus.builtin_editions()[:1])


def test_site_writes_the_folder_and_says_how_to_serve_it(
    tmp_path, capsys, no_musicxml, one_edition
):
    mine = tmp_path / "mine.toml"
    mine.write_text(MINE, encoding="utf-8")
    out = tmp_path / "out"
    code, stdout, err = run_cli(["site", str(out), "--edition", str(mine)], capsys)
    assert (code, err) == (0, "")
    assert re.search(rf"{len(corpus.scores()) + 1} score pages", stdout)  # the corpus and mine
    assert "python3 -m http.server -d" in stdout
    assert (out / "index.html").exists() and (out / "score" / "lu-1-mine.html").exists()


def test_site_refuses_a_folder_it_did_not_write(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("keep", encoding="utf-8")
    err = expect_error(["site", str(tmp_path)], capsys)
    assert "not empty" in err
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep"


def test_site_refuses_a_bad_edition_option(tmp_path, capsys):
    err = expect_error(["site", str(tmp_path / "o"), "--edition", "notes.txt"], capsys)
    assert "--edition 'notes.txt'" in err


def test_python_http_server_serves_the_site(tmp_path, capsys, no_musicxml, one_edition):
    out = tmp_path / "out"
    assert run_cli(["site", str(out)], capsys)[0] == 0
    server = subprocess.Popen(
        [sys.executable, "-u", "-m", "http.server", "0", "-d", str(out), "--bind", "127.0.0.1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        line = server.stdout.readline()
        port = re.search(r"port (\d+)", line).group(1)
        base = f"http://127.0.0.1:{port}/"
        with urllib.request.urlopen(base + "index.html", timeout=5) as r:
            assert "<title>" in r.read().decode("utf-8")
        with urllib.request.urlopen(base + "assets/engine.js", timeout=5) as r:
            assert "javascript" in r.headers["Content-Type"]
        with urllib.request.urlopen(base + "assets/samples/gu.wav", timeout=5) as r:
            assert r.read(4) == b"RIFF"
    finally:
        server.terminate()
        server.wait(5)


SERVE = """
import drumscore.site.build as b
from drumscore import corpus
b.MUSICXML_SECTIONS = ()
corpus.editions = lambda: corpus.builtin_editions()[:1]
from drumscore.cli import main
raise SystemExit(main(["serve", "--port", "0"]))
"""


def test_serve_binds_127_0_0_1_and_ctrl_c_stops_it_cleanly():
    proc = subprocess.Popen(
        [sys.executable, "-u", "-c", SERVE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    try:
        built = proc.stdout.readline()
        serving = proc.stdout.readline()
        folder = Path(re.search(r" in (\S+):", built).group(1))
        url = re.search(r"serving (http://\S+/)", serving).group(1)
        assert url.startswith("http://127.0.0.1:")
        assert folder.is_dir()
        with urllib.request.urlopen(url + "compare.html", timeout=5) as r:
            assert r.status == 200
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130  # Ctrl-C, as in every command
    assert "Traceback" not in err
    assert "stopped" in out
    assert not folder.exists()


def test_serve_warns_when_it_listens_beyond_this_machine(monkeypatch, capsys, tmp_path):
    import http.server

    import drumscore.cli.commands.serve as serve_cmd
    from drumscore.corpus import load_edition

    mine = tmp_path / "mine.toml"
    mine.write_text(MINE, encoding="utf-8")
    edition = load_edition(mine)
    monkeypatch.setattr(
        serve_cmd,
        "build",
        lambda folder, names, lang=None: site_build.build_site(
            folder, [edition], corpus_editions=False, musicxml=False
        ),
    )

    def interrupted(self, poll_interval=0.5):
        raise KeyboardInterrupt

    monkeypatch.setattr(http.server.ThreadingHTTPServer, "serve_forever", interrupted)
    code, out, err = run_cli(["serve", "--port", "0", "--host", "0.0.0.0"], capsys)
    assert code == 130
    assert "warning: serving on 0.0.0.0" in err
    code, out, err = run_cli(["serve", "--port", "0"], capsys)
    assert code == 130 and err == ""
    assert "serving http://127.0.0.1:" in out


def test_local_hosts():
    assert is_local("127.0.0.1") and is_local("localhost") and is_local("::1")
    assert not is_local("0.0.0.0") and not is_local("192.168.1.2") and not is_local("example.org")


# --- serve: the address is checked before the site is built ----------------------------------


@pytest.fixture
def build_forbidden(monkeypatch):
    """serve's build, which must not be reached."""
    import drumscore.cli.commands.serve as serve_cmd

    def build(folder, names):
        raise AssertionError("the site was built before the address was checked")

    monkeypatch.setattr(serve_cmd, "build", build)


def test_a_busy_port_is_told_before_the_site_is_built(build_forbidden, capsys):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, out, err = run_cli(["serve", "--port", str(port)], capsys)
    assert code == 1, err
    assert err.startswith("drumscore: error: cannot listen on 127.0.0.1 port ") and "--port" in err
    assert err.count("\n") == 1 and out == ""


@pytest.mark.parametrize("host", ["no such host.invalid", "203.0.113.7", "::g", "1.2.3.4.5"])
def test_a_host_that_is_not_this_machines_is_bad_input_before_the_build(
    build_forbidden, capsys, host
):
    err = expect_error(["serve", "--port", "0", "--host", host], capsys)
    assert "--host" in err and "127.0.0.1" in err


@pytest.mark.parametrize("port", ["9" * 5000, "70000", "-1", "eighty"])
def test_a_bad_port_is_one_short_line(build_forbidden, capsys, port):
    err = expect_error(["serve", "--port", port], capsys)
    assert "--port" in err and len(err) < 200


# --- the folder written: its owner and mode, leftovers, names, errors -------------------------


def test_an_existing_site_folder_keeps_its_mode(tmp_path, capsys, no_musicxml, one_edition):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o750)
    code, _, err = run_cli(["site", str(out)], capsys)
    assert code == 0, err
    assert (out.stat().st_mode & 0o777) == 0o750
    assert (out / "index.html").is_file()


def test_a_site_beneath_a_file_is_refused_naming_the_file(tmp_path, capsys):
    (tmp_path / "f").write_text("x", encoding="utf-8")
    err = expect_error(["site", str(tmp_path / "f" / "s")], capsys)
    assert f"{str(tmp_path / 'f')!r} is a file" in err and "does not exist" not in err
    assert (tmp_path / "f").read_text(encoding="utf-8") == "x"


def test_an_empty_site_folder_name_is_asked_for_not_read_as_the_current_folder(tmp_path, capsys):
    err = expect_error(["site", ""], capsys)
    assert "give the folder to write" in err and "'.'" not in err


def test_dir_and_o_naming_one_folder_two_ways_are_one_folder(
    tmp_path, capsys, no_musicxml, one_edition
):
    out = tmp_path / "s"
    code, _, err = run_cli(["site", str(out), "-o", str(tmp_path / "." / "s") + "/", "-q"], capsys)
    assert code == 0, err
    assert (out / "index.html").is_file()


def test_a_read_only_site_folder_is_an_error_not_replaced(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o555)
    before = out.stat()
    err = expect_error(["site", str(out)], capsys)
    assert "read-only" in err and str(out) in err
    after = out.stat()
    assert (after.st_ino, after.st_mode, after.st_uid) == (
        before.st_ino,
        before.st_mode,
        before.st_uid,
    )


def test_a_stale_site_part_folder_is_removed_by_the_next_build(
    tmp_path, capsys, no_musicxml, one_edition
):
    stale = tmp_path / ".out.drumscore-999999999-abcdefgh.part"
    stale.mkdir()
    (stale / "index.html").write_text("half a site", encoding="utf-8")
    code, _, err = run_cli(["site", str(tmp_path / "out")], capsys)
    assert code == 0, err
    assert not stale.exists()
    assert "removed" in err and "999999999" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("length", [200, 250, 255])
def test_a_long_site_folder_name_works(tmp_path, capsys, no_musicxml, one_edition, length):
    out = tmp_path / ("s" * length)
    code, _, err = run_cli(["site", str(out)], capsys)
    assert code == 0, err
    assert (out / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


@pytest.mark.parametrize(
    "argv",
    [
        ["site", "N"],
        ["site", "N/site"],
        ["render", "lu", "-o", "N.wav"],
        ["render", "lu", "-o", "N/lu.wav"],
        ["extract", "PASSAGE", "-o", "N.toml"],
        ["collate", "--format", "csv", "-o", "N.csv"],
    ],
)
def test_a_name_too_long_for_the_file_system_is_bad_input(tmp_path, capsys, argv, source_text):
    passage = tmp_path / "p.txt"
    passage.write_text(source_text("KR1d0053_058_禮記注疏.txt"), encoding="utf-8")
    long = str(tmp_path / ("n" * 300))
    argv = [a.replace("N", long).replace("PASSAGE", str(passage)) for a in argv]
    err = expect_error(argv, capsys)
    assert "too long" in err or "over the limit" in err
    assert len(err) < 400  # the name is shortened, not echoed whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.txt"]


def test_a_site_past_the_file_size_limit_names_the_output(tmp_path):
    import resource

    done = subprocess.run(
        [sys.executable, "-m", "drumscore", "site", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
        preexec_fn=lambda: resource.setrlimit(
            resource.RLIMIT_FSIZE, (30_000, resource.RLIM_INFINITY)
        ),
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(
        f"drumscore: error: cannot write the site {str(tmp_path / 'out')!r}"
    )
    assert "File too large" in done.stderr and "drumscore/render/samples" not in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_stale_serve_folder_is_removed_by_the_next_serve(monkeypatch, capsys, tmp_path):
    import http.server
    import tempfile

    import drumscore.cli.commands.serve as serve_cmd

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    stale = tmp_path / ".drumscore-serve.drumscore-999999999-abcdefgh.part"
    (stale / "site").mkdir(parents=True)
    made = []
    monkeypatch.setattr(serve_cmd, "build", lambda folder, names, lang=None: made.append(folder))

    def interrupted(self, poll_interval=0.5):
        raise KeyboardInterrupt

    monkeypatch.setattr(http.server.ThreadingHTTPServer, "serve_forever", interrupted)
    monkeypatch.setattr(serve_cmd, "summary", lambda report: "")
    code, _, err = run_cli(["serve", "--port", "0"], capsys)
    assert code == 130
    assert not stale.exists() and "999999999" in err
    assert list(tmp_path.iterdir()) == []  # its own folder is gone too
    assert made and ".drumscore-serve.drumscore-" in str(made[0])
