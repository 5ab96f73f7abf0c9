"""Atomic output: a failed write leaves neither a partial file nor a damaged old one."""

import os

import pytest

from drumscore import OutputError
from drumscore.output import atomic_path, check_writable, write_bytes


def test_write_bytes_replaces_the_file(tmp_path):
    target = tmp_path / "a.bin"
    target.write_bytes(b"old")
    write_bytes(target, b"new")
    assert target.read_bytes() == b"new"
    assert [p.name for p in tmp_path.iterdir()] == ["a.bin"]


def test_an_interrupted_write_leaves_the_old_file_and_no_temporary(tmp_path):
    target = tmp_path / "a.wav"
    target.write_bytes(b"old")
    with pytest.raises(KeyboardInterrupt), atomic_path(target) as tmp:
        tmp.write_bytes(b"half of a ")
        raise KeyboardInterrupt
    assert target.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.wav"]


def test_a_new_file_gets_ordinary_permissions(tmp_path):
    target = tmp_path / "new.bin"
    write_bytes(target, b"x")
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask


def test_an_existing_file_keeps_its_permissions(tmp_path):
    target = tmp_path / "a.bin"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_bytes(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_symbolic_link_is_followed_and_kept(tmp_path):
    target = tmp_path / "real.wav"
    target.write_bytes(b"old")
    link = tmp_path / "link.wav"
    link.symlink_to(target)
    write_bytes(link, b"new")
    assert link.is_symlink()
    assert target.read_bytes() == b"new"


# --- bad input ------------------------------------------------------------------------------


def test_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        check_writable(tmp_path / "no" / "a.wav")


def test_a_folder_as_output_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_writable(tmp_path)


def test_a_file_as_folder_is_refused(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError, match="does not exist"):
        write_bytes(tmp_path / "file" / "a.wav", b"x")
