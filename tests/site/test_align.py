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
from urllib.parse import quote

import pytest
from browsers import evaluated
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
    """A function opening the compare page of a site's folder (with a query, the addresses of
    its requests put in `seen`), returning the page."""
    with contextlib.ExitStack() as opened:

        def open_site(folder, query="", seen=None):
            url = opened.enter_context(serving(folder))
            tab = browser.new_page()
            opened.callback(tab.close)
            if seen is not None:  # the address of every request the page makes
                tab.on("request", lambda r: seen.append(r.url))
            tab.goto(f"{url}compare.html{query}")
            tab.wait_for_function("window.drumscore && window.drumscore.ready")
            return tab

        yield open_site


def _page_compares(tab, pairs):
    return evaluated(
        tab,
        "pairs => Promise.all(pairs.map(([a, b]) => window.drumscore.compareKeys(a, b)))",
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


@pytest.fixture(scope="module")
def random_pairs(tmp_path_factory):
    """A site of editions of random readings (not of the corpus: aligned as compare aligns any
    two), short (the ranked table), long (Hirschberg's) and between, some close to one another;
    its folder, and 160 pairs of its scores (those close to one another last)."""
    rng = random.Random(7)
    folder = tmp_path_factory.mktemp("random") / "editions"
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
    site = folder.parent / "site"
    build_site(site, editions, corpus_editions=False, musicxml=False)
    scores = [s for e in editions for s in e.scores]
    pairs = [(rng.choice(scores), rng.choice(scores)) for _ in range(120)]
    close = [s for s in scores if s.state == "薛"]
    pairs += [(rng.choice(close), rng.choice(close)) for _ in range(40)]
    return site, pairs


def _compares_as_compare_does(page, site, pairs) -> None:
    """The page's comparison of each pair is compare's, and the pairs take both ways of aligning
    them (the ranked table, Hirschberg's)."""
    found = _page_compares(page(site), pairs)
    ways = set()
    for (a, b), shown in zip(pairs, found, strict=True):
        assert shown == _expected(a, b), (a.pattern.notation, b.pattern.notation)
        cells = (len(a.pattern.notation) + 1) * (len(b.pattern.notation) + 1)
        ways.add("ranked" if cells <= 40_000 else "hirschberg" if cells > 5_000 else "table")
    assert ways >= {"ranked", "hirschberg"}


def test_the_page_compares_random_readings_as_compare_does(random_pairs, page):
    """A third of the random pairs, and a third of those close to one another (the others in the
    slow run)."""
    site, pairs = random_pairs
    _compares_as_compare_does(page, site, pairs[:40] + pairs[120:133])


@pytest.mark.slow
def test_the_page_compares_more_random_readings_as_compare_does(random_pairs, page):
    """The random pairs the test above leaves to the slow run."""
    site, pairs = random_pairs
    _compares_as_compare_does(page, site, pairs[40:120] + pairs[133:])


def _slug(key: str, pool=None) -> str:
    return next(e.slug for e in sitedata.entries(pool or corpus.editions()) if e.score.key == key)


def _choose(tab, a: str, b: str) -> None:
    tab.fill("#a-name", a)
    tab.fill("#b-name", b)
    tab.click("#choose button[type=submit]")
    tab.wait_for_function("document.documentElement.dataset.ready === 'true'")


def test_the_page_loads_the_data_of_the_pair_chosen_and_no_other(site_dir, page):
    """The compare page lists the scores (no strokes); choosing a pair loads those two scores'
    data files, each once, and what it shows of them is compare --json's."""
    listed = _page_data(site_dir / "compare.html")["scores"]
    assert len(listed) == len(list(corpus.scores())) and not any("strokes" in s for s in listed)
    seen: list[str] = []
    tab = page(site_dir, "?a=lu/2@xunzuan&b=xue/1@benyi", seen)

    def loaded() -> list[str]:
        return sorted(url.rsplit("/", 1)[1] for url in seen if "/data/" in url)

    first = ["lu/2@xunzuan", "xue/1@benyi"]
    assert loaded() == sorted(f"{_slug(k)}.js" for k in first)
    shown = tab.evaluate("window.drumscore.comparison().c")
    assert shown == _expected(*map(corpus.resolve, first))
    _choose(tab, "lu/2@xunzuan", "lu/2")  # one loaded already, and lu/2@zhushu
    assert loaded() == sorted(f"{_slug(k)}.js" for k in [*first, "lu/2@zhushu"])
    shown = tab.evaluate("window.drumscore.comparison().c")
    assert shown == _expected(corpus.resolve("lu/2@xunzuan"), corpus.resolve("lu/2@zhushu"))
    tab.close()


#: Edition ids a user may give (plain names, corpus.is_plain_id) whose page and data file names
#: are not the id (data.slugify): ids alike but for case, ß and ﬁ, CJK and full-width letters,
#: letters outside the BMP, İ (casefolded with a combining dot), the longest id.
HOSTILE_IDS = [
    "Abc",
    "abc",
    "straße",
    "strasse",
    "ﬁx",
    "fix",
    "禮記甲",
    "礼记甲",
    "ＡＢＣ全形",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢" * 14,
    "İstanbul",
    "CON",
    "x" * 100,
]


def test_editions_with_hostile_ids_are_compared_from_their_data_files(tmp_path, page):
    """Scores of editions whose ids make page names unlike them (HOSTILE_IDS): each data file
    loads by its page's name, and the page compares every two as compare does."""
    folder = tmp_path / "editions"
    folder.mkdir()
    rng = random.Random(3)
    for n, ident in enumerate(HOSTILE_IDS):
        printed = _varied(rng, "○□○○□□○□○○□半○□○□○○○□□○□○")
        text = f'id = "{ident}"\nname = "e{n}"\n[[score]]\nfigure = 1\nstate = "魯"\n'
        (folder / f"e{n}.toml").write_text(text + f'printed = "{printed}"\n', "utf-8")
    editions = [corpus.load_edition(p) for p in sorted(folder.glob("*.toml"))]
    assert {e.id for e in editions} == set(HOSTILE_IDS)
    build_site(tmp_path / "site", editions, corpus_editions=False, musicxml=False)
    scores = [e.scores[0] for e in editions]
    pairs = [(a, b) for a in scores for b in scores if a is not b]
    seen: list[str] = []
    tab = page(tmp_path / "site", "", seen)
    found = _page_compares(tab, pairs)
    for (a, b), shown in zip(pairs, found, strict=True):
        assert shown == _expected(a, b), (a.key, b.key)
    names = {url.rsplit("/", 1)[1] for url in seen if "/data/" in url}
    assert len(names) == len(HOSTILE_IDS)
    # their editions are read from files, their scores named by the files' paths (lu/1@PATH),
    # as each page's Compare link names them: the compare page takes those names too
    for a, b in [(scores[0], scores[1]), (scores[-2], scores[-1])]:
        assert "@/" in a.key
        tab.goto(tab.url.split("?")[0] + f"?a={quote(a.key)}&b={quote(b.key)}")
        tab.wait_for_function("document.documentElement.dataset.ready === 'true'")
        assert tab.locator("#problem").is_hidden(), tab.inner_text("#problem")
        assert tab.evaluate(
            "[window.drumscore.comparison().a.key, window.drumscore.comparison().b.key]"
        ) == [a.key, b.key]
    tab.close()


# --- bad input: a data file missing or not a score's -----------------------------------------


def test_a_data_file_missing_or_garbled_is_said_and_the_page_goes_on(site_dir, tmp_path, page):
    """A site whose data files were removed, cut short, replaced by another score's or by
    anything: the page names the score and the file, shows no pair, and compares the next
    pair asked for."""
    import shutil

    site = tmp_path / "site"
    shutil.copytree(site_dir, site)
    data = site / "data"
    (data / f"{_slug('lu/1@benyi')}.js").unlink()
    cut = data / f"{_slug('lu/1@chenhao')}.js"
    cut.write_text(cut.read_text("utf-8")[:200], "utf-8")
    (data / f"{_slug('lu/1@wuli')}.js").write_text("drumscoreScore(42);\n", "utf-8")
    other = (data / f"{_slug('xue/1@zhushu')}.js").read_text("utf-8")
    (data / f"{_slug('lu/1@tongjie')}.js").write_text(other, "utf-8")
    tab = page(site, "?a=lu/1@zhushu&b=lu/1@benyi")
    problem = tab.inner_text("#problem")
    assert problem.startswith("B: cannot load the data of") and "lu-1-benyi.js" in problem
    assert tab.locator("#alignment td").count() == 0
    for name in ("lu/1@chenhao", "lu/1@wuli", "lu/1@tongjie"):
        _choose(tab, "lu/1@zhushu", name)
        problem = tab.inner_text("#problem")
        assert problem.startswith("B: ") and "does not hold the data of" in problem, name
        assert f"{_slug(name)}.js" in problem and tab.locator("#alignment td").count() == 0
    _choose(tab, "lu/1@zhushu", "xue/1@zhushu")
    assert tab.locator("#problem").is_hidden()
    shown = tab.evaluate("window.drumscore.comparison().c")
    assert shown == _expected(corpus.resolve("lu/1@zhushu"), corpus.resolve("xue/1@zhushu"))
    tab.close()
