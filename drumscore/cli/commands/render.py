"""drumscore render: a score to WAV, FLAC, OGG, MIDI, MusicXML, PDF or PNG."""

from __future__ import annotations

import argparse
from fractions import Fraction

from drumscore.cli import render_batch, track_output
from drumscore.cli import staff_output as staff
from drumscore.cli.options import (
    add_rate_option,
    add_score_options,
    add_sound_options,
    add_tempo_options,
    only_with,
    timeline_from_args,
)
from drumscore.cli.progress import CountedBlocks, progress_bar
from drumscore.cli.report import plural
from drumscore.duration import parse_duration
from drumscore.errors import OptionError
from drumscore.files.atomic import check_writable, write_bytes
from drumscore.files.format_choice import audio_format, check_rate, kind_of
from drumscore.render.midimap import MidiMap
from drumscore.render.soundfont import render_blocks
from drumscore.timeline import Timeline


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "render",
        help="render a score to audio (.wav .flac .ogg), MIDI (.mid) or notation "
        "(.musicxml .mxl .pdf .png)",
        description="Render a score at an even tempo (間若一). The format follows -o's extension. "
        "Several scores (or --all), or a list of sections, render in one go to the files that "
        "an output template names, such as -o 'out/{key}-{section}.mid'.",
        conflict_handler="resolve",  # render's --section takes a list
    )
    add_score_options(p, optional=True)  # left out with --programme
    _add_batch_options(p)
    add_tempo_options(p)
    add_sound_options(p)
    p.add_argument(
        "--loopable",
        action="store_true",
        help="audio, MIDI: end on the beat after the last stroke, its ring folded onto the start, "
        "so a player's loop keeps the beat",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="FILE",
        help="output file; with several scores or sections a template naming each file with "
        "{key} {edition} {figure} {state} {section}, such as 'out/{key}-{section}.wav'",
    )
    add_rate_option(p, help="audio: sample rate")
    p.add_argument(
        "--no-normalize",
        action="store_true",
        help="audio: keep the kit's or SoundFont's own level instead of peak-normalising to "
        "-1 dBFS (refused if the kit's mix would clip)",
    )
    p.add_argument(
        "--subtype",
        metavar="NAME",
        help="audio: encoding, e.g. PCM_16 (default), PCM_24, FLOAT",
    )
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help="MIDI, notation and --soundfont audio: General MIDI notes for 鼙 and 鼓 "
        "(default 45,41: Low Tom, Low Floor Tom)",
    )
    staff.add_options(p)
    p.set_defaults(run=run)


AUDIO_FILES = ".wav, .flac or .ogg"


def _add_batch_options(p: argparse.ArgumentParser) -> None:
    """More SCOREs, --all, and a --section that takes a list (drumscore.cli.render_batch)."""
    p.add_argument("more", nargs="*", metavar="SCORE", help="more scores, rendered in one go")
    p.add_argument("--all", action="store_true", help="every score of the corpus")
    p.add_argument(
        "--section",
        default=None,
        metavar="NAME[,NAME...]",
        help="touhu: 投壺, the strokes after 半; she: 射, the whole pattern (default); "
        "head: the strokes before 半; a list such as touhu,she renders each",
    )


def run(args: argparse.Namespace) -> int:
    if render_batch.is_batch(args):
        return render_batch.run(args, render_one)
    return render_one(args)


def render_one(args: argparse.Namespace) -> int:
    """One score, one section, one file (or a --programme's track)."""
    check_writable(args.output)
    kind = kind_of(args.output)
    midimap = MidiMap.from_option(args.midi_notes)
    _check_audio_options(args, kind)
    staff.check_engraver(args, kind)
    if kind == "audio":
        args.rate = check_rate(args.rate)
        audio_format(args.output, args.subtype, args.rate)
    if kind in staff.KINDS:
        staff.check(args, kind)
    if track_output.wanted(args, kind):
        return track_output.render(args, kind, midimap, _duration(args))
    timeline = timeline_from_args(args, _duration(args))

    if kind in staff.KINDS:
        staff.check_timeline(args, timeline)
        detail = staff.write(args, timeline, kind, midimap)
    elif kind == "midi":
        from drumscore.render.midi import midi_bytes

        write_bytes(args.output, midi_bytes(timeline, midimap))
        detail = f"MIDI channel 10: {midimap.describe()}"
    else:
        frames, sound = _render_audio(args, timeline, midimap)
        detail = f"{frames / args.rate:.1f} s, {args.rate} Hz stereo, {sound}"
    tempo = timeline.tempo
    if timeline.expression and timeline.expression.humanize_ms:
        ex = timeline.expression
        detail += f", humanized ±{ex.humanize_ms:g} ms with seed {ex.seed}"
    if not args.quiet:
        print(
            f"wrote {args.output}: {timeline.description}, {plural(len(timeline), 'stroke')}, "
            f"{float(tempo.bpm):g} per minute ({float(tempo.interval):g} s apart), {detail}"
        )
    return 0


def _check_audio_options(args: argparse.Namespace, kind: str) -> None:
    """Refuse options that the chosen output would silently ignore."""
    only_with(
        args,
        ("kit", "soundfont", "rate", "subtype", "no_normalize"),
        present=kind == "audio",
        target=f"audio output ({AUDIO_FILES})",
        purpose=f"the sound, and a MIDI or notation file ({args.output!r}) carries only notes",
        fix=f"write {AUDIO_FILES}",
    )
    only_with(
        args,
        ("midi_notes",),
        present=kind != "audio" or bool(args.soundfont),
        target="--soundfont FILE.sf2",
        purpose="General MIDI notes, which a kit does not play",
        fix="add --soundfont FILE.sf2, write .mid,",
    )


def _duration(args: argparse.Namespace) -> Fraction | None:
    if args.duration is None:
        return None
    if args.repeat is not None:
        raise OptionError("give --repeat N or --duration TIME, not both")
    return parse_duration(args.duration)


def _render_audio(
    args: argparse.Namespace, timeline: Timeline, midimap: MidiMap
) -> tuple[int, str]:
    """Stream the render to args.output in blocks: the frames written, and what played them."""
    from drumscore.files.audio import stream_audio, tags_for

    if args.soundfont:
        frames, blocks = render_blocks(
            timeline, args.soundfont, args.rate, midimap, normalize=not args.no_normalize
        )
        sound = f"SoundFont {args.soundfont}"
    else:
        from drumscore.render.kit import builtin_kit, load_kit
        from drumscore.render.mix import blocks as mix_blocks
        from drumscore.render.mix import check_unnormalised, plan

        kit = load_kit(args.kit) if args.kit else builtin_kit()
        p = plan(timeline, kit, args.rate)
        if args.no_normalize:
            check_unnormalised(p)
        frames, blocks = p.length, mix_blocks(p, normalize=not args.no_normalize)
        sound = f"kit {kit.name!r}" + (f" ({args.kit})" if args.kit else "")
    sound += ", not normalised" if args.no_normalize else ", peak-normalised to -1 dBFS"

    with progress_bar(frames, args.rate, args.quiet) as tick:
        counted = CountedBlocks(blocks, tick)
        stream_audio(
            args.output, iter(counted), args.rate, frames, args.subtype, tags=tags_for(timeline)
        )
    return counted.frames, sound
