"""The page's player (static/engine.js) run by Node against a stand-in audio clock: a long loop
holds bounded memory, and 16-bit samples are rounded as drumscore's writer rounds them."""

from __future__ import annotations

import base64
import io
import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
import soundfile as sf

ENGINE = Path(__file__).resolve().parents[2] / "drumscore" / "site" / "static" / "engine.js"
pytestmark = pytest.mark.requires("node")

#: A stand-in AudioContext whose clock the script moves, and requestAnimationFrame as a queue.
HARNESS = """
import { Player, HISTORY, encodeWav, roundBy, parseOnly, parseRamp, parseSpan, layOut,
         rampPasses } from "./engine.mjs";
const frames = [];
globalThis.requestAnimationFrame = (f) => { frames.push(f); return frames.length; };
globalThis.cancelAnimationFrame = () => {};
const ctx = {
  currentTime: 0, state: "running", destination: {}, outputLatency: 0,
  resume: async () => {},
  createBufferSource() {
    return { connect() {}, disconnect() {}, stop() {}, start(t) { this.t = t; }, onended: null };
  },
};
const input = JSON.parse(process.argv[2]);
if (input.round) {
  console.log(JSON.stringify({ rounded: input.round.map((x) => roundBy(x, input.rounding) + 0) }));
  process.exit(0);
}
if (input.wav) {
  const channels = input.wav.map((c) => Float32Array.from(c));
  const bytes = new Uint8Array(await encodeWav(channels, 44100, input.rounding).arrayBuffer());
  console.log(JSON.stringify({ wav: Buffer.from(bytes).toString("base64") }));
  process.exit(0);
}
const player = new Player({}, "", () => {});
player.ctx = ctx;
const buffer = { duration: 0.3 };
player.buffers = { pi: { buffer, file: "pi.wav" }, gu: { buffer, file: "gu.wav" },
                   count: { buffer, file: "count.wav" } };
const items = input.items.map((drum, i) => ({ drum, mark: i }));
if (input.layout) {
  const laid = await layOut(items, input.layout);
  const ramps = (input.ramps || []).map(rampPasses);
  console.log(JSON.stringify({ laid, ramps }));
  process.exit(0);
}
if (input.parse) {
  const out = {};
  for (const [name, text] of Object.entries(input.parse)) {
    try {
      out[name] = name === "ramp" ? parseRamp(text, input.tempo) : name === "only"
        ? parseOnly(text, input.drums) : parseSpan(text, input.count);
    } catch (error) {
      out[name] = { error: error.message };
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
if (input.practice) {
  // a play with practice, its clock moved until `passes` passes are laid out
  await player.start(items, { bpm: input.bpm, loop: true, countIn: 0, practice: input.practice });
  while (player.passes[player.passes.length - 1].pass <= input.passes) {
    ctx.currentTime += 0.5;
    player.topUp();
  }
  const t0 = player.schedule[0].time;
  const laid = player.schedule.filter((e) => e.pass <= input.passes).map((e) => ({
    time: e.time - t0, drum: e.drum, click: Boolean(e.click), muted: Boolean(e.muted),
    pass: e.pass, index: e.index, mark: e.mark, bpm: e.bpm, sub: e.sub || 0 }));
  console.log(JSON.stringify({ laid }));
  process.exit(0);
}
await player.start(items, { bpm: input.bpm, loop: true, countIn: 4, practice: input.loopPractice });
let most = { schedule: 0, log: 0, passes: 0, sources: 0 };
let heard = 0, lastK = -99, inOrder = true;
const step = 60 / input.bpm / 3;
while (ctx.currentTime < input.seconds) {
  ctx.currentTime += step;
  // sounds whose time has passed end (their `ended` event), as the audio clock would do
  for (const s of [...player.sources]) {
    if (s.node.t + 0.3 < ctx.currentTime && s.node.onended) s.node.onended();
  }
  const f = frames.shift();
  if (f) f();
  if (player.current && player.current.k !== lastK) {
    if (player.current.k !== lastK + 1 && lastK !== -99) inOrder = false;
    lastK = player.current.k; heard += 1;
  }
  for (const name of Object.keys(most)) most[name] = Math.max(most[name], player[name].length);
}
console.log(JSON.stringify({ most, heard, lastK, inOrder, history: HISTORY,
                             passes: player.passOf(lastK).pass, state: player.state }));
"""


def run_node(tmp_path, payload: dict) -> dict:
    shutil.copyfile(ENGINE, tmp_path / "engine.mjs")
    script = tmp_path / "harness.mjs"
    script.write_text(HARNESS, encoding="utf-8")
    done = subprocess.run(
        ["node", str(script), json.dumps(payload)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_long_loop_keeps_bounded_memory(tmp_path):
    """A 23-stroke pattern looped at 60 a minute for twelve hours of its clock: 43 200 strokes,
    over 1 870 passes, every one heard in order, and no list grows past its bound."""
    pattern = ["pi", "gu", "pi", "pi", "gu", "gu", "pi", "gu", "pi", "pi", "gu", "pi"] * 2
    out = run_node(tmp_path, {"items": pattern[:23], "bpm": 60, "seconds": 12 * 3600})
    assert out["state"] == "playing" and out["inOrder"]
    assert out["heard"] >= 12 * 3600 - 5 and out["passes"] > 1870
    # kept: what was heard (trimmed in batches of HISTORY), and ahead a whole pass at most
    bound = 2 * out["history"] + 23 + 5
    assert out["most"]["schedule"] <= bound, out["most"]
    assert out["most"]["log"] <= 2 * out["history"]
    assert out["most"]["passes"] <= bound // 23 + 2
    assert out["most"]["sources"] <= 23 + 5


#: The practice the page and the command line are both asked for: --click 2 --only 鼙
#: --strokes 5-12 --ramp 40:60:5 (the ramp and drum as the page parses them).
PRACTICE_PAGE = {"clicks": 2, "only": "pi", "span": [4, 12], "ramp": None}


def test_practice_is_laid_out_as_drumscore_s_conductor_lays_it(tmp_path, practice_hits):
    """Click 2, only 鼙, strokes 5-12 and ramp 40:60:5: the page's schedule holds the conductor's
    hits, in order, each at its time (within a frame at 1 MHz a pass), clicks halfway, only ○
    sounded, ■ muted but scheduled, strokes 5 to 12, passes at 40, 45, 50, 55 and 60."""
    from drumscore import corpus
    from drumscore.model import Section
    from drumscore.site.data import practice_data, tempo_data

    rate, hits = practice_hits["rate"], practice_hits["hits"]
    pattern = corpus.resolve("lu").pattern.section(Section.SHE)
    parsed = run_node(
        tmp_path,
        {
            "items": [],
            "parse": {"ramp": "40:60:5", "strokes": "5-12", "only": "鼙"},
            "tempo": tempo_data(),
            "drums": practice_data()["drums"],
            "count": len(pattern),
        },
    )
    practice = {**PRACTICE_PAGE, "ramp": parsed["ramp"], "only": parsed["only"]}
    assert parsed["strokes"] == PRACTICE_PAGE["span"]
    out = run_node(
        tmp_path,
        {
            "items": [s.drum.pinyin for s in pattern],
            "bpm": 90,
            "practice": practice,
            "passes": 5,
        },
    )
    laid = out["laid"]
    expected = practice_hits["expected"]
    assert [{k: e[k] for k in expected[0]} for e in laid] == expected
    for e, h in zip(laid, hits, strict=True):
        assert abs(e["time"] - h.frame / rate) <= 5 / rate, (e, h)
    # the marks are the section's strokes 5 to 12 (numbered from 1)
    strokes = [e for e in laid if not e["click"]]
    assert sorted({e["mark"] + 1 for e in strokes}) == list(range(5, 13))
    # the figures the task names, read off the conductor's own hits
    assert sorted({e["bpm"] for e in laid}) == [40, 45, 50, 55, 60]
    assert {e["drum"] for e in strokes if not e["muted"]} == {"pi"}
    first = [e for e in laid if e["pass"] == 1]
    assert first[2]["sub"] == 0.5 and first[2]["time"] == pytest.approx(0.75)


def test_bad_input_practice_options_are_refused_as_drumscore_refuses_them(tmp_path):
    """Bad input: a ramp stepping away from its stop, a range past the section's end, and a
    name that is no drum are each an error, as Ramp.parse, parse_span and Drum.parse have them;
    the same options pass in Python."""
    from drumscore.conductor.timeline import parse_span
    from drumscore.conductor.track import Ramp
    from drumscore.errors import OptionError
    from drumscore.model import Drum
    from drumscore.site.data import practice_data, tempo_data

    bad = {"ramp": "40:60:-5", "strokes": "5-99", "only": "snare"}
    out = run_node(
        tmp_path,
        {
            "items": [],
            "parse": bad,
            "tempo": tempo_data(),
            "drums": practice_data()["drums"],
            "count": 23,
        },
    )
    # each refused with its own message (the key of the strings table: this harness has none)
    said = {"ramp": "ramp_step", "strokes": "strokes_range", "only": "only_drum"}
    assert {name: out[name].get("error") for name in bad} == said, out
    for call in (
        lambda: Ramp.parse(bad["ramp"]),
        lambda: parse_span(bad["strokes"], 23),
        lambda: Drum.parse(bad["only"]),
    ):
        with pytest.raises(OptionError):
            call()


def test_a_long_loop_with_practice_keeps_bounded_memory(tmp_path):
    """Clicks (3 a stroke), one drum and a ramp looped for two hours of its clock: the ramp ends
    at 120 a minute, every stroke is heard in order, and the lists stay bounded though each
    stroke brings three clicks."""
    pattern = ["pi", "gu", "pi", "pi", "gu", "gu", "pi", "gu", "pi", "pi", "gu", "pi"] * 2
    practice = {
        "clicks": 3,
        "only": "gu",
        "ramp": {"start": 60, "stop": 120, "step": 5, "every": 2},
    }
    out = run_node(
        tmp_path,
        {"items": pattern[:23], "bpm": 60, "seconds": 2 * 3600, "loopPractice": practice},
    )
    assert out["state"] == "playing" and out["inOrder"]
    assert out["heard"] > 2 * 3600 and out["passes"] > 300
    bound = 2 * out["history"] + 4 * (23 + 5)
    assert out["most"]["schedule"] <= bound, out["most"]
    assert out["most"]["log"] <= 2 * out["history"]
    assert out["most"]["sources"] <= 4 * (23 + 5)


def test_sixteen_bit_samples_are_drumscore_s_own(tmp_path):
    """The page's WAV samples, read back, are what drumscore's writer writes for the same floats:
    random ones, ties of the float32 product (…5 × 1/32767 exactly), and clipped ones."""
    from drumscore.files.audio import write_audio

    rng = np.random.default_rng(7)
    ties = np.array([0.5, 1.5, 2.5, -0.5, -2.5, 1000.5], np.float32) / np.float32(32767)
    floats = np.concatenate([rng.uniform(-0.89, 0.89, 2000), ties, [1.2, -1.3]])
    floats = floats.astype(np.float32)
    write_audio(tmp_path / "ours.wav", np.stack([floats, -floats], axis=1), 44100)
    expected, _ = sf.read(tmp_path / "ours.wav", dtype="int16")
    channels = [floats.tolist(), (-floats).tolist()]
    out = run_node(tmp_path, {"wav": channels, "rounding": "half-even"})
    page, rate = sf.read(io.BytesIO(base64.b64decode(out["wav"])), dtype="int16")
    assert rate == 44100
    assert page.tolist() == expected.tolist()


def test_ties_round_to_even_as_numpy_s_rint(tmp_path):
    values = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 32766.5, 0.49, -7.75, 12.0]
    out = run_node(tmp_path, {"round": values, "rounding": "half-even"})
    assert out["rounded"] == np.rint(values).astype(int).tolist()


def test_bad_input_an_unknown_rounding_rule_rounds_ties_up(tmp_path):
    """Bad input: a rule the script does not know rounds ties up (Math.round), not as drumscore
    does, so the page data must name the rule."""
    out = run_node(tmp_path, {"round": [0.5, 2.5, -0.5], "rounding": "nonsense"})
    assert out["rounded"] == [1, 3, 0]


@pytest.mark.requires("node")
def test_the_wav_s_layout_holds_every_pass_with_a_count_in_before_each(tmp_path):
    """Make WAV's layout (layOut) of 3 passes with a 4-stroke count-in before each, longer than
    the 3-stroke pattern, holds all 9 strokes and 12 counts, as the conductor lays them out; and
    a ramp's passes are counted as track.Ramp counts them, decimal steps too."""
    from drumscore.conductor.timeline import arrange
    from drumscore.conductor.track import Item, Practice, Ramp, Track
    from drumscore.corpus import resolve

    practice = {"countEach": True, "clicks": 0, "only": "", "span": None, "ramp": None}
    out = run_node(
        tmp_path,
        {
            "items": ["pi", "gu", "pi"],
            "layout": {"bpm": 120, "countIn": 4, "practice": practice, "repeats": 3},
            "ramps": [
                {"start": 30, "stop": 30.1, "step": 0.1, "every": 1},
                {"start": 40, "stop": 60, "step": 0.3, "every": 2},
                {"start": 60, "stop": 40, "step": -5, "every": 1},
            ],
        },
    )
    drums = [e["drum"] for e in out["laid"]]
    timeline = arrange(resolve("○□○"), repeats=3)
    track = Track((Item(timeline, count_in=4, practice=Practice(count_each=True)),))
    expected = [h.drum.pinyin if h.drum is not None else "count" for h in track.hits(44100)]
    assert drums == expected
    assert drums.count("count") == 12 and len(drums) == 21
    assert out["ramps"] == [
        Ramp.parse(text).passes for text in ("30:30.1:0.1", "40:60:0.3:2", "60:40:-5")
    ]
