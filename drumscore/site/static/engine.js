// The page's player: the built-in kit's samples scheduled on the AudioContext clock.
//
// Every stroke of a play is placed at origin + k × interval on the audio clock, k counted from
// the origin, never accumulated; no timer schedules anything. requestAnimationFrame reads
// ctx.currentTime to light the stroke being heard, and tops the schedule up when looping (the
// `ended` event of each stroke does the same, so a hidden tab keeps looping).
//
// What must agree with drumscore itself (the keys, the tap tempo, the count-in limit, the peak
// level, the rounding of samples, the sample rate, the grammar of the fields) comes from the page
// data the site writes (`play`, `fields`), never from a constant here; the WAV's layout is the
// conductor's, in exact fractions (layOut). A looping play keeps only what it still needs: the
// sounds ahead, and the last HISTORY sounds and highlights behind, so memory stays bounded
// however long it loops.

import { add, frac, mul, numberText, rampPasses, rampTempo, roundHalfUp, toNumber } from "./fields.js";

const LEAD = 0.12; // seconds from pressing play to the first sound
const RESUME_LEAD = 0.05; // the least time from resuming to the first sound, on the beat
const HORIZON = 2.5; // when looping, keep at least this many seconds scheduled ahead
export const HISTORY = 256; // sounds and highlights kept after they were heard
// Origins are put on a grid of 1/1024 s, so origin + k × interval adds exactly in floating point
// whenever k × interval is itself exact (any tempo whose interval is a binary fraction).
const GRID = 1024;

function onGrid(t) {
  return Math.ceil(t * GRID) / GRID;
}

// The page data the site writes; its `strings` (every text the scripts show, in the page's
// language) become the table `say` reads.
export function pageData() {
  const data = JSON.parse(document.getElementById("page-data").textContent);
  strings = data.strings || {};
  return data;
}

let strings = {};

// The text the page data's `strings` has for `key`, its {name} placeholders filled from
// `values` (a pair is a plural: the first form for n = 1); the key itself without a table.
export function say(key, values = {}) {
  const entry = strings[key] ?? key;
  const text = Array.isArray(entry) ? entry[values.n === 1 ? 0 : 1] : entry;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

// x rounded to a whole number by the page data's rule: "half-even" (ties to the even neighbour,
// as numpy's rint has it) or anything else, ties up (Math.round).
export function roundBy(x, rule) {
  const r = Math.round(x); // ties towards +infinity
  if (rule === "half-even" && Math.abs(x % 1) === 0.5 && r % 2 !== 0) return r - 1;
  return r;
}

// --- tempo, exactly --------------------------------------------------------------------------

// A tempo in strokes a minute (a number or its text) as an exact fraction, read as drumscore
// reads --bpm (fields: the page data's `fields`).
export function bpmFraction(value, fields) {
  return numberText(String(value), fields, (key) => key, "bpm");
}

export function intervalOf(bpm) {
  return 60 / Number(bpm);
}

// --- the kit ---------------------------------------------------------------------------------

const fetched = new Map();

async function sampleBytes(url) {
  if (!fetched.has(url)) {
    fetched.set(
      url,
      fetch(url).then((r) => {
        if (!r.ok) throw new Error(say("cannot_load", { url, status: r.status }));
        return r.arrayBuffer();
      }),
    );
  }
  return (await fetched.get(url)).slice(0);
}

// Each drum's sample decoded for `ctx`, with the kit's left/right gain applied (as drumscore's
// mixer applies it), and the count-in click.
export async function loadKit(ctx, kit, root) {
  const base = `${root}assets/samples/`;
  const buffers = {};
  const entries = Object.entries(kit.voices).map(([name, v]) => [name, v.file, v.gain]);
  entries.push(["count", kit.count, kit.count_gain]);
  await Promise.all(
    entries.map(async ([name, file, gain]) => {
      const decoded = await ctx.decodeAudioData(await sampleBytes(base + file));
      const out = ctx.createBuffer(2, decoded.length, decoded.sampleRate);
      for (let ch = 0; ch < 2; ch++) {
        const src = decoded.getChannelData(Math.min(ch, decoded.numberOfChannels - 1));
        const dst = out.getChannelData(ch);
        for (let i = 0; i < src.length; i++) dst[i] = src[i] * gain[ch];
      }
      buffers[name] = { buffer: out, file };
    }),
  );
  return buffers;
}

// --- live playback ---------------------------------------------------------------------------

// A play is a pass of items ({drum: "pi"|"gu"|null, mark}) played once or looped, after an
// optional count-in; drum null is a rest that keeps its beat. Beats are numbered k from the first
// stroke of the first pass (the count-in is k = −N … −1) and run on across passes.
//
// No practice options: what Player.start takes when none are given.
const NO_PRACTICE = {
  clicks: 0,
  clickLevel: null,
  only: "",
  span: null,
  ramp: null,
  countEach: false,
  silentEvery: 0,
};

// The gain of a click at velocity `level` (the kit data's default when null): the count sound at
// its velocity over the count's own (kit.count_velocity), in single precision, as drumscore's
// mixer scales it (SoundChooser.index).
export function clickGain(kit, level) {
  return Math.fround((level ?? kit.click_velocity) / kit.count_velocity);
}

// `buffer` (an AudioBuffer) times `gain`, each sample rounded to single precision as drumscore
// scales a sound (a new buffer; the same one for a gain of 1).
function scaled(ctx, buffer, gain) {
  if (gain === 1) return buffer;
  const out = ctx.createBuffer(buffer.numberOfChannels, buffer.length, buffer.sampleRate);
  for (let ch = 0; ch < buffer.numberOfChannels; ch++) {
    const src = buffer.getChannelData(ch);
    const dst = out.getChannelData(ch);
    for (let i = 0; i < src.length; i++) dst[i] = src[i] * gain;
  }
  return out;
}

// Practice ({clicks, clickLevel, only, span, ramp, countEach, silentEvery}), as drumscore's
// conductor lays it out: `countEach` the count-in before every pass; `silentEvery` k: every k-th
// pass's strokes muted, a click on every stroke at least; `clicks` count sounds a beat at velocity
// `clickLevel` (see clickGain), the first on the stroke and the others at j/clicks of the
// interval after it;
// `only` the one drum heard (the other's strokes are scheduled muted, so they still light up);
// `span` [first, end) the strokes of the items played (a section switched to plays whole); `ramp`
// the tempo of each pass (see rampTempo), each pass counted from its own first beat.
export class Player {
  constructor(kit, root, onStroke) {
    this.kitData = kit;
    this.root = root;
    this.onStroke = onStroke || (() => {});
    this.ctx = null;
    this.buffers = null;
    this.schedule = []; // the sounds ahead and the last HISTORY heard: {k, index, pass, drum, time…}
    this.log = []; // the last changes of highlight: {k, index, at, time}
    this.played = 0; // strokes (not count-in clicks) this play has scheduled and not taken back
    this.passes = [];
    this.practice = { ...NO_PRACTICE };
    this.current = null;
    this.state = "stopped";
    this.sources = [];
    this.raf = 0;
  }

  async ready() {
    if (!this.ctx) {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      this.ctx = new Ctx({ latencyHint: "interactive" });
      this.buffers = await loadKit(this.ctx, this.kitData, this.root);
    }
    if (this.ctx.state !== "running") await this.ctx.resume();
  }

  get playing() {
    return this.state === "playing";
  }

  // Start `items` at `bpm`; the first sound comes LEAD seconds from now, the count-in first.
  async start(items, { bpm, loop = false, countIn = 0, practice = {}, repeats = null }) {
    await this.ready();
    this.stopSounds();
    this.loop = loop;
    this.countIn = countIn;
    this.practice = { ...NO_PRACTICE, ...practice };
    this.repeats = passesOf(this.practice, repeats); // played when not looping
    this.clickSound = scaled(this.ctx, this.buffers.count.buffer, clickGain(this.kitData, this.practice.clickLevel));
    if (this.practice.span) items = items.slice(...this.practice.span);
    this.spanned = this.practice.span ? items : null; // the items the span gave, while played
    this.bpm = this.practice.ramp ? toNumber(rampTempo(this.practice.ramp, 1)) : Number(bpm);
    this.schedule = [];
    this.log = [];
    this.played = 0;
    this.current = null;
    this.finished = false;
    this.pending = null;
    this.switchWaiting = false;
    this.endK = null;
    this.passes = [{ k: 0, items, pass: 1, switched: false }];
    const interval = intervalOf(this.bpm);
    const t0 = onGrid(this.ctx.currentTime + LEAD);
    // one segment of even beats: beat k at origin + (k − k0) × interval
    this.segment = { k0: -countIn, origin: t0, interval };
    this.nextK = -countIn;
    this.state = "playing";
    this.topUp();
    this.tick();
  }

  get items() {
    return this.passOf(this.current ? this.current.k : 0).items;
  }

  passOf(k) {
    let found = this.passes[0];
    for (const p of this.passes) if (p.k <= k) found = p;
    return found;
  }

  timeOf(k) {
    const s = this.segment;
    return s.origin + (k - s.k0) * s.interval;
  }

  addSound(entry) {
    const sample = this.buffers[entry.drum];
    if (!entry.muted) {
      const src = this.ctx.createBufferSource();
      src.buffer = entry.click ? this.clickSound : sample.buffer;
      src.connect(this.ctx.destination);
      src.start(entry.time);
      src.onended = () => {
        this.sources = this.sources.filter((s) => s.node !== src);
        if (this.state === "playing") this.topUp();
      };
      this.sources.push({ node: src, k: entry.k });
    }
    const { k0, origin, interval } = this.segment;
    this.schedule.push({ ...entry, sample: sample.file, k0, origin, interval, bpm: this.bpm });
    if (entry.drum !== "count") this.played += 1;
  }

  // Forget what was heard long enough ago: sounds and highlights beyond HISTORY, and the passes
  // before the oldest sound kept. Done in batches, so each costs little.
  trim() {
    const heard = this.current ? this.schedule.indexOf(this.current) : -1;
    if (heard - HISTORY >= HISTORY) this.schedule.splice(0, heard - HISTORY);
    if (this.log.length >= 2 * HISTORY) this.log.splice(0, this.log.length - HISTORY);
    const oldest = this.schedule.length ? this.schedule[0].k : this.nextK;
    let drop = 0;
    while (drop + 1 < this.passes.length && this.passes[drop + 1].k <= oldest) drop += 1;
    if (drop) this.passes.splice(0, drop);
  }

  // Schedule the count-in and the pass under way; when looping, whole passes up to the horizon.
  topUp() {
    const ahead = this.ctx.currentTime + HORIZON;
    while (this.state === "playing" && !this.finished) {
      const k = this.nextK;
      if (k < 0) {
        this.addSound({ k, index: -1, pass: 0, drum: "count", mark: null, time: this.timeOf(k) });
        this.nextK = k + 1;
        continue;
      }
      let pass = this.passes[this.passes.length - 1];
      if (k - pass.k >= pass.items.length) {
        const more = this.loop || pass.pass < this.repeats;
        if (!more || (this.endK !== null && k >= this.endK)) {
          this.finished = true;
          break;
        }
        if (this.timeOf(k) > ahead) break;
        const switched = this.pending !== null;
        pass = { k, items: this.pending || pass.items, pass: pass.pass + 1, switched };
        const ramp = this.practice.ramp;
        if (ramp) {
          // each pass at its tempo, from its own first beat; undone, the pass gives these back
          pass.before = { segment: this.segment, bpm: this.bpm };
          this.bpm = toNumber(rampTempo(ramp, pass.pass));
          this.segment = { k0: k, origin: this.timeOf(k), interval: intervalOf(this.bpm) };
        }
        this.pending = null;
        this.switchWaiting = false;
        // the count-in again before this pass (count c of it at beat k + c), the pass after it
        const count = this.practice.countEach ? this.countIn : 0;
        for (let c = 0; c < count; c++) {
          const time = this.timeOf(k + c);
          this.addSound({ k: k + c, index: -1, pass: 0, drum: "count", mark: null, time, c });
        }
        pass.k = k + count;
        this.passes.push(pass);
        if (count) {
          this.nextK = pass.k;
          continue;
        }
      }
      const index = k - pass.k;
      const item = pass.items[index];
      const where = { k, index, pass: pass.pass };
      const { silentEvery, only } = this.practice;
      const silent = silentEvery > 0 && pass.pass % silentEvery === 0;
      if (item.drum) {
        const muted = silent || (Boolean(only) && item.drum !== only);
        const time = this.timeOf(k);
        this.addSound({ ...where, drum: item.drum, mark: item.mark, time, muted });
      }
      const clicks = this.practice.clicks || (silentEvery ? 1 : 0); // a silent pass clicks
      for (let j = 0; j < clicks; j++) {
        const time = this.timeOf(k + j / clicks);
        this.addSound({ ...where, drum: "count", mark: null, time, click: true, sub: j / clicks });
      }
      this.nextK = k + 1;
    }
  }

  // The first beat not yet sounding: a change takes effect there.
  nextUnplayed() {
    const now = this.ctx.currentTime + 0.02;
    let k = this.nextK;
    for (const e of this.schedule) if (e.time > now && e.k < k) k = e.k;
    return k;
  }

  // Take back every sound from beat k on (and the passes that begin after it).
  cancelFrom(k) {
    for (const s of this.sources) {
      if (s.k >= k) {
        s.node.onended = null;
        try {
          s.node.stop();
        } catch {
          /* not started */
        }
        s.node.disconnect();
      }
    }
    this.sources = this.sources.filter((s) => s.k < k);
    const kept = this.schedule.filter((e) => e.k < k);
    this.played -= this.schedule.filter((e) => e.k >= k && e.drum !== "count").length;
    this.schedule = kept;
    while (this.passes.length > 1 && this.passes[this.passes.length - 1].k >= k) {
      const undone = this.passes.pop();
      if (undone.switched && this.pending === null) this.pending = undone.items;
      if (undone.before) ({ segment: this.segment, bpm: this.bpm } = undone.before);
    }
    this.nextK = k;
    this.finished = false;
  }

  // The end of the pass being heard: the beat after its last stroke.
  passEnd() {
    const heard = this.current ? this.current.k : Math.max(0, this.nextUnplayed() - 1);
    const pass = this.passOf(Math.max(0, heard));
    return pass.k + pass.items.length;
  }

  // A new tempo from the next beat on: it follows the beat before it at the new interval.
  setTempo(bpm) {
    this.bpm = Number(bpm);
    if (this.state !== "playing") return;
    const k = this.nextUnplayed();
    const interval = intervalOf(this.bpm);
    const previous = this.schedule.some((e) => e.k < k) ? this.timeOf(k - 1) : null;
    let origin = previous === null ? this.timeOf(k) : previous + interval;
    origin = Math.max(origin, onGrid(this.ctx.currentTime + 0.03));
    this.cancelFrom(k);
    this.segment = { k0: k, origin, interval };
    this.topUp();
  }

  // Play other items from the end of the pass being heard (when looping; else the play ends
  // there as it would have). Asked again before then, the switch is called off, as `s` is in
  // drumscore play. Returns whether a switch now waits.
  toggleSwitch(items) {
    if (this.state === "stopped") return false;
    const from = Math.max(this.passEnd(), this.nextUnplayed());
    if (this.pending !== null || this.switchWaiting) {
      this.cancelFrom(from);
      this.pending = null;
      this.switchWaiting = false;
    } else {
      this.cancelFrom(from);
      this.pending = items;
      this.switchWaiting = true;
    }
    if (this.state === "playing") this.topUp();
    return this.switchWaiting;
  }

  // Other items from the end of the pass (the section chosen while looping); false when not
  // looping, where the choice is for the next play.
  switchAtPassEnd(items) {
    if (this.state === "stopped" || !this.loop) return false;
    this.pending = items;
    this.switchWaiting = true;
    this.cancelFrom(Math.max(this.passEnd(), this.nextUnplayed()));
    if (this.state === "playing") this.topUp();
    return true;
  }

  // Loop on or off from now: off, the play ends with the pass being heard.
  setLoop(loop) {
    this.loop = loop;
    if (this.state === "stopped") return;
    if (!loop) this.cancelFrom(Math.max(this.passEnd(), this.nextUnplayed()));
    if (this.state === "playing") this.topUp();
  }

  // Stop when the pass being heard ends (paused: the pass resumed). False when nothing plays.
  stopAtPassEnd() {
    if (this.state === "stopped") return false;
    this.endK = this.passEnd();
    this.cancelFrom(Math.max(this.endK, this.nextUnplayed()));
    if (this.state === "playing") this.topUp();
    return true;
  }

  // What waits for the end of the pass, in drumscore play's words.
  get waiting() {
    const out = [];
    if (this.state === "stopped") return out;
    if (this.switchWaiting) out.push(say("switch_waiting"));
    if (this.endK !== null) out.push(say("stop_waiting"));
    return out;
  }

  // Pause at the next beat; the beat goes on silently, so a resume comes back on it.
  pause() {
    if (this.state !== "playing") return;
    const k = this.nextUnplayed();
    this.cancelFrom(k);
    this.state = "paused";
    this.pausedAt = k;
  }

  // Resume on the beat: the next stroke falls where a beat of the silent pulse falls (at the
  // tempo chosen meanwhile, counted from the last beat at the old one).
  async resume() {
    if (this.state !== "paused") return;
    await this.ready();
    const soonest = this.ctx.currentTime + RESUME_LEAD;
    const old = this.segment;
    let last = this.timeOf(this.pausedAt - 1);
    if (soonest > last) last += Math.floor((soonest - last) / old.interval) * old.interval;
    const interval = intervalOf(this.bpm);
    const origin = last + Math.max(1, Math.ceil((soonest - last) / interval)) * interval;
    this.segment = { k0: this.pausedAt, origin, interval };
    this.state = "playing";
    this.topUp();
    this.tick();
  }

  stopSounds() {
    for (const s of this.sources) {
      s.node.onended = null;
      try {
        s.node.stop();
      } catch {
        /* not started */
      }
      s.node.disconnect();
    }
    this.sources = [];
  }

  stop() {
    this.stopSounds();
    this.state = "stopped";
    cancelAnimationFrame(this.raf);
    this.current = null;
    this.onStroke(null, this);
  }

  // The highlight, from the audio clock: the latest sound whose time has come.
  tick() {
    cancelAnimationFrame(this.raf);
    const frame = () => {
      if (this.state === "stopped") return;
      const now = this.ctx.currentTime - (this.ctx.outputLatency || 0);
      let heard = null; // the latest sound whose time has come (the schedule is in time order)
      for (let i = this.schedule.length - 1; i >= 0; i--) {
        if (this.schedule[i].time <= now && !this.schedule[i].click) {
          heard = this.schedule[i];
          break;
        }
      }
      if (heard && (!this.current || heard.k !== this.current.k)) {
        this.current = heard;
        this.log.push({ k: heard.k, index: heard.index, at: now, time: heard.time });
        this.onStroke(heard, this);
      }
      if (this.state === "playing") this.topUp();
      this.trim();
      const last = this.schedule.length ? this.schedule[this.schedule.length - 1] : null;
      const done =
        this.state === "playing" && this.finished &&
        (!last || now > last.time + this.buffers[last.drum].buffer.duration);
      if (done) {
        this.state = "stopped";
        this.onStroke(null, this, true);
        this.current = null;
        return;
      }
      this.raf = requestAnimationFrame(frame);
    };
    this.raf = requestAnimationFrame(frame);
  }
}

// --- the offline render (WAV) ----------------------------------------------------------------

// The passes of a play: `repeats` as --repeat gives them, or without it (null) one, or a ramp's
// every pass up to the first at its stop tempo (Ramp.passes).
export function passesOf(practice, repeats) {
  if (repeats !== null && repeats !== undefined) return Math.max(1, repeats);
  return practice.ramp ? rampPasses(practice.ramp) : 1;
}

// The sounds of a play of `items` (as for Player.start) to its last pass (passesOf), laid out as drumscore's conductor lays out a track of one item (Conductor.advance,
// conductor/track.py) in exact fractions: a stretch of even beats counted from its first beat
// (beat b at anchor + round(b × 60/bpm × rate), ties up), a ramp's pass from its own first beat,
// the count-in before the first pass (before each with countEach), clicks j/clicks of a beat
// after their stroke. [{frame, drum, muted, click, sub, k, pass}], in the conductor's order.
export function layOut(items, { bpm, countIn = 0, practice = {}, repeats = null, rate, fields }) {
  const p = { ...NO_PRACTICE, ...practice };
  if (p.span) items = items.slice(...p.span);
  const n = items.length;
  const passes = passesOf(p, repeats);
  let tempo = p.ramp ? rampTempo(p.ramp, 1) : bpmFraction(bpm, fields);
  const perBeat = (t) => frac(60n * BigInt(rate) * t.d, t.n); // frames a beat, exactly
  let step = perBeat(tempo);
  let anchor = 0n; // the frame the grid counts from, and its beat
  let first = 0n;
  const frameOf = (beat, sub = frac(0n)) => anchor + roundHalfUp(mul(add(frac(beat - first), sub), step));
  const clicks = p.clicks || (p.silentEvery ? 1 : 0);
  const out = [];
  let beat = 0n;
  let k = 0;
  let countLeft = countIn;
  if (!n) return out;
  for (;;) {
    const frame = frameOf(beat);
    if (countLeft) {
      out.push({ frame: Number(frame), drum: "count", muted: false, click: false, sub: 0, k: countIn - countLeft, pass: 0 });
      countLeft -= 1;
      beat += 1n;
      continue;
    }
    const item = items[k % n];
    const pass = Math.floor(k / n) + 1;
    if (item.drum) {
      const silent = p.silentEvery > 0 && pass % p.silentEvery === 0;
      const muted = silent || (Boolean(p.only) && item.drum !== p.only);
      out.push({ frame: Number(frame), drum: item.drum, muted, click: false, sub: 0, k, pass });
    }
    for (let j = 0; j < clicks; j++) {
      const at = j ? frameOf(beat, frac(BigInt(j), BigInt(clicks))) : frame;
      out.push({ frame: Number(at), drum: "count", muted: false, click: true, sub: j / clicks, k, pass });
    }
    beat += 1n;
    k += 1;
    if (k % n) continue;
    const done = k / n;
    if (done >= passes) break;
    if (p.ramp) {
      // each pass at its tempo, from its own first beat
      anchor = frameOf(beat);
      first = beat;
      tempo = rampTempo(p.ramp, done + 1);
      step = perBeat(tempo);
    }
    if (p.countEach) countLeft = countIn;
  }
  return out;
}

// Render items (as for Player.start, with its practice options, after `countIn` clicks) at
// `bpm` and `rate`, as drumscore render does, sample for sample: laid out as drumscore's
// conductor lays them out (layOut); mixed as its mixer mixes (render/mix.py, mix_range): each
// sound, in the order of its onset, times its gain and added, in single precision; the last
// sound ringing out in full; then scaled in single precision by the gain that brings the peak
// to the page data's `peakLevel` (10^(dBFS/20), as gain_for has it). Returns {channels, rate,
// onsets}.
export async function renderOffline(
  kit,
  root,
  items,
  { bpm, peakLevel, rate, fields, repeats = null, countIn = 0, practice = {}, normalize = true },
) {
  const probe = new OfflineAudioContext(2, 1, rate);
  const buffers = await loadKit(probe, kit, root);
  const laid = layOut(items, { bpm, countIn, practice, repeats, rate, fields });
  const click = clickGain(kit, practice.clickLevel ?? null);
  // the conductor's order, each sound at its onset (a stable sort, as plan sorts them)
  const plan = laid
    .filter((p) => !p.muted)
    .map((p, i) => ({ ...p, i, gain: p.click ? click : 1 }))
    .sort((a, b) => a.frame - b.frame || a.i - b.i);
  const sounds = {};
  for (const [name, b] of Object.entries(buffers)) sounds[name] = [b.buffer.getChannelData(0), b.buffer.getChannelData(1)];
  let length = 0;
  for (const p of plan) length = Math.max(length, p.frame + sounds[p.drum][0].length);
  const channels = [new Float32Array(length), new Float32Array(length)];
  for (const p of plan) {
    for (let ch = 0; ch < 2; ch++) {
      const src = sounds[p.drum][ch];
      const dst = channels[ch];
      if (p.gain === 1) for (let i = 0; i < src.length; i++) dst[p.frame + i] += src[i];
      else for (let i = 0; i < src.length; i++) dst[p.frame + i] += Math.fround(src[i] * p.gain);
    }
  }
  let peak = 0;
  for (const ch of channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]));
  if (peak > 0 && normalize) {
    const gain = Math.fround(peakLevel / peak);
    for (const ch of channels) for (let i = 0; i < ch.length; i++) ch[i] *= gain;
  }
  return { channels, rate, onsets: plan.map((p) => ({ frame: p.frame, drum: p.drum })) };
}

// 16-bit PCM WAV bytes of float channels, scaled in single precision, rounded (by `rounding`,
// the page data's rule) and clipped, as drumscore's own writer (files/audio.py) writes them.
export function encodeWav(channels, rate, rounding) {
  const frames = channels[0].length;
  const n = channels.length;
  const bytes = new ArrayBuffer(44 + frames * n * 2);
  const view = new DataView(bytes);
  const text = (offset, s) => [...s].forEach((c, i) => view.setUint8(offset + i, c.charCodeAt(0)));
  text(0, "RIFF");
  view.setUint32(4, 36 + frames * n * 2, true);
  text(8, "WAVE");
  text(12, "fmt ");
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, n, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * n * 2, true);
  view.setUint16(32, n * 2, true);
  view.setUint16(34, 16, true);
  text(36, "data");
  view.setUint32(40, frames * n * 2, true);
  let offset = 44;
  for (let i = 0; i < frames; i++) {
    for (let ch = 0; ch < n; ch++) {
      const scaled = Math.fround(channels[ch][i] * 32767);
      const v = Math.max(-32768, Math.min(32767, roundBy(scaled, rounding)));
      view.setInt16(offset, v, true);
      offset += 2;
    }
  }
  return new Blob([bytes], { type: "audio/wav" });
}

// --- keys, as in drumscore play --------------------------------------------------------------

const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

// Keys, as `drumscore play` has them (the table is the page data's `play.keys`): space pauses
// and resumes (and starts), the tempo steps, t taps the tempo, s switches touhu/she at the end
// of the pass, q stops at the end of the pass, Esc stops at once.
export function bindKeys(actions, play) {
  const keys = play.keys;
  const taps = [];
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const field = TYPING.has(target.tagName) && !["checkbox", "range"].includes(target.type);
    // a number field takes no spaces, so space still plays there; + and − are its own
    const spaceTaken = field && target.type !== "number";
    if (event.key === keys.pause && !spaceTaken) {
      if (target.tagName === "BUTTON" && !["play", "play-ab"].includes(target.id)) return;
      event.preventDefault();
      if (target.type === "number") target.dispatchEvent(new Event("change"));
      actions.toggle();
      return;
    }
    if (event.key === keys.stop_now) {
      actions.stop();
      return;
    }
    if (field) return;
    if (event.key in keys.steps) {
      event.preventDefault();
      actions.tempoBy(keys.steps[event.key]);
    } else if (event.key === keys.tap && actions.tap) {
      const now = event.timeStamp / 1000;
      if (taps.length && now - taps[taps.length - 1] > play.tap_reset) taps.length = 0;
      taps.push(now);
      if (taps.length > play.taps + 1) taps.shift();
      if (taps.length >= 2) {
        const gap = (taps[taps.length - 1] - taps[0]) / (taps.length - 1);
        const scale = 10 ** play.tap_decimals;
        actions.tap(roundBy((60 / gap) * scale, play.rounding) / scale);
      }
    } else if (event.key === keys.switch && actions.switchSection) {
      actions.switchSection();
    } else if (event.key === keys.stop_after_pass && actions.stopAtPassEnd) {
      actions.stopAtPassEnd();
    }
  });
}

export function clampBpm(value, tempo) {
  const v = Number(value);
  if (!Number.isFinite(v)) return tempo.default;
  return Math.min(tempo.max, Math.max(tempo.min, v));
}

// A stroke's sign and the drum it strikes, as the status says them ("○ 鼙"): which sign strikes
// which drum is the reading's (the page data's), not this script's.
export function drumName(drum, sign) {
  if (drum !== "pi" && drum !== "gu") return say("count");
  return `${sign} ${drum === "pi" ? "鼙" : "鼓"}`;
}
