"""Atomic output: a failed write leaves neither a partial file nor a damaged old one."""

import os

import pytest
from speaking import refused

from drumscore import OutputError, WriteError
from drumscore.files.atomic import (
    atomic_path,
    check_writable,
    series_paths,
    stale_pages,
    write_bytes,
    write_series,
)


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


def names(folder) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_series_paths_number_from_the_second_page(tmp_path):
    out = tmp_path / "big.png"
    assert series_paths(out, 1) == [out]
    assert series_paths(out, 3) == [out, tmp_path / "big-2.png", tmp_path / "big-3.png"]


def test_a_shorter_series_removes_the_stale_pages_of_a_longer_one(tmp_path):
    out = tmp_path / "big.png"
    write_series(out, [b"p1", b"p2", b"p3", b"p4"])
    assert names(tmp_path) == ["big-2.png", "big-3.png", "big-4.png", "big.png"]
    assert write_series(out, [b"new"]) == [out]
    assert names(tmp_path) == ["big.png"]
    assert out.read_bytes() == b"new"


def test_only_the_exact_page_naming_counts_as_stale(tmp_path):
    out = tmp_path / "big.png"
    others = ["big-02.png", "big-x.png", "big-2.PNG", "big-2.png.bak", "bigger-2.png", "big2.png"]
    for name in others:
        (tmp_path / name).write_bytes(b"mine")
    (tmp_path / "big-3.png").write_bytes(b"old page")
    write_series(out, [b"p1", b"p2"])
    assert stale_pages(out, 2) == []
    assert names(tmp_path) == sorted([*others, "big-2.png", "big.png"])
    assert all((tmp_path / name).read_bytes() == b"mine" for name in others)
    assert (tmp_path / "big-2.png").read_bytes() == b"p2"


def test_a_failed_series_changes_nothing(tmp_path, monkeypatch):
    out = tmp_path / "big.png"
    write_series(out, [b"old 1", b"old 2", b"old 3"])
    real_replace = os.replace
    calls = []

    def replace(src, dst):
        calls.append(dst)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(WriteError, match="No space left"):
        write_series(out, [b"new 1", b"new 2"])
    monkeypatch.setattr(os, "replace", real_replace)
    assert len(calls) == 1
    assert names(tmp_path) == ["big-2.png", "big-3.png", "big.png"]
    assert out.read_bytes() == b"old 1" and (tmp_path / "big-3.png").read_bytes() == b"old 3"


def test_an_interrupted_series_leaves_no_temporary_folder(tmp_path, monkeypatch):
    out = tmp_path / "big.png"

    def interrupted(self, data):
        raise KeyboardInterrupt

    monkeypatch.setattr(type(out), "write_bytes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_series(out, [b"p1", b"p2"])
    assert list(tmp_path.iterdir()) == []


# --- bad input ------------------------------------------------------------------------------


def test_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        check_writable(tmp_path / "no" / "a.wav")


def test_a_folder_as_output_is_refused(tmp_path):
    with pytest.raises(OutputError, match="is a folder"):
        check_writable(tmp_path)


def test_a_file_as_folder_is_refused_as_no_folder_not_as_missing(tmp_path):
    (tmp_path / "file").write_text("x")
    with pytest.raises(OutputError) as err:
        write_bytes(tmp_path / "file" / "a.wav", b"x")
    said = str(err.value)
    assert f"{str(tmp_path / 'file')!r} is not a folder" in said
    assert "does not exist" not in said and "mkdir" not in said  # mkdir -p would fail on it
    assert (tmp_path / "file").read_text() == "x"


def test_a_device_as_folder_is_refused_as_no_folder():
    with pytest.raises(OutputError, match="'/dev/null' is not a folder"):
        check_writable("/dev/null/x.wav")


def test_an_empty_output_name_is_refused_as_empty_not_as_the_current_folder():
    with pytest.raises(OutputError) as err:
        check_writable("")
    assert "empty" in str(err.value) and "'.'" not in str(err.value)


@pytest.mark.parametrize(("name", "example"), [("a.xml", "out.xml"), ("b.mid", "out.mid")])
def test_a_folder_as_output_gets_an_example_of_its_own_format(tmp_path, name, example):
    (tmp_path / name).mkdir()
    with pytest.raises(OutputError) as err:
        check_writable(tmp_path / name)
    assert repr(str(tmp_path / name / example)) in str(err.value)


def test_a_series_into_a_missing_folder_is_refused(tmp_path):
    with pytest.raises(OutputError, match="does not exist"):
        write_series(tmp_path / "no" / "big.png", [b"p1"])


def test_an_empty_series_is_refused_and_keeps_the_old_pages(tmp_path):
    out = tmp_path / "big.png"
    write_series(out, [b"p1", b"p2"])
    with pytest.raises(OutputError, match="no pages"):
        write_series(out, [])
    assert names(tmp_path) == ["big-2.png", "big.png"]


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "missing", "folder"),
    [
        (
            "zh_Hant",
            "輸出資料夾「{p}」不存在；請先建立它（mkdir -p {p}）",
            "輸出「{p}」是資料夾；請指定檔名",
        ),
        (
            "zh_Hans",
            "输出文件夹「{p}」不存在；请先创建它（mkdir -p {p}）",
            "输出「{p}」是文件夹；请指定文件名",
        ),
        (
            "en",
            "output folder {p!r} does not exist; create it first (mkdir -p {p})",
            "output {p!r} is a folder",
        ),
    ],
)
def test_an_unusable_output_path_in_each_language(
    cli, monkeypatch, tmp_path, language, missing, folder
):
    nowhere = str(tmp_path / "nowhere")
    err = refused(cli, monkeypatch, language, tmp_path, "render", "lu", "-o", f"{nowhere}/x.wav")
    assert err.startswith(missing.format(p=nowhere))
    (tmp_path / "x.wav").mkdir()
    taken = str(tmp_path / "x.wav")
    err = refused(cli, monkeypatch, language, tmp_path / "x.wav", "render", "lu", "-o", taken)
    assert err.startswith(folder.format(p=taken))
