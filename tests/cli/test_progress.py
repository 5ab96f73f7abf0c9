"""The progress bar: drawn on a terminal, never off one or with --quiet."""

from __future__ import annotations

import io

from drumscore.cli import progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def on_terminal(monkeypatch) -> Terminal:
    """stderr as a terminal (set inside the test: pytest swaps stderr after fixtures run)."""
    screen = Terminal()
    monkeypatch.setattr("sys.stderr", screen)
    monkeypatch.setattr(progress, "DELAY", 0)
    return screen


def test_bar_on_a_terminal(monkeypatch):
    terminal = on_terminal(monkeypatch)
    with progress.progress_bar(44100 * 10, 44100) as tick:
        for _ in range(10):
            tick(44100)
    assert "rendering" in terminal.getvalue() and "/10 s of audio" in terminal.getvalue()


def test_no_bar_with_quiet(monkeypatch):
    terminal = on_terminal(monkeypatch)
    with progress.progress_bar(44100 * 10, 44100, quiet=True) as tick:
        tick(44100)
    assert terminal.getvalue() == ""


def test_no_bar_off_a_terminal(monkeypatch):
    screen = io.StringIO()
    monkeypatch.setattr("sys.stderr", screen)
    with progress.progress_bar(100, 10) as tick:
        tick(100)
    assert screen.getvalue() == ""


def test_bar_in_traditional_chinese(monkeypatch):
    from drumscore import i18n

    terminal = on_terminal(monkeypatch)
    with i18n.speaking("zh-Hant"), progress.progress_bar(44100 * 10, 44100) as tick:
        for _ in range(10):
            tick(44100)
    assert "輸出中: " in terminal.getvalue() and "/10 秒音訊" in terminal.getvalue()
    assert "rendering" not in terminal.getvalue()
