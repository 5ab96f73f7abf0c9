"""Programme files: a TOML file (or a built-in programme by name) of items played in order.

A programme names a title and citation and an [[item]] table per item: the score (`{state}` in it
stands for the state chosen), its section, tempo, repeats or duration, count-in and the pause
after it. load_programme reads one into the conductor.track.Track that the conductor plays.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from drumscore.conductor.duration import parse_duration
from drumscore.conductor.expression import Expression
from drumscore.conductor.timeline import arrange, check_length
from drumscore.conductor.track import Item, Practice, Track, check_count_in
from drumscore.corpus import resolve
from drumscore.errors import DrumscoreError, InputMissingError, OptionError, ProgrammeError
from drumscore.files.reading import check_schema, parse_toml, read_input_text
from drumscore.i18n import _, clause_text, list_text
from drumscore.model import STATE_SLUGS, STATE_SPELLINGS, State
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
    check_schema(data, {}, where, ProgrammeError)  # depth and sizes; the items are checked below
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
        label = entry.get("label", f"item {number}")  # data: a cue's label in the file
        items.append(Item(timeline, counted, pause, str(label), practice or Practice()))
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
    state_word = f" ({slug or DEFAULT_STATE})" if uses_state else ""
    title = str(data.get("title", Path(name).stem)) + state_word
    return Track(tuple(items), title=title, citation=str(data.get("citation", "")))
