"""drumscore extract: the drum scores in a passage as an edition prints it."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path

from drumscore import corpus
from drumscore.cli.options import (
    WritesTo,
    add_force_option,
    add_json_option,
    add_output_option,
    add_quiet_option,
    check_new,
    check_output,
    only_with,
)
from drumscore.cli.reports.extract import extraction_data, extraction_table
from drumscore.editions.extract import extract, parse_glyph_options, parse_label_options
from drumscore.editions.passage import read_passage
from drumscore.editions.write import edition_toml, kept_from
from drumscore.errors import OptionError
from drumscore.files.atomic import write_bytes
from drumscore.files.format_choice import choose
from drumscore.files.reading import as_text
from drumscore.i18n import N_, _, list_text, ngettext
from drumscore.model import Dating

#: The options that describe the edition file, and so apply only with -o.
EDITION_OPTIONS = ("id", "name", "alias", "script", "note", "date", "date_basis", "force", "quiet")
#: What writing over an edition file keeps of it.
KEPT = N_("its [[count]] entries, aliases, note and id are kept")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "extract",
        description=_(
            "Read a passage as an edition prints it and list the drum scores in it, with "
            "figure, drum, notation, counts and lines (--json: as JSON); or write them as the "
            "edition file -o PATH names (a .toml file). --id, --name, --alias, --script, --note, "
            "--force and -q apply to -o and --add; --force writes over an edition file, keeping "
            "its [[count]] entries, aliases, note and id."
        ),
    )
    p.add_argument("file", metavar="FILE", help=_("the passage: Kanripo text or plain text"))
    p.add_argument(
        "--glyph",
        action="append",
        metavar="X=○",
        help=_("read glyph X as ○ (鼙) or □ (鼓); may be given several times"),
    )
    p.add_argument("--encoding", metavar="NAME", help=_("the file's encoding (default: detect)"))
    p.add_argument(
        "--label",
        action="append",
        metavar="X=薛",
        help=_(
            "read the label X鼓 as 魯鼓 or 薛鼓 (for a label the text miscopies); may be given "
            "several times"
        ),
    )
    p.add_argument(
        "--partial",
        action="store_true",
        help=_(
            "list what can be read even when the reading is doubtful (a pattern without "
            "label, a figure with one pattern…), each doubtful pattern marked, instead of an "
            "error"
        ),
    )
    out = p.add_mutually_exclusive_group()
    add_json_option(out)
    add_output_option(out)
    out.add_argument(
        "--add",
        action=WritesTo,
        nargs="?",
        const="",
        metavar="ID",
        help=_(
            "write the edition into your own editions folder (the first folder of "
            "DRUMSCORE_EDITIONS, else the user data folder), so that names such as lu@ID find "
            "it; ID defaults to the passage's file name"
        ),
    )
    p.add_argument(
        "--id",
        metavar="ID",
        help=_(
            "edition id for -o (default: the file name of -o, or the id of the file --force "
            "writes over)"
        ),
    )
    p.add_argument("--name", metavar="NAME", help=_("edition name (default: from the file header)"))
    p.add_argument("--alias", action="append", metavar="NAME", help=_("extra names"))
    p.add_argument(
        "--script",
        choices=["traditional", "simplified"],
        help=_("the edition's script (default: the script the passage is written in)"),
    )
    p.add_argument("--note", metavar="TEXT", help=_("a note for the edition file"))
    p.add_argument(
        "--date",
        metavar="YEAR",
        help=_(
            "when the edition's text was made: a year (1748) or a range (1736-1748); needs "
            "--date-basis"
        ),
    )
    p.add_argument(
        "--date-basis",
        metavar="TEXT",
        help=_("what the date rests on: the author's dates, a preface, a printing"),
    )
    add_force_option(p)
    add_quiet_option(p)
    p.set_defaults(run=run)


def check_add(args: argparse.Namespace) -> tuple[Path, str]:
    """The file and id that --add writes, checked before anything is read."""
    import re

    ident = args.add
    if ident and args.id:
        raise OptionError(
            _("--add {add!r} and --id {id!r} both give the id; give one").format(
                add=ident, id=args.id
            )
        )
    if not ident:
        ident = args.id or re.sub(r"[^\w-]+", "-", Path(args.file).stem.casefold()).strip("-_")
    if not corpus.is_plain_id(ident or ""):
        raise OptionError(
            _(
                "--add: the edition id {id!r} must be letters, digits, '-' and '_', starting "
                "with a letter or digit; give one, e.g. --add mine"
            ).format(id=ident)
        )
    for edition in corpus.builtin_editions():
        if edition.id.casefold() == ident.casefold():
            raise OptionError(
                _(
                    "--add {id!r}: the id is taken by the built-in edition {name} ({path}); "
                    "choose another id"
                ).format(id=ident, name=edition.name, path=edition.path)
            )
    path = corpus.add_folder() / f"{ident}.toml"
    for edition in corpus.user_editions():
        if edition.id.casefold() == ident.casefold() and Path(edition.path) != path:
            raise OptionError(
                _(
                    "--add {id!r}: the id is taken by your edition in {path!r}; choose another id"
                ).format(id=ident, path=edition.path)
            )
    check_new(path, args.force, "--add", _(KEPT))
    return path, ident


def edition_output(args: argparse.Namespace) -> Path | None:
    """The edition file that -o names, checked before anything is read: None without -o."""
    if args.add is not None:
        return check_add(args)[0]
    only_with(
        args,
        EDITION_OPTIONS,
        present=args.output is not None,
        target=_("-o EDITION.toml or --add"),
        purpose=_("the edition file"),
    )
    if args.output is None:
        return None
    if not args.output.strip():
        raise OptionError(
            _("-o {path!r} is an empty file name; give an edition file such as 'mine.toml'").format(
                path=args.output
            )
        )
    path = Path(args.output)
    if path.is_dir():
        raise OptionError(
            _("-o {path!r} is a folder; give an edition file name such as {example!r}").format(
                path=args.output, example=str(path / "mine.toml")
            )
        )
    choose("edition", path, "output")
    check_output(path, args.force, kept=_(KEPT))
    return path


def _date(args: argparse.Namespace) -> Dating | None:
    """The edition's date from --date and --date-basis (both or neither), or None."""
    if args.date is None and args.date_basis is None:
        return None
    if args.date is None or not (args.date_basis or "").strip():
        raise OptionError(
            _(
                "--date and --date-basis go together: a date is given with what it rests on "
                "(e.g. --date 1736-1748 --date-basis 'ordered 1736, presented 1748')"
            )
        )
    return Dating.parse(args.date, args.date_basis.strip())


def run(args: argparse.Namespace) -> int:
    glyph_map = parse_glyph_options(args.glyph)
    labels = parse_label_options(args.label)
    add_id = check_add(args)[1] if args.add is not None else None
    output = edition_output(args)
    date = _date(args)
    from drumscore.files.reading import release

    if output is not None:
        release(output)  # an edition of the user's that it replaces: not an input
    decoded = read_passage(args.file, args.encoding)
    kept = None
    if output is not None:
        from drumscore.files.atomic import check_not_inputs

        check_not_inputs([output])  # -o the passage itself
    if output is not None and os.path.lexists(output):
        kept = kept_from(output)
    text, encoding = decoded.text, decoded.encoding
    extraction = extract(
        text,
        source_name=as_text(Path(args.file).name),
        glyph_map=glyph_map,
        edition_name=as_text(args.name or ""),
        labels=labels,
        partial=args.partial,
    )
    if output is not None:
        aliases = tuple(as_text(alias) for alias in args.alias or ())
        if kept is not None:
            aliases = (*kept.aliases, *(a for a in aliases if a not in kept.aliases))
        ident = add_id or args.id or (kept.id if kept else output.stem)
        toml = edition_toml(
            extraction,
            ident,
            name=as_text(args.name or ""),
            script=args.script or "",
            aliases=aliases,
            note=as_text(args.note) if args.note is not None else (kept.note if kept else ""),
            counts=kept.counts if kept else (),
            short=kept.short if kept else "",
            date=date if date is not None else (kept.date if kept else None),
        )
        release(output)  # read only to keep its counts, aliases and note: it is meant to go
        # a file of the editions folder is replaced as it is, never through a link planted there
        write_bytes(output, toml.encode("utf-8"), follow_links=add_id is None)
        where = args.output or str(output)
        count = len(extraction.scores)
        if args.quiet:
            return 0
        print(
            ngettext(
                "wrote {path}: {n} score from {file} ({encoding})",
                "wrote {path}: {n} scores from {file} ({encoding})",
                count,
            ).format(path=where, n=count, file=args.file, encoding=encoding)
        )
        if add_id:
            written = sorted(
                (f.score for f in extraction.scores if f.score.state),
                key=lambda s: (s.figure, s.state != "魯"),
            )
            names = [f"{s.state.slug}/{s.figure}@{add_id}" for s in written if s.state]
            print(_("the scores are named {names}").format(names=list_text(names)))
        return 0
    if args.json:
        data = extraction_data(extraction, args.file, encoding)
        print(json.dumps(data, ensure_ascii=False, indent=2))
        return 0
    print(extraction_table(extraction, args.file, encoding))
    return 0
