"""drumscore render with many scores in one process, and the same bytes from the same command."""

from __future__ import annotations

import io

import mido
import pytest
from cli_run import expect_error, run_cli

from drumscore.corpus import resolve, scores
from drumscore.model import Drum


def notes_of(path) -> list[int]:
    midi = mido.MidiFile(str(path), charset="utf-8")
    return [m.note for m in midi.tracks[1] if m.type == "note_on" and m.velocity > 0]


def test_all_scores_in_two_sections_write_136_midi_files_named_by_the_template(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    template = str(out / "{key}-{section}.mid")
    code, stdout, stderr = run_cli(
        ["render", "--all", "--section", "touhu,she", "-o", template], capsys
    )
    assert code == 0 and stderr == ""
    corpus = scores()
    assert len(corpus) * 2 == 136
    files = sorted(p.name for p in out.iterdir())
    assert len(files) == 136
    assert stdout.strip().splitlines() == [stdout.strip()]  # one summary line
    assert stdout.startswith("wrote 136 files in ")
    notes = {Drum.PI: 41, Drum.GU: 45}  # the default map: 鼙 the lower drum
    for score in corpus:
        slug = score.key.replace("/", "_").replace("@", "_")
        for section in ("touhu", "she"):
            played = notes_of(out / f"{slug}-{section}.mid")
            assert played == [notes[s.drum] for s in score.pattern.section(section)]


def test_a_batch_file_is_the_file_a_single_render_writes(tmp_path, capsys):
    template = str(tmp_path / "{state}{figure}-{edition}-{section}.mxl")
    argv = ["render", "lu", "xue/2@benyi", "--section", "head", "-o", template, "--bpm", "72"]
    assert run_cli(argv, capsys)[0] == 0
    single = tmp_path / "single.mxl"
    argv = ["render", "xue/2@benyi", "--section", "head", "-o", str(single), "--bpm", "72"]
    assert run_cli(argv, capsys)[0] == 0
    assert (tmp_path / "xue2-benyi-head.mxl").read_bytes() == single.read_bytes()
    assert (tmp_path / "lu1-zhushu-head.mxl").is_file()


def test_a_bad_item_reports_its_error_and_the_others_are_still_written(tmp_path, capsys):
    template = str(tmp_path / "{key}-{section}.mid")
    code, stdout, stderr = run_cli(
        ["render", "lu", "nosuch", "○□○", "--section", "touhu,she", "-o", template], capsys
    )
    assert code == 2  # every failure is bad input: the command must change
    lines = stderr.strip().splitlines()
    # 'nosuch' fails in both sections; '○□○' has no 半, so no touhu section
    assert len([line for line in lines if line.startswith("drumscore: error: ")]) == 3
    assert any("nosuch touhu" in line for line in lines)
    assert any("○□○ touhu" in line and "no 半" in line for line in lines)
    assert "Traceback" not in stderr
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == ["lu_1_zhushu-she.mid", "lu_1_zhushu-touhu.mid", "○□○-she.mid"]
    assert "wrote 3 files" in stdout and "3 items failed" in stdout


def test_a_batch_with_a_runtime_failure_among_bad_input_exits_1(tmp_path, capsys, monkeypatch):
    from drumscore.cli.commands import render
    from drumscore.errors import WriteError

    single = render.render_one

    def failing(args):
        if args.score == "xue":
            raise WriteError(f"cannot write {args.output!r}: No space left on device")
        return single(args)

    monkeypatch.setattr(render, "render_one", failing)
    template = str(tmp_path / "{key}.mid")
    code, _, stderr = run_cli(["render", "lu", "nosuch", "xue", "-o", template], capsys)
    assert code == 1, stderr
    assert "nosuch" in stderr and "No space left" in stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lu_1_zhushu.mid"]


def test_names_that_collide_are_refused_before_any_work(tmp_path, capsys):
    err = expect_error(["render", "lu", "xue", "-o", str(tmp_path / "{section}.wav")], capsys)
    assert "-o template" in err and "{key}" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["lu", "-o", "{nope}.mid"], "unknown placeholder {nope}"),
        (["lu", "-o", "{key.mid"], "malformed"),
        (["lu", "--section", "touhu,touhu", "-o", "{key}.mid"], "repeats item 1"),
        (["lu", "--section", "touhu,bad", "-o", "{key}.mid"], "'bad'"),
        (["lu", "--all", "-o", "{key}.mid"], "leave the SCORE names out"),
    ],
)
def test_bad_templates_and_section_lists_are_usage_errors(
    tmp_path, capsys, monkeypatch, argv, said
):
    monkeypatch.chdir(tmp_path)
    assert said in expect_error(["render", *argv], capsys)
    assert list(tmp_path.iterdir()) == []


# --- the same command, the same bytes -----------------------------------------------------------


@pytest.mark.parametrize("ext", ["mid", "musicxml", "mxl", "svg", "wav", "flac"])
def test_rendering_twice_gives_identical_bytes(tmp_path, capsys, ext):
    if ext == "svg":
        pytest.importorskip("verovio")
    first, second = tmp_path / f"a.{ext}", tmp_path / f"b.{ext}"
    for out in (first, second):
        argv = ["render", "xue/2", "--section", "touhu", "-q", "-o", str(out)]
        assert run_cli(argv, capsys)[0] == 0
    assert first.read_bytes() == second.read_bytes()
    if ext == "mid":
        midi = mido.MidiFile(file=io.BytesIO(first.read_bytes()), charset="utf-8")
        strokes = resolve("xue/2").pattern.section("touhu")
        assert len([m for m in midi.tracks[1] if m.type == "note_on"]) == len(strokes)


def test_the_folders_a_template_names_are_made_for_it(tmp_path, capsys):
    template = str(tmp_path / "out" / "{edition}" / "{state}{figure}-{section}.mid")
    code, _, stderr = run_cli(["render", "lu", "lu@benyi", "-o", template], capsys)
    assert code == 0 and stderr == ""
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["benyi", "zhushu"]
    assert [p.name for p in (tmp_path / "out" / "benyi").iterdir()] == ["lu1-she.mid"]


def test_a_folder_that_cannot_be_made_is_one_error_before_any_work(tmp_path, capsys):
    (tmp_path / "file").write_text("not a folder")
    template = str(tmp_path / "file" / "{key}-{section}.mid")
    code, out, err = run_cli(["render", "lu", "xue", "-o", template], capsys)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "cannot make the output folder" in err


def test_a_batch_is_one_render_budget_refused_before_any_file(tmp_path, capsys):
    """Each file alone is within 12 hours; together they are not."""
    out = tmp_path / "out"
    err = expect_error(
        [
            "render",
            "lu",
            "xue",
            "--section",
            "touhu",
            "--duration",
            "7h",
            "-o",
            f"{out}/{{key}}.mid",
        ],
        capsys,
    )
    assert "would last 14 h for 2 files together" in err and "12 hours" in err
    assert not out.exists()


# --- in the reader's language -------------------------------------------------------------------


def test_a_batch_summary_in_traditional_chinese(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    out_dir = tmp_path / "out"
    code, out, _ = run_cli(["render", "lu", "xue", "-o", f"{out_dir}/{{key}}.mid"], capsys)
    assert code == 0
    assert out.startswith(f"已在 {out_dir} 寫入 2 個檔案，耗時 ") and out.rstrip().endswith("秒")


def test_a_bad_template_in_simplified_chinese_names_the_flag(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(["render", "lu", "-o", "{nope}.mid"], capsys)
    assert code == 2 and out == ""
    assert err.startswith("drumscore：错误：-o 模板「{nope}.mid」含有未知的占位符 {nope}")
    assert list(tmp_path.iterdir()) == []


def test_each_file_of_a_batch_is_rendered_in_the_language_of_the_run(tmp_path, capsys, monkeypatch):
    """The pool's threads run in the caller's context: a message made while rendering speaks
    --lang, while the files themselves are written in English (in_english) meanwhile."""
    from drumscore import i18n
    from drumscore.cli.commands import render

    single = render.render_one
    spoken: list[str] = []

    def recording(args):
        spoken.append(i18n._("options"))
        return single(args)

    monkeypatch.setattr(render, "render_one", recording)
    template = f"{tmp_path}/{{key}}-{{section}}.mid"
    code, out, err = run_cli(
        ["--lang", "zh-Hant", "render", "lu", "xue", "--section", "she,touhu", "-o", template],
        capsys,
    )
    assert code == 0, err
    assert spoken == ["選項"] * 4
    assert out.startswith("已在 ")
