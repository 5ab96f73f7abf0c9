"""The page's fields (static/fields.js, read by the patterns site/grammar.py writes) against the
command line: over a grid of ramps, ranges of strokes, drums and score names, both take the
same values, or both refuse with the same key (DrumscoreError.key)."""

from __future__ import annotations

import sys

import pytest

from drumscore import corpus, glyphs
from drumscore.conductor.timeline import parse_span
from drumscore.conductor.track import Ramp
from drumscore.errors import DrumscoreError, NotationError
from drumscore.model import Drum
from drumscore.notation import might_be_notation
from drumscore.site import data as sitedata
from drumscore.site import grammar

#: Reads each field by fields.js, as the page reads it, and says what it gave or the key of the
#: refusal.
HARNESS = """
import { FieldError, fracText, parseOnly, parseRamp, parseSpan, resolveName } from "./fields.js";
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const say = (key) => key;
function outcome(read) {
  try {
    return ["ok", read()];
  } catch (error) {
    if (error instanceof FieldError) return ["refused", error.key];
    throw error;
  }
}
const out = {
  ramps: input.ramps.map((t) => outcome(() => {
    const r = parseRamp(t, input.fields, say);
    return [fracText(r.start), fracText(r.stop), fracText(r.step), r.every];
  })),
  spans: input.spans.map(([t, n]) => outcome(() => parseSpan(t, n, input.fields, say))),
  drums: input.drums.map((t) => outcome(() => parseOnly(t, input.fields, say))),
  names: input.names.map((t) => outcome(() => {
    const found = resolveName(t, input.names_table, say);
    if (found.key) return ["key", found.key];
    const known = found.notation && input.notations.includes(found.notation);
    if (known) return ["notation", found.notation];
    throw new FieldError("no_edition_reads", "");
  })),
};
console.log(JSON.stringify(out));
"""


def _python(read) -> list:
    try:
        return ["ok", read()]
    except NotationError:
        return ["refused", "notation"]
    except DrumscoreError as exc:
        assert exc.key is not None, f"a refusal without a key: {exc}"
        return ["refused", exc.key]


RAMPS = [
    "40:60:5",
    "40:60:.5",
    "40:60:5.",
    "5e1:6e1:5",
    "+40:60:5",
    "40:+60:+5",
    "60:40:-5",
    "60:40:5",
    "40:60:-5",
    "40:60:0",
    "40:60:0/3",
    "40:60:3/2",
    "40:60:3/0",
    "40:60:5:2",
    "40:60:5:0",
    "40:60:5:²",
    "40:60:5:٣",
    "40:60:5: 3 ",
    "40:60:5:03",
    "40:60:5:2:1",
    "40:60",
    "",
    ":::",
    " 40 : 60 : 5 ",
    "\u300040:60:5\u3000",
    "\ufeff40:60:5",
    "\x1c40:60:5",
    "40:60:5\x85",
    "²0:60:5",
    "٤٠:٦٠:٥",
    "40:60:５",
    "4:60:5",
    "6:1200:1",
    "5.99:60:1",
    "1200:1200.0001:1",
    "1e999:60:1",
    "1e1000:60:1",
    "0e1000:60:1",
    "1e-1000:60:1",
    "1E1:60:5",
    "40:60:1e-3",
    "40:60:" + "1" * 33,
    "40:60:" + "0" * 31 + "5",
    ":".join(["40"] * 3) + ":" + "1" * 130,
    "40:60:5e",
    "40:60:.",
    "40:60:-.5",
    "inf:60:5",
    "nan:60:5",
    "40:60:1_0",
    "40 60 5",
    "40;60;5",
    "40:60:5:1.5",
    "40:60:5:-1",
    "40:60:5:+1",
    "30:31:1/3",
    "60:40:-2.5:3",
    "40:40:5",
    "40:40:-5",
]
SPAN_TEXTS = [
    "5-12",
    "1",
    "23",
    "24",
    "0",
    "0-3",
    "12-5",
    "5-5",
    " 5 - 12 ",
    "\u30005-12",
    "5-12\x1f",
    "²-3",
    "1-²",
    "٣-5",
    "５-12",
    "5--12",
    "-5",
    "5-",
    "",
    " ",
    "a-b",
    "5-12-13",
    "1-" + "9" * 40,
    "1-" + "9" * 70,
    "01-012",
    "+1-3",
    "1.0-3",
    "1e1-20",
]
DRUMS = [
    "鼙",
    "pi",
    "PI",
    " Pi ",
    "○",
    "鼓",
    "gu",
    "GU",
    "□",
    "snare",
    "p i",
    "ｐｉ",
    "〇",
    "x",
    " ",
]


def _names() -> list[str]:
    """Names the command line reads: every spelling of every site score, spaced and cased, and
    names it refuses."""
    names = ["lu/2 @zhushu", "xue / 2 @ benyi", "lu", "LU", "Lu/2", "魯/2@benyi", "鲁", "薛/2"]
    for edition in corpus.editions():
        for score in edition.scores:
            names += [score.key, score.key.upper(), score.key.replace("/", " / ")]
            names.append(score.key.replace("@", "\u3000@\u3000"))
            names.append(f"{score.state}/{score.figure}@{edition.name}")
            names += [f"{spelling}/{score.figure}@{edition.id}" for spelling in ("辥", "xUe")]
    names += [
        "",
        "   ",
        "lu/3",
        "lu/²",
        "lu/٢",
        "lu/",
        "lu/ 2",
        "lu/2@",
        "lu/2@nowhere",
        "lu/2@ZHUSHU",
        "lu@",
        "luu/2",
        "qin/2",
        "xue/2@benyi@x",
        "lu/1/2",
        "○□○半○□",
        "○ □ ○",
        "〇口〇",
        corpus.resolve("lu/2").pattern.notation,
        " " + corpus.resolve("xue").pattern.notation,
        "○○○○○○○○",
        "●○",
        "lu○",
        "lu\u00a0/2",
        "lu\ufeff/2",
        "\x1clu",
        "ＬＵ",
        "lu/2@本義",
    ]
    return names


@pytest.mark.requires("node")
def test_the_page_takes_and_refuses_what_the_command_line_does(run_script):
    """Over 500 values of ramps, ranges of strokes, drums and names (40:60:.5, 5e0, +5, lu/2
    @zhushu, xue / 2 @ benyi, ² and ٣ and ５, spaces Python strips that JavaScript's \\s does not
    and the other way about): the page gives what the command line gives, or refuses with the
    same key. Notation is the one difference: the page knows only its own readings, and says
    so (no_edition_reads) for notation the command line reads or refuses."""
    counts = [23, 12, 1]
    spans = [[t, n] for t in SPAN_TEXTS for n in counts]
    names = _names()
    pool = corpus.editions()
    items = sitedata.entries(pool)
    notations = sorted({e.score.pattern.notation for e in items})
    payload = {
        "fields": grammar.field_data(),
        "names_table": sitedata.names_data(items, pool),
        "notations": notations,
        "ramps": RAMPS,
        "spans": spans,
        "drums": DRUMS,
        "names": names,
    }
    assert len(RAMPS) + len(spans) + len(DRUMS) + len(names) >= 500
    page = run_script(HARNESS, payload)

    def ramp(text: str) -> list:
        r = Ramp.parse(text)
        return [str(r.start), str(r.stop), str(r.step), r.every]

    assert page["ramps"] == [_python(lambda t=t: ramp(t)) for t in RAMPS]
    assert page["spans"] == [_python(lambda s=s: list(parse_span(*s))) for s in spans]
    assert page["drums"] == [_python(lambda t=t: Drum.parse(t).pinyin) for t in DRUMS]

    def name(text: str) -> list:
        score = corpus.resolve(text)
        if score.edition_id:
            return ["key", score.key]
        return ["notation", score.pattern.notation]

    for text, said in zip(names, page["names"], strict=True):
        cli = _python(lambda t=text: name(t))
        if cli[0] == "ok" and cli[1][0] == "notation" and cli[1][1] not in notations:
            cli = ["refused", "no_edition_reads"]  # notation the site has no reading of
        if cli == ["refused", "notation"]:
            cli = ["refused", "no_edition_reads"]
        assert said == cli, (text, said, cli)
    # the cases the issue names, read alike
    assert page["ramps"][RAMPS.index("40:60:.5")] == ["ok", ["40", "60", "1/2", 1]]
    assert page["names"][names.index("lu/2 @zhushu")] == ["ok", ["key", "lu/2@zhushu"]]
    assert page["names"][names.index("xue / 2 @ benyi")] == ["ok", ["key", "xue/2@benyi"]]
    assert page["spans"][spans.index(["²-3", 23])] == ["refused", "strokes_format"]


def test_the_pattern_of_names_is_read_alike_in_javascript():
    """js_pattern spells Python's \\s as Python's spaces and . as all but a line feed, so the
    name pattern's JavaScript reads a space JavaScript's \\s leaves out (U+001C)."""
    js = grammar.js_pattern(r"^a\s*(?P<x>.+)$")
    assert js.startswith("^a[") and "(?<x>[^\\n]+)$" in js
    assert "\\u{1c}" in grammar.space_class() and "\\u{feff}" not in grammar.space_class()
    with pytest.raises(ValueError):
        grammar.js_pattern(r"\d")


def test_the_notation_class_is_every_character_read_as_notation():
    """Every 5th code point, and every one the class has: in the class exactly when the command
    line reads a name holding it as notation."""
    import re

    spans = re.findall(r"\\u\{([0-9a-f]+)\}(?:-\\u\{([0-9a-f]+)\})?", grammar.notation_class())
    inside = set()
    for a, b in spans:
        inside.update(range(int(a, 16), int(b or a, 16) + 1))
    for code in [*range(0, sys.maxunicode + 1, 5), *inside]:
        assert (code in inside) == might_be_notation(chr(code)), hex(code)


def test_the_classes_read_from_two_planes_are_those_of_every_code_point():
    """A build reads the first two planes only (grammar.SCANNED): no space, no character with a
    case and none read as notation lies beyond them, but in the glyph tables."""
    scanned = set(grammar.SCANNED)
    beyond = [chr(c) for c in range(sys.maxunicode + 1) if c not in scanned]
    assert [c for c in beyond if c.isspace()] == []
    assert [c for c in beyond if c.casefold() != c] == []
    tables = {*glyphs.CANONICAL, *glyphs.CONFUSABLES}
    rest = "".join(c for c in beyond if c not in tables)
    if might_be_notation(rest):  # asked of the text at once, then of each character to say which
        assert [c for c in rest if might_be_notation(c)] == []
