"""drumscore check: how evenly a performance (a recording or a MIDI file) played a score."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from drumscore.cli.options import (
    add_count_in_option,
    add_force_option,
    add_json_option,
    add_plot_option,
    add_practice_options,
    add_score_options,
    add_tempo_options,
    only_with,
    plot_format,
)
from drumscore.cli.reports.check import check_data, format_check
from drumscore.cli.track_output import track_from_args
from drumscore.errors import OptionError
from drumscore.files.atomic import write_bytes
from drumscore.files.format_choice import suffixes
from drumscore.i18n import _, ngettext
from drumscore.performance.heard import is_midi, read_performance
from drumscore.render.midimap import MidiMap

if TYPE_CHECKING:
    from drumscore.performance.check import Check
    from drumscore.performance.identify import Fit
    from drumscore.render.kit import Kit


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "check",
        description=_(
            "Find the strokes of a performance (a recording: a spectral-flux onset detector, each "
            "stroke's drum by its sound; a MIDI file: its notes), align them to the score's "
            "strokes, fit the performer's own even beat by least squares, and report each "
            "stroke's offset from it (間若一: strokes evenly spaced), the tempo, its drift, and "
            "the missed, extra and wrong-drum strokes. A take made with render's count-in, "
            "click, silent passes, ramp, --only or --strokes is checked with the same options: "
            "its count strokes and clicks are left out, its silent strokes not expected."
        ),
        epilog=_("example: {command}").format(
            command="drumscore check take1.wav lu --section touhu --plot take1.png"
        ),
    )
    p.add_argument(
        "performance",
        metavar="PERFORMANCE",
        help=_("a recording ({audio}) or a MIDI file ({midi})").format(
            audio=suffixes("audio"), midi=suffixes("midi")
        ),
    )
    add_score_options(p)
    add_tempo_options(p)
    add_count_in_option(p)
    add_practice_options(p, title=_("how the take was made (render's options)"))
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help=_(
            "MIDI performance: the notes of 鼙 and 鼓 (default {pi},{gu}, as render writes them)"
        ).format(pi=MidiMap().pi_note, gu=MidiMap().gu_note),
    )
    p.add_argument(
        "--drums",
        choices=("kit", "split"),
        default=None,
        help=_(
            "recording: tell the drums by the kit's samples when the strokes sound like them, else "
            "by two groups of their own sound (kit, the default), or always by the two groups "
            "(split)"
        ),
    )
    p.add_argument(
        "--kit",
        metavar="PATH",
        help=_("recording: the kit whose samples the drums are told by (default the built-in kit)"),
    )
    add_json_option(p)
    add_plot_option(p, _("draw each stroke's offset from the beat"))
    add_force_option(p)
    # what a take's track is built from (render's own), beyond the options check takes
    p.set_defaults(run=run, programme=None, state=None, velocity=None, humanize=None, seed=None)


def _check_options(args: argparse.Namespace) -> tuple[MidiMap, str | None]:
    """Every option checked before the performance is read: (MIDI map, plot format)."""
    midi = is_midi(args.performance)
    only_with(
        args,
        ("midi_notes",),
        present=midi,
        target=_("a MIDI performance ({midi})").format(midi=suffixes("midi")),
        purpose=_("the notes of a MIDI file"),
        fix=_("check a .mid file"),
    )
    only_with(
        args,
        ("drums", "kit"),
        present=not midi,
        target=_("a recording ({audio})").format(audio=suffixes("audio")),
        purpose=_("telling the drums of a recording apart by their sound"),
        fix=_("check a recording"),
    )
    if args.kit and args.drums == "split":
        raise OptionError(
            _(
                "--kit tells the drums by the kit's samples, --drums split by the strokes' own "
                "sound; give one of them"
            )
        )
    only_with(
        args,
        ("force",),
        present=bool(args.plot),
        target="--plot OUT.png",
        purpose=_("the files written"),
    )
    return MidiMap.from_option(args.midi_notes), plot_format(args.plot, args.force)


def run(args: argparse.Namespace) -> int:
    from drumscore.performance.check import check  # numpy
    from drumscore.performance.identify import better_fit, wrong_score

    midimap, fmt = _check_options(args)
    track = track_from_args(args)  # as render builds it from the same options
    pace = None
    if args.bpm is not None or args.interval is not None:
        pace = float(track.first.tempo.interval)
    kit: Kit | None = None
    if args.kit:
        from drumscore.render.kit import load_kit

        kit = load_kit(args.kit)
    item = track.items[0]  # the take's count strokes and clicks: the kit's count sound
    clicks = item.practice.clicks
    performance = read_performance(
        args.performance,
        midimap=midimap,
        kit=kit,
        drums=args.drums or "kit",
        count_sound=bool(item.count_in or clicks),
        click_velocity=item.practice.click_velocity if clicks else None,
    )
    result = check(performance, track, pace=pace)
    # other readings are checked as takes made with the same options (count-in, clicks...)
    fit = better_fit(performance, result, track) if len(track.items) == 1 else None
    if fit is not None and not (item.count_in or clicks) and performance.kind == "audio":
        _refuse_untold_count(args.performance, kit, args.drums or "kit")
    show(result, args.plot, fmt, json_output=args.json, fit=fit)
    if fit is not None:
        raise wrong_score(fit, track.first)  # the report is out; the command is to change
    return 0


def _refuse_untold_count(path: str, kit: Kit | None, drums: str) -> None:
    """A recording that fits another score better only as it holds count strokes or clicks
    that check was not told of (a take rendered with --count-in or --click): say that, not the
    other score."""
    counted = read_performance(path, kit=kit, drums=drums, count_sound=True)
    n = sum(stroke.count for stroke in counted.strokes)
    if n:
        raise OptionError(
            ngettext(
                "performance {path!r} holds {n} onset that sounds like the count sound (a count "
                "stroke or a click), which check was not told of; give the options the take was "
                "made with, such as --count-in N or --click N",
                "performance {path!r} holds {n} onsets that sound like the count sound (count "
                "strokes or clicks), which check was not told of; give the options the take was "
                "made with, such as --count-in N or --click N",
                n,
            ).format(path=path, n=n)
        )


def show(
    result: Check,
    plot: str | None,
    fmt: str | None,
    *,
    json_output: bool,
    fit: Fit | None = None,
) -> None:
    """A check's report, as text or JSON, and its plot written (check and play --check); `fit`
    the reading the take fits clearly better, if any."""
    if plot:
        from drumscore.performance.plot import plot_check  # matplotlib

        write_bytes(plot, plot_check(result, fmt or "png"))
    if json_output:
        data = check_data(result, fit)
        data["written"] = [plot] if plot else []
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return
    print(format_check(result, fit))
    if plot:
        print(_("wrote {path}").format(path=plot))
