"""drumscore extract: the drum scores in a passage as an edition prints it."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

#: The options that describe the edition file, and so apply only with -o.
EDITION_OPTIONS = ("id", "name", "alias", "script", "note", "force")


def add_parser(sub) -> None:
    p = sub.add_parser(
        "extract",
        help="find the drum scores in a passage (Kanripo text or plain text)",
        description="Read a passage as an edition prints it and list the drum scores in it, with "
        "figure, drum, notation, counts and lines; or write them as an edition file (-o). "
        "--id, --name, --alias, --script, --note and --force apply to -o.",
    )
    p.add_argument("file", metavar="FILE", help="the passage: Kanripo text or plain text")
    p.add_argument(
        "--glyph",
        action="append",
        metavar="X=○",
        help="read glyph X as ○ (鼙) or □ (鼓); may be given several times",
    )
    p.add_argument("--encoding", metavar="NAME", help="the file's encoding (default: detect)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="machine-readable output")
    out.add_argument("-o", "--output", metavar="EDITION.toml", help="write an edition file")
    p.add_argument(
        "--id",
        metavar="ID",
        help="edition id for -o (default: the file name of -o, or the id of the file --force "
        "writes over)",
    )
    p.add_argument("--name", metavar="NAME", help="edition name (default: from the file header)")
    p.add_argument("--alias", action="append", metavar="NAME", help="extra names")
    p.add_argument(
        "--script",
        choices=["traditional", "simplified"],
        help="the edition's script (default: traditional)",
    )
    p.add_argument("--note", metavar="TEXT", help="a note for the edition file")
    p.add_argument(
        "--force",
        action="store_true",
        help="write over an existing edition file, keeping its [[count]] entries, aliases, note "
        "and id",
    )
    p.set_defaults(run=run)


def check_output(args: argparse.Namespace) -> Path | None:
    """The edition file that -o names, checked before anything is read: None without -o."""
    from drumscore.cli.options import only_with
    from drumscore.errors import OptionError
    from drumscore.files.atomic import check_writable

    only_with(
        args,
        EDITION_OPTIONS,
        present=args.output is not None,
        target="-o EDITION.toml",
        purpose="the edition file",
    )
    if args.output is None:
        return None
    if not args.output.strip():
        raise OptionError(
            f"-o {args.output!r} is an empty file name; give an edition file such as 'mine.toml'"
        )
    path = Path(args.output)
    if path.is_dir():
        raise OptionError(
            f"-o {args.output!r} is a folder; give an edition file name such as "
            f"{str(path / 'mine.toml')!r}"
        )
    if path.suffix.lower() != ".toml":
        raise OptionError(
            f"-o {args.output!r}: an edition file is TOML; give a file name ending in .toml, "
            f"such as {str(path.with_name((path.stem.strip('.') or 'mine') + '.toml'))!r}"
        )
    check_writable(path)
    if os.path.lexists(path) and not args.force:
        raise OptionError(
            f"-o {args.output!r} exists already; give --force to write it again (its [[count]] "
            "entries, aliases and note are kept), or choose another file name"
        )
    return path


def found_data(extraction, found) -> dict:
    """One extracted score as JSON-ready data."""
    from drumscore.cli.commands.corpus import score_data

    data = score_data(found.score)
    data.update(
        label=found.label or None,
        label_side=found.label_side,
        lines=list(found.lines),
        kanripo_lines=extraction.kanripo_lines(found) or None,
        start={"line": found.start.line, "column": found.start.column},
        end={"line": found.end.line, "column": found.end.column},
    )
    return data


def run(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from drumscore.editions.encoding import read_passage
    from drumscore.editions.extract import extract, parse_glyph_options

    glyph_map = parse_glyph_options(args.glyph)
    output = check_output(args)
    kept = None
    if output is not None and os.path.lexists(output):
        from drumscore.editions.write import kept_from

        kept = kept_from(output)
    text, encoding = read_passage(args.file, args.encoding)
    extraction = extract(
        text, source_name=Path(args.file).name, glyph_map=glyph_map, edition_name=args.name or ""
    )
    if output is not None:
        from drumscore.editions.write import edition_toml
        from drumscore.files.atomic import write_bytes

        aliases = tuple(args.alias or ())
        if kept is not None:
            aliases = (*kept.aliases, *(a for a in aliases if a not in kept.aliases))
        toml = edition_toml(
            extraction,
            args.id or (kept.id if kept else output.stem),
            name=args.name or "",
            script=args.script or "traditional",
            aliases=aliases,
            note=args.note if args.note is not None else (kept.note if kept else ""),
            counts=kept.counts if kept else (),
        )
        write_bytes(output, toml.encode("utf-8"))
        print(f"wrote {args.output}: {len(extraction.scores)} scores from {args.file} ({encoding})")
        return 0
    if args.json:
        data = {
            "file": args.file,
            "encoding": encoding,
            "edition_name": extraction.name,
            "provenance": {k: v for k, v in asdict(extraction.provenance).items() if v},
            "scores": [found_data(extraction, f) for f in extraction.scores],
        }
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(_table(extraction, args.file, encoding))
    return 0


def _table(extraction, path: str, encoding: str) -> str:
    from drumscore.display import table
    from drumscore.editions.extract import line_range
    from drumscore.model import Section

    shown = [s for s in Section.in_order() if s is not Section.HEAD]
    rows = []
    for f in extraction.scores:
        s = f.score
        pattern = s.pattern
        cells = [str(s.figure or "?"), f"{s.state}鼓" if s.state else "(no label)", f.label]
        for section in shown:
            cells.append(str(pattern.counts(section)) if section in pattern.sections() else "-")
        cells += [line_range(*f.lines), pattern.notation]
        rows.append(cells)
    header = ["fig", "drum", "label", "touhu 投壺", "she 射", "lines", "notation"]
    head = f"{extraction.name or path}: {len(extraction.scores)} scores ({encoding})"
    cite = extraction.provenance.citation
    return "\n".join([head, *([f"source: {cite}"] if cite else []), "", table(rows, header)])
