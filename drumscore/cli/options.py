"""Options that several commands share: which score, which section, what tempo, what rate."""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from fractions import Fraction

from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError, OptionError
from drumscore.expression import Expression
from drumscore.files.format_choice import DEFAULT_RATE
from drumscore.model import Section
from drumscore.timeline import Timeline, arrange
from drumscore.timing import Tempo


def whole_number(text: str) -> int:
    """An argparse type: a whole number of at most a dozen digits (a range check follows)."""
    digits = text.strip()
    if len(digits) > 12 or not digits.lstrip("+-").isdigit() or not digits.isascii():
        shown = digits if len(digits) <= 20 else digits[:20] + "…"
        raise argparse.ArgumentTypeError(f"{shown!r} is not a whole number of at most 12 digits")
    return int(digits)


def add_score_options(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """SCORE (left out only where `optional`) and --section."""
    parser.add_argument(
        "score",
        metavar="SCORE",
        nargs="?" if optional else None,
        help="lu, xue, 魯/2, xue/2@benyi, raw notation such as '○□○半○□', or a file",
    )
    parser.add_argument(
        "--section",
        default=None,
        choices=[s.value for s in Section],
        help="touhu: 投壺, the strokes after 半; she: 射, the whole pattern (default); "
        "head: the strokes before 半",
    )


def add_tempo_options(parser: argparse.ArgumentParser, *, repeat: bool = True) -> None:
    """--bpm or --interval, and (unless `repeat` is false) --repeat."""
    tempo = parser.add_mutually_exclusive_group()
    tempo.add_argument("--bpm", metavar="N", help="strokes per minute (default 60: one a second)")
    tempo.add_argument("--interval", metavar="SECONDS", help="seconds between strokes")
    if repeat:
        parser.add_argument(
            "--repeat",
            metavar="N",
            type=whole_number,
            default=None,
            help="play the section N times (default 1)",
        )


def repeat_count(args: argparse.Namespace) -> int:
    """--repeat, or 1 when it was not given."""
    return 1 if args.repeat is None else args.repeat


def timeline_from_args(args: argparse.Namespace, duration: Fraction | None = None) -> Timeline:
    """The Timeline the score, section, tempo, repeat and expression options describe."""
    if getattr(args, "humanize", None) is None:
        only_with(
            args,
            ("seed",),
            present=False,
            target="--humanize MS",
            purpose="the draws of humanizing",
            fix="add --humanize 8, say,",
        )
    return arrange(
        resolve(args.score),
        args.section,
        Tempo.from_options(args.bpm, args.interval),
        repeat_count(args),
        Expression.from_options(args.velocity, args.humanize, args.seed),
        duration,
    )


def add_rate_option(parser: argparse.ArgumentParser, help: str = "sample rate") -> None:
    """--rate HZ; None when not given (formats.check_rate turns that into the default)."""
    parser.add_argument(
        "--rate",
        type=whole_number,
        default=None,
        metavar="HZ",
        help=f"{help} (default {DEFAULT_RATE})",
    )


def add_sound_options(parser: argparse.ArgumentParser) -> None:
    """What the strokes sound like and for how long: kit or SoundFont, expression, duration."""
    add_kit_options(parser, soundfont=True)
    add_expression_options(parser)
    parser.add_argument(
        "--duration",
        metavar="TIME",
        help="repeat the section as many whole times as fit in TIME, such as 90s, 20m or 1h "
        "(at most 12h); instead of --repeat",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no summary line"
    )
    add_track_options(parser)


def add_track_options(parser: argparse.ArgumentParser) -> None:
    """--count-in, and --programme with its --state: what comes before and around the score."""
    parser.add_argument(
        "--count-in",
        metavar="N",
        help="N count strokes (a wood block, or the kit's [count] sound; MIDI note 76) on the "
        "beat before the first stroke",
    )
    parser.add_argument(
        "--programme",
        metavar="FILE",
        help="instead of SCORE, items in order on one clock: a TOML file (see docs/play.md) or "
        "the built-in 'rite'",
    )
    parser.add_argument(
        "--state",
        metavar="lu|xue",
        help="the state whose drum a programme plays, where its scores say {state} (default lu)",
    )


def add_kit_options(parser: argparse.ArgumentParser, *, soundfont: bool) -> None:
    """--kit, and --soundfont where the command can use one."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--kit", metavar="PATH", help="a kit file (kit.toml) or its folder; see docs/kits.md"
    )
    if soundfont:
        source.add_argument(
            "--soundfont",
            metavar="FILE.sf2",
            help="play the General MIDI drum notes through FluidSynth with this SoundFont",
        )


def add_expression_options(parser: argparse.ArgumentParser) -> None:
    """--velocity, --humanize and --seed: expression, off by default."""
    parser.add_argument(
        "--velocity",
        metavar="PI,GU",
        help="MIDI velocities 1-127 for 鼙 and 鼓 (default 72,112); audio scales with them",
    )
    parser.add_argument(
        "--humanize",
        metavar="MS",
        help="vary each stroke's time by up to ±MS milliseconds and its velocity by up to 10%%; "
        "off by default (間若一: strictly even)",
    )
    parser.add_argument(
        "--seed", metavar="N", help="the seed of --humanize (default 0): same seed, same take"
    )


#: Parameters whose flag is not simply --name with dashes for underscores.
FLAGS = {"repeats": "--repeat", "output": "-o", "kind": "-o", "plot": "--plot"}
#: Where to look next, said after an error about that parameter.
SEE_ALSO = {
    "device": "see 'drumscore play --list-devices'",
    "midi_port": "see 'drumscore play --list-ports'",
    "glyph": "--glyph X=○ or --glyph X=□ reads the sign X as a stroke",
    "partial": "--partial lists what can be read, each doubtful pattern marked",
    "label": "--label X=魯 or --label X=薛 says which state the label X鼓 is",
}


def flag_for(option: str) -> str:
    """The command-line flag of a library parameter: "bpm" → "--bpm", "repeats" → "--repeat"."""
    return FLAGS.get(option, "--" + option.replace("_", "-"))


def error_message(exc: DrumscoreError) -> str:
    """An error as the command line reports it: the parameter it names spelled as its flag."""
    message = str(exc)
    option = exc.option
    if option is None:
        return message
    if re.match(rf"{re.escape(option)}\b", message):
        message = flag_for(option) + message[len(option) :]
    if option in SEE_ALSO:
        message += f" ({SEE_ALSO[option]})"
    return message


def _as_given(option: str, value: object) -> str:
    """How an option was given, such as "--rate 48000" or "--stereo"; "" when it was not."""
    if value is None or value is False:
        return ""
    if value is True:
        return flag_for(option)
    if isinstance(value, list):
        return " ".join(f"{flag_for(option)} {v!r}" for v in value)
    return f"{flag_for(option)} {value!r}"


def only_with(
    args: argparse.Namespace,
    options: Sequence[str],
    *,
    present: bool,
    target: str,
    purpose: str,
    fix: str = "",
) -> None:
    """Refuse options that apply only with something that is not there (`present` false).

    `options` are destinations in `args` (given unless None or False); the error reads
    "--a and --b only apply with TARGET (they are for PURPOSE); FIX or leave --a and --b out",
    FIX being "add TARGET" unless given.
    """
    if present:
        return
    given = [_as_given(name, getattr(args, name)) for name in options]
    given = [g for g in given if g]
    if not given:
        return
    names = " and ".join(given) if len(given) < 3 else ", ".join(given)
    verb, they = ("applies", "it is") if len(given) == 1 else ("apply", "they are")
    raise OptionError(
        f"{names} only {verb} with {target} ({they} for {purpose}); "
        f"{fix or 'add ' + target} or leave {names} out"
    )
