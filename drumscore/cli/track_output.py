"""The one way the command line renders: the score (or --programme) as a track, to a file.

A single score is a track of one item; --count-in, --loopable and --programme make other tracks,
and render, play and batch renders all build theirs here. Audio is the kit's mix (or a SoundFont)
of the track's hits, with cue points at each item of a programme; MIDI holds the same hits.
Notation writes the one score's timeline and leaves the count-in out (MusicXML has no count-in;
the score starts at its first stroke).
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction

from drumscore.cli.options import (
    PRACTICE_OPTIONS,
    only_with,
    practice_from_args,
    timeline_from_args,
)
from drumscore.cli.progress import CountedBlocks, progress_bar
from drumscore.conductor.expression import Expression
from drumscore.conductor.track import Item, Track, check_count_in
from drumscore.errors import OptionError
from drumscore.files.atomic import write_bytes
from drumscore.files.format_choice import suffixes
from drumscore.files.programme import load_programme
from drumscore.i18n import (
    _,
    hertz,
    milliseconds,
    ngettext,
    per_minute,
    pgettext,
    phrase_text,
    seconds,
)
from drumscore.render.midimap import MidiMap
from drumscore.render.soundfont import render_blocks
from drumscore.timing import Tempo

AUDIO_FILES = suffixes("audio")
#: What can hold a programme, a loop or practice: audio or MIDI.
TRACK_FILES = suffixes("audio", "midi")


def check_kind(args: argparse.Namespace, kind: str) -> None:
    """Refuse what the chosen output cannot hold, before any work: a programme, a loop or a
    state in notation (the count-in is left out of it, with a note)."""
    if args.programme is None and args.score is None:
        raise OptionError(
            _("give a SCORE to render, e.g. {example}, or --programme FILE").format(
                example="'drumscore render lu -o lu.wav'"
            )
        )
    if args.programme is None and args.state is not None:
        raise OptionError(_state_for_one(args.state))
    if kind in ("notation", "engraved"):
        if args.programme is not None or args.loopable:
            what = "--programme" if args.programme is not None else "--loopable"
            raise OptionError(
                _(
                    "{option} is for audio and MIDI files; notation holds one score without a "
                    "loop, so write {files}"
                ).format(option=what, files=TRACK_FILES)
            )
        if args.state is not None:
            raise OptionError(_("--state chooses the state of a --programme's scores"))
        only_with(
            args,
            PRACTICE_OPTIONS,
            present=False,
            target=_("audio or MIDI output"),
            purpose=_("rehearsing with the sound, and notation holds the score alone"),
            fix=_("write {files}").format(files=TRACK_FILES),
        )
        if args.count_in:
            print(
                _("drumscore: note: {message}").format(
                    message=_("notation starts at the first stroke; the count-in is left out")
                ),
                file=sys.stderr,
            )


def _state_for_one(state: str) -> str:
    """The error for --state given with one score: it names the state in the score's name."""
    return _(
        "--state {state!r} chooses the state of a --programme's scores; for one score name it "
        "instead, such as xue/2"
    ).format(state=state)


def track_from_args(
    args: argparse.Namespace, duration: Fraction | None = None, loopable: bool = False
) -> Track:
    """The Track that the score (or --programme) and the options describe."""
    if args.programme is None:
        if args.state is not None:
            raise OptionError(_state_for_one(args.state))
        practice = practice_from_args(args)
        timeline = timeline_from_args(args, duration, practice.ramp)
        return Track.single(timeline, args.count_in, loopable, practice)
    if args.score is not None:
        raise OptionError(
            _(
                "give a SCORE or --programme, not both: the programme names its scores "
                "(leave out {score!r})"
            ).format(score=args.score)
        )
    for option, value in (
        ("--section", args.section),
        ("--repeat", getattr(args, "repeat", None)),
        ("--duration", duration),
        ("--loopable", loopable or None),
        ("--ramp", args.ramp),
        ("--strokes", args.strokes),
    ):
        if value is not None:
            raise OptionError(
                _(
                    "{option} applies to one score; a programme gives each item its own, so "
                    "leave it out or write it in the programme file"
                ).format(option=option)
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
        practice=practice_from_args(args),
    )


def render(args: argparse.Namespace, kind: str, midimap: MidiMap, track: Track) -> int:
    """Write the track to args.output (audio or MIDI) and print what it holds."""
    if kind == "midi":
        from drumscore.render.midi import midi_bytes

        write_bytes(args.output, midi_bytes(track, midimap))
        if track.count_strokes:
            detail = _("MIDI channel 10: {notes}, count {note}")
        else:
            detail = _("MIDI channel 10: {notes}")
        detail = detail.format(notes=midimap.describe(track.first.reading), note=midimap.count_note)
    else:
        if args.soundfont and args.loopable:
            raise OptionError(
                _(
                    "--loopable folds the ring of the last strokes onto the start, which a "
                    "SoundFont render cannot; leave out --soundfont (use the kit) or --loopable"
                )
            )
        frames, sound = _render_audio(args, track, midimap)
        detail = _("{time}, {rate} stereo, {sound}").format(
            time=seconds(f"{frames / args.rate:.1f}"), rate=hertz(str(args.rate)), sound=sound
        )
    if args.quiet:
        return 0
    print(wrote(args.output, summary(track), detail + humanized(track)))
    if len(track.items) > 1:
        rate = args.rate if kind != "midi" else 48000
        for start, item in zip(track.starts(rate), track.items, strict=True):
            print("  " + item_line(item, start / rate))
    return 0


def wrote(output: str, what: str, detail: str) -> str:
    """The line that ends a render: the file written, what it holds, and how it was made."""
    return _("wrote {output}: {what}, {detail}").format(output=output, what=what, detail=detail)


def summary(track: Track) -> str:
    """What a track holds, for the line that ends a render: name, strokes, tempo, loop."""
    n, count = track.strokes, track.count_strokes
    strokes = ngettext("{n} stroke", "{n} strokes", n).format(n=n)
    if count:
        strokes = ngettext(
            "{strokes} and {count} count stroke", "{strokes} and {count} count strokes", count
        ).format(strokes=strokes, count=count)
    parts = [track.description, strokes]
    if len(track.items) == 1:
        first = track.first.tempo
        parts.append(
            _("{tempo} ({interval} apart)").format(
                tempo=per_minute(f"{float(first.bpm):g}"),
                interval=seconds(f"{float(first.interval):g}"),
            )
        )
    if track.loopable:
        parts.append(_("loopable (a whole number of beats)"))
    practice = track.items[0].practice.parameters
    if practice:
        parts.append(practice)
    return phrase_text(parts)


def humanized(track: Track) -> str:
    """How the strokes were humanized, if they were: enough to do it again."""
    ex = track.first.expression
    if ex is None or not ex.humanize_ms:
        return ""
    return _(", humanized ±{ms} with seed {seed}").format(
        ms=milliseconds(f"{ex.humanize_ms:g}"), seed=ex.seed
    )


def item_line(item: Item, at: float) -> str:
    """One item of a programme: when it starts, its label, and what it plays."""
    t = item.timeline
    parts = [f"{t.score.key} {t.section.shown} ×{t.repeats}", per_minute(f"{float(t.tempo.bpm):g}")]
    if item.count_in:
        parts.append(_("count-in {n}").format(n=item.count_in))
    if item.pause:
        parts.append(_("then {time} pause").format(time=seconds(f"{float(item.pause):g}")))
    # TRANSLATORS: an item of a programme, its label and what it plays
    plays = pgettext("a programme's item and what it plays", "{label}: {plays}")
    return f"{seconds(f'{at:8.2f}')}  " + plays.format(label=item.label, plays=phrase_text(parts))


def _render_audio(args: argparse.Namespace, track: Track, midimap: MidiMap) -> tuple[int, str]:
    """Stream the track to args.output in blocks: the frames written, and what played them."""
    from drumscore.files.audio import stream_audio, tags_for

    normalize = not getattr(args, "no_normalize", False)
    if args.soundfont:
        frames, blocks = render_blocks(
            track, args.soundfont, args.rate, midimap, normalize=normalize
        )
        sound = _("SoundFont {path}").format(path=args.soundfont)
    else:
        from drumscore.render.kit import builtin_kit, load_kit
        from drumscore.render.mix import blocks as mix_blocks
        from drumscore.render.mix import check_unnormalised, plan

        kit = load_kit(args.kit) if args.kit else builtin_kit()
        p = plan(track, kit, args.rate)
        if not normalize:
            check_unnormalised(p)
        frames, blocks = p.frames, mix_blocks(p, normalize=normalize)
        if args.kit:
            sound = _("kit {name!r} ({path})").format(name=kit.name, path=args.kit)
        else:
            sound = kit.described
    if normalize:
        sound = _("{sound}, peak-normalised to -1 dBFS").format(sound=sound)
    else:
        sound = _("{sound}, not normalised").format(sound=sound)
    cues = track.cues(args.rate) if len(track.items) > 1 else ()
    with progress_bar(frames, args.rate, args.quiet) as tick:
        counted = CountedBlocks(blocks, tick)
        stream_audio(
            args.output,
            iter(counted),
            args.rate,
            frames,
            args.subtype,
            tags=tags_for(track),
            cues=cues,
        )
    return counted.frames, sound
