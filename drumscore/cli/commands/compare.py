"""drumscore compare: two scores aligned stroke by stroke, section by section, to see and hear."""

from __future__ import annotations

import argparse
import json

from drumscore.analysis.compare import compare, comparison_data
from drumscore.apparatus.places import MARKS, ONLY_A, ONLY_B, SUBSTITUTED
from drumscore.cli.options import (
    WritesTo,
    add_force_option,
    add_json_option,
    add_plot_option,
    add_rate_option,
    add_tempo_options,
    check_output,
    only_with,
    plot_format,
)
from drumscore.cli.reports.compare import format_comparison
from drumscore.corpus import resolve
from drumscore.errors import OptionError
from drumscore.files.atomic import write_bytes
from drumscore.files.format_choice import audio_format, check_rate, choose
from drumscore.i18n import _, speaking
from drumscore.model import Reading, Score, Section
from drumscore.render.plot import plot_comparison
from drumscore.timing import Tempo, split_list

#: Options that shape the --audio file only; the comparison itself does not use them.
AUDIO_OPTIONS = ("stereo", "section", "bpm", "interval", "rate", "reading")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compare",
        description=_(
            "Align two scores as collate aligns each edition with its base, and compare them "
            "per section. Marks: {changed} a different stroke, {only_a} a stroke only in A, "
            "{only_b} a stroke only in B. "
            "--stereo, --section, --bpm, --interval and --rate apply to --audio."
        ).format(changed=MARKS[SUBSTITUTED], only_a=MARKS[ONLY_A], only_b=MARKS[ONLY_B]),
    )
    p.add_argument("a", metavar="A", help=_("a score: lu, xue/2, 魯/2@benyi, notation, or a file"))
    p.add_argument("b", metavar="B", help=_("the other score"))
    add_json_option(p)
    p.add_argument(
        "--audio",
        action=WritesTo,
        metavar="OUT.wav",
        help=_("write A, a pause, then B (or --stereo)"),
    )
    p.add_argument(
        "--stereo", action="store_true", help=_("with --audio: A left, B right, together")
    )
    p.add_argument(
        "--section",
        default=None,
        choices=[s.value for s in Section],
        help=_("with --audio: the section to play (default she, the whole pattern)"),
    )
    p.add_argument(
        "--reading",
        metavar="READING[,READING]",
        help=_(
            "with --audio: how the signs are read, for both or for A and B (zheng,mao hears "
            "one score as 鄭玄 and as 毛奇齡 read it); default zheng"
        ),
    )
    add_tempo_options(p, repeat=False)
    add_rate_option(p, help=_("with --audio: the sample rate"))
    add_plot_option(p, _("draw the aligned scores"))
    add_force_option(p)
    p.set_defaults(run=run)


def _check_options(args: argparse.Namespace) -> tuple[Tempo, int, str | None]:
    """Every option checked before anything is computed or printed: (tempo, rate, plot format)."""
    only_with(
        args,
        AUDIO_OPTIONS,
        present=bool(args.audio),
        target="--audio OUT.wav",
        purpose=_("the audio file, not the comparison"),
        fix=_("add --audio"),
    )
    tempo = Tempo.from_options(args.bpm, args.interval)
    only_with(
        args,
        ("force",),
        present=bool(args.audio or args.plot),
        target="--audio OUT.wav",
        purpose=_("the files written"),
        fix=_("add --audio OUT.wav or --plot OUT.png"),
    )
    rate = check_rate(args.rate)
    fmt = plot_format(args.plot, args.force)
    if args.audio:
        choose("audio", args.audio, "audio")
        audio_format(args.audio)
        check_output(args.audio, args.force, "--audio")
    return tempo, rate, fmt


def _check_section(section: str | None, a: Score, b: Score) -> None:
    """--section must be a section that both scores have."""
    if section is None:
        return
    for side, score in (("A", a), ("B", b)):
        if Section(section) not in score.pattern.sections():
            raise OptionError(
                _(
                    "--section {section!r}: {side} ({key}) has no 半, so it has only the whole "
                    "pattern; use --section she or leave --section out"
                ).format(section=section, side=side, key=score.key)
            )


def _readings(text: str | None) -> tuple[Reading, Reading]:
    """--reading: one reading for A and B, or two (zheng,mao)."""
    if text is None:
        return Reading.parse(None), Reading.parse(None)
    parts = split_list(
        text, parameter="reading", form="READING[,READING]", example="zheng,mao", counts=(1, 2)
    )
    first = Reading.parse(parts[0])
    return first, Reading.parse(parts[-1])


def run(args: argparse.Namespace) -> int:
    tempo, rate, fmt = _check_options(args)
    a, b = resolve(args.a), resolve(args.b)
    _check_section(args.section, a, b)
    from drumscore.files.atomic import check_not_inputs

    check_not_inputs(p for p in (args.audio, args.plot) if p)
    audio = None
    if args.audio:  # mixed first: a comparison too long to hear is refused before any alignment
        from drumscore.files.audio import write_audio
        from drumscore.render.ab_audio import comparison_audio

        readings = _readings(args.reading)
        audio = comparison_audio(
            a,
            b,
            section=args.section,
            tempo=tempo,
            rate=rate,
            stereo=args.stereo,
            readings=readings,
        )
    comparison = compare(a, b)
    plot = None
    if fmt is not None:
        plot = plot_comparison(comparison, fmt)
    if audio is not None:
        section = args.section or "she"
        # the comment tag of the file: data, in English whatever the reader's language
        how = "A left, B right" if args.stereo else "A, a pause, then B"
        heard = f"{how}: A {a.key}, B {b.key}, --section {section} --bpm {float(tempo.bpm):g}"
        with speaking("en"):  # a file's tags: the same in every language, as tags_for's
            heard += "".join(
                f"; {side} {r.read_as}"
                for side, r in zip("AB", readings, strict=True)
                if r.id != "zheng"
            )
            title = f"{a.title} / {b.title}"
        write_audio(args.audio, audio, rate, tags={"title": title, "comment": heard})
    if plot is not None:
        write_bytes(args.plot, plot)
    if args.json:
        data = comparison_data(comparison)
        data["written"] = [p for p in (args.audio, args.plot) if p]
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(format_comparison(comparison))
    if audio is not None:
        said = _("A left, B right") if args.stereo else _("A, a pause, then B")
        print(
            _("wrote {path}: {how}: A {a}, B {b}, {options}, {seconds} s").format(
                path=args.audio,
                how=said,
                a=a.key,
                b=b.key,
                options=f"--section {section} --bpm {float(tempo.bpm):g}",
                seconds=f"{len(audio) / rate:.1f}",
            )
        )
    if plot is not None:
        print(_("wrote {path}").format(path=args.plot))
    return 0
