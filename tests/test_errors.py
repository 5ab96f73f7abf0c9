"""One exception hierarchy: every class in drumscore.errors, exported, with its exit status."""

import ast
import inspect
import sys
from pathlib import Path

import pytest
from cli_run import run_cli
from speaking import refused

import drumscore
from drumscore import errors
from drumscore.cli.options import error_message, flag_for

CLASSES = [
    c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__
]


def test_every_exception_class_lives_in_errors_and_is_exported():
    assert len(CLASSES) >= 16
    for cls in CLASSES:
        assert issubclass(cls, errors.DrumscoreError)
        assert getattr(drumscore, cls.__name__) is cls


def test_no_exception_class_is_defined_outside_errors():
    for path in Path(errors.__file__).parent.rglob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                assert not any(b.endswith(("Error", "Exception")) for b in bases), (path, node.name)


@pytest.mark.parametrize(
    ("cls", "status"),
    [
        (errors.OptionError, 2),
        (errors.NotationError, 2),
        (errors.OutputError, 2),
        (errors.KitError, 2),
        (errors.EngraveError, 1),
        (errors.PlaybackError, 1),
        (errors.WriteError, 1),
        (errors.MissingDependencyError, 1),
    ],
)
def test_the_exit_status_follows_the_class(cls, status):
    assert cls.exit_status == status


def test_a_missing_dependency_is_an_import_error_with_the_install_line():
    with pytest.raises(ImportError) as info:
        errors.require("no_such_module_here", extra="plot", needed="plotting needs it")
    assert isinstance(info.value, errors.MissingDependencyError)
    assert "plotting needs it" in str(info.value)
    assert "pip install 'drumscore[plot]'" in str(info.value)


def test_the_command_line_spells_the_parameter_as_its_flag():
    exc = errors.OptionError("repeats 0 is not a count", option="repeats")
    assert error_message(exc) == "--repeat 0 is not a count"
    assert flag_for("midi_notes") == "--midi-notes"
    # a message that does not start with the parameter is left alone
    assert error_message(errors.OptionError("bad", option="bpm")) == "bad"


def test_a_python_caller_reads_the_parameter_and_a_cli_user_the_flag(capsys, tmp_path):
    with pytest.raises(errors.TempoError) as info:
        drumscore.Tempo.from_bpm(0)
    assert str(info.value).startswith("bpm 0 is out of range") and info.value.option == "bpm"
    code, _, err = run_cli(["render", "lu", "--bpm", "0", "-o", str(tmp_path / "x.wav")], capsys)
    assert code == 2 and err.startswith("drumscore: error: --bpm '0' is out of range")


def test_a_runtime_failure_exits_1(capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("DRUMSCORE_MUSESCORE", str(tmp_path / "none"))
    argv = ["render", "lu", "-o", str(tmp_path / "x.pdf"), "--engraver", "musescore"]
    code, _, err = run_cli(argv, capsys)
    assert code == 1 and "DRUMSCORE_MUSESCORE" in err and "Traceback" not in err


# --- in each reader's language ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "zh_Hant",
            "這需要 Python 套件 no_such_module_here（No module named 'no_such_module_here'）："
            "pip install 'drumscore[play]'；在 Debian 上另需 apt install libportaudio2",
        ),
        (
            "zh_Hans",
            "这需要 Python 包 no_such_module_here（No module named 'no_such_module_here'）："
            "pip install 'drumscore[play]'；在 Debian 上另需 apt install libportaudio2",
        ),
        (
            "en",
            "this needs the Python package no_such_module_here (No module named "
            "'no_such_module_here'): pip install 'drumscore[play]' and, on Debian, apt install "
            "libportaudio2",
        ),
    ],
)
def test_the_install_line_speaks_the_readers_language_and_keeps_the_commands(language, expected):
    from drumscore import i18n

    with i18n.speaking(language), pytest.raises(errors.MissingDependencyError) as err:
        errors.require("no_such_module_here", extra="play", debian="libportaudio2")
    assert str(err.value) == expected
    assert err.value.install.startswith("pip install 'drumscore[play]'")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("zh_Hant", "--velocity「1,2,3」：有 3 項，但須為 2 項；請寫成 PI,GU，例如 72,112"),
        ("zh_Hans", "--velocity「1,2,3」：有 3 项，但须为 2 项；请写成 PI,GU，例如 72,112"),
        ("en", "--velocity '1,2,3': 3 items where it takes 2; write PI,GU, such as 72,112"),
    ],
)
def test_an_option_error_keeps_the_flag_first_in_every_language(
    cli, monkeypatch, tmp_path, language, expected
):
    argv = ("render", "lu", "--velocity", "1,2,3", "-o", tmp_path / "x.wav")
    assert refused(cli, monkeypatch, language, tmp_path, *argv) == expected + "\n"


def test_an_optional_library_that_prints_at_import_does_not_reach_the_output(
    tmp_path, monkeypatch, capsys
):
    """pyfluidsynth prints where it found its library when CI is set; a command's stdout (its
    --json above all) must hold only what drumscore writes."""
    (tmp_path / "chatty_library_here.py").write_text(
        "print('found at libchatty.so.3')\nVALUE = 7\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = errors.require("chatty_library_here", extra="soundfont")
        assert module.VALUE == 7
        assert capsys.readouterr().out == ""
    finally:
        sys.modules.pop("chatty_library_here", None)
