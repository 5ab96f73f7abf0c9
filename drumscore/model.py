"""The immutable data model: the parser produces it, every renderer reads it."""

from __future__ import annotations

import bisect
import enum
import re
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from drumscore.errors import OptionError
from drumscore.i18n import (
    LANGUAGES,
    N_,
    _,
    aside,
    catalog_for,
    language,
    list_text,
    pgettext,
    tags,
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
            names = list_text(repr(s.value) for s in cls)
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


@dataclass(frozen=True, slots=True)
class Provenance:
    """Where an edition's text comes from, precise enough to cite: its parts (the work, page,
    Kanripo id, file and lines, a transcription's file), which `citation` says in the reader's
    language, or a citation as an edition file writes it (`written`, in one language)."""

    written: str = ""
    #: The local copy of the text (a file of tests/sources, or the file extract read).
    file: str = ""
    kanripo: str = ""
    lines: str = ""
    commit: str = ""
    licence: str = ""
    #: The work as it is cited, in its own characters (禮記注疏 卷五十八 投壺, 四庫全書 文淵閣本).
    work: str = ""
    page: str = ""
    #: The file of the Kanseki Repository that holds the text (KR1d0053_058.txt).
    kanripo_file: str = ""
    #: The file of a transcription the text was read from, where it has no Kanripo file.
    transcription: str = ""

    @property
    def citation(self) -> str:
        """The citation in the reader's language, composed from its parts: "禮經本義, Kanseki
        Repository KR1d0044, file KR1d0044_017.txt, lines 141-155"; the written one where the
        edition file gives no work."""
        if not self.work:
            return written(self.written)
        parts = [written(self.work)]
        if self.page:
            parts.append(_("p.{page}").format(page=self.page))
        if self.kanripo:
            parts.append(_("Kanseki Repository {id}").format(id=self.kanripo))
        if self.kanripo_file:
            parts.append(_("file {file}").format(file=self.kanripo_file))
        if self.lines and not self.transcription:  # a transcription's lines are its own
            parts.append(_("lines {lines}").format(lines=self.lines))
        text = parts[0]
        for part in parts[1:]:
            # TRANSLATORS: a citation and its next part (page, repository, file, lines)
            text = _("{citation}, {part}").format(citation=text, part=part)
        if self.transcription:
            text = _("{citation} (transcription {file})").format(
                citation=text, file=self.transcription
            )
        return text

    @property
    def licence_shown(self) -> str:
        """The licence as the edition files give it, "CC BY-SA 4.0 (Kanseki Repository)", with
        its holder in the reader's parentheses (every view shows it so)."""
        found = re.fullmatch(r"(.+?) \((.+)\)", self.licence)
        return aside(found[1], found[2]) if found else self.licence

    def to_data(self) -> dict[str, str]:
        """The provenance as JSON-ready data: the citation in the reader's language, then the
        parts it has (work, Kanripo id, file, lines, commit, licence…)."""
        parts = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "written"}
        found = {k: v for k, v in parts.items() if v}
        return {"citation": self.citation, **found} if self.citation else found


@dataclass(frozen=True, slots=True)
class Wording:
    """A text of an edition's data (its note, its date's basis) in each language it is given in,
    shown in the reader's: an edition file writes it once (in any language) or in each of en,
    zh-Hant and zh-Hans, and a language it lacks falls back to the text as written, then English,
    then the first given."""

    #: (catalog, text) pairs; the catalog "" for a text written without a language.
    texts: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, value: str | dict[str, Any] | Wording, option: str = "text") -> Wording:
        """A Wording from a text, or a table of texts by language (tag or catalog: zh-Hant,
        zh_Hans, en); a language that has no catalog is refused."""
        if isinstance(value, Wording):
            return value
        if isinstance(value, str):
            return cls((("", value),) if value else ())
        texts = []
        for name, text in value.items():
            catalog = catalog_for(name)
            if catalog is None:
                raise OptionError(
                    _(
                        "{option} gives a text in {language!r}, which drumscore does not speak; "
                        "write it under one of {tags}"
                    ).format(option=option, language=name, tags=list_text(tags())),
                    option=option,
                )
            if not isinstance(text, str):  # a key the schema does not name (zh_TW, C)
                shown = repr(text)
                raise OptionError(
                    _("{where}: {key} must be {expected}, not {value}").format(
                        where=option,
                        key=name,
                        expected=_("text"),
                        value=shown if len(shown) <= 40 else shown[:40] + "…",
                    ),
                    option=option,
                )
            if text:
                texts.append((catalog, text))
        return cls(tuple(texts))

    def __str__(self) -> str:
        found = dict(self.texts)
        for catalog in (language(), "", "en"):
            if found.get(catalog):
                return found[catalog]
        return self.texts[0][1] if self.texts else ""

    def __bool__(self) -> bool:
        return bool(self.texts)

    def to_data(self) -> str | dict[str, str]:
        """How an edition file writes it: the one text, or a table of texts by language tag."""
        if len(self.texts) == 1 and self.texts[0][0] == "":
            return self.texts[0][1]
        return {LANGUAGES[c][0] if c else "": t for c, t in self.texts}


@dataclass(frozen=True, slots=True)
class Reading:
    """How a commentator reads the signs: the drum each sign strikes, with the passage that says
    so and where it stands. The parser reads ○ and □ as 鄭玄 does; a reading is applied where a
    score's strokes are laid out to be played (conductor.timeline), so every output follows it."""

    id: str
    name: str
    #: Where the passage stands, precise enough to find it (edition, 卷, page, Kanripo lines).
    source: Provenance
    #: The passage, as the source prints it.
    passage: str
    #: Each sign and the drum it strikes.
    mapping: tuple[tuple[str, Drum], ...]
    #: How a summary cites it, marked for the catalogs (each script writes the name its way).
    said: str = ""

    @property
    def named(self) -> str:
        """The reading as a summary cites it, in the reader's language: "reading: 毛奇齡 (mao)";
        「毛奇齡說」 in Chinese."""
        return _(self.said)

    @property
    def is_default(self) -> bool:
        """Whether it is 鄭玄's, the reading every edition follows and an output may leave
        unsaid in its text (never in its data)."""
        return self is READINGS[0]

    def drum(self, stroke: Stroke) -> Drum:
        """The drum `stroke` strikes in this reading (the stroke's sign is its drum's symbol)."""
        sign = stroke.drum.symbol
        return next(d for g, d in self.mapping if g == sign)

    def sign(self, drum: Drum) -> str:
        """The sign (○ or □) that strikes `drum` in this reading: what a stroke on it was
        printed as, so that the written outputs show the sign and the drum apart."""
        return next(g for g, d in self.mapping if d is drum)

    def label(self, drum: Drum) -> str:
        """`drum` with the sign that strikes it in this reading: "鼙 ○" (鄭玄), "鼙 □" (毛奇齡)."""
        return f"{drum.value} {self.sign(drum)}"

    def strokes(self, strokes: tuple[Stroke, ...]) -> tuple[Stroke, ...]:
        """`strokes` with each on the drum this reading strikes."""
        if self.is_default:
            return strokes
        return tuple(Stroke(self.drum(s), s.index, s.pos) for s in strokes)

    @property
    def citation(self) -> str:
        """Where the passage stands, in the reader's language (Provenance.citation)."""
        return self.source.citation

    @property
    def read_as(self) -> str:
        """What a citation says of the reading, in the reader's language: "read as 毛奇齡 經問
        卷十六 reads it (…)"."""
        return _("read as {name} reads it ({citation})").format(
            name=written(self.name), citation=self.citation
        )

    @classmethod
    def parse(cls, text: str | None) -> Reading:
        """The reading named `text` (its id or name, e.g. mao or 毛奇齡); 鄭玄's when None."""
        if text is None:
            return READINGS[0]
        key = str(text).strip().casefold()
        for reading in READINGS:
            if key in (reading.id, reading.name.casefold()) or key == reading.name.split()[0]:
                return reading
        raise OptionError(
            _("reading {value!r} is not known; the readings are {names}").format(
                value=str(text)[:40],
                names=list_text(aside(r.id, written(r.name)) for r in READINGS),
            ),
            option="reading",
        )


#: The readings of the signs that the sources state. 鄭玄's, the one the corpus and every edition
#: follow, is the default.
READINGS: tuple[Reading, ...] = (
    Reading(
        "zheng",
        "鄭玄 禮記注",
        Provenance(
            work="禮記注疏 卷五十八 投壺 鄭玄 注",
            kanripo="KR1d0053",
            kanripo_file="KR1d0053_058.txt",
        ),
        "圜者擊鼙，方者擊鼓",
        (("○", Drum.PI), ("□", Drum.GU)),
        N_("reading: 鄭玄 (zheng)"),
    ),
    Reading(
        "mao",
        "毛奇齡 經問 卷十六",
        Provenance(
            work="毛奇齡 經問 卷十六",
            page="17a",
            kanripo="KR1g0022",
            kanripo_file="KR1g0022_016.txt",
            lines="298-299",
        ),
        "其半字以前皆射禮之節，半字以後則投壺之節，方者鞞皷，圓者大皷",
        (("○", Drum.GU), ("□", Drum.PI)),
        N_("reading: 毛奇齡 (mao)"),
    ),
)


@dataclass(frozen=True, slots=True)
class StatedCount:
    """A stroke count that a commentator states for one pattern and section (e.g. 徐伯魯's)."""

    by: str
    figure: int
    state: State
    section: Section
    pi: int
    gu: int
    quote: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.state, State):
            object.__setattr__(self, "state", State.parse(self.state))


@dataclass(frozen=True, slots=True)
class PrintedNote:
    """A note an edition prints inside a pattern (a collation note such as 吳澄本作○).

    `after` is the number of strokes before it; `line` the source line where it stands (0 if not
    known). It is a witness of its own, not part of the score.
    """

    after: int
    text: str
    line: int = 0


@dataclass(frozen=True, slots=True)
class Score:
    """A pattern together with what it is: its edition, figure (1 or 2) and state (魯 or 薛).

    A raw notation string from the user is a Score with no edition.
    """

    pattern: Pattern
    edition_id: str = ""
    edition_name: str = ""
    figure: int | None = None
    #: The State, or "" for notation that no label names.
    state: State | Literal[""] = ""
    printed: str = ""
    source: Provenance | None = field(default=None, compare=False)
    #: Notes printed inside the pattern, at their stroke positions.
    notes: tuple[PrintedNote, ...] = field(default=(), compare=False)
    #: The source lines the pattern stands on (Kanripo line numbers when known), e.g. "674-675".
    lines: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.state and not isinstance(self.state, State):
            object.__setattr__(self, "state", State.parse(self.state))

    @property
    def title(self) -> str:
        """A readable title in the reader's language, edition · 魯鼓 · figure N; `key` is what
        names the score uniquely."""
        if not self.edition_name:
            return _("notation {notation}").format(notation=self.pattern.notation)
        return _("{edition} · {state}鼓 · figure {figure}").format(
            edition=written(self.edition_name), state=written(str(self.state)), figure=self.figure
        )

    @property
    def key(self) -> str:
        """The name that finds this score again on the command line."""
        if not self.edition_id:
            return self.pattern.notation
        slug = self.state.slug if self.state else ""
        return f"{slug}/{self.figure}@{self.edition_id}"

    def to_data(self) -> dict[str, Any]:
        """The score as JSON-ready data, the one form that the JSON output, the site's pages and
        the notebook start from: what it is (None where raw notation has no edition), its
        notation and its counts per section (README, "Output details", lists the keys)."""
        pattern = self.pattern
        return {
            "key": self.key,
            "title": self.title,
            "edition": self.edition_id or None,
            "edition_name": self.edition_name or None,
            "figure": self.figure,
            "state": self.state or None,
            "notation": pattern.notation,
            "printed": self.printed or None,
            "half": pattern.half,
            "counts": {s.value: pattern.counts(s).to_data() for s in pattern.sections()},
        }


@dataclass(frozen=True, slots=True)
class Dating:
    """When an edition's text was made: a year, or the years between which it was, and why.

    `basis` says what the date rests on (the author's dates, a preface, a printing), so that a
    reader can weigh it.
    """

    earliest: int
    latest: int
    basis: Wording = Wording()

    def __post_init__(self) -> None:
        if self.latest < self.earliest:
            raise OptionError(
                _("date {first}-{last} ends before it begins; write the earlier year first").format(
                    first=self.earliest, last=self.latest
                ),
                option="date",
            )

    @property
    def text(self) -> str:
        """ "1748", or "1736-1748" for a range."""
        if self.earliest == self.latest:
            return str(self.earliest)
        return f"{self.earliest}-{self.latest}"

    @classmethod
    def parse(cls, text: str, basis: str | Wording = "") -> Dating:
        """A date written "1748" or "1736-1748" (a year before the common era written -200)."""
        match = re.fullmatch(r"\s*(-?[0-9]{1,4})\s*(?:[-–]\s*(-?[0-9]{1,4}))?\s*", str(text))
        if match is None:
            raise OptionError(
                _(
                    "date {value!r} is not a year or a range of years; write e.g. 1748 or 1736-1748"
                ).format(value=text),
                option="date",
            )
        first = int(match[1])
        return cls(first, int(match[2]) if match[2] else first, Wording.of(basis))

    def to_data(self) -> dict[str, Any]:
        """The date as JSON-ready data: the text, the two years and the basis (in the reader's
        language)."""
        return {
            "text": self.text,
            "earliest": self.earliest,
            "latest": self.latest,
            "basis": str(self.basis),
        }


@dataclass(frozen=True, slots=True)
class Edition:
    """One edition's printing of the drum figures, with its provenance and stated counts.

    `glyphs` are the signs its transcription draws strokes with beyond the glyph table (◍ for □),
    each with the stroke it stands for, so that `printed` stays as the text has it; `date` says
    when the text was made; `short` the name a Chinese view of the apparatus cites it by, as a
    校勘記 cites 閩本、監本、毛本 (drumscore.apparatus.names.cited).
    """

    id: str
    name: str
    script: str
    provenance: Provenance
    scores: tuple[Score, ...]
    counts: tuple[StatedCount, ...] = ()
    aliases: tuple[str, ...] = ()
    #: What the edition is and how it prints the figures, in each language given.
    note: Wording = Wording()
    path: str = field(default="", compare=False)
    #: True for an edition from the user's own corpus folders, not one that ships with drumscore.
    user: bool = field(default=False, compare=False)
    glyphs: tuple[tuple[str, str], ...] = ()
    date: Dating | None = None
    #: The short name Chinese scholarship cites it by (注疏本, 通解, 樂書卷三十五), per script.
    short: Wording = Wording()

    @property
    def date_key(self) -> tuple[int, int, str]:
        """The order of witnesses by date: by the year by which the text certainly existed (the
        end of its range), then the start; an undated edition comes after every dated one."""
        if self.date is None:
            return (10_000, 10_000, self.id)
        return (self.date.latest, self.date.earliest, self.id)

    def score(self, state: str, figure: int) -> Score | None:
        for score in self.scores:
            if score.state == state and score.figure == figure:
                return score
        return None
