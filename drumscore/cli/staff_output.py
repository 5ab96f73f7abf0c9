"""render's staff-notation outputs: MusicXML and engraved pages (format_choice.FORMATS) engraved
by Verovio (in-process, the default) or MuseScore 3."""

from __future__ import annotations

import argparse
from pathlib import Path

from drumscore.cli.options import whole_number
from drumscore.conductor.timeline import Timeline
from drumscore.errors import OptionError
from drumscore.files.atomic import write_bytes, write_series
from drumscore.files.format_choice import choose, suffixes
from drumscore.i18n import N_, _, list_text, ngettext
from drumscore.render.midimap import MidiMap
from drumscore.render.musicxml import (
    ENGRAVED_BAR,
    LYRICS,
    MAX_WRITTEN_REPEATS,
    bars,
    musicxml_bytes,
    mxl_bytes,
)

#: The kinds of format_choice.FORMATS handled here.
KINDS = ("notation", "engraved")
ENGRAVERS = ("verovio", "musescore")


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--lyrics",
        choices=tuple(LYRICS),
        default=None,
        help=_(
            "notation: a word under each stroke: drum (鼙 / 鼓), glyph (○ / □) or pinyin "
            "(pí / gǔ); default none"
        ),
    )
    parser.add_argument(
        "--engraver",
        choices=ENGRAVERS,
        default=None,
        help=_(
            "SVG, PNG and PDF: verovio (in-process, the default; the notation extra) or "
            "musescore (MuseScore 3, where installed)"
        ),
    )
    parser.add_argument(
        "--dpi",
        type=whole_number,
        default=150,
        metavar="N",
        help=_("PNG: dots per inch (default {dpi})").format(dpi=150),
    )


MIN_DPI, MAX_DPI = 36, 1200


def check(args: argparse.Namespace, kind: str) -> None:
    """Fail before any work: --humanize, bad --dpi, or MuseScore missing for PDF/PNG."""
    if args.humanize is not None:
        raise OptionError(
            _(
                "--humanize {value!r}: notation is written on the even beat; --humanize applies "
                "to audio and MIDI, so leave it out for {output!r} or write .mid or .wav"
            ).format(value=args.humanize, output=args.output)
        )
    if not MIN_DPI <= args.dpi <= MAX_DPI:
        raise OptionError(
            _("--dpi {dpi} is out of range; use {low} to {high}").format(
                dpi=args.dpi, low=MIN_DPI, high=MAX_DPI
            )
        )
    check_engraver(args, kind)
    if kind == "engraved":  # the engravers loaded only to engrave: not for audio or MIDI
        from drumscore.render import verovio
        from drumscore.render.musescore import find_musescore

        if engraver(args) == "musescore":
            find_musescore()
        else:
            verovio.check_installed(choose("score", args.output, "output")[1])


def check_engraver(args: argparse.Namespace, kind: str) -> None:
    """--engraver is refused for a file that is not engraved."""
    if args.engraver is not None and kind != "engraved":
        raise OptionError(
            _(
                "engraver {engraver!r} is for {engraved}; {output!r} is not engraved, so leave "
                "it out"
            ).format(engraver=args.engraver, engraved=suffixes("engraved"), output=args.output),
            option="engraver",
        )


#: The noteheads as each writer leaves them: MusicXML asks for round (so) and square (la); Verovio
#: draws both (drumscore gives it the round head); MuseScore 3 has no round head (docs/notation.md).
HEADS = {
    "musicxml": N_("○ round and □ square noteheads"),
    "musescore": N_("○ as MuseScore's slanted open oval and □ square noteheads"),
}


def engraver(args: argparse.Namespace) -> str:
    return args.engraver or "verovio"


def check_timeline(args: argparse.Namespace, timeline: Timeline) -> None:
    """Fail before any work when --duration asks for more repeats than notation writes out."""
    if args.duration is not None and timeline.repeats > MAX_WRITTEN_REPEATS:
        raise OptionError(
            _(
                "--duration {duration!r} gives {repeats} repeats of the section, and notation is "
                "capped at {most} repeats; use --repeat N with N at most {most}, or write .mid or "
                "audio for a longer backing track"
            ).format(duration=args.duration, repeats=timeline.repeats, most=MAX_WRITTEN_REPEATS)
        )


def write(args: argparse.Namespace, timeline: Timeline, kind: str, midimap: MidiMap) -> str:
    """Write the notation file(s) for `timeline`; return the detail for the summary line."""
    fmt = choose("score", args.output, "output")[1]
    count = len(bars(timeline))
    shape = _shape(count, "musicxml")
    if kind == "notation":
        if fmt == "mxl":
            write_bytes(args.output, mxl_bytes(timeline, midimap, args.lyrics))
            return _("compressed MusicXML, {shape}").format(shape=shape)
        write_bytes(args.output, musicxml_bytes(timeline, midimap, args.lyrics))
        return _("MusicXML, {shape}").format(shape=shape)

    from drumscore.render import verovio
    from drumscore.render.musescore import engrave

    document = musicxml_bytes(timeline, midimap, args.lyrics, engraved_bar=ENGRAVED_BAR)
    if engraver(args) == "musescore":
        engraving = engrave(document, fmt, dpi=args.dpi)
        by = "MuseScore"
        shape = _shape(count, "musescore")
    else:
        engraving = verovio.engrave(document, fmt, dpi=args.dpi)
        by = "Verovio"
    if len(engraving.pages) > 1 or fmt != "pdf":
        paths = write_series(args.output, engraving.pages)
    else:
        write_bytes(args.output, engraving.pages[0])
        paths = [Path(args.output)]
    if len(paths) > 1:
        shape += ngettext("; {n} page: {paths}", "; {n} pages: {paths}", len(paths)).format(
            n=len(paths), paths=list_text(str(p) for p in paths)
        )
    return _("{format} engraved by {engraver}, {shape}").format(
        format=fmt.upper(), engraver=by, shape=shape
    )


def _shape(count: int, writer: str) -> str:
    """How many bars the notation has and how its noteheads look, as `writer` leaves them."""
    return ngettext("{n} bar, {heads}", "{n} bars, {heads}", count).format(
        n=count, heads=_(HEADS[writer])
    )
