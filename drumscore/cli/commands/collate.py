"""drumscore collate: every edition's reading of a score in one apparatus, and the stated counts."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from drumscore import corpus
from drumscore.apparatus.gather import DEFAULT_BASE, ORDERS, SCORES, collate
from drumscore.apparatus.groups import groups, groups_data
from drumscore.apparatus.mei import mei_bytes
from drumscore.apparatus.places import Apparatus
from drumscore.apparatus.plot import plot_apparatus
from drumscore.cli.options import (
    add_json_option,
    add_output_options,
    add_plot_option,
    check_new,
    only_with,
    plot_format,
)
from drumscore.cli.reports.apparatus import apparatus_text, format_groups
from drumscore.errors import OptionError
from drumscore.files.atomic import check_not_inputs, check_writable, write_bytes
from drumscore.files.format_choice import choose
from drumscore.i18n import N_, _, list_text
from drumscore.model import Edition

FORMAT_NAMES = {"text": N_("text"), "json": "JSON", "csv": "CSV", "tei": "TEI", "mei": "MEI"}
#: --format values, and the one an -o extension implies when --format is not given.
FORMATS = ("text", "json", "csv", "tei", "mei")


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "collate",
        description=_(
            "For each figure and drum: every edition's reading aligned against a base (the "
            "standard text 禮記注疏 by default), one line per place of variation with the sigla "
            "of the editions on each side, a key of the sigla, and every stated count checked "
            "on each edition, with its quote. Exported as JSON, CSV, TEI or MEI (--json: the "
            "same as --format json), to the screen or to the file -o PATH names (MEI of several "
            "scores: PATH-lu-1.mei, …)."
        ),
    )
    p.add_argument(
        "score",
        metavar="SCORE",
        nargs="?",
        help=_("which figure and drum, e.g. lu, xue/2 (default: all four)"),
    )
    p.add_argument(
        "--base",
        metavar="EDITION",
        default=None,
        help=_("the edition whose reading is the lemma (default: zhushu, 禮記注疏)"),
    )
    p.add_argument(
        "--order",
        choices=ORDERS,
        default="corpus",
        help=_(
            "the editions after the base: corpus (as 'drumscore list' has them, the default) "
            "or date (the earliest text first, undated last), in every format, the plot and "
            "the groups"
        ),
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default=None,
        help=_(
            "text (default), json, csv, tei (TEI P5 parallel segmentation) or mei (MEI 5, one "
            "file per score); by default taken from the extension of -o"
        ),
    )
    add_json_option(p)
    p.add_argument(
        "--edition",
        action="append",
        metavar="FILE",
        help=_(
            "add the edition file FILE (.toml, as 'drumscore extract -o' writes it) for this "
            "run only; may be given several times"
        ),
    )
    add_output_options(p)
    add_plot_option(
        p,
        _(
            "draw the apparatus with matplotlib: editions as rows, aligned strokes as "
            "columns, the places highlighted"
        ),
        metavar="FILE.png",
    )
    p.add_argument(
        "--groups",
        action="store_true",
        help=_(
            "who goes with whom: for each place the editions sharing each reading, the "
            "agreement of every two editions over the score, and a grouping drawn from it "
            "(text or --json)"
        ),
    )
    p.set_defaults(run=run)


def _pairs(name: str | None) -> tuple[tuple[int, str], ...]:
    if name is None:
        return SCORES
    named = corpus.split_name(name)
    if named is None:
        raise OptionError(
            _(
                "collate takes a figure and drum such as 'lu' or 'xue/2' and compares every "
                "edition, not {name!r}; to compare two particular scores use "
                "'drumscore compare A B'"
            ).format(name=name)
        )
    state, figure, edition = named
    if edition is not None:
        bare = name[: name.index("@")].strip()
        raise OptionError(
            _(
                "collate compares every edition, so it takes a figure and drum without "
                "@EDITION: give {bare!r} instead of {name!r}"
            ).format(bare=bare, name=name)
        )
    return ((figure, state),)


def _format(args: argparse.Namespace) -> str:
    if args.json and args.format not in (None, "json"):
        raise OptionError(
            _("--json and --format {format} ask for two formats; give one").format(
                format=args.format
            )
        )
    if args.json:
        return "json"
    if args.format:
        return args.format
    if args.output:
        return choose("apparatus", args.output, "output")[1]
    return "text"


def _mei_paths(output: str, apparatuses: Sequence[Apparatus]) -> list[Path]:
    path = Path(output)
    if len(apparatuses) == 1:
        return [path]
    return [
        path.with_name(f"{path.stem}-{a.key.replace('/', '-')}{path.suffix}") for a in apparatuses
    ]


def _pool(files: list[str] | None) -> tuple[Edition, ...]:
    """The corpus (built-in and the user's editions), and the edition files given for this run."""
    pool = list(corpus.editions())
    for name in files or ():
        edition = corpus.load_edition(name, cite_by_path=False)
        corpus.check_new_edition(edition, pool)
        pool.append(edition)
    return tuple(pool)


def _marks(files: list[str] | None) -> dict[str, str]:
    """What the key of sigla says beside the user's own editions and those given for one run."""
    marks = {e.id: _(" (your edition, {path})").format(path=e.path) for e in corpus.user_editions()}
    for name in files or ():
        edition = corpus.load_edition(name, cite_by_path=False)
        marks[edition.id] = _(" (given for this run, {path})").format(path=name)
    return marks


def run(args: argparse.Namespace) -> int:
    from drumscore.cli import say  # here: drumscore.cli imports this module before defining say

    fmt = _format(args)
    pairs = _pairs(args.score)
    if args.output:
        check_writable(args.output)  # whether it is there: below, once the inputs are read
    picture_format = plot_format(args.plot, args.force)
    only_with(
        args,
        ("force", "quiet"),
        present=bool(args.output or args.plot),
        target="-o PATH",
        purpose=_("the files written"),
        fix=_("add -o PATH or --plot FILE.png"),
    )
    if args.groups and fmt not in ("text", "json"):
        raise OptionError(
            _("--groups prints text or JSON, not {format}; leave out --format {format}").format(
                format=fmt
            )
        )
    if fmt == "mei" and len(pairs) > 1 and not args.output:
        raise OptionError(
            _(
                "MEI is one file per score: name one score (e.g. 'collate lu/2 --format mei') "
                "or give -o FILE.mei to write FILE-lu-1.mei, FILE-xue-1.mei, …"
            )
        )
    apparatuses = collate(
        editions=_pool(args.edition),
        scores=pairs,
        base=args.base or DEFAULT_BASE,
        order=args.order,
    )
    outputs = [args.plot] if args.plot else []
    if args.output:
        outputs += _mei_paths(args.output, apparatuses) if fmt == "mei" else [args.output]
    check_not_inputs(outputs)
    for path in outputs:
        check_new(path, args.force, "--plot" if path == args.plot else "-o")
    if args.plot:
        picture = plot_apparatus(apparatuses, picture_format or "png")
    wrote: list[str] = []
    if args.groups:
        found = [groups(a) for a in apparatuses]
        if fmt == "json":
            text = json.dumps([groups_data(g) for g in found], ensure_ascii=False, indent=2) + "\n"
        else:
            text = format_groups(found)
        if args.output:
            write_bytes(args.output, text.encode("utf-8"))
            wrote.append(
                _("wrote {path}: the groups of the editions as {format}").format(
                    path=args.output, format=_(FORMAT_NAMES[fmt])
                )
            )
        else:
            print(text, end="")
    elif fmt == "mei":
        files = [mei_bytes(a) for a in apparatuses]
        if args.output:
            paths = _mei_paths(args.output, apparatuses)
            for data, path in zip(files, paths, strict=True):
                write_bytes(path, data)
            wrote.append(
                _("wrote {paths}: MEI, one file per score").format(
                    paths=list_text(str(p) for p in paths)
                )
            )
        else:
            print(files[0].decode("utf-8"), end="")
    else:
        text = apparatus_text(apparatuses, fmt, marks=_marks(args.edition))
        if args.output:
            write_bytes(args.output, text.encode("utf-8"))
            wrote.append(
                _("wrote {path}: the apparatus as {format}").format(
                    path=args.output, format=_(FORMAT_NAMES[fmt])
                )
            )
        else:
            print(text, end="")
    if args.plot:
        write_bytes(args.plot, picture)
        wrote.append(_("wrote {path}: the apparatus drawn").format(path=args.plot))
    for line in () if args.quiet else wrote:  # -q: the files alone
        # beside a JSON, CSV, TEI or MEI document on stdout, the line goes to stderr
        if fmt == "text" or args.output:
            print(line)
        else:
            say(line)
    return 0
