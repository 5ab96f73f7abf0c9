"""One built site (without MusicXML, the slow part; one for the whole run, shared by its workers)
and one local server for the site tests, the same in every language (--lang all) and its
server, and what drumscore's conductor lays out for the practice the page is tested with."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from browsers import CHROMIUM_ARGS, launch
from served import serving

from drumscore.site.build import build_site


def built_once(name: str, build: Callable[[Path], object]) -> Path:
    """The folder `build(folder)` makes, made once in the whole run: by the first of pytest-xdist's
    workers to ask (each worker has a session of its own), under a lock in the run's temporary
    folder, and read by the others when it is whole (moved into place once built)."""
    import fcntl

    shared = Path(tempfile.gettempdir()) / "drumscore-built"
    shared.mkdir(exist_ok=True)
    out = shared / name
    with open(shared / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if not out.is_dir():
                part = shared / f"{name}.part"
                shutil.rmtree(part, ignore_errors=True)  # a build that failed before
                build(part)
                part.rename(out)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    return out


@pytest.fixture(scope="session")
def site_dir():
    return built_once("site", lambda out: build_site(out, musicxml=False))


@pytest.fixture(scope="session")
def playwright():
    """Playwright's driver, one for a worker's site tests (its sync API runs one at a time)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    """One headless Chromium for a worker's site tests: each module opens its own contexts and
    pages in it, instead of starting a browser (and Playwright's driver) of its own."""
    b = launch(playwright, CHROMIUM_ARGS)
    yield b
    b.close()


def _serve(folder):
    with serving(folder) as url:
        yield url


@pytest.fixture(scope="session")
def site_url(site_dir):
    yield from _serve(site_dir)


@pytest.fixture(scope="session")
def all_site_dir():
    """The site in every language (as --lang all builds it), without MusicXML."""
    from drumscore.i18n import LANGUAGES

    return built_once(
        "site-all", lambda out: build_site(out, musicxml=False, languages=tuple(LANGUAGES))
    )


@pytest.fixture(scope="session")
def all_site_url(all_site_dir):
    yield from _serve(all_site_dir)


#: The rate the conductor lays the practice out at: a frame is a microsecond.
PRACTICE_RATE = 1_000_000


@pytest.fixture(scope="session")
def practice_hits():
    """--click 2 --only 鼙 --strokes 5-12 --ramp 40:60:5 on 魯's whole pattern, five passes, as
    drumscore's conductor lays them out (what the page's player must schedule): the rate, the
    hits, and each hit as the page's schedule has it."""
    from drumscore import corpus
    from drumscore.conductor.timeline import arrange
    from drumscore.conductor.track import Practice, Ramp, Track
    from drumscore.model import Drum, Section
    from drumscore.timing import Tempo

    score = corpus.resolve("lu")
    timeline = arrange(score, Section.SHE, Tempo.from_bpm(40), 5, strokes_range="5-12")
    practice = Practice(click=2, only=Drum.parse("鼙"), ramp=Ramp.parse("40:60:5"))
    hits = Track.single(timeline, practice=practice).hits(PRACTICE_RATE)
    return {"rate": PRACTICE_RATE, "hits": hits, "expected": laid_out(hits)}


def laid_out(hits) -> list[dict]:
    """The conductor's hits as the page's schedule has them: sample, click, muted, pass, index
    in the pass, tempo and subdivision."""
    return [
        {
            "drum": "count" if h.drum is None else h.drum.pinyin,
            "click": h.click,
            "muted": h.muted,
            "pass": h.pass_no,
            "index": h.index,
            "bpm": float(h.timeline.tempo.bpm),
            "sub": float(h.sub),
        }
        for h in hits
    ]


STATIC = Path(__file__).resolve().parents[2] / "drumscore" / "site" / "static"


@pytest.fixture
def run_script(tmp_path):
    """Runs a Node script beside a copy of the page's scripts (import "./engine.js" and
    "./fields.js" as the page does), `payload` as JSON on its standard input; its standard
    output read back as JSON."""

    def run(script: str, payload: dict) -> dict:
        folder = tmp_path / "static"
        if not folder.exists():
            shutil.copytree(STATIC, folder, ignore=shutil.ignore_patterns("*.css", "*.py"))
            (folder / "package.json").write_text('{"type": "module"}', encoding="utf-8")
        (folder / "script.js").write_text(script, encoding="utf-8")
        done = subprocess.run(
            ["node", str(folder / "script.js")],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    return run
