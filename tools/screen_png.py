"""Draw a terminal capture (text from ``tmux capture-pane -p``) as a PNG, as a terminal shows it.

Each character takes one cell (DejaVu Sans Mono), or two for wide characters (Noto Sans Mono
CJK), light on dark; a cell is twice as high as it is wide, as in most terminals. Reverse video
(in a capture with its attributes, ``capture-pane -p -e``) is drawn dark on light; other
attributes are left out. Used for the pictures of ``drumscore play --big`` in docs/play.md:

    tmux new-session -d -s big -x 100 -y 34 "drumscore play lu --section touhu --loop --big"
    tmux capture-pane -p -e -t big > big.txt
    python tools/screen_png.py big.txt docs/play-big.png --columns 100 --rows 34
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

WIDE_FONT = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
WIDE_INDEX = 8  # Noto Sans Mono CJK TC in the collection
NARROW_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BACK, FORE = (24, 24, 24), (235, 235, 225)
#: A terminal's select graphic rendition (its attributes), as tmux writes them.
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def styled(line: str) -> list[tuple[str, bool]]:
    """Each character of a captured line, and whether it is in reverse video."""
    out: list[tuple[str, bool]] = []
    reverse = False
    at = 0
    for m in SGR.finditer(line):
        out += [(ch, reverse) for ch in line[at : m.start()]]
        for code in (m[1] or "0").split(";"):
            if code in ("0", ""):
                reverse = False
            elif code == "7":
                reverse = True
            elif code == "27":
                reverse = False
        at = m.end()
    return out + [(ch, reverse) for ch in line[at:]]


def cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def draw(text: str, columns: int, rows: int, size: int = 16) -> Image.Image:
    wide = ImageFont.truetype(WIDE_FONT, size, index=WIDE_INDEX)
    narrow = ImageFont.truetype(NARROW_FONT, size - 2)
    cell_w, cell_h = size // 2, size
    image = Image.new("RGB", (columns * cell_w + 2 * cell_w, rows * cell_h + cell_h), BACK)
    pen = ImageDraw.Draw(image)
    for r, line in enumerate(text.splitlines()[:rows]):
        c = 0
        for ch, reverse in styled(line):
            x, y = cell_w + c * cell_w, cell_h // 2 + r * cell_h
            fore = BACK if reverse else FORE
            if reverse:
                pen.rectangle([x, y, x + cells(ch) * cell_w - 1, y + cell_h - 1], fill=FORE)
            if ch == "█":  # a full block fills its cell exactly, so shapes have no seams
                pen.rectangle([x, y, x + cell_w - 1, y + cell_h - 1], fill=fore)
            elif ch != " ":
                font = wide if cells(ch) == 2 else narrow
                pen.text((x, y + int(cell_h * 0.82)), ch, font=font, fill=fore, anchor="ls")
            c += cells(ch)
    return image


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--columns", type=int, default=100)
    parser.add_argument("--rows", type=int, default=34)
    args = parser.parse_args()
    text = args.capture.read_text(encoding="utf-8")
    draw(text, args.columns, args.rows).save(args.png, optimize=True)


if __name__ == "__main__":
    main()
