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
import { Player, HISTORY, encodeWav, roundBy } from "./engine.mjs";
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
await player.start(items, { bpm: input.bpm, loop: true, countIn: 4 });
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
