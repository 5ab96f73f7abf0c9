"""The page's player (static/engine.js) run by Node against a stand-in audio clock: a long loop
holds bounded memory, and 16-bit samples are rounded as drumscore's writer rounds them."""

from __future__ import annotations

import base64
import io

import numpy as np
import pytest
import soundfile as sf

pytestmark = pytest.mark.requires("node")

#: A stand-in AudioContext whose clock the script moves, and requestAnimationFrame as a queue.
HARNESS = """
import { Player, HISTORY, encodeWav, roundBy, layOut } from "./engine.js";
import { fracText, parseOnly, parseRamp, parseSpan, rampPasses } from "./fields.js";
const frames = [];
globalThis.requestAnimationFrame = (f) => { frames.push(f); return frames.length; };
globalThis.cancelAnimationFrame = () => {};
const ctx = {
  currentTime: 0, state: "running", destination: {}, outputLatency: 0,
  resume: async () => {},
  createBufferSource() {
    return { connect() {}, disconnect() {}, stop() {}, start(t) { this.t = t; }, onended: null };
  },
  createBuffer(n, length, rate) { return stand(n, length, rate); },
};
// a stand-in AudioBuffer of silence
function stand(numberOfChannels, length, sampleRate) {
  const data = new Float32Array(length);
  const duration = length / sampleRate;
  return { numberOfChannels, length, sampleRate, duration, getChannelData: () => data };
}
let text = "";
for await (const chunk of process.stdin) text += chunk;
const input = JSON.parse(text);
const say = (key) => key;
// a ramp given as text is read as the page reads it
const withRamp = (p) =>
  p && typeof p.ramp === "string" ? { ...p, ramp: parseRamp(p.ramp, input.fields, say) } : p;
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
const player = new Player({ count_velocity: 100, click_velocity: 80 }, "", () => {});
player.ctx = ctx;
const buffer = stand(2, 13230, 44100);
player.buffers = { pi: { buffer, file: "pi.wav" }, gu: { buffer, file: "gu.wav" },
                   count: { buffer, file: "count.wav" } };
const items = input.items.map((drum, i) => ({ drum, mark: i }));
if (input.layout) {
  const practice = withRamp(input.layout.practice);
  const options = { ...input.layout, practice, fields: input.fields };
  const laid = layOut(items, options);
  const ramps = (input.ramps || []).map((t) => rampPasses(parseRamp(t, input.fields, say)));
  console.log(JSON.stringify({ laid, ramps }));
  process.exit(0);
}
if (input.grid) {
  // many layouts: each {items, bpm, countIn, practice, repeats}, as frames, drums and flags
  const out = input.grid.map((g) => layOut(g.items.map((drum) => ({ drum })), {
    ...g, practice: withRamp(g.practice), rate: input.rate, fields: input.fields,
  }).map((h) => [h.frame, h.drum, h.muted, h.click]));
  // written whole before the exit (a pipe takes a long line in parts)
  await new Promise((done) => process.stdout.write(JSON.stringify({ out }) + "\\n", done));
  process.exit(0);
}
if (input.parse) {
  const out = {};
  for (const [name, text] of Object.entries(input.parse)) {
    try {
      if (name === "ramp") {
        const r = parseRamp(text, input.fields, say);
        const [start, stop, step] = [r.start, r.stop, r.step].map(fracText);
        out[name] = { ...r, start, stop, step };
      } else {
        out[name] = name === "only"
          ? parseOnly(text, input.fields, say)
          : parseSpan(text, input.count, input.fields, say);
      }
    } catch (error) {
      out[name] = { error: error.key };
    }
  }
  console.log(JSON.stringify(out));
  process.exit(0);
}
if (input.practice) {
  // a play with practice, its clock moved until `passes` passes are laid out
  const practice = withRamp(input.practice);
  await player.start(items, { bpm: input.bpm, loop: true, countIn: 0, practice });
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
const looped = withRamp(input.loopPractice);
await player.start(items, { bpm: input.bpm, loop: true, countIn: 4, practice: looped });
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


@pytest.fixture
def run_node(run_script):
    """The harness run on `payload`, the page data's grammar of fields given to it."""
    from drumscore.site.grammar import field_data

    return lambda payload: run_script(HARNESS, {"fields": field_data(), **payload})


def test_a_long_loop_keeps_bounded_memory(run_node):
    """A 23-stroke pattern looped at 60 a minute for twelve hours of its clock: 43 200 strokes,
    over 1 870 passes, every one heard in order, and no list grows past its bound."""
    pattern = ["pi", "gu", "pi", "pi", "gu", "gu", "pi", "gu", "pi", "pi", "gu", "pi"] * 2
    out = run_node({"items": pattern[:23], "bpm": 60, "seconds": 12 * 3600})
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


def test_practice_is_laid_out_as_drumscore_s_conductor_lays_it(run_node, practice_hits):
    """Click 2, only 鼙, strokes 5-12 and ramp 40:60:5: the page's schedule holds the conductor's
    hits, in order, each at its time (within a frame at 1 MHz a pass), clicks halfway, only ○
    sounded, ■ muted but scheduled, strokes 5 to 12, passes at 40, 45, 50, 55 and 60."""
    from drumscore import corpus
    from drumscore.model import Section

    rate, hits = practice_hits["rate"], practice_hits["hits"]
    pattern = corpus.resolve("lu").pattern.section(Section.SHE)
    parsed = run_node(
        {
            "items": [],
            "parse": {"ramp": "40:60:5", "strokes": "5-12", "only": "鼙"},
            "count": len(pattern),
        },
    )
    practice = {**PRACTICE_PAGE, "ramp": "40:60:5", "only": parsed["only"]}
    assert parsed["ramp"] == {"start": "40", "stop": "60", "step": "5", "every": 1}
    assert parsed["strokes"] == PRACTICE_PAGE["span"]
    out = run_node(
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


def test_bad_input_practice_options_are_refused_as_drumscore_refuses_them(run_node):
    """Bad input: a ramp stepping away from its stop, a range past the section's end, and a
    name that is no drum are each an error, as Ramp.parse, parse_span and Drum.parse have them;
    the same options pass in Python."""
    from drumscore.conductor.timeline import parse_span
    from drumscore.conductor.track import Ramp
    from drumscore.errors import OptionError
    from drumscore.model import Drum

    bad = {"ramp": "40:60:-5", "strokes": "5-99", "only": "snare"}
    out = run_node({"items": [], "parse": bad, "count": 23})
    # each refused by the key of drumscore's own refusal
    said = {"ramp": "ramp_step", "strokes": "strokes_range", "only": "no_drum"}
    assert {name: out[name].get("error") for name in bad} == said, out
    for name, call in (
        ("ramp", lambda: Ramp.parse(bad["ramp"])),
        ("strokes", lambda: parse_span(bad["strokes"], 23)),
        ("only", lambda: Drum.parse(bad["only"])),
    ):
        with pytest.raises(OptionError) as refused:
            call()
        assert refused.value.key == said[name]


def test_a_long_loop_with_practice_keeps_bounded_memory(run_node):
    """Clicks (3 a stroke), one drum and a ramp looped for two hours of its clock: the ramp ends
    at 120 a minute, every stroke is heard in order, and the lists stay bounded though each
    stroke brings three clicks."""
    pattern = ["pi", "gu", "pi", "pi", "gu", "gu", "pi", "gu", "pi", "pi", "gu", "pi"] * 2
    practice = {
        "clicks": 3,
        "only": "gu",
        "ramp": "60:120:5:2",
    }
    out = run_node(
        {"items": pattern[:23], "bpm": 60, "seconds": 2 * 3600, "loopPractice": practice},
    )
    assert out["state"] == "playing" and out["inOrder"]
    assert out["heard"] > 2 * 3600 and out["passes"] > 300
    bound = 2 * out["history"] + 4 * (23 + 5)
    assert out["most"]["schedule"] <= bound, out["most"]
    assert out["most"]["log"] <= 2 * out["history"]
    assert out["most"]["sources"] <= 4 * (23 + 5)


def test_sixteen_bit_samples_are_drumscore_s_own(run_node, tmp_path):
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
    out = run_node({"wav": channels, "rounding": "half-even"})
    page, rate = sf.read(io.BytesIO(base64.b64decode(out["wav"])), dtype="int16")
    assert rate == 44100
    assert page.tolist() == expected.tolist()


def test_ties_round_to_even_as_numpy_s_rint(run_node):
    values = [0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 32766.5, 0.49, -7.75, 12.0]
    out = run_node({"round": values, "rounding": "half-even"})
    assert out["rounded"] == np.rint(values).astype(int).tolist()


def test_bad_input_an_unknown_rounding_rule_rounds_ties_up(run_node):
    """Bad input: a rule the script does not know rounds ties up (Math.round), not as drumscore
    does, so the page data must name the rule."""
    out = run_node({"round": [0.5, 2.5, -0.5], "rounding": "nonsense"})
    assert out["rounded"] == [1, 3, 0]


@pytest.mark.requires("node")
def test_the_wav_s_layout_holds_every_pass_with_a_count_in_before_each(run_node):
    """Make WAV's layout (layOut) of 3 passes with a 4-stroke count-in before each, longer than
    the 3-stroke pattern, holds all 9 strokes and 12 counts, as the conductor lays them out; and
    a ramp's passes are counted as track.Ramp counts them, decimal steps too."""
    from drumscore.conductor.timeline import arrange
    from drumscore.conductor.track import Item, Practice, Ramp, Track
    from drumscore.corpus import resolve

    practice = {"countEach": True, "clicks": 0, "only": "", "span": None, "ramp": None}
    out = run_node(
        {
            "items": ["pi", "gu", "pi"],
            "layout": {"bpm": 120, "countIn": 4, "practice": practice, "repeats": 3, "rate": 44100},
            "ramps": ["30:30.1:0.1", "40:60:0.3:2", "60:40:-5"],
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


#: Tempos of the grid: whole, decimal and odd ones whose interval is no binary fraction.
GRID_BPMS = ["32", "37.3", "60", "96.5", "113", "59.9", "6", "1200", "71", "144.25", "7e1"]
#: Ramps of the grid, a few passes each: decimal, fractional, falling, every 2nd pass.
GRID_RAMPS = ["40:60:5", "40:45:.5", "100:90:-2.5", "30:31:1/3", "5e1:6e1:5:2", "58.5:60:0.75"]


def _grid(n: int) -> list[dict]:
    """`n` option sets: score section, tempo or ramp, clicks, count-in (once or each pass),
    silent passes, one drum, a range of strokes and passes, drawn with a fixed seed."""
    import random

    rng = random.Random(28)
    sections = [("lu", "she"), ("lu", "touhu"), ("xue/2", "head"), ("○□○半□", "she")]
    grid = []
    for i in range(n):
        name, section = sections[i % len(sections)]
        ramp = rng.choice(GRID_RAMPS) if rng.random() < 0.3 else None
        span = rng.choice([None, None, "2-5", "1", "3-4"])
        if name == "○□○半□" and span is not None:
            span = "2-3"
        grid.append(
            {
                "name": name,
                "section": section,
                "bpm": rng.choice(GRID_BPMS),
                "click": rng.choice([0, 0, 1, 2, 3, 4]),
                "count_in": rng.choice([0, 0, 1, 3]),
                "count_each": rng.random() < 0.3,
                "silent_every": rng.choice([0, 0, 2, 3]),
                "only": rng.choice([None, None, "pi", "gu"]),
                "span": span,
                "ramp": ramp,
                "repeats": rng.choice([1, 1, 2, 3]),
            }
        )
    # the setting the page put a frame off with floats: --bpm 32 --click 3
    grid[0] = {**grid[0], "name": "lu", "section": "she", "bpm": "32", "click": 3, "ramp": None}
    grid[0] |= {"span": None, "count_in": 0, "silent_every": 0, "only": None, "repeats": 1}
    return grid


def test_the_wav_s_layout_is_render_s_frame_for_frame(run_node):
    """Over 600 option sets (tempo or ramp, clicks, count-in once or each pass, silent passes,
    one drum, a range of strokes, passes), the page's layout (layOut) is the hits render lays out
    at the rate render writes: every frame, drum, muted stroke and click the same, in order.
    `--bpm 32 --click 3` puts hit 8 at frame 137813, as render does."""
    from drumscore import corpus
    from drumscore.conductor.timeline import arrange, parse_span
    from drumscore.conductor.track import Practice, Ramp, Track
    from drumscore.errors import OptionError
    from drumscore.model import Drum, Section
    from drumscore.site.data import play_data
    from drumscore.timing import Tempo

    rate = play_data()["rate"]
    grid, sets, expected = [], [], []
    for g in _grid(600):
        score = corpus.resolve(g["name"])
        section = Section(g["section"])
        ramp = Ramp.parse(g["ramp"]) if g["ramp"] else None
        repeats = ramp.passes if ramp else g["repeats"]
        timeline = arrange(
            score, section, Tempo.from_bpm(g["bpm"]), repeats, strokes_range=g["span"]
        )
        practice = Practice(
            click=g["click"],
            count_each=g["count_each"],
            silent_every=g["silent_every"],
            only=Drum.parse(g["only"]) if g["only"] else None,
            ramp=ramp,
        )
        try:  # one drum that the strokes chosen lack: refused, nothing would sound
            hits = Track.single(timeline, g["count_in"], practice=practice).hits(rate)
        except OptionError:
            continue
        grid.append(g)
        drum = lambda h: "count" if h.drum is None else h.drum.pinyin  # noqa: E731
        expected.append([[h.frame, drum(h), h.muted, h.click] for h in hits])
        strokes = score.pattern.section(section)
        sets.append(
            {
                "items": [s.drum.pinyin for s in strokes],
                "bpm": g["bpm"],
                "countIn": g["count_in"],
                "repeats": None if g["ramp"] else g["repeats"],  # a ramp's own, as without --repeat
                "practice": {
                    "clicks": g["click"],
                    "only": g["only"] or "",
                    "span": list(parse_span(g["span"], len(strokes))) if g["span"] else None,
                    "ramp": g["ramp"],
                    "countEach": g["count_each"],
                    "silentEvery": g["silent_every"],
                },
            }
        )
    out = run_node({"items": [], "grid": sets, "rate": rate})["out"]
    assert len(out) == len(grid) >= 500
    for g, page, ours in zip(grid, out, expected, strict=True):
        assert page == ours, g
    assert rate == 44100 and out[0][7][0] == 137813  # hit 8: stroke 2's third click
