"""The command line refusing bad input in each reader's language: the locale that asks for each
catalog, and one call that runs drumscore in it and checks the refusal's form."""

from __future__ import annotations

from pathlib import Path

import pytest

#: A locale (as LANG) that asks for each catalog.
LOCALES = {"zh_Hant": "zh_TW.UTF-8", "zh_Hans": "zh_CN.UTF-8", "en": "C.UTF-8"}
#: How the command line starts an error in each language.
ERROR = {"zh_Hant": "drumscore：錯誤：", "zh_Hans": "drumscore：错误：", "en": "drumscore: error: "}


def refused(cli, monkeypatch: pytest.MonkeyPatch, language: str, folder: Path, *argv) -> str:
    """stderr of `drumscore ARGV` run with LANG asking for `language`, after checking it failed as
    bad input (exit 2, one error line in that language, no traceback, nothing on stdout) and left
    `folder` (where its output would go) empty. The error's text follows the prefix."""
    monkeypatch.setenv("LANG", LOCALES[language])
    code, out, err = cli(*argv)
    assert code == 2, (code, err)
    assert out == ""
    assert "Traceback" not in err
    assert err.startswith(ERROR[language]) and err.count(ERROR[language]) == 1, err
    assert list(folder.iterdir()) == [], "a refused command wrote something"
    return err.removeprefix(ERROR[language])


def column_of(line: str, text: str) -> int:
    """The terminal column where `text` starts in `line` (CJK two columns wide): to see that a
    Chinese table or list of fields lines up."""
    from drumscore.display import width

    return width(line[: line.index(text)])
