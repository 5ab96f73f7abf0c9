"""The sources: the works cited, where an edition's text comes from, the readings of the signs,
the stated counts, the scores and the editions that print them."""

from __future__ import annotations

import re
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
    chinese,
    each_language,
    language,
    list_text,
    numeral,
    pgettext,
    ranges,
    speaking,
    tags,
    written,
)
from drumscore.model.pattern import Drum, Pattern, Section, State, Stroke

#: The parts of a cited work, in the order a citation names them (Work).
WORK_PARTS = ("author", "title", "juan", "chapter", "part", "collection", "copy")
#: A printing an old edition file names in its one string of the work: 四庫全書文淵閣本.
_PRINTING = re.compile(r"(?P<collection>四庫全書|四部叢刊)(?P<copy>\S*?)本")


@dataclass(frozen=True, slots=True)
class Work:
    """A work as a citation names it, by its parts: the author (蔡德晉), the title (禮記注疏), the
    卷 (卷五十八), the chapter (投壺), the layer of the text cited (鄭玄注), and the printing:
    the collection (四庫全書) and its copy (文淵閣). `cited` composes them in the reader's
    language: 《禮記注疏》卷五十八〈投壺〉，文淵閣《四庫全書》本 in 繁體, the same in
    simplified characters in 简体, and the parts one after the other in English (禮記注疏
    卷五十八 投壺 四庫全書文淵閣本)."""

    title: str
    author: str = ""
    juan: str = ""
    chapter: str = ""
    part: str = ""
    collection: str = ""
    copy: str = ""

    @classmethod
    def of(cls, value: str | dict[str, Any] | Work) -> Work:
        """A Work from an edition file's `work`: a table of its parts, or (an older file) one
        string of them, space-separated in citation order (蔡德晉 禮經本義 投壺, 禮記注疏
        卷五十八 投壺 四庫全書文淵閣本): the token that starts with 卷 is the 卷, a
        四庫全書…本 or 四部叢刊…本 the printing; before the 卷 the title, after an author;
        after it the chapter. Without a 卷, three tokens are author, title and chapter, two
        title and chapter."""
        if isinstance(value, Work):
            return value
        if isinstance(value, dict):
            return cls(**{k: str(value.get(k, "")) for k in WORK_PARTS})
        tokens = value.split()
        found: dict[str, str] = {}
        rest = []
        for token in tokens:
            printing = _PRINTING.fullmatch(token)
            if printing:
                found.update(printing.groupdict())
            elif token.startswith("卷") and "juan" not in found:
                found["juan"] = token
                rest.append("|")
            else:
                rest.append(token)
        if "|" in rest:
            at = rest.index("|")
            before, after = rest[:at], rest[at + 1 :]
        else:
            before = rest[:-1] if len(rest) > 1 else rest
            after = rest[-1:] if len(rest) > 1 else []
        if len(before) > 1:
            found["author"] = before[0]
            before = before[1:]
        found["title"] = " ".join(before)
        if after:
            found["chapter"] = " ".join(after)
        return cls(**found)

    def to_data(self) -> dict[str, str]:
        """The parts it has, as an edition file writes them."""
        return {k: getattr(self, k) for k in WORK_PARTS if getattr(self, k)}

    @property
    @each_language
    def cited(self) -> str:
        """The work as the reader's language cites it: in Chinese the title in 《》, the chapter
        in 〈〉, the printing after a comma as 文淵閣《四庫全書》本 (in simplified characters in
        简体); in English the parts as the edition names them, one after the other."""
        # TRANSLATORS: a book's title in a citation (Chinese: in 書名號 《》)
        parts = [self.author, pgettext("a cited title", "{title}").format(title=self.title)]
        parts.append(self.juan)
        if self.chapter:
            # TRANSLATORS: a chapter's name in a citation (Chinese: in 篇名號 〈〉)
            parts.append(pgettext("a cited chapter", "{chapter}").format(chapter=self.chapter))
        parts.append(self.part)
        text = ""
        for part in filter(None, parts):
            # TRANSLATORS: two parts of a cited work one after the other (Chinese: no space)
            text = (
                pgettext("the parts of a cited work", "{text} {then}").format(text=text, then=part)
                if text
                else part
            )
        if self.collection:
            # TRANSLATORS: the printing of a cited work: its collection and the copy of it
            # (四庫全書, 文淵閣); Chinese writes 文淵閣《四庫全書》本
            printing = pgettext("a cited printing", "{collection}{copy}本").format(
                collection=self.collection, copy=self.copy
            )
            # TRANSLATORS: a cited work and its printing (Chinese: after a full-width comma)
            text = pgettext("a cited work and its printing", "{work} {printing}").format(
                work=text, printing=printing
            )
        return written(text)

    @property
    def named(self) -> str:
        """The work named by its author and title alone, as a sentence names the book it quotes
        (衛湜《禮記集說》; in English 衛湜 禮記集說)."""
        title = pgettext("a cited title", "{title}").format(title=self.title)
        if not self.author:
            return written(title)
        return written(
            pgettext("the parts of a cited work", "{text} {then}").format(
                text=self.author, then=title
            )
        )

    def __str__(self) -> str:
        return self.cited


def _joined(parts: Sequence[str]) -> str:
    """The parts of a citation one after the other, as the reader's language joins them."""
    text = parts[0]
    for part in parts[1:]:
        # TRANSLATORS: a citation and its next part (page, repository, file, lines)
        text = _("{citation}, {part}").format(citation=text, part=part)
    return text


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
    #: The work, by its parts (Work: title, 卷, chapter, printing), cited in the reader's language.
    work: Work | None = None
    page: str = ""
    #: The file of the Kanseki Repository that holds the text (KR1d0053_058.txt).
    kanripo_file: str = ""
    #: The file of a transcription the text was read from, where it has no Kanripo file.
    transcription: str = ""

    @property
    @each_language
    def citation(self) -> str:
        """The citation in the reader's language, composed from its parts: "禮經本義, Kanseki
        Repository KR1d0044, file KR1d0044_017.txt, lines 141-155"; the written one where the
        edition file gives no work."""
        if self.work is None:
            return written(self.written)
        text = _joined([self.work.cited, *self._places()])
        if self.transcription:
            text = _("{citation} (transcription {file})").format(
                citation=text, file=self.transcription
            )
        return text

    @property
    def citation_lines(self) -> tuple[str, str]:
        """The citation on a narrow page, as the staff's head prints it: the work, then where in
        it (page, Kanripo id, file and lines, or the transcription), each in the reader's
        language; a citation written whole and nothing under it where the file gives no work.
        Always two lines, so that one engraving serves every score of the same music."""
        if self.work is None:
            return (self.citation, "")
        places = self._places()
        where = _joined(places) if places else ""
        if self.transcription:
            where = _("{citation} (transcription {file})").format(
                citation=where, file=self.transcription
            )
        return (self.work.cited, where.strip())

    def _places(self) -> list[str]:
        """The parts of the citation after the work: page, repository, file and lines."""
        parts = []
        if self.page:
            parts.append(_("p.{page}").format(page=self.page))
        if self.kanripo:
            parts.append(_("Kanseki Repository {id}").format(id=self.kanripo))
        if self.kanripo_file:
            parts.append(_("file {file}").format(file=self.kanripo_file))
        if self.lines and not self.transcription:  # a transcription's lines are its own
            parts.append(_("lines {lines}").format(lines=ranges(self.lines)))
        return parts

    @property
    def licence_shown(self) -> str:
        """The licence as the edition files give it, "CC BY-SA 4.0 (Kanseki Repository)", with
        its holder in the reader's parentheses (every view shows it so)."""
        found = re.fullmatch(r"(.+?) \((.+)\)", self.licence)
        return aside(found[1], found[2]) if found else self.licence

    def to_data(self) -> dict[str, Any]:
        """The provenance as JSON-ready data: the citation in the reader's language, then the
        parts it has (work by its parts, Kanripo id, file, lines, commit, licence…)."""
        parts = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "written"}
        found: dict[str, Any] = {k: v for k, v in parts.items() if v}
        if self.work is not None:
            found["work"] = self.work.to_data()
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
    #: The commentator and his work (鄭玄《禮記注》), cited in the reader's language (str of it).
    name: Work
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
    def shown(self) -> str:
        """The reading as a view lists it among what was played, as Section.shown names a
        section: in English its id, the command line's word (mao); in Chinese the name a summary
        cites it by (毛奇齡說), never the id in Chinese prose."""
        return self.named if chinese() else self.id

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
        卷十六 reads it (…)" (依毛奇齡《經問》卷十六…)."""
        return _("read as {name} reads it ({citation})").format(
            name=self.name.cited, citation=self.citation
        )

    @classmethod
    def parse(cls, text: str | None) -> Reading:
        """The reading named `text` (its id or name, e.g. mao or 毛奇齡); 鄭玄's when None."""
        if text is None:
            return READINGS[0]
        key = str(text).strip().casefold()
        for reading in READINGS:
            named = {reading.id, reading.name.author, str(reading.name).casefold()}
            with speaking("en"):
                named.add(str(reading.name).casefold())
            if key in named:
                return reading
        raise OptionError(
            _("reading {value!r} is not known; the readings are {names}").format(
                value=str(text)[:40],
                names=list_text(aside(r.id, str(r.name)) for r in READINGS),
            ),
            option="reading",
        )


#: The readings of the signs that the sources state. 鄭玄's, the one the corpus and every edition
#: follow, is the default.
READINGS: tuple[Reading, ...] = (
    Reading(
        "zheng",
        Work("禮記注", author="鄭玄"),
        Provenance(
            work=Work("禮記注疏", juan="卷五十八", chapter="投壺", part="鄭玄注"),
            kanripo="KR1d0053",
            kanripo_file="KR1d0053_058.txt",
        ),
        "圜者擊鼙，方者擊鼓",
        (("○", Drum.PI), ("□", Drum.GU)),
        N_("reading: 鄭玄 (zheng)"),
    ),
    Reading(
        "mao",
        Work("經問", author="毛奇齡", juan="卷十六"),
        Provenance(
            work=Work("經問", author="毛奇齡", juan="卷十六"),
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
        """A readable title in the reader's language: edition · 魯鼓 · figure N in English,
        《禮記注疏》魯鼓第一圖 in Chinese; `key` is what names the score uniquely."""
        if not self.edition_name:
            return _("notation {notation}").format(notation=self.pattern.notation)
        # TRANSLATORS: a score's title (Chinese: 《禮記注疏》魯鼓第一圖, the figure in numerals)
        return _("{edition} · {state}鼓 · figure {figure}").format(
            edition=self.edition_cited,
            state=written(str(self.state)),
            figure=self.figure if self.figure is None else numeral(self.figure),
        )

    @property
    def edition_cited(self) -> str:
        """The edition's name with its book's title marked as a citation marks it: in Chinese
        陳澔《禮記集說》, 《禮經本義》（四庫全書本）, the whole name in 《》 where the name does not
        hold the title of its work; in English the name as it is."""
        name = self.edition_name
        if not name:
            return ""
        work = self.source.work if self.source else None
        title = work.title if work and work.title and work.title in name else name
        marked = pgettext("a cited title", "{title}").format(title=title)
        return written(name.replace(title, marked, 1))

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
