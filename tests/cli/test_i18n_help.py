"""The command line in the readers' languages: help, usage errors and messages in 繁體中文, 简体中文
and English, and help laid out by terminal columns so that Chinese fits the terminal too."""

from __future__ import annotations

import re

import pytest
from speaking import LOCALES

from drumscore.cli import build_parser, wrap_columns
from drumscore.display import width

#: Three or more English words in a row: a sentence left untranslated.
ENGLISH_RUN = re.compile(r"(?<![-\w./{'@])[a-z]{2,}(?: [a-z]{2,}){2,}")


def commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if hasattr(a, "choices") and a.dest == "command")
    return list(sub.choices)


def _help(cli, monkeypatch, language: str, *argv: str, columns: int = 80) -> str:
    monkeypatch.setenv("LANG", LOCALES[language])
    monkeypatch.setenv("COLUMNS", str(columns))
    code, out, err = cli(*argv, "--help")
    assert code == 0 and err == "", err
    return out


def _english_left(text: str, description: bool = True) -> list[str]:
    """The help lines (not the usage or the example, nor the description unless `description`)
    that hold an English run of words."""
    found, in_usage, in_description = [], True, not description
    for line in text.splitlines():
        if in_usage:
            in_usage = bool(line.strip())
            continue
        if in_description:
            in_description = not line.endswith(("：", ":")) or line.startswith(" ")
            continue
        if line.startswith(("例：", "example:")):
            continue
        if ENGLISH_RUN.search(line):
            found.append(line)
    return found


# -- which language speaks --------------------------------------------------------------------


def test_main_help_in_simplified_chinese(cli, monkeypatch):
    out = _help(cli, monkeypatch, "zh_Hans")
    assert "聆听、比较、导出《礼记·投壶》篇末的鼓谱" in out
    assert "\n选项：\n" in out and "\n位置参数：\n" in out
    assert "列出语料库中的鼓谱及其击数" in out  # the list command's line
    assert "聆聽" not in out and "鼓譜" not in out  # no traditional form of the same words


@pytest.mark.parametrize(
    ("language", "description", "heading"),
    [
        ("zh_Hant", "以均勻的速度（間若一）輸出鼓譜。", "練習（預設全部關閉）："),
        ("zh_Hans", "以均匀的速度（间若一）输出鼓谱。", "练习（默认全部关闭）："),
    ],
)
def test_render_help_is_chinese_throughout(cli, monkeypatch, language, description, heading):
    out = _help(cli, monkeypatch, language, "render")
    assert out.startswith("用法：drumscore render")
    assert description in out.replace("\n", "")
    assert f"\n{heading}\n" in out
    assert _english_left(out) == []


@pytest.mark.parametrize("command", commands())
@pytest.mark.parametrize("language", ["zh_Hant", "zh_Hans"])
def test_every_command_help_is_chinese(cli, monkeypatch, command, language):
    out = _help(cli, monkeypatch, language, command)
    assert _english_left(out) == []
    if command == "play":
        assert ("以均勻的速度" if language == "zh_Hant" else "以均匀的速度") in out


def test_the_english_check_finds_english(cli, monkeypatch):
    """The heuristic of the tests above finds the English help it is meant to find."""
    out = _help(cli, monkeypatch, "en", "render")
    assert len(_english_left(out)) > 20


def test_c_locale_is_english(cli, monkeypatch):
    out = _help(cli, monkeypatch, "en", "render")
    assert "Render a score at an even tempo (間若一)." in out.replace("\n", " ")
    assert "\npractice (all off by default):\n" in out
    assert "\noptions:\n" in out
    assert not re.search(r"[\u4e00-\u9fff]{4}", out.replace("間若一", ""))


def test_an_unknown_language_is_refused_before_any_help_in_the_environments(cli, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, out, err = cli("--lang", "tlh", "render", "--help")
    assert code == 2 and out == ""
    assert err.startswith("drumscore：錯誤：--lang「tlh」") and err.count("\n") == 1


def test_a_language_given_by_another_name_gives_the_help_in_it(cli, monkeypatch):
    monkeypatch.setenv("LANG", "C.UTF-8")
    code, out, err = cli("--lang", "繁體", "render", "--help")
    assert code == 0 and "zh-Hant" in err
    assert out.startswith("用法：drumscore render") or "每分鐘" in out


# -- errors in each language ------------------------------------------------------------------

USAGE_ERRORS = {
    "zh_Hant": (
        "drumscore：錯誤：參數 --repeat：「abc」不是至多 12 位數的整數"
        "（見「drumscore render --help」）"
    ),
    "zh_Hans": (
        "drumscore：错误：参数 --repeat：「abc」不是至多 12 位的整数"
        "（见「drumscore render --help」）"
    ),
    "en": (
        "drumscore: error: argument --repeat: 'abc' is not a whole number of at most 12 digits "
        "(see 'drumscore render --help')"
    ),
}


@pytest.mark.parametrize("language", list(LOCALES))
def test_usage_error_in_each_language(cli, monkeypatch, tmp_path, language):
    monkeypatch.setenv("LANG", LOCALES[language])
    code, out, err = cli("render", "lu", "--repeat", "abc", "-o", tmp_path / "x.wav")
    assert (code, out) == (2, "")
    assert err == USAGE_ERRORS[language] + "\n"
    assert not list(tmp_path.iterdir())


OPTION_ERRORS = {
    "zh_Hant": "--stereo 只在有 --audio OUT.wav 時適用（用於：音訊檔案，而非比較本身）；"
    "請加上 --audio，或去掉 --stereo",
    "zh_Hans": "--stereo 只在有 --audio OUT.wav 时适用（用于：音频文件，而非比较本身）；"
    "请加上 --audio，或去掉 --stereo",
    "en": "--stereo only applies with --audio OUT.wav (it is for the audio file, not the "
    "comparison); add --audio or leave --stereo out",
}


@pytest.mark.parametrize("language", list(LOCALES))
def test_option_only_with_another_in_each_language(cli, monkeypatch, language):
    monkeypatch.setenv("LANG", LOCALES[language])
    code, out, err = cli("compare", "lu", "xue", "--stereo")
    assert (code, out) == (2, "")
    assert err.rstrip("\n").endswith(OPTION_ERRORS[language]), err


def test_two_options_given_where_they_do_nothing_are_joined_in_chinese(cli, monkeypatch):
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    code, _, err = cli("compare", "lu", "xue", "--stereo", "--bpm", "90")
    assert code == 2
    assert "--stereo 與 --bpm '90' 只在有 --audio OUT.wav 時適用" in err


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "drumscore：錯誤：無法辨識的參數：--bogus（見「drumscore list --help」）"),
        ("zh_Hans", "drumscore：错误：无法识别的参数：--bogus（见「drumscore list --help」）"),
        ("en", "drumscore: error: unrecognized arguments: --bogus (see 'drumscore list --help')"),
    ],
)
def test_unrecognized_arguments_in_each_language(cli, monkeypatch, language, expected):
    monkeypatch.setenv("LANG", LOCALES[language])
    code, out, err = cli("list", "--bogus")
    assert (code, out, err) == (2, "", expected + "\n")


def test_what_was_written_is_said_in_chinese(cli, monkeypatch, tmp_path):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    path = tmp_path / "lu2.json"
    code, out, err = cli("collate", "lu/2", "-o", path)
    assert code == 0 and err == ""
    assert out == f"已写入 {path}：校勘记，格式为 JSON\n"
    assert path.read_text(encoding="utf-8").startswith("[")  # the data stays data


# -- help laid out by terminal columns --------------------------------------------------------


@pytest.mark.parametrize("columns", [60, 80])
@pytest.mark.parametrize("language", list(LOCALES))
def test_no_help_line_is_wider_than_the_terminal(cli, monkeypatch, language, columns):
    widest = {}
    for command in ["", *commands()]:
        argv = [command] if command else []
        lines = _help(cli, monkeypatch, language, *argv, columns=columns).splitlines()
        widest[command or "drumscore"] = max(width(line) for line in lines)
    assert max(widest.values()) <= columns, widest


def test_help_columns_line_up_after_a_wide_metavar(cli, monkeypatch):
    """--label X=薛 is one column wider than its length: its help starts where the others do."""
    out = _help(cli, monkeypatch, "zh_Hant", "extract")
    starts = {
        flag: width(line[: line.index(text)])
        for line in out.splitlines()
        for flag, text in (("--label", "把標目"), ("--glyph", "把字形"))
        if line.lstrip().startswith(flag)
    }
    assert starts["--label"] == starts["--glyph"] == 24


def test_wrap_breaks_chinese_anywhere_but_before_closing_marks():
    text = "每分鐘的擊數（預設 60：每秒一擊），以及 --humanize 8 的選項。"
    lines = wrap_columns(text, 12)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(width(line) <= 12 for line in lines)
    assert not any(line[0] in "，。：）" or line[-1] in "（" for line in lines), lines
    assert any("60：" in line for line in lines)  # a number is never cut
    assert any(line.startswith("--humanize") or "--humanize" in line for line in lines)


def test_wrap_breaks_english_at_spaces_only():
    assert wrap_columns("play the section  N times (default 1)", 20) == [
        "play the section N",
        "times (default 1)",
    ]


# -- bad input ---------------------------------------------------------------------------------


def test_wrap_cuts_a_word_wider_than_the_line():
    lines = wrap_columns("a xue/2@benyi-and-more-words b", 8)
    assert all(width(line) <= 8 for line in lines)
    assert "".join(lines).replace(" ", "") == "axue/2@benyi-and-more-wordsb"


def test_wrap_of_nothing_is_no_lines():
    assert wrap_columns("", 10) == []
    assert wrap_columns("   \n ", 10) == []
