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


def test_site_writes_the_folder_and_says_how_to_serve_it(tmp_path, capsys, no_musicxml):
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


def test_python_http_server_serves_the_site(tmp_path, capsys, no_musicxml):
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
b.MUSICXML_SECTIONS = ()
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
    assert proc.returncode in (0, 130)
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
        lambda folder, names: site_build.build_site(folder, [edition], corpus_editions=False),
    )

    def interrupted(self, poll_interval=0.5):
        raise KeyboardInterrupt

    monkeypatch.setattr(http.server.ThreadingHTTPServer, "serve_forever", interrupted)
    code, out, err = run_cli(["serve", "--port", "0", "--host", "0.0.0.0"], capsys)
    assert code == 0
    assert "warning: serving on 0.0.0.0" in err
    code, out, err = run_cli(["serve", "--port", "0"], capsys)
    assert code == 0 and err == ""
    assert "serving http://127.0.0.1:" in out


def test_local_hosts():
    assert is_local("127.0.0.1") and is_local("localhost") and is_local("::1")
    assert not is_local("0.0.0.0") and not is_local("192.168.1.2") and not is_local("example.org")
