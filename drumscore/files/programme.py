"""Programme files: a TOML file (or a built-in programme by name) of items played in order.

A programme names a title and citation and an [[item]] table per item: its label, the score
(`{state}` in it stands for the state chosen), its section, tempo, repeats or duration, count-in
and the pause after it. The title, citation and labels are one text, or a table of texts by
language (en, zh-Hant, zh-Hans) as an edition file gives its note (model.Wording), each shown in
the reader's language. load_programme reads one into the conductor.track.Track that the
conductor plays.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

from drumscore.conductor.duration import parse_duration
from drumscore.conductor.expression import Expression
from drumscore.conductor.timeline import arrange, check_length
from drumscore.conductor.track import Item, Practice, Track, check_count_in
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError, InputMissingError, OptionError, ProgrammeError
from drumscore.files.reading import check_schema, parse_toml, read_input_text
from drumscore.i18n import LANGUAGES, _, clause_text, list_text, pgettext, speaking, tags
from drumscore.model import STATE_SLUGS, STATE_SPELLINGS, State, Wording
from drumscore.timing import Tempo

#: The built-in programmes, by name: drumscore/programmes/NAME.toml.
PROGRAMMES_DIR = Path(__file__).parents[1] / "programmes"
ITEM_KEYS = (
    "label",
    "score",
    "section",
    "bpm",
    "interval",
    "repeats",
    "duration",
    "count_in",
    "pause",
)
TOP_KEYS = ("title", "citation", "item")
#: A text of the programme's own (title, citation, an item's label): one text, or a table of
#: texts by language tag, as an edition file writes its note (corpus.EDITION_SCHEMA).
_TEXT = (str, {tag: str for tag in tags()})
#: What a programme file holds (see files.reading.check_schema); each item's other keys are
#: checked as the item is read.
PROGRAMME_SCHEMA = {"title": _TEXT, "citation": _TEXT, "item": [{"label": _TEXT}]}
#: What {state} in a programme's score names stands for when no state is given.
DEFAULT_STATE = State.LU.slug


def builtin_programmes() -> list[str]:
    """The names of the built-in programmes."""
    return sorted(p.stem for p in PROGRAMMES_DIR.glob("*.toml"))


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):  # a name too long to be a file
        return False


def _programme_text(name: str) -> tuple[str, str]:
    """(text, where) of a programme file, or of a built-in programme by name."""
    path = Path(name)
    builtin = PROGRAMMES_DIR / f"{name}.toml"
    if not _is_file(path) and "/" not in name and _is_file(builtin):
        path = builtin
    try:
        where = _("programme {name!r}").format(name=str(name))
        return read_input_text(path, "programme file"), where
    except InputMissingError as exc:
        hint = _("give a TOML file or a built-in programme: {known}")
        raise ProgrammeError(
            clause_text([str(exc), hint.format(known=list_text(builtin_programmes()))])
        ) from None


def _seconds(value: object, what: str, where: str, zero: bool) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise ProgrammeError(
            _("{where}: {key} must be a time such as 10s or 2m, not {value!r}").format(
                where=where, key=what, value=value
            )
        )
    if zero and value in (0, "0", "0s"):
        return Fraction(0)
    try:
        return parse_duration(str(value))
    except OptionError as exc:
        raise ProgrammeError(
            _("{where}: {key}: {reason}").format(
                where=where, key=what, reason=str(exc).removeprefix("duration ")
            )
        ) from None


def load_programme(
    name: str,
    *,
    state: str | None = None,
    tempo: Tempo | None = None,
    count_in: int | None = None,
    expression: Expression | None = None,
    practice: Practice | None = None,
) -> Track:
    """The track a programme file (or built-in programme) describes.

    Each [[item]] names a score (`{state}` stands for `state`), and may give section, bpm or
    interval, repeats or duration, count_in and pause (after the item). `tempo` and `count_in`
    serve the items that give none; `practice` (clicks, silent passes…) serves every item.
    """
    text, where = _programme_text(name)
    data = parse_toml(text, where, ProgrammeError)
    check_schema(data, PROGRAMME_SCHEMA, where, ProgrammeError)
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise ProgrammeError(
            _("{where}: unknown key {key!r}; a programme has {keys} and [[item]] tables").format(
                where=where, key=unknown[0], keys=list_text(TOP_KEYS[:2])
            )
        )
    entries = data.get("item")
    if (
        not isinstance(entries, list)
        or not entries
        or not all(isinstance(e, dict) for e in entries)
    ):
        raise ProgrammeError(
            _("{where} needs one or more [[item]] tables, each with score = ...").format(
                where=where
            )
        )
    slug = None
    if state is not None:
        spelled = STATE_SPELLINGS.get(state.strip().casefold())
        if spelled is None:
            choose = _(" or ").join(s.slug for s in State)
            raise ProgrammeError(
                _("state {value!r} is not known; choose {names}").format(value=state, names=choose),
                option="state",
            )
        slug = STATE_SLUGS[spelled]
    uses_state = False
    items = []
    so_far = Fraction(0)  # the whole job's length: refused at the item that passes the limit
    for number, entry in enumerate(entries, 1):
        at = _("{where}, item {number}").format(where=where, number=number)
        bad = sorted(set(entry) - set(ITEM_KEYS))
        if bad:
            raise ProgrammeError(
                _("{where}: unknown key {key!r}; use {keys}").format(
                    where=at, key=bad[0], keys=list_text(ITEM_KEYS)
                )
            )
        score_name = entry.get("score")
        if not isinstance(score_name, str) or not score_name.strip():
            raise ProgrammeError(
                _('{where}: score = "lu/1" (a score\'s name or notation) is missing').format(
                    where=at
                )
            )
        if "{state}" in score_name:
            uses_state = True
            score_name = score_name.replace("{state}", slug or DEFAULT_STATE)
        try:
            item_tempo = tempo
            if "bpm" in entry or "interval" in entry:
                item_tempo = Tempo.from_options(entry.get("bpm"), entry.get("interval"))
            repeats = entry.get("repeats", 1)
            duration = None
            if "duration" in entry:
                if "repeats" in entry:
                    raise ProgrammeError(
                        _("{where}: give repeats or duration, not both").format(where=at)
                    )
                duration = _seconds(entry["duration"], "duration", at, zero=False)
            timeline = arrange(
                resolve(score_name),
                entry.get("section"),
                item_tempo,
                repeats,
                expression,
                duration,
            )
            counted = check_count_in(entry.get("count_in", count_in))
        except ProgrammeError:
            raise
        except DrumscoreError as exc:
            raise ProgrammeError(_("{where}: {reason}").format(where=at, reason=exc)) from None
        pause = _seconds(entry.get("pause", 0), "pause", at, zero=True)
        if "label" in entry:
            label = _wording(entry["label"], _("{where}: label").format(where=at))
        else:
            label = _in_each_language(functools.partial(_default_label, number))
        items.append(Item(timeline, counted, pause, label, practice or Practice()))
        so_far += items[-1].seconds
        check_length(
            so_far,
            _(" by item {number} of {where}, count-ins and pauses included").format(
                number=number, where=where
            ),
        )
    if slug is not None and not uses_state:
        raise ProgrammeError(
            _(
                "state {value!r} does nothing here: {where} names its scores itself "
                "(no {{state}} in them); leave it out"
            ).format(value=state, where=where),
            option="state",
        )
    title = _wording(data.get("title", Path(name).stem), _("{where}: title").format(where=where))
    if uses_state:
        title = _with_state(title, slug or DEFAULT_STATE)
    citation = _wording(data.get("citation", ""), _("{where}: citation").format(where=where))
    return Track(tuple(items), title=title, citation=citation)


def _wording(value: object, where: str) -> Wording:
    """A title, citation or label as the file gives it: one text, or a table by language."""
    try:
        return Wording.of(value if isinstance(value, dict) else str(value), where)
    except OptionError as exc:
        raise ProgrammeError(str(exc)) from None


def _state_name(slug: str) -> str:
    """The drums of a state as a programme's title names them: lu (魯鼓), xue (薛鼓)."""
    if slug == State.XUE.slug:
        # TRANSLATORS: the drums of the state 薛, after a programme's title
        return pgettext("the drums of a state", "xue")
    # TRANSLATORS: the drums of the state 魯, after a programme's title
    return pgettext("the drums of a state", "lu")


def _default_label(number: int) -> str:
    """The label of an item the file gives none: item 2 (第 2 項)."""
    # TRANSLATORS: the label of a programme's item that its file gives no label
    return pgettext("a programme item's label", "item {number}").format(number=number)


def _with_state(title: Wording, slug: str) -> Wording:
    """The title with the state its scores are of, in each language: "… (lu)", 「…・魯鼓」."""

    def shown() -> str:
        # TRANSLATORS: a programme's title and the state whose drums it plays
        said = pgettext("a programme's title and its state", "{title} ({state})")
        return said.format(title=title, state=_state_name(slug))

    return _in_each_language(shown)


def _in_each_language(make: Callable[[], str]) -> Wording:
    """A text made in each language there is a catalog for, shown in the reader's."""
    texts = []
    for catalog in LANGUAGES:
        with speaking(catalog):
            texts.append((catalog, make()))
    return Wording(tuple(texts))
