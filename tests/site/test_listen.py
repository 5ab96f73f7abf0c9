"""The served score page's Listen button, in real headless Chromium with its fake microphone
playing a take drumscore rendered with faults: the strokes, drums and faults the page lights
are check's on the same take, and check's report ends it; a page not served by drumscore serve
says how to have it instead of a button that cannot work."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
import soundfile as sf
from browsers import CHROMIUM_ARGS, launch
from performances import take, write_audio
from served import serving

from drumscore import corpus
from drumscore.cli.commands.serve import check_report
from drumscore.conductor.timeline import arrange
from drumscore.conductor.track import Track
from drumscore.performance.check import check
from drumscore.performance.listen import read_audio
from drumscore.site import data as sitedata
from drumscore.site.listening import Listening
from drumscore.timing import Tempo

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.requires("chromium")

KEY = "lu/1@zhushu"
BPM = 240
#: The take's faults (strokes of 魯's whole pattern, from 0): one missed, one on the other drum.
MISSED, WRONG = [4], [9]


def slug(key: str) -> str:
    return next(e.slug for e in sitedata.entries(corpus.editions()) if e.score.key == key)


@pytest.fixture(scope="module")
def faulty_take(tmp_path_factory):
    drums = [s.drum for s in corpus.resolve(KEY).pattern.strokes]
    t = take(drums, BPM, seed=11, spread_ms=15, missed=MISSED, wrong=WRONG)
    t.start = 1.2
    return write_audio(tmp_path_factory.mktemp("take") / "take.wav", t)


class Keeping(Listening):
    """The listening of drumscore serve, keeping each take it heard (as its samples), on a clock
    that moves only when a test moves it (`now`): a page slowed by a busy machine is not closed
    as idle, and a test closes an idle one exactly."""

    def __init__(self, report):
        self.now = 0.0
        super().__init__(report, clock=lambda: self.now)
        self.takes = []

    def end(self, session):
        samples = session.listener.listener.samples
        self.takes.append((samples.span(0, samples.frames).copy(), samples.samplerate))
        return super().end(session)


@pytest.fixture(scope="module")
def keeping():
    return Keeping(check_report)


@pytest.fixture(scope="module")
def listening_url(site_dir, keeping):
    with serving(site_dir, listening=keeping) as url:
        yield url


@pytest.fixture(scope="module")
def microphone(playwright, faulty_take):
    """Chromium whose microphone plays the take once, allowed without asking."""
    args = [
        *CHROMIUM_ARGS,
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-audio-capture={faulty_take}%noloop",
    ]
    browser = launch(playwright, args)
    yield browser
    browser.close()


@pytest.fixture(autouse=True)
def _no_session_left(keeping):
    """Each test starts with no page listening, whatever the one before left."""
    yield
    for session in list(keeping.sessions.values()):
        keeping.close(session)


def _heard(listening: Listening) -> float:
    """Seconds of sound the server has heard from the page listening now."""
    return max(
        (s.listener.listener.samples.frames / s.input.rate for s in listening.sessions.values()),
        default=0.0,
    )


def write_audio_samples(path, samples, rate):
    sf.write(path, samples, rate, "FLOAT")
    return path


def open_page(browser, url):
    page = browser.new_page(viewport={"width": 1200, "height": 1000})
    page.goto(url + f"score/{slug(KEY)}.html")
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    return page


def test_the_page_lights_the_strokes_check_finds_in_the_take(
    microphone, listening_url, keeping, faulty_take, tmp_path
):
    page = open_page(microphone, listening_url)
    page.wait_for_selector("#listen", state="visible")
    assert page.is_hidden("#along-static")
    page.fill("#bpm", str(BPM))
    page.dispatch_event("#bpm", "change")
    page.click("#listen")
    page.wait_for_selector("#along-lines li", timeout=10_000)
    # the whole take heard by the server, and a little of the silence after it: the microphone
    # plays it in real time, and the page sends it later on a busy machine (or, starved, drops
    # some of it: then the wait ends once the take has played and the server hears no more)
    length = sf.info(str(faulty_take)).duration + 0.5
    played = time.monotonic() + length
    heard = [_heard(keeping)]
    while heard[-1] < length and (time.monotonic() < played + 3 or heard[-1] > heard[-11:][0]):
        page.wait_for_timeout(100)
        heard.append(_heard(keeping))
    page.screenshot(path=str(tmp_path / "listening.png"), full_page=True)
    with page.expect_response(lambda r: r.url.endswith("/end")) as ended:
        page.click("#listen-end")
    answer = ended.value.json()
    page.wait_for_selector("#along-report", state="visible")
    timeline = arrange(corpus.resolve(KEY), "she", Tempo.from_bpm(BPM), 1)
    heard = answer["check"]
    # the report is check's on the take the server heard, to the digit
    samples, rate = keeping.takes[-1]
    received = write_audio_samples(tmp_path / "received.wav", samples, rate)
    again = check_report(check(read_audio(str(received)), Track.single(timeline)))[1]
    for report in (heard, again):
        report["performance"].pop("file")
    assert heard == again
    # and on the take as the file holds it: the same strokes, drums and faults
    expected = check_report(check(read_audio(str(faulty_take)), Track.single(timeline)))[1]
    assert heard["missing"] == expected["missing"] == [k + 1 for k in MISSED]
    assert heard["wrong"] == expected["wrong"] == [k + 1 for k in WRONG]
    assert heard["extra"] == expected["extra"] == []
    pairs = list(zip(heard["strokes"], expected["strokes"], strict=True))
    assert all(a["heard"] == b["heard"] for a, b in pairs)
    offsets = [(a["offset_ms"], b["offset_ms"]) for a, b in pairs if b.get("offset_ms") is not None]
    assert len(offsets) == len(pairs) - len(MISSED)
    # the fake microphone resamples the file to the page's rate, and on a loaded machine may
    # drop or repeat a buffer of it (10 ms): within 2 ms, or a buffer's worth
    assert max(abs(a - b) for a, b in offsets) < 25.0
    # the notation lights each stroke as heard: the missed one, the wrong one, the rest played
    marks = page.eval_on_selector_all(
        ".notation .stroke",
        "cells => cells.map(c => [Number(c.dataset.n), c.className, c.dataset.offset ?? null])",
    )
    kinds = {n: next((k for k in ("played", "wrong", "missed") if f"along-{k}" in cls), None)
             for n, cls, _offset in marks}  # fmt: skip
    assert kinds == {
        k + 1: "missed" if k in MISSED else "wrong" if k in WRONG else "played"
        for k in range(len(pairs))
    }
    shown = {n: offset for n, _cls, offset in marks if offset is not None}
    assert set(shown) == {k + 1 for k in range(len(pairs)) if k not in MISSED}
    # each offset shown is near check's own (the live beat is the first strokes', check's the
    # whole take's)
    for n, offset in shown.items():
        checked = heard["strokes"][n - 1]["offset_ms"]
        assert abs(float(offset.replace("−", "-")) - checked) < 15, (n, offset, checked)
    report = page.inner_text("#along-report")
    assert "missed" in report and "wrong drum" in report
    lines = page.eval_on_selector_all("#along-lines li", "items => items.map(li => li.textContent)")
    drum = corpus.resolve(KEY).pattern.strokes[MISSED[0]].drum.value
    assert f"stroke {MISSED[0] + 1} ({drum}) missed" in lines
    page.close()


def test_a_page_not_served_with_listening_says_how_to_have_it(microphone, site_url):
    page = open_page(microphone, site_url)
    assert page.is_visible("#along-static") and page.is_hidden("#listen")
    assert "drumscore serve" in page.inner_text("#along-static")
    page.close()


def test_one_page_listens_at_a_time_and_a_silent_one_is_closed(listening_url, keeping):
    import urllib.error
    import urllib.request

    from drumscore.site import listening

    def post(path, body):
        request = urllib.request.Request(listening_url.rstrip("/") + path, data=body, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())

    start = json.dumps({"score": KEY, "bpm": BPM, "rate": 48000, "lang": "en"}).encode()
    status, first = post("/listen/start", start)
    assert status == 200
    status, refused = post("/listen/start", start)
    assert status == 409 and "another page is listening" in refused["error"]
    silence = np.zeros(4800, "<f4").tobytes()
    status, answer = post(f"/listen/{first['id']}", silence)
    assert status == 200 and answer["heard"] == pytest.approx(0.1)
    status, refused = post(f"/listen/{first['id']}", b"\0" * (48000 * 4 * 3))
    assert status == 413
    keeping.now += listening.IDLE_SECONDS - 0.5
    status, answer = post(f"/listen/{first['id']}", silence)
    assert status == 200  # not yet idle
    keeping.now += listening.IDLE_SECONDS + 0.5
    status, gone = post(f"/listen/{first['id']}", silence)
    assert status == 404 and "sent nothing for a while" in gone["error"]
    bad = json.dumps({"score": "nope", "bpm": 60, "rate": 48000}).encode()
    status, refused = post("/listen/start", bad)
    assert status == 400 and "nope" in refused["error"]
    status, again = post("/listen/start", start)
    assert status == 200
    status, ended = post(f"/listen/{again['id']}/end", b"")
    assert status == 400 and "no strokes" in ended["error"]  # silence: check says so
    status, gone = post(f"/listen/{again['id']}", silence)
    assert status == 404


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans"])
def test_the_static_page_says_in_each_language_how_to_have_listening(all_site_dir, lang):
    """Built for any server, the button is hidden until drumscore serve answers for it; the note
    beside it, in the page's language, names drumscore serve."""
    import re

    page = (all_site_dir / lang / "score" / f"{slug(KEY)}.html").read_text(encoding="utf-8")
    note = re.search(r'<p id="along-static" class="note">(.*?)</p>', page, re.S)[1]
    assert "<code>drumscore serve</code>" in note
    words = {"en": "microphone", "zh-Hant": "麥克風", "zh-Hans": "麦克风"}
    assert words[lang] in note
    assert re.search(r'<div id="along-served" class="controls" hidden>', page)
