"""The site in a real browser (headless Chromium driven by Playwright): the index, the score
pages, playback on the audio clock, the in-page WAV, the compare view, the phone width, and no
request leaving 127.0.0.1."""

from __future__ import annotations

import base64
import io
import json
import os
import re
from pathlib import Path
from urllib.parse import urlparse

import numpy as np
import pytest
from browsers import samples_digest, wav_digest
from served import serving

from drumscore import corpus
from drumscore.conductor.timeline import Timeline, arrange
from drumscore.conductor.track import Hit, Role, Track
from drumscore.model import Drum, Section
from drumscore.site import data as sitedata
from drumscore.timing import Tempo

DESKTOP = {"width": 1200, "height": 900}
PHONE = {"width": 390, "height": 844}

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.requires("chromium")


@pytest.fixture(scope="module")
def requests_seen():
    return []


@pytest.fixture(scope="module")
def context(browser, requests_seen):
    """One browser context for the module; every request is recorded (and Chromium refuses any
    request for anything but 127.0.0.1: CHROMIUM_ARGS)."""
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.on("request", lambda r: requests_seen.append(r.url))
    yield ctx
    ctx.close()


@pytest.fixture(scope="module")
def shared_page(context):
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg, errors
    pg.close()


@pytest.fixture
def page(shared_page):
    """The module's one page (each test navigates it), in front (a page behind another has no
    animation frames: its highlight stands still, and each click waits for a frame that does not
    come); no script error may happen in a test."""
    pg, errors = shared_page
    errors.clear()
    pg.bring_to_front()
    pg.set_viewport_size(DESKTOP)
    yield pg
    assert errors == []


def goto(page, site_url, path):
    page.goto(site_url + path)
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")


def slug(key: str) -> str:
    return next(e.slug for e in sitedata.entries(corpus.editions()) if e.score.key == key)


def test_the_index_lists_every_score_of_the_corpus(page, site_url):
    page.goto(site_url + "index.html")
    keys = set(page.eval_on_selector_all("a.score-link", "as => as.map(a => a.dataset.key)"))
    assert keys == {s.key for s in corpus.scores()}
    # where the editions part: one entry per distinct reading of each figure and drum
    for figure in (1, 2):
        readings = {e.score("魯", figure).pattern.notation for e in corpus.editions()}
        assert page.locator(f"#lu-{figure} .reading").count() == len(readings)
    assert page.locator("#lu-2 .reading").count() == 3  # 禮記注疏, one ○ fewer, 儀禮經傳通解


@pytest.fixture(scope="module")
def cjk_site_url(tmp_path_factory):
    """A site of two editions whose ids differ only in a CJK character (禮記甲, 禮記乙), served."""
    import tomllib

    from drumscore.corpus import edition_from_dict
    from drumscore.editions.extract import extract
    from drumscore.editions.write import edition_toml
    from drumscore.site.build import build_site

    lu, xue = corpus.resolve("lu/1@zhushu"), corpus.resolve("xue/1@zhushu")
    found = extract(f"鼓{lu.printed}魯鼓{xue.printed}薛鼓\n")
    editions = [
        edition_from_dict(tomllib.loads(edition_toml(found, ident, name=name)))
        for ident, name in (("禮記甲", "甲本"), ("禮記乙", "乙本"))
    ]
    out = tmp_path_factory.mktemp("cjk-site") / "out"
    build_site(out, editions, corpus_editions=False, musicxml=False)
    with serving(out) as url:
        yield url


def test_editions_whose_ids_differ_only_in_cjk_get_pages_whose_links_work(page, cjk_site_url):
    from urllib.parse import unquote

    page.goto(cjk_site_url + "index.html")
    links = page.eval_on_selector_all(
        "a.score-link", "as => as.map(a => [a.dataset.key, a.getAttribute('href')])"
    )
    hrefs = dict(links)
    assert set(hrefs) == {"lu/1@禮記甲", "xue/1@禮記甲", "lu/1@禮記乙", "xue/1@禮記乙"}
    assert len(set(hrefs.values())) == 4  # a page each, named by its id's own characters
    assert hrefs["lu/1@禮記甲"] == "score/lu-1-禮記甲.html"
    for key, href in hrefs.items():
        page.goto(cjk_site_url + "index.html")
        page.click(f'a.score-link[data-key="{key}"]')
        page.wait_for_function("document.documentElement.dataset.ready === 'true'")
        assert unquote(page.url) == cjk_site_url + href
        name, other = ("甲本", "乙本") if key.endswith("甲") else ("乙本", "甲本")
        title = page.title()
        assert name in title and other not in title, (key, title)
        assert page.locator(".notation .stroke").count() > 0
        # its downloads, named after the page, are found too
        status = page.evaluate(
            """async () => (await fetch(document.querySelector('a[href$=".mid"]').href)).status"""
        )
        assert status == 200, key


def test_each_score_page_shows_its_glyphs_with_half(page, site_url):
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    shown = page.locator(".notation .stroke, .notation .half-mark").all_inner_texts()
    assert "".join(shown) == corpus.resolve("lu").pattern.notation
    # every other page, read by the browser's own HTML parser
    pages = {e.score.key: f"score/{e.slug}.html" for e in sitedata.entries(corpus.editions())}
    found = page.evaluate(
        """async (pages) => Object.fromEntries(await Promise.all(
            Object.entries(pages).map(async ([key, path]) => {
              const text = await (await fetch('../' + path)).text();
              const doc = new DOMParser().parseFromString(text, 'text/html');
              return [key, [...doc.querySelectorAll('.notation .stroke, .notation .half-mark')]
                .map(e => e.textContent).join('')];
            }))
        )""",
        pages,
    )
    assert found == {s.key: s.pattern.notation for s in corpus.scores()}


def test_every_score_page_shows_the_stated_counts_with_their_quotes_in_a_browser(page, site_url):
    from drumscore.apparatus.counts import check_score

    entries = sitedata.entries(corpus.editions())
    pages = {e.slug: f"score/{e.slug}.html" for e in entries}
    goto(page, site_url, f"score/{entries[0].slug}.html")
    shown = page.evaluate(
        """async (pages) => Object.fromEntries(await Promise.all(
            Object.entries(pages).map(async ([slug, path]) => {
              const text = await (await fetch('../' + path)).text();
              const doc = new DOMParser().parseFromString(text, 'text/html');
              const counts = doc.querySelector('section[aria-labelledby="counts-h"]');
              return [slug, counts ? [...counts.querySelectorAll('q')].map(q => q.textContent)
                                   : null];
            }))
        )""",
        pages,
    )
    quoted = 0
    for entry in entries:
        wanted = {q.text for c in check_score(entry.score) for q in c.quotes if q.text}
        assert shown[entry.slug] is not None, entry.slug
        assert wanted <= set(shown[entry.slug]), (entry.slug, wanted - set(shown[entry.slug]))
        quoted += bool(wanted)
    assert quoted == len(entries)  # 徐伯魯's counts are quoted for every figure and drum


def test_play_schedules_every_stroke_on_the_audio_clock_and_the_highlight_follows(page, site_url):
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    page.fill("#bpm", "120")
    page.dispatch_event("#bpm", "change")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.log.length >= 2")
    schedule = page.evaluate("window.drumscore.player.schedule")
    pattern = corpus.resolve("lu").pattern
    assert len(schedule) == len(pattern) == 23
    assert [e["k"] for e in schedule] == list(range(23))
    start = schedule[0]["time"]
    assert [e["time"] - start for e in schedule] == [k * 0.5 for k in range(23)]
    files = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
    assert [e["sample"] for e in schedule] == [files[s.drum] for s in pattern.strokes]
    log = page.evaluate("window.drumscore.player.log")
    lit = page.eval_on_selector(".notation .stroke.now", "e => Number(e.dataset.i)")
    page.click("#stop")
    ks = [e["k"] for e in log]
    assert ks == list(range(len(ks)))
    for entry in log:  # lit when its own time has come on the audio clock, not before
        assert entry["at"] >= entry["time"] - 1e-9
        assert entry["time"] == start + 0.5 * entry["k"]
    assert lit in (ks[-1], ks[-1] + 1)


def test_the_count_in_comes_on_the_same_beat_before_the_first_stroke(page, site_url):
    goto(page, site_url, f"score/{slug('lu/2@zhushu')}.html")
    page.select_option("#section", "touhu")
    page.fill("#count-in", "4")
    page.fill("#bpm", "240")
    page.dispatch_event("#bpm", "change")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.schedule.length > 4")
    schedule = page.evaluate("window.drumscore.player.schedule")
    page.click("#stop")
    touhu = corpus.resolve("lu/2").pattern.section(Section.TOUHU)
    assert [e["sample"] for e in schedule[:4]] == ["count.wav"] * 4
    assert [e["k"] for e in schedule] == list(range(-4, len(touhu)))
    start = schedule[0]["time"]
    assert [e["time"] - start for e in schedule] == [0.25 * i for i in range(len(schedule))]
    files = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
    assert [e["sample"] for e in schedule[4:]] == [files[s.drum] for s in touhu]


def test_a_section_switch_and_a_stop_come_at_the_end_of_the_pass(page, site_url):
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    page.select_option("#section", "touhu")
    page.check("#loop")
    page.fill("#bpm", "1200")
    page.dispatch_event("#bpm", "change")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.schedule.length >= 12")
    page.keyboard.press("s")  # 投壺 → 射 from the end of the pass being heard
    # once the 射 pass is being heard (its first strokes stand before 半), stop when it ends
    page.wait_for_function("(window.drumscore.player.current || {mark: 99}).mark < 11")
    page.keyboard.press("q")
    page.wait_for_function("window.drumscore.player.state === 'stopped'")
    schedule = page.evaluate("window.drumscore.player.schedule")
    pattern = corpus.resolve("lu").pattern
    touhu = [s.index for s in pattern.section(Section.TOUHU)]
    she = [s.index for s in pattern.strokes]
    marks = [e["mark"] for e in schedule]
    passes = marks.index(0)  # the first stroke of 射 begins the switched pass
    assert passes % len(touhu) == 0 and marks[:passes] == touhu * (passes // len(touhu))
    assert marks[passes:] == she  # one whole 射 pass, then the stop
    ks = [e["k"] for e in schedule]
    assert ks == list(range(len(ks)))
    start = schedule[0]["time"]
    assert [round((e["time"] - start) / 0.05, 9) for e in schedule] == ks


def test_tap_tempo(page, site_url):
    """Taps time the tempo by their events' own stamps: three taps 0.3 s apart are 200 a
    minute, then taps 0.35 s apart 171.4 (to 0.1, as play has it). The stamps are set on the
    events, not waited for, so a busy machine's slow key presses cannot move them."""
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    tap = """(ms) => { const e = new KeyboardEvent('keydown', {key: 't', bubbles: true});
        Object.defineProperty(e, 'timeStamp', {value: ms});
        document.body.dispatchEvent(e); }"""
    for ms in (10_000, 10_300, 10_600):
        page.evaluate(tap, ms)
    assert page.input_value("#bpm") == "200"
    for ms in (20_000, 20_350, 20_700):  # after a pause past tap_reset: a new count
        page.evaluate(tap, ms)
    assert page.input_value("#bpm") == "171.4"


def test_the_highlight_moves_through_every_stroke_in_order(page, site_url):
    """At 600 a minute the highlight lights each stroke in turn, none twice, none out of order;
    a stroke goes unlit only where the page drew no frame while it was the latest sound (a busy
    machine may hold a frame back past a tenth of a second: the highlight shows what sounds
    now, not what it missed)."""
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    page.fill("#bpm", "600")
    page.dispatch_event("#bpm", "change")
    page.evaluate(
        # each stroke that held the highlight, from the records of its class (a busy machine
        # may change it twice before the observer runs: its old values still say each)
        """() => { window.lit = [];
        const note = (i) => { if (window.lit[window.lit.length - 1] !== i) window.lit.push(i); };
        new MutationObserver((records) => {
          for (const r of records)
            if ((r.oldValue || '').split(/\\s+/).includes('now')) note(Number(r.target.dataset.i));
          const e = document.querySelector('.notation .stroke.now');
          if (e) note(Number(e.dataset.i));
        }).observe(document.querySelector('.notation'),
                   {subtree: true, attributes: true, attributeFilter: ['class'],
                    attributeOldValue: true}); }"""
    )
    page.evaluate(
        # the audio clock at each frame the page draws while it plays, as the player reads it
        """() => { window.drawn = [];
        const frame = () => { const p = window.drumscore.player;
          if (p.ctx && p.state === 'playing')
            window.drawn.push(p.ctx.currentTime - (p.ctx.outputLatency || 0));
          requestAnimationFrame(frame); };
        requestAnimationFrame(frame); }"""
    )
    page.keyboard.press("Space")
    page.wait_for_function("window.drumscore.player.state === 'playing'")
    page.wait_for_function("window.drumscore.player.state === 'stopped'")
    lit, drawn, schedule = page.evaluate(
        "[window.lit, window.drawn, window.drumscore.player.schedule]"
    )
    assert "Played 23 strokes" in page.inner_text("#status")
    assert lit[0] == 0 and lit[-1] == 22 and lit == sorted(set(lit)), lit
    times = sorted(e["time"] for e in schedule if e["index"] >= 0 and not e.get("click"))
    assert len(times) == 23
    quantum = 128 / 44100  # the audio clock moves by a render quantum: a frame so near is not one
    for i in sorted(set(range(23)) - set(lit)):
        during = [t for t in drawn if times[i] + quantum <= t < times[i + 1] - quantum]
        assert not during, f"stroke {i} was never lit, though frames were drawn at {during}"
    assert len(drawn) > 23  # (the frames were recorded)


def test_keys_in_every_state_as_drumscore_play_has_them(page, site_url):
    """Stopped, playing without and with Loop, paused: each key does what it does in `play`, and
    the tempo box and the status line agree the moment a key is pressed."""
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    status = lambda: page.inner_text("#status")  # noqa: E731
    state = lambda: page.evaluate("window.drumscore.player.state")  # noqa: E731
    # stopped: q does nothing; [ changes the tempo and the status says so at once
    before = status()
    page.keyboard.press("q")
    assert state() == "stopped" and status() == before
    page.keyboard.press("[")
    assert page.input_value("#bpm") == "55" and "55 strokes a minute" in status()
    # playing without Loop: s does not stop the sound; it waits for the end of the pass
    page.keyboard.press("Space")
    page.wait_for_function("!!window.drumscore.player.current")
    page.keyboard.press("]")
    assert page.input_value("#bpm") == "60" and "· 60 a minute" in status()
    scheduled = page.evaluate("window.drumscore.player.schedule.length")
    page.keyboard.press("s")
    assert state() == "playing" and "[switch at end of pass]" in status()
    assert page.evaluate("window.drumscore.player.schedule.length") >= scheduled - 2
    page.keyboard.press("s")  # again: called off
    assert "switch at end of pass" not in status()
    # paused: q waits for the end of the pass, shown at once; Esc stops
    page.keyboard.press("Space")
    assert state() == "paused" and "Paused" in status()
    page.keyboard.press("q")
    assert state() == "paused" and "[stop at end of pass]" in status()
    page.keyboard.press("Escape")
    assert state() == "stopped"
    # looping: s switches from the end of the pass, q stops there
    page.check("#loop")
    page.keyboard.press("Space")
    page.wait_for_function("!!window.drumscore.player.current")
    page.keyboard.press("s")
    assert page.input_value("#section") == "touhu" and "[switch at end of pass]" in status()
    page.keyboard.press("q")
    assert "[stop at end of pass]" in status()
    page.keyboard.press("Escape")


def test_the_page_data_holds_what_the_player_shares_with_drumscore(page, site_url):
    from drumscore.conductor.track import MAX_COUNT_IN
    from drumscore.play import keys
    from drumscore.render.mix import PEAK_DBFS

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    play = page.evaluate("JSON.parse(document.getElementById('page-data').textContent).play")
    assert play["keys"]["steps"] == keys.TEMPO_STEPS
    assert (play["tap_reset"], play["taps"], play["peak_dbfs"]) == (
        keys.TAP_RESET,
        keys.TAPS,
        PEAK_DBFS,
    )
    assert page.get_attribute("#count-in", "max") == str(MAX_COUNT_IN) == str(play["max_count_in"])
    page.fill("#count-in", str(MAX_COUNT_IN + 10))
    assert page.evaluate("window.drumscore.countIn()") == MAX_COUNT_IN
    # the practice controls: --click's limit, and --only's drums by every name drumscore takes
    from drumscore.conductor.track import MAX_CLICKS

    assert page.get_attribute("#click", "max") == str(MAX_CLICKS)
    page.fill("#click", str(MAX_CLICKS + 5))
    assert page.evaluate("window.drumscore.practice().clicks") == MAX_CLICKS
    assert page.eval_on_selector_all("#only option", "os => os.map(o => o.value)") == [
        "",
        "pi",
        "gu",
    ]
    names = {d.pinyin: [d.value, d.pinyin, d.symbol] for d in Drum}
    fields = page.evaluate("JSON.parse(document.getElementById('page-data').textContent).fields")
    assert fields["drums"] == names
    # the rate render writes at, not a number of the script's own
    from drumscore.files.format_choice import DEFAULT_RATE

    assert play["rate"] == DEFAULT_RATE


def test_keys_match_drumscore_play(page, site_url):
    goto(page, site_url, f"score/{slug('xue/2@zhushu')}.html")
    page.keyboard.press("Space")
    page.wait_for_function("window.drumscore.player.state === 'playing'")
    page.keyboard.press("+")
    page.keyboard.press("]")
    page.keyboard.press("-")
    assert page.input_value("#bpm") == "65"
    player = page.evaluate("({bpm: window.drumscore.player.bpm})")
    assert player["bpm"] == 65
    page.keyboard.press("Space")
    assert page.evaluate("window.drumscore.player.state") == "paused"
    page.keyboard.press("Space")
    assert page.evaluate("window.drumscore.player.state") == "playing"
    page.keyboard.press("Escape")
    assert page.evaluate("window.drumscore.player.state") == "stopped"
    # every control is reached with Tab
    reached = set()
    for _ in range(40):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id"))
    assert {
        "play",
        "stop",
        "section",
        "bpm",
        "bpm-range",
        "count-in",
        "loop",
        "make-wav",
    } <= reached


def made_wav(page):
    """Make WAV pressed: the WAV the page made, as float samples (frames, 2), and its rate."""
    import soundfile as sf

    page.click("#make-wav")
    page.wait_for_selector("#wav-link:not([hidden])")
    encoded = page.evaluate(
        """async () => {
            const href = document.getElementById('wav-link').href;
            const bytes = new Uint8Array(await (await fetch(href)).arrayBuffer());
            let s = ''; for (let i = 0; i < bytes.length; i += 0x8000)
              s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            return btoa(s);
        }"""
    )
    return sf.read(io.BytesIO(base64.b64decode(encoded)), dtype="float32", always_2d=True)


def test_the_page_s_wav_is_the_python_render(page, site_url):
    from audio_checks import strokes

    from drumscore.render.mix import render_audio

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    page.fill("#bpm", "120")
    page.dispatch_event("#bpm", "change")
    web, rate = made_wav(page)
    assert page.get_attribute("#wav-link", "download") == "lu-1-zhushu-she-120bpm.wav"
    timeline = arrange(corpus.resolve("lu"), Section.SHE, Tempo.from_bpm(120))
    ours = render_audio(timeline)
    assert rate == 44100 and web.shape == ours.shape
    a, b = web.mean(axis=1), ours.mean(axis=1)
    lag = int(np.argmax(np.correlate(a[:20000], b[:20000], "full"))) - (20000 - 1)
    assert lag == 0
    assert np.corrcoef(a, b)[0, 1] > 0.99
    heard_web = strokes(web, rate)
    expected = [(hit.frame, hit.drum) for hit in Track.single(timeline).hits(rate)]
    assert heard_web == expected


def _page_marks(page) -> dict:
    return page.evaluate(
        """() => ({
            kinds: [...document.querySelectorAll('#alignment .marks td[data-kind]')]
                     .map(e => e.dataset.kind),
            marked: [...document.querySelectorAll('#alignment .marks td[data-kind]')]
                     .filter(e => e.textContent !== '').length,
            a: [...document.querySelectorAll('#alignment .side-a td[data-col]')]
                 .map(e => e.textContent).join(''),
            halves: [...document.querySelectorAll('#alignment .side-a td.half-mark, '
                 + '#alignment .side-b td.half-mark')].length,
        })"""
    )


def choose(page, a: str, b: str) -> None:
    """Type two names into the compare view and press Compare."""
    page.fill("#a-name", a)
    page.fill("#b-name", b)
    page.click("#choose button[type=submit]")
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")


def test_the_compare_view_marks_what_drumscore_compare_reports(page, site_url, capsys):
    from cli_run import run_cli

    goto(page, site_url, "compare.html")
    pairs = [("lu/2@zhushu", "lu/2@xunzuan"), ("xue/2@zhushu", "xue/2@benyi"), ("lu/1", "xue/1")]
    for a, b in pairs:
        code, out, _ = run_cli(["compare", a, b, "--json"], capsys)
        assert code == 0
        reported = json.loads(out)
        choose(page, a, b)
        shown = _page_marks(page)
        assert shown["kinds"] == [col["kind"] for col in reported["alignment"]], (a, b)
        assert shown["marked"] == reported["distance"]
        assert shown["a"] == "".join(col["a"] or "·" for col in reported["alignment"])
        assert shown["halves"] == 2
    # differences there are: lu/2 one, xue/2 one, and the two states many
    assert [_count_marked(page, a, b) for a, b in pairs[:2]] == [1, 1]


def test_the_compare_view_shows_the_marks_drumscore_compare_prints(page, site_url, capsys):
    from cli_run import run_cli

    goto(page, site_url, "compare.html")
    pairs = [("lu/2@zhushu", "lu/2@tongjie"), ("lu/1@zhushu", "lu/1@wuli"), ("lu/1", "xue/1")]
    for a, b in pairs:
        code, out, _ = run_cli(["compare", a, b], capsys)
        assert code == 0
        marks_line = out.splitlines()[5]  # the line under the rows A and B
        printed = [ch for ch in marks_line if ch != " "]
        choose(page, a, b)
        shown = page.evaluate(
            """() => [...document.querySelectorAll('#alignment .marks td[data-kind]')]
                     .map(e => e.textContent).filter(t => t !== '')"""
        )
        assert shown == printed and printed, (a, b)
    # what the page says each mark means is the mark itself, as the report has it
    lead = page.locator("p.lead").inner_text()
    assert "- a stroke only in A" in lead and "−" not in lead


def _count_marked(page, a, b) -> int:
    choose(page, a, b)
    return _page_marks(page)["marked"]


def _shown_keys(page) -> list[str]:
    return page.evaluate(
        "(() => { const c = window.drumscore.comparison(); return c ? [c.a.key, c.b.key] : []; })()"
    )


def test_the_compare_view_takes_every_name_the_command_line_takes(page, site_url):
    goto(page, site_url, "compare.html?a=lu&b=lu/2")
    assert _shown_keys(page) == ["lu/1@zhushu", "lu/2@zhushu"]
    summary = page.inner_text("#summary")
    assert "(lu/1@zhushu)" in summary and "(lu/2@zhushu)" in summary and "[" not in summary
    assert page.locator("#problem").is_hidden()
    benyi = corpus.resolve("xue/2@benyi")
    # a name in another spelling, and raw notation (with 〇 and 口) that an edition reads
    raw = benyi.pattern.notation.replace("○", "〇").replace("□", "口")
    choose(page, "薛/2@benyi", raw)
    keys = _shown_keys(page)
    assert keys[0] == benyi.key
    assert corpus.resolve(keys[1]).pattern.notation == benyi.pattern.notation
    # spaced as the command line takes them
    choose(page, "lu/2 @zhushu", "xue / 2 @ benyi")
    assert _shown_keys(page) == ["lu/2@zhushu", "xue/2@benyi"]
    assert page.locator("#problem").is_hidden()


def test_bad_input_an_unknown_name_is_said_on_the_compare_page(page, site_url):
    goto(page, site_url, "compare.html?a=nonsense&b=lu/2")
    problem = page.locator("#problem")
    assert problem.is_visible() and "unknown name" in problem.inner_text()
    assert "nonsense" in problem.inner_text()
    assert _shown_keys(page) == []
    assert page.locator("#alignment td").count() == 0  # no pair shown as if it were asked for
    choose(page, "lu", "xue/3")
    assert "B: unknown figure" in page.inner_text("#problem")  # as the command line says


@pytest.mark.parametrize("tag", ["zh-Hant", "zh-Hans"])
def test_the_compare_view_labels_a_and_b_with_a_full_width_colon_in_chinese(
    page, all_site_url, tag
):
    """What compare.js writes itself: "A：" before each side's name and each side's problem."""
    goto(page, all_site_url, f"{tag}/compare.html?a=lu&b=xue")
    summary = page.inner_text("#summary")
    assert summary.count("A：") == 1 and summary.count("B：") == 1
    assert "A: " not in summary and "B: " not in summary
    # each side's name in full-width parentheses, no […]
    assert "（lu/1@zhushu）" in summary and "（xue/1@zhushu）" in summary and "[" not in summary
    goto(page, all_site_url, f"{tag}/compare.html?a=lu&b=xue/3")
    problem = page.inner_text("#problem")
    assert problem.startswith("B：") and "B: " not in problem and "3" in problem


def test_a_score_page_compares_with_the_reading_that_differs_most(page, site_url):
    goto(page, site_url, f"score/{slug('lu/2@zhushu')}.html")
    page.click("#compare-link")
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    a, b = _shown_keys(page)
    ours, other = corpus.resolve(a), corpus.resolve(b)
    assert a == "lu/2@zhushu" and (other.state, other.figure) == (ours.state, ours.figure)
    from drumscore.analysis.compare import compare

    same = [s for s in corpus.scores() if (s.state, s.figure) == (ours.state, ours.figure)]
    most = max(compare(ours, s).distance for s in same)
    assert compare(ours, other).distance == most > 0


def test_a_then_b_plays_both_readings_on_one_beat(page, site_url):
    goto(page, site_url, "compare.html?a=lu/2@zhushu&b=lu/2@xunzuan")
    page.fill("#bpm", "1200")
    page.dispatch_event("#bpm", "change")
    page.click("#play-ab")
    page.wait_for_function("window.drumscore.player.schedule.length > 0")
    schedule = page.evaluate("window.drumscore.player.schedule")
    a, b = corpus.resolve("lu/2").pattern, corpus.resolve("lu/2@xunzuan").pattern
    assert len(schedule) == len(a) + len(b)
    start = schedule[0]["time"]
    ks = [*range(len(a)), *range(len(a) + 2, len(a) + 2 + len(b))]
    assert [round((e["time"] - start) / 0.05, 9) for e in schedule] == ks
    page.click("#stop")


def test_screenshots_and_no_sideways_scroll(page, site_url, tmp_path_factory):
    """Index, a score page and the compare view at desktop and phone width. The pictures go to
    $DRUMSCORE_SCREENSHOTS (whole pages) if it is set, else to a temporary folder."""
    wanted = os.environ.get("DRUMSCORE_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("shots")
    folder.mkdir(parents=True, exist_ok=True)
    views = {
        "index": "index.html",
        "score": f"score/{slug('lu/1@zhushu')}.html",
        "compare": "compare.html?a=lu/2@zhushu&b=lu/2@xunzuan",
    }
    for size in (DESKTOP, PHONE):
        page.set_viewport_size(size)
        for name, path in views.items():
            goto(page, site_url, path) if name != "index" else page.goto(site_url + path)
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, (name, size, overflow)
            shot = folder / f"{name}-{size['width']}.png"
            page.screenshot(path=str(shot), full_page=bool(wanted))
            assert shot.stat().st_size > 10_000


@pytest.fixture(scope="module")
def edition_site(tmp_path_factory):
    """A site of one edition, with its MusicXML downloads (and its staff notation where Verovio
    is installed), served: its address and the edition file."""

    from drumscore.site.build import build_site

    mine = tmp_path_factory.mktemp("staff") / "mine.toml"
    mine.write_text(
        f'id = "mine"\nname = "Mine"\n[[score]]\nfigure = 2\nstate = "魯"\n'
        f'printed = "{corpus.resolve("lu/2").pattern.notation}"\n',
        encoding="utf-8",
    )
    out = mine.parent / "site"
    build_site(out, [corpus.load_edition(mine)], corpus_editions=False)
    with serving(out) as url:
        yield url, mine


@pytest.fixture(scope="module")
def staff_site(edition_site):
    """The site of one edition with its staff notation (Verovio), served."""
    pytest.importorskip("verovio", reason="Verovio (the notation extra) is not installed")
    return edition_site[0]


def _heads_and_glyphs(page) -> dict:
    """The engraving's notehead size as the page shows it (the SVG drawn at the width the page
    gives its image) and the notation row's glyph size."""
    return page.evaluate(
        """async () => {
            const img = document.querySelector('.staff img');
            // a lazy image below the fold loads (and decodes) only once it is in view
            img.scrollIntoView({block: 'center'});
            await img.decode();
            window.scrollTo(0, 0);
            const width = img.getBoundingClientRect().width;
            const text = await (await fetch(img.currentSrc || img.src)).text();
            const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
            const box = document.createElement('div');
            box.style.cssText = `position:absolute;left:0;top:0;width:${width}px`;
            const drawn = document.importNode(svg, true);
            drawn.setAttribute('width', width);
            box.append(drawn);
            document.body.append(box);
            const heads = [...box.querySelectorAll('.notehead')].map(
                (e) => e.getBoundingClientRect().height);
            box.remove();
            const glyph = parseFloat(getComputedStyle(
                document.querySelector('.notation .stroke')).fontSize);
            const staff = document.querySelector('.staff');
            return {heads, glyph, scrolls: staff.scrollWidth > staff.clientWidth,
                    page: document.documentElement.scrollWidth
                          - document.documentElement.clientWidth};
        }"""
    )


def test_at_phone_width_the_staff_notation_is_as_large_as_the_notation(page, staff_site):
    page.set_viewport_size(PHONE)
    goto(page, staff_site, "score/lu-2-mine.html")
    shown = _heads_and_glyphs(page)
    assert len(shown["heads"]) == len(corpus.resolve("lu/2").pattern)
    assert min(shown["heads"]) >= shown["glyph"] > 20, shown
    assert shown["scrolls"] and shown["page"] <= 0  # the engraving's box scrolls, not the page
    wanted = os.environ.get("DRUMSCORE_SCREENSHOTS")
    if wanted:
        page.locator(".staff").screenshot(path=str(Path(wanted) / "staff-390.png"))
    page.set_viewport_size(DESKTOP)
    goto(page, staff_site, "score/lu-2-mine.html")
    assert not _heads_and_glyphs(page)["scrolls"]  # a desktop shows it whole


def test_no_request_left_127_0_0_1(requests_seen, site_url):
    assert requests_seen, "the other tests made no request"
    local = urlparse(site_url).hostname
    outside = [
        u
        for u in requests_seen
        if urlparse(u).scheme not in ("data", "blob") and urlparse(u).hostname != local
    ]
    assert outside == []
    assert all(
        urlparse(u).hostname == "127.0.0.1"
        for u in requests_seen
        if urlparse(u).scheme.startswith("http")
    )


def test_the_notebook_view_plays_in_a_browser(page, tmp_path_factory):
    from drumscore.site.notebook import score_html

    score = corpus.resolve("xue/2")
    page.set_content(score_html(score))
    duration = page.evaluate(
        """() => new Promise((done, fail) => {
            const audio = document.querySelector('audio');
            if (audio.readyState >= 1) return done(audio.duration);
            audio.addEventListener('loadedmetadata', () => done(audio.duration));
            audio.addEventListener('error', () => fail('the browser cannot read the audio'));
        })"""
    )
    expected = len(render_audio_of(score)) / 44100
    assert abs(duration - expected) < 0.01
    shown = page.locator(".nb-notation span.pi, .nb-notation span.gu, .nb-half").all_inner_texts()
    assert "".join(shown) == score.pattern.notation
    wanted = os.environ.get("DRUMSCORE_SCREENSHOTS")
    if wanted:
        page.screenshot(path=str(Path(wanted) / "notebook.png"))


def render_audio_of(score):
    from drumscore.render.mix import render_audio

    return render_audio(arrange(score))


def set_practice(page, click: str, only: str, strokes: str, ramp: str) -> None:
    page.fill("#click", click)
    page.select_option("#only", only)
    page.fill("#strokes", strokes)
    page.fill("#ramp", ramp)


def test_the_practice_controls_schedule_what_drumscore_s_conductor_lays_out(
    page, site_url, practice_hits
):
    """Click 2, only 鼙, strokes 5-12 and ramp 40:60:5 set on the page: the first pass scheduled
    is the conductor's first pass for the same options (at 40 a minute, clicks halfway, ○ heard
    and □ muted, strokes 5 to 12), and the status numbers the first stroke played as the
    terminal does (`drumscore play --strokes 5-12` says "stroke 1/8": the strokes played)."""
    from drumscore.play.liveview import _stroke_fields

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    set_practice(page, "2", "pi", "5-12", "40:60:5")
    page.check("#loop")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.log.length >= 1")
    schedule = page.evaluate("window.drumscore.player.schedule")
    status = page.text_content("#status")
    page.click("#stop")
    rate = practice_hits["rate"]
    expected = [e for e in practice_hits["expected"] if e["pass"] == 1]
    hits = [h for h in practice_hits["hits"] if h.pass_no == 1]
    first = [e for e in schedule if e["pass"] == 1]
    keys = ("click", "muted", "pass", "index", "bpm")
    assert [
        {k: bool(e.get(k)) if k in ("click", "muted") else e[k] for k in keys} for e in first
    ] == [{k: e[k] for k in keys} for e in expected]
    files = {"pi": "pi.wav", "gu": "gu.wav", "count": "count.wav"}
    assert [e["sample"] for e in first] == [files[e["drum"]] for e in expected]
    start = first[0]["time"]
    for e, h in zip(first, hits, strict=True):
        assert abs(e["time"] - start - h.frame / rate) <= 2 / rate
    assert [e["sub"] for e in first if e.get("click")][:2] == [0, 0.5]
    assert {e["mark"] + 1 for e in first if not e.get("click")} == set(range(5, 13))
    spanned = arrange(corpus.resolve("lu"), Section.SHE, strokes_range="5-12")
    terminal = _stroke_fields(_hit(spanned, 0, 1), True)[0]
    assert terminal == "stroke 1/8" and status.startswith(terminal + " ")
    # a muted stroke is scheduled (so it lights up) but no sound was started for it
    assert any(e.get("muted") for e in first) and all(
        e["sample"] != "gu.wav" or e["muted"] for e in first
    )


def test_bad_input_a_practice_option_drumscore_refuses_is_refused_on_the_page(page, site_url):
    """Bad input: a ramp whose step goes away from its stop, or strokes past the section's end,
    is named in the status line and nothing plays."""
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    for strokes, ramp, said in (("", "40:60:-5", "ramp"), ("5-99", "", "strokes")):
        set_practice(page, "0", "", strokes, ramp)
        page.click("#play")
        assert page.text_content("#status").startswith(said)
        assert page.evaluate("window.drumscore.player.state") == "stopped"
        assert page.evaluate("window.drumscore.player.schedule.length") == 0


def test_the_page_s_wav_honours_the_practice_options_as_render_does(page, site_url):
    """Click 2, only 鼙, strokes 5-12 and ramp 100:120:20 set on the page: Make WAV gives the two
    passes render gives for the same options, a sound at every frame the conductor sounds (○ and
    the clicks, halfway too; □ muted), and the samples of render's own WAV."""
    from audio_checks import level_onsets

    from drumscore.conductor.track import Practice, Ramp, Track
    from drumscore.render.mix import render_audio

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    set_practice(page, "2", "pi", "5-12", "100:120:20")
    web, rate = made_wav(page)
    # named by what it holds: the ramp for a tempo, the strokes, the clicks, the one drum
    name = page.get_attribute("#wav-link", "download")
    assert name == "lu-1-zhushu-she-ramp100-120-20-strokes5-12-click2-only-pi.wav"
    set_practice(page, "0", "", "", "")
    timeline = arrange(
        corpus.resolve("lu"), Section.SHE, Tempo.from_bpm(100), 2, strokes_range="5-12"
    )
    practice = Practice(click=2, only=Drum.PI, ramp=Ramp.parse("100:120:20"))
    track = Track.single(timeline, practice=practice)
    sounded = sorted({h.frame for h in track.hits(rate) if not h.muted})
    heard = level_onsets(web, rate)
    assert len(heard) == len(sounded)
    assert np.max(np.abs(heard - np.asarray(sounded) / rate)) < 0.002
    ours = render_audio(track, rate=rate)
    assert abs(len(web) - len(ours)) <= 2
    n = min(len(web), len(ours))
    assert np.corrcoef(web[:n].mean(axis=1), ours[:n].mean(axis=1))[0, 1] > 0.99


def test_count_in_each_pass_and_silent_passes_as_the_conductor_lays_them_out(page, site_url):
    """Count-in 2 before each pass and every 2nd pass silent (strokes 1-3 at 240 a minute, the
    page looping): the first two passes scheduled are the conductor's two passes for the same
    options (the count-in again before pass 2, a click on every stroke, pass 2's strokes muted),
    each sound at its frame; the second count-in's strokes are numbered 1 and 2 again."""
    from drumscore.conductor.track import Practice, Track

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    set_practice(page, "0", "", "1-3", "")
    page.fill("#bpm", "240")
    page.dispatch_event("#bpm", "change")
    page.fill("#count-in", "2")
    page.check("#count-each")
    page.fill("#silent-every", "2")
    page.check("#loop")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.schedule.length >= 16")
    schedule = page.evaluate("window.drumscore.player.schedule")
    page.click("#stop")
    page.uncheck("#count-each")
    page.fill("#silent-every", "0")
    set_practice(page, "0", "", "", "")
    timeline = arrange(
        corpus.resolve("lu"), Section.SHE, Tempo.from_bpm(240), 2, strokes_range="1-3"
    )
    track = Track.single(timeline, count_in=2, practice=Practice(count_each=True, silent_every=2))
    rate = 44100
    hits = track.hits(rate)
    expected = sorted(
        (
            h.frame,
            "count" if h.drum is None else h.drum.pinyin,
            h.click,
            h.muted,
        )
        for h in hits
    )
    start = schedule[0]["time"]
    got = sorted(
        (
            round((e["time"] - start) * rate),
            e["drum"],
            bool(e.get("click")),
            bool(e.get("muted")),
        )
        for e in schedule[: len(expected)]
    )
    assert [g[1:] for g in got] == [x[1:] for x in expected]
    for g, x in zip(got, expected, strict=True):
        assert abs(g[0] - x[0]) <= 2
    second = [e for e in schedule[: len(expected)] if e["drum"] == "count" and "c" in e]
    assert [e["c"] for e in second] == [0, 1]


def test_a_chinese_score_page_switches_language_and_still_plays(page, all_site_url):
    """--lang all: a 繁體 score page says zh-Hant and shows Chinese (its buttons and status
    line from the page data's strings too); its switch opens the same page in 简体, which plays."""
    path = f"score/{slug('lu/1@zhushu')}.html"
    goto(page, all_site_url, f"zh-Hant/{path}")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    shown = page.inner_text("main")
    assert "聆聽" in shown and "下載" in shown and "Listen" not in shown
    cjk = len(re.findall(r"[\u3400-\u9fff]", shown))
    # the player's own words, without code, keys, the section names and the reading's citation
    # (the model's words)
    player = page.evaluate(
        """() => { const p = document.querySelector('.player').cloneNode(true);
                  p.querySelectorAll('code, kbd, option, cite').forEach((e) => e.remove());
                  return p.textContent; }"""
    )
    assert cjk > 200 and "播放" in player
    assert set(re.findall(r"[A-Za-z]{3,}", player)) <= {"START", "STOP", "STEP", "EVERY"}
    page.fill("#bpm", "55")
    page.dispatch_event("#bpm", "change")  # the status line, made by score.js, speaks 繁體 too
    assert "每分鐘 55 擊" in page.inner_text("#status")
    page.click("nav.languages a[hreflang='zh-Hans']")
    page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    assert page.url.endswith(f"/zh-Hans/{path}")
    assert page.evaluate("document.documentElement.lang") == "zh-Hans"
    assert "聆听" in page.inner_text("main")
    page.fill("#bpm", "120")
    page.dispatch_event("#bpm", "change")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.log.length >= 2")
    assert page.inner_text("#play") == "❚❚ 暂停"
    assert "每分钟 120 击" in page.inner_text("#status")
    schedule = page.evaluate("window.drumscore.player.schedule")
    assert len(schedule) == len(corpus.resolve("lu").pattern)
    # what waits for the end of the pass, as drumscore play writes it in Chinese: in 〔〕
    # after a full-width space, no ' · ' and no ASCII brackets
    page.keyboard.press("s")
    waiting = page.inner_text("#status")
    assert waiting.endswith("　〔本遍结束时切换〕"), waiting
    assert " · " not in waiting and "[" not in waiting, waiting
    page.click("#stop")
    assert page.inner_text("#status") == "已停止。"


def test_screenshots_of_a_traditional_chinese_score_page(page, all_site_url, tmp_path_factory):
    """A 繁體 score page at phone and desktop width: nothing wider than the screen. Pictures go
    to $DRUMSCORE_SCREENSHOTS if it is set."""
    wanted = os.environ.get("DRUMSCORE_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("shots-zh")
    folder.mkdir(parents=True, exist_ok=True)
    for size in (PHONE, DESKTOP):
        page.set_viewport_size(size)
        goto(page, all_site_url, f"zh-Hant/score/{slug('lu/2@zhushu')}.html")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, (size, overflow)
        shot = folder / f"score-zh-Hant-{size['width']}.png"
        page.screenshot(path=str(shot), full_page=bool(wanted))
        assert shot.stat().st_size > 10_000


@pytest.mark.parametrize(
    ("tag", "marks"), [("zh-Hant", "「」『』"), ("zh-Hans", "「」『』"), ("en", "“”‘’")]
)
def test_a_quotation_takes_the_marks_of_the_page_s_language(page, all_site_url, tag, marks):
    """The stated counts' quotes (<q lang="zh-Hant">, or the 简体 page's zh-Hans) drawn with 「」
    on a Chinese page, as the command line quotes, and with “” on an English one."""
    goto(page, all_site_url, f"{tag}/score/{slug('lu/1@benyi')}.html")
    quotes = page.evaluate(
        """() => [...document.querySelectorAll('main q')].map((q) => {
                  const open = getComputedStyle(q, '::before').content;
                  return [getComputedStyle(q).quotes, open, q.lang]; })"""
    )
    assert quotes, "no quotation on the page"
    expected = " ".join(f'"{m}"' for m in marks)
    for computed, before, lang in quotes:
        source = tag if tag.startswith("zh-") else "zh-Hant"
        assert computed == expected and before == "open-quote" and lang == source


def test_the_top_page_opens_the_reader_s_language(browser, all_site_url):
    """--lang all: the top page opens the site in the first of the browser's languages."""
    for locale, tag in (("zh-TW", "zh-Hant"), ("zh-CN", "zh-Hans"), ("en-GB", "en")):
        ctx = browser.new_context(locale=locale)
        try:
            pg = ctx.new_page()
            pg.goto(all_site_url + "index.html")
            pg.wait_for_url(f"**/{tag}/index.html")
            assert pg.evaluate("document.documentElement.lang") == tag
        finally:
            ctx.close()


#: Settings of a score page, each as the flag of drumscore render that asks the same, and how
#: the page's address writes it.
SETTINGS = {
    "section": "touhu",
    "reading": "mao",
    "bpm": "84",
    "repeat": "3",
    "count-in": "2",
    "count-in-each": True,
    "click": "2",
    "click-level": "50",
    "silent-every": "2",
    "only": "pi",
    "strokes": "2-6",
}
_FIELDS = {"count-in-each": "#count-each"}
_READ_FIELDS = """() => Object.fromEntries(['section', 'reading', 'bpm', 'repeat', 'loop',
    'count-in', 'count-each', 'click', 'click-level', 'silent-every', 'only', 'strokes', 'ramp']
    .map((id) => { const f = document.getElementById(id);
                   return [id, f.type === 'checkbox' ? f.checked : f.value]; }))"""


def _settings_of(url: str) -> dict[str, str]:
    from urllib.parse import parse_qs

    return {k: v[0] for k, v in parse_qs(urlparse(url).query, keep_blank_values=True).items()}


def _page_wav_digest(pg) -> dict:
    """Make WAV pressed: the WAV's header and its samples' digest (browsers.wav_digest)."""
    pg.evaluate("document.getElementById('wav-link').hidden = true")
    pg.click("#make-wav")
    pg.wait_for_selector("#wav-link:not([hidden])")
    return wav_digest(pg)


def test_a_score_page_s_settings_travel_in_its_address(page, context, site_url, tmp_path):
    """Set on one page, the settings are in its address (as drumscore play's flags name them);
    a new page opened at that address shows them, and its WAV is render's under those flags."""
    import soundfile as sf
    from cli_run import run_quietly

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    assert urlparse(page.url).query == ""  # nothing set, nothing written
    page.select_option("#section", SETTINGS["section"])
    page.select_option("#reading", SETTINGS["reading"])
    for name in ("bpm", "repeat", "count-in", "click", "click-level", "silent-every", "strokes"):
        page.fill(_FIELDS.get(name, f"#{name}"), str(SETTINGS[name]))
    page.dispatch_event("#bpm", "change")
    page.select_option("#only", SETTINGS["only"])
    page.set_checked("#count-each", True)
    page.set_checked("#loop", True)
    page.wait_for_function("() => /strokes=2-6.*loop=1|loop=1.*strokes=2-6/.test(location.search)")
    written = {k: "1" if v is True else v for k, v in SETTINGS.items()}
    assert _settings_of(page.url) == {**written, "loop": "1"}
    shared = page.url

    other = context.new_page()
    errors: list[str] = []
    other.on("pageerror", lambda e: errors.append(str(e)))
    try:
        other.goto(shared)
        other.wait_for_function("document.documentElement.dataset.ready === 'true'")
        shown = other.evaluate(_READ_FIELDS)
        assert shown == {
            "section": "touhu",
            "reading": "mao",
            "bpm": "84",
            "repeat": "3",
            "loop": True,
            "count-in": "2",
            "count-each": True,
            "click": "2",
            "click-level": "50",
            "silent-every": "2",
            "only": "pi",
            "strokes": "2-6",
            "ramp": "",
        }
        assert other.get_attribute("html", "data-reading") == "mao"  # the reading took effect
        assert "84" in other.text_content("#status")
        assert other.url == shared  # read back, written the same
        made = _page_wav_digest(other)
        flags = ["lu/1@zhushu"]
        for name, value in SETTINGS.items():
            flags += [f"--{name}"] if value is True else [f"--{name}", value]
        out = tmp_path / "render.wav"
        code, err = run_quietly(["--lang", "en", "render", *flags, "-q", "--force", "-o", str(out)])
        assert code == 0, err
        ours, _rate = sf.read(out, dtype="int16", always_2d=True)
        assert made["header"] == ("RIFFWAVE", 1, 44100, 16, ours.shape[1]), made
        assert made["bytes"] == 2 * ours.size and made["sha256"] == samples_digest(ours), made
        # a key changes the tempo and the address follows; a ramp keeps its colons readable
        other.focus("#play")
        other.keyboard.press("]")
        other.wait_for_function("() => /bpm=89(&|$)/.test(location.search)")
        other.fill("#ramp", "40:60:5")
        other.wait_for_function("() => location.search.includes('ramp=40:60:5')")
        assert errors == []
    finally:
        other.close()


def _choose_settings(pg) -> None:
    """Section, reading, tempo, click, strokes and loop set on a score page, as a reader would."""
    pg.select_option("#section", "touhu")
    pg.select_option("#reading", "mao")
    for field, value in (("#bpm", "84"), ("#click", "2"), ("#strokes", "2-6")):
        pg.fill(field, value)
    pg.dispatch_event("#bpm", "change")
    pg.set_checked("#loop", True)


#: What _choose_settings sets, as the address writes it and as the fields then hold it.
CHOSEN = {"section": "touhu", "reading": "mao", "bpm": "84", "click": "2", "strokes": "2-6"}


@pytest.mark.parametrize(
    ("tag", "button", "copied"),
    [
        ("en", "Copy link", "Link copied, with the settings chosen."),
        ("zh-Hant", "複製連結", "已複製連結，含目前所選的設定。"),
        ("zh-Hans", "复制链接", "已复制链接，含当前所选的设置。"),
    ],
)
def test_copy_link_copies_an_address_that_opens_the_page_with_its_settings(
    page, context, all_site_url, tag, button, copied
):
    """The copy link button puts the page's address, with the settings chosen, on the clipboard
    and says so in the page's language; that address, opened in a new page, sets them again."""
    context.grant_permissions(
        ["clipboard-read", "clipboard-write"], origin=all_site_url.rstrip("/")
    )
    other = context.new_page()
    pg = page
    pg.bring_to_front()  # where the clicks are
    try:
        goto(pg, all_site_url, f"{tag}/score/{slug('lu/1@zhushu')}.html")
        assert pg.text_content("#copy-link") == button
        _choose_settings(pg)
        pg.click("#copy-link")
        pg.wait_for_function("document.getElementById('link-status').textContent !== ''")
        assert pg.text_content("#link-status") == copied
        assert pg.is_hidden("#link-field")
        link = pg.evaluate("navigator.clipboard.readText()")
        assert urlparse(link).path.endswith(f"/{tag}/score/{slug('lu/1@zhushu')}.html")
        assert _settings_of(link) == {**CHOSEN, "loop": "1"}
        other.bring_to_front()
        other.goto(link)
        other.wait_for_function("document.documentElement.dataset.ready === 'true'")
        shown = other.evaluate(_READ_FIELDS)
        assert {k: shown[k] for k in CHOSEN} == CHOSEN and shown["loop"] is True
        assert other.get_attribute("html", "data-reading") == "mao"
    finally:
        other.close()


@pytest.mark.parametrize(
    ("tag", "said"),
    [
        ("en", "The browser does not let the page copy"),
        ("zh-Hant", "瀏覽器不允許網頁複製：連結已在欄位中選取，請按 Ctrl+C 或 ⌘C 複製。"),
        ("zh-Hans", "浏览器不允许网页复制：链接已在输入框中选中，请按 Ctrl+C 或 ⌘C 复制。"),
    ],
)
def test_bad_input_where_the_clipboard_is_refused_the_link_is_selected_to_copy(
    context, all_site_url, tag, said
):
    """A browser that refuses the page the clipboard (as one does a page opened from its files):
    the address, with the settings chosen, is shown in a field, selected, and the page says to
    copy it by hand, in its language."""
    pg = context.new_page()
    pg.add_init_script(
        "navigator.clipboard.writeText = () => "
        "Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));"
    )
    try:
        goto(pg, all_site_url, f"{tag}/score/{slug('lu/1@zhushu')}.html")
        _choose_settings(pg)
        pg.click("#copy-link")
        pg.wait_for_function("document.getElementById('link-status').textContent !== ''")
        assert pg.text_content("#link-status").startswith(said)
        assert pg.is_visible("#link-field")
        value, focused, start, end = pg.evaluate(
            """() => { const f = document.getElementById('link-field');
                       return [f.value, document.activeElement === f, f.selectionStart,
                               f.selectionEnd]; }"""
        )
        assert value == pg.url and _settings_of(value) == {**CHOSEN, "loop": "1"}
        assert focused and (start, end) == (0, len(value))
    finally:
        pg.close()


def test_an_address_with_settings_the_page_does_not_offer_opens_the_page_as_built(page, site_url):
    path = f"score/{slug('lu/1@zhushu')}.html"
    goto(page, site_url, f"{path}?section=nonsense&only=xx&bpm=abc&loop=0&strokes=9-99&from=me")
    shown = page.evaluate(_READ_FIELDS)
    as_built = ("she", "", "60", False)
    assert (shown["section"], shown["only"], shown["bpm"], shown["loop"]) == as_built
    assert shown["strokes"] == "9-99"  # kept as typed: refused, as typed, when played
    page.wait_for_function("() => !location.search.includes('section')")
    assert _settings_of(page.url) == {"strokes": "9-99", "from": "me"}
    page.click("#play")
    page.wait_for_function("() => /9-99/.test(document.getElementById('status').textContent)")


def _play_to_the_end(page, last: str) -> list[str]:
    """Play the page and keep every text its status line shows, until one of them matches the
    JS condition `last` (on `s`) and the player has stopped."""
    page.evaluate(
        """() => {
            window.seen = [];
            new MutationObserver(() => window.seen.push(
                document.getElementById('status').textContent)).observe(
                document.getElementById('status'), {childList: true, characterData: true,
                subtree: true});
        }"""
    )
    page.click("#play")
    page.wait_for_function(
        f"window.seen.some((s) => {last}) && window.drumscore.player.state === 'stopped'"
    )
    return page.evaluate("window.seen")


def _hit(timeline: Timeline, index: int, pass_no: int) -> Hit:
    """The stroke the conductor lays out at `index` of pass `pass_no` (both as play counts them:
    index from 0, pass from 1), which play's status line reads."""
    hits = [h for h in Track.single(timeline).hits(44100) if h.role is Role.STROKE]
    return hits[(pass_no - 1) * len(timeline.strokes) + index]


def test_play_and_the_page_label_strokes_15_to_17_of_lu_alike(page, site_url):
    """Strokes 15-17 of 魯's whole pattern (after 半, which stands after stroke 11): the page's
    status line numbers and names each as drumscore play does (stroke 1/3 to 3/3, liveview.part)."""
    from drumscore.play.liveview import _stroke_fields, part

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    set_practice(page, "0", "", "15-17", "")
    page.fill("#bpm", "300")
    page.dispatch_event("#bpm", "change")
    seen = _play_to_the_end(page, "s.startsWith('stroke 3/3 ')")
    set_practice(page, "0", "", "", "")
    timeline = arrange(corpus.resolve("lu"), Section.SHE, strokes_range="15-17")
    assert not [s for s in seen if "15-17" in s or s.startswith("stroke 15/")]
    for i in range(3):
        number = _stroke_fields(_hit(timeline, i, 1), False)[0]  # the terminal's: "stroke 1/3"…
        line = next(s for s in seen if s.startswith(f"{number} "))
        assert f" · {part(timeline, i)} · " in line, line
        assert part(timeline, i) == "after 半 (投壺)"


def test_at_phone_width_the_staff_opens_on_its_notes(page, staff_site):
    """At 390 px the engraving's box scrolls sideways and opens on the notes: at least 8 of its
    noteheads inside the box's view and the window's, not the clef and labels alone."""
    page.set_viewport_size(PHONE)
    goto(page, staff_site, "score/lu-2-mine.html")
    page.locator(".staff").scroll_into_view_if_needed()  # a lazy image loads once in view
    page.wait_for_function("document.querySelector('.staff').dataset.opened === 'true'")
    shown = page.evaluate(
        """async () => {
            const staff = document.querySelector('.staff');
            const img = staff.querySelector('img');
            const text = await (await fetch(img.currentSrc || img.src)).text();
            const svg = new DOMParser().parseFromString(text, 'image/svg+xml').documentElement;
            const box = document.createElement('div');
            const width = img.getBoundingClientRect().width;
            box.style.cssText = `position:absolute;left:0;top:0;width:${width}px`;
            const drawn = document.importNode(svg, true);
            drawn.setAttribute('width', width);
            box.append(drawn);
            document.body.append(box);
            const lefts = [...box.querySelectorAll('.notehead')].map(
                (e) => e.getBoundingClientRect().left - box.getBoundingClientRect().left);
            box.remove();
            const view = staff.getBoundingClientRect();
            const from = staff.scrollLeft, to = staff.scrollLeft + staff.clientWidth;
            const inside = lefts.filter((x) => x >= from && x + 10 <= to
                && view.left + x - from >= 0 && view.left + x - from <= innerWidth);
            return {inside: inside.length, scrolls: staff.scrollWidth > staff.clientWidth};
        }"""
    )
    page.set_viewport_size(DESKTOP)
    assert shown["scrolls"] and shown["inside"] >= 8, shown


def test_at_phone_width_the_aligned_table_shows_its_first_strokes(page, site_url):
    """At 390 px each "every edition aligned" table shows its first 8 strokes beside the sigla
    column as it comes into view, and the sigla stay in view when the strokes scroll."""
    page.set_viewport_size(PHONE)
    page.goto(site_url + "index.html")
    tables = page.locator("table.apparatus")
    assert tables.count() >= 4
    for i in range(tables.count()):
        table = tables.nth(i)
        if not table.is_visible():
            continue
        table.scroll_into_view_if_needed()
        shown = table.evaluate(
            """(t) => {
                const row = t.querySelector('tbody tr');
                const head = row.querySelector('th').getBoundingClientRect();
                const cells = [...row.querySelectorAll('td')].slice(0, 8).map(
                    (c) => c.getBoundingClientRect());
                const inView = cells.filter((r) => r.left >= head.right - 0.5
                    && r.right <= innerWidth).length;
                const scroller = t.closest('.scroll');
                scroller.scrollLeft = 200;
                const after = row.querySelector('th').getBoundingClientRect().left
                    - scroller.getBoundingClientRect().left;
                scroller.scrollLeft = 0;
                return {inView, head: head.right, after};
            }"""
        )
        assert shown["inView"] == 8, (i, shown)
        assert abs(shown["after"]) <= 1, shown  # the sigla column stuck at the left
    page.set_viewport_size(DESKTOP)


def _notes(midi: bytes) -> list[tuple[int, str, int, int]]:
    """Every note message of a MIDI file: (absolute tick, kind, channel, note)."""
    import mido

    out = []
    for track in mido.MidiFile(file=io.BytesIO(midi)).tracks:
        tick = 0
        for message in track:
            tick += message.time
            if message.type in ("note_on", "note_off"):
                out.append((tick, message.type, message.channel, message.note))
    return sorted(out)


def _texts(midi: bytes) -> list[str]:
    """The text events of a MIDI file (UTF-8, as drumscore writes them; mido reads Latin-1)."""
    import mido

    return [
        m.text.encode("latin-1").decode("utf-8")
        for track in mido.MidiFile(file=io.BytesIO(midi)).tracks
        for m in track
        if m.type == "text"
    ]


def test_the_player_plays_and_writes_the_score_under_mao_s_reading_as_render_does(
    page, site_url, tmp_path_factory
):
    """毛奇齡's reading chosen: what the page plays, its WAV and its MIDI strike 鼓 for ○ and 鼙
    for □, as drumscore render --reading mao writes them, and the page names the reading; back
    to 鄭玄's, the site's own MIDI file again."""
    from audio_checks import strokes

    from drumscore.model import READINGS
    from drumscore.render.mix import render_audio

    mao = READINGS[1]
    score = corpus.resolve("lu/1@zhushu")
    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    assert page.input_value("#reading") == "zheng"
    assert "鄭玄" in page.text_content("#reading-cite")
    rendered = tmp_path_factory.mktemp("rendered")
    standard = _offered(page)
    assert standard == _rendered(rendered, "lu/1@zhushu", standard, "zheng")

    page.select_option("#reading", "mao")
    page.wait_for_function("document.documentElement.dataset.reading === 'mao'")
    cite = page.text_content("#reading-cite")
    assert "毛奇齡" in cite and mao.citation in cite and mao.passage in cite
    assert "鄭玄" not in cite
    legend = page.text_content("#legend")
    assert legend.startswith("○ strikes 鼓 (the big drum), □ strikes 鼙 (the small drum); 半"), (
        legend
    )
    # the strokes' colours follow the drums: ○ on 鼓, □ on 鼙
    shown = page.eval_on_selector_all(
        ".notation .stroke", "cs => cs.map(c => [c.textContent, c.className, c.title])"
    )
    assert shown and all(
        ("gu" if glyph == "○" else "pi") in cls.split() for glyph, cls, _title in shown
    ), shown
    assert all(
        title.endswith(f"{glyph} {'鼓 big drum' if glyph == '○' else '鼙 small drum'}")
        for glyph, _cls, title in shown
    ), shown

    # playback: each ○ on 鼓's sample, each □ on 鼙's, and the status says so
    page.fill("#bpm", "120")
    page.dispatch_event("#bpm", "change")
    page.click("#play")
    page.wait_for_function("window.drumscore.player.log.length >= 1")
    schedule = page.evaluate("window.drumscore.player.schedule")
    status = page.text_content("#status")
    page.click("#stop")
    files = {Drum.PI: "pi.wav", Drum.GU: "gu.wav"}
    assert [e["sample"] for e in schedule] == [
        files[Drum.GU if s.drum is Drum.PI else Drum.PI] for s in score.pattern.strokes
    ]
    first = score.pattern.strokes[0].drum.symbol
    assert f"{first} {'鼓' if first == '○' else '鼙'}" in status

    # the WAV: render's under --reading mao, stroke for stroke and drum for drum
    timeline = arrange(score, Section.SHE, Tempo.from_bpm(120), reading=mao)
    web, rate = made_wav(page)
    assert page.get_attribute("#wav-link", "download") == "lu-1-zhushu-she-mao-120bpm.wav"
    ours = render_audio(timeline)
    assert web.shape == ours.shape
    expected = [(hit.frame, hit.drum) for hit in Track.single(timeline).hits(rate)]
    assert expected[0][1] is Drum.GU and first == "○"
    assert strokes(web, rate) == expected
    assert np.corrcoef(web.mean(axis=1), ours.mean(axis=1))[0, 1] > 0.99

    # the MIDI files: render's under --reading mao, byte for byte, the reading named in them
    made = _offered(page)
    assert made == _rendered(rendered, "lu/1@zhushu", made, "mao")
    assert sorted(made) == sorted(name.replace(".mid", "-mao.mid") for name in standard)
    she = made["lu-1-zhushu-she-mao.mid"]
    assert _notes(she) != _notes(standard["lu-1-zhushu-she.mid"])
    assert any(mao.read_as in text for text in _texts(she))
    folder = Path(os.environ.get("DRUMSCORE_SCREENSHOTS") or tmp_path_factory.mktemp("reading"))
    folder.mkdir(parents=True, exist_ok=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.locator("#player-h").scroll_into_view_if_needed()
    page.screenshot(path=str(folder / "score-reading-mao-1280.png"))

    page.select_option("#reading", "zheng")
    page.wait_for_function("document.documentElement.dataset.reading === 'zheng'")
    assert _offered(page) == standard
    assert "鄭玄" in page.text_content("#reading-cite")
    assert page.text_content("#legend").startswith("○ strikes 鼙 (the small drum), □ strikes 鼓")


def _offered(page) -> dict[str, bytes]:
    """The MIDI and MusicXML files the page's downloads lead to now: each link's file name (the
    name a browser saves it by) and its bytes."""
    found = page.evaluate(
        """async () => {
            const out = {};
            for (const a of document.querySelectorAll('a[data-kind]')) {
                const bytes = new Uint8Array(await (await fetch(a.href)).arrayBuffer());
                let s = ''; for (let i = 0; i < bytes.length; i += 0x8000)
                  s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
                out[a.href.split('/').pop()] = btoa(s);
            }
            return out;
        }"""
    )
    return {name: base64.b64decode(data) for name, data in found.items()}


def _rendered(folder: Path, name: str, offered: dict[str, bytes], reading: str) -> dict[str, bytes]:
    """What `drumscore render NAME --section S --reading READING -o FILE` writes for each file
    `offered` (its section and format read from its name), by the same names."""
    from cli_run import run_quietly

    out = {}
    for file in offered:
        found = re.search(r"-(she|touhu|head)(?:-mao)?\.(mid|musicxml)$", file)
        assert found, file
        path = folder / f"{reading}-{file}"
        argv = ["render", name, "--section", found[1], "--reading", reading, "-o", str(path)]
        code, err = run_quietly([*argv, "--force"])
        assert code == 0, err
        out[file] = path.read_bytes()
    return out


def test_the_musicxml_and_midi_offered_follow_the_reading_as_render_writes_them(
    page, edition_site, tmp_path_factory
):
    """Every download of a page with MusicXML, under 毛奇齡's reading, is the file render writes
    with --reading mao (under 鄭玄's, render's default); its MusicXML read back by music21 has
    every ○ on 鼓's line and every □ on 鼙's."""
    from music21 import converter

    url, edition = edition_site
    name = f"lu/2@{edition}"
    rendered = tmp_path_factory.mktemp("rendered")
    goto(page, url, "score/lu-2-mine.html")
    standard = _offered(page)
    assert sorted(standard) == [
        f"lu-2-mine-{section}.{kind}"
        for section, kind in (
            ("head", "mid"),
            ("she", "mid"),
            ("she", "musicxml"),
            ("touhu", "mid"),
            ("touhu", "musicxml"),
        )
    ]
    assert standard == _rendered(rendered, name, standard, "zheng")
    page.select_option("#reading", "mao")
    page.wait_for_function("document.documentElement.dataset.reading === 'mao'")
    made = _offered(page)
    assert sorted(made) == sorted(f.replace(".", "-mao.") for f in standard)
    assert made == _rendered(rendered, name, made, "mao")

    signs = [s.drum.symbol for s in corpus.resolve("lu/2").pattern.strokes]
    for file, data in (("lu-2-mine-she-mao.musicxml", made), ("lu-2-mine-she.musicxml", standard)):
        parsed = converter.parseData(data[file].decode("utf-8"), format="musicxml")
        struck = {}  # the beat of each note, and the drum whose line it stands on
        for part in parsed.parts:
            drum = part.partName.split()[0]
            for k, n in enumerate(part.recurse().notesAndRests):
                if not n.isRest:
                    struck[k] = drum
        heard = [struck[k] for k in sorted(struck)]
        if "mao" in file:
            assert heard == ["鼓" if sign == "○" else "鼙" for sign in signs], heard
        else:
            assert heard == ["鼙" if sign == "○" else "鼓" for sign in signs], heard
    page.select_option("#reading", "zheng")
    page.wait_for_function("document.documentElement.dataset.reading === 'zheng'")
    assert _offered(page) == standard


@pytest.mark.parametrize("tag", ["zh-Hant", "zh-Hans"])
def test_a_chinese_page_sets_no_citation_in_italics_and_breaks_no_flag(page, all_site_url, tag):
    """At a phone's width: the reading's citation stands upright (CJK has no italic), every
    flag of the practice help stays on one line (never broken at its hyphen), and the page
    does not scroll sideways."""
    page.set_viewport_size(PHONE)
    goto(page, all_site_url, f"{tag}/score/{slug('lu/1@zhushu')}.html")
    found = page.evaluate(
        """() => ({
            cite: [...document.querySelectorAll('cite')].map((c) => getComputedStyle(c).fontStyle),
            flags: [...document.querySelectorAll('#practice-help code')].map(
                (c) => [c.textContent, c.getClientRects().length]),
            wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        })"""
    )
    assert found["cite"] and set(found["cite"]) == {"normal"}
    flags = dict(found["flags"])
    assert {"--silent-every", "--count-in-each", "--click-level"} <= set(flags)
    assert set(flags.values()) == {1}, flags
    assert found["wide"] <= 0


def test_passes_played_once_are_numbered_as_drumscore_play_numbers_them(page, site_url):
    """Passes 2 and strokes 1-2 at 300 a minute, not looping: the page plays two passes and
    its status line says each stroke and pass as `drumscore play --repeat 2 --strokes 1-2`
    does (stroke 1/2 … pass 2/2), then the play ends."""
    from drumscore.play.liveview import _stroke_fields

    goto(page, site_url, f"score/{slug('lu/1@zhushu')}.html")
    set_practice(page, "0", "", "1-2", "")
    page.fill("#repeat", "2")
    page.fill("#bpm", "300")
    page.dispatch_event("#bpm", "change")
    seen = _play_to_the_end(page, "s.startsWith('stroke 2/2 ') && s.includes('2/2 ·')")
    page.fill("#repeat", "")
    set_practice(page, "0", "", "", "")
    timeline = arrange(
        corpus.resolve("lu"), Section.SHE, Tempo.from_bpm(300), 2, strokes_range="1-2"
    )
    for pass_no in (1, 2):
        for i in range(2):
            number, _drum, _part, passes = _stroke_fields(_hit(timeline, i, pass_no), False)
            assert any(s.startswith(f"{number} ") and f" · {passes} · " in s for s in seen), (
                number,
                passes,
                seen,
            )
    assert not any("3/2" in s for s in seen)
