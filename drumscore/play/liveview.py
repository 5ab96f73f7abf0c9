"""What `drumscore play` shows while it plays: the notation with the stroke being heard highlighted.

Pure functions from (timeline, stroke number k) to text, so the display can be tested without a
terminal. Stroke numbers run on past the end of the timeline when it loops.
"""

from __future__ import annotations

from drumscore.display import width
from drumscore.model import Section
from drumscore.timeline import Timeline

#: Reverse video marks the stroke being heard; strokes already heard in this pass are dimmed.
HIGHLIGHT, HIGHLIGHT_END = "\x1b[7m", "\x1b[27m"
DIM, DIM_END = "\x1b[2m", "\x1b[22m"
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"
RESET = "\x1b[0m"
CLEAR_LINE = "\x1b[2K"

HALF = "│半│"


def place(timeline: Timeline, k: int) -> tuple[int, int]:
    """(pass, index): which pass through the section (from 1) and which stroke of it (from 0)."""
    if k < 0:
        raise ValueError(f"stroke numbers start at 0, not {k!r}")
    n = len(timeline.strokes)
    return k // n + 1, k % n


def part(timeline: Timeline, index: int) -> str:
    """Which side of 半 a stroke of the played section stands on."""
    if timeline.section is Section.TOUHU:
        return "after 半 (投壺)"
    if timeline.section is Section.HEAD:
        return "before 半"
    half = timeline.score.pattern.half
    if half is None:
        return "射"
    return "before 半" if index < half else "after 半 (投壺)"


def _cells(timeline: Timeline, index: int) -> list[tuple[str, str]]:
    """(plain, styled) pieces of the notation line, the 半 division included."""
    cells = []
    if timeline.section is Section.TOUHU:
        cells.append((HALF + " ", HALF + " "))
    half = timeline.half_index
    for j, stroke in enumerate(timeline.strokes):
        if j == half:
            cells.append((f" {HALF} ", f" {HALF} "))
        symbol = stroke.drum.symbol
        if j == index:
            styled = HIGHLIGHT + symbol + HIGHLIGHT_END
        elif j < index:
            styled = DIM + symbol + DIM_END
        else:
            styled = symbol
        cells.append((symbol, styled))
    if timeline.section is Section.HEAD:
        cells.append((" " + HALF, " " + HALF))
    return cells


def notation_line(timeline: Timeline, k: int, columns: int = 80) -> str:
    """The section's notation with stroke k highlighted, cut to a window around it if too wide."""
    _, index = place(timeline, k)
    cells = _cells(timeline, index)
    room = max(8, columns - 4)
    if sum(width(plain) for plain, _ in cells) <= room:
        return "  " + "".join(styled for _, styled in cells)
    current = next(i for i, (_, styled) in enumerate(cells) if HIGHLIGHT in styled)
    lo = hi = current
    used = width(cells[current][0])
    room -= 2  # the ellipses at either end
    while True:
        grown = False
        for side in (hi + 1, lo - 1):
            if 0 <= side < len(cells) and used + width(cells[side][0]) <= room:
                used += width(cells[side][0])
                lo, hi = min(lo, side), max(hi, side)
                grown = True
        if not grown:
            break
    text = "".join(styled for _, styled in cells[lo : hi + 1])
    return "  " + ("…" if lo > 0 else "") + text + ("…" if hi < len(cells) - 1 else "")


def status_line(timeline: Timeline, k: int, loop: bool = False) -> str:
    """Stroke number, drum, side of 半, pass and time for stroke k."""
    n = len(timeline.strokes)
    pass_no, index = place(timeline, k)
    stroke = timeline.strokes[index]
    passes = f"pass {pass_no}" if loop else f"pass {pass_no}/{timeline.repeats}"
    seconds = float(timeline.tempo.onset_seconds(k))
    return (
        f"  stroke {index + 1}/{n}  {stroke.drum.symbol} {stroke.drum.value}  "
        f"{part(timeline, index)}  {passes}  {seconds:.2f} s"
    )


def frame(timeline: Timeline, k: int, columns: int = 80, loop: bool = False) -> list[str]:
    """The lines the terminal shows while stroke k sounds."""
    return [notation_line(timeline, k, columns), status_line(timeline, k, loop)]


def repaint(lines: list[str], previous: int) -> str:
    """Text that replaces the `previous` lines last painted (0 for the first paint) with `lines`."""
    up = f"\r\x1b[{previous - 1}A" if previous > 1 else "\r"
    return (up if previous else "") + "\n".join(CLEAR_LINE + line for line in lines)


def restore() -> str:
    """Text that leaves the terminal as it was: attributes reset, cursor shown, on a fresh line."""
    return RESET + SHOW_CURSOR + "\n"


def plain_lines(timeline: Timeline, k: int) -> list[str]:
    """For output that is not a terminal: one line per stroke, after a line for a new pass or 半."""
    n = len(timeline.strokes)
    pass_no, index = place(timeline, k)
    lines = []
    if index == 0 and k > 0:
        lines.append(f"-- pass {pass_no} --")
    if index == timeline.half_index:
        lines.append("-- 半 --")
    stroke = timeline.strokes[index]
    seconds = float(timeline.tempo.onset_seconds(k))
    lines.append(
        f"{k + 1:>5}  {seconds:>9.3f} s  {stroke.drum.symbol} {stroke.drum.value}  "
        f"{index + 1:>3}/{n}  {part(timeline, index)}"
    )
    return lines
