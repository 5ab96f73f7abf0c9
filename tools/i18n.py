"""Keep the catalogs (drumscore/locale) in step with the code, with Babel.

    python tools/i18n.py update [--from LOCALE_DIR ...]   extract, then update every .po
    python tools/i18n.py compile [--check]                 write the .mo files, with statistics
    python tools/i18n.py hant                              zh_Hant from zh_Hans (OpenCC)

`update` takes every message marked in drumscore/ (babel.cfg) and argparse's own messages (the
help's headings and its usage errors), adds the new ones untranslated, drops the gone ones, fills
the English catalog with the English text, and can take translations from another locale folder.
The same steps with pybabel: `pybabel extract -F babel.cfg -o drumscore.pot .`, `pybabel update
-i drumscore.pot -d drumscore/locale -D drumscore --no-fuzzy-matching`, `pybabel compile -d
drumscore/locale -D drumscore --statistics`.
"""

from __future__ import annotations

import argparse
import copy
import datetime
import io
import sys
import tomllib
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

#: The catalogs' dates, fixed so that an update changes only what changed.
CREATED = datetime.datetime(2026, 12, 1, tzinfo=datetime.UTC)
ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "drumscore" / "locale"
LANGUAGES = ("en", "zh_Hant", "zh_Hans")


#: The comment that marks argparse's own messages in the catalogs: each Python version has its
#: own, so a catalog may hold some that the running Python's argparse lacks.
ARGPARSE = "argparse's own message"

#: argparse's messages that only a programmer's mistake in building the parser can show.
ARGPARSE_INTERNAL = (
    "%r is not callable",
    "'required' is an invalid argument for positionals",
    ".__call__() not defined",
    'argument "-" with mode %r',
    "cannot have multiple subparser arguments",
    "cannot merge actions - two groups are named %r",
    "conflicting option string: %s",
    "conflicting subparser alias: %s",
    "conflicting subparser: %s",
    "dest= is required for options like %r",
    "invalid conflict_resolution value: %r",
    "invalid option string %(option)r: must start with a character %(prefix_chars)r",
    "mutually exclusive arguments must be optional",
    "unexpected option string: %s",
)


def template() -> Catalog:
    """Every message marked in the code, and argparse's own."""
    with (ROOT / "babel.cfg").open() as config:
        methods, options = parse_mapping_cfg(config)
    catalog = Catalog(
        project="drumscore",
        version=version(),
        domain="drumscore",
        copyright_holder="the drumscore authors",
        msgid_bugs_address="",
        creation_date=CREATED,
        revision_date=CREATED,
        last_translator="the drumscore authors",
        language_team="the drumscore authors",
    )
    for filename, lineno, message, comments, context in extract_from_dir(
        str(ROOT), methods, options, strip_comment_tags=True
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    import argparse as stdlib_argparse

    with open(stdlib_argparse.__file__, "rb") as source:
        for lineno, message, _comments, context in extract_from_file("python", source.name):
            first = message[0] if isinstance(message, tuple) else message
            if first not in ARGPARSE_INTERNAL:
                catalog.add(
                    message,
                    None,
                    [("argparse.py", lineno)],
                    auto_comments=[ARGPARSE],
                    context=context,
                )
    return catalog


def version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return str(tomllib.load(handle)["project"]["version"])


def po_path(language: str, locale: Path = LOCALE) -> Path:
    return locale / language / "LC_MESSAGES" / "drumscore.po"


def load(language: str, locale: Path = LOCALE) -> Catalog:
    path = po_path(language, locale)
    if not path.exists():
        return Catalog(
            locale=language,
            domain="drumscore",
            header_comment=f"# drumscore's messages in {language}.\n#",
        )
    with path.open("rb") as handle:
        return read_po(handle, locale=language, domain="drumscore")


def save(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(
        buffer,
        catalog,
        width=100,
        no_location=True,
        omit_header=False,
        ignore_obsolete=True,
        sort_output=True,
        include_lineno=False,
    )
    path.write_bytes(buffer.getvalue())


def _take(catalog: Catalog, others: list[Catalog]) -> None:
    """Fill untranslated messages of `catalog` from the first other catalog that has them."""
    for message in catalog:
        if not message.id or _translated(message.string):
            continue
        for other in others:
            found = other.get(message.id, message.context)
            if found is not None and _translated(found.string) and not found.fuzzy:
                message.string = found.string
                break


def _translated(string: object) -> bool:
    if isinstance(string, tuple | list):
        return all(string)
    return bool(string)


def update(sources: list[Path]) -> None:
    pot = template()
    for language in LANGUAGES:
        catalog = load(language)
        others = [load(language, source) for source in sources]
        catalog.update(copy.deepcopy(pot), no_fuzzy_matching=True, update_header_comment=False)
        catalog.fuzzy = False
        for field in (
            "project",
            "version",
            "copyright_holder",
            "msgid_bugs_address",
            "last_translator",
        ):
            setattr(catalog, field, getattr(pot, field))
        catalog.language_team = pot.language_team
        catalog.revision_date = CREATED
        catalog.obsolete.clear()
        _take(catalog, others)
        if language == "en":
            for message in catalog:
                if message.id and not _translated(message.string):
                    message.string = message.id
        save(catalog, po_path(language))
        missing = sum(1 for m in catalog if m.id and not _translated(m.string))
        print(f"{language}: {len(catalog) - 1} messages, {missing} untranslated")


def compile_all(check: bool) -> int:
    bad = 0
    for language in LANGUAGES:
        catalog = load(language)
        total = sum(1 for m in catalog if m.id)
        fuzzy = sum(1 for m in catalog if m.id and m.fuzzy)
        untranslated = sum(1 for m in catalog if m.id and not _translated(m.string))
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        mo = po_path(language).with_suffix(".mo")
        mo.write_bytes(buffer.getvalue())
        done = total - untranslated - fuzzy
        print(
            f"{done} of {total} messages ({done * 100 // max(total, 1)}%) translated in "
            f"{po_path(language).relative_to(ROOT)}; {fuzzy} fuzzy, {untranslated} untranslated"
        )
        bad += fuzzy + untranslated
    return 1 if check and bad else 0


def hant() -> None:
    """Untranslated zh_Hant messages from their zh_Hans translation through OpenCC."""
    import opencc

    converter = opencc.OpenCC("s2twp")
    simplified = load("zh_Hans")
    traditional = load("zh_Hant")
    filled = 0
    for message in traditional:
        if not message.id or _translated(message.string):
            continue
        source = simplified.get(message.id, message.context)
        if source is None or not _translated(source.string):
            continue
        if isinstance(source.string, tuple | list):
            message.string = tuple(converter.convert(s) for s in source.string)
        else:
            message.string = converter.convert(source.string)
        message.flags.add("fuzzy")  # to be read over: `compile --check` refuses it until then
        filled += 1
    save(traditional, po_path("zh_Hant"))
    print(f"zh_Hant: {filled} messages filled from zh_Hans, marked fuzzy to be read over")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("update")
    up.add_argument("--from", dest="sources", type=Path, action="append", default=[])
    co = sub.add_parser("compile")
    co.add_argument("--check", action="store_true")
    sub.add_parser("hant")
    args = parser.parse_args()
    if args.command == "update":
        update(args.sources)
    elif args.command == "compile":
        return compile_all(args.check)
    else:
        hant()
    return 0


if __name__ == "__main__":
    sys.exit(main())
