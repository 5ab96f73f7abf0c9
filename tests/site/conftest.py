"""One built site (without MusicXML, the slow part) and one local server for the site tests, the
same in every language (--lang all) and its server, and what drumscore's conductor lays out for
the practice the page is tested with."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from served import serving

from drumscore.site.build import build_site


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("site") / "out"
    build_site(out, musicxml=False)
    return out


def _serve(folder):
    with serving(folder) as url:
        yield url


@pytest.fixture(scope="session")
def site_url(site_dir):
    yield from _serve(site_dir)


@pytest.fixture(scope="session")
def all_site_dir(tmp_path_factory):
    """The site in every language (as --lang all builds it), without MusicXML."""
    from drumscore.i18n import LANGUAGES

    out = tmp_path_factory.mktemp("site-all") / "out"
    build_site(out, musicxml=False, languages=tuple(LANGUAGES))
    return out


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
