"""drumscore collate: every edition's reading of a score in one apparatus, and the stated counts."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

#: --format values, and the one an -o extension implies when --format is not given.
FORMATS = ("text", "json", "csv", "tei")
FORMAT_OF_SUFFIX = {
    ".txt": "text",
    ".json": "json",
    ".csv": "csv",
    ".tei": "tei",
    ".xml": "tei",
}


def add_parser(sub) -> None:
    p = sub.add_parser(
        "collate",
        help="the critical apparatus: where the editions part, and the counts commentators state",
        description="For each figure and drum: every edition's reading aligned against a base "
        "(the standard text 禮記注疏 by default), one line per place of variation with the "
        "sigla of the editions on each side, a key of the sigla, and every stated count checked "
        "on each edition, with its quote. Exported as JSON, CSV, TEI or MEI.",
    )
    p.add_argument(
        "score",
        metavar="SCORE",
        nargs="?",
        help="which figure and drum, e.g. lu, xue/2 (default: all four)",
    )
    p.add_argument(
        "--base",
        metavar="EDITION",
        default=None,
        help="the edition whose reading is the lemma (default: zhushu, 禮記注疏)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help="text (default), json, csv or tei (TEI P5 parallel segmentation); by default taken "
        "from the extension of -o",
    )
    p.add_argument("--json", action="store_true", help="the same as --format json")
    p.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        default=None,
        help="write to FILE instead of the screen",
    )
    p.set_defaults(run=run)


def _pairs(name: str | None):
    from drumscore.apparatus.align import SCORES
    from drumscore.corpus import split_name
    from drumscore.errors import OptionError

    if name is None:
        return SCORES
    named = split_name(name)
    if named is None:
        raise OptionError(
            f"collate takes a figure and drum such as 'lu' or 'xue/2' and compares every "
            f"edition, not {name!r}; to compare two particular scores use 'drumscore compare A B'"
        )
    state, figure, edition = named
    if edition is not None:
        bare = name[: name.index("@")].strip()
        raise OptionError(
            f"collate compares every edition, so it takes a figure and drum without @EDITION: "
            f"give {bare!r} instead of {name!r}"
        )
    return ((figure, state),)


def _format(args: argparse.Namespace) -> str:
    from drumscore.errors import OptionError

    if args.json and args.format not in (None, "json"):
        raise OptionError(f"--json and --format {args.format} ask for two formats; give one")
    if args.json:
        return "json"
    if args.format:
        return args.format
    if args.output:
        suffix = Path(args.output).suffix.lower()
        if suffix not in FORMAT_OF_SUFFIX:
            known = ", ".join(FORMAT_OF_SUFFIX)
            raise OptionError(
                f"cannot tell the format of {args.output!r} from its extension ({known}); "
                "give --format"
            )
        return FORMAT_OF_SUFFIX[suffix]
    return "text"


def _mei_paths(output: str, apparatuses) -> list[Path]:
    path = Path(output)
    if len(apparatuses) == 1:
        return [path]
    return [
        path.with_name(f"{path.stem}-{a.key.replace('/', '-')}{path.suffix}") for a in apparatuses
    ]


def run(args: argparse.Namespace) -> int:
    from drumscore.apparatus.align import DEFAULT_BASE, build_all
    from drumscore.errors import OptionError
    from drumscore.files.atomic import check_writable, write_bytes

    fmt = _format(args)
    pairs = _pairs(args.score)
    if args.output:
        check_writable(args.output)
    if fmt == "mei" and len(pairs) > 1 and not args.output:
        raise OptionError(
            "MEI is one file per score: name one score (e.g. 'collate lu/2 --format mei') or "
            "give -o FILE.mei to write FILE-lu-1.mei, FILE-xue-1.mei, …"
        )
    apparatuses = build_all(scores=pairs, base=args.base or DEFAULT_BASE)
    if fmt == "mei":
        from drumscore.apparatus.mei import mei_bytes

        if not args.output:
            print(mei_bytes(apparatuses[0]).decode("utf-8"), end="")
            return 0
        for a, path in zip(apparatuses, _mei_paths(args.output, apparatuses), strict=True):
            write_bytes(path, mei_bytes(a))
        return 0
    text = render(apparatuses, fmt)
    if args.output:
        write_bytes(args.output, text.encode("utf-8"))
    else:
        print(text, end="")
    return 0


def render(apparatuses, fmt: str) -> str:
    """The apparatus in one of the text formats (text, json, csv, tei)."""
    if fmt == "json":
        from drumscore.apparatus.table import apparatus_data

        return (
            json.dumps([apparatus_data(a) for a in apparatuses], ensure_ascii=False, indent=2)
            + "\n"
        )
    if fmt == "csv":
        from drumscore.apparatus.table import csv_text

        return csv_text(apparatuses)
    if fmt == "tei":
        from drumscore.apparatus.tei import tei_bytes

        return tei_bytes(apparatuses).decode("utf-8")
    return format_apparatuses(apparatuses)


def _sigla(sigla) -> str:
    return " ".join(sigla)


def format_place(p) -> str:
    """One line of the apparatus: `11 (touhu)  ○ zhushu benyi … ] — weishi xunzuan yueshu`."""
    readings = []
    for v in p.variants:
        reading = f"{v.shown} {_sigla(v.sigla)}"
        if v.reported_by:
            reading += f" (reported in {v.reported_by}: 「{v.quote}」)"
        if v.description:
            reading += f" ({v.description})"
        readings.append(reading)
    where = p.section.value if p.section else f"after stroke {p.position - 1}"
    return f"{p.label} ({where})  {p.lemma.shown} {_sigla(p.lemma.sigla)} ] " + "; ".join(readings)


_SPAN = {"head": "before 半", "touhu": "after 半", "she": "the whole"}


def format_counts(a) -> list[str]:
    lines = []
    for s in a.counts:
        st = s.stated
        lines.append(
            f"  {st.by}, {st.section.value} ({_SPAN[st.section.value]}): 鼙 {st.pi} 鼓 {st.gu}"
        )
        quotes = "; ".join(f"「{q.text}」 {q.siglum}" for q in s.quotes if q.text)
        if quotes:
            lines.append(f"    quoted: {quotes}")
        if s.agreeing:
            lines.append(f"    agree: {_sigla(s.agreeing)}")
        else:
            lines.append("    agrees with no edition")
        why_groups: dict[tuple[str, ...], list[str]] = {}
        for siglum, why in s.disagreeing():
            why_groups.setdefault(why, []).append(siglum)
        for why, group in why_groups.items():
            lines.append(f"    disagree: {_sigla(group)} — {'; '.join(why)}")
    return lines


def format_key(apparatuses) -> list[str]:
    seen: dict[str, str] = {}
    for a in apparatuses:
        for w in a.witnesses:
            cite = w.provenance.citation if w.provenance else ""
            seen.setdefault(w.siglum, f"{w.name}" + (f" — {cite}" if cite else ""))
        for p in a.places:
            for v in p.variants:
                if v.reported_by:
                    seen.setdefault(v.sigla[0], f"reported in a note of {v.reported_by}")
    width = max(len(s) for s in seen)
    return [f"  {siglum:<{width}}  {what}" for siglum, what in seen.items()]


def format_apparatus(a) -> list[str]:
    n = len(a.places)
    lines = [
        f"{a.key} · {a.title} · base {a.base.name} ({a.base.siglum}) · {len(a.witnesses)} "
        f"editions · {n} place{'s' if n != 1 else ''} of variation",
        f"  base: {a.base.notation}",
        "",
    ]
    lines += [f"  {format_place(p)}" for p in a.places] or ["  the editions agree"]
    for note in a.notes:
        lines.append(
            f"  note in {note.siglum} after stroke {note.after}: 「{note.text}」 (not a reading: "
            f"{note.reason})"
        )
    return lines


def format_apparatuses(apparatuses) -> str:
    blocks = []
    for a in apparatuses:
        lines = format_apparatus(a)
        if len(apparatuses) == 1:
            lines += ["", "sigla:", *format_key(apparatuses)]
        if a.counts:
            lines += ["", "stated counts:", *format_counts(a)]
        blocks.append("\n".join(lines))
    if len(apparatuses) > 1:
        blocks.append("\n".join(["sigla:", *format_key(apparatuses)]))
    return "\n\n".join(blocks) + "\n"
