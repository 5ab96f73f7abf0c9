"""drumscore play: hear a score now, on a sound card or a MIDI port, and watch it as it sounds."""

from __future__ import annotations

import argparse
import shutil
import sys

from drumscore.cli.options import (
    add_expression_options,
    add_kit_options,
    add_score_options,
    add_tempo_options,
    only_with,
    timeline_from_args,
)


def add_parser(sub) -> None:
    p = sub.add_parser(
        "play",
        help="play a score on the sound card (or a MIDI port), showing each stroke as it sounds",
        description=(
            "Play a score at an even tempo (間若一) through PortAudio, with the notation shown and "
            "the stroke being heard highlighted. Ctrl-C stops."
        ),
    )
    # SCORE may be left out when only listing devices or ports.
    add_score_options(p, optional=True)
    add_tempo_options(p)
    add_kit_options(p, soundfont=False)
    add_expression_options(p)
    p.add_argument("--loop", action="store_true", help="play again and again until Ctrl-C")
    p.add_argument(
        "--device",
        metavar="NAME",
        help="audio output: a number or (part of) a name from --list-devices",
    )
    p.add_argument("--list-devices", action="store_true", help="list the audio outputs and stop")
    p.add_argument(
        "--midi-port",
        metavar="NAME",
        help="send the strokes to this MIDI output port (part of a name from --list-ports) "
        "instead of playing audio",
    )
    p.add_argument("--list-ports", action="store_true", help="list the MIDI output ports and stop")
    p.add_argument(
        "--midi-notes",
        metavar="PI,GU",
        help="General MIDI notes for 鼙 and 鼓 on --midi-port (default 45,41)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from drumscore.errors import OptionError

    listing = [
        o
        for o, given in (("--list-devices", args.list_devices), ("--list-ports", args.list_ports))
        if given
    ]
    if len(listing) > 1:
        raise OptionError("give --list-devices or --list-ports, one at a time")
    if listing and args.score is not None:
        raise OptionError(f"{listing[0]} lists and stops; leave out the score {args.score!r}")
    if args.list_devices:
        return _list_devices()
    if args.list_ports:
        return _list_ports()
    if args.score is None:
        raise OptionError("give a SCORE to play, e.g. 'drumscore play lu' (see 'drumscore list')")
    only_with(
        args,
        ("midi_notes",),
        present=bool(args.midi_port),
        target="--midi-port NAME",
        purpose="the notes sent to a MIDI port",
    )
    only_with(
        args,
        ("kit", "velocity", "humanize"),
        present=not args.midi_port,
        target="audio playback",
        purpose="the audio, and a --midi-port synthesiser makes its own sound",
        fix="leave out --midi-port",
    )

    timeline = timeline_from_args(args)
    player, where = _player(args, timeline)
    tempo = timeline.tempo
    print(
        f"playing {timeline.description}: {len(timeline)} strokes, "
        f"{float(tempo.bpm):g} per minute ({float(tempo.interval):g} s apart) on {where}"
        + ("; Ctrl-C stops" if args.loop else ""),
        flush=True,
    )
    view = _LiveView(timeline, args.loop) if sys.stdout.isatty() else _PlainView(timeline)
    count = None if args.loop else len(timeline)
    with player:
        try:
            for k in player.heard(count):
                view.show(k)
            player.wait()
        finally:
            view.close()
    print(f"played {len(timeline)} strokes")
    return 0


def _player(args: argparse.Namespace, timeline):
    """The player for the chosen output, and a description of where the sound goes."""
    if args.midi_port:
        from drumscore.play.midiport import MidiPlayer, open_port
        from drumscore.render.midimap import MidiMap

        midimap = MidiMap.from_option(args.midi_notes)
        port = open_port(args.midi_port)
        return MidiPlayer(port, timeline, midimap), f"MIDI port {port.name!r}"

    from drumscore.play.audio import AudioPlayer, Feed, choose_device

    device = choose_device(args.device)
    kit = None
    if args.kit:
        from drumscore.render.kit import load_kit

        kit = load_kit(args.kit)
    feed = Feed(timeline, kit=kit, loop=args.loop)
    return AudioPlayer(feed, device), f"{device.name!r} ({device.hostapi})"


def _list_devices() -> int:
    from drumscore.display import table
    from drumscore.play.audio import output_devices

    devices = output_devices()
    if not devices:
        print("no audio output devices; 'drumscore render SCORE -o out.wav' writes a file instead")
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
    print(table(rows, ["", "#", "name", "system", "channels", "Hz"]))
    return 0


def _list_ports() -> int:
    from drumscore.play.midiport import output_ports

    ports = output_ports()
    if not ports:
        print("no MIDI output ports; start a synthesiser (e.g. fluidsynth) or connect one")
    for name in ports:
        print(name)
    return 0


class _LiveView:
    """Repaints the notation in place on a terminal, the stroke being heard highlighted."""

    def __init__(self, timeline, loop: bool) -> None:
        from drumscore.play import liveview

        self.lv = liveview
        self.timeline = timeline
        self.loop = loop
        self.painted = 0
        sys.stdout.write(liveview.HIDE_CURSOR)

    def show(self, k: int) -> None:
        columns = shutil.get_terminal_size().columns
        lines = self.lv.frame(self.timeline, k, columns, self.loop)
        sys.stdout.write(self.lv.repaint(lines, self.painted))
        sys.stdout.flush()
        self.painted = len(lines)

    def close(self) -> None:
        sys.stdout.write(self.lv.restore())
        sys.stdout.flush()


class _PlainView:
    """A line per stroke as it sounds, for pipes and logs."""

    def __init__(self, timeline) -> None:
        self.timeline = timeline

    def show(self, k: int) -> None:
        from drumscore.play.liveview import plain_lines

        print("\n".join(plain_lines(self.timeline, k)), flush=True)

    def close(self) -> None:
        sys.stdout.flush()
