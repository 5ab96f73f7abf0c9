"""The live display of `drumscore play` in a pseudo-terminal, read back through a terminal
emulator (pyte): at every width each line fits, nothing is left to the terminal to wrap, and a
resize (SIGWINCH) repaints it whole."""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path

import pytest

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

TESTS = Path(__file__).resolve().parents[1]
ROWS = 24


class Terminal:
    """`drumscore play ARGS` on a paced stand-in device, in a pty of `columns` × `rows`."""

    def __init__(self, tmp_path: Path, columns: int, *args: str, rows: int = ROWS) -> None:
        env = dict(os.environ, PYTHONIOENCODING="utf-8", PYTHONPATH=str(TESTS.parent))
        env.pop("COLUMNS", None)
        env.pop("LINES", None)
        self.child = pexpect.spawn(
            sys.executable,
            [str(TESTS / "fake_audio.py"), str(tmp_path / "captured.raw"), *args],
            env=env,
            encoding="utf-8",
            dimensions=(rows, columns),
            timeout=20,
        )
        self.child.delaybeforesend = None
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.screen)

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen.display]

    def wait(self, predicate, timeout: float = 15.0) -> list[str]:
        """Read what the program writes until `predicate(lines)` holds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            quiet = False
            try:
                self.stream.feed(self.child.read_nonblocking(65536, timeout=0.05))
            except pexpect.TIMEOUT:
                quiet = True
            # a frame may come in several reads: the screen is judged once the program has
            # paused (nothing for 50 ms), never half-painted
            if quiet and predicate(self.lines()):
                return self.lines()
        raise AssertionError("\n".join(self.lines()))

    def resize(self, columns: int, rows: int = ROWS) -> None:
        self.screen.resize(rows, columns)
        self.child.setwinsize(rows, columns)  # the child gets SIGWINCH

    def stop(self) -> None:
        self.child.send("\x1b")
        self.child.expect(pexpect.EOF)
        self.child.close()
        assert self.child.exitstatus == 0


def stroke(lines: list[str]) -> int | None:
    """The stroke number on the status line, if one is shown."""
    found = [m for line in lines if (m := re.search(r"stroke (\d+)/12\b", line))]
    return int(found[-1].group(1)) if found else None


def later(terminal: Terminal, strokes: int = 2) -> list[str]:
    """The screen once `strokes` more strokes have been painted."""
    seen: list[int] = []

    def moved(lines: list[str]) -> bool:
        now = stroke(lines)
        if now is not None and (not seen or now != seen[-1]):
            seen.append(now)
        return len(seen) > strokes

    return terminal.wait(moved)


def assert_intact(lines: list[str], *waiting: str) -> None:
    """The live display whole: the notation, the status and the keys each once, none wrapped."""
    assert sum("│半│" in line for line in lines) == 1, lines  # the notation line, not repeated
    assert sum(stroke([line]) is not None for line in lines) == 1, lines
    assert sum("keys:" in line for line in lines) == 1, lines
    assert any("Esc stop now" in line for line in lines), lines  # every key shown, none cut
    for what in waiting:  # a field of the status is never split across lines
        assert any(what in line for line in lines), (what, lines)


PLAY = ("lu", "--section", "touhu", "--loop", "--count-in", "1", "--bpm", "240")


@pytest.mark.parametrize("columns", [40, 60, 80, 120])
def test_the_live_display_fits_every_width(tmp_path, columns):
    terminal = Terminal(tmp_path, columns, *PLAY)
    terminal.wait(lambda lines: stroke(lines) is not None)
    for key in "]+s":
        terminal.child.send(key)
    terminal.wait(lambda lines: any("246/min" in line for line in lines))
    assert_intact(later(terminal), "[switch to she at end of pass]", "246/min")
    terminal.stop()


def test_a_resize_repaints_the_display_at_the_new_width(tmp_path):
    terminal = Terminal(tmp_path, 120, *PLAY)
    terminal.wait(lambda lines: stroke(lines) is not None)
    terminal.child.send("s")
    assert_intact(later(terminal), "[switch to she at end of pass]")
    terminal.resize(40)
    assert_intact(later(terminal), "[switch to she at end of pass]")
    terminal.resize(100)
    lines = later(terminal)
    assert_intact(lines, "[switch to she at end of pass]")
    assert max(len(line) for line in lines) > 40  # painted at the new width, not the old one
    terminal.stop()


def test_the_big_display_fits_and_gives_way_as_the_terminal_shrinks_and_grows(tmp_path):
    terminal = Terminal(tmp_path, 80, "--big", *PLAY)
    big = terminal.wait(lambda lines: any("stroke" in line and " of 12" in line for line in lines))
    assert sum(line.count("█") for line in big) > 50  # the stroke drawn large
    terminal.resize(60, 14)  # too small for it: the normal lines
    small = terminal.wait(lambda lines: stroke(lines) is not None and "█" not in "".join(lines))
    assert_intact(small)
    terminal.resize(40, 24)
    grown = terminal.wait(lambda lines: "█" in "".join(lines) and " of 12" in "".join(lines))
    assert grown[-1].lstrip().startswith("space pause")  # the keys, as many as fit, at the foot
    assert all(len(line) < 40 for line in grown)
    terminal.stop()


# --- in the reader's language -------------------------------------------------------------------


class RecordingTerminal(Terminal):
    """A Terminal that also keeps every character the program wrote."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.raw = ""
        feed = self.stream.feed

        def keep(text: str) -> None:
            self.raw += text
            feed(text)

        self.stream.feed = keep  # type: ignore[method-assign]

    def painted(self) -> list[str]:
        """Each line the program painted (it clears a line before painting it), plain."""
        control = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
        return [
            re.split(r"[\r\n]", control.sub("", chunk))[0]
            for chunk in self.raw.split("\x1b[2K")[1:]
        ]


def zh_stroke(lines: list[str]) -> int | None:
    found = [m for line in lines if (m := re.search(r"第 (\d+) 擊（共 12）", line))]
    return int(found[-1].group(1)) if found else None


@pytest.mark.parametrize("columns", [40, 80])
def test_the_live_display_in_traditional_chinese_fits(tmp_path, monkeypatch, columns):
    from drumscore.play.liveview import shown_width

    monkeypatch.setenv("LANG", "zh_TW.UTF-8")
    terminal = RecordingTerminal(tmp_path, columns, *PLAY)
    terminal.wait(lambda lines: zh_stroke(lines) is not None)
    for key in "]+s":
        terminal.child.send(key)
    lines = terminal.wait(
        lambda lines: (
            any("每分鐘 246 擊" in line for line in lines)
            and any("〔本遍結束時切換至射〕" in line for line in lines)
        )
    )
    text = "\n".join(lines)
    assert sum("按鍵：" in line for line in lines) == 1, lines  # the key help, once
    for field in ("空白鍵 暫停", "t 打拍", "q 本遍後停", "Esc 立即停止", "第 1 遍", "秒"):
        assert field in text, (field, lines)  # every field whole, none split across lines
    assert sum(zh_stroke([line]) is not None for line in lines) == 1, lines
    painted = [line for line in terminal.painted() if line]
    assert not [line for line in painted if "stroke" in line or "keys" in line], painted
    assert painted and max(shown_width(line) for line in painted) <= columns - 1, painted
    terminal.stop()
