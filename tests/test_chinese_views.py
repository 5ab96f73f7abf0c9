"""Everything a Chinese reader sees, scanned for the marks of English left in it: every command's
help and a representative output of every command (list, show, render, collate as text and CSV,
compare, check, extract), what play shows, the built-in programme rendered, the staff's head
lines (MusicXML's credits), a refusal of each command and the hostile inputs' refusals, and every
page of a site built in each script with its script labels, in 繁體中文 and 简体中文.

A finding is an ASCII word that is none of the names a reader types or reads as they are (an id,
a file name, code, a format, a GM instrument: the allow-list below), a section id (touhu, she,
head) in prose, a value quoted with ASCII quotes, an English unit after a number (ms, s, Hz,
/min, bpm), a , ; : or half-width ( ) beside Chinese text, or a space after a full-width stop
(。，；：、). What is typed stays as typed: a flag and its value, a list such as touhu,she, a
command or path in 「」. The 简体 views are also read through OpenCC t2s: outside quotations,
score signs, variant lists and what is typed, nothing is left to simplify.
"""

from __future__ import annotations

import contextlib
import csv
import html.parser
import importlib.util
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from drumscore import corpus
from drumscore.cli import build_parser, main
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.files.programme import builtin_programmes
from drumscore.i18n import speaking, tags
from drumscore.model import READINGS
from drumscore.play import liveview
from drumscore.render.midimap import GM_DRUM_NAMES
from drumscore.timing import Tempo

ROOT = Path(__file__).resolve().parent.parent
PASSAGE = ROOT / "tests" / "sources" / "KR1d0053_058_禮記注疏.txt"
LANGUAGES = ("zh-Hant", "zh-Hans")

#: Words shown as they are in every language, beyond the rules of `_allowed`: the program and
#: its commands' names, formats and standards, units, the names of a kit, a key and a source.
ALLOWED = {
    *("drumscore", "python3", "pip", "Ctrl-C", "Kanripo", "Kanseki", "Repository"),
    *("MusicXML", "MuseScore", "Verovio", "FluidSynth", "SoundFont", "OpenCC", "matplotlib"),
    *(
        "notation",
        "General",
        "PortAudio",
        "Esc",
        "dBFS",
        "built-in",
        "utf-8",
        "pí",
        "gǔ",
    ),
    # the names of a site page's fields, as its messages start (the CLI's start with the flag)
    *("ramp", "strokes", "only"),
}
#: Words the edition files hold in English (their citations): read as the data they are.
CJK = r"\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
HAS_CJK = re.compile(f"[{CJK}]")
FULL_STOP_SPACE = re.compile(r"[。，；：、][ \t]")
HALF_PUNCT = re.compile(r"[,;:] ")
BESIDE_CJK = re.compile(f"[{CJK}][,;:()]|[,;:()][{CJK}]")
WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’-]*")


def _names() -> set[str]:
    """The ids a reader types: editions and their aliases, states, sections, drums, every command
    and every choice an option offers."""
    found = {"lu", "xue", "pi", "gu", "A", "B"}
    for edition in corpus.editions():
        found |= {edition.id, *edition.aliases}
    parser = build_parser()
    stack = [parser]
    while stack:
        p = stack.pop()
        for action in p._actions:
            choices = getattr(action, "choices", None) or {}
            for choice in choices:
                found.add(str(choice))
            if isinstance(choices, dict):
                stack.extend(c for c in choices.values() if hasattr(c, "_actions"))
    found |= set(builtin_programmes()) | {r.id for r in READINGS} | {*tags(), "all"}
    for name in GM_DRUM_NAMES.values():
        found |= set(name.split())
    return found - SECTION_IDS


#: The sections' ids: typed (a flag's value, a list, a name), never a word of Chinese prose.
SECTION_IDS = {"head", "touhu", "she"}
#: What is typed, shown as typed: a flag with its value, a list of names (touhu,she; zheng,mao),
#: argparse's choices {a,b}, a TOML key's value (score = "lu/1").
TYPED = re.compile(
    r"(?<![\w-])--?[A-Za-z][\w-]*(?:[ =](?:'[^']*'|\"[^\"]*\"|(?![-「])[^\s，。；：、（）]+))?"
    r"|\b[a-z]+(?:,[a-z]+)+\b|\{[\w,]+\}|\b\w+ = \"[^\"]*\""
)
SECTION_ID = re.compile(r"(?<![\w/@=.-])(?:touhu|she|head)(?![\w/@=-])")
ASCII_QUOTED = re.compile(r"'[^'\s][^']*'|\"[^\"\s][^\"]*\"")
UNIT = re.compile(r"\d(?:[\d.,]*\d)? ?(?:ms|Hz|kHz|bpm)\b|\d(?:[\d.,]*\d)? s\b|/min\b|\bbpm \d")


def _allowed(token: str, names: set[str]) -> bool:
    """An ASCII word that is shown as it is: a flag, a path, an id, code, a metavar or a format
    name (upper case), a code point, or a word of the allow-list."""
    bare = token.lstrip("([<'\"“「『`").rstrip(")]>'\"”」』`*,;:.!?")
    return (
        not re.search("[A-Za-z]", bare)
        or bare.startswith(("-", "."))  # a flag, a file's extension
        or bool(re.search(r"[/@_={}<>+%|\\]|\w\.\w|://", bare))  # a path, a name, code
        or bool(re.fullmatch(r"\[+\w+\]+", token))  # a table of an edition file
        or bool(re.fullmatch(r"'[^']*'[^']*", token.lstrip("（(")))  # a value given, echoed
        or bool(re.search(r"\d", bare))  # an id: KR1d0060, a commit, 90s, P5
        or bare.isupper()  # a metavar or a format: SCORE, MIDI
        or len(bare) == 1  # a key, a variable: q, n
        or bare in ALLOWED
        or bare in names
        or all(part in names for part in bare.split(","))  # a list a flag takes: touhu,she
    )


def findings(text: str, names: set[str]) -> list[str]:
    """Each line that holds English or half-width punctuation where a Chinese reader reads, with
    what was found in it."""
    found = []
    for line in text.splitlines():
        if line.lstrip().startswith(("usage:", "用法：", "例：")):
            continue  # the usage and the example: what is typed
        marks = []
        line = re.sub(r"(-[\w-]+(?: [A-Z]\S*)?), (?=-)", r"\1 ", line)  # -h, --help
        shown = re.sub(r"「[^「」]*」", "「」", line)  # a command, a path or a value quoted
        prose = TYPED.sub(" ", shown)
        tokens = [t for t in re.split(f"[\\s{CJK}—…·]+", prose) if t]
        words = [t for t in tokens if not _allowed(t, names)]
        if words:
            marks.append("English " + " ".join(words))
        chinese = bool(HAS_CJK.search(line))
        if chinese and SECTION_ID.search(prose):
            marks.append("a section id " + " ".join(SECTION_ID.findall(prose)))
        if chinese and ASCII_QUOTED.search(prose):
            marks.append("ASCII quotes " + ASCII_QUOTED.search(prose).group())
        if chinese and UNIT.search(prose):
            marks.append("an English unit " + UNIT.search(prose).group())
        if chinese:
            marks += [f"half-width {m.group().strip()!r}" for m in HALF_PUNCT.finditer(prose)]
            if re.search(r"[()]", prose):
                marks.append("half-width ( )")
            if BESIDE_CJK.search(prose):
                marks.append(f"half-width {BESIDE_CJK.search(prose).group()!r}")
            if re.search(f"[{CJK}]/[{CJK}]", line):
                marks.append("half-width '/'")
        if FULL_STOP_SPACE.search(line):
            marks.append("a space after a full-width stop")
        if marks:
            found.append(f"{line.strip()}  <- {'; '.join(dict.fromkeys(marks))}")
    return found


class _Text(html.parser.HTMLParser):
    """A page's text as a reader meets it: its text and its titles, labels and alternatives,
    without its scripts, styles, code and the notation's drawing."""

    SKIP = frozenset({"script", "style", "code", "svg", "kbd", "pre"})
    SHOWN = ("title", "aria-label", "alt", "placeholder")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skipping += 1
            if self.skipping == 1 and tag in ("code", "kbd"):
                self.parts.append("⟨⟩")  # code stands where it is, shown as it is
        for name, value in attrs:
            if name in self.SHOWN and value:
                self.parts.append("\n" + value + "\n")
        if tag in ("p", "li", "tr", "h1", "h2", "h3", "dt", "dd", "div", "br", "td", "th"):
            self.parts.append("\n")
        if tag == "q" and not self.skipping:
            self.parts.append("「")  # a quotation, as the page's style quotes it

    def handle_endtag(self, tag: str) -> None:
        if tag == "q" and not self.skipping:
            self.parts.append("」")
        if tag in self.SKIP:
            self.skipping -= 1
        if tag in ("p", "li", "tr", "h1", "h2", "h3", "dd", "div", "caption"):
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(" ".join(data.split("\n")))  # a line break in HTML is a space


def page_text(path: Path) -> str:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return "\n".join(" ".join(line.split()) for line in "".join(parser.parts).splitlines())


def script_labels(path: Path) -> str:
    """The labels a page hands its script (the <script type="application/json"> strings)."""
    found = re.findall(
        r'<script[^>]*type="application/json"[^>]*>(.*?)</script>', path.read_text("utf-8"), re.S
    )
    lines = []
    for block in found:
        data = json.loads(block)
        strings = data.get("strings", {}) if isinstance(data, dict) else {}
        for value in strings.values():
            lines += value if isinstance(value, list) else [value]
    return "\n".join(lines)


#: The keys of collate's CSV, the same in every language (docs/languages.md).
CSV_KEYS = {"column", "section", "place", "lemma"}


def csv_cells(text: str) -> str:
    """A CSV's cells, one a line, without its header rows and keys (fixed in every language)."""
    rows = csv.reader(io.StringIO(text))
    keys = CSV_KEYS | SECTION_IDS  # the section column holds the ids, in every language
    return "\n".join(c for row in rows if row[:1] != ["score"] for c in row if c not in keys)


def _run(*argv: str) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    assert code in (0, None), (argv, err.getvalue())
    return out.getvalue() + err.getvalue()


def _refused(*argv: str) -> str:
    """What a refused run says (exit 2)."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main([str(a) for a in argv])
        except SystemExit as exc:
            code = exc.code
    assert code == 2, (argv, err.getvalue())
    return err.getvalue()


#: A refusal of each command, and of the kinds of bad input: names, values, choices, files.
REFUSALS = [
    ("show", "nope"),
    ("list", "--edition", "nope"),
    ("render", "lu", "--bpm", "0", "-o", "{folder}/a.wav"),
    ("render", "lu", "-o", "{folder}/a.xyz"),
    ("render", "○X", "-o", "{folder}/a.mid"),
    ("render", "lu", "--repeat", "abc", "-o", "{folder}/a.mid"),
    ("compare", "lu"),
    ("compare", "lu", "xue", "--reading", "nope", "--audio", "{folder}/a.wav"),
    ("collate", "lu@zhushu"),
    ("collate", "lu", "--format", "xml"),
    ("check", "{folder}/none.wav", "lu"),
    ("extract", "{folder}/none.txt"),
    ("play", "lu", "--programme", "{folder}/none.toml"),
    ("site",),
    ("list", "--bogus"),
]


def play_view() -> str:
    """What drumscore play shows, in the current language: the live display (the notation, the
    status with what waits, the keys, the big display) and the lines written to a file."""
    timeline = arrange(corpus.resolve("lu"), None, Tempo.from_bpm(60), 2)
    hits = Track.single(timeline, 2).hits(44100)
    waiting = (liveview.STOP_WAITS, liveview.SWITCH_WAITS)
    state = liveview.LiveState(bpm=60, paused=True, waiting=waiting, items=2, label="lu")
    lines = [*liveview.hit_frame(hits[5], state, 200, keys=True)]
    lines += liveview.big_frame(hits[5], state, 80, 30) or []
    lines += liveview.big_frame(hits[0], state, 80, 30) or []
    for k in range(len(timeline.strokes) + 1):
        lines += liveview.plain_lines(timeline, k, float(k))
    return "\n".join(re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", line) for line in lines)


def _commands() -> list[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    return list(sub.choices)


def _module(name: str, path: Path):
    """A test module of the hostile inputs, for its lists of cases."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def hostile_refusals(lang: tuple[str, str], folder: Path) -> str:
    """The refusals of the hostile inputs (tests/cli/test_hostile*.py) that reach a reader: huge
    and tiny numbers, malformed edition and kit files."""
    numbers = _module("hostile_numbers", ROOT / "tests" / "cli" / "test_hostile.py").NUMBERS
    files = _module("hostile_files", ROOT / "tests" / "cli" / "test_hostile_files.py")
    said = [_refused(*lang, "render", "lu", *o, "-o", folder / "a.wav") for o, _ in numbers]
    for k, (text, _said) in enumerate(files.BAD_EDITIONS):
        path = folder / f"e{k}.toml"
        path.write_text(text, encoding="utf-8")
        said.append(_refused(*lang, "show", path))
    for k, (text, _said) in enumerate(files.BAD_KITS):
        kit = folder / f"kit{k}"
        kit.mkdir()
        files._kit(kit, text)
        said.append(_refused(*lang, "render", "lu", "--kit", kit, "-o", folder / "a.wav"))
    return "".join(said)


def staff_head(lang: tuple[str, str], folder: Path) -> str:
    """The lines engraved above the staff (MusicXML's credit words), of a score of the corpus,
    a section of another edition and a literal."""
    lines = []
    for k, argv in enumerate([("lu",), ("xue/2@benyi", "--section", "touhu"), ("○□○半○□",)]):
        path = folder / f"staff{k}.musicxml"
        _run(*lang, "render", *argv, "-o", path)
        root = ET.fromstring(path.read_bytes())
        lines += [c.findtext("credit-words") or "" for c in root.iter("credit")]
    return "\n".join(lines)


def readings_view(lang: tuple[str, str], folder: Path, take: Path) -> str:
    """What the commands say of a score played under 毛奇齡's reading of the signs (--reading):
    a render (what it wrote, and the lines engraved above its staff), a compare heard under
    each reading, a take of that reading checked against it, and `take` (鄭玄's) refused."""
    path = folder / "mao.musicxml"
    said = _run(*lang, "render", "lu/2@benyi", "--reading", "mao", "-o", path)
    root = ET.fromstring(path.read_bytes())
    said += "\n".join(c.findtext("credit-words") or "" for c in root.iter("credit")) + "\n"
    said += _run(*lang, "render", "xue", "--reading", "mao", "-o", folder / "mao.mid")
    said += _run(*lang, "show", "xue/2@benyi")
    audio = folder / "ab.wav"
    said += _run(*lang, "compare", "lu", "lu/2", "--reading", "mao,zheng", "--audio", audio)
    said += _run(*lang, "collate", "xue", "--base", "benyi")
    played = folder / "mao-take.mid"
    said += _run(*lang, "render", "lu", "--reading", "mao", "-o", played)
    said += _run(*lang, "check", played, "lu", "--reading", "mao")
    return said + _refused(*lang, "check", take, "lu", "--reading", "mao")


#: The views, each a group of what a reader sees; the site's pages are grouped by kind.
VIEWS = [
    "help",
    "commands' help",
    "list",
    "show",
    "render",
    "collate",
    "collate csv",
    "compare",
    "check",
    "extract",
    "refusals",
    "hostile refusals",
    "play",
    "programme rite",
    "staff head",
    "readings",
    "site summary",
    "site index",
    "site score pages",
    "site compare page",
    "site labels",
]
#: Views that others are rewording, each failing until their branch lands: marked here so that
#: the mark is removed (strict) the moment the view reads in Chinese.
PENDING: dict[str, str] = {}


@pytest.fixture(scope="module")
def views(tmp_path_factory) -> dict[str, dict[str, str]]:
    """Every view, in each language: {language: {view: text}}."""
    found: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        folder = tmp_path_factory.mktemp(language)
        lang = ("--lang", language)
        shown = {"help": _run(*lang, "--help")}
        shown["commands' help"] = "".join(_run(*lang, c, "--help") for c in _commands())
        mid, wav = folder / "lu.mid", folder / "lu.wav"
        shown |= {
            "list": _run(*lang, "list"),
            "show": _run(*lang, "show", "lu")
            + _run(*lang, "show", "xue/2@benyi")
            + _run(*lang, "show", "○□○半○□"),
            "render": _run(*lang, "render", "lu", "-o", mid)
            + _run(*lang, "render", "lu", "-o", wav),
            "collate": _run(*lang, "collate", "lu/2"),
            "collate csv": csv_cells(_run(*lang, "collate", "lu/2", "--format", "csv")),
            "compare": _run(*lang, "compare", "lu", "xue"),
            "check": _run(*lang, "check", mid, "lu"),
            "extract": _run(*lang, "extract", PASSAGE),
            "programme rite": _run(*lang, "render", "--programme", "rite", "-o", folder / "r.mid"),
            "staff head": staff_head(lang, folder),
            "readings": readings_view(lang, folder, mid),
        }
        shown["refusals"] = "".join(
            _refused(*lang, *(a.format(folder=folder) for a in argv)) for argv in REFUSALS
        )
        hostile = folder / "hostile"
        hostile.mkdir()
        shown["hostile refusals"] = hostile_refusals(lang, hostile)
        with speaking(language):
            shown["play"] = play_view()
        site = folder / "site"
        shown["site summary"] = _run(*lang, "site", site)
        pages = {p.relative_to(site).as_posix(): page_text(p) for p in sorted(site.rglob("*.html"))}
        shown["site index"] = pages.pop("index.html")
        shown["site compare page"] = pages.pop("compare.html")
        shown["site score pages"] = "\n".join(pages.values())
        assert all(name.startswith("score/") for name in pages), sorted(pages)
        shown["site labels"] = script_labels(site / "compare.html")
        found[language] = shown
    return found


def _cases() -> list:
    return [
        pytest.param(
            language,
            view,
            marks=[pytest.mark.xfail(strict=True, reason=PENDING[view])] if view in PENDING else [],
            id=f"{language}-{view}",
        )
        for language in LANGUAGES
        for view in VIEWS
    ]


@pytest.mark.parametrize(("language", "view"), _cases())
def test_every_view_reads_in_chinese(views, language, view):
    text = views[language][view]
    assert text.strip(), f"{view} showed nothing"
    report = list(dict.fromkeys(findings(text, _names())))
    assert not report, f"{len(report)} lines of {view} in {language}:\n" + "\n".join(report)


def _ids() -> dict[str, str]:
    """The ids a reader types for what has a name of its own: each reading of the signs and
    each edition, with what it is the id of."""
    found = {r.id: f"the reading {r.id}" for r in READINGS}
    return found | {e.id: f"the edition {e.id}" for e in corpus.editions()}


def id_findings(text: str, ids: dict[str, str]) -> list[str]:
    """Each line of Chinese prose that names a reading or an edition by its id rather than by its
    name. An id stays where it is typed (a flag's value, a list such as zheng,mao, a score's
    name such as lu/1@zhushu, a path, a command in 「」) and beside its name, as an aside to it
    (禮記注疏（zhushu）) or with it as one (zhushu（禮記注疏）, among the ids to type)."""
    found = []
    pattern = re.compile(
        r"(?<![\w@/.=-])(" + "|".join(map(re.escape, sorted(ids, key=len, reverse=True))) + r")"
        r"(?![\w/@.=-])"
    )
    for line in text.splitlines():
        if not HAS_CJK.search(line) or line.lstrip().startswith(("usage:", "用法：", "例：")):
            continue
        prose = TYPED.sub(" ", re.sub(r"「[^「」]*」", "「」", line))
        named = []
        for match in pattern.finditer(prose):
            before, after = prose[: match.start()], prose[match.end() :]
            aside = before.endswith("（") and after.startswith(("）", "，", "、"))
            if aside and re.search(f"[{CJK}》〉」][^（]*（$", before[-40:]):
                continue  # the id after the name it stands for: 禮記注疏（zhushu）
            if re.match(f"(?:（[^）]*|，即)[{CJK}《]", after):
                continue  # an id to type, with its name: zhushu（禮記注疏）, zhushu，即《禮記注疏》
            named.append(f"{match.group()} ({ids[match.group()]})")
        if named:
            found.append(f"{line.strip()}  <- {'; '.join(named)}")
    return found


#: Views that are data, not prose: a CSV's columns are the editions' ids, as its JSON's keys are.
DATA_VIEWS = {"collate csv"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_view_names_a_reading_or_an_edition_by_its_id_in_chinese_prose(views, language):
    """Wherever a reading of the signs or an edition has a name (毛奇齡說, 禮記注疏), a Chinese
    view names it so, the id kept for what is typed: --reading mao, lu/1@zhushu."""
    ids = _ids()
    report = [
        f"{view}: {line}"
        for view, text in views[language].items()
        if view not in DATA_VIEWS
        for line in dict.fromkeys(id_findings(text, ids))
    ]
    assert not report, f"{len(report)} lines in {language}:\n" + "\n".join(report)


@pytest.mark.parametrize(
    "line",
    [
        "drumscore 名稱：lu/1@zhushu；段：射；每分鐘 60 擊；依 mao 釋讀",
        "此版依 benyi 所印",
        "版本：zhushu",
    ],
)
def test_the_id_scan_finds_an_id_in_prose(line):
    assert id_findings(line, _ids())


@pytest.mark.parametrize(
    "line",
    [
        "版本：禮記注疏（zhushu）",
        "可用的釋讀有 zheng（鄭玄《禮記注》）、mao（毛奇齡《經問》卷十六）",
        "以哪個版本的讀法為底本（預設：zhushu，即《禮記注疏》）",
        "drumscore 名稱：lu/1@zhushu；段：射；每分鐘 60 擊；依毛奇齡說",
        "請加上 --reading mao，或去掉 --reading「mao,zheng」",
        "可用的釋讀為 zheng,mao",
    ],
)
def test_the_id_scan_passes_an_id_where_it_is_typed_or_beside_its_name(line):
    assert not id_findings(line, _ids())


def _simplified_cases() -> list:
    return [pytest.param(view, id=view) for view in VIEWS]


@pytest.mark.parametrize("view", _simplified_cases())
def test_every_simplified_view_is_in_simplified_characters(views, view):
    opencc = pytest.importorskip("opencc", reason="the script test converts with OpenCC")
    from test_regional_terms import prose

    to_simplified = opencc.OpenCC("t2s")
    left = []
    for line in views["zh-Hans"][view].splitlines():
        text = prose(line)
        simplified = to_simplified.convert(text)
        if simplified != text:
            changed = "".join(a for a, b in zip(text, simplified, strict=True) if a != b)
            left.append(f"{line.strip()}  <- {changed}")
    assert not left, f"{len(left)} lines of {view}:\n" + "\n".join(left)


def test_a_printed_label_is_quoted_and_the_drum_beside_it_is_in_the_reader_s_script(views):
    """extract's label column shows what the passage prints, a quotation: 「魯鼓」 in both
    scripts; the drum column is prose: 鲁鼓 in 简体."""
    hans = [line.split() for line in views["zh-Hans"]["extract"].splitlines()]
    hant = [line.split() for line in views["zh-Hant"]["extract"].splitlines()]
    assert ["1", "鲁鼓", "「魯鼓」"] in [row[:3] for row in hans]
    assert ["1", "魯鼓", "「魯鼓」"] in [row[:3] for row in hant]


def test_the_site_names_the_section_and_the_editions_in_the_page_s_script(views):
    index = views["zh-Hans"]["site index"]
    assert "drumscore 投壶" in index and "drumscore 投壺" not in index
    assert "礼经本义（四库全书本）" in index and "禮經本義" not in index
    assert "《礼记注疏》卷五十八〈投壶〉，文渊阁《四库全书》本" in index
    assert "《禮記注疏》卷五十八〈投壺〉，文淵閣《四庫全書》本" in views["zh-Hant"]["site index"]


# -- the scan itself finds what it is for --------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "mark"),
    [
        ("語言：en, zh-Hant, zh-Hans", "half-width ','"),
        ("漏擊 22 □ 鼓, 23 ○ 鼙", "half-width ','"),
        ("相隔 1 秒; MIDI 第 10 通道", "half-width ';'"),
        ("drumscore: 錯誤：某事", "half-width ':'"),
        ("A (多數，見下)", "half-width ( )"),
        ("s 切換投壺/射", "half-width '/'"),
        ("已寫入。 下一句", "a space after a full-width stop"),
        ("引文 the first stroke 鼙", "English the first stroke"),
        ("如「drumscore site out」再寫 out", "English out"),
        ("徐伯魯，touhu：鼙 7 鼓 5", "a section id touhu"),
        ("第 2 擊之後（head）", "a section id head"),
        ("未知的鼓譜 'wei'；", "ASCII quotes 'wei'"),
        ("     0.00 s  初投", "an English unit 0.00 s"),
        ("每擊最多偏移 8 ms", "an English unit 8 ms"),
        ("每分鐘 60 擊，60/min", "an English unit /min"),
        ("44100 Hz 的聲音", "an English unit 44100 Hz"),
        ("鼓組(內建)", "half-width ( )"),
        ("已寫入,lu.mid", "half-width '入,'"),
    ],
)
def test_the_scan_finds_each_mark(line, mark):
    (found,) = findings(line, _names())
    assert mark in found


@pytest.mark.parametrize(
    "line",
    [
        "已寫入 lu.mid：23 擊（MIDI）",
        "見 benyi、benyi-skqs 所引",
        "--lang LANG  語言",
        "鼙 ○ → 41 Low Floor Tom",
        "--section she 只輸出射",
        "給出清單如 touhu,she 則逐一輸出",
        "--date-basis 'ordered 1736, presented 1748' 須一起指定",
        '{where}：缺少 score = "lu/1"（鼓譜的名稱或譜字）',
        "請用如 90s、20m、1h 或 1h30m 的長度",
        "沒有「touhu」段",
    ],
)
def test_the_scan_passes_what_is_shown_as_it_is(line):
    assert findings(line, _names()) == []
