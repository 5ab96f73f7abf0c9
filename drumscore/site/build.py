"""`drumscore site`: the corpus as a static site, self-contained, for any static web server.

Pages are written from the library's own data (see data.py); the player, the compare view and
the in-page WAV render are plain ES modules in static/, shipped with the package. Nothing is
loaded from the network: scripts, styles and the kit's samples are copied into the folder.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import shutil
import stat
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from drumscore import corpus, i18n
from drumscore.conductor.timeline import arrange
from drumscore.errors import DrumscoreError, OptionError, OutputError, WriteError
from drumscore.files.atomic import (
    appeared,
    check_not_inside,
    make_temporary,
    remove_temporary,
    rename_new,
)
from drumscore.files.signals import held
from drumscore.i18n import _, aside, list_text
from drumscore.model import READINGS, Edition, Section
from drumscore.render.musicxml import musicxml_bytes, page_head, with_words
from drumscore.site import data as sitedata
from drumscore.site import grammar
from drumscore.site.artefacts import STAVES, Artefacts, cores, worker_signals
from drumscore.site.pages import (
    DATA,
    ONE_LANGUAGE,
    Alternates,
    compare_page,
    index_page,
    score_page,
    score_script,
)
from drumscore.site.staff import STAFF_HEAD, Staff, page_staff, phone_staff
from drumscore.site.templating import render, source_lang

__all__ = [
    "MARKER",
    "STAVES",
    "SiteReport",
    "build_site",
    "index_page",
    "score_page",
    "site_catalog",
]

STATIC = Path(__file__).with_name("static")
#: A file in every built site, so a rebuild may replace the folder and nothing else.
MARKER = ".drumscore-site"
#: Sections written as MIDI and as MusicXML at build time (at the default tempo, under each
#: reading of the signs).
MIDI_SECTIONS = (Section.SHE, Section.TOUHU, Section.HEAD)
MUSICXML_SECTIONS = (Section.SHE, Section.TOUHU)
#: The longest pattern a page shows engraved: Verovio's time grows as the square of a bar, and
#: a section is one bar (minutes for 10,000 strokes); longer ones have their MusicXML download.
STAFF_LIMIT = 1000


@dataclass
class SiteReport:
    """What a build wrote: per language when it wrote several (`languages`, their tags)."""

    path: Path
    scores: int = 0
    files: int = 0
    staff: int = 0
    seconds: float = 0.0
    engraved: int = 0  # staff engravings made (the others taken from an earlier site)
    notes: list[str] = field(default_factory=list)
    languages: tuple[str, ...] = ()


def _downloads(entry: sitedata.Entry, musicxml: bool) -> dict[str, dict[str, str]]:
    """The files of a score under each reading of the signs (READINGS), by their kind and
    section: MIDI of each section and MusicXML of 射 and 投壺 (without `musicxml`, none), the
    files of 鄭玄's named as the score's, the others' with the reading's id after the section.
    Made again where needed, not kept: a site of thousands of scores names them the same."""
    files: dict[str, dict[str, str]] = {reading.id: {} for reading in READINGS}
    pattern = entry.score.pattern
    for section in MIDI_SECTIONS:
        if section not in pattern.sections() or not pattern.section(section):
            continue  # a section the pattern lacks, or one without strokes (半 at an end)
        for reading in READINGS:
            stem = f"files/{entry.slug}-{section.value}"
            if reading is not READINGS[0]:
                stem += f"-{reading.id}"
            files[reading.id][f"midi-{section.value}"] = f"{stem}.mid"
            if musicxml and section in MUSICXML_SECTIONS:
                files[reading.id][f"musicxml-{section.value}"] = f"{stem}.musicxml"
    return files


def _write_files(
    out: Path, entry: sitedata.Entry, musicxml: bool, made: Artefacts
) -> tuple[int, bytes | None]:
    """The files of _downloads, each what `drumscore render` writes for that score, section,
    default tempo and reading; their count, and 鄭玄's 射 MusicXML."""
    written = 0
    whole = None
    files = _downloads(entry, musicxml)
    for section in MIDI_SECTIONS:
        for reading in READINGS:
            midi = files[reading.id].get(f"midi-{section.value}")
            if midi is None:
                continue
            timeline = arrange(entry.score, section, reading=reading)
            made.write_midi(timeline, out, midi)
            written += 1
            name = files[reading.id].get(f"musicxml-{section.value}")
            if name is not None:
                xml = musicxml_bytes(timeline)
                (out / name).write_bytes(xml)
                if section is Section.SHE and reading is READINGS[0]:
                    whole = xml
                written += 1
    return written, whole


def _put_staff(
    work: Path, score: dict, staff: Staff, lines: list[str], entry: sitedata.Entry, made: Artefacts
) -> None:
    """A score's staff files (the page's, and a phone's), written from its music's engraving
    with the score's `lines` in its head; what its page shows of them put in `score`."""
    files = score["files"]
    files["staff-she"] = f"files/{score['slug']}-she.svg"

    def whole() -> bytes:  # the score's own document (its words in it), where it must be engraved
        return musicxml_bytes(arrange(entry.score, Section.SHE))

    made.write(staff.key, work / files["staff-she"], page_staff(staff, lines, whole))
    score["staff_spaces"] = staff.spaces
    if staff.phone:
        files["staff-she-narrow"] = f"files/{score['slug']}-she-narrow.svg"
        made.write(staff.phone_key, work / files["staff-she-narrow"], phone_staff(staff.phone))
        score["staff_narrow"] = staff.phone_spaces
        score["staff_first"] = staff.phone_first


def _copy_static(out: Path) -> None:
    """The scripts, the style and the built-in kit's samples (its count sound too)."""
    from drumscore.render.kit import BUILTIN_KIT

    assets = out / "assets"
    shutil.copytree(STATIC, assets, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    samples = assets / "samples"
    samples.mkdir(exist_ok=True)
    for name in (*sitedata.SAMPLE_FILES.values(), sitedata.COUNT_FILE):
        shutil.copyfile(BUILTIN_KIT.parent / name, samples / name)


def build_site(
    out: str | Path,
    extra: Iterable[Edition] = (),
    *,
    corpus_editions: bool = True,
    musicxml: bool = True,
    progress: Callable[[str], None] | None = None,
    languages: Iterable[str] = (),
) -> SiteReport:
    """Write the site to `out`: a new folder, an empty one, or one an earlier build wrote.

    `extra` editions are added to the corpus (the built-in editions and the user's own, see
    corpus.user_folders), or stand alone with `corpus_editions` false;
    `musicxml` false leaves out the MusicXML downloads, the slowest part of a build.
    `languages` (catalogs or tags): a whole site in each, in out/TAG/, every page linking its
    copies in the others, and out/index.html choosing among them; none: one site in the
    current language.

    The site is made in a temporary folder beside `out` and moved into place when complete, so
    a failed build leaves the earlier site as it was.
    """
    started = time.perf_counter()
    catalogs = tuple(dict.fromkeys(site_catalog(name) for name in languages))
    given = out = Path(out)
    if out.is_symlink():  # the folder it leads to is replaced, and the link kept (or made good)
        out = Path(os.path.realpath(out))
    pool = corpus.editions() if corpus_editions else ()
    check_not_inside(out)  # once every input is read: no folder holding one is replaced
    _check_target(out)
    known = {os.path.realpath(e.path) for e in pool if e.path}
    pool = (*pool, *(e for e in extra if not e.path or os.path.realpath(e.path) not in known))
    if not any(edition.scores for edition in pool):
        raise OptionError(_("no scores to put in the site: give at least one edition with scores"))
    work: Path | None = None
    made = Artefacts(out if (out / MARKER).is_file() else None, engraving=musicxml)
    before = _listing(out) if (out / MARKER).is_file() and not out.is_symlink() else set()
    try:
        with held():  # a signal now is raised once the folder is known, so it is removed
            work = make_temporary(out.resolve(), folder_too=True)
        if catalogs:
            report = _build_languages(work, pool, progress, musicxml, catalogs, made)
        else:
            report = _build_into(work, pool, progress, musicxml, made)
        made.keep(work)
        report.engraved = made.engraved
        (work / MARKER).write_text("a site written by drumscore\n", encoding="utf-8")
        _keep_owner_and_mode(work, out)
        _replace(work, out, before)
    except OSError as exc:
        remove_temporary(work, folder=True)
        if isinstance(exc, DrumscoreError):
            raise
        # a copy's error names its source (the package's own sample) first: name the output
        named = exc.filename2 or exc.filename
        where = (
            aside("", os.path.relpath(named, work))  # " (…)", in Chinese "（…）"
            if named and str(named).startswith(str(work))
            else ""
        )
        raise WriteError(
            _("cannot write the site {site!r}{where}: {reason}").format(
                site=str(out), where=where, reason=exc.strerror or exc
            )
        ) from None
    except BaseException:
        remove_temporary(work, folder=True)
        raise
    finally:
        made.close()
    report.path = given
    report.seconds = time.perf_counter() - started
    return report


def site_catalog(name: str) -> str:
    """The catalog a language name means (en, zh-Hant, zh_TW…); an error for one without."""
    named = i18n.language_named(name)
    found = named[0] if named else None
    if found is None:
        tags = list_text(i18n.tags())
        raise OptionError(
            _("lang {value!r} is not a language of the site; give one of {tags} or all").format(
                value=name, tags=tags
            ),
            option="lang",
        )
    return found


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputError(_("{path!r} is a file; give a folder for the site").format(path=str(out)))
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise OutputError(
            _(
                "folder {path!r} is not empty and holds no site made by drumscore; "
                "give a new or empty folder (the site would replace what is there)"
            ).format(path=str(out))
        )
    parent = out.resolve().parent
    if parent.exists() and not parent.is_dir():
        raise OutputError(
            _("{path!r} is a file; give a folder for the site").format(path=str(parent))
        )
    if not parent.is_dir():
        raise OutputError(
            _("folder {path!r} does not exist; create it first").format(path=str(parent))
        )
    if out.is_dir() and not (out.stat().st_mode & 0o222 and os.access(out, os.W_OK)):
        raise OutputError(
            _(
                "folder {path!r} is read-only; make it writable (chmod u+w) or give another folder"
            ).format(path=str(out))
        )


def _listing(out: Path) -> set[str]:
    """Every path in the folder `out` (relative to it); empty where it is not a folder."""
    found: set[str] = set()
    for folder, folders, files in os.walk(out):
        found.update(os.path.relpath(os.path.join(folder, n), out) for n in (*folders, *files))
    return found


def _refuse_what_came(out: Path, before: set[str]) -> None:
    """Refuse to replace an earlier site that holds what it did not hold when the build began:
    something of the reader's, put there meanwhile."""
    came = sorted(_listing(out) - before)
    if came:
        raise OutputError(
            _(
                "folder {path!r} holds {name!r}, which drumscore did not write there; move "
                "it out or give another folder (the site would replace the folder)"
            ).format(path=str(out), name=came[0])
        )


def _keep_owner_and_mode(work: Path, out: Path) -> None:
    """The new site takes the owner and mode of the folder it replaces (a new one: 0755 less
    the umask)."""
    try:
        info = out.stat()
    except FileNotFoundError:
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(work, 0o755 & ~mask)
        return
    os.chmod(work, stat.S_IMODE(info.st_mode))
    if (info.st_uid, info.st_gid) != (os.getuid(), os.getgid()):
        with contextlib.suppress(OSError):  # only root may give a folder away
            os.chown(work, info.st_uid, info.st_gid)


def _replace(work: Path, out: Path, before: set[str]) -> None:
    """Put the new site in the place of the old, signals held (files.signals): a signal between
    the two renames would leave neither in place. The place is checked again at the rename with
    the rule of the start (_check_target): what appeared there while the site was built (a file,
    a link, a folder of the reader's; in an earlier site, anything not in `before`, its paths
    when the build began) is left as it is, and the build refused."""
    with held():
        if not os.path.lexists(out):
            try:
                rename_new(work, out)
            except FileExistsError:
                raise appeared(out) from None
            return
        if out.is_symlink() or not out.is_dir():
            raise appeared(out)
        _check_target(out)
        if not (out / MARKER).is_file():  # empty: the rename replaces it, or fails if filled
            try:
                os.rename(work, out)
            except OSError as exc:
                if exc.errno in (errno.ENOTEMPTY, errno.EEXIST):
                    raise appeared(out) from None
                raise
            return
        _refuse_what_came(out, before)
        old = make_temporary(out.resolve(), folder_too=True)  # empty: the rename replaces it
        os.replace(out, old)
        try:
            os.replace(work, out)
        except BaseException:
            os.replace(old, out)
            raise
        remove_temporary(old, folder=True)


def _build_languages(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
    catalogs: tuple[str, ...],
    made: Artefacts,
) -> SiteReport:
    """A whole site in each language in work/TAG/, each with its own files (the engravings and
    MusicXML carry their words in its language), and work/index.html linking to each.

    The first language is built here, making what every language shares (the engravings, the
    exports, the alignments); the others then side by side, one a core, in processes forked
    from this one, which have all that made already (where the system forks)."""
    tags = tuple(i18n.LANGUAGES[c][0] for c in catalogs)
    alternates = Alternates(tags)
    report = SiteReport(work, languages=tags)
    build = functools.partial(_build_language, work, pool, progress, musicxml, made, alternates)
    parts = [build(catalogs[0])]
    made.midi_from = work / tags[0]
    rest = catalogs[1:]
    forked = _forking(len(rest))
    if forked is None:
        parts += [build(catalog) for catalog in rest]
    else:
        made.settle()  # every engraving made, and its workers ended: nothing left to fork
        global _forked_build
        _forked_build = build
        try:
            with forked as side:
                beside = [side.submit(_build_forked, c) for c in rest[1:]]
                parts.append(build(rest[0]))
                parts += [f.result() for f in beside]
        finally:
            _forked_build = None
    sites = []
    for catalog, (part, title) in zip(catalogs, parts, strict=True):
        tag = i18n.LANGUAGES[catalog][0]
        sites.append({"tag": tag, "name": i18n.LANGUAGES[catalog][1], "title": title})
        # each language's site has the same files, counted once; the notes in the reader's
        report.scores, report.files, report.staff = part.scores, part.files, part.staff
        if catalog == i18n.language():
            report.notes = part.notes
    (work / "index.html").write_text(render("languages.html", sites=sites), "utf-8")
    return report


def _build_language(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
    made: Artefacts,
    alternates: Alternates,
    catalog: str,
) -> tuple[SiteReport, str]:
    """The site in `catalog`'s language in work/TAG/, and its title."""
    with i18n.speaking(catalog):
        tag = i18n.LANGUAGES[catalog][0]
        part = _build_into(work / tag, pool, progress, musicxml, made, alternates)
        return part, _("The drum scores of 投壺")


#: The build of one language, for a forked process to call (set while the processes run).
_forked_build: Callable[[str], tuple[SiteReport, str]] | None = None


def _build_forked(catalog: str) -> tuple[SiteReport, str]:
    assert _forked_build is not None
    return _forked_build(catalog)


def _forking(languages: int) -> ProcessPoolExecutor | None:
    """Processes forked from this one for `languages` built beside it; None on one core, for
    fewer than two languages, or where the system does not fork."""
    import multiprocessing

    workers = min(languages - 1, cores() - 1)
    if workers < 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=worker_signals,
        initargs=(os.getpid(),),
    )


def _build_into(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
    made: Artefacts,
    alternates: Alternates = ONE_LANGUAGE,
) -> SiteReport:
    """One site, in the current language, in `work`."""
    report = SiteReport(work)
    items = sitedata.entries(pool)
    shared = {
        "kit": sitedata.kit_data(),
        "tempo": sitedata.tempo_data(),
        "play": sitedata.play_data(),
        "fields": grammar.field_data(),
        "readings": sitedata.readings_data(),
        "drum_words": sitedata.drum_words(),
        "source_lang": source_lang(),
        "strings": sitedata.strings(),  # what the scripts say, in the page's language
    }
    work.mkdir(exist_ok=True)
    _copy_static(work)
    for folder in ("score", "files", DATA):
        (work / folder).mkdir()
    built = sitedata.figures(pool)
    if made.partners is None:
        made.partners = sitedata.partners(built)
    partners = made.partners
    # the index and the compare page first, from what each lists of a score; then of each
    # apparatus only what a score's page shows of it is kept, and the scores' pages written
    apparatuses = sitedata.apparatuses(pool, items, built)
    del built
    scores = [sitedata.listed_score(entry) for entry in items]
    report.scores = len(scores)
    _write_page(work / "index.html", index_page(scores, apparatuses, pool, alternates))
    extra = {"names": sitedata.names_data(items, pool), "partners": partners}
    _write_page(work / "compare.html", compare_page(scores, shared, extra, alternates))
    by_score = {(a["figure"], a["state"]): sitedata.standing_data(a) for a in apparatuses}
    del apparatuses, scores
    # each score's files written, its staff's engraving asked for (made meanwhile, in workers),
    # in the order of their notation: the scores of one music follow one another, so that its
    # export is made once however many editions print it, and dropped once made
    waiting = []
    for entry in sorted(items, key=lambda e: e.score.pattern.notation):
        if progress:
            progress(entry.score.key)
        count, whole = _write_files(work, entry, musicxml, made)
        report.files += count
        lines: list[str] = []
        staff_key = None
        if whole and len(entry.score.pattern) <= STAFF_LIMIT:
            pattern = entry.score.pattern  # a phone's: a line a part, before 半 and from it
            longest = max(pattern.half, len(pattern) - pattern.half) if pattern.half else None
            lines = [text for _, text in page_head(arrange(entry.score, Section.SHE))]
            music = with_words(whole, [STAFF_HEAD] * len(lines))
            staff_key = made.request(music, longest or len(pattern))
        elif whole:
            report.notes.append(
                _(
                    "{key}: no staff notation on its page, as it has more than {limit} strokes "
                    "(its MusicXML file has them all)"
                ).format(key=entry.score.key, limit=f"{STAFF_LIMIT:,}")
            )
        waiting.append((entry, lines, staff_key))
    # then each score's page and data file, written as soon as they are made, and not kept
    notations = {e.score.key: e.score.pattern.notation for e in items}
    rows = sitedata.collations(items)
    for k, (entry, lines, staff_key) in enumerate(waiting):
        apparatus = by_score.get((entry.score.figure, entry.score.state))
        score = sitedata.page_score(entry, pool, apparatus)
        downloads = _downloads(entry, musicxml)
        score["files"] = dict(downloads[READINGS[0].id])  # the page's links, as built
        score["downloads"] = downloads  # each reading's, for the page to link the one chosen
        staff = made.staff(staff_key) if staff_key is not None else None
        if staff is not None:
            _put_staff(work, score, staff, lines, entry, made)
            report.staff += 1
        following = waiting[k + 1][2] if k + 1 < len(waiting) else None
        if staff_key is not None and following != staff_key:
            made.release(staff_key)  # the pages of its music written (they follow one another)
        other = partners.get(score["key"], "")
        partner = {"key": other, "notation": notations[other]} if other in notations else None
        page = score_page(score, shared, partner, alternates)
        (work / "score" / f"{score['slug']}.html").write_text(page, encoding="utf-8")
        data = score_script(sitedata.score_data(score, rows.pop(score["key"], None)))
        (work / DATA / f"{score['slug']}.js").write_text(data, encoding="utf-8")
    if report.staff == 0:
        report.notes.append(_("no staff notation: Verovio is not installed (the notation extra)"))
    return report


def _write_page(path: Path, pieces: Iterable[str]) -> None:
    """Write a page as it is made, piece by piece (not held whole)."""
    with path.open("w", encoding="utf-8") as out:
        out.writelines(pieces)
