"""The keys of a live play, one table for the terminal (cli/live.py) and the site's player page.

The page's script reads these from the page data the site writes, so both follow one table.
"""

from __future__ import annotations

#: Tempo steps in strokes a minute, by key: + and - by one, ] and [ by five.
TEMPO_STEPS: dict[str, int] = {"+": 1, "=": 1, "-": -1, "_": -1, "]": 5, "[": -5}
PAUSE = " "
TAP = "t"
SWITCH = "s"
NEXT_ITEM = "n"
STOP_AFTER_PASS = "q"
STOP_NOW = "\x1b"
#: Taps further apart than this (seconds) start a new tap tempo.
TAP_RESET = 2.0
#: The taps averaged: the last few intervals.
TAPS = 4
#: A tapped tempo is rounded to this many decimals (ties to even, as Python's round has it).
TAP_DECIMALS = 1
