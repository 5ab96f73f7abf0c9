"""One pass over a passage: typed tokens, each with where it stands in the file.

The kinds of text an edition comes in (Kanripo markup, punctuated modern editions, web pages,
simplified script, one stroke a line, whole 卷 files) differ only in the tables of this module:
which characters are strokes, labels, punctuation, note brackets and markup. The parser in
`extract` reads figures from the tokens and never looks at the characters again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from typing import NamedTuple

from drumscore import glyphs
from drumscore.errors import NotationError
from drumscore.i18n import _
from drumscore.model import HALF, STATE_SPELLINGS, Position, line_starts

# --- the tables ---------------------------------------------------------------------------------

#: The state characters of a label (魯鼓, 鲁鼓, 薛鼓, 辥鼓, 辪鼓) and what they read as.
STATE_CHARS: dict[str, str] = {c: s for c, s in STATE_SPELLINGS.items() if not c.isascii()}
#: The drum character of a label, and of the heading 鼓 before the first figure.
DRUM_CHARS = glyphs.DRUM_CHARS
#: Interlinear notes: ( … ) in Kanripo, （ … ） and 【 … 】 in modern and web texts.
NOTE_BRACKETS = glyphs.NOTE_BRACKETS
#: Inside a note, / separates the two small columns; it is not text.
NOTE_COLUMN = "/"
LINE_MARK = glyphs.LINE_MARK
#: Punctuation that may stand between strokes of one pattern (a pause, not a sentence end).
PAUSE = "，、,·・"
#: Punctuation that ends a sentence: between two strokes it divides them, unless 半 is beside it.
STOP = "。．.；;：:！!？?…"
#: Quotation marks and other brackets: they may stand between a pattern and its label.
QUOTES = "「」『』“”‘’《》〈〉［］[]\u2329\u232a︽︾︿﹀"
#: Book-title brackets (書名號 《》 and 篇名號 〈〉, with the angle brackets and the vertical forms
#: that OCR of a printed page gives for them) that a modern or OCR'd text puts around the state of a
#: label (《薛》鼓) or around the whole label (《薛鼓》, the name of the drum piece). They mark a
#: name; the label is the same label.
TITLE_BRACKETS = {"《": "》", "〈": "〉", "\u2329": "\u232a", "︽": "︾", "︿": "﹀"}
PUNCTUATION = PAUSE + STOP + QUOTES
#: Words of a 音義 gloss (圜音圓, 薄迷反, 如字): a ○ before them opens a gloss, it is not a stroke.
GLOSS = "音反切如"
#: Words that name a sign (○，圜鼙; □，方鼓): a stroke sign before them is a 釋文 headword.
SIGN_WORDS = "圜圓方"
#: Numerals: 〇 among them is zero.
NUMERALS = "一二三四五六七八九十百千萬"
#: Spaces inside a line: ignored between strokes.
SPACES = " \t\r\u3000\xa0"
#: Characters that web copies leave invisible in a text (zero-width spaces and joiners, the byte
#: order mark, the soft hyphen): read through between strokes and inside a label, and named.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\xad"
#: Footnote marks of web copies and modern editions, between a pattern and its label or inside it:
#: [1], ［1］, 〔1〕, ※, superscript digits and circled numbers ①–⑳.
FOOTNOTE = r"\[[0-9]{1,3}\]|［[0-9０-９]{1,3}］|〔[0-9０-９]{1,3}〕|※|[⁰¹²³⁴⁵⁶⁷⁸⁹]+|[\u2460-\u2473]"


class Kind:
    """Token kinds."""

    STROKES = "strokes"  # a run of ○/□ characters (value: the canonical ○□ string)
    HALF = "half"  # 半
    LABEL = "label"  # 魯鼓, 薛鼓 and their spellings (value: the state 魯 or 薛)
    ULABEL = "unknown label"  # a character and 鼓 that may be a label (value: the character)
    LOOSE = "label with an unmatched bracket"  # 《薛鼓, 薛》鼓 (value: the state)
    HEADING = "heading line"  # a line of its own holding only the two labels: 魯鼓　　薛鼓
    DRUM = "drum"  # a lone 鼓, the heading of the first figure
    PUNCT = "punctuation"
    NOTE = "note"  # value: the note's text without brackets and column marks
    SPACE = "space"
    INDENT = "indent"  # leading spaces of a line
    INVISIBLE = "invisible character"  # value: the characters
    FOOTNOTE = "footnote mark"
    ASIDE = "translation line"  # a line of modern translation in a bilingual file
    LINE = "line break"
    PAGE = "page break"  # <pb:…> or a line holding only markup
    MARKUP = "markup"  # ¶ and other tags
    BLANK = "blank line"  # a blank or header line: ends a pattern
    HEADER = "header"  # a # line
    OTHER = "other"  # text: prose, commentary


class Token(NamedTuple):
    """A token: its kind, its source offsets [start, end) and its value (see Kind).

    A named tuple, not a dataclass: a whole 卷 is tens of thousands of tokens."""

    kind: str
    start: int
    end: int
    value: str = ""


def _class(chars: Iterable[str]) -> str:
    return "".join(re.escape(c) for c in chars)


class Tables:
    """The character tables of one lexing run: the built-in ones, and the glyph and label
    readings given for the passage."""

    def __init__(
        self, glyph_map: Mapping[str, str] | None = None, labels: Mapping[str, str] | None = None
    ):
        built_in = {c: s for c, s in glyphs.CANONICAL.items() if c not in glyphs.WORD_LOOKALIKES}
        self.glyphs = {**built_in, **(glyph_map or {})}
        self.states = {**STATE_CHARS, **(labels or {})}
        strokes = [c for c, s in self.glyphs.items() if s in (glyphs.CIRCLE, glyphs.SQUARE)]
        halves = [c for c, s in self.glyphs.items() if s == HALF]
        self.stroke_chars = frozenset(strokes)
        #: str.translate table from each stroke character to its canonical ○ or □
        self.canonical = str.maketrans({c: self.glyphs[c] for c in strokes})
        special = (
            "".join(strokes)
            + "".join(halves)
            + "".join(self.states)
            + DRUM_CHARS
            + "".join(NOTE_BRACKETS)
            + LINE_MARK
            + "".join(TITLE_BRACKETS)  # a bracket that may open a label: 《薛》鼓
            + "<\n"
        )
        space = _class(SPACES)
        joiner = _class(" \u3000" + INVISIBLE)  # what may stand inside a label: 魯 鼓, 魯\u200b鼓
        notes = [
            f"{re.escape(o)}(?:[^{_class(o + c)}]|{re.escape(o)}[^{_class(o + c)}]*{re.escape(c)})*"
            f"{re.escape(c)}"
            for o, c in NOTE_BRACKETS.items()
        ]
        states = _class(self.states)
        drum = f"[{joiner}]?[{DRUM_CHARS}]"

        def bracketed(chars: str) -> str:
            return "|".join(
                f"{re.escape(o)}[{chars}](?:{re.escape(c)}{drum}|{drum}{re.escape(c)})"
                for o, c in TITLE_BRACKETS.items()
            )

        #: a label: 魯鼓, 魯 鼓, 《魯》鼓, 《魯鼓》 (each bracket closed by its own pair)
        self.label = f"(?:{bracketed(states)}|[{states}]{drum})"
        opens, closes = _class(TITLE_BRACKETS), _class(TITLE_BRACKETS.values())
        self.label_regex = re.compile(self.label)
        self.regex = re.compile(
            "|".join(
                [
                    r"(?P<header>(?<![^\n])#[^\n]*)",
                    # several empty lines in a row: one blank and one line break, as the
                    # reader takes any number of them alike (a token each is slow by the million)
                    r"(?P<blanks>(?<![^\n])\n\n+)",
                    # a line of nothing but spaces and markup: a blank line, or a page-break line
                    rf"(?P<empty>(?<![^\n])(?:[{space}]|¶|<[^<>\n]*>)*(?=\n|\Z))",
                    # a line of nothing but the two labels, spaced apart: a heading above a figure
                    rf"(?P<heading>(?<![^\n])[{space}]*{self.label}[{space}{_class(INVISIBLE)}]+"
                    rf"{self.label}[{space}]*(?=¶*(?:\n|\Z)))",
                    rf"(?P<indent>(?<![^\n])[{space}]+)",
                    r"(?P<nl>¶*\n)",
                    r"(?P<tag><[^<>\n]*>)",
                    f"(?P<mark>{re.escape(LINE_MARK)}+)",
                    f"(?P<space>[{space}]+)",
                    f"(?P<invisible>[{_class(INVISIBLE)}]+)",
                    f"(?P<footnote>{FOOTNOTE})",
                    f"(?P<note>{'|'.join(notes)})",
                    f"(?P<strokes>[{_class(strokes)}]+)",
                    f"(?P<half>[{_class(halves)}])",
                    f"(?P<label>{self.label})",
                    # a label with a bracket that is not matched: 《薛鼓, 薛》鼓, 〈薛》鼓
                    f"(?P<loose>[{opens}]?[{states}][{closes}]?{drum}[{closes}]?)",
                    # a miscopied label in brackets: 《薜》鼓, 《薜鼓》
                    f"(?P<ulabel>{bracketed(IDEOGRAPHS)})",
                    f"(?P<drum>[{DRUM_CHARS}])",
                    f"(?P<punct>[{_class(PUNCTUATION)}])",
                    f"(?P<other>[^{_class(special)}]+)",
                    r"(?P<lone>.)",
                ]
            ),
            re.S,
        )


_NOTE_MARKUP = re.compile(r"[\s¶/]|<[^<>\n]*>")


#: The CJK ideographs, as a character class (is_ideograph's ranges).
IDEOGRAPHS = "\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"


def is_ideograph(ch: str) -> bool:
    """True for a CJK ideograph (the character of a label such as 魯 or a miscopied 薜)."""
    o = ord(ch)
    return 0x3400 <= o <= 0x9FFF or 0xF900 <= o <= 0xFAFF or 0x20000 <= o <= 0x3FFFF


def tokens(source: str, tables: Tables) -> Iterator[Token]:
    """The tokens of `source` in order. An unclosed note is a NotationError at its bracket."""
    n = len(source)
    pos = 0
    drum_taken = -1  # the offset of a 鼓 that an unknown label took already
    canonical = tables.canonical
    states = tables.states
    while pos <= n:
        restart = None
        for match in tables.regex.finditer(source, pos):
            group = match.lastgroup
            start, end = match.span()
            if group == "other":
                text = match.group()
                if end < n and source[end] in DRUM_CHARS and is_ideograph(text[-1]):
                    if len(text) > 1:
                        yield Token(Kind.OTHER, start, end - 1, text[:-1])
                    yield Token(Kind.ULABEL, end - 1, end + 1, text[-1])
                    drum_taken = end
                else:
                    yield Token(Kind.OTHER, start, end, text)
            elif group == "nl":
                yield Token(Kind.LINE, start, end)
            elif group == "blanks":
                yield Token(Kind.BLANK, start, start)
                yield Token(Kind.LINE, start, end)
            elif group == "strokes":
                yield Token(Kind.STROKES, start, end, match.group().translate(canonical))
            elif group == "note":
                yield Token(
                    Kind.NOTE, start, end, _NOTE_MARKUP.sub("", source[start + 1 : end - 1])
                )
            elif group == "label":
                yield Token(Kind.LABEL, start, end, _state(source, start, states))
            elif group == "loose":
                yield Token(Kind.LOOSE, start, end, _state(source, start, states))
            elif group == "ulabel":
                yield Token(Kind.ULABEL, start, end, source[start + 1])
            elif group == "heading":
                yield Token(Kind.HEADING, start, end)
            elif group == "space":
                yield Token(Kind.SPACE, start, end)
            elif group == "invisible":
                yield Token(Kind.INVISIBLE, start, end, match.group())
            elif group == "footnote":
                yield Token(Kind.FOOTNOTE, start, end, match.group())
            elif group == "indent":
                yield Token(Kind.INDENT, start, end)
            elif group == "empty":
                kind = Kind.PAGE if "<" in match.group() else Kind.BLANK
                yield Token(kind, start, end)
            elif group == "tag":
                kind = Kind.PAGE if match.group().startswith("<pb") else Kind.MARKUP
                yield Token(kind, start, end, match.group())
            elif group == "mark":
                yield Token(Kind.MARKUP, start, end)
            elif group == "header":
                yield Token(Kind.HEADER, start, end)
            elif group == "drum":
                if start != drum_taken:
                    yield Token(Kind.DRUM, start, end, match.group())
            elif group == "half":
                yield Token(Kind.HALF, start, end, match.group())
            elif group == "punct":
                yield Token(Kind.PUNCT, start, end, match.group())
            elif source[start] in NOTE_BRACKETS:
                # a note nested deeper than the pattern reads, or one never closed
                end, text = _note(source, start)
                yield Token(Kind.NOTE, start, end, text)
                restart = end
                break
            else:
                yield Token(Kind.OTHER, start, end, match.group())
        if restart is None:
            return
        pos = restart


def _state(source: str, start: int, states: Mapping[str, str]) -> str:
    """The state a label at `start` reads as (past a book-title bracket before it)."""
    return states[source[start + (source[start] in TITLE_BRACKETS)]]


def labels_in(heading: Token, source: str, tables: Tables) -> list[Token]:
    """The two LABEL tokens of a heading line."""
    return [
        Token(Kind.LABEL, m.start(), m.end(), _state(source, m.start(), tables.states))
        for m in tables.label_regex.finditer(source, heading.start, heading.end)
    ]


def _note(source: str, start: int) -> tuple[int, str]:
    """The end offset of the note opened at `start` (nested brackets allowed) and its text."""
    opener = source[start]
    closer = NOTE_BRACKETS[opener]
    depth = 1
    i = start + 1
    while True:
        j = source.find(closer, i)
        if j < 0:
            break
        depth += source.count(opener, i, j) - 1
        i = j + 1
        if depth == 0:
            return i, _NOTE_MARKUP.sub("", source[start + 1 : j])
    pos = Position.at(start, line_starts(source))
    raise NotationError(
        _("the note opened here is never closed: a {closer!r} is missing").format(closer=closer),
        text=source,
        line=pos.line,
        column=pos.column,
        hint=_("hint: {hint}").format(hint=_("close the note, or remove the stray bracket.")),
    )


# --- bilingual files --------------------------------------------------------------------------

#: Words of modern written Chinese that the classical text of the chapter and its commentaries
#: never use (的, 这/這, 们/們, 吗/嗎, 呢, 么/麼, 它, 她), and the headings of a translation line:
#: a line holding one and no stroke is a translation line of a 古文/现代文 file.
VERNACULAR = re.compile(r"[的这這们們吗嗎呢么麼它她]|译文|譯文|翻译|翻譯|白话|白話|现代文|現代文")


def translation_lines(source: str, tables: Tables) -> list[tuple[int, int]]:
    """The [start, end) offsets of the translation lines of a bilingual 古文/现代文 file: each line
    in modern written Chinese with no stroke sign, standing between two lines that hold strokes
    or labels. Such a line may print 「 半 」 or 鲁国 in its own sentences: it is not the
    score's."""
    lines = []
    offset = 0
    for line in source.split("\n"):
        lines.append((offset, offset + len(line), line))
        offset += len(line) + 1
    strokes = tables.stroke_chars
    notation = strokes | frozenset(tables.states) | frozenset(DRUM_CHARS)

    def scored(index: int, step: int) -> bool:
        while 0 <= index < len(lines):
            text = lines[index][2]
            if text.strip(SPACES):
                return any(c in notation for c in text)
            index += step
        return False

    found = []
    for index, (start, end, text) in enumerate(lines):
        if text.startswith("#") or not VERNACULAR.search(text) or any(c in strokes for c in text):
            continue
        if scored(index - 1, -1) and scored(index + 1, 1):
            found.append((start, end))
    return found


# --- where a token stands, and the Kanripo header ------------------------------------------------


def header(source: str) -> dict[str, str]:
    """The `# key: value` header fields of a witness file (the first value of each key)."""
    fields: dict[str, str] = {}
    for line in source.splitlines():
        if line.startswith("#") and ":" in line:
            key, _colon, value = line[1:].partition(":")
            fields.setdefault(key.strip().casefold(), value.strip())
    return fields


def body_start(source: str) -> int:
    """The 1-based number of the first line after the leading header lines."""
    for number, line in enumerate(source.splitlines(), 1):  # the lines line_starts counts
        if not line.startswith("#"):
            return number
    return 1
