"""Options that several commands share: which score, which section, what tempo, what rate."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

from drumscore.conductor.expression import Expression
from drumscore.conductor.timeline import MAX_REPEAT, Timeline, arrange
from drumscore.conductor.track import (
    CLICK_VELOCITY,
    COUNT_VELOCITY,
    MAX_CLICKS,
    Practice,
    Ramp,
)
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError, OptionError
from drumscore.files.atomic import check_writable
from drumscore.files.format_choice import DEFAULT_RATE, PLOT, choose
from drumscore.i18n import N_, _, clause_text, list_text, ngettext
from drumscore.model import Drum, Reading, Section
from drumscore.timing import Tempo, whole_text


def section_help() -> str:
    """What --section says of each section (from the one table of their names), she the
    default, in the current language."""
    said = []
    for section in Section:
        text = section.help
        if section is Section.SHE:
            text = _("{section} (default)").format(section=text)
        said.append(text)
    return clause_text(said)


def whole_number(text: str) -> int:
    """An argparse type: a whole number of at most a dozen digits (a range check follows)."""
    number = whole_text(text, signed=True)
    if number is None:
        digits = text.strip()
        shown = digits if len(digits) <= 20 else digits[:20] + "…"
        raise argparse.ArgumentTypeError(
            _("{value!r} is not a whole number of at most 12 digits").format(value=shown)
        )
    return number


def add_score_options(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """SCORE (left out only where `optional`) and --section."""
    parser.add_argument(
        "score",
        metavar="SCORE",
        nargs="?" if optional else None,
        help=_("lu, xue, 魯/2, xue/2@benyi, raw notation such as '○□○半○□', or a file"),
    )
    parser.add_argument(
        "--section",
        default=None,
        choices=[s.value for s in Section],
        help=section_help(),
    )
    parser.add_argument(
        "--reading",
        metavar="READING",
        help=_(
            "how the signs are read: zheng (鄭玄: ○ 鼙, □ 鼓; the default) or mao (毛奇齡 經問 "
            "卷十六: ○ 大鼓, □ 鞞)"
        ),
    )


def add_tempo_options(parser: argparse.ArgumentParser, *, repeat: bool = True) -> None:
    """--bpm or --interval, and (unless `repeat` is false) --repeat."""
    tempo = parser.add_mutually_exclusive_group()
    tempo.add_argument(
        "--bpm", metavar="N", help=_("strokes per minute (default 60: one a second)")
    )
    tempo.add_argument("--interval", metavar="SECONDS", help=_("seconds between strokes"))
    if repeat:
        parser.add_argument(
            "--repeat",
            metavar="N",
            type=whole_number,
            default=None,
            help=_("play the section N times (default 1)"),
        )


def repeat_count(args: argparse.Namespace) -> int:
    """--repeat, or 1 when it was not given."""
    return 1 if args.repeat is None else args.repeat


def timeline_from_args(
    args: argparse.Namespace, duration: Fraction | None = None, ramp: Ramp | None = None
) -> Timeline:
    """The Timeline the score, section, strokes, tempo (or `ramp`), repeat and expression
    options describe."""

    if getattr(args, "humanize", None) is None:
        only_with(
            args,
            ("seed",),
            present=False,
            target="--humanize MS",
            purpose=_("the draws of humanizing"),
            fix=_("add --humanize 8, say,"),
        )
    tempo = Tempo.from_options(args.bpm, args.interval)
    repeats = repeat_count(args)
    expression = Expression.from_options(args.velocity, args.humanize, args.seed)
    if ramp is not None:
        if duration is not None:
            raise OptionError(
                _(
                    "--ramp plays its passes at changing tempi; give them with --repeat N, or "
                    "leave them to the ramp, instead of --duration"
                )
            )
        tempo = ramp.tempo(1)
        repeats = ramp.passes if args.repeat is None else repeats
        expression.check(Tempo.from_bpm(max(ramp.start, ramp.stop)).interval)  # the fastest
    return arrange(
        resolve(args.score),
        args.section,
        tempo,
        repeats,
        expression,
        duration,
        getattr(args, "strokes", None),
        reading_from_args(args),
    )


def reading_from_args(args: argparse.Namespace) -> Reading:
    """--reading, 鄭玄's reading when it was not given."""
    return Reading.parse(getattr(args, "reading", None))


def add_rate_option(parser: argparse.ArgumentParser, help: str | None = None) -> None:
    """--rate HZ; None when not given (formats.check_rate turns that into the default). `help`
    is the help in the current language, "sample rate" if not given."""
    parser.add_argument(
        "--rate",
        type=whole_number,
        default=None,
        metavar="HZ",
        help=_("{help} (default {rate})").format(help=help or _("sample rate"), rate=DEFAULT_RATE),
    )


def plot_format(path: str | None, force: bool) -> str | None:
    """The format (png or svg) of the --plot file, its name checked and the file writable (and
    new, or `force`), before anything is computed; None without --plot."""
    if not path:
        return None
    fmt = choose("plot", path, "plot")[1]
    check_output(path, force, "--plot")
    return fmt


def add_sound_options(parser: argparse.ArgumentParser) -> None:
    """What the strokes sound like and for how long: kit or SoundFont, expression, duration."""
    add_kit_options(parser, soundfont=True)
    add_expression_options(parser)
    parser.add_argument(
        "--duration",
        metavar="TIME",
        help=_(
            "repeat the section as many whole times as fit in TIME, such as 90s, 20m or 1h "
            "(at most 12h); instead of --repeat"
        ),
    )
    add_quiet_option(parser)
    add_track_options(parser)
    add_practice_options(parser)


def add_quiet_option(parser: argparse._ActionsContainer) -> None:
    """-q/--quiet, alike on every command that has it."""
    parser.add_argument(
        "-q", "--quiet", action="store_true", help=_("no progress bar and no summary line")
    )


class WritesTo(argparse.Action):
    """The action of every option that names a file or folder the command writes: the one
    overwrite rule (check_output) covers each, and the tests find every one by this class."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        setattr(namespace, self.dest, values)


def add_output_option(parser: argparse._ActionsContainer, *, required: bool = False) -> None:
    """-o/--output PATH, alike on every command that writes files; what PATH may be is said in
    the command's description."""
    parser.add_argument(
        "-o",
        "--output",
        action=WritesTo,
        metavar="PATH",
        required=required,
        default=None,
        help=_("where to write; the description above says what PATH may be"),
    )


def add_force_option(parser: argparse._ActionsContainer) -> None:
    """--force, alike on every command that writes files (see check_new)."""
    parser.add_argument(
        "--force",
        action="store_true",
        help=_("write over what is already there (refused without --force)"),
    )


def add_output_options(parser: argparse._ActionsContainer, *, required: bool = False) -> None:
    """-o/--output, --force and -q/--quiet: what every command that writes files takes."""
    add_output_option(parser, required=required)
    add_force_option(parser)
    add_quiet_option(parser)


def add_json_option(parser: argparse._ActionsContainer) -> None:
    """--json, alike on every command that has it (the description says what it holds)."""
    parser.add_argument("--json", action="store_true", help=_("machine-readable output"))


def check_new(path: str | Path, force: bool, option: str = "-o", kept: str = "") -> None:
    """Refuse to write over a file (or folder) that is already there, unless --force; `kept`
    says what of it a write over it keeps, in the current language."""
    if force or not os.path.lexists(path):
        return
    if kept:
        message = _(
            "{option} {path!r} exists already; give --force to write over it ({kept}), or "
            "choose another name"
        )
    else:
        message = _(
            "{option} {path!r} exists already; give --force to write over it, or choose "
            "another name"
        )
    raise OptionError(message.format(option=option, path=str(path), kept=kept))


def check_output(path: str | Path, force: bool, option: str = "-o", kept: str = "") -> Path:
    """The one rule for a file a command writes, checked before anything is computed: its folder
    is there and writable, and a file already there is written over only with --force (check_new).
    The write itself (files.atomic) is made under a temporary name and renamed, and refuses an
    output that is one of the command's inputs."""
    written = check_writable(path)
    check_new(path, force, option, kept)
    return written


def add_plot_option(parser: argparse.ArgumentParser, what: str, metavar: str = "OUT.png") -> None:
    """--plot OUT.png, alike on every command that draws: `what` it draws, in the current
    language (the picture formats are added)."""
    parser.add_argument(
        "--plot",
        action=WritesTo,
        metavar=metavar,
        default=None,
        help=_("{what} ({suffixes})").format(what=what, suffixes=" ".join(PLOT)),
    )


def add_practice_options(parser: argparse.ArgumentParser, title: str | None = None) -> None:
    """Rehearsing with the score: click, count-in every pass, silent passes, ramp, one drum,
    some strokes only (render and play make a take with them, check reads one back); `title`
    heads the group, in the current language."""
    group = parser.add_argument_group(title or _("practice (all off by default)"))
    group.add_argument(
        "--click",
        metavar="N",
        help=_(
            "a click (the count sound; MIDI note 76) on every stroke, or N clicks dividing each "
            "stroke: 2 puts one halfway"
        ),
    )
    group.add_argument(
        "--click-level",
        metavar="V",
        help=_(
            "the clicks' velocity 1-127 (default {default}; audio plays the count sound at "
            "V/{count} of its level)"
        ).format(default=CLICK_VELOCITY, count=COUNT_VELOCITY),
    )
    group.add_argument(
        "--count-in-each",
        action="store_true",
        help=_("with --count-in: count in before every pass, not only the first"),
    )
    group.add_argument(
        "--silent-every",
        metavar="K",
        help=_("every K-th pass sounds its clicks only, to test the inner pulse"),
    )
    group.add_argument(
        "--ramp",
        metavar="START:STOP:STEP[:EVERY]",
        help=_(
            "tempo trainer: the first pass at START strokes a minute, STEP more every pass (or "
            "EVERY passes) until STOP, such as 40:60:5; --repeat defaults to the passes that "
            "reach STOP"
        ),
    )
    group.add_argument(
        "--only",
        metavar="DRUM",
        help=_(
            "minus one: only 鼙 (pi) or only 鼓 (gu) sounds; the other's strokes are kept silent "
            "for a second performer"
        ),
    )
    group.add_argument(
        "--strokes",
        metavar="A-B",
        help=_("play strokes A to B of the section (numbered from 1), such as 5-12"),
    )


#: The practice options, by destination (for the checks that refuse them where they do nothing).
PRACTICE_OPTIONS = ("click", "click_level", "count_in_each", "silent_every", "ramp", "only")


def _count(text: str | None, option: str, high: int) -> int:
    """A whole number from 1 to `high` given for `option` (0 when not given)."""
    if text is None:
        return 0
    number = whole_text(text)
    if number is None or not 1 <= number <= high:
        raise OptionError(
            _("{option} takes a whole number from 1 to {high}, not {value!r}").format(
                option=option, high=high, value=str(text)[:40]
            ),
            option=option,
        )
    return number


def practice_from_args(args: argparse.Namespace) -> Practice:
    """The Practice that --click, --count-in-each, --silent-every, --ramp and --only ask for."""
    if args.count_in_each and not args.count_in:
        raise OptionError(_("--count-in-each counts in before every pass; add --count-in 4, say"))
    if args.click_level is not None and args.click is None and args.silent_every is None:
        raise OptionError(_("--click-level sets the clicks' level; add --click 1, say"))
    ramp = Ramp.parse(args.ramp) if args.ramp is not None else None
    if ramp is not None and (args.bpm is not None or args.interval is not None):
        raise OptionError(_("--ramp sets the tempo of every pass; leave out --bpm and --interval"))
    return Practice(
        click=_count(args.click, "click", MAX_CLICKS),
        click_velocity=_count(args.click_level, "click_level", 127) or CLICK_VELOCITY,
        count_each=bool(args.count_in_each),
        silent_every=_count(args.silent_every, "silent_every", MAX_REPEAT),
        only=Drum.parse(args.only, "only") if args.only is not None else None,
        ramp=ramp,
    )


def add_track_options(parser: argparse.ArgumentParser) -> None:
    """--count-in, and --programme with its --state: what comes before and around the score."""
    add_count_in_option(parser)
    parser.add_argument(
        "--programme",
        metavar="FILE",
        help=_(
            "instead of SCORE, items in order on one clock: a TOML file (see docs/play.md) or "
            "the built-in 'rite'"
        ),
    )
    parser.add_argument(
        "--state",
        metavar="lu|xue",
        help=_(
            "the state whose drum a programme plays, where its scores say {placeholder} "
            "(default lu)"
        ).format(placeholder="{state}"),
    )


def add_count_in_option(parser: argparse.ArgumentParser) -> None:
    """--count-in N: count strokes on the beat before the first stroke."""
    parser.add_argument(
        "--count-in",
        metavar="N",
        help=_(
            "N count strokes (a wood block, or the kit's [count] sound; MIDI note 76) on the "
            "beat before the first stroke"
        ),
    )


def add_kit_options(parser: argparse.ArgumentParser, *, soundfont: bool) -> None:
    """--kit, and --soundfont where the command can use one."""
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--kit", metavar="PATH", help=_("a kit file (kit.toml) or its folder; see docs/kits.md")
    )
    if soundfont:
        source.add_argument(
            "--soundfont",
            metavar="FILE.sf2",
            help=_("play the General MIDI drum notes through FluidSynth with this SoundFont"),
        )


def add_expression_options(parser: argparse.ArgumentParser) -> None:
    """--velocity, --humanize and --seed: expression, off by default."""
    parser.add_argument(
        "--velocity",
        metavar="PI,GU",
        help=_("MIDI velocities 1-127 for 鼙 and 鼓 (default 72,112); audio scales with them"),
    )
    parser.add_argument(
        "--humanize",
        metavar="MS",
        help=_(
            "vary each stroke's time by up to ±MS milliseconds and its velocity by up to 10%%; "
            "off by default (間若一: strictly even)"
        ),
    )
    parser.add_argument(
        "--seed", metavar="N", help=_("the seed of --humanize (default 0): same seed, same take")
    )


#: Parameters whose flag is not simply --name with dashes for underscores.
FLAGS = {"repeats": "--repeat", "output": "-o", "kind": "-o", "plot": "--plot"}
#: Where to look next, said after an error about that parameter.
SEE_ALSO = {
    "device": N_("see 'drumscore play --list-devices'"),
    "midi_port": N_("see 'drumscore play --list-ports'"),
    "glyph": N_("--glyph X=○ or --glyph X=□ reads the sign X as a stroke"),
    "partial": N_("--partial lists what can be read, each doubtful pattern marked"),
    "label": N_("--label X=魯 or --label X=薛 says which state the label X鼓 is"),
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
        message = _("{message} ({see})").format(message=message, see=_(SEE_ALSO[option]))
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
    FIX being "add TARGET" unless given. TARGET, PURPOSE and FIX come in the current language.
    """
    if present:
        return
    given = [_as_given(name, getattr(args, name)) for name in options]
    given = [g for g in given if g]
    if not given:
        return
    if len(given) == 2:
        names = _("{first} and {second}").format(first=given[0], second=given[1])
    else:
        names = list_text(given)
    raise OptionError(
        ngettext(
            "{names} only applies with {target} (it is for {purpose}); {fix} or leave {names} out",
            "{names} only apply with {target} (they are for {purpose}); {fix} or leave {names} out",
            len(given),
        ).format(
            names=names,
            target=target,
            purpose=purpose,
            fix=fix or _("add {target}").format(target=target),
        )
    )
