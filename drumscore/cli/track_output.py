"""Tracks on the command line: --count-in, --loopable and --programme for render (and play's track).

A render with any of them goes through drumscore.track: audio with the count sound and cue points
at each item, or MIDI with a marker at each item. Notation leaves the count-in out (MusicXML
has no count-in; the score starts at its first stroke).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from drumscore.cli.options import timeline_from_args
from drumscore.cli.progress import CountedBlocks, progress_bar
from drumscore.errors import OptionError
from drumscore.expression import Expression
from drumscore.files.atomic import write_bytes
from drumscore.render.midimap import MidiMap
from drumscore.render.soundfont import render_blocks, track_strikes
from drumscore.timing import Tempo
from drumscore.track import Item, Track, check_count_in, load_programme


def wanted(args: argparse.Namespace, kind: str) -> bool:
    """Whether this render needs a track rather than one timeline."""
    if args.programme is None and args.score is None:
        raise OptionError(
            "give a SCORE to render, e.g. 'drumscore render lu -o lu.wav', or --programme FILE"
        )
    if args.programme is None and args.state is not None:
        raise OptionError(
            f"--state {args.state!r} chooses the state of a --programme's scores; for one score "
            "name it instead, such as xue/2"
        )
    if kind in ("notation", "engraved"):
        if args.programme is not None or args.loopable:
            what = "--programme" if args.programme is not None else "--loopable"
            raise OptionError(
                f"{what} is for audio and MIDI files; notation holds one score without a loop, "
                "so write .wav, .flac, .ogg or .mid"
            )
        if args.state is not None:
            raise OptionError("--state chooses the state of a --programme's scores")
        if args.count_in:
            print(
                "drumscore: note: notation starts at the first stroke; the count-in is left out",
                file=sys.stderr,
            )
        return False
    return args.programme is not None or bool(args.count_in) or args.loopable


def track_from_args(
    args: argparse.Namespace, duration: Fraction | None = None, loopable: bool = False
) -> Track:
    """The Track that the score (or --programme) and the options describe."""
    if args.programme is None:
        if args.state is not None:
            raise OptionError(
                f"--state {args.state!r} chooses the state of a --programme's scores; for one "
                "score name it instead, such as xue/2"
            )
        return Track.single(timeline_from_args(args, duration), args.count_in, loopable)
    if args.score is not None:
        raise OptionError(
            f"give a SCORE or --programme, not both: the programme names its scores "
            f"(leave out {args.score!r})"
        )
    for option, value in (
        ("--section", args.section),
        ("--repeat", getattr(args, "repeat", None)),
        ("--duration", duration),
        ("--loopable", loopable or None),
    ):
        if value is not None:
            raise OptionError(
                f"{option} applies to one score; a programme gives each item its own, so leave "
                f"it out or write it in the programme file"
            )
    tempo = None
    if args.bpm is not None or args.interval is not None:
        tempo = Tempo.from_options(args.bpm, args.interval)
    return load_programme(
        args.programme,
        state=args.state,
        tempo=tempo,
        count_in=None if args.count_in is None else check_count_in(args.count_in),
        expression=Expression.from_options(args.velocity, args.humanize, args.seed),
    )


def render(args: argparse.Namespace, kind: str, midimap: MidiMap, duration: Fraction | None) -> int:
    """Write the track to args.output (audio or MIDI) and print what it holds."""
    track = track_from_args(args, duration, args.loopable)
    if kind == "midi":
        from drumscore.render.midi import COUNT_NOTE, midi_bytes_of

        write_bytes(args.output, midi_bytes_of(track, midimap))
        detail = f"MIDI channel 10: {midimap.describe()}, count {COUNT_NOTE}"
    else:
        if args.soundfont and args.loopable:
            raise OptionError(
                "--loopable folds the ring of the last strokes onto the start, which a SoundFont "
                "render cannot; leave out --soundfont (use the kit) or --loopable"
            )
        frames, sound = _render_audio(args, track, midimap)
        detail = f"{frames / args.rate:.1f} s, {args.rate} Hz stereo, {sound}"
    if args.quiet:
        return 0
    counted = f" and {track.count_strokes} count strokes" if track.count_strokes else ""
    first = track.first.tempo
    tempo = (
        f", {float(first.bpm):g} per minute ({float(first.interval):g} s apart)"
        if len(track.items) == 1
        else ""
    )
    loop = ", loopable (a whole number of beats)" if track.loopable else ""
    print(
        f"wrote {args.output}: {track.description}, {track.strokes} strokes{counted}{tempo}"
        f"{loop}, {detail}"
    )
    if len(track.items) > 1:
        rate = args.rate if kind != "midi" else 48000
        for start, item in zip(track.starts(rate), track.items, strict=True):
            print("  " + item_line(item, start / rate))
    return 0


def item_line(item: Item, at: float) -> str:
    """One item of a programme: when it starts, its label, and what it plays."""
    t = item.timeline
    parts = [f"{t.score.key} {t.section.value} ×{t.repeats}", f"{float(t.tempo.bpm):g}/min"]
    if item.count_in:
        parts.append(f"count-in {item.count_in}")
    if item.pause:
        parts.append(f"then {float(item.pause):g} s pause")
    return f"{at:8.2f} s  {item.label}: {', '.join(parts)}"


def _render_audio(args: argparse.Namespace, track: Track, midimap: MidiMap) -> tuple[int, str]:
    from drumscore.files.audio import stream_audio, tags_for_track

    if args.soundfont:
        strikes = track_strikes(track, args.rate, midimap)
        frames, blocks = render_blocks(
            track.first,
            args.soundfont,
            args.rate,
            midimap,
            strikes=strikes,
            normalize=not getattr(args, "no_normalize", False),
        )
        sound = f"SoundFont {args.soundfont}"
    else:
        from drumscore.render.kit import builtin_kit, load_kit
        from drumscore.render.mix import blocks as mix_blocks
        from drumscore.render.mix import track_plan

        kit = load_kit(args.kit) if args.kit else builtin_kit()
        p = track_plan(track, kit, args.rate)
        if getattr(args, "no_normalize", False):
            from drumscore.render.mix import check_unnormalised

            check_unnormalised(p)
        frames, blocks = p.frames, mix_blocks(p, normalize=not getattr(args, "no_normalize", False))
        sound = f"kit {kit.name!r}" + (f" ({args.kit})" if args.kit else "")

    cues = track.cues(args.rate) if len(track.items) > 1 else ()
    with progress_bar(frames, args.rate, args.quiet) as tick:
        counted = CountedBlocks(blocks, tick)
        stream_audio(
            args.output,
            iter(counted),
            args.rate,
            frames,
            args.subtype,
            tags=tags_for_track(track),
            cues=cues,
        )
    return counted.frames, sound
