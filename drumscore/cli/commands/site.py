"""drumscore site: the corpus as a self-contained static site in a folder."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING

from drumscore import i18n
from drumscore.cli.options import WritesTo, add_output_options, check_new
from drumscore.corpus import load_edition
from drumscore.errors import OptionError
from drumscore.i18n import _, list_text, ngettext, quoted

if TYPE_CHECKING:
    from pathlib import Path

    from drumscore.model import Edition
    from drumscore.site.build import SiteReport


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "site",
        description=_(
            "Write a static site to DIR: an index of every edition and score with where "
            "the editions part, a page per score (notation, player, counts, source, downloads) and "
            "a compare view. Nothing is loaded from the network; serve DIR with any static web "
            "server, e.g. 'python3 -m http.server -d DIR'. DIR (or -o DIR) is a new or empty "
            "folder, or an earlier site, which --force replaces. {lang}"
        ).format(lang=lang_text()),
    )
    p.add_argument(
        "folder",
        action=WritesTo,
        metavar="DIR",
        nargs="?",
        help=_("folder to write (new, empty, or an earlier site); the same as -o DIR"),
    )
    add_output_options(p)
    add_edition_option(p)
    p.set_defaults(run=run)


def add_edition_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--edition",
        action="append",
        default=[],
        metavar="FILE",
        help=_("also include your own edition file (.toml) or a folder of them; may be repeated"),
    )


def lang_text() -> str:
    """What the site's --lang does, said in the descriptions of site and serve: --lang itself
    is the same option on every command."""
    return _(
        "--lang is the language of the pages too, or all for a site in each language in "
        "DIR/<language>/ with DIR/index.html choosing."
    )


def languages(lang: str | None) -> tuple[str, ...]:
    """The languages --lang asks the site in: every one for all, none (the current) unsaid."""
    if lang is None:
        return ()
    if lang.casefold() == "all":
        return tuple(i18n.LANGUAGES)
    named = i18n.language_named(lang)  # the command line has refused a language it is not
    return (named[0] if named else lang,)


def _user_editions(names: list[str]) -> tuple[Edition, ...]:
    from pathlib import Path

    found: list[Edition] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            files = sorted(path.glob("*.toml"))
            if not files:
                raise OptionError(
                    _("--edition {name!r}: the folder holds no .toml edition files").format(
                        name=name
                    )
                )
        elif path.suffix != ".toml":
            raise OptionError(
                _("--edition {name!r}: give an edition file (.toml) or a folder").format(name=name)
            )
        else:
            files = [path]
        found.extend(load_edition(f) for f in files)
    return tuple(found)


def build(folder: str | Path, editions: list[str], lang: str | None = None) -> SiteReport:
    """The site in `folder` with the user's `editions`, in the languages --lang asks for."""
    from drumscore.site.build import build_site, site_catalog  # the builder: when it runs

    chosen = languages(lang)
    if len(chosen) == 1:  # one language: its pages in the folder itself
        with i18n.speaking(site_catalog(chosen[0])):
            return build_site(folder, _user_editions(editions), languages=())
    return build_site(folder, _user_editions(editions), languages=chosen)


def summary(report: SiteReport) -> str:
    """What a build wrote, in a line."""
    staff = (
        ngettext("{n} staff engraving", "{n} staff engravings", report.staff).format(n=report.staff)
        if report.staff
        else ""
    )
    line = (
        ngettext(
            "{n} score page, the index and the compare view, {files} MIDI and MusicXML files, "
            "in {seconds} s",
            "{n} score pages, the index and the compare view, {files} MIDI and MusicXML files, "
            "in {seconds} s",
            report.scores,
        ).format(n=report.scores, files=report.files, seconds=f"{report.seconds:.1f}")
        if not staff
        else ngettext(
            "{n} score page, the index and the compare view, {files} MIDI and MusicXML files, "
            "{staff}, in {seconds} s",
            "{n} score pages, the index and the compare view, {files} MIDI and MusicXML files, "
            "{staff}, in {seconds} s",
            report.scores,
        ).format(n=report.scores, files=report.files, staff=staff, seconds=f"{report.seconds:.1f}")
    )
    if report.languages:
        line += _("; in each of {languages}, in its own folder").format(
            languages=list_text(report.languages)
        )
    return line


def folder_of(args: argparse.Namespace) -> str:
    """The folder DIR or -o DIR names (one of them, or both alike); an earlier site in it is
    replaced only with --force."""
    from drumscore.site.build import MARKER  # the builder: when it runs

    # an empty name names no folder; A and ./A name one
    named = [name for name in (args.folder, args.output) if name]
    given = {os.path.normpath(name) for name in named}
    if len(given) != 1:
        raise OptionError(
            _("give the folder to write once, as DIR or as -o DIR, such as {example}").format(
                example=quoted("drumscore site out")
            )
            if not given
            else _("DIR {folder!r} and -o {output!r} name two folders; give one").format(
                folder=args.folder, output=args.output
            )
        )
    folder = named[0]
    if os.path.lexists(os.path.join(folder, MARKER)):
        check_new(folder, args.force, "DIR" if args.folder else "-o")
    return folder


def run(args: argparse.Namespace) -> int:
    folder = folder_of(args)
    report = build(folder, args.edition, args.lang)
    if not args.quiet:
        print(_("wrote {folder}: {summary}").format(folder=folder, summary=summary(report)))
    for note in report.notes:
        print(_("note: {note}").format(note=note))
    if args.quiet:
        return 0
    print(
        _(
            "serve it with: python3 -m http.server -d {folder} (then open http://127.0.0.1:8000/)"
        ).format(folder=folder)
    )
    return 0
