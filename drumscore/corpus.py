"""The score corpus: edition files in scores/, and the names that find a score in them."""

from __future__ import annotations

import dataclasses
import difflib
import functools
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drumscore import glyphs as glyph_table
from drumscore.errors import (
    CorpusError,
    DrumscoreError,
    EncodingError,
    InputMissingError,
    NotationError,
    OptionError,
    ScoreNotFoundError,
)
from drumscore.files.reading import (
    OneOf,
    check_schema,
    note_input,
    parse_toml,
    read_input,
    read_input_text,
)
from drumscore.i18n import _, aside, language, list_text, ngettext, tags, written
from drumscore.model import (
    STATE_SPELLINGS,
    Dating,
    Edition,
    PrintedNote,
    Provenance,
    Score,
    Section,
    State,
    StatedCount,
    Wording,
)
from drumscore.notation import might_be_notation, parse

SCORES_DIR = Path(__file__).with_name("scores")
DEFAULT_EDITION = "zhushu"

FIGURES = (1, 2)

#: A score's name: state, /figure and @edition (the page reads names by it, see site/grammar.py).
NAME_PATTERN = r"^(?P<state>[^/@]+?)\s*(?:/\s*(?P<figure>[^@]*?))?\s*(?:@\s*(?P<edition>.+))?$"
_NAME = re.compile(NAME_PATTERN)


def _require(table: dict, key: str, kind: type | tuple, where: str) -> Any:
    if key not in table:
        raise CorpusError(_("{where}: missing key {key!r}").format(where=where, key=key))
    value = table[key]
    if not isinstance(value, kind):
        raise CorpusError(
            _("{where}: {key!r} should be {kind}, not {value!r}").format(
                where=where, key=key, kind=getattr(kind, "__name__", kind), value=value
            )
        )
    return value


def _tables(data: dict, key: str, where: str) -> list[dict]:
    """The [[key]] array of tables, checked to be one."""
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, dict) for v in value):
        raise CorpusError(
            _("{where}: {key!r} should be written as [[{name}]] tables, not {value!r}").format(
                where=where, key=key, name=key, value=value
            )
        )
    return value


def load_edition(path: str | Path, *, cite_by_path: bool = True) -> Edition:
    """Read one edition file (TOML); a malformed file is a CorpusError naming file and key.

    Scores from a file outside the corpus are cited by the file's path (`lu/1@path.toml`), so the
    name finds the same reading again and never a built-in edition of the same id.
    """
    path = Path(path)
    try:
        text = read_input_text(path, "edition file")
    except InputMissingError as exc:
        raise ScoreNotFoundError(str(exc)) from None
    data = parse_toml(text, str(path), CorpusError)
    return edition_from_dict(data, where=str(path), ref=str(path) if cite_by_path else None)


_NOTE = {"after": int, "text": str, "line": int}
#: A text of the edition's own (its note, its date's basis): one text, or a table of texts by
#: language tag (en, zh-Hant, zh-Hans), shown in the reader's language (model.Wording).
_TEXT = (str, {tag: str for tag in tags()})
#: The keys of [source]: a written citation, or its parts (model.Provenance), and the rest.
_SOURCE_KEYS = (
    "citation",
    "work",
    "page",
    "kanripo",
    "kanripo_file",
    "lines",
    "transcription",
    "file",
    "commit",
    "licence",
)
#: What an edition file holds (see files.reading.check_schema); other keys are allowed.
EDITION_SCHEMA = {
    "id": str,
    "name": str,
    "script": str,
    "aliases": [str],
    "note": _TEXT,
    "short": _TEXT,
    "source": {k: str for k in _SOURCE_KEYS},
    "glyphs": dict,
    "date": {"year": int, "from": int, "to": int, "basis": _TEXT},
    "score": [
        {
            "figure": int,
            "state": str,
            "label": str,
            "printed": str,
            "notes": [_NOTE],
            "kanripo_lines": str,
            "file_lines": str,
        }
    ],
    "count": [
        {
            "by": str,
            "figure": int,
            "state": str,
            "section": OneOf(s.value for s in Section),
            "pi": int,
            "gu": int,
            "quote": str,
        }
    ],
}


#: An edition id: a plain name, which can stand in a score's name and a file name as it is.
_PLAIN_ID = re.compile(r"[^\W_][\w-]{0,99}")


def is_plain_id(ident: str) -> bool:
    """True for an edition id that is a plain name: letters, digits, '-' and '_', not starting
    with '-' or '_' (the one rule for edition files and for what extract writes)."""
    return bool(_PLAIN_ID.fullmatch(ident))


def edition_from_dict(data: dict, *, where: str = "<edition>", ref: str | None = None) -> Edition:
    """Build an Edition from the parsed content of an edition file; `ref` names its scores.

    The content is first checked against EDITION_SCHEMA (types, lengths, depth).
    """
    check_schema(data, EDITION_SCHEMA, where, CorpusError)
    ident = _require(data, "id", str, where)
    if not is_plain_id(ident):
        raise CorpusError(
            _(
                "{where}: id {ident!r} is not a plain name; an id is letters, digits, '-' and "
                "'_' (no '/', '.' at the start, spaces or '@'), such as 'mine' or 'benyi-skqs', "
                "since it names the score (lu@ID) and may name files"
            ).format(where=where, ident=ident[:60])
        )
    name = _require(data, "name", str, where)
    source = data.get("source", {})
    if not isinstance(source, dict):
        raise CorpusError(_("{where}: [source] should be a table").format(where=where))
    provenance = Provenance(
        written=str(source.get("citation", "")),
        **{k: str(source.get(k, "")) for k in _SOURCE_KEYS if k != "citation"},
    )
    glyphs = _glyphs(data.get("glyphs", {}), where)
    extra = dict(glyphs)
    scores = []
    for i, entry in enumerate(_tables(data, "score", where), 1):
        at = _("{where}: [[score]] #{number}").format(where=where, number=i)
        figure = _require(entry, "figure", int, at)
        state = STATE_SPELLINGS.get(_require(entry, "state", str, at))
        if state is None or figure not in FIGURES:
            raise CorpusError(_("{at}: state must be 魯 or 薛 and figure 1 or 2").format(at=at))
        printed = _require(entry, "printed", str, at)
        try:
            pattern = parse(printed, extra_glyphs=extra)
        except NotationError as exc:
            message = _("{at}: bad notation: {error}").format(at=at, error=exc)
            if any(glyph_table.is_symbol_like(c) for c in printed):
                hint = _(
                    "hint: a sign the transcription draws strokes with is recorded in the "
                    'file\'s [glyphs] table, e.g. "◍" = "□"'
                )
                message = f"{message}\n{hint}"
            raise CorpusError(message) from None
        notes = []
        for j, note in enumerate(_tables(entry, "notes", at), 1):
            here = _("{at}, note #{number}").format(at=at, number=j)
            after = _require(note, "after", int, here)
            if not 0 <= after <= len(pattern):
                raise CorpusError(
                    ngettext(
                        "{where}: 'after' is {after}, but the pattern has {n} stroke",
                        "{where}: 'after' is {after}, but the pattern has {n} strokes",
                        len(pattern),
                    ).format(where=here, after=after, n=len(pattern))
                )
            line = note.get("line", 0)
            if not isinstance(line, int):
                raise CorpusError(
                    _("{where}: 'line' should be int, not {value!r}").format(where=here, value=line)
                )
            notes.append(PrintedNote(after, _require(note, "text", str, here), line))
        lines = str(entry.get("kanripo_lines") or entry.get("file_lines") or "")
        scores.append(
            Score(
                pattern,
                ref or ident,
                name,
                figure,
                state,
                printed,
                provenance,
                notes=tuple(notes),
                lines=lines,
            )
        )
    counts = []
    for i, entry in enumerate(_tables(data, "count", where), 1):
        at = _("{where}: [[count]] #{number}").format(where=where, number=i)
        if entry.get("section") not in [s.value for s in Section]:
            raise CorpusError(
                _("{at}: section must be {names}, not {value!r}").format(
                    at=at,
                    names=_(" or ").join(s.value for s in Section),
                    value=entry.get("section"),
                )
            )
        figure = _require(entry, "figure", int, at)
        state = STATE_SPELLINGS.get(_require(entry, "state", str, at))
        if state is None or figure not in FIGURES:
            raise CorpusError(_("{at}: state must be 魯 or 薛 and figure 1 or 2").format(at=at))
        pi, gu = _require(entry, "pi", int, at), _require(entry, "gu", int, at)
        if pi < 0 or gu < 0:
            raise CorpusError(
                _("{at}: pi and gu are numbers of strokes, 0 or more, not {pi} and {gu}").format(
                    at=at, pi=pi, gu=gu
                )
            )
        counts.append(
            StatedCount(
                by=_require(entry, "by", str, at),
                figure=figure,
                state=state,
                section=Section.parse(_require(entry, "section", str, at)),
                pi=pi,
                gu=gu,
                quote=str(entry.get("quote", "")),
            )
        )
    return Edition(
        id=ident,
        name=name,
        script=str(data.get("script", "")),
        provenance=provenance,
        scores=tuple(scores),
        counts=tuple(counts),
        aliases=tuple(str(a) for a in data.get("aliases", ())),
        note=_wording(data.get("note", ""), _("{where}: note").format(where=where)),
        path=where,
        glyphs=glyphs,
        date=_date(data.get("date"), where),
        short=_wording(data.get("short", ""), _("{where}: short").format(where=where)),
    )


def _wording(value: str | dict, where: str) -> Wording:
    """A note or a basis as the file gives it: one text, or a table of texts by language."""
    try:
        return Wording.of(value, where)
    except OptionError as exc:
        raise CorpusError(str(exc)) from None


def _glyphs(table: dict, where: str) -> tuple[tuple[str, str], ...]:
    """The [glyphs] table of an edition file: each sign and the stroke it stands for."""
    out = []
    for glyph, target in table.items():
        reason = glyph_table.mapping_refusal(glyph, target if isinstance(target, str) else "")
        if reason:
            raise CorpusError(
                _("{where}: [glyphs] {glyph!r} = {target!r}: {reason}").format(
                    where=where, glyph=glyph, target=target, reason=reason
                )
            )
        out.append((glyph, target))
    return tuple(out)


def _date(table: dict | None, where: str) -> Dating | None:
    """The [date] table of an edition file: `year`, or `from` and `to`, and the `basis`."""
    if table is None:
        return None
    year, first, last = table.get("year"), table.get("from"), table.get("to")
    if (year is None) == (first is None or last is None) or (year is not None and (first or last)):
        raise CorpusError(
            _(
                "{where}: [date] must give either year = 1748 or from = 1736 and to = 1748, with "
                "basis; it has {keys}"
            ).format(where=where, keys=sorted(table))
        )
    if not table.get("basis"):
        raise CorpusError(
            _("{where}: [date] needs its basis: what the date rests on").format(where=where)
        )
    basis = _wording(table["basis"], _("{where}: [date] basis").format(where=where))
    try:
        if year is not None:
            return Dating(year, year, basis)
        assert first is not None and last is not None
        return Dating(first, last, basis)
    except OptionError as exc:
        raise CorpusError(_("{where}: [date]: {error}").format(where=where, error=exc)) from None


@functools.cache
def _builtin(path: Path) -> Edition:
    return load_edition(path, cite_by_path=False)


@functools.cache
def builtin_editions() -> tuple[Edition, ...]:
    """The editions that ship with drumscore, the default (禮記注疏) first, then by id."""
    found = [_builtin(p) for p in sorted(SCORES_DIR.glob("*.toml"))]
    found.sort(key=lambda e: (e.id != DEFAULT_EDITION, e.id))
    return tuple(found)


#: A path list (like PATH) of more folders of the user's own edition files.
EDITIONS_ENV = "DRUMSCORE_EDITIONS"


def user_folders() -> tuple[Path, ...]:
    """The folders of the user's own editions: those EDITIONS_ENV lists, then the platform's user
    data folder (e.g. ~/.local/share/drumscore/editions). They need not exist."""
    import platformdirs

    listed = os.environ.get(EDITIONS_ENV, "").split(os.pathsep)
    folders = [Path(p).expanduser() for p in listed if p.strip()]
    folders.append(Path(platformdirs.user_data_dir("drumscore", appauthor=False)) / "editions")
    unique: dict[str, Path] = {}
    for folder in folders:
        unique.setdefault(os.path.normcase(os.path.abspath(folder)), folder)
    return tuple(unique.values())


def add_folder() -> Path:
    """The folder new user editions are written to, created if need be: the first folder that
    EDITIONS_ENV lists, else the platform's user data folder."""
    folder = user_folders()[0]
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CorpusError(
            _("cannot create the editions folder {path!r}: {reason}").format(
                path=str(folder), reason=exc.strerror or exc
            )
        ) from None
    return folder


def _user_files() -> tuple[tuple[str, int, int], ...]:
    files = []
    for folder in user_folders():
        try:
            paths = sorted(folder.glob("*.toml")) if folder.is_dir() else []
        except OSError:
            continue
        for path in paths:
            try:
                info = path.stat()
            except OSError:
                continue
            files.append((str(path), info.st_mtime_ns, info.st_size))
    return tuple(files)


@dataclass(frozen=True, slots=True)
class SkippedFile:
    """A file among the user's editions that cannot be used, and why; `names` are what would name
    it (its file name without .toml, and its id when that could be read)."""

    path: str
    reason: str
    names: frozenset[str]


#: Told of each user edition file that is skipped (see on_skipped).
_skipped_callback: Callable[[SkippedFile], None] | None = None


def on_skipped(callback: Callable[[SkippedFile], None] | None) -> Callable | None:
    """Have `callback(skipped)` told of every user edition file that is left out of the corpus
    because it is broken; returns the callback it replaces."""
    global _skipped_callback
    previous, _skipped_callback = _skipped_callback, callback
    return previous


@functools.lru_cache(maxsize=8)
def _user_editions(
    files: tuple[tuple[str, int, int], ...],
    catalog: str,
) -> tuple[tuple[Edition, ...], tuple[SkippedFile, ...]]:
    """The user's editions and the files left out, why in the `catalog` speaking (part of the
    cache's key: the reasons are sentences for the reader)."""
    builtin = {e.id: e for e in builtin_editions()}
    found: dict[str, Edition] = {}
    skipped = []
    for path, _mtime, _size in files:
        names = {Path(path).stem.casefold()}
        try:
            edition = dataclasses.replace(load_edition(path, cite_by_path=False), user=True)
        except DrumscoreError as exc:  # any field of the file: the file is left out, not the run
            prefix = _("{where}: {reason}").format(where=path, reason="")
            reason = str(exc).splitlines()[0].removeprefix(prefix)
            skipped.append(SkippedFile(path, reason, frozenset(names)))
            continue
        names.add(edition.id.casefold())
        clash = builtin.get(edition.id) or found.get(edition.id)
        if clash is not None:
            if clash.user:
                reason = _(
                    "its edition id {ident!r} is taken by the edition in {path!r}; give one of "
                    "them another id"
                )
            else:
                reason = _(
                    "its edition id {ident!r} is taken by the built-in edition in {path!r}; give "
                    "one of them another id"
                )
            reason = reason.format(ident=edition.id, path=clash.path)
            skipped.append(SkippedFile(path, reason, frozenset(names)))
            continue
        found[edition.id] = edition
    return tuple(sorted(found.values(), key=lambda e: e.id)), tuple(skipped)


def user_editions() -> tuple[Edition, ...]:
    """The user's own editions (see user_folders), by id. A file that cannot be used (it does not
    load, or its id is taken by another edition) is left out, and the on_skipped callback told."""
    files = _user_files()
    for path, _mtime, _size in files:
        note_input(path)  # read once and cached, but an input of every command that uses it
    found, skipped = _user_editions(files, language())
    if _skipped_callback is not None:
        for item in skipped:
            _skipped_callback(item)
    return found


def skipped_user_file(name: str) -> SkippedFile | None:
    """The user's edition file left out of the corpus that `name` names, if any."""
    wanted = name.strip().casefold()
    for item in _user_editions(_user_files(), language())[1]:
        if wanted in item.names:
            return item
    return None


def editions() -> tuple[Edition, ...]:
    """Every edition: the built-in ones (the default, 禮記注疏, first), then the user's."""
    return builtin_editions() + user_editions()


def check_new_edition(edition: Edition, pool: Iterable[Edition] | None = None) -> None:
    """A CorpusError if `edition`'s id is taken by an edition of `pool` (default: all)."""
    for other in editions() if pool is None else pool:
        if other.id == edition.id and other.path != edition.path:
            if other.user:
                message = _(
                    "the edition id {ident!r} of {path!r} is taken by the user's edition in "
                    "{other!r}; give one of them another id"
                )
            else:
                message = _(
                    "the edition id {ident!r} of {path!r} is taken by the built-in edition in "
                    "{other!r}; give one of them another id"
                )
            raise CorpusError(message.format(ident=edition.id, path=edition.path, other=other.path))


def find_edition(name: str, pool: Iterable[Edition] | None = None) -> Edition:
    """An edition by id, name, alias or Kanripo id (any case), or by path to a .toml file."""
    wanted = name.strip().casefold()
    own_file = SCORES_DIR / f"{wanted}.toml"
    if pool is None and re.fullmatch(r"[\w-]+", wanted) and _exists(own_file):
        # an edition's file is named by its id: read just that one
        edition = _builtin(own_file)
        if edition.id.casefold() == wanted:
            return edition
    whole_corpus = pool is None
    pool = tuple(pool) if pool is not None else editions()
    for edition in pool:
        keys = {edition.id, edition.name, edition.provenance.kanripo, *edition.aliases}
        if wanted in {k.casefold() for k in keys if k}:
            return edition
    path = Path(name)
    if path.suffix == ".toml" and _exists(path):
        return load_edition(path)
    broken = skipped_user_file(name) if whole_corpus else None
    if broken is not None:
        raise CorpusError(
            _("your edition file {path!r} cannot be used: {reason}").format(
                path=broken.path, reason=broken.reason
            )
        )
    known = list_text(aside(e.id, written(e.name)) for e in pool)
    names = [n for e in pool for n in (e.id, *e.aliases)]
    close = difflib.get_close_matches(name.strip(), names, n=1)
    if close:
        raise ScoreNotFoundError(
            _(
                "unknown edition {name!r} (did you mean {suggestion!r}?); the editions are: {known}"
            ).format(name=name, suggestion=close[0], known=known),
            key="unknown_edition",
        )
    raise ScoreNotFoundError(
        _("unknown edition {name!r}; the editions are: {known}").format(name=name, known=known),
        key="unknown_edition",
    )


def scores(edition: Edition | None = None) -> tuple[Score, ...]:
    """Every score in the corpus, or in one edition."""
    pool = (edition,) if edition else editions()
    return tuple(s for e in pool for s in e.scores)


def _name_help() -> str:
    names = list_text(aside(e.id, written(e.name)) for e in editions())
    return _(
        "scores are named lu or xue (also 魯/鲁, 薛/辥), optionally /2 for the second figure and "
        "@EDITION for another edition ({names}); or give notation such as '○□○半○□' or a file"
    ).format(names=names)


def resolve(name: str) -> Score:
    """Find the score a command-line name means: a corpus name, raw notation, or a file.

    `lu`, `xue/2`, `魯/2@benyi`, `xue@path/to/edition.toml`; `○□○半○□`; `path/to/pattern.txt`;
    `path/to/edition.toml` (its first score).
    """
    text = name.strip()
    if not text:
        raise ScoreNotFoundError(
            _("empty score name; {help}").format(help=_name_help()), key="empty_name"
        )
    named = split_name(text)
    if named is not None:
        return _from_corpus(*named)
    notation_error = None
    if might_be_notation(text):
        # Meant as notation, whatever its length: read as notation before any file is looked for.
        try:
            return Score(parse(name), printed=name)
        except NotationError as exc:
            notation_error = exc
    path = Path(text)
    if _exists(path):
        if path.is_dir():
            raise ScoreNotFoundError(
                _("{name!r} is a folder; give a score file, a name or notation").format(name=text)
            )
        return _from_file(path)
    if notation_error is not None:
        # no such file: the error points at the bad character
        raise notation_error
    suggestion = _close_name(text)
    if suggestion is not None:
        raise ScoreNotFoundError(
            _("unknown score {name!r} (did you mean {suggestion!r}?); {help}").format(
                name=name, suggestion=suggestion, help=_name_help()
            ),
            key="unknown_name",
        )
    raise ScoreNotFoundError(
        _("unknown score {name!r}; {help}").format(name=name, help=_name_help()),
        key="unknown_name",
    )


def _close_name(text: str) -> str | None:
    """The corpus name a mistyped one most likely means (luu/2 → lu/2, xeu → xue), or None."""
    head, rest = re.fullmatch(r"([^/@]*)(.*)", text, re.DOTALL).groups()  # type: ignore[union-attr]
    close = difflib.get_close_matches(head.strip().casefold(), [s.slug for s in State], n=1)
    return close[0] + rest if close else None


def _exists(path: Path) -> bool:
    """Whether anything is at `path`; a name too long or otherwise impossible is not there."""
    try:
        os.stat(path)
    except (OSError, ValueError):
        return False
    return True


def split_name(name: str) -> tuple[str, int, str | None] | None:
    """(state, figure, edition or None) of a corpus name such as xue/2@benyi; None if `name` is
    not a corpus name (notation, a file, or anything else)."""
    text = name.strip()
    match = _NAME.match(text)
    if not match or match["state"].strip().casefold() not in STATE_SPELLINGS:
        return None
    state = STATE_SPELLINGS[match["state"].strip().casefold()]
    figure_text = (match["figure"] or "1").strip()
    if figure_text not in {str(f) for f in FIGURES}:
        raise ScoreNotFoundError(
            _("unknown figure {figure!r} in {name!r}; the texts have figures 1 and 2").format(
                figure=figure_text, name=text
            ),
            key="unknown_figure",
        )
    return state, int(figure_text), match["edition"]


def _from_corpus(state: str, figure: int, edition_name: str | None) -> Score:
    edition = find_edition(edition_name or DEFAULT_EDITION)
    score = edition.score(state, figure)
    if score is None:
        have = list_text(s.key for s in edition.scores) or _("none")
        raise ScoreNotFoundError(
            _("{edition} has no figure {figure} for {state}; it has: {have}").format(
                edition=edition.name, figure=figure, state=state, have=have
            ),
            key="no_figure",
        )
    return score


def _from_file(path: Path) -> Score:
    if path.suffix == ".toml":
        edition = load_edition(path)
        if not edition.scores:
            raise ScoreNotFoundError(
                _("score file {path!r} holds no [[score]] entries").format(path=str(path))
            )
        return edition.scores[0]
    data = read_input(path, "notation file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise EncodingError(
            _("{path!r} is not UTF-8 text; save it as UTF-8 or use 'drumscore extract'").format(
                path=str(path)
            )
        ) from None
    try:
        pattern = parse(text)
    except NotationError as exc:
        if _PASSAGE.search(text):
            raise NotationError(
                _(
                    "{path} is not notation: this looks like a passage of an edition (labels such "
                    "as 魯鼓, markup, notes or commentary beside the strokes)"
                ).format(path=path),
                hint=_("hint: use 'drumscore extract {path}' to find the scores in it.").format(
                    path=path
                ),
            ) from None
        raise NotationError(
            _("{where}: {reason}").format(where=path, reason=exc.reason),
            text=exc.text,
            line=exc.line,
            column=exc.column,
            hint=exc.hint,
        ) from None
    return Score(pattern, printed=text)


#: What a passage of an edition has and a notation file has not: a label, a Kanripo header or
#: line mark, a page-break tag, an interlinear note.
_PASSAGE = re.compile(
    r"[魯鲁薛辥辪][ \u3000]?[鼓鼔皷]|^#\s*\w+:|¶|<pb:|[(（【][^()（）【】]*[)）】]", re.M
)
