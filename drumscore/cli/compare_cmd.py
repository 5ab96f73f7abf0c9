"""drumscore compare: two scores aligned stroke by stroke, section by section, to see and hear."""

from __future__ import annotations

import argparse
import json

from .options import add_tempo_options

MARKS = {"same": " ", "substituted": "*", "only-a": "-", "only-b": "+"}


def add_parser(sub) -> None:
    p = sub.add_parser(
        "compare",
        help="align two scores and show, hear or plot how they differ",
        description="Align two scores (Needleman–Wunsch) and compare them per section. "
        "Marks: * a different stroke, - a stroke only in A, + a stroke only in B.",
    )
    p.add_argument("a", metavar="A", help="a score: lu, xue/2, 魯/2@benyi, notation, or a file")
    p.add_argument("b", metavar="B", help="the other score")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--audio", metavar="OUT.wav", help="write A, a pause, then B (or --stereo)")
    p.add_argument("--stereo", action="store_true", help="with --audio: A left, B right, together")
    p.add_argument(
        "--section",
        default=None,
        choices=["touhu", "she", "head"],
        help="with --audio: the section to play (default she, the whole pattern)",
    )
    add_tempo_options(p)
    p.add_argument("--rate", type=int, default=44100, metavar="HZ", help="audio sample rate")
    p.add_argument("--plot", metavar="OUT.png", help="draw the aligned scores (.png or .svg)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..compare import compare
    from ..corpus import resolve
    from ..errors import OptionError
    from ..output import check_writable

    if args.stereo and not args.audio:
        raise OptionError("--stereo needs --audio OUT.wav")
    if args.repeat != 1:
        raise OptionError("compare plays each score once; leave out --repeat")
    plot_format = None
    if args.plot:
        from pathlib import Path

        from ..plot import FORMATS

        plot_format = FORMATS.get(Path(args.plot).suffix.lower())
        if plot_format is None:
            raise OptionError(f"--plot {args.plot!r}: use a .png or .svg file name")
        check_writable(args.plot)
    if args.audio:
        from ..formats import audio_format, kind_of

        if kind_of(args.audio) != "audio":
            raise OptionError(f"--audio {args.audio!r}: use a .wav, .flac or .ogg file name")
        audio_format(args.audio)
        check_writable(args.audio)
    comparison = compare(resolve(args.a), resolve(args.b))
    if args.json:
        print(json.dumps(comparison_data(comparison), ensure_ascii=False, indent=2))
    else:
        print(format_comparison(comparison))
    if args.audio:
        _write_audio(args, comparison)
    if args.plot:
        from ..output import write_bytes
        from ..plot import plot_comparison

        write_bytes(args.plot, plot_comparison(comparison, plot_format))
        if not args.json:
            print(f"wrote {args.plot}")
    return 0


def _write_audio(args, comparison) -> None:
    from ..audiofile import write_audio
    from ..compare_audio import comparison_audio
    from ..timing import Tempo

    tempo = Tempo.from_options(args.bpm, args.interval)
    audio = comparison_audio(
        comparison, section=args.section, tempo=tempo, rate=args.rate, stereo=args.stereo
    )
    write_audio(args.audio, audio, args.rate)
    if not args.json:
        how = "A left, B right" if args.stereo else "A, a pause, then B"
        print(f"wrote {args.audio}: {how}, {len(audio) / args.rate:.1f} s")


def comparison_data(c) -> dict:
    """A comparison as JSON-ready data."""
    return {
        "a": {"key": c.a.key, "title": c.a.title, "notation": c.a.pattern.notation},
        "b": {"key": c.b.key, "title": c.b.title, "notation": c.b.pattern.notation},
        "identical": c.identical,
        "distance": c.distance,
        "alignment": [
            {
                "a": col.a.drum.symbol if col.a else None,
                "b": col.b.drum.symbol if col.b else None,
                "a_index": col.a.index if col.a else None,
                "b_index": col.b.index if col.b else None,
                "kind": col.kind,
            }
            for col in c.columns
        ],
        "half_column": {"a": c.half_column("a"), "b": c.half_column("b")},
        "sections": {
            s.section.value: {
                "a": {"pi": s.a.pi, "gu": s.a.gu},
                "b": {"pi": s.b.pi, "gu": s.b.gu},
                "distance": s.distance,
                "identical": s.identical,
            }
            for s in c.sections
        },
    }


def alignment_lines(c) -> list[str]:
    """The two rows, one above the other; each stroke takes two columns, 半 stands in a gap."""
    halves = {"a": c.half_column("a"), "b": c.half_column("b")}
    shared = {h for h in halves.values() if h is not None}

    def row(side: str) -> str:
        cells = []
        for index, column in enumerate([*c.columns, None]):
            if index in shared:
                cells.append("半" if halves[side] == index else "  ")
            if column is None:
                break
            stroke = column.a if side == "a" else column.b
            cells.append(stroke.drum.symbol + " " if stroke else "· ")
        return "".join(cells).rstrip()

    marks = []
    for index, column in enumerate([*c.columns, None]):
        if index in shared:
            marks.append("  ")
        if column is None:
            break
        marks.append(MARKS[column.kind] + " ")
    return [f"A  {row('a')}", f"B  {row('b')}", f"   {''.join(marks).rstrip()}"]


def format_comparison(c) -> str:
    from ..display import table

    lines = [f"A  {c.a.title}    [{c.a.key}]", f"B  {c.b.title}    [{c.b.key}]", ""]
    lines += alignment_lines(c)
    kinds = {k: sum(1 for col in c.columns if col.kind == k) for k in MARKS}
    verdict = (
        "identical"
        if c.identical
        else f"differences: {c.distance} — {kinds['substituted']} changed (*), "
        f"{kinds['only-a']} only in A (-), {kinds['only-b']} only in B (+)"
    )
    lines += ["", verdict, ""]
    rows = [
        [
            s.section.value,
            str(s.a),
            str(s.b),
            str(s.distance),
            "identical" if s.identical else "differs",
        ]
        for s in c.sections
    ]
    lines.append(table(rows, ["section", "A", "B", "edit distance", ""]))
    return "\n".join(lines)
