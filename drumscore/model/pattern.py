"""The signs and the pattern: the drums (○ 鼙, □ 鼓) and 半, the states, the sections, where a
character stands, and the pattern of strokes the parser reads."""

from __future__ import annotations

import bisect
import enum
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass

from drumscore.errors import OptionError
from drumscore.i18n import (
    N_,
    _,
    aside,
    list_text,
    pgettext,
    quoted,
    written,
)


class Drum(enum.Enum):
    """The two drums. 鄭注: 圜者擊鼙，方者擊鼓 — a circle strikes 鼙, a square strikes 鼓."""

    PI = "鼙"
    GU = "鼓"

    @property
    def symbol(self) -> str:
        """The drum's glyph, from the one table SYMBOLS: ○ for 鼙, □ for 鼓."""
        return SYMBOLS[self]

    @classmethod
    def of_symbol(cls, symbol: str) -> Drum:
        """The drum a canonical glyph (○ or □) strikes, from SYMBOLS."""
        return next(drum for drum, glyph in SYMBOLS.items() if glyph == symbol)

    @property
    def pinyin(self) -> str:
        return "pi" if self is Drum.PI else "gu"

    @classmethod
    def parse(cls, text: str, option: str = "drum") -> Drum:
        """The drum `text` names: 鼙, pi or ○; 鼓, gu or □ (case and spaces ignored)."""
        key = str(text).strip().casefold()
        for drum in cls:
            if key in (drum.value, drum.pinyin, drum.symbol):
                return drum
        raise OptionError(
            _("{option} {value!r} is no drum; write 鼙 (pi, ○) or 鼓 (gu, □)").format(
                option=option, value=str(text)[:40]
            ),
            option=option,
            key="no_drum",
        )


#: The one glyph table of the drums (鄭注: 圜者擊鼙，方者擊鼓): ○ strikes 鼙, □ strikes 鼓.
SYMBOLS: dict[Drum, str] = {Drum.PI: "○", Drum.GU: "□"}
#: The mark that divides a pattern (U+534A).
HALF = "半"


class State(enum.StrEnum):
    """The two states whose drum patterns the text records. A State is its character: 魯 or 薛."""

    LU = "魯"
    XUE = "薛"

    @property
    def slug(self) -> str:
        """The name typed in a score's name: lu or xue."""
        return _STATE_TABLE[self][0]

    @property
    def spellings(self) -> tuple[str, ...]:
        """Every way the texts write it, the standard character first."""
        return _STATE_TABLE[self][1]

    @classmethod
    def parse(cls, text: str) -> State:
        """The state that `text` spells (魯, 鲁, lu, 薛, 辥, 辪, xue; case and spaces ignored)."""
        state = STATE_SPELLINGS.get(str(text).strip().casefold())
        if state is None:
            raise OptionError(
                _("state {value!r} is neither 魯 (lu) nor 薛 (xue); write one of {names}").format(
                    value=text, names=list_text(STATE_SPELLINGS)
                ),
                option="state",
            )
        return state


#: The one table of the states: each one's slug and its spellings in the texts.
_STATE_TABLE: dict[State, tuple[str, tuple[str, ...]]] = {
    State.LU: ("lu", ("魯", "鲁")),
    State.XUE: ("xue", ("薛", "辥", "辪")),
}
#: Every spelling, the slugs included, and the state it stands for (made from the table).
STATE_SPELLINGS: dict[str, State] = {
    spelling: state
    for state, (slug, spellings) in _STATE_TABLE.items()
    for spelling in (*spellings, slug)
}
#: The slug of each state, by its character (made from the table).
STATE_SLUGS: dict[str, str] = {state.value: state.slug for state in State}


class Section(enum.Enum):
    """Which strokes of a pattern to play, relative to the 半 mark (names: SECTION_TABLE)."""

    TOUHU = "touhu"  # 投壺: 取半以下 — the strokes after 半
    SHE = "she"  # 射: 盡用之 — the whole pattern
    HEAD = "head"  # the strokes before 半

    @classmethod
    def parse(cls, value: str | Section) -> Section:
        """The section `value` names: touhu, she, head, or a spelling of the table (投壺, 射)."""
        if isinstance(value, Section):
            return value
        found = SECTION_SPELLINGS.get(value)
        if found is None:
            names = list_text(quoted(s.value) for s in cls)
            raise OptionError(
                _("unknown section {value!r}; choose one of {names}").format(
                    value=value, names=names
                )
            )
        return found

    @classmethod
    def in_order(cls) -> tuple[Section, ...]:
        """The sections in the order they are shown everywhere: head, touhu, she."""
        return SECTION_ORDER

    @property
    def rite(self) -> str:
        """The rite the text names the section for: 投壺, 射, or "" (the strokes before 半)."""
        return written(SECTION_TABLE[self].rite)

    @property
    def span(self) -> str:
        """Where its strokes stand, in the reader's language: after 半, the whole, before 半."""
        return _(SECTION_TABLE[self].span)

    @property
    def shown(self) -> str:
        """Its name as every view shows it, in the reader's language (the glossary of
        docs/languages.md): touhu, she, head in English; 投壺, 射, 半以前 in Chinese. The id
        (`value`) is what JSON, file names and the command line keep."""
        return _section_name(self)

    @property
    def label(self) -> str:
        """Its characters then its name, such as 投壺 touhu (a MIDI marker, a plot's label); the
        name alone where the reader's language names it by its characters (投壺)."""
        if self.shown != self.value or not self.rite:
            return self.shown
        return f"{self.rite} {self.value}"

    @property
    def heading(self) -> str:
        """Its name then its characters, such as touhu 投壺 (a table's column); the name alone
        where the reader's language names it by its characters (投壺)."""
        if self.shown != self.value or not self.rite:
            return self.shown
        return f"{self.value} {self.rite}"

    @property
    def description(self) -> str:
        """Its characters and its strokes in the reader's language, such as 投壺 (the strokes
        after 半)."""
        strokes = _(SECTION_TABLE[self].strokes)
        if not self.rite:
            return strokes
        return _("{rite} ({strokes})").format(rite=self.rite, strokes=strokes)

    @property
    def gloss(self) -> str:
        """What its name leaves unsaid, beside the name in a table: 投壺 (the strokes after 半)
        beside touhu, the strokes alone beside 投壺."""
        if self.shown == self.value:
            return self.description
        return _(SECTION_TABLE[self].strokes)

    @property
    def help(self) -> str:
        """What the section option's help says of it, in the reader's language: touhu: 投壺, the
        strokes after 半."""
        strokes = _(SECTION_TABLE[self].strokes)
        if not self.rite:
            return _("{name}: {strokes}").format(name=self.value, strokes=strokes)
        return _("{name}: {rite}, {strokes}").format(
            name=self.value, rite=self.rite, strokes=strokes
        )


@dataclass(frozen=True, slots=True)
class SectionNames:
    """How a section is named: the rite's characters, its strokes, where they stand, and the
    other spellings read as it."""

    rite: str
    strokes: str
    span: str
    spellings: tuple[str, ...] = ()


#: The one table of the sections' names, in characters and words (取半以下為投壺禮，盡用之為射禮);
#: the words are in English, marked for the catalogs and translated where they are shown.
SECTION_TABLE: dict[Section, SectionNames] = {
    Section.TOUHU: SectionNames(
        "投壺", N_("the strokes after 半"), N_("after 半"), ("投壺", "投壶")
    ),
    Section.SHE: SectionNames("射", N_("the whole pattern"), N_("the whole"), ("射", "all")),
    Section.HEAD: SectionNames("", N_("the strokes before 半"), N_("before 半")),
}


def _section_name(section: Section) -> str:
    """The one table of the names the views give the sections, each language's in its catalog."""
    if section is Section.TOUHU:
        # TRANSLATORS: the section after 半, named as the views name it (the glossary: 投壺)
        return pgettext("the name of a section", "touhu")
    if section is Section.SHE:
        # TRANSLATORS: the whole pattern, named as the views name it (the glossary: 射)
        return pgettext("the name of a section", "she")
    # TRANSLATORS: the strokes before 半, named as the views name it (the glossary: 半以前)
    return pgettext("the name of a section", "head")


#: Every name a section is read by, its own included (made from the table).
SECTION_SPELLINGS: dict[str, Section] = {
    spelling: section
    for section, names in SECTION_TABLE.items()
    for spelling in (section.value, *names.spellings)
}


#: The one order in which sections are listed (tables, JSON, comparisons): the strokes before 半,
#: the strokes after it, then the whole.
SECTION_ORDER: tuple[Section, ...] = (Section.HEAD, Section.TOUHU, Section.SHE)


@dataclass(frozen=True, slots=True)
class Position:
    """Where a character stands in the text: offset (0-based), line and column (1-based)."""

    offset: int
    line: int
    column: int

    @classmethod
    def at(cls, offset: int, starts: Sequence[int]) -> Position:
        """The position of `offset`, given the offsets at which the text's lines start
        (line_starts): the one line count of the notation, a passage and a caret."""
        line = bisect.bisect_right(starts, offset)
        return cls(offset, line, offset - starts[line - 1] + 1)


#: What ends a line, as str.splitlines has it (a CR LF pair is one line break).
LINE_BREAKS = frozenset("\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
_LINE_BREAK = re.compile("\r\n|[" + "".join(sorted(LINE_BREAKS)) + "]")


def line_starts(text: str) -> array[int]:
    """The offsets at which the lines of `text` start, lines broken where str.splitlines breaks
    them (one machine word a line): with Position.at, where any offset stands."""
    starts = array("q", [0])
    starts.extend(m.end() for m in _LINE_BREAK.finditer(text))
    return starts


def line_text(text: str, starts: Sequence[int], line: int) -> str:
    """Line `line` (from 1) of `text` without its line break ('' past the last line), as
    str.splitlines gives it."""
    if not 0 < line <= len(starts):
        return ""
    start = starts[line - 1]
    end = starts[line] if line < len(starts) else len(text)
    found = _LINE_BREAK.search(text, start, end)
    return text[start : found.start() if found else end]


@dataclass(frozen=True, slots=True)
class Stroke:
    """One stroke: which drum, its index in the pattern, and the character it was read from."""

    drum: Drum
    index: int
    pos: Position | None = None


@dataclass(frozen=True, slots=True)
class Counts:
    """Strokes on each drum."""

    pi: int
    gu: int

    @property
    def total(self) -> int:
        return self.pi + self.gu

    def __str__(self) -> str:
        return f"○{self.pi} □{self.gu}"

    def to_data(self) -> dict[str, int]:
        """The counts as JSON-ready data: strokes, pi (○ 鼙) and gu (□ 鼓)."""
        return {"strokes": self.total, "pi": self.pi, "gu": self.gu}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A drum pattern: its strokes in order and where 半 falls.

    `half` is the number of strokes before 半 (so the 投壺 section starts at stroke `half`), or
    None for a pattern written without 半.
    """

    strokes: tuple[Stroke, ...]
    half: int | None = None
    half_pos: Position | None = None
    text: str = ""

    def section(self, section: Section | str) -> tuple[Stroke, ...]:
        """The strokes of one section; a pattern without 半 has only the whole (she)."""
        section = Section.parse(section)
        if section is Section.SHE:
            return self.strokes
        if self.half is None:
            raise OptionError(
                _(
                    "this pattern has no 半 mark, so it has no {name!r} section; "
                    "use the section she (the whole pattern)"
                ).format(name=section.value),
                option="section",
            )
        if section is Section.TOUHU:
            return self.strokes[self.half :]
        return self.strokes[: self.half]

    def counts(self, section: Section | str = Section.SHE) -> Counts:
        strokes = self.section(section)
        pi = sum(1 for s in strokes if s.drum is Drum.PI)
        return Counts(pi=pi, gu=len(strokes) - pi)

    def sections(self) -> tuple[Section, ...]:
        """The sections this pattern has, in SECTION_ORDER."""
        return SECTION_ORDER if self.half is not None else (Section.SHE,)

    def side(self, index: int) -> Section:
        """The part stroke `index` (of the whole pattern, from 0) belongs to: the strokes before
        半 (head) or 投壺's, from 半 on (touhu); the whole (she) in a pattern without 半."""
        if self.half is None:
            return Section.SHE
        return Section.HEAD if index < self.half else Section.TOUHU

    def side_label(self, index: int) -> str:
        """Where stroke `index` stands, in the reader's language, as play, its big display and
        the page all say it: before 半, after 半 (投壺), or 射 in a pattern without 半."""
        section = self.side(index)
        if section is Section.SHE:
            return section.rite
        return aside(section.span, section.rite) if section.rite else section.span

    @property
    def notation(self) -> str:
        """The canonical notation: ○ and □ with 半 where it stands."""
        symbols = [s.drum.symbol for s in self.strokes]
        if self.half is not None:
            symbols.insert(self.half, HALF)
        return "".join(symbols)

    def __len__(self) -> int:
        return len(self.strokes)

    def __str__(self) -> str:
        """The notation, with 半 where it stands: str(parse("○□ 半 ○")) == "○□半○"."""
        return self.notation
