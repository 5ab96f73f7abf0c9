"""The score page's Make WAV is `drumscore render`'s WAV, sample for sample, for every practice
option the page offers (click 1/2/…, click level, count-in, count-in each pass, silent passes,
ramp, one drum, a range of strokes, passes), both readings of the signs and every section: one
headless Chromium session, the page's WAV and render's compared as 16-bit samples (by their
digest, the samples themselves read back where the two differ)."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass

import numpy as np
import pytest
from browsers import samples_digest, wav_digest
from cli_run import run_quietly

from drumscore import corpus
from drumscore.site import data as sitedata

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.requires("chromium")


@dataclass(frozen=True)
class Case:
    """What the page's controls are set to, each as the flag of render that asks the same."""

    score: str = "lu/1@zhushu"
    section: str = "she"
    reading: str = "zheng"
    bpm: str = "60"
    count_in: str = "0"
    repeat: str = ""
    click: str = "0"
    click_level: str = ""
    count_each: bool = False
    silent_every: str = "0"
    only: str = ""
    strokes: str = ""
    ramp: str = ""

    def flags(self) -> list[str]:
        out = [self.score, "--section", self.section, "--reading", self.reading]
        out += ["--bpm", self.bpm] if not self.ramp else []
        for flag, value in (
            ("--count-in", self.count_in),
            ("--repeat", self.repeat),
            ("--click", self.click),
            ("--click-level", self.click_level),
            ("--silent-every", self.silent_every),
            ("--only", self.only),
            ("--strokes", self.strokes),
            ("--ramp", self.ramp),
        ):
            if value and value != "0":
                out += [flag, value]
        return out + (["--count-in-each"] if self.count_each else [])


CASES = [
    Case(bpm="72", click="2"),  # once up to 1959 LSB apart: the clicks at the count's level
    Case(bpm="72", click="2", click_level="30"),
    Case(bpm="100.5", click="1", click_level="127", count_in="4"),
    Case(bpm="90", click="3", count_in="2", count_each=True, repeat="3"),
    Case(bpm="120", silent_every="2", repeat="4", click_level="50"),
    Case(ramp="60:80:10", click="2", count_in="2"),
    Case(ramp="40:60:5:2", strokes="3-9", repeat="6", count_in="1", count_each=True),
    Case(only="pi", strokes="5-12", repeat="2", click="4", click_level="100", bpm="84"),
    Case(section="touhu", reading="mao", click="2", bpm="66"),
    Case(section="head", reading="mao", count_in="3", bpm="150", only="gu"),
    Case(score="xue/2@zhushu", reading="mao", ramp="50:70:10", click="3", silent_every="3"),
    Case(score="xue/1@zhushu", section="touhu", repeat="2", count_in="2", bpm="45", click="1"),
]


def _slug(key: str) -> str:
    return next(e.slug for e in sitedata.entries(corpus.editions()) if e.score.key == key)


@pytest.fixture(scope="module")
def page(browser, site_url):
    pg = browser.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    pg.close()
    assert errors == []


def _set_case(page, site_url, case: Case) -> None:
    """The score page of `case` with its controls set to it."""
    path = f"score/{_slug(case.score)}.html"
    if not page.url.endswith(path):
        page.goto(site_url + path)
        page.wait_for_function("document.documentElement.dataset.ready === 'true'")
    page.select_option("#section", case.section)
    page.select_option("#reading", case.reading)
    page.dispatch_event("#reading", "change")
    for field, value in (
        ("#bpm", case.bpm),
        ("#count-in", case.count_in),
        ("#repeat", case.repeat),
        ("#click", case.click),
        ("#click-level", case.click_level),
        ("#silent-every", case.silent_every),
        ("#strokes", case.strokes),
        ("#ramp", case.ramp),
    ):
        page.fill(field, value)
    page.dispatch_event("#bpm", "change")
    page.select_option("#only", case.only)
    page.set_checked("#count-each", case.count_each)


def _make_wav(page, site_url, case: Case) -> tuple[dict, str]:
    """Make WAV pressed on the page set to `case`: its WAV's header and samples' digest, and its
    file name."""
    _set_case(page, site_url, case)
    page.evaluate("document.getElementById('wav-link').hidden = true")
    page.click("#make-wav")
    page.wait_for_selector("#wav-link:not([hidden])")
    return wav_digest(page), page.get_attribute("#wav-link", "download")


def _made_samples(page) -> np.ndarray:
    """The WAV the page made last, as 16-bit samples."""
    import soundfile as sf

    encoded = page.evaluate(
        """async () => {
            const bytes = new Uint8Array(await window.drumscore.wav.blob.arrayBuffer());
            let s = ''; for (let i = 0; i < bytes.length; i += 0x8000)
              s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
            return btoa(s);
        }"""
    )
    samples, rate = sf.read(io.BytesIO(base64.b64decode(encoded)), dtype="int16", always_2d=True)
    assert rate == 44100
    return samples


def _render_wav(tmp_path, case: Case) -> np.ndarray:
    import soundfile as sf

    out = tmp_path / "render.wav"
    code, err = run_quietly(
        ["--lang", "en", "render", *case.flags(), "-q", "--force", "-o", str(out)]
    )
    assert code == 0, err
    samples, rate = sf.read(out, dtype="int16", always_2d=True)
    assert rate == 44100
    return samples


def test_make_wav_is_render_s_wav_sample_for_sample_for_every_practice_option(
    page, site_url, tmp_path
):
    """Each case's WAV from the page has render's length and render's every sample, exactly
    (the page mixes as drumscore's mixer does, in single precision and in the same order)."""
    apart = {}
    for case in CASES:
        made, name = _make_wav(page, site_url, case)
        ours = _render_wav(tmp_path, case)
        assert made["header"] == ("RIFFWAVE", 1, 44100, 16, ours.shape[1]), (case, made)
        assert made["bytes"] == 2 * ours.size, (case, name, made)  # render's length
        apart[name] = 0
        if made["sha256"] != samples_digest(ours):
            web = _made_samples(page)  # how far apart, read back only where they differ
            apart[name] = int(np.max(np.abs(web.astype(np.int32) - ours.astype(np.int32)))) or -1
        assert np.count_nonzero(ours) > 0.5 * ours.size, case  # a WAV that sounds, not silence
    assert apart == dict.fromkeys(apart, 0)
    assert len(apart) == len(CASES)  # every case named apart from the others


def test_the_player_sounds_its_clicks_at_the_click_level_as_render_does(page, site_url):
    """Played (not only in the WAV), a click at level 30 is the count sound at 30/100 of its
    level, each sample as drumscore's mixer scales it (in single precision), and a count-in
    stroke the count sound at its own."""
    _set_case(page, site_url, Case(click="2", click_level="30", count_in="1"))
    scaled = page.evaluate(
        """async () => {
            const player = window.drumscore.player;
            document.getElementById('play').click();
            await new Promise((done) => setTimeout(done, 300));
            document.getElementById('stop').click();
            const count = player.buffers.count.buffer.getChannelData(0);
            const click = player.clickSound.getChannelData(0);
            let worst = 0, loud = 0;
            for (let i = 0; i < count.length; i++) {
              const want = Math.fround(count[i] * Math.fround(0.3));
              worst = Math.max(worst, Math.abs(click[i] - want));
              if (Math.abs(count[i]) > 0.01) loud = Math.max(loud, click[i] / count[i]);
            }
            return [worst, loud, count.length, click.length];
        }"""
    )
    worst, loud, count_frames, click_frames = scaled
    assert worst == 0 and count_frames == click_frames > 1000
    assert abs(loud - 0.3) < 1e-6
