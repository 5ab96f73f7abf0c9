"""The browser's cases: a score page of the served site opened in headless Chromium at
hostile addresses; the compare page with scores of odd ids and with damaged data files."""

from __future__ import annotations

import itertools
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

from .runner import HERE

SCRIPT = '"\'><img src=x onerror="window.__ran=1"><script>window.__ran=1</script>'

#: Hostile settings in a score page's address (its query, as drumscore play's flags name them).
QUERIES = [
    "bpm=0",
    "bpm=1e309",
    "bpm=-60",
    "bpm=NaN",
    "bpm=Infinity",
    "bpm=0x3c",
    "repeat=1e309",
    "repeat=999999999",
    "count-in=1000000000",
    "click=99999999",
    "click-level=1e309",
    "silent-every=0",
    "strokes=0-0",
    "strokes=1-1e309",
    "ramp=0:0:0",
    "ramp=1e309:1:1",
    "ramp=40:60:0.0000001",
    "section=nosuch",
    "section=__proto__",
    "reading=constructor",
    "only=toString",
    "__proto__=1&constructor=2&hasOwnProperty=3",
    "bpm=60&bpm=0&bpm=1e309",
    "section=%E0%A4%A",
    "strokes=" + "9" * 10_000,  # (an address past 64 KiB the server refuses: 414)
    "loop=1&count-in-each=1&repeat=1e309",
    # settings together, as a page writes them (settings.js), and as a hand would
    "reading=mao&section=head&strokes=1-3",
    "only=鼓&bpm=3/2",
    "bpm=72&click=2&strokes=5-12&silent-every=2&loop=1",
    "ramp=40:60:5:0",
    "count-in-each=yes&loop=off&count-in=4",
    "section=touhu&strokes=%00-%00",
    "reading=&section=&bpm=",
    *(f"{name}={SCRIPT}" for name in ("bpm", "section", "strokes", "ramp", "from")),
    f"{SCRIPT}=1",
]


def browser_results(root: Path, only: str | None) -> list[dict[str, object]]:
    """A score page of the served site opened in headless Chromium at each hostile address:
    counted as a traceback when the page throws, a hang when it is not ready (or its play does
    not answer) within the bound, a wrong status when a value ran as script; then played."""
    import threading
    from urllib.parse import quote

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    sys.path[:0] = [str(HERE), str(HERE / "tests")]
    from system_tools import chromium_path

    from drumscore.site.build import build_site
    from drumscore.site.serve import make_server, url_of

    chosen = [q for q in QUERIES if not only or only in f"score page ?{q}"]
    if not chosen:
        return []
    site = root / "site"
    build_site(site, musicxml=False)
    server = make_server(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    page_path = next((site / "score").glob("lu-1*.html")).relative_to(site)
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    results = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path() or "chromium", args=args)
        try:
            for query in chosen:
                encoded = "&".join(
                    "=".join(quote(part, safe=":%") for part in pair.split("=", 1))
                    for pair in query.split("&")
                )
                results.append(_open_page(browser, f"{url_of(server)}{page_path}?{encoded}", query))
        finally:
            browser.close()
            server.shutdown()
            server.server_close()
    return results


#: The address a score page's Copy link gave: on the clipboard, or in its field where the
#: browser refused the page the clipboard.
COPIED = """async () => {
    const field = document.getElementById('link-field');
    return field.hidden ? await navigator.clipboard.readText() : field.value;
}"""


def _open_page(browser, url: str, query: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    copied = ""
    start = time.monotonic()
    hung = False
    said = ""
    try:
        page.goto(url, timeout=20_000)
        page.wait_for_function("document.documentElement.dataset.ready === 'true'", timeout=20_000)
        page.click("#play", timeout=10_000)
        page.wait_for_timeout(500)
        said = page.text_content("#status", timeout=10_000) or ""
        page.keyboard.press("Escape")
        page.wait_for_function("true", timeout=10_000)  # the page still answers after playing
        # its Copy link: the address with the settings the page took, which opens the page
        page.click("#copy-link", timeout=10_000)
        page.wait_for_function("document.getElementById('link-status').textContent", timeout=10_000)
        copied = page.evaluate(COPIED)
        again = context.new_page()
        again.on("pageerror", lambda e: errors.append(f"(the copied link) {e}"))
        again.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        again.goto(copied, timeout=20_000)
        again.wait_for_function("document.documentElement.dataset.ready === 'true'", timeout=20_000)
        dialogs += ["(the copied link ran a value)"] * again.evaluate("() => window.__ran === 1")
    except Exception as exc:  # playwright's TimeoutError, or the page crashed
        hung = True
        said = str(exc).splitlines()[0]
    ran = bool(dialogs) or (bool(copied) and not copied.startswith(url.split("?")[0]))
    if not hung:
        try:
            ran = ran or page.evaluate("() => window.__ran === 1")
        except Exception:  # the page gone meanwhile
            hung = True
    context.close()
    shown = query if len(query) < 60 else query[:40] + "…"
    return {
        "case": f"score page ?{shown}",
        "group": "score page address",
        "status": "page",
        "seconds": time.monotonic() - start,
        "early": 0,
        "traceback": int(bool(errors)),
        "hang": int(hung),
        "lost": 0,
        "outside": 0,
        "wrong": int(ran),
        "late": 0,
        "said": [said.strip()[:70], *errors[:1]],
        "where": [],
        "full": "\n".join(errors),
    }


#: User edition ids (plain names) whose page and data file names are not the id.
ODD_IDS = [
    "Abc",
    "abc",
    "straße",
    "strasse",
    "ﬁx",
    "fix",
    "禮記甲",
    "礼记甲",
    "ＡＢＣ",
    "İx",
    "x" * 100,
]

#: What is done to a score's data file (data/SLUG.js) before the compare page asks for it, and
#: whether the page must then say it cannot show the pair (a problem) or show it.
DAMAGE: dict[str, tuple[Callable[[Path, str], None], bool]] = {
    "removed": (lambda path, other: path.unlink(), True),
    "empty": (lambda path, other: path.write_text("", "utf-8"), True),
    "cut short": (
        lambda path, other: path.write_text(path.read_text("utf-8")[:300], "utf-8"),
        True,
    ),
    "another score's": (lambda path, other: path.write_text(other, "utf-8"), True),
    "a number": (lambda path, other: path.write_text("drumscoreScore(42);", "utf-8"), True),
    "strokes a string": (
        lambda path, other: path.write_text(
            re.sub(r'"strokes":\[.*?\],"sections"', '"strokes":"x","sections"', path.read_text()),
            "utf-8",
        ),
        True,
    ),
    "a section past the strokes": (
        lambda path, other: path.write_text(
            re.sub(r'"stop":\d+', '"stop":99999', path.read_text("utf-8"), count=1), "utf-8"
        ),
        True,
    ),
    "binary": (lambda path, other: path.write_bytes(bytes(range(256)) * 40), True),
    "a folder": (lambda path, other: (path.unlink(), path.mkdir()), True),
    "script that throws": (lambda path, other: path.write_text("throw new Error('x');"), True),
}


def compare_results(root: Path, only: str | None) -> list[dict[str, object]]:
    """The compare page of a served site of the corpus and user editions of odd ids: each pair
    of those (their data files named unlike their ids), and a pair whose data file was removed,
    cut or replaced (DAMAGE); then a good pair chosen on the same page. Counted as a traceback
    when the page throws (but for the damaged file's own error), a hang when it is not ready
    within the bound, a wrong status when it shows a pair it cannot have, or says a problem
    for a pair it has."""
    import threading
    from urllib.parse import quote

    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return []
    sys.path[:0] = [str(HERE), str(HERE / "tests")]
    from system_tools import chromium_path

    from drumscore import corpus
    from drumscore.site import data as sitedata
    from drumscore.site.build import build_site
    from drumscore.site.serve import make_server, url_of

    names = [f"compare page: ids {a} and {b}" for a, b in itertools.pairwise(ODD_IDS)]
    names += [f"compare page: a data file {name}" for name in DAMAGE]
    chosen = [n for n in names if not only or only in n]
    if not chosen:
        return []
    folder = root / "odd-editions"
    folder.mkdir()
    rng = random.Random(5)
    for n, ident in enumerate(ODD_IDS):
        signs = "".join(rng.choice("○□") for _ in range(24))
        (folder / f"e{n}.toml").write_text(
            f'id = "{ident}"\nname = "e{n}"\n[[score]]\nfigure = 1\nstate = "魯"\n'
            f'printed = "{signs[:11]}半{signs[11:]}"\n',
            "utf-8",
        )
    extra = [corpus.load_edition(p) for p in sorted(folder.glob("*.toml"))]
    site = root / "compare-site"
    build_site(site, extra, musicxml=False)
    slugs = {e.score.key: e.slug for e in sitedata.entries((*corpus.editions(), *extra))}
    keys = [e.scores[0].key for e in extra]
    server = make_server(site, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    args = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
    results = []
    damaged = [k for k in slugs if k.startswith("xue/")]  # a score each damage spoils
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path() or "chromium", args=args)
        try:
            for name in chosen:
                if "ids" in name:
                    k = names.index(name)
                    pair, problem, spoilt = (keys[k], keys[k + 1]), False, ""
                else:
                    key = damaged[list(DAMAGE).index(name.rsplit("file ", 1)[1])]
                    spoil, problem = DAMAGE[name.rsplit("file ", 1)[1]]
                    path = site / "data" / f"{slugs[key]}.js"
                    other = (site / "data" / f"{slugs['lu/1@zhushu']}.js").read_text("utf-8")
                    spoil(path, other)
                    pair, spoilt = ("lu/1@zhushu", key), f"data/{slugs[key]}.js"
                query = f"?a={quote(pair[0])}&b={quote(pair[1])}"
                page = f"{url_of(server)}compare.html{query}"
                results.append(_compare_page(browser, page, name, problem, spoilt))
        finally:
            browser.close()
            server.shutdown()
            server.server_close()
    return results


def _compare_page(browser, url: str, name: str, problem: bool, spoilt: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(f"{e.name}: {e.message}\n{e.stack or ''}"))
    start = time.monotonic()
    hung, wrong, said = False, False, ""
    ready = "document.documentElement.dataset.ready === 'true'"
    try:
        page.goto(url, timeout=20_000)
        page.wait_for_function(ready, timeout=20_000)
        said = page.text_content("#problem", timeout=10_000) or ""
        shown = page.locator("#alignment td").count()
        said_it = page.is_visible("#problem") and (not spoilt or spoilt in said)
        wrong = (shown > 0 or not said_it) if problem else (shown == 0 or said_it)
        # the page goes on: a good pair chosen next is shown
        page.fill("#a-name", "lu/2@zhushu")
        page.fill("#b-name", "lu/2")
        page.click("#choose button[type=submit]")
        page.wait_for_function(ready, timeout=20_000)
        wrong = wrong or page.is_visible("#problem") or page.locator("#alignment td").count() == 0
        if not said:
            said = page.text_content("#summary .verdict", timeout=10_000) or ""
    except Exception as exc:  # playwright's TimeoutError, or the page crashed
        hung = True
        said = str(exc).splitlines()[0]
    context.close()
    # the damaged file's own error (its syntax, its throw) is the file's, not the page's
    own = [e for e in errors if not (spoilt and (e.startswith("SyntaxError") or spoilt in e))]
    return {
        "case": name,
        "group": "compare page data files",
        "status": "page",
        "seconds": time.monotonic() - start,
        "early": 0,
        "traceback": int(bool(own)),
        "hang": int(hung),
        "lost": 0,
        "outside": 0,
        "wrong": int(wrong),
        "late": 0,
        "said": [said.strip()[:70], *own[:1]],
        "where": [],
        "full": "\n".join(errors),
    }
