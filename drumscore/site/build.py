"""`drumscore site`: the corpus as a static site, self-contained, for any static web server.

Pages are written from the library's own data (see data.py); the player, the compare view and
the in-page WAV render are plain ES modules in static/, shipped with the package. Nothing is
loaded from the network: scripts, styles and the kit's samples are copied into the folder.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import re
import shutil
import stat
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree as ET

from drumscore import __version__, corpus, i18n
from drumscore.analysis.compare import Comparison
from drumscore.conductor.timeline import Timeline, arrange
from drumscore.errors import DrumscoreError, OptionError, OutputError, WriteError
from drumscore.files.atomic import check_not_inside, make_temporary, remove_temporary
from drumscore.files.signals import held
from drumscore.i18n import _, aside, list_text
from drumscore.model import READINGS, STATE_SLUGS, Edition, Section
from drumscore.render.musicxml import musicxml_bytes, page_head, with_words
from drumscore.site import data as sitedata
from drumscore.site import grammar
from drumscore.site.templating import render

STATIC = Path(__file__).with_name("static")
SVG_NS = "http://www.w3.org/2000/svg"
#: A file in every built site, so a rebuild may replace the folder and nothing else.
MARKER = ".drumscore-site"
#: A file in every built site with staff notation: the file of each engraving, by the hash of
#: what it was engraved from, so that a rebuild engraves only what is new.
STAVES = ".drumscore-staves.json"
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


@dataclass(frozen=True, slots=True)
class Alternates:
    """The languages a page is built in beside its own (a site in one language: none)."""

    tags: tuple[str, ...] = ()

    def links(self, root: str, page: str) -> list[dict]:
        """Each language's copy of `page` (its path in a language's site), with the language's
        own name, linked from a page whose way to the top of its language's site is `root`."""
        names = {tag: name for tag, name in i18n.LANGUAGES.values()}
        return [{"tag": t, "name": names[t], "href": f"{root}../{t}/{page}"} for t in self.tags]


def score_page(
    score: dict, shared: dict, partner: dict | None, alternates: Alternates = Alternates()
) -> str:
    """A score's page: notation, player, staff, counts and checks, source, downloads."""
    root = "../"
    strings = sitedata.strings()
    query = {"a": score["key"]}
    compare_with = _("Compare this reading with another")
    if partner is not None:
        query["b"] = partner["key"]
        compare_with = (
            _("Compare this reading with another edition's (they read alike)")
            if partner["notation"] == score["notation"]
            else _("Compare this reading with the reading that differs most")
        )
    return render(
        "score.html",
        title=score["title"],
        root=root,
        script="score.js",
        languages=alternates.links(root, f"score/{score['slug']}.html"),
        score=score,
        files=score["files"],
        tempo=shared["tempo"],
        play=shared["play"],
        readings=shared["readings"],
        strings=strings,
        section_order=sitedata.section_order(),
        compare_query=query,
        compare_with=compare_with,
        page_data={"root": root, "score": score, **shared, "strings": strings},
    )


def index_page(
    scores: list[dict],
    apparatuses: list[dict],
    pool: tuple[Edition, ...],
    alternates: Alternates = Alternates(),
) -> str:
    """The index: every edition with its scores, and the apparatus of each figure and drum."""
    blocks = []
    for a in apparatuses:
        readings = [
            {
                **r,
                "letter": chr(ord("A") + i),
                "links": [
                    {**s, "edition_name": name}
                    for s, name in zip(r["scores"], r["editions"], strict=True)
                ],
            }
            for i, r in enumerate(a["readings"])
        ]
        blocks.append(
            {
                **a,
                "slug": STATE_SLUGS.get(a["state"], a["state"]),
                "readings": readings,
                "total": sum(len(r["scores"]) for r in a["readings"]),
                "majority_key": a["readings"][0]["keys"][0] if a["readings"] else "",
                "witnesses_by_siglum": _by_siglum(a),
            }
        )
    editions = [
        {
            "name": e.name,
            "id": e.id,
            "citation": e.provenance.citation,
            "scores": [s for s in scores if s["edition"] == e.id],
        }
        for e in pool
    ]
    return render(
        "index.html",
        title=_("The drum scores of 投壺"),
        root="",
        script=None,
        languages=alternates.links("", "index.html"),
        editions=editions,
        apparatuses=blocks,
    )


def _by_siglum(apparatus: dict) -> dict[str, dict]:
    return {w["siglum"]: w for w in apparatus["witnesses"]}


def compare_page(
    scores: list[dict],
    comparisons: dict,
    shared: dict,
    extra: dict,
    alternates: Alternates = Alternates(),
) -> str:
    """The compare view: two names in, their strokes aligned, and A/B playback."""
    return render(
        "compare.html",
        title=_("Compare two readings"),
        root="",
        script="compare.js",
        languages=alternates.links("", "compare.html"),
        scores=scores,
        tempo=shared["tempo"],
        play=shared["play"],
        sections={s.value: s.description for s in Section},
        marks=sitedata.marks(),
        page_data={
            "root": "",
            "scores": scores,
            "comparisons": comparisons,
            "marks": sitedata.marks(),
            **shared,
            **extra,
            "strings": sitedata.strings(),
        },
    )


#: The words a staff's head is engraved with, in each of its lines, for the page to set its
#: own (Verovio's lines are as high as they would be for a title and a citation).
STAFF_HEAD = "投壺 · figure (Ag)"
#: A phone's engraving: the page's margins and labels, and so much page a stroke (Verovio's
#: units), so a line, set to the page's width, shows 8 strokes or more in a phone's width at a
#: staff space to the notation's glyph.
NARROW_BASE, NARROW_STROKE = 360, 28


def _staff_svgs(musicxml: bytes, strokes: int) -> tuple[bytes | None, bytes | None]:
    """Staff notation as SVG files, engraved in-process by Verovio where it is installed: the
    page's, and a phone's, where `strokes` are the most on one line: a page as wide as they
    need at a phone's spacing (NARROW_STROKE each), without the title and citation the page
    shows. The document is read once, and laid out for each."""
    from drumscore.render.verovio import PAGE_WIDTH, svg_layouts

    width = min(NARROW_BASE + NARROW_STROKE * strokes, PAGE_WIDTH)
    try:
        wide, narrow = svg_layouts(musicxml, ((PAGE_WIDTH, True), (width, False)))
    except (ImportError, DrumscoreError):  # no Verovio: the page goes without staff notation
        return None, None
    return (wide[0].encode("utf-8") if wide else None), (
        narrow[0].encode("utf-8") if narrow else None
    )


@dataclass(frozen=True, slots=True)
class _Staff:
    """What a page's staff needs of an engraving: the page's and the phone's, each's key, and
    what the page says of them (read once: the same in every language)."""

    key: str
    phone_key: str
    svg: bytes
    phone: bytes | None
    spaces: float | None
    phone_spaces: float | None
    phone_first: float | None


class _Artefacts:
    """What a build makes once for all its pages and languages. The staff engravings, each keyed
    by what it is engraved from (the MusicXML document of a music, its head's words stood in for
    by STAFF_HEAD, drumscore's and Verovio's versions; each page sets its own words in the head):
    made once for every score and language of that music, in worker processes beside the build
    (one per core), or taken from an earlier site where the same key was engraved (the head's
    words set again). The MIDI files (in English: the same in every language) and the
    partners of the scores (the same in every language)."""

    def __init__(self, earlier: Path | None) -> None:
        self.earlier: dict[str, tuple[Path, str]] = {}  # key -> file, the hash of its bytes
        if earlier is not None:
            with contextlib.suppress(OSError, ValueError, AttributeError, TypeError, KeyError):
                found = json.loads((earlier / STAVES).read_text("utf-8"))
                self.earlier = {k: (earlier / v["file"], v["sha256"]) for k, v in found.items()}
        # key -> the key of its phone's engraving, and the two engravings
        self.engravings: dict[str, tuple[str, Future[tuple[bytes | None, bytes | None]]]] = {}
        self.staves: dict[str, _Staff | None] = {}
        # key -> the file of this build that holds it, and the hash of its bytes
        self.files: dict[str, tuple[Path, str]] = {}
        self.midi: dict[tuple[str, Section, Fraction, str], bytes] = {}
        self.partners: dict[str, str] | None = None
        self.compared: dict[tuple[str, str], Comparison] = {}  # the same in every language
        self.engraved = 0
        self._pool: ProcessPoolExecutor | None = None
        self._engraver = f"drumscore {__version__}; verovio {_verovio()}\n".encode()

    def midi_of(self, timeline: Timeline) -> bytes:
        """The MIDI file of `timeline` (as `drumscore render` writes it), made once for every
        language: by its score, section, tempo and reading, all a site's timeline varies."""
        from drumscore.render.midi import midi_bytes

        key = (timeline.score.key, timeline.section, timeline.tempo.interval, timeline.reading.id)
        if key not in self.midi:
            self.midi[key] = midi_bytes(timeline)
        return self.midi[key]

    def request(self, musicxml: bytes, strokes: int) -> str:
        """The key of the staff of `musicxml`, a phone's (`strokes` a line, as _staff_svgs
        has it) engraved with it, the engraving started if not asked for yet."""
        key = self._key(musicxml)
        if key not in self.engravings:
            phone_key = self._key(musicxml, strokes)
            engraving = self._engrave((key, phone_key), musicxml, strokes)
            self.engravings[key] = phone_key, engraving
        return key

    def _key(self, musicxml: bytes, strokes: int | None = None) -> str:
        narrow = b"" if strokes is None else f"narrow {strokes}\n".encode()
        return hashlib.sha256(self._engraver + narrow + musicxml).hexdigest()

    def _engrave(
        self, keys: tuple[str, str], musicxml: bytes, strokes: int
    ) -> Future[tuple[bytes | None, bytes | None]]:
        done: Future[tuple[bytes | None, bytes | None]] = Future()
        kept = [self._kept(key) for key in keys]
        if kept[0] is not None and kept[1] is not None:
            done.set_result((kept[0], kept[1]))
            return done
        self.engraved += sum(k is None for k in kept)  # the page's and the phone's
        if self._pool is None and _cores() > 1:
            self._pool = ProcessPoolExecutor(max_workers=_cores(), initializer=_worker_signals)
        if self._pool is None:  # one core: no worker process is worth it
            done.set_result(_staff_svgs(musicxml, strokes))
            return done
        return self._pool.submit(_staff_svgs, musicxml, strokes)

    def _kept(self, key: str) -> bytes | None:
        """The engraving of `key` in the earlier site, as that build wrote it; or None."""
        if key in self.earlier:
            path, digest = self.earlier[key]
            with contextlib.suppress(OSError):
                kept = path.read_bytes()
                if hashlib.sha256(kept).hexdigest() == digest:
                    return kept
        return None

    def staff(self, key: str) -> _Staff | None:
        """The engravings of `key` (as request gave it) and what they measure; None without
        Verovio."""
        if key not in self.staves:
            phone_key, engraving = self.engravings[key]
            svg, phone = engraving.result()
            found = None
            if svg is not None:
                found = _Staff(
                    key,
                    phone_key,
                    svg,
                    phone,
                    staff_spaces(svg),
                    staff_spaces(phone) if phone else None,
                    first_head(phone) if phone else None,
                )
            self.staves[key] = found
        return self.staves[key]

    def write(self, key: str, path: Path, engraving: bytes) -> None:
        """Write the engraving of `key` to `path`; the first file of each key is kept (keep)."""
        path.write_bytes(engraving)
        self.files.setdefault(key, (path, hashlib.sha256(engraving).hexdigest()))

    def keep(self, work: Path) -> None:
        """Where this build's engravings are, in work/STAVES, for the next build."""
        if self.files:
            kept = {
                key: {"file": path.relative_to(work).as_posix(), "sha256": digest}
                for key, (path, digest) in self.files.items()
            }
            text = json.dumps(kept, indent=0, sort_keys=True) + "\n"
            (work / STAVES).write_text(text, encoding="utf-8")

    def settle(self) -> None:
        """Every engraving asked for made, and the worker processes ended."""
        for key in self.engravings:
            self.staff(key)
        self.close()
        self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def _worker_signals() -> None:
    """An engraving worker leaves Ctrl-C to the build, which stops it (no traceback of its own),
    and ends at once on SIGTERM or SIGHUP."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _cores() -> int:
    """The cores this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _verovio() -> str:
    """The version of Verovio that engraves, which the engraving depends on ("" without it)."""
    from importlib import metadata

    try:
        return metadata.version("verovio")
    except metadata.PackageNotFoundError:
        return ""


def staff_spaces(svg: bytes) -> float | None:
    """The width of an engraving in staff spaces (SMuFL: a glyph's em is four staff spaces), read
    from Verovio's SVG: the page's width over the size of a notehead's glyph. The page shows it
    at a staff space per em of its box, so on a phone the heads are as large as the glyphs."""
    root = ET.fromstring(svg)
    outer = (root.get("viewBox") or "").split()
    inner, head = _music_and_first_head(root)
    use = head.find(f"{{{SVG_NS}}}use") if head is not None else None
    if len(outer) != 4 or inner is None or use is None:
        return None
    scale = re.search(r"scale\(([\d.]+)", use.get("transform", ""))
    inner_width = float((inner.get("viewBox") or "0 0 0 0").split()[2])
    if scale is None or not inner_width:
        return None
    space = 1000 * float(scale.group(1)) / 4 * float(outer[2]) / inner_width
    return math.ceil(10 * float(outer[2]) / space) / 10  # up: a head never below a glyph


def _music_and_first_head(root: ET.Element) -> tuple[ET.Element | None, ET.Element | None]:
    """Verovio's SVG: the inner svg of the music (its definition scale) and the first notehead."""
    inner = next(
        (e for e in root.iter(f"{{{SVG_NS}}}svg") if "definition-scale" in e.get("class", "")),
        None,
    )
    head = next(
        (e for e in root.iter(f"{{{SVG_NS}}}g") if "notehead" in e.get("class", "").split()),
        None,
    )
    return inner, head


def first_head(svg: bytes) -> float | None:
    """Where the first notehead of an engraving stands, as a share of its width (read from
    Verovio's SVG), so a phone's scrolling staff can open on the notes, not on the clef."""
    root = ET.fromstring(svg)
    inner, head = _music_and_first_head(root)
    margin = next(
        (e for e in root.iter(f"{{{SVG_NS}}}g") if "page-margin" in e.get("class", "").split()),
        None,
    )
    use = head.find(f"{{{SVG_NS}}}use") if head is not None else None
    if inner is None or use is None or margin is None:
        return None
    shift = re.search(r"translate\(([\d.]+)", margin.get("transform", ""))
    x = re.search(r"translate\(([\d.]+)", use.get("transform", ""))
    width = float((inner.get("viewBox") or "0 0 0 0").split()[2])
    if not (x and shift and width):
        return None
    return round((float(shift.group(1)) + float(x.group(1))) / width, 4)


def _page_staff(staff: _Staff, lines: list[str], whole: bytes) -> bytes:
    """The page's staff: the engraving of its music with the page's `lines` (its title and
    citation in the current language) set in its head, or, where that cannot be done, the
    page's own document (`whole`) engraved."""
    from drumscore.render.verovio import retitle

    page = retitle(staff.svg.decode("utf-8"), lines)
    if page is not None:
        return page.encode("utf-8")
    return _staff_svgs(whole, 1)[0] or staff.svg


def _phone_staff(svg: bytes) -> bytes:
    """The phone's staff, its words (the staff labels, the tempo) in the current language's
    font."""
    from drumscore.render.verovio import in_text_font

    return in_text_font(svg.decode("utf-8")).encode("utf-8")


def _write_files(
    out: Path, entry: sitedata.Entry, musicxml: bool, made: _Artefacts
) -> tuple[dict[str, dict[str, str]], int, bytes | None]:
    """MIDI of each section and MusicXML of 射 and 投壺, under each reading of the signs (READINGS,
    the files of 鄭玄's named as the score's, the others' with the reading's id after the
    section): what `drumscore render` writes for that score, section, default tempo and reading.
    The files of each reading by their kind and section, the count, and 鄭玄's 射 MusicXML."""
    written = 0
    whole = None
    files: dict[str, dict[str, str]] = {reading.id: {} for reading in READINGS}
    for section in MIDI_SECTIONS:
        if section not in entry.score.pattern.sections():
            continue
        for reading in READINGS:
            timeline = arrange(entry.score, section, reading=reading)
            stem = f"files/{entry.slug}-{section.value}"
            if reading is not READINGS[0]:
                stem += f"-{reading.id}"
            (out / f"{stem}.mid").write_bytes(made.midi_of(timeline))
            files[reading.id][f"midi-{section.value}"] = f"{stem}.mid"
            written += 1
            if musicxml and section in MUSICXML_SECTIONS:
                xml = musicxml_bytes(timeline)
                (out / f"{stem}.musicxml").write_bytes(xml)
                if section is Section.SHE and reading is READINGS[0]:
                    whole = xml
                files[reading.id][f"musicxml-{section.value}"] = f"{stem}.musicxml"
                written += 1
    return files, written, whole


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
    made = _Artefacts(out if (out / MARKER).is_file() else None)
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
        _replace(work, out)
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


def _replace(work: Path, out: Path) -> None:
    """Put the new site in the place of the old, signals held (files.signals): a signal between
    the two renames would leave neither in place."""
    with held():
        if out.is_dir():
            old = make_temporary(out.resolve(), folder_too=True)  # empty: the rename replaces it
            os.replace(out, old)
            try:
                os.replace(work, out)
            except BaseException:
                os.replace(old, out)
                raise
            remove_temporary(old, folder=True)
        else:
            os.replace(work, out)


def _build_languages(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
    catalogs: tuple[str, ...],
    made: _Artefacts,
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
    made: _Artefacts,
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

    workers = min(languages - 1, _cores() - 1)
    if workers < 1 or "fork" not in multiprocessing.get_all_start_methods():
        return None
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("fork"),
        initializer=_worker_signals,
    )


def _build_into(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
    made: _Artefacts,
    alternates: Alternates = Alternates(),
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
    }
    work.mkdir(exist_ok=True)
    _copy_static(work)
    (work / "score").mkdir()
    (work / "files").mkdir()
    comparisons = sitedata.comparisons(items, made.compared)
    if made.partners is None:
        made.partners = sitedata.partners(items)
    partners = made.partners
    apparatuses = sitedata.apparatuses(pool, items)
    by_score = {(a["figure"], a["state"]): a for a in apparatuses}
    scores = []
    staffed = []
    for entry in items:
        if progress:
            progress(entry.score.key)
        apparatus = by_score.get((entry.score.figure, entry.score.state))
        score = sitedata.page_score(entry, pool, apparatus)
        key = entry.score.key
        downloads, count, whole = _write_files(work, entry, musicxml, made)
        report.files += count
        score["files"] = dict(downloads[READINGS[0].id])  # the page's links, as built
        score["downloads"] = downloads  # each reading's, for the page to link the one chosen
        long = len(entry.score.pattern) > STAFF_LIMIT
        if whole and not long:
            pattern = entry.score.pattern  # a phone's: a line a part, before 半 and from it
            longest = max(pattern.half, len(pattern) - pattern.half) if pattern.half else None
            lines = [text for _, text in page_head(arrange(entry.score, Section.SHE))]
            music = with_words(whole, [STAFF_HEAD] * len(lines))
            staffed.append((score, whole, lines, made.request(music, longest or len(pattern))))
        if whole and long:
            report.notes.append(
                _(
                    "{key}: no staff notation on its page, as it has more than {limit} strokes "
                    "(its MusicXML file has them all)"
                ).format(key=key, limit=f"{STAFF_LIMIT:,}")
            )
        scores.append(score)
    for score, whole, lines, staff_key in staffed:  # engraved meanwhile
        staff = made.staff(staff_key)
        if staff is None:
            continue
        files = score["files"]
        files["staff-she"] = f"files/{score['slug']}-she.svg"
        made.write(staff.key, work / files["staff-she"], _page_staff(staff, lines, whole))
        score["staff_spaces"] = staff.spaces
        if staff.phone:
            files["staff-she-narrow"] = f"files/{score['slug']}-she-narrow.svg"
            made.write(staff.phone_key, work / files["staff-she-narrow"], _phone_staff(staff.phone))
            score["staff_narrow"] = staff.phone_spaces
            score["staff_first"] = staff.phone_first
        report.staff += 1
    by_key = {s["key"]: s for s in scores}
    for score in scores:
        partner = by_key.get(partners.get(score["key"], ""))
        page = score_page(score, shared, partner, alternates)
        (work / "score" / f"{score['slug']}.html").write_text(page, encoding="utf-8")
    report.scores = len(scores)
    if report.staff == 0:
        report.notes.append(_("no staff notation: Verovio is not installed (the notation extra)"))
    index = index_page(scores, apparatuses, pool, alternates)
    (work / "index.html").write_text(index, "utf-8")
    extra = {
        "names": sitedata.names_data(items, pool),
        "partners": partners,
    }
    page = compare_page(scores, comparisons, shared, extra, alternates)
    (work / "compare.html").write_text(page, "utf-8")
    return report
