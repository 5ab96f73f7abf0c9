"""drumscore extract: the drum scores in a passage as an edition prints it."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

#: Passages are a page or a chapter; anything much larger is not a passage.
MAX_BYTES = 20_000_000


def add_parser(sub) -> None:
    p = sub.add_parser(
        "extract",
        help="find the drum scores in a passage (Kanripo text or plain text)",
        description="Read a passage as an edition prints it and list the drum scores in it, with "
        "figure, drum, notation, counts and lines; or write them as an edition file (-o).",
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
    p.add_argument("--id", metavar="ID", help="edition id for -o (default: the file name of -o)")
    p.add_argument("--name", metavar="NAME", help="edition name (default: from the file header)")
    p.add_argument("--alias", action="append", default=[], metavar="NAME", help="extra names")
    p.add_argument(
        "--script", default="traditional", choices=["traditional", "simplified"], help="script"
    )
    p.add_argument("--note", default="", metavar="TEXT", help="a note for the edition file")
    p.set_defaults(run=run)


def read_passage(path: str, encoding: str | None) -> tuple[str, str]:
    """The decoded text of a passage file, and the encoding it was read in."""
    from ..encoding import decode
    from ..errors import ScoreNotFoundError

    file = Path(path)
    try:
        if file.is_dir():
            raise ScoreNotFoundError(f"{path!r} is a folder; give a passage file")
        if file.stat().st_size > MAX_BYTES:
            raise ScoreNotFoundError(
                f"{path!r} is {file.stat().st_size:,} bytes; a passage is at most "
                f"{MAX_BYTES:,} bytes — cut out the pages with the drum figures"
            )
        data = file.read_bytes()
    except FileNotFoundError:
        raise ScoreNotFoundError(f"no such file: {path!r}") from None
    except OSError as exc:
        raise ScoreNotFoundError(f"cannot read {path!r}: {exc.strerror}") from None
    decoded = decode(data, encoding, name=repr(path))
    return decoded.text, decoded.encoding


def found_data(extraction, found) -> dict:
    """One extracted score as JSON-ready data."""
    from .corpus_cmds import score_data

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

    from ..extract import extract, parse_glyph_options

    glyph_map = parse_glyph_options(args.glyph)
    text, encoding = read_passage(args.file, args.encoding)
    extraction = extract(
        text, source_name=Path(args.file).name, glyph_map=glyph_map, edition_name=args.name or ""
    )
    if args.output:
        from ..edition_file import edition_toml
        from ..output import check_writable, write_bytes

        check_writable(args.output)
        ident = args.id or Path(args.output).stem
        toml = edition_toml(
            extraction,
            ident,
            name=args.name or "",
            script=args.script,
            aliases=tuple(args.alias),
            note=args.note,
        )
        write_bytes(args.output, toml.encode("utf-8"))
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
    from ..display import table
    from ..model import Section

    shown = [s for s in Section.in_order() if s is not Section.HEAD]
    rows = []
    for f in extraction.scores:
        s = f.score
        pattern = s.pattern
        cells = [str(s.figure or "?"), f"{s.state}鼓" if s.state else "(no label)", f.label]
        for section in shown:
            cells.append(str(pattern.counts(section)) if section in pattern.sections() else "-")
        a, b = f.lines
        cells += [f"{a}-{b}" if a != b else str(a), pattern.notation]
        rows.append(cells)
    header = ["fig", "drum", "label", "touhu 投壺", "she 射", "lines", "notation"]
    head = f"{extraction.name or path}: {len(extraction.scores)} scores ({encoding})"
    cite = extraction.provenance.citation
    return "\n".join([head, *([f"source: {cite}"] if cite else []), "", table(rows, header)])
