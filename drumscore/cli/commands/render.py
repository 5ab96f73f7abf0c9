"""drumscore render: a score to WAV, FLAC, OGG, MIDI, MusicXML, PDF or PNG."""

from __future__ import annotations

import argparse
import json
from fractions import Fraction

from drumscore.cli import render_batch, track_output
from drumscore.cli import staff_output as staff
from drumscore.cli.options import (
    add_force_option,
    add_json_option,
    add_output_option,
    add_rate_option,
    add_score_options,
    add_sound_options,
    add_tempo_options,
    check_output,
    only_with,
    section_help,
)
from drumscore.conductor.duration import parse_duration
from drumscore.conductor.track import Track
from drumscore.errors import OptionError
from drumscore.files.format_choice import audio_format, check_rate, choose, suffixes
from drumscore.i18n import _, list_text
from drumscore.model import Drum
from drumscore.render.midimap import GM_DRUM_NAMES, MidiMap


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "render",
        description=_(
            "Render a score at an even tempo (間若一). -o PATH names the file, its format "
            "following the extension: audio {audio}, MIDI {midi}, MusicXML {notation} or "
            "engraved pages {engraved}; --force writes over one that is there. Several scores "
            "(or --all), or a list of sections, render in one go to the files that a template "
            "names with {fields}, such as -o {template}. "
            "--json prints, instead of the summary line, what was written: every stroke's time, "
            "drum, velocity and humanizing offset."
        ).format(
            audio=suffixes("audio"),
            midi=suffixes("midi"),
            notation=suffixes("notation"),
            engraved=suffixes("engraved"),
            fields="{key} {edition} {figure} {state} {section}",
            template="'out/{key}-{section}.mid'",
        ),
        conflict_handler="resolve",  # render's --section takes a list
    )
    add_score_options(p, optional=True)  # left out with --programme
    _add_batch_options(p)
    add_tempo_options(p)
    add_sound_options(p)
    p.add_argument(
        "--loopable",
        action="store_true",
        help=_(
            "audio, MIDI: end on the beat after the last stroke, its ring folded onto the "
            "start, so a player's loop keeps the beat"
        ),
    )
    add_output_option(p, required=True)
    add_force_option(p)  # -q comes with the sound options, as play has it
    add_rate_option(p, help=_("audio: sample rate"))
    p.add_argument(
        "--no-normalize",
        action="store_true",
        help=_(
            "audio: keep the kit's or SoundFont's own level instead of peak-normalising to "
            "-1 dBFS (refused if the kit's mix would clip)"
        ),
    )
    p.add_argument(
        "--subtype",
        metavar="NAME",
        help=_("audio: encoding, e.g. PCM_16 (default), PCM_24, FLOAT"),
    )
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help=_(
            "MIDI, notation and --soundfont audio: General MIDI notes for 鼙 and 鼓 "
            "(default {notes}: {names})"
        ).format(
            notes=MidiMap().pair,
            names=list_text(GM_DRUM_NAMES[MidiMap().note(drum)] for drum in Drum),
        ),
    )
    add_json_option(p)
    staff.add_options(p)
    p.set_defaults(run=run)


AUDIO_FILES = track_output.AUDIO_FILES


def _add_batch_options(p: argparse.ArgumentParser) -> None:
    """More SCOREs, --all, and a --section that takes a list (drumscore.cli.render_batch)."""
    p.add_argument("more", nargs="*", metavar="SCORE", help=_("more scores, rendered in one go"))
    p.add_argument("--all", action="store_true", help=_("every score of the corpus"))
    p.add_argument(
        "--section",
        default=None,
        metavar="NAME[,NAME...]",
        help=_("{sections}; a list such as touhu,she renders each").format(sections=section_help()),
    )


def run(args: argparse.Namespace) -> int:
    if render_batch.is_batch(args):
        if args.json:
            raise OptionError(
                _(
                    "--json reports the strokes of one score's render; render the files one by "
                    "one or leave out --json"
                )
            )
        return render_batch.run(args, render_one, track_of)
    return render_one(args)


def track_of(args: argparse.Namespace) -> Track:
    """The track one render plays: the score (or --programme) with the options."""
    return track_output.track_from_args(args, _duration(args), args.loopable)


def render_one(args: argparse.Namespace) -> int:
    """One score, one section, one file (or a --programme's track)."""
    check_output(args.output, args.force)
    kind, _format = choose("score", args.output, "output")
    midimap = MidiMap.from_option(args.midi_notes)
    _check_audio_options(args, kind)
    staff.check_engraver(args, kind)
    if kind == "audio":
        args.rate = check_rate(args.rate)
        audio_format(args.output, args.subtype, args.rate)
    if kind in staff.KINDS:
        staff.check(args, kind)
    track_output.check_kind(args, kind)
    track = track_of(args)
    if args.json:
        _check_json(track)
        args.quiet = True  # the JSON takes the summary line's place
    if kind not in staff.KINDS:
        code = track_output.render(args, kind, midimap, track)
    else:
        timeline = track.first
        track = Track.single(timeline)  # notation starts at the first stroke: no count-in
        staff.check_timeline(args, timeline)
        detail = staff.write(args, timeline, kind, midimap)
        if not args.quiet:
            print(track_output.wrote(args.output, track_output.summary(track), detail))
        code = 0
    if args.json:
        from drumscore.cli.reports.render import (
            render_data,  # the apparatus's tables: only for --json
        )

        rate = args.rate if kind == "audio" else 48000  # MIDI and notation: beats, not frames
        data = render_data(track, args.output, rate)
        print(json.dumps(data, ensure_ascii=False, indent=2))
    return code


def _check_json(track: Track) -> None:
    """--json reports the strokes of one score's render: not a programme, count-in or loop."""
    if len(track.items) > 1 or track.count_strokes or track.loopable:
        raise OptionError(
            _(
                "--json reports the strokes of one score's render, without --count-in, "
                "--loopable or --programme; leave those or --json out"
            )
        )


def _check_audio_options(args: argparse.Namespace, kind: str) -> None:
    """Refuse options that the chosen output would silently ignore."""
    only_with(
        args,
        ("kit", "soundfont", "rate", "subtype", "no_normalize"),
        present=kind == "audio",
        target=_("audio output ({files})").format(files=AUDIO_FILES),
        purpose=_("the sound, and a MIDI or notation file ({path!r}) carries only notes").format(
            path=args.output
        ),
        fix=_("write {files}").format(files=AUDIO_FILES),
    )
    only_with(
        args,
        ("midi_notes",),
        present=kind != "audio" or bool(args.soundfont),
        target="--soundfont FILE.sf2",
        purpose=_("General MIDI notes, which a kit does not play"),
        fix=_("add --soundfont FILE.sf2, write .mid,"),
    )


def _duration(args: argparse.Namespace) -> Fraction | None:
    """--duration as seconds, or None; refused beside --repeat."""
    if args.duration is None:
        return None
    if args.repeat is not None:
        raise OptionError(_("give --repeat N or --duration TIME, not both"))
    return parse_duration(args.duration)
