"""What `drumscore play` shows while it plays: the notation with the stroke being heard highlighted.

Pure functions from (timeline, stroke number k) to text, so the display can be tested without a
terminal. Stroke numbers run on past the end of the timeline when it loops.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from drumscore.conductor.timeline import Timeline
from drumscore.conductor.track import Hit
from drumscore.display import centre, cut, width, wrap_phrases
from drumscore.i18n import N_, _, aside, labelled, milliseconds, per_minute, pgettext
from drumscore.i18n import seconds as seconds_text
from drumscore.model import HALF, SYMBOLS, Drum, Section
from drumscore.play.listening import Verdict

#: Reverse video marks the stroke being heard; strokes already heard in this pass are dimmed.
HIGHLIGHT, HIGHLIGHT_END = "\x1b[7m", "\x1b[27m"
DIM, DIM_END = "\x1b[2m", "\x1b[22m"
HIDE_CURSOR, SHOW_CURSOR = "\x1b[?25l", "\x1b[?25h"
RESET = "\x1b[0m"
CLEAR_LINE = "\x1b[2K"
CLEAR_SCREEN = "\x1b[H\x1b[2J"
#: Terminal control sequences, which take no columns on screen.
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")

#: 半 as the live view draws it between two strokes.
HALF_CELL = f"│{HALF}│"


def place(timeline: Timeline, k: int) -> tuple[int, int]:
    """(pass, index): which pass through the section (from 1) and which stroke of it (from 0)."""
    if k < 0:
        raise ValueError(_("stroke numbers start at 0, not {k!r}").format(k=k))
    n = len(timeline.strokes)
    return k // n + 1, k % n


def part(timeline: Timeline, index: int) -> str:
    """Which side of 半 stroke `index` of the played strokes stands on (Pattern.side_label of
    the stroke it is in the whole pattern, so a span of strokes is labelled where it stands)."""
    return timeline.score.pattern.side_label(timeline.strokes[index].index)


def _cells(timeline: Timeline, index: int) -> list[tuple[str, str]]:
    """(plain, styled) pieces of the notation line, the 半 division included."""
    cells = []
    if timeline.section is Section.TOUHU:
        cells.append((HALF_CELL + " ", HALF_CELL + " "))
    half = timeline.half_index
    for j in range(len(timeline.strokes)):
        if j == half:
            cells.append((f" {HALF_CELL} ", f" {HALF_CELL} "))
        symbol = timeline.sign(j)  # as printed, whichever drum the reading strikes
        if j == index:
            styled = HIGHLIGHT + symbol + HIGHLIGHT_END
        elif j < index:
            styled = DIM + symbol + DIM_END
        else:
            styled = symbol
        cells.append((symbol, styled))
    if timeline.section is Section.HEAD:
        cells.append((" " + HALF_CELL, " " + HALF_CELL))
    return cells


def notation_line(timeline: Timeline, k: int, columns: int = 80) -> str:
    """The section's notation with stroke k highlighted, cut to a window around it if too wide."""
    index = place(timeline, k)[1]
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


def _stroke_fields(hit: Hit, loop: bool) -> list[str]:
    """The status line's fields for a stroke as laid out: its number in the pass, its sign as
    printed with the drum it strikes, its side of 半 and its pass."""
    timeline = hit.timeline
    if loop:
        passes = _("pass {number}").format(number=hit.pass_no)
    else:
        passes = _("pass {number}/{repeats}").format(number=hit.pass_no, repeats=timeline.repeats)
    number = _("stroke {number}/{count}").format(number=hit.in_pass, count=len(timeline.strokes))
    assert hit.drum is not None  # a stroke, not a count
    return [number, f"{hit.sign} {hit.drum.value}", part(timeline, hit.index), passes]


def repaint(lines: list[str], previous: int) -> str:
    """Text that replaces the `previous` lines last painted (0 for the first paint) with `lines`.

    The lines must each fit the terminal (see `fit`): the count of rows to go back up over is the
    count of lines, which holds only if the terminal wrapped none of them."""
    up = f"\r\x1b[{previous - 1}A" if previous > 1 else "\r"
    return (up if previous else "") + "\n".join(CLEAR_LINE + line for line in lines) + "\x1b[J"


def shown_width(line: str) -> int:
    """Columns `line` takes on screen: CJK two, control sequences none."""
    return width(_CONTROL.sub("", line))


def fit(lines: list[str], columns: int) -> list[str]:
    """Every line within `columns` - 1 terminal columns, so the terminal wraps none of them (and
    the last column stays free: writing there makes some terminals scroll). A line too wide is
    wrapped between its phrases (fields set apart by two spaces, keys by " · ", clauses after
    their punctuation: display.wrap_phrases), indented like the line; a phrase wider than the
    terminal is broken between its words, and a word wider than that is cut."""
    limit = max(1, columns - 1)
    out: list[str] = []
    for line in lines:
        if shown_width(line) <= limit:
            out.append(line)
        else:
            out += wrap_phrases(_CONTROL.sub("", line), limit)
    return out


def restore() -> str:
    """Text that leaves the terminal as it was: attributes reset, cursor shown, on a fresh line."""
    return RESET + SHOW_CURSOR + "\n"


def plain_lines(timeline: Timeline, k: int, seconds: float) -> list[str]:
    """For output that is not a terminal: one line per stroke, after a line for a new pass or 半.

    `seconds` is when the stroke sounds from the start of the play, as the conductor laid it out
    (count-ins, ramps and pauses included)."""
    n = len(timeline.strokes)
    pass_no, index = place(timeline, k)
    lines = []
    if index == 0 and k > 0:
        lines.append("-- " + _("pass {number}").format(number=pass_no) + " --")
    if index == timeline.half_index:
        lines.append("-- 半 --")
    stroke = timeline.strokes[index]
    at = seconds_text(f"{seconds:>9.3f}")
    lines.append(
        f"{k + 1:>5}  {at}  {timeline.sign(index)} {stroke.drum.value}  "
        f"{index + 1:>3}/{n}  {part(timeline, index)}"
    )
    return lines


# --- live play: hits, the tempo in force, and the keys ----------------------------------------

#: The keys of live play, as shown on screen and in --help.
KEYS = (
    (N_("space"), N_("pause")),  # the space bar, named in the reader's language
    ("+/-", N_("tempo ±1")),
    ("]/[", "±5"),
    ("t", N_("tap")),
    ("s", N_("touhu/she")),
    ("n", N_("next item")),
    ("q", N_("stop after pass")),
    ("Esc", N_("stop now")),
)

#: What waits for the end of the pass, as the status line shows it (in brackets).
SWITCH_WAITS = N_("switch at end of pass")
NEXT_WAITS = N_("next item at end of pass")
STOP_WAITS = N_("stop at end of pass")


def keys_line(columns: int = 80, items: int = 1) -> str:
    """The keys, as much of them as fits in `columns`."""
    words = [
        f"{_(key) if key == 'space' else key} {_(what)}"
        for key, what in KEYS
        if key != "n" or items > 1
    ]
    line = "  " + _("keys: {keys}").format(keys=" · ".join(words))
    if width(line) > columns:
        line = "  " + " · ".join(words)
    return cut(line, columns)


@dataclass(frozen=True, slots=True)
class LiveState:
    """What the display shows beside the stroke: the tempo in force and what is waiting."""

    bpm: float
    paused: bool = False
    waiting: tuple[str, ...] = ()
    item: int = 0
    items: int = 1
    label: str = ""
    loop: bool = False
    seconds: float = 0.0
    #: The section a switch waiting goes to (None: the other one, unnamed).
    switch_to: Section | None = None
    #: What was heard of the strokes played along on drums (play, listening), the latest last.
    heard: tuple[str, ...] = ()
    #: Those of the last lines that are revisions, and whether each is said on a line of its
    #: own (else a line revised where it stands): the big display shows them apart, so that
    #: none is missed.
    revisions: tuple[tuple[str, bool], ...] = ()


def waiting_notes(state: LiveState) -> list[str]:
    """What waits for the end of the pass, each in its brackets (〔〕 in Chinese): a switch names
    the section it goes to."""
    notes = []
    for what in state.waiting:
        if what == SWITCH_WAITS and state.switch_to is not None:
            note = _("switch to {section} at end of pass").format(section=state.switch_to.shown)
        else:
            note = _(what)
        # TRANSLATORS: brackets around what waits for the end of the pass, on the status line
        notes.append(pgettext("what waits for the end of the pass", "[{note}]").format(note=note))
    return notes


def hit_status(hit: Hit, state: LiveState) -> str:
    """Stroke (or count) number, drum, side of 半, pass, tempo in force, time, and what waits."""
    if hit.is_count:
        fields = [_("count {number}/{count}").format(number=hit.k + 1, count=hit.count_in)]
    else:
        fields = _stroke_fields(hit, state.loop)
    fields += [per_minute(f"{state.bpm:g}"), seconds_text(f"{state.seconds:.2f}")]
    if state.paused:
        fields.append(_("PAUSED"))
    fields += waiting_notes(state)
    return "  " + "  ".join(fields)


def item_line(state: LiveState) -> str:
    """Which item of a programme is playing, and its label ("" for a single score)."""
    if state.items <= 1:
        return ""
    return "  " + _("item {number}/{count}: {label}").format(
        number=state.item + 1, count=state.items, label=state.label
    )


def hit_frame(hit: Hit, state: LiveState, columns: int = 80, keys: bool = False) -> list[str]:
    """The lines of the normal display for a hit: the notation, the status, and the keys."""
    t = hit.timeline
    if hit.is_count:
        line = notation_line(t, 0, columns).replace(HIGHLIGHT, "").replace(HIGHLIGHT_END, "")
    else:
        line = notation_line(t, hit.k, columns)
    lines = [line, hit_status(hit, state), *("  " + h for h in state.heard[-HEARD_LINES:])]
    if state.items > 1:
        lines.insert(0, item_line(state))
    if keys:
        lines.append(keys_line(10_000, state.items))  # all the keys, wrapped by fit
    return fit(lines, columns)


#: The normal display shows the last HEARD_LINES strokes heard (play, listening).
HEARD_LINES = 3


def verdict_line(verdict: Verdict) -> str:
    """A stroke heard as it was judged (play, listening): the score's stroke, the drum, its offset
    from the performer's even beat; or extra, missed, on the wrong drum."""
    if verdict.kind == "missed":
        assert verdict.expected is not None
        return _("stroke {number} ({drum}) missed").format(
            number=verdict.number, drum=verdict.expected.value
        )
    assert verdict.drum is not None
    if verdict.kind == "extra":
        return _("extra stroke on {drum}").format(drum=verdict.drum.value)
    offset = milliseconds(f"{verdict.offset_ms or 0.0:+.0f}")
    if verdict.kind == "wrong":
        assert verdict.expected is not None
        return _("stroke {number}: {drum} where the score has {expected}, {offset}").format(
            number=verdict.number,
            drum=verdict.drum.value,
            expected=verdict.expected.value,
            offset=offset,
        )
    return _("stroke {number}: {drum} {offset}").format(
        number=verdict.number, drum=verdict.drum.value, offset=offset
    )


def revised_line(line: str, withdrawn: bool = False) -> str:
    """A line heard that the listener has since revised, changed where it stands: marked
    revised, or withdrawn (no stroke there after all)."""
    return aside(line, _("withdrawn") if withdrawn else _("revised"))


def revision_line(line: str, was: str, withdrawn: bool = False) -> str:
    """The revision of a line no longer on screen (`was`), said on a line of its own: withdrawn,
    or what it says now."""
    if withdrawn:
        return labelled(_("withdrawn"), was)
    return labelled(_("revised"), was if was == line else f"{was} → {line}")


# --- the display for the room: --big ---------------------------------------------------------

#: Smallest terminal the big display fills; below it, the normal lines.
BIG_MIN_ROWS, BIG_MIN_COLUMNS = 16, 40
FULL = "█"
_DIGITS = {
    "1": ["  █  ", " ██  ", "  █  ", "  █  ", " ███ "],
    "2": [" ███ ", "█   █", "  ██ ", " █   ", "█████"],
    "3": ["████ ", "    █", " ███ ", "    █", "████ "],
    "4": ["█  █ ", "█  █ ", "█████", "   █ ", "   █ "],
    "5": ["█████", "█    ", "████ ", "    █", "████ "],
    "6": [" ███ ", "█    ", "████ ", "█   █", " ███ "],
    "7": ["█████", "   █ ", "  █  ", " █   ", " █   "],
    "8": [" ███ ", "█   █", " ███ ", "█   █", " ███ "],
    "9": [" ███ ", "█   █", " ████", "    █", " ███ "],
    "0": [" ███ ", "█  ██", "█ █ █", "██  █", " ███ "],
}


def big_shape(shape: str, size: int) -> list[str]:
    """A ○ (ring) or □ (square outline) `size` rows high, two columns to a cell so it looks round
    (one block to a cell where the terminal draws a block two columns wide).

    Any other shape (a count number) is drawn in large block digits.
    """
    ink = FULL * (2 // width(FULL))  # one block where the terminal draws it two columns wide
    return list(_big_shape(shape, max(5, size), ink))


@functools.cache
def _big_shape(shape: str, size: int, ink: str) -> tuple[str, ...]:
    """big_shape's rows, drawn once for each shape and size (the big display paints a screen
    at every stroke and every line heard)."""
    if shape not in SYMBOLS.values():
        scale = max(1, size // 5)
        rows = []
        for r in range(5):
            line = "  ".join(
                "".join(
                    (ink if ch == FULL else "  ") * scale for ch in _DIGITS.get(d, _DIGITS["0"])[r]
                )
                for d in shape
            )
            rows += [line] * scale
        return tuple(rows)
    radius = (size - 1) / 2
    thick = max(1.0, size / 7)
    rows = []
    for r in range(size):
        y = r - radius
        cells = []
        for c in range(size):
            x = c - radius
            if shape == Drum.PI.symbol:
                inside = abs((x * x + y * y) ** 0.5 - (radius - thick / 2)) <= thick / 2
            else:
                edge = max(abs(x), abs(y))
                inside = radius - thick < edge <= radius + 1e-9
            cells.append(ink if inside else "  ")
        rows.append("".join(cells).rstrip())
    return tuple(rows)


def big_frame(hit: Hit, state: LiveState, columns: int, rows: int) -> list[str] | None:
    """The whole screen of the big display, `rows` lines; None if the terminal is too small."""
    if rows < BIG_MIN_ROWS or columns < BIG_MIN_COLUMNS:
        return None
    t = hit.timeline
    paused = [_("PAUSED")] if state.paused else []
    if hit.is_count:
        shape = str(hit.k + 1)
        name = _("count {number} of {count}").format(number=hit.k + 1, count=hit.count_in)
        passes = [_("count-in"), *paused]
    else:
        assert hit.drum is not None  # a stroke, not a count
        shape = hit.sign
        number = _("stroke {number} of {count}").format(number=hit.in_pass, count=len(t.strokes))
        name = f"{hit.sign} {hit.drum.value}   {number}"
        if state.loop:
            passes = [_("pass {number}").format(number=hit.pass_no)]
        else:
            passes = [_("pass {number} of {count}").format(number=hit.pass_no, count=t.repeats)]
        passes += [*paused, *waiting_notes(state)]
    tempo = per_minute(f"{state.bpm:g}")
    below = [name, f"{t.section.description}   {tempo}", "   ".join(passes)]
    # the stroke heard last, under the one sounding, and the revisions lately, under it
    apart = {text for text, own in state.revisions if own}
    heard = [line for line in state.heard if line not in apart][-1:]
    revised = [text for text, _own in state.revisions]
    heard += [text for text in revised if text not in heard]
    top = [t.score.title] + ([item_line(state).strip()] if state.items > 1 else [])
    keys = keys_line(columns, state.items)
    limit = columns - 1  # the last column stays free, so no line wraps (see fit)
    below = [piece.strip() for line in below for piece in wrap_phrases(line, limit)]
    # a revision in reverse video, each of its pieces: a line changed after it was shown
    marked = {
        piece.strip() for line in heard if line in revised for piece in wrap_phrases(line, limit)
    }
    heard = [piece.strip() for line in heard for piece in wrap_phrases(line, limit)]
    below += heard
    room = rows - len(top) - len(below) - 4
    size = min(room, (columns - 4) // 2)
    picture = big_shape(shape, size)
    if len(picture) > room or _widest(picture) > columns:
        picture = big_shape(shape, max(5, room // 2))
    body = [centre(c, limit) for c in top] + [""]
    pad = max(0, (limit - _widest(picture)) // 2)
    body += [cut(" " * pad + p, limit) for p in picture] + [""]
    body += [_reversed(centre(c, limit)) if c in marked else centre(c, limit) for c in below]
    body += [""] * max(0, rows - len(body) - 1) + [cut(keys, limit)]
    return body[:rows]


def _widest(picture: list[str]) -> int:
    """The columns of the widest row of a picture."""
    return max(width(p) for p in picture)


def _reversed(line: str) -> str:
    """`line` with its text (not the spaces that centre it) in reverse video."""
    text = line.strip()
    at = line.index(text)
    return line[:at] + HIGHLIGHT + text + HIGHLIGHT_END + line[at + len(text) :]


def paint_screen(lines: list[str], previous: list[str] | None = None) -> str:
    """Text that paints `lines` over the whole screen from its top-left corner; with the lines
    of the `previous` paint (the screen unchanged since), only the rows that differ, each moved
    to: a line heard repaints a row or two, not a screenful of blocks."""
    if previous is None or len(previous) != len(lines):
        return "\x1b[H" + "\n".join(CLEAR_LINE + line for line in lines)
    return "".join(
        f"\x1b[{row + 1};1H" + CLEAR_LINE + line
        for row, (line, was) in enumerate(zip(lines, previous, strict=True))
        if line != was
    )


ALT_SCREEN, MAIN_SCREEN = "\x1b[?1049h", "\x1b[?1049l"
