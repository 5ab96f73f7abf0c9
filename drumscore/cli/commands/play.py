"""drumscore play: hear a score now, on a sound card or a MIDI port, and watch it as it sounds."""

from __future__ import annotations

import argparse
import contextlib
import shutil
import sys

from drumscore.cli.commands.render import _duration
from drumscore.cli.live import KEY_HELP, BigView, Controls, KeyReader, LiveView, PlainView
from drumscore.cli.options import (
    add_force_option,
    add_json_option,
    add_plot_option,
    add_score_options,
    add_sound_options,
    add_tempo_options,
    only_with,
    plot_format,
)
from drumscore.cli.track_output import track_from_args
from drumscore.conductor.track import Hit, Role, Track
from drumscore.display import table, wrap_phrases
from drumscore.errors import OptionError, PerformanceError
from drumscore.files import signals
from drumscore.i18n import _, aside, list_text, ngettext, per_minute, seconds
from drumscore.play import midiport
from drumscore.play.liveview import LiveState
from drumscore.play.player import Player
from drumscore.render.midimap import MidiMap


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "play",
        description=_(
            "Play a score at an even tempo (間若一) through PortAudio, with the notation shown "
            "and the stroke being heard highlighted. Ctrl-C stops. {keys}."
        ).format(keys=_(KEY_HELP)),
        epilog=_("example: {command}").format(
            command="drumscore play lu --section touhu --count-in 4 --loop --big"
        ),
    )
    # SCORE may be left out when only listing devices or ports, or with --programme.
    add_score_options(p, optional=True)
    add_tempo_options(p)
    add_sound_options(p)
    p.add_argument(
        "--loop", action="store_true", help=_("play again and again until q, Esc or Ctrl-C")
    )
    p.add_argument(
        "--big",
        action="store_true",
        help=_(
            "fill the terminal with a large beat indicator readable across a room (the normal "
            "lines on a small terminal)"
        ),
    )
    p.add_argument(
        "--device",
        metavar="NAME",
        help=_("audio output: a number or (part of) a name from --list-devices"),
    )
    p.add_argument("--list-devices", action="store_true", help=_("list the audio outputs and stop"))
    p.add_argument(
        "--midi-port",
        metavar="NAME",
        help=_(
            "send the strokes to this MIDI output port (part of a name from --list-ports) "
            "instead of playing audio"
        ),
    )
    p.add_argument(
        "--list-ports", action="store_true", help=_("list the MIDI output ports and stop")
    )
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help=_("General MIDI notes for 鼙 and 鼓 on --midi-port (default {notes})").format(
            notes=MidiMap().pair
        ),
    )
    p.add_argument(
        "--check",
        action="store_true",
        help=_(
            "listen to e-drum pads on --midi-in while the score plays and, when it ends (or q, "
            "Esc, Ctrl-C), report how evenly they played it, as 'drumscore check' does; with "
            "--only the pads play the other drum"
        ),
    )
    p.add_argument(
        "--midi-in",
        metavar="NAME",
        help=_("with --check: the MIDI input port of the pads (part of a name from --list-ports)"),
    )
    p.add_argument(
        "--midi-in-notes",
        metavar="PI,GU",
        help=_("with --check: the notes the pads send for 鼙 and 鼓 (default {notes})").format(
            notes=MidiMap().pair
        ),
    )
    add_json_option(p)  # with --check: the report
    add_plot_option(p, _("with --check: draw each stroke's offset from the beat"))
    add_force_option(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    listing = [
        o
        for o, given in (("--list-devices", args.list_devices), ("--list-ports", args.list_ports))
        if given
    ]
    if len(listing) > 1:
        raise OptionError(_("give --list-devices or --list-ports, one at a time"))
    if listing and args.score is not None:
        raise OptionError(
            _("{option} lists and stops; leave out the score {score!r}").format(
                option=listing[0], score=args.score
            )
        )
    if args.list_devices:
        return _list_devices()
    if args.list_ports:
        return _list_ports()
    if args.score is None and args.programme is None:
        raise OptionError(
            _(
                "give a SCORE to play, e.g. 'drumscore play lu' (see 'drumscore list'), or "
                "--programme FILE"
            )
        )
    only_with(
        args,
        ("midi_notes",),
        present=bool(args.midi_port or args.soundfont),
        target=_("--midi-port NAME or --soundfont FILE.sf2"),
        purpose=_("the General MIDI notes of the drums"),
    )
    only_with(
        args,
        ("kit", "soundfont", "velocity", "humanize"),
        present=not args.midi_port,
        target=_("audio playback"),
        purpose=_("the audio, and a --midi-port synthesiser makes its own sound"),
        fix=_("leave out --midi-port"),
    )
    fmt = _check_options(args)
    track = track_from_args(args, _duration(args))
    if args.check and len(track.items) > 1:
        raise OptionError(
            _("--check listens to one score played; leave out --programme or --check")
        )
    listener = midiport.Listener(args.midi_in) if args.check else None
    try:
        player, where = _player(args, track)
    except BaseException:
        if listener is not None:
            listener.close()
        raise
    keys = sys.stdin.isatty() and sys.stdout.isatty()
    if listener is not None:
        with listener:
            heard = _play_along(args, track, player, keys, listener)
        _report(args, track, heard, player.rate, listener, fmt)
        return 0
    if not args.quiet:
        print(_fitted(playing_line(args, track, where, keys)), flush=True)
    played = _play(args, track, player, keys)
    if not args.quiet:
        n = sum(hit.role is Role.STROKE for hit in played)
        print(ngettext("played {n} stroke", "played {n} strokes", n).format(n=n))
    return 0


def _fitted(line: str) -> str:
    """A line for a terminal broken between its phrases, never by the terminal inside a word
    (fitted); as it is when not a terminal (a log keeps one line)."""
    if not sys.stdout.isatty():
        return line
    return "\n".join(fitted(line, shutil.get_terminal_size().columns))


def fitted(line: str, columns: int) -> list[str]:
    """`line` in lines for a terminal `columns` wide, the last column left free (liveview.fit),
    broken between its phrases: the fields and clauses display.wrap_phrases names."""
    return wrap_phrases(line, columns - 1)


def playing_line(args: argparse.Namespace, track: Track, where: str, keys: bool) -> str:
    """The line said before playing: what, how many strokes, how fast, where, how to stop."""
    first = track.first.tempo
    strokes = ngettext("{n} stroke", "{n} strokes", track.strokes).format(n=track.strokes)
    if track.count_strokes:
        strokes = ngettext(
            "{strokes} after {n} count stroke",
            "{strokes} after {n} count strokes",
            track.count_strokes,
        ).format(strokes=strokes, n=track.count_strokes)
    tempo = _("{tempo} ({interval} apart)").format(
        tempo=per_minute(f"{float(first.bpm):g}"), interval=seconds(f"{float(first.interval):g}")
    )
    practice = track.items[0].practice.parameters
    if practice:
        tempo = _("{tempo}, {practice}").format(tempo=tempo, practice=practice)
    line = _("playing {what}: {strokes}, {tempo} on {where}").format(
        what=track.description, strokes=strokes, tempo=tempo, where=where
    )
    if keys:
        return _("{line}; q or Esc stops").format(line=line)
    if args.loop:
        return _("{line}; Ctrl-C stops").format(line=line)
    return line


def _check_options(args: argparse.Namespace) -> str | None:
    """play --check's options checked before anything plays: the plot's format."""
    only_with(
        args,
        ("midi_in", "midi_in_notes", "json", "plot", "force"),
        present=args.check,
        target="--check",
        purpose=_("listening to a performance played along"),
    )
    if not args.check:
        return None
    if args.midi_in is None:
        ports = list_text(repr(n) for n in midiport.input_ports()) or _("none")
        raise OptionError(
            _(
                "--check listens on a MIDI input port: give --midi-in NAME (the ports: {ports})"
            ).format(ports=ports)
        )
    if args.ramp is not None:
        raise OptionError(
            _(
                "--check fits one even beat to the performance, and --ramp changes the tempo "
                "every pass; leave out one of them"
            )
        )
    MidiMap.from_option(args.midi_in_notes, option="midi_in_notes")
    only_with(
        args,
        ("force",),
        present=bool(args.plot),
        target="--plot OUT.png",
        purpose=_("the files written"),
    )
    return plot_format(args.plot, args.force)


def _play_along(
    args: argparse.Namespace,
    track: Track,
    player: Player,
    keys: bool,
    listener: midiport.Listener,
) -> list[Hit]:
    """Play while the listener takes the pads' notes: the strokes played, until the end, a key
    or Ctrl-C (which here ends the play, not the command: the report follows)."""
    if not args.quiet and not args.json:
        print(
            _("playing {what} and listening on MIDI input {port!r}; {stop}").format(
                what=track.description,
                port=listener.name,
                stop=_("q or Esc stops") if keys else _("Ctrl-C stops"),
            ),
            flush=True,
        )
    played: list[Hit] = []
    listener.begin(early=float(track.first.tempo.interval) / 2)
    with signals.ctrl_c_stops():
        _play(args, track, player, keys, played, display=not args.json)
        if played:  # the last stroke played a little late is heard too
            last = played[-1]
            beat = float(last.timeline.tempo.interval)
            listener.linger(min(beat, last.frame / player.rate + beat - listener.elapsed()))
    return played


def _report(
    args: argparse.Namespace,
    track: Track,
    played: list[Hit],
    rate: int,
    listener: midiport.Listener,
    fmt: str | None,
) -> None:
    """The check of what the pads played against the strokes laid out as they sounded (all of
    them, less the drum --only sounds, which the pads leave to the player): the take the
    conductor laid out, count-ins and live changes included (Expected.of_hits)."""
    import dataclasses

    from drumscore.cli.commands.check import show
    from drumscore.performance.check import Expected, check  # numpy
    from drumscore.performance.midifile import from_notes

    notes = listener.notes
    name = _("MIDI input {port!r}").format(port=listener.name)
    strokes = [hit for hit in played if hit.role is Role.STROKE]
    if not strokes:
        raise PerformanceError(
            _("the score was stopped before its first stroke: there is nothing to check")
        )
    if not notes:
        raise PerformanceError(
            _(
                "no note arrived on MIDI input {port!r} while the score played: there is "
                "nothing to check; play the pads along, on the port they send to"
            ).format(port=listener.name)
        )
    midimap = MidiMap.from_option(args.midi_in_notes, option="midi_in_notes")
    performance = from_notes(notes, listener.elapsed(), midimap, name, option="midi_in_notes")
    item = track.items[0]
    only = item.practice.only
    passes = max(hit.pass_no for hit in strokes)
    timeline = dataclasses.replace(strokes[0].timeline, repeats=passes)
    take = Expected.of_hits(
        played,
        rate,
        timeline,
        item=item,
        played=lambda hit: only is None or hit.drum is not only,
    )
    result = check(performance, take, pace=float(item.timeline.tempo.interval))
    show(result, args.plot, fmt, json_output=args.json)


def _play(
    args: argparse.Namespace,
    track: Track,
    player: Player,
    keys: bool,
    played: list[Hit] | None = None,
    display: bool = True,
) -> list[Hit]:
    """Play to the end (or until a key stops it), showing each hit (unless not `display`); the
    hits played (strokes and count strokes; clicks are heard, not shown), also appended to
    `played` as they sound."""
    controls = Controls(player, track.first.tempo.bpm, section=track.first.section)
    big = BigView if args.big else LiveView
    view = (big(keys) if sys.stdout.isatty() else PlainView()) if display else _NoView()
    rate = player.rate
    played = [] if played is None else played
    reader = KeyReader(controls.press) if keys else contextlib.nullcontext()
    with player, reader:
        try:
            for hit in player.hits(poll=0.1 if keys else None):
                if controls.stop_now:
                    break
                controls.passed(hit)
                if hit is not None:
                    played.append(hit)
                shown = hit or getattr(view, "last", None)
                if shown is None:
                    continue
                item = track.items[shown.item]
                state = LiveState(
                    bpm=float(controls.bpm),
                    paused=controls.paused,
                    waiting=tuple(controls.waiting),
                    switch_to=controls.switch_to,
                    item=shown.item,
                    items=len(track.items),
                    label=str(item.label),
                    loop=args.loop and len(track.items) == 1,
                    seconds=shown.frame / rate,
                )
                view.show(hit, state)
            if not controls.stop_now:
                player.wait()
        finally:
            view.close()
    return played


class _NoView:
    """Shows nothing: the report (JSON) is all that play --check --json prints."""

    def show(self, hit: Hit | None, state: LiveState) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


def _player(args: argparse.Namespace, track: Track) -> tuple[Player, str]:
    """The player for the chosen output, and a description of where the sound goes."""
    if args.midi_port:
        midimap = MidiMap.from_option(args.midi_notes)
        port = midiport.open_port(args.midi_port)
        where = _("MIDI port {name!r}").format(name=port.name)
        return midiport.MidiPlayer(port, track, midimap, args.loop), where

    from drumscore.play.audio import AudioPlayer, Feed, SoundFontFeed, choose_device

    device = choose_device(args.device)
    kit = None
    if args.kit:
        from drumscore.render.kit import load_kit

        kit = load_kit(args.kit)
    feed: Feed | SoundFontFeed
    if args.soundfont:
        feed = SoundFontFeed(
            track, args.soundfont, MidiMap.from_option(args.midi_notes), loop=args.loop
        )
    else:
        feed = Feed(track, kit=kit, loop=args.loop)
    return AudioPlayer(feed, device), aside(repr(device.name), device.hostapi)


def _list_devices() -> int:
    from drumscore.play.audio import output_devices

    devices = output_devices()
    if not devices:
        print(
            _("no audio output devices; 'drumscore render SCORE -o out.wav' writes a file instead")
        )
        return 0
    rows = [
        [
            "*" if d.is_default else "",
            str(d.index),
            d.name,
            d.hostapi,
            str(d.channels),
            f"{d.default_rate:g}",
        ]
        for d in devices
    ]
    print(table(rows, ["", "#", _("name"), _("system"), _("channels"), "Hz"]))
    return 0


def _list_ports() -> int:
    ports = midiport.output_ports()
    if not ports:
        print(_("no MIDI output ports; start a synthesiser (e.g. fluidsynth) or connect one"))
    for name in ports:
        print(name)
    inputs = midiport.input_ports()
    if inputs:
        print(_("MIDI input ports (for --midi-in):"))
    for name in inputs:
        print(f"  {name}")
    return 0
