"""drumscore render: a score to WAV, FLAC, OGG, MIDI, MusicXML, PDF or PNG."""

from __future__ import annotations

import argparse

from . import staff
from .options import add_score_options, add_tempo_options


def add_parser(sub) -> None:
    p = sub.add_parser(
        "render",
        help="render a score to audio (.wav .flac .ogg), MIDI (.mid) or notation "
        "(.musicxml .mxl .pdf .png)",
        description="Render a score at an even tempo (間若一). The format follows -o's extension.",
    )
    add_score_options(p)
    add_tempo_options(p)
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="output file")
    p.add_argument(
        "--rate", type=int, default=44100, metavar="HZ", help="sample rate (default 44100)"
    )
    p.add_argument(
        "--subtype", metavar="NAME", help="audio encoding, e.g. PCM_16 (default), PCM_24, FLOAT"
    )
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help="General MIDI notes for 鼙 and 鼓 (default 45,41: Low Tom, Low Floor Tom)",
    )
    staff.add_options(p)
    p.set_defaults(run=run)


MIN_RATE, MAX_RATE = 8000, 192000


def run(args: argparse.Namespace) -> int:
    from ..corpus import resolve
    from ..errors import OptionError
    from ..formats import audio_format, kind_of
    from ..output import check_writable
    from ..timeline import arrange
    from ..timing import Tempo

    check_writable(args.output)
    kind = kind_of(args.output)
    if not MIN_RATE <= args.rate <= MAX_RATE:
        raise OptionError(f"--rate {args.rate} is out of range; use {MIN_RATE} to {MAX_RATE} Hz")
    if kind == "audio":
        audio_format(args.output, args.subtype)
    if kind in staff.KINDS:
        staff.check(args, kind)
    score = resolve(args.score)
    timeline = arrange(
        score, args.section, Tempo.from_options(args.bpm, args.interval), args.repeat
    )

    if kind in staff.KINDS:
        detail = staff.write(args, timeline, kind)
    elif kind == "midi":
        from ..midi import midi_bytes
        from ..midimap import MidiMap
        from ..output import write_bytes

        write_bytes(args.output, midi_bytes(timeline, MidiMap.from_option(args.midi_notes)))
        detail = "MIDI"
    else:
        from ..audiofile import write_audio
        from ..mix import render_audio

        audio = render_audio(timeline, rate=args.rate)
        write_audio(args.output, audio, args.rate, args.subtype)
        detail = f"{len(audio) / args.rate:.1f} s, {args.rate} Hz stereo"
    tempo = timeline.tempo
    print(
        f"wrote {args.output}: {timeline.description}, {len(timeline)} strokes, "
        f"{float(tempo.bpm):g} per minute ({float(tempo.interval):g} s apart), {detail}"
    )
    return 0
