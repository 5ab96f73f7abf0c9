"""The browser's cases: a score page of the served site opened in headless Chromium at
hostile addresses."""

from __future__ import annotations

import sys
import time
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


def _open_page(browser, url: str, query: str) -> dict[str, object]:  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    dialogs: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
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
    except Exception as exc:  # playwright's TimeoutError, or the page crashed
        hung = True
        said = str(exc).splitlines()[0]
    ran = bool(dialogs)
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
