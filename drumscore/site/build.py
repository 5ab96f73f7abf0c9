"""`drumscore site`: the corpus as a static site, self-contained, for any static web server.

Pages are written from the library's own data (see data.py); the player, the compare view and
the in-page WAV render are plain ES modules in static/, shipped with the package. Nothing is
loaded from the network: scripts, styles and the kit's samples are copied into the folder.
"""

from __future__ import annotations

import html
import json
import os
import shutil
import tempfile
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from drumscore import corpus
from drumscore.errors import DrumscoreError, OptionError, OutputError
from drumscore.model import Edition, Section
from drumscore.render.musicxml import musicxml_bytes
from drumscore.site import data as sitedata
from drumscore.timeline import arrange

if TYPE_CHECKING:
    import numpy as np

STATIC = Path(__file__).with_name("static")
#: A file in every built site, so a rebuild may replace the folder and nothing else.
MARKER = ".drumscore-site"
#: Sections written as MIDI and as MusicXML at build time (at the default tempo).
MIDI_SECTIONS = (Section.SHE, Section.TOUHU, Section.HEAD)
MUSICXML_SECTIONS = (Section.SHE, Section.TOUHU)

STATE_NAMES = {"魯": "lu", "薛": "xue"}


@dataclass
class SiteReport:
    """What a build wrote."""

    path: Path
    scores: int = 0
    pages: int = 0
    files: int = 0
    staff: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _q(value: str) -> str:
    """A value for a link's query string."""
    return esc(urllib.parse.quote(value, safe="/@"))


def _json_script(element_id: str, value: object) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("</", "<\\/").replace("<!--", "<\\!--")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


def _page(title: str, body: str, *, root: str, script: str | None = None, data: str = "") -> str:
    module = f'<script type="module" src="{root}assets/{script}"></script>' if script else ""
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)} — drumscore</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="{root}assets/style.css">
{module}
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site">
<a class="brand" href="{root}index.html">drumscore <span lang="zh">投壺</span></a>
<nav aria-label="Site"><a href="{root}index.html">Scores</a>
<a href="{root}compare.html">Compare</a></nav>
</header>
<main id="main">
{body}
</main>
<footer class="site"><p>The drum scores at the end of the 投壺 chapter of the 禮記: ○ strikes
<span lang="zh">鼙</span> (the small drum), □ strikes <span lang="zh">鼓</span> (the big drum),
<span lang="zh">半</span> divides the pattern. Made by drumscore; works offline.</p></footer>
{data}
</body>
</html>
"""


def notation_html(score_data: dict, *, numbered: bool = True) -> str:
    """The pattern in its shapes: ○ and □, 半 between the two parts, each part named and counted."""
    strokes = score_data["strokes"]
    half = score_data["half"]
    sections = score_data["sections"]

    def run(items: list[dict]) -> str:
        cells = []
        for s in items:
            printed = s["printed"]
            drum = "鼙 small drum" if s["drum"] == "pi" else "鼓 big drum"
            title = f"stroke {s['i'] + 1}: {s['glyph']} {drum}"
            if printed != s["glyph"]:
                title += f", printed {printed}"
            number = f' data-n="{s["i"] + 1}"' if numbered else ""
            cells.append(
                f'<span class="stroke {s["drum"]}" data-i="{s["i"]}"{number} '
                f'data-printed="{esc(printed)}" title="{esc(title)}">{s["glyph"]}</span>'
            )
        return "".join(cells)

    def label(name: str) -> str:
        info = sections[name]
        return f'<span class="part-label">{esc(info["name"])} · ○{info["pi"]} □{info["gu"]}</span>'

    she = sections["she"]
    whole = (
        f'<p class="she-label">{esc(she["name"])}: the whole pattern, '
        f"{she['strokes']} strokes · ○{she['pi']} □{she['gu']}</p>"
    )
    if half is None:
        body = f'<div class="part she"><div class="strokes">{run(strokes)}</div></div>'
    else:
        parts = []
        if half > 0:
            parts.append(
                f'<div class="part head">{label("head")}'
                f'<div class="strokes">{run(strokes[:half])}</div></div>'
            )
        parts.append(
            '<span class="half-mark" title="半: the division. 投壺 takes the strokes after it, '
            '射 the whole">半</span>'
        )
        if half < len(strokes):
            parts.append(
                f'<div class="part touhu">{label("touhu")}'
                f'<div class="strokes">{run(strokes[half:])}</div></div>'
            )
        body = "".join(parts)
    return (
        f'<div class="notation" lang="zh" aria-label="notation: {esc(score_data["notation"])}">'
        f"{body}</div>{whole}"
    )


def _counts_table(score_data: dict) -> str:
    rows = []
    for name in sitedata.section_order():
        info = score_data["sections"].get(name)
        if info is None:
            continue
        rows.append(
            f"<tr><th scope=row>{esc(info['description'])}</th><td>{info['pi']}</td>"
            f"<td>{info['gu']}</td><td>{info['strokes']}</td></tr>"
        )
    return (
        '<table class="counts"><caption>Strokes per section</caption><thead><tr><th scope=col>'
        "section</th><th scope=col>○ 鼙</th><th scope=col>□ 鼓</th><th scope=col>all</th>"
        f"</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )


def _checks_html(score_data: dict) -> str:
    checks = score_data["checks"]
    if not checks:
        return "<p>No commentator in the corpus states counts for this pattern.</p>"
    items = []
    for c in checks:
        verdict = (
            '<span class="agree">agrees</span>'
            if c["agrees"]
            else f'<span class="disagree">differs: {esc("; ".join(c["disagreements"]))}</span>'
        )
        quote = "".join(
            f' <q lang="zh">{esc(q["quote"])}</q> ({esc(q["siglum"])})' for q in c["quotes"]
        )
        where = ", ".join(c["quoted_in"])
        items.append(
            f"<li>{esc(c['by'])}, {esc(c['section'])}: 鼙 {c['pi']} 鼓 {c['gu']}{quote} "
            f"(quoted in {esc(where)}); this reading has 鼙 {c['actual']['pi']} "
            f"鼓 {c['actual']['gu']}: {verdict}</li>"
        )
    return f'<ul class="checks">{"".join(items)}</ul>'


def _standing_html(score_data: dict, root: str) -> str:
    """The score's figure and drum across the editions: the apparatus's two numbers and which
    reading this edition prints."""
    a = score_data["apparatus"]
    if not a:
        return ""
    anchor = a["score"].replace("/", "-")
    where = ""
    if a["reading"] is not None:
        how = "; ".join(a["differences"]) or "the majority reading" if a["readings"] > 1 else ""
        where = f" This edition prints reading {a['reading']} of {a['readings']}" + (
            f" ({esc(how)})." if how else "."
        )
    return (
        f'<p class="apparatus-summary">Across the editions (<a href="{root}index.html#{anchor}">'
        f"{esc(a['score'])}</a>): {esc(a['summary']['text'])}.{where}</p>"
    )


def _source_html(score_data: dict) -> str:
    source = score_data["source"]
    rows = [("edition", f"{score_data['edition_name']} ({score_data['edition']})")]
    labels = {
        "citation": "citation",
        "kanripo": "Kanripo",
        "file": "file",
        "lines": "lines",
        "commit": "commit",
        "licence": "licence",
    }
    rows += [(label, source[key]) for key, label in labels.items() if source.get(key)]
    rows.append(("as printed", score_data["printed"].strip()))
    rows.append(("name", score_data["key"]))
    cells = "".join(f"<dt>{esc(k)}</dt><dd>{esc(v)}</dd>" for k, v in rows)
    return f'<dl class="source">{cells}</dl>'


def _player_html(score_data: dict, tempo: dict) -> str:
    options = "".join(
        f'<option value="{name}"{" selected" if name == "she" else ""}>'
        f"{esc(score_data['sections'][name]['description'])}</option>"
        for name in ("she", "touhu", "head")
        if name in score_data["sections"]
    )
    return f"""<section class="player" aria-labelledby="player-h">
<h2 id="player-h">Listen</h2>
<div class="controls">
<button type="button" id="play" aria-keyshortcuts="Space" disabled>▶ Play</button>
<button type="button" id="stop" disabled>■ Stop</button>
<label>Section <select id="section">{options}</select></label>
<label>Tempo <input id="bpm" type="number" inputmode="decimal" min="{tempo["min"]}"
 max="{tempo["max"]}" step="1" value="{tempo["default"]}"> strokes a minute</label>
<input id="bpm-range" type="range" min="{tempo["min"]}" max="240" step="1"
 value="{tempo["default"]}" aria-label="Tempo, strokes a minute">
<label>Count-in <input id="count-in" type="number" min="0" max="16" step="1" value="0">
 strokes</label>
<label class="check"><input id="loop" type="checkbox"> Loop</label>
</div>
<p id="status" class="status" aria-live="polite">Press play (or the space bar).</p>
<p class="keys">Keys, as in <code>drumscore play</code>: <kbd>space</kbd> plays, pauses and
resumes; <kbd>+</kbd> <kbd>−</kbd> change the tempo by 1 stroke a minute, <kbd>]</kbd>
<kbd>[</kbd> by 5, from the next stroke; <kbd>t</kbd> taps the tempo; <kbd>s</kbd> switches 投壺
and 射 at the end of the pass (when looping); <kbd>q</kbd> stops at the end of the pass,
<kbd>Esc</kbd> at once. Strokes fall exactly every 60 ÷ tempo seconds
(<span lang="zh">間若一</span>).</p>
</section>"""


def _downloads_html(score_data: dict, files: dict[str, str], root: str) -> str:
    links = []
    for kind, label in (("midi", "MIDI"), ("musicxml", "MusicXML")):
        for name in sitedata.section_order():
            path = files.get(f"{kind}-{name}")
            if path:
                desc = score_data["sections"][name]["name"]
                links.append(
                    f'<li><a href="{root}{esc(path)}" download>{label}, {esc(desc)}</a></li>'
                )
    return f"""<section aria-labelledby="dl-h">
<h2 id="dl-h">Download</h2>
<p><button type="button" id="make-wav" disabled>Make WAV</button> of the section, tempo and
count-in chosen above, made in this page from the built-in kit (44.1 kHz, 16-bit).
<a id="wav-link" hidden download>Save the WAV</a></p>
<ul class="files">{"".join(links)}</ul>
<p class="note">MIDI and MusicXML are made by drumscore at 60 strokes a minute; the MIDI file
holds markers at 半 and the score's name.</p>
</section>"""


def score_page(entry: sitedata.Entry, score_data: dict, files: dict[str, str], shared: dict) -> str:
    root = "../"
    staff = ""
    if files.get("staff-she"):
        svg = f"{root}{esc(files['staff-she'])}"
        staff = (
            '<section aria-labelledby="staff-h"><h2 id="staff-h">Staff notation</h2>'
            f'<div class="staff"><img src="{svg}" alt="the whole pattern on a percussion staff: '
            f'{esc(score_data["notation"])}" loading="lazy"></div>'
            f'<p class="note">Engraved by Verovio from the MusicXML below; ○ a round head, □ a '
            f'square one. <a href="{svg}" download>SVG</a></p></section>'
        )
    name = f"{score_data['edition_name']} · {score_data['state']}鼓"
    body = f"""<h1><span lang="zh">{esc(name)}</span> · figure {score_data["figure"]}</h1>
<p class="key">Name on the command line: <code>{esc(score_data["key"])}</code></p>
<section aria-labelledby="notation-h">
<h2 id="notation-h">Notation</h2>
{notation_html(score_data)}
<p class="legend">○ strikes <span lang="zh">鼙</span> (the small drum), □ strikes
<span lang="zh">鼓</span> (the big drum); <span lang="zh">半</span> divides the pattern:
投壺 takes the strokes after it, 射 the whole.</p>
</section>
{_player_html(score_data, shared["tempo"])}
{staff}
<section aria-labelledby="counts-h">
<h2 id="counts-h">Counts and checks</h2>
{_counts_table(score_data)}
{_checks_html(score_data)}
{_standing_html(score_data, root)}
</section>
<section aria-labelledby="source-h">
<h2 id="source-h">Source</h2>
{_source_html(score_data)}
</section>
{_downloads_html(score_data, files, root)}
<p><a href="{root}compare.html?a={_q(score_data["key"])}">Compare this reading with another
</a></p>"""
    data = _json_script(
        "page-data",
        {"root": root, "score": score_data, "kit": shared["kit"], "tempo": shared["tempo"]},
    )
    return _page(score_data["title"], body, root=root, script="score.js", data=data)


def _mini_notation(notation: str) -> str:
    cells = []
    for ch in notation:
        kind = {"○": "pi", "□": "gu"}.get(ch, "half-mark")
        cells.append(f'<span class="{kind}">{ch}</span>')
    return f'<span class="mini" lang="zh">{"".join(cells)}</span>'


def _score_link(s: dict, content: str) -> str:
    return (
        f'<a class="score-link" data-key="{esc(s["key"])}" '
        f'href="score/{esc(s["slug"])}.html">{content}</a>'
    )


def _sigla(sigla: list[str], witnesses: dict[str, dict]) -> str:
    return " ".join(
        f'<a class="siglum" href="score/{esc(witnesses[s]["slug"])}.html" '
        f'title="{esc(witnesses[s]["edition"])}">{esc(s)}</a>'
        if witnesses.get(s, {}).get("slug")
        else f'<span class="siglum">{esc(s)}</span>'
        for s in sigla
    )


def apparatus_html(a: dict) -> str:
    """One score's apparatus: a line per place of variation (lemma ] variants, with sigla), the
    alignment table of every witness, and the stated counts with their quotes."""
    witnesses = {w["siglum"]: w for w in a["witnesses"]}
    base = witnesses[a["base"]]
    places = []
    for n, p in enumerate(a["places"], 1):
        variants = "; ".join(
            f'<span class="variant" lang="zh">{esc(v["text"] or "—")}</span> '
            f"{_sigla(v['sigla'], witnesses)}"
            + (f' <span class="why">({esc(v["description"])})</span>' if v["description"] else "")
            + "".join(
                f' <span class="why">({esc(r["siglum"])} reported in {esc(r["reported_by"])}: '
                f'<q lang="zh">{esc(r["quote"])}</q>)</span>'
                for r in v["reported"]
            )
            for v in p["variants"]
        )
        kind = "" if p["editions_part"] else ' class="reported"'
        places.append(
            f'<li value="{n}"{kind}><span class="place">{esc(p["label"])} ({esc(p["section"])})'
            f'</span> <span class="lemma" lang="zh">{esc(p["lemma"]["text"] or "—")}</span> '
            f"{_sigla(p['lemma']['printed'], witnesses)} ] {variants}</li>"
        )
    summary = (
        f"{esc(a['summary']['text'])} (base: "
        f'<span lang="zh">{esc(base["edition"])}</span>, <code>{esc(base["siglum"])}</code>)'
    )
    listing = f'<ol class="places">{"".join(places)}</ol>' if places else ""
    listing += "".join(f'<p class="agreement" lang="zh">{esc(t)}</p>' for t in a["agreements"])
    varies = [c["varies"] for c in a["columns"]]
    head = "".join(
        f'<th scope=col class="{"varies" if v else ""}">{esc(c["label"])}</th>'
        for c, v in zip(a["columns"], varies, strict=True)
    )
    rows = []
    for siglum, cells in a["alignment"].items():
        tds = "".join(
            f'<td class="{"varies " if v else ""}'
            f'{ {"○": "pi", "□": "gu", "半": "half-mark"}.get(cell, "gap") }">'
            f"{esc(cell or '·')}</td>"
            for cell, v in zip(cells, varies, strict=True)
        )
        w = witnesses[siglum]
        reported = (
            f' <span class="why">reported in {esc(w["reported_by"])}: '
            f'<q lang="zh">{esc(w["quote"])}</q></span>'
            if w["reported_by"]
            else ""
        )
        kind = ' class="reported"' if w["reported_by"] else ""
        rows.append(
            f"<tr{kind}><th scope=row>{_sigla([siglum], witnesses)}{reported}</th>{tds}</tr>"
        )
    table = (
        f"<details{' open' if places else ''}><summary>Every edition aligned ({len(witnesses)} "
        f'rows; columns that vary are marked)</summary><div class="scroll">'
        f'<table class="apparatus" lang="zh"><thead><tr><th scope=col>siglum</th>{head}</tr>'
        f"</thead><tbody>{''.join(rows)}</tbody></table></div></details>"
    )
    counts = []
    for k in a["stated_counts"]:
        quotes = "; ".join(
            f'<q lang="zh">{esc(q["quote"])}</q> {_sigla([q["siglum"]], witnesses)}'
            for q in k["quotes"]
        )
        disagree = [c for c in k["checks"] if not c["agrees"]]
        verdict = (
            '<span class="agree">all agree</span>'
            if not disagree
            else f'<span class="disagree">{_sigla([c["siglum"] for c in disagree], witnesses)}: '
            f"{esc('; '.join(disagree[0]['disagreements']))}</span>"
        )
        if k["agrees_with_no_edition"]:
            verdict = '<span class="disagree">no edition agrees</span>'
        counts.append(
            f"<li>{esc(k['by'])}, {esc(k['section'])}: 鼙 {k['pi']} 鼓 {k['gu']} — {quotes}. "
            f"{verdict}</li>"
        )
    counts_html = (
        f'<p>Stated counts:</p><ul class="checks">{"".join(counts)}</ul>' if counts else ""
    )
    return f'<p class="apparatus-summary">{summary}</p>{listing}{table}{counts_html}'


def index_page(
    scores: list[dict], apparatuses: list[dict], pool: tuple[Edition, ...], shared: dict
) -> str:
    blocks = []
    for a in apparatuses:
        state_slug = STATE_NAMES.get(a["state"], a["state"])
        heading = f"{a['state']}鼓 · figure {a['figure']}"
        readings = []
        majority = a["readings"][0] if a["readings"] else None
        total = sum(len(r["scores"]) for r in a["readings"])
        for i, r in enumerate(a["readings"]):
            letter = chr(ord("A") + i)
            links = ", ".join(
                _score_link(s, f'<span lang="zh">{esc(name)}</span>')
                for s, name in zip(r["scores"], r["editions"], strict=True)
            )
            diffs = ""
            if r["differences"] and majority is not None:
                diffs = (
                    '<ul class="differences">'
                    + "".join(f"<li>{esc(d)}</li>" for d in r["differences"])
                    + f'</ul><p><a href="compare.html?a={_q(majority["keys"][0])}&amp;'
                    f'b={_q(r["keys"][0])}">Compare with the majority reading</a></p>'
                )
            tag = "majority" if i == 0 and len(a["readings"]) > 1 else "reading"
            readings.append(
                f'<li class="reading"><p><strong>{letter}</strong> ({tag}, '
                f"{len(r['scores'])} of {total} editions)</p>{_mini_notation(r['notation'])}"
                f"<p class=editions>{links}</p>{diffs}</li>"
            )
        agree = (
            "All printed editions agree."
            if len(a["readings"]) == 1
            else f"The printed editions part: {len(a['readings'])} readings."
        )
        blocks.append(
            f'<section class="collation" id="{state_slug}-{a["figure"]}" '
            f'aria-labelledby="h-{state_slug}-{a["figure"]}">'
            f'<h2 id="h-{state_slug}-{a["figure"]}"><span lang="zh">{esc(heading)}</span></h2>'
            f"<p>{agree}</p>"
            f'<ol class="readings">{"".join(readings)}</ol>'
            f"<h3>Apparatus</h3>{apparatus_html(a)}</section>"
        )
    rows = []
    for edition in pool:
        own = [s for s in scores if s["edition"] == edition.id]
        cells = " ".join(
            _score_link(s, f'<span lang="zh">{esc(s["state"])}鼓</span> {s["figure"]}') for s in own
        )
        rows.append(
            f'<li><p class="edition-name"><strong lang="zh">{esc(edition.name)}</strong> '
            f'<code>{esc(edition.id)}</code> <span class="links">{cells}</span></p>'
            f'<p class="edition-source">{esc(edition.provenance.citation)}</p></li>'
        )
    body = f"""<h1>The drum scores of the <span lang="zh">投壺</span> chapter</h1>
<p class="lead">Two patterns, for the states of <span lang="zh">魯</span> and
<span lang="zh">薛</span>, each given in two figures, in {len(pool)} editions. Open a score to see
it, hear it at the tempo you choose and download it; the compare view lines two readings up.</p>
<section aria-labelledby="editions-h">
<h2 id="editions-h">Editions</h2>
<ul class="editions">{"".join(rows)}</ul>
</section>
<h2>Where the editions part</h2>
{"".join(blocks)}"""
    return _page("The drum scores of 投壺", body, root="", data="")


def compare_page(scores: list[dict], comparisons: dict, shared: dict) -> str:
    options = "".join(f'<option value="{esc(s["key"])}">{esc(s["title"])}</option>' for s in scores)
    body = f"""<h1>Compare two readings</h1>
<p class="lead">The strokes of A and B aligned (as <code>drumscore compare</code> aligns them):
<span class="mark substituted">*</span> a different stroke, <span class="mark only-a">−</span> a
stroke only in A, <span class="mark only-b">+</span> a stroke only in B.</p>
<form class="choose" onsubmit="return false">
<label>A <select id="a">{options}</select></label>
<label>B <select id="b">{options}</select></label>
</form>
<div id="summary" class="summary" aria-live="polite"></div>
<div id="alignment" class="alignment-box" aria-label="the alignment of A and B"></div>
<div id="sections"></div>
<section class="player" aria-labelledby="player-h">
<h2 id="player-h">Listen</h2>
<div class="controls">
<button type="button" id="play-a" disabled>▶ A</button>
<button type="button" id="play-b" disabled>▶ B</button>
<button type="button" id="play-ab" aria-keyshortcuts="Space" disabled>▶ A then B</button>
<button type="button" id="stop" disabled>■ Stop</button>
<label>Section <select id="section"><option value="she">射 (the whole pattern)</option>
<option value="touhu">投壺 (the strokes after 半)</option>
<option value="head">the strokes before 半</option></select></label>
<label>Tempo <input id="bpm" type="number" min="{shared["tempo"]["min"]}"
 max="{shared["tempo"]["max"]}" step="1" value="{shared["tempo"]["default"]}">
 strokes a minute</label>
<label class="check"><input id="loop" type="checkbox"> Loop</label>
</div>
<p id="status" class="status" aria-live="polite"></p>
<p class="keys"><kbd>space</kbd> plays A then B (a two-stroke pause between them), pauses and
resumes; <kbd>+</kbd> <kbd>−</kbd> and <kbd>]</kbd> <kbd>[</kbd> change the tempo, <kbd>t</kbd>
taps it; <kbd>q</kbd> stops at the end of the pass, <kbd>Esc</kbd> at once.</p>
</section>"""
    data = _json_script(
        "page-data",
        {
            "root": "",
            "scores": scores,
            "comparisons": comparisons,
            "kit": shared["kit"],
            "tempo": shared["tempo"],
        },
    )
    return _page("Compare two readings", body, root="", script="compare.js", data=data)


def _count_click(rate: int) -> np.ndarray:
    """The count-in sound: a short, dry wood-block click, unlike either drum (made here)."""
    import numpy as np

    n = int(0.06 * rate)
    t = np.arange(n) / rate
    tone = 0.6 * np.sin(2 * np.pi * 1750 * t) + 0.3 * np.sin(2 * np.pi * 2950 * t)
    click = (tone * np.exp(-t / 0.012)).astype(np.float32) * 0.5
    return np.stack([click, click], axis=1)


def _staff_svg(musicxml: bytes) -> bytes | None:
    """Staff notation as an SVG file, engraved in-process by Verovio where it is installed."""
    try:
        from drumscore.render.verovio import svg_pages  # type: ignore[import-not-found]
    except ImportError:
        return None
    try:
        pages = svg_pages(musicxml)
    except (ImportError, DrumscoreError):  # no Verovio: the page goes without staff notation
        return None
    return pages[0].encode("utf-8") if pages else None


def _write_files(
    out: Path, entry: sitedata.Entry, files: dict[str, str], musicxml: bool
) -> tuple[int, bytes | None]:
    """MIDI of each section and MusicXML of 射 and 投壺; the count and the 射 MusicXML."""
    from drumscore.render.midi import midi_bytes

    written = 0
    whole = None
    folder = out / "files"
    for section in MIDI_SECTIONS:
        if section not in entry.score.pattern.sections():
            continue
        timeline = arrange(entry.score, section)
        name = f"files/{entry.slug}-{section.value}.mid"
        (folder / Path(name).name).write_bytes(midi_bytes(timeline))
        files[f"midi-{section.value}"] = name
        written += 1
        if musicxml and section in MUSICXML_SECTIONS:
            name = f"files/{entry.slug}-{section.value}.musicxml"
            xml = musicxml_bytes(timeline)
            (folder / Path(name).name).write_bytes(xml)
            if section is Section.SHE:
                whole = xml
            files[f"musicxml-{section.value}"] = name
            written += 1
    return written, whole


def _copy_static(out: Path) -> None:
    import soundfile as sf

    from drumscore.render.kit import BUILTIN_KIT

    assets = out / "assets"
    shutil.copytree(STATIC, assets, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    samples = assets / "samples"
    samples.mkdir(exist_ok=True)
    for name in sitedata.SAMPLE_FILES.values():
        shutil.copyfile(BUILTIN_KIT.parent / name, samples / name)
    own_count = BUILTIN_KIT.parent / sitedata.COUNT_FILE
    if own_count.is_file():
        shutil.copyfile(own_count, samples / sitedata.COUNT_FILE)
    else:
        rate = 44100
        sf.write(str(samples / sitedata.COUNT_FILE), _count_click(rate), rate, subtype="PCM_16")


def build_site(
    out: str | Path,
    extra: Iterable[Edition] = (),
    *,
    corpus_editions: bool = True,
    musicxml: bool = True,
    progress: Callable[[str], None] | None = None,
) -> SiteReport:
    """Write the site to `out`: a new folder, an empty one, or one an earlier build wrote.

    `extra` editions are added to the corpus (the built-in editions and the user's own, see
    corpus.user_folders), or stand alone with `corpus_editions` false;
    `musicxml` false leaves out the MusicXML downloads, the slowest part of a build.

    The site is made in a temporary folder beside `out` and moved into place when complete, so
    a failed build leaves the earlier site as it was.
    """
    started = time.perf_counter()
    out = Path(out)
    _check_target(out)
    pool = corpus.editions() if corpus_editions else ()
    known = {os.path.realpath(e.path) for e in pool if e.path}
    pool = (*pool, *(e for e in extra if not e.path or os.path.realpath(e.path) not in known))
    if not any(edition.scores for edition in pool):
        raise OptionError("no scores to put in the site: give at least one edition with scores")
    parent = out.resolve().parent
    try:
        work = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".part", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot write in {str(parent)!r}: {exc.strerror}") from None
    try:
        report = _build_into(work, pool, progress, musicxml)
        (work / MARKER).write_text("a site written by drumscore\n", encoding="utf-8")
        os.chmod(work, 0o755)
        _replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    report.path = out
    report.seconds = time.perf_counter() - started
    return report


def _check_target(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise OutputError(f"{str(out)!r} is a file; give a folder for the site")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).exists():
        raise OutputError(
            f"folder {str(out)!r} is not empty and holds no site made by drumscore; "
            "give a new or empty folder (the site would replace what is there)"
        )
    parent = out.resolve().parent
    if not parent.is_dir():
        raise OutputError(f"folder {str(parent)!r} does not exist; create it first")


def _replace(work: Path, out: Path) -> None:
    if out.is_dir():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
        try:
            os.replace(work, out)
        except BaseException:
            os.replace(old, out)
            raise
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(work, out)


def _build_into(
    work: Path,
    pool: tuple[Edition, ...],
    progress: Callable[[str], None] | None,
    musicxml: bool,
) -> SiteReport:
    report = SiteReport(work)
    items = sitedata.entries(pool)
    shared = {"kit": sitedata.kit_data(), "tempo": sitedata.tempo_data()}
    _copy_static(work)
    (work / "score").mkdir()
    (work / "files").mkdir()
    scores = []
    apparatuses = sitedata.apparatuses(pool, items)
    by_score = {(a["figure"], a["state"]): a for a in apparatuses}
    for entry in items:
        if progress:
            progress(entry.score.key)
        apparatus = by_score.get((entry.score.figure, entry.score.state))
        score_data = sitedata.score_data(entry, pool, apparatus)
        files: dict[str, str] = {}
        written, whole = _write_files(work, entry, files, musicxml)
        report.files += written
        score_data["files"] = files
        svg = _staff_svg(whole) if whole else None
        if svg:
            files["staff-she"] = f"files/{entry.slug}-she.svg"
            (work / files["staff-she"]).write_bytes(svg)
            report.staff += 1
        page = score_page(entry, score_data, files, shared)
        (work / "score" / f"{entry.slug}.html").write_text(page, encoding="utf-8")
        report.pages += 1
        scores.append(score_data)
    report.scores = len(scores)
    if report.staff == 0:
        report.notes.append("no staff notation: Verovio is not installed (the notation extra)")
    index = index_page(scores, apparatuses, pool, shared)
    (work / "index.html").write_text(index, "utf-8")
    comparisons = sitedata.comparisons(items)
    (work / "compare.html").write_text(compare_page(scores, comparisons, shared), "utf-8")
    report.pages += 2
    return report
