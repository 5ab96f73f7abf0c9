"""README's Python API example runs as written, and says what it gives."""

import re
from pathlib import Path

import soundfile as sf

from drumscore import Counts

README = Path(__file__).resolve().parents[1] / "README.md"


def api_example() -> str:
    text = README.read_text(encoding="utf-8")
    section = text[text.index("## Python API") :]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_python_api_example_runs_as_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    names: dict = {}
    exec(compile(api_example(), "README.md", "exec"), names)
    assert names["pattern"].counts("touhu") == Counts(pi=2, gu=1)
    assert str(names["pattern"]) == "○□○○半○□○"
    assert names["comparison"].distance == 1
    info = sf.info(str(tmp_path / "xue2.wav"))
    assert info.samplerate == 44100 and info.channels == 2
    assert (tmp_path / "xue2.mid").read_bytes().startswith(b"MThd")
    assert names["notation"].lstrip().startswith(b"<?xml")


def test_the_debian_packages_readme_names_are_those_ci_installs():
    text = README.read_text(encoding="utf-8")
    named = re.search(r"sudo apt-get install ([^\n`]+)\n", text).group(1).split()
    listed = Path(README.parent, ".ci", "apt-packages").read_text(encoding="utf-8")
    ci = [line.split("#")[0].strip() for line in listed.splitlines()]
    assert named == [p for p in ci if p]


def _commands(section: str) -> list[str]:
    return re.findall(r"^(python3 -m venv .+)$", section, re.M)


def test_each_chinese_section_gives_the_quick_starts_two_commands():
    text = README.read_text(encoding="utf-8")
    english = text[text.index("## Quick start") : text.index("## Command line")]
    assert len(_commands(english)) == 2
    for heading, next_heading in (("## 繁體中文", "## 简体中文"), ("## 简体中文", "## English")):
        section = text[text.index(heading) : text.index(next_heading)]
        assert _commands(section) == _commands(english), heading
        assert text.index(heading) < text.index("## Quick start")


def test_a_web_server_the_readme_starts_listens_on_this_machine_only():
    """`drumscore serve` keeps to 127.0.0.1; so does every `python3 -m http.server` README
    gives (without -b it listens on every interface), in each language."""
    commands = re.findall(r"python3 -m http\.server[^#\n]*", README.read_text(encoding="utf-8"))
    assert len(commands) == 3
    assert all(" -b 127.0.0.1 " in command for command in commands), commands


def test_the_python_api_comes_before_the_limits():
    headings = re.findall(r"(?m)^## (.+)$", README.read_text(encoding="utf-8"))
    assert headings.index("Python API") < headings.index("Limits")
