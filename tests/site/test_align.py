"""The compare page aligns the pair asked for in the page (static/align.js): in Chromium, its
comparison of two readings is `drumscore compare`'s (compare --json, the places aside), for
every two readings of a figure and drum of the corpus, for pairs across figures, and for random
readings aligned by each of the apparatus's three ways (its ranked table, the full table,
Hirschberg's)."""

from __future__ import annotations

import contextlib
import json
import random
import re

import pytest
from served import serving

from drumscore import corpus
from drumscore.analysis.compare import compare, comparison_data
from drumscore.site import data as sitedata
from drumscore.site.build import build_site

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.requires("chromium")


def _page_data(path):
    text = path.read_text(encoding="utf-8")
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', text, re.S)
    assert found is not None
    return json.loads(found.group(1))


def _expected(a, b) -> dict:
    """What the page computes of compare --json: all but the places and the sides' names."""
    found = comparison_data(compare(a, b))
    for name in ("places", "a", "b"):
        del found[name]
    for column in found["alignment"]:
        del column["place"]
    return found


@pytest.fixture(scope="module")
def page(browser):
    """A function opening the compare page of a site built of `extra` editions (none: the
    corpus's site), returning the page."""
    with contextlib.ExitStack() as opened:

        def open_site(folder):
            url = opened.enter_context(serving(folder))
            tab = browser.new_page()
            opened.callback(tab.close)
            tab.goto(f"{url}compare.html")
            tab.wait_for_function("window.drumscore && window.drumscore.ready")
            return tab

        yield open_site


def _page_compares(tab, pairs):
    return tab.evaluate(
        "pairs => pairs.map(([a, b]) => window.drumscore.compareKeys(a, b))",
        [[a.key, b.key] for a, b in pairs],
    )


def test_the_page_compares_every_two_readings_of_the_corpus_as_compare_does(site_dir, page):
    scores = [e.score for e in sitedata.entries(corpus.editions())]
    figures: dict[tuple, list] = {}
    for s in scores:
        figures.setdefault((s.figure, s.state), []).append(s)
    pairs = [(a, b) for same in figures.values() for a in same for b in same]
    rng = random.Random(42)
    pairs += [(rng.choice(scores), rng.choice(scores)) for _ in range(40)]  # across figures too
    found = _page_compares(page(site_dir), pairs)
    for (a, b), shown in zip(pairs, found, strict=True):
        assert shown == _expected(a, b), (a.key, b.key)
    # the pairs of one figure and drum include readings that differ (lu/1 has four)
    assert any(not shown["identical"] for shown in found)
    assert any(shown["half"]["moved"] for shown in found)


def _random_reading(rng: random.Random, strokes: int) -> str:
    signs = [rng.choice("○□") for _ in range(strokes)]
    # 半 between two strokes (a site refuses a section without strokes)
    half = rng.randint(1, strokes - 1) if strokes > 1 and rng.random() < 0.85 else None
    if half is not None:
        signs.insert(half, "半")
    return "".join(signs)


def _varied(rng: random.Random, notation: str) -> str:
    signs = list(notation)
    for _ in range(rng.randint(0, 6)):
        k = rng.randrange(len(signs))
        kind = rng.choice("cdam")
        if signs[k] == "半" and kind != "m":
            continue
        if kind == "c":
            signs[k] = "○" if signs[k] == "□" else "□"
        elif kind == "d" and len(signs) > 3:
            del signs[k]
        elif kind == "a":
            signs.insert(k, rng.choice("○□"))
        elif "半" in signs and len(signs) > 3:  # 半 moved
            signs.remove("半")
            signs.insert(rng.randint(1, len(signs) - 1), "半")
    return "".join(signs)


def test_the_page_compares_random_readings_as_compare_does(tmp_path, page):
    """Editions of random readings (not of the corpus: aligned as compare aligns any two), short
    (the ranked table), long (Hirschberg's) and between, some close to one another."""
    rng = random.Random(7)
    folder = tmp_path / "editions"
    folder.mkdir()
    sizes = [1, 2, 5, 12, 30, 60, 150, 210, 260, 400]
    for n in range(10):
        lines = [f'id = "random{n}"', f'name = "random {n}"', ""]
        for figure, state in ((1, "魯"), (2, "魯"), (1, "薛"), (2, "薛")):
            if n % 2 and figure == 2 and state == "薛":
                printed = _varied(rng, _random_reading(rng, rng.choice(sizes)))
            else:
                printed = _random_reading(rng, rng.choice(sizes))
            if n % 3 == 0 and state == "薛":  # close to another edition's
                printed = _varied(rng, _random_reading(rng, 40))
            lines += ["[[score]]", f"figure = {figure}", f'state = "{state}"']
            lines += [f'printed = "{printed}"', ""]
        (folder / f"random{n}.toml").write_text("\n".join(lines), "utf-8")
    editions = [corpus.load_edition(p) for p in sorted(folder.glob("*.toml"))]
    build_site(tmp_path / "site", editions, corpus_editions=False, musicxml=False)
    scores = [s for e in editions for s in e.scores]
    pairs = [(rng.choice(scores), rng.choice(scores)) for _ in range(120)]
    close = [s for s in scores if s.state == "薛"]
    pairs += [(rng.choice(close), rng.choice(close)) for _ in range(40)]
    found = _page_compares(page(tmp_path / "site"), pairs)
    ways = set()
    for (a, b), shown in zip(pairs, found, strict=True):
        assert shown == _expected(a, b), (a.pattern.notation, b.pattern.notation)
        cells = (len(a.pattern.notation) + 1) * (len(b.pattern.notation) + 1)
        ways.add("ranked" if cells <= 40_000 else "hirschberg" if cells > 5_000 else "table")
    assert ways >= {"ranked", "hirschberg"}
