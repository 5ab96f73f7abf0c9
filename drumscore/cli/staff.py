"""render's staff-notation outputs: MusicXML (.musicxml .mxl) and MuseScore pages (.pdf .png)."""

from __future__ import annotations

import argparse
from pathlib import Path

#: The formats.kind_of kinds handled here.
KINDS = ("notation", "engraved")
LYRIC_CHOICES = ("drum", "glyph", "pinyin")


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lyrics",
        choices=LYRIC_CHOICES,
        default=None,
        help="notation: a word under each stroke: drum (鼙 / 鼓), glyph (○ / □) or pinyin "
        "(pí / gǔ); default none",
    )
    parser.add_argument(
        "--dpi",
        type=int,
        default=150,
        metavar="N",
        help="PNG: dots per inch (default 150)",
    )


MIN_DPI, MAX_DPI = 36, 1200


def check(args: argparse.Namespace, kind: str) -> None:
    """Fail before any work: bad --dpi, or MuseScore missing for PDF/PNG."""
    from ..errors import OptionError

    if not MIN_DPI <= args.dpi <= MAX_DPI:
        raise OptionError(f"--dpi {args.dpi} is out of range; use {MIN_DPI} to {MAX_DPI}")
    if kind == "engraved":
        from ..engrave import find_musescore

        find_musescore()


def write(args: argparse.Namespace, timeline, kind: str) -> str:
    """Write the notation file(s) for `timeline`; return the detail for the summary line."""
    from ..formats import ENGRAVED, NOTATION
    from ..midimap import MidiMap
    from ..musicxml import bars, musicxml_bytes, mxl_bytes
    from ..output import write_bytes

    midimap = MidiMap.from_option(args.midi_notes)
    suffix = Path(args.output).suffix.lower()
    count = len(bars(timeline))
    shape = f"{count} bar{'s' if count != 1 else ''}, ○ round and □ square noteheads"
    if kind == "notation":
        if NOTATION[suffix] == "mxl":
            write_bytes(args.output, mxl_bytes(timeline, midimap, args.lyrics))
            return f"compressed MusicXML, {shape}"
        write_bytes(args.output, musicxml_bytes(timeline, midimap, args.lyrics))
        return f"MusicXML, {shape}"

    from ..engrave import engrave, page_paths

    fmt = ENGRAVED[suffix]
    engraving = engrave(musicxml_bytes(timeline, midimap, args.lyrics), fmt, dpi=args.dpi)
    paths = page_paths(args.output, len(engraving.pages))
    for path, page in zip(paths, engraving.pages, strict=True):
        write_bytes(path, page)
    if len(paths) > 1:
        shape += f"; {len(paths)} pages: " + ", ".join(str(p) for p in paths)
    return f"{fmt.upper()} engraved by MuseScore, {shape}"
