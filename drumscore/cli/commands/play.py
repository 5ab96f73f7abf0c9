"""drumscore play: hear a score now, on a sound card or a MIDI port, and watch it as it sounds."""

from __future__ import annotations

import argparse
import contextlib
import functools
import shutil
import sys

from drumscore.cli.commands.render import _duration
from drumscore.cli.live import (
    KEY_HELP,
    BigView,
    Controls,
    KeyReader,
    LiveView,
    PlainView,
)
from drumscore.cli.options import (
    add_force_option,
    add_json_option,
    add_plot_option,
    add_score_options,
    add_sound_options,
    add_tempo_options,
    check_output,
    only_with,
    plot_format,
)
from drumscore.cli.track_output import track_from_args
from drumscore.conductor.track import Hit, Role, Track
from drumscore.display import table, wrap_phrases
from drumscore.errors import OptionError, PerformanceError
from drumscore.files import signals
from drumscore.files.atomic import write_bytes
from drumscore.files.format_choice import choose, suffixes
from drumscore.i18n import _, aside, list_text, milliseconds, ngettext, per_minute, quoted, seconds
from drumscore.play import midiport
from drumscore.play.judging import HeardLines
from drumscore.play.listening import AudioListener, DeviceInput, TakeInput, is_device
from drumscore.play.liveview import HEARD_LINES, LiveState
from drumscore.play.player import Player, Poll
from drumscore.render.midimap import MidiMap

#: How often play --listen looks for strokes heard between the strokes it plays (s), where the
#: listener cannot say when it next has sound to look at (AudioListener.due: a microphone's).
LISTEN_POLL = 0.0025


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
    p.add_argument(
        "--listen",
        action="store_true",
        help=_(
            "listen to drums played along through --input while the score plays, show each "
            "stroke as it is heard (its offset from the even beat, missed, extra, wrong drum) "
            "and, when it ends (or q, Esc, Ctrl-C), report as 'drumscore check' does; with "
            "--only the drums play the other drum"
        ),
    )
    p.add_argument(
        "--input",
        metavar="SOURCE",
        help=_(
            "with --listen: an audio input (a number or (part of) a name from --list-devices) "
            "or a recorded take ({audio}), delivered at its own pace as a microphone would"
        ).format(audio=suffixes("audio")),
    )
    p.add_argument(
        "--calibrate",
        action="store_true",
        help=_(
            "play clicks through --device and hear them back through --input (a microphone "
            "near the speaker), measure the round trip and keep it for that pair, so that "
            "--listen puts the strokes it hears on the score's clock; then stop"
        ),
    )
    p.add_argument(
        "--record",
        metavar="TAKE.wav",
        help=_(
            "with --listen: keep the take heard in this recording ({audio}), written whole when "
            "listening ends"
        ).format(audio=suffixes("audio")),
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
    if args.calibrate:
        return _calibrate(args)
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
    along = "--check" if args.check else "--listen" if args.listen else None
    if along and len(track.items) > 1:
        raise OptionError(
            _("{option} listens to one score played; leave out --programme or {option}").format(
                option=along
            )
        )
    listener: midiport.Listener | AudioListener | None = None
    if args.check:
        listener = midiport.Listener(args.midi_in)
    elif args.listen:
        listener = _audio_listener(args, track)
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
            if args.record and isinstance(listener, AudioListener):
                _keep(args, listener)
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
    """play --check's and --listen's options checked before anything plays: the plot's format."""
    if args.check and args.listen:
        raise OptionError(
            _(
                "--check listens to MIDI pads and --listen to drums through an audio input; "
                "give one of them"
            )
        )
    only_with(
        args,
        ("midi_in", "midi_in_notes"),
        present=args.check,
        target="--check",
        purpose=_("listening to a performance played along"),
    )
    only_with(
        args,
        ("record",),
        present=args.listen,
        target="--listen",
        purpose=_("listening to drums played along"),
    )
    only_with(
        args,
        ("input",),
        present=args.listen or args.calibrate,
        target="--listen",
        purpose=_("listening to drums played along"),
    )
    only_with(
        args,
        ("json", "plot", "force"),
        present=args.check or args.listen,
        target=_("--check or --listen"),
        purpose=_("listening to a performance played along"),
    )
    if not (args.check or args.listen):
        return None
    option = "--check" if args.check else "--listen"
    if args.ramp is not None:
        raise OptionError(
            _(
                "{option} fits one even beat to the performance, and --ramp changes the tempo "
                "every pass; leave out one of them"
            ).format(option=option)
        )
    if args.listen and args.input is None:
        raise OptionError(
            _(
                "--listen hears the drums through an audio input: give --input DEVICE (see "
                "--list-devices) or --input TAKE.wav (a recorded take)"
            )
        )
    if args.check and args.midi_in is None:
        ports = list_text(repr(n) for n in midiport.input_ports()) or _("none")
        raise OptionError(
            _(
                "--check listens on a MIDI input port: give --midi-in NAME (the ports: {ports})"
            ).format(ports=ports)
        )
    if args.check:
        MidiMap.from_option(args.midi_in_notes, option="midi_in_notes")
    only_with(
        args,
        ("force",),
        present=bool(args.plot or args.record),
        target=_("--plot OUT.png or --record TAKE.wav"),
        purpose=_("the files written"),
    )
    if args.record:
        choose("audio", args.record, "record")
        check_output(args.record, args.force, "--record")
    return plot_format(args.plot, args.force)


def _calibrate(args: argparse.Namespace) -> int:
    """play --calibrate: the round trip from --device to --input, measured and kept."""
    from drumscore.play import latency
    from drumscore.play.audio import choose_device

    if args.score is not None:
        raise OptionError(
            _("{option} measures and stops; leave out the score {score!r}").format(
                option="--calibrate", score=args.score
            )
        )
    if args.input is not None and not is_device(args.input):
        raise OptionError(
            _(
                "--calibrate hears the clicks through an audio input, not a recording: give "
                "--input DEVICE (see --list-devices)"
            )
        )
    output = choose_device(args.device)
    heard = latency.measure(output, choose_device(args.input, "input"))
    path = latency.store(heard)
    print(
        _(
            "the round trip from {output!r} to {input!r} is {delay} (each click within "
            "{spread} of it, {n} of {count} heard back); kept in {path}"
        ).format(
            output=heard.output,
            input=heard.input,
            delay=milliseconds(f"{heard.seconds * 1000:.1f}"),
            spread=milliseconds(f"{heard.spread * 1000:.1f}"),
            n=heard.clicks,
            count=latency.CLICKS,
            path=path,
        )
    )
    return 0


def _keep(args: argparse.Namespace, listener: AudioListener) -> None:
    """play --listen --record: the take heard, written whole (files.atomic)."""
    write_bytes(args.record, listener.recording(choose("audio", args.record, "record")[1]))
    if not args.quiet and not args.json:
        print(_("wrote {path}").format(path=args.record), flush=True)


def _audio_listener(args: argparse.Namespace, track: Track) -> AudioListener:
    """play --listen's listener on its --input, hearing the count sound as check does."""
    item = track.items[0]
    clicks = item.practice.clicks
    listener = AudioListener(
        args.input,
        count_sound=bool(item.count_in or clicks),
        click_velocity=item.practice.click_velocity if clicks else None,
    )
    if args.record:  # --record the take itself: refused before it is played, not after
        from drumscore.files.atomic import check_not_inputs

        try:
            check_not_inputs([args.record])
        except BaseException:
            listener.close()
            raise
    return listener


def _play_along(
    args: argparse.Namespace,
    track: Track,
    player: Player,
    keys: bool,
    listener: midiport.Listener | AudioListener,
) -> list[Hit]:
    """Play while the listener takes the pads' notes or hears the drums: the strokes played,
    until the end, a key or Ctrl-C (which here ends the play, not the command: the report
    follows)."""
    stop = _("q or Esc stops") if keys else _("Ctrl-C stops")
    live: HeardLines | None = None
    if isinstance(listener, AudioListener):
        lag = None
        if isinstance(listener.input, DeviceInput):
            lag = _round_trip(args, player, listener)
        # how many of the last lines the display shows again as they change
        window = 0 if args.json or not sys.stdout.isatty() else 1 if args.big else HEARD_LINES
        live = HeardLines(listener, track, player.rate, lag, window)
        line = _("playing {what} and listening to {source}; {stop}").format(
            what=track.description, source=_source(listener), stop=stop
        )
    else:
        line = _("playing {what} and listening on MIDI input {port!r}; {stop}").format(
            what=track.description, port=listener.name, stop=stop
        )
    if not args.quiet and not args.json:
        print(line, flush=True)
    played: list[Hit] = []
    listener.begin(early=float(track.first.tempo.interval) / 2)
    ended = False
    with signals.ctrl_c_stops():
        _play(args, track, player, keys, played, display=not args.json, live=live)
        ended = True
        if played:  # the last stroke played a little late is heard too
            last = played[-1]
            beat = float(last.timeline.tempo.interval)
            listener.linger(min(beat, last.frame / player.rate + beat - listener.elapsed()))
    if not ended and isinstance(listener, AudioListener):
        listener.stop()  # Ctrl-C: a take ends where it was stopped
    if live is not None and not args.json:  # the strokes heard after the score's last
        late = live(None, final=True)[live.shown :]
        if late:
            print("\n".join(late), flush=True)
    return played


def _round_trip(args: argparse.Namespace, player: Player, listener: AudioListener) -> float | None:
    """The round trip measured from the player's output to the listener's input (play
    --calibrate), if it was; else a note saying how the strokes are timed without it."""
    from drumscore.play import latency

    device = getattr(player, "device", None)
    output = device.name if device is not None else ""
    found = latency.stored(output, listener.name) if output else None
    if found is not None:
        return found.seconds
    if not args.quiet and not args.json:
        print(
            _(
                "no round trip measured from {output} to {input} (drumscore play "
                "--calibrate): the strokes heard are timed against the performer's own first "
                "strokes"
            ).format(
                output=repr(output) if output else _("the MIDI port"), input=repr(listener.name)
            ),
            flush=True,
        )
    return None


def _source(listener: AudioListener) -> str:
    """Where play --listen hears the drums, as a phrase."""
    if isinstance(listener.input, TakeInput):
        return _("the take {path}").format(path=listener.input.shown)
    return _("audio input {name}").format(name=listener.input.shown)


def _report(
    args: argparse.Namespace,
    track: Track,
    played: list[Hit],
    rate: int,
    listener: midiport.Listener | AudioListener,
    fmt: str | None,
) -> None:
    """The check of what the pads played against the strokes laid out as they sounded (all of
    them, less the drum --only sounds, which the pads leave to the player): the take the
    conductor laid out, count-ins and live changes included (Expected.of_hits)."""
    import dataclasses

    from drumscore.cli.commands.check import show
    from drumscore.performance.check import Expected, check  # numpy
    from drumscore.performance.midifile import from_notes

    strokes = [hit for hit in played if hit.role is Role.STROKE]
    if not strokes:
        raise PerformanceError(
            _("the score was stopped before its first stroke: there is nothing to check")
        )
    if isinstance(listener, AudioListener):
        performance = listener.finish()
    else:
        notes = listener.notes
        name = _("MIDI input {port!r}").format(port=listener.name)
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
    live: HeardLines | None = None,
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
            poll: Poll | None = 0.1 if keys else None
            if live is not None:  # woken when the listener has sound to look at
                poll = functools.partial(_listen_wait, live)
            for hit in player.hits(poll=poll):
                if controls.stop_now:
                    break
                controls.passed(hit)
                if hit is not None:
                    played.append(hit)
                heard = live(hit) if live is not None else ()
                shown = hit or getattr(view, "last", None)
                if shown is None:
                    continue
                revised = live.revisions if live is not None else ()
                view.show(hit, _state(args, track, controls, shown, rate, heard, revised))
                if live is not None:
                    live.shown = len(heard)
            if not controls.stop_now:
                player.wait()
            elif live is not None:  # q or Esc: a take ends where it was stopped
                live.listener.stop()
            if live is not None and played and not controls.stop_now:
                _linger(args, track, controls, view, live, played[-1], rate)
        finally:
            view.close()
    return played


def _state(
    args: argparse.Namespace,
    track: Track,
    controls: Controls,
    shown: Hit,
    rate: int,
    heard: tuple[str, ...],
    revisions: tuple[tuple[str, bool], ...] = (),
) -> LiveState:
    """What the display shows beside the hit `shown` (and the strokes heard, the recent
    revisions among them)."""
    return LiveState(
        bpm=float(controls.bpm),
        paused=controls.paused,
        waiting=tuple(controls.waiting),
        switch_to=controls.switch_to,
        item=shown.item,
        items=len(track.items),
        label=str(track.items[shown.item].label),
        loop=args.loop and len(track.items) == 1,
        seconds=shown.frame / rate,
        heard=heard,
        revisions=revisions,
    )


def _linger(
    args: argparse.Namespace,
    track: Track,
    controls: Controls,
    view: LiveView | PlainView | _NoView,
    live: HeardLines,
    last: Hit,
    rate: int,
) -> None:
    """Listen on for a beat after the score's last stroke (one played a little late), each
    stroke heard shown as it is judged."""
    end = last.frame / rate + float(last.timeline.tempo.interval)
    while live.listener.elapsed() < end and not controls.stop_now:
        live.listener.sleep(_listen_wait(live))
        heard = live(None)  # (the display paints only what changed)
        view.show(None, _state(args, track, controls, last, rate, heard, live.revisions))
        live.shown = len(heard)


def _listen_wait(live: HeardLines) -> float:
    """How long play --listen waits before it looks for strokes heard: until the listener next
    has sound to look at, or LISTEN_POLL where it cannot say."""
    due = live.listener.due()
    return LISTEN_POLL if due is None else due


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
    return AudioPlayer(feed, device), aside(quoted(device.name), device.hostapi)


def _list_devices() -> int:
    from drumscore.play.audio import input_devices, output_devices

    devices = output_devices()
    if not devices:
        print(
            _("no audio output devices; 'drumscore render SCORE -o out.wav' writes a file instead")
        )
    else:
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
    inputs = input_devices()
    if inputs:
        print(_("audio inputs (for --listen --input):"))
        print(
            table(
                [["*" if d.is_default else "", str(d.index), d.name, d.hostapi] for d in inputs],
                ["", "#", _("name"), _("system")],
            )
        )
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
