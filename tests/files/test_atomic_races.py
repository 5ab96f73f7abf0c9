"""An output claimed new is renamed only where nothing is: a file, a link or a folder that
appears while drumscore writes is left as it is. With the claim to replace, only a regular file
is written over. Each race is made at its moment by a hook, not by a sleep."""

from __future__ import annotations

import os
import stat

import pytest

from drumscore import OutputError
from drumscore.files import atomic
from drumscore.files.atomic import atomic_path, check_writable, rename_new, write_series
from drumscore.files.reading import claim_output, watch_inputs


def _plant_file(path):
    path.write_text("my own file", encoding="utf-8")


def _plant_link(path):
    os.symlink("elsewhere.wav", path)  # dangling: a link is in the place all the same


def _plant_folder(path):
    path.mkdir()
    (path / "mine.txt").write_text("mine", encoding="utf-8")


def _intact(path, kind):
    if kind == "file":
        return path.read_text(encoding="utf-8") == "my own file"
    if kind == "link":
        return os.readlink(path) == "elsewhere.wav"
    return (path / "mine.txt").read_text(encoding="utf-8") == "mine"


PLANTS = {"file": _plant_file, "link": _plant_link, "folder": _plant_folder}


@pytest.fixture(params=[True, False], ids=["renameat2", "without renameat2"])
def system(request, monkeypatch):
    """Each test with the system's renameat2 and with the fallback (a hard link, a folder made)."""
    if not request.param:
        monkeypatch.setattr(atomic, "_renameat2", lambda: None)
    return request.param


@pytest.mark.parametrize("kind", PLANTS)
def test_what_appears_during_a_write_claimed_new_is_left_as_it_is(tmp_path, kind, system):
    target = tmp_path / "x.flac"
    with watch_inputs():
        claim_output(target, False)
        with (
            pytest.raises(OutputError, match="appeared while drumscore ran"),
            atomic_path(target) as tmp,
        ):
            tmp.write_bytes(b"the render")
            PLANTS[kind](target)
    assert _intact(target, kind)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.flac"]  # no temporary left


def test_a_write_claimed_new_lands_where_nothing_appeared(tmp_path, system):
    target = tmp_path / "x.flac"
    with watch_inputs():
        claim_output(target, False)
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"the render")
    assert target.read_bytes() == b"the render"
    assert [p.name for p in tmp_path.iterdir()] == ["x.flac"]


def test_a_file_that_appears_is_written_over_when_the_claim_is_to_replace(tmp_path):
    target = tmp_path / "x.flac"
    with watch_inputs():
        claim_output(target, True)
        with atomic_path(target) as tmp:
            tmp.write_bytes(b"the render")
            _plant_file(target)
    assert target.read_bytes() == b"the render"


@pytest.mark.parametrize("kind", ["link", "folder"])
def test_what_is_not_a_regular_file_is_never_replaced_even_when_claimed(tmp_path, kind):
    target = tmp_path / "x.flac"
    with watch_inputs():
        claim_output(target, True)
        with pytest.raises(OutputError), atomic_path(target) as tmp:
            tmp.write_bytes(b"the render")
            if kind == "link":
                os.mkfifo(tmp_path / "pipe")
                os.symlink("pipe", target)
            else:
                _plant_folder(target)
    assert os.path.islink(target) if kind == "link" else _intact(target, "folder")


def test_a_page_of_a_series_that_appears_is_left_as_it_is(tmp_path, monkeypatch, system):
    target = tmp_path / "staff.svg"
    placed = atomic.put_in_place

    def racing(tmp, path, **kwargs):
        if path.name == "staff-2.svg":
            _plant_file(path)
        placed(tmp, path, **kwargs)

    monkeypatch.setattr(atomic, "put_in_place", racing)
    with watch_inputs():
        claim_output(target, False)
        with pytest.raises(OutputError, match=r"staff-2\.svg"):
            write_series(target, [b"<svg>1</svg>", b"<svg>2</svg>"])
    assert _intact(tmp_path / "staff-2.svg", "file")
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".part")]


@pytest.mark.parametrize("kind", ["fifo", "device", "socket"])
def test_a_place_that_is_not_a_regular_file_is_refused_naming_what_it_is(tmp_path, kind):
    target = tmp_path / "null.wav"
    if kind == "fifo":
        os.mkfifo(target)
        words = "pipe"
    elif kind == "device":
        try:
            os.mknod(target, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        except PermissionError:
            pytest.skip("making a device node needs root")
        words = "device"
    else:
        import socket

        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(target))
        sock.close()
        words = "socket"
    before = os.lstat(target)
    with pytest.raises(OutputError, match=rf"'{target}' is a {words}.*not a regular file"):
        check_writable(target)
    with watch_inputs():
        claim_output(target, True)
        with pytest.raises(OutputError, match=words):
            atomic.write_bytes(target, b"RIFF")
    after = os.lstat(target)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_a_link_to_a_device_is_refused_and_the_device_untouched(tmp_path):
    link = tmp_path / "out.wav"
    os.symlink(os.devnull, link)
    with pytest.raises(OutputError, match="device"):
        atomic.write_bytes(link, b"RIFF")
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


def test_rename_new_moves_a_folder_only_where_nothing_is(tmp_path, system):
    source = tmp_path / "work"
    source.mkdir()
    (source / "a").write_text("a", encoding="utf-8")
    taken = tmp_path / "taken"
    taken.mkdir()
    with pytest.raises(FileExistsError):
        rename_new(source, taken)
    assert list(taken.iterdir()) == [] and (source / "a").exists()
    rename_new(source, tmp_path / "free")
    assert (tmp_path / "free" / "a").read_text(encoding="utf-8") == "a"
    assert not source.exists()


@pytest.mark.parametrize("kind", PLANTS)
def test_what_appears_between_the_claim_and_the_write_is_left_as_it_is(tmp_path, kind):
    """The place claimed new at the start (play --record claims it, then listens for minutes):
    what appears before the write begins is not written over, nor a link followed to where it
    leads."""
    target = tmp_path / "x.wav"
    with watch_inputs():
        claim_output(target, False)
        PLANTS[kind](target)
        with (
            pytest.raises(OutputError, match="appeared while drumscore ran"),
            atomic_path(target) as tmp,
        ):
            tmp.write_bytes(b"the take")
    assert _intact(target, kind)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.wav"]  # nothing written through
