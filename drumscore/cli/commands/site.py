"""drumscore site: the corpus as a self-contained static site in a folder."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from drumscore.corpus import load_edition
from drumscore.errors import OptionError
from drumscore.site.build import SiteReport, build_site

if TYPE_CHECKING:
    from pathlib import Path

    from drumscore.model import Edition


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "site",
        help="write a self-contained static site: every score seen, heard and compared",
        description="Write a static site to DIR: an index of every edition and score with where "
        "the editions part, a page per score (notation, player, counts, source, downloads) and a "
        "compare view. Nothing is loaded from the network; serve DIR with any static web "
        "server, e.g. 'python3 -m http.server -d DIR'.",
    )
    p.add_argument("folder", metavar="DIR", help="folder to write (new, empty, or an earlier site)")
    add_edition_option(p)
    p.set_defaults(run=run)


def add_edition_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--edition",
        action="append",
        default=[],
        metavar="FILE",
        help="also include your own edition file (.toml) or a folder of them; may be repeated",
    )


def _user_editions(names: list[str]) -> tuple[Edition, ...]:
    from pathlib import Path

    found: list[Edition] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            files = sorted(path.glob("*.toml"))
            if not files:
                raise OptionError(f"--edition {name!r}: the folder holds no .toml edition files")
        elif path.suffix != ".toml":
            raise OptionError(f"--edition {name!r}: give an edition file (.toml) or a folder")
        else:
            files = [path]
        found.extend(load_edition(f) for f in files)
    return tuple(found)


def build(folder: str | Path, editions: list[str]) -> SiteReport:
    return build_site(folder, _user_editions(editions))


def summary(report: SiteReport) -> str:
    staff = f", {report.staff} staff engravings" if report.staff else ""
    return (
        f"{report.scores} score pages, the index and the compare view, {report.files} MIDI and "
        f"MusicXML files{staff}, in {report.seconds:.1f} s"
    )


def run(args: argparse.Namespace) -> int:
    report = build(args.folder, args.edition)
    print(f"wrote {args.folder}: {summary(report)}")
    for note in report.notes:
        print(f"note: {note}")
    print(
        f"serve it with: python3 -m http.server -d {args.folder} (then open http://127.0.0.1:8000/)"
    )
    return 0
