"""Outputs claimed, not only checked: a file, a link or a folder that appears while a command
runs is never written over without --force, and site never deletes what it did not write. The
race is made at its moment (a hook where the output is about to be renamed into place)."""

from __future__ import annotations

import os

import pytest
from cli_run import run_cli

import drumscore.site.build as site_build
from drumscore.files import atomic

MINE = 'id = "mine"\nname = "Mine"\n[[score]]\nfigure = 1\nstate = "魯"\nprinted = "○□半○"\n'


def plant(path, kind):
    if kind == "file":
        path.write_text("my own file", encoding="utf-8")
    elif kind == "link":
        os.symlink("my-own.wav", path)
    else:
        path.mkdir()
        (path / "mine.txt").write_text("mine", encoding="utf-8")


def intact(path, kind):
    if kind == "file":
        return path.read_text(encoding="utf-8") == "my own file"
    if kind == "link":
        return os.readlink(path) == "my-own.wav"
    return (path / "mine.txt").read_text(encoding="utf-8") == "mine"


@pytest.fixture
def racing(monkeypatch):
    """Plant something at the output once its temporary file is made (the run under way)."""
    planted = {}
    made = atomic.make_temporary

    def make(path, folder_too=False):
        tmp = made(path, folder_too)
        if path.name in planted:
            plant(path, planted.pop(path.name))
        return tmp

    monkeypatch.setattr(atomic, "make_temporary", make)
    return planted


@pytest.mark.parametrize("kind", ["file", "link", "folder"])
@pytest.mark.parametrize("suffix", ["wav", "mid"])
def test_an_output_that_appears_while_render_runs_is_not_written_over(
    tmp_path, capsys, racing, kind, suffix
):
    out = tmp_path / f"x.{suffix}"
    racing[out.name] = kind
    code, _, err = run_cli(["render", "lu", "-o", str(out), "-q"], capsys)
    assert code == 2, err
    assert err.count("\n") == 1 and "appeared while drumscore ran" in err
    assert "Traceback" not in err
    assert intact(out, kind)
    assert sorted(p.name for p in tmp_path.iterdir()) == [out.name]


def test_with_force_a_file_that_appears_is_written_over(tmp_path, capsys, racing):
    out = tmp_path / "x.mid"
    racing[out.name] = "file"
    code, _, err = run_cli(["render", "lu", "-o", str(out), "-q", "--force"], capsys)
    assert (code, err) == (0, "")
    assert out.read_bytes().startswith(b"MThd")


def test_force_refuses_a_device_node_and_names_it(tmp_path, capsys):
    import stat

    node = tmp_path / "null.wav"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        os.mkfifo(node)
    code, _, err = run_cli(["render", "lu", "-o", str(node), "--force", "-q"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "not a regular file" in err and ("device" in err or "pipe" in err)
    assert not stat.S_ISREG(os.lstat(node).st_mode)


@pytest.fixture
def small_site(monkeypatch, tmp_path):
    """The corpus left out and no MusicXML: a site of one edition, built in a moment."""
    monkeypatch.setattr(site_build, "MUSICXML_SECTIONS", ())
    mine = tmp_path / "mine.toml"
    mine.write_text(MINE, encoding="utf-8")
    from drumscore import corpus

    return [corpus.load_edition(mine)]


def _site_racing(monkeypatch, out, kind):
    """Plant something at (or in) the site's folder just before the new site is moved there."""
    keep = site_build._keep_owner_and_mode

    def racing(work, target):
        keep(work, target)
        if kind == "inside":
            (out / "mine.txt").write_text("mine", encoding="utf-8")
        else:
            plant(out, kind)

    monkeypatch.setattr(site_build, "_keep_owner_and_mode", racing)


@pytest.mark.parametrize("kind", ["file", "link", "folder"])
def test_site_leaves_what_appeared_in_its_place(tmp_path, monkeypatch, small_site, kind):
    out = tmp_path / "s"
    _site_racing(monkeypatch, out, kind)
    with pytest.raises(site_build.OutputError):
        site_build.build_site(out, small_site, corpus_editions=False)
    assert intact(out, kind)
    leftovers = [p.name for p in tmp_path.iterdir() if p.name not in {"s", "mine.toml"}]
    assert leftovers == []


@pytest.mark.parametrize("where", ["mine.txt", "score/mine.txt"])
def test_site_never_deletes_a_file_put_in_an_earlier_site_meanwhile(
    tmp_path, monkeypatch, small_site, where
):
    out = tmp_path / "s"
    site_build.build_site(out, small_site, corpus_editions=False)
    keep = site_build._keep_owner_and_mode

    def racing(work, target):
        keep(work, target)
        (out / where).write_text("mine", encoding="utf-8")

    monkeypatch.setattr(site_build, "_keep_owner_and_mode", racing)
    with pytest.raises(site_build.OutputError, match=rf"'{where}'"):
        site_build.build_site(out, small_site, corpus_editions=False)
    assert (out / where).read_text(encoding="utf-8") == "mine"
    assert (out / site_build.MARKER).is_file()  # the earlier site, as it was


def test_site_fills_a_folder_that_appeared_empty(tmp_path, monkeypatch, small_site):
    out = tmp_path / "s"
    keep = site_build._keep_owner_and_mode
    monkeypatch.setattr(
        site_build, "_keep_owner_and_mode", lambda work, target: (keep(work, target), out.mkdir())
    )
    site_build.build_site(out, small_site, corpus_editions=False)
    assert (out / "index.html").is_file()
