// The page's player: the built-in kit's samples scheduled on the AudioContext clock.
//
// Every stroke of a play is placed at origin + k × interval on the audio clock, k counted from
// the origin, never accumulated; no timer schedules anything. requestAnimationFrame reads
// ctx.currentTime to light the stroke being heard, and tops the schedule up when looping (the
// `ended` event of each stroke does the same, so a hidden tab keeps looping).

export const RATE = 44100;
const LEAD = 0.12; // seconds from pressing play to the first sound
const HORIZON = 2.5; // when looping, keep at least this many seconds scheduled ahead
const PEAK_DBFS = -1;
// Origins are put on a grid of 1/1024 s, so origin + k × interval adds exactly in floating point
// whenever k × interval is itself exact (any tempo whose interval is a binary fraction).
const GRID = 1024;

function onGrid(t) {
  return Math.ceil(t * GRID) / GRID;
}

export function pageData() {
  return JSON.parse(document.getElementById("page-data").textContent);
}

// --- tempo, exactly --------------------------------------------------------------------------

// A tempo in strokes a minute as an exact fraction num/den (from its decimal text).
export function bpmFraction(value) {
  const text = String(value).trim();
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const frac = match[2] || "";
  const den = 10n ** BigInt(frac.length);
  const num = BigInt(match[1] + frac);
  return num > 0n ? { num, den } : null;
}

// Onset of stroke k in frames: round(k × 60/bpm × rate), ties rounded up, as drumscore does.
export function onsetFrame(k, bpm, rate) {
  const x = bpmFraction(bpm);
  const numer = BigInt(k) * 60n * BigInt(rate) * x.den; // k·60·rate / bpm
  const denom = x.num;
  return Number((2n * numer + denom) / (2n * denom));
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
        if (!r.ok) throw new Error(`cannot load ${url}: ${r.status}`);
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
  entries.push(["count", kit.count, [1, 1]]);
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
export class Player {
  constructor(kit, root, onStroke) {
    this.kitData = kit;
    this.root = root;
    this.onStroke = onStroke || (() => {});
    this.ctx = null;
    this.buffers = null;
    this.schedule = []; // every sound planned for this play: {k, index, pass, drum, sample, time…}
    this.log = []; // every change of highlight: {k, index, at, time}
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
  async start(items, { bpm, loop = false, countIn = 0 }) {
    await this.ready();
    this.stopSounds();
    this.loop = loop;
    this.countIn = countIn;
    this.bpm = Number(bpm);
    this.schedule = [];
    this.log = [];
    this.current = null;
    this.finished = false;
    this.pending = null;
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
    const src = this.ctx.createBufferSource();
    src.buffer = sample.buffer;
    src.connect(this.ctx.destination);
    src.start(entry.time);
    src.onended = () => {
      this.sources = this.sources.filter((s) => s.node !== src);
      if (this.state === "playing") this.topUp();
    };
    this.sources.push({ node: src, k: entry.k });
    const { k0, origin, interval } = this.segment;
    this.schedule.push({ ...entry, sample: sample.file, k0, origin, interval });
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
        if (!this.loop || (this.endK !== null && k >= this.endK)) {
          this.finished = true;
          break;
        }
        if (this.timeOf(k) > ahead) break;
        const switched = this.pending !== null;
        pass = { k, items: this.pending || pass.items, pass: pass.pass + 1, switched };
        this.pending = null;
        this.passes.push(pass);
      }
      const index = k - pass.k;
      const item = pass.items[index];
      if (item.drum) {
        const time = this.timeOf(k);
        this.addSound({ k, index, pass: pass.pass, drum: item.drum, mark: item.mark, time });
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
    this.schedule = this.schedule.filter((e) => e.k < k);
    while (this.passes.length > 1 && this.passes[this.passes.length - 1].k >= k) {
      const undone = this.passes.pop();
      if (undone.switched && this.pending === null) this.pending = undone.items;
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

  // Play other items from the end of the pass being heard (when looping; else from the next play).
  switchAtPassEnd(items) {
    if (this.state === "stopped" || !this.loop) return false;
    this.pending = items;
    this.cancelFrom(Math.max(this.passEnd(), this.nextUnplayed()));
    if (this.state === "playing") this.topUp();
    return true;
  }

  // Stop when the pass being heard ends.
  stopAtPassEnd() {
    if (this.state !== "playing") return;
    this.endK = this.passEnd();
    this.cancelFrom(Math.max(this.endK, this.nextUnplayed()));
    this.topUp();
  }

  pause() {
    if (this.state !== "playing") return;
    const k = this.nextUnplayed();
    this.cancelFrom(k);
    this.state = "paused";
    this.pausedAt = k;
  }

  async resume() {
    if (this.state !== "paused") return;
    await this.ready();
    const interval = intervalOf(this.bpm);
    this.segment = { k0: this.pausedAt, origin: onGrid(this.ctx.currentTime + LEAD), interval };
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
      let heard = null;
      for (const e of this.schedule) {
        if (e.time <= now && (heard === null || e.time >= heard.time)) heard = e;
      }
      if (heard && (!this.current || heard.k !== this.current.k)) {
        this.current = heard;
        this.log.push({ k: heard.k, index: heard.index, at: now, time: heard.time });
        this.onStroke(heard, this);
      }
      if (this.state === "playing") this.topUp();
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

// Render items (as for Player.start, repeated `repeats` times, after `countIn` clicks) at
// `bpm`, as drumscore render does: stroke k at round(k × interval × rate) frames, the last
// stroke ringing out in full, peak normalised to −1 dBFS. Returns {channels, rate, onsets}.
export async function renderOffline(kit, root, items, { bpm, repeats = 1, countIn = 0 }) {
  const lengths = {};
  const probe = new OfflineAudioContext(2, 1, RATE);
  const buffers = await loadKit(probe, kit, root);
  for (const [name, b] of Object.entries(buffers)) lengths[name] = b.buffer.length;
  const plan = [];
  for (let c = 0; c < countIn; c++) plan.push({ k: c, drum: "count" });
  for (let r = 0; r < repeats; r++) {
    items.forEach((item, i) => {
      if (item.drum) plan.push({ k: countIn + r * items.length + i, drum: item.drum });
    });
  }
  let length = 0;
  for (const p of plan) {
    p.frame = onsetFrame(p.k, bpm, RATE);
    length = Math.max(length, p.frame + lengths[p.drum]);
  }
  const ctx = new OfflineAudioContext(2, Math.max(length, 1), RATE);
  for (const p of plan) {
    const src = ctx.createBufferSource();
    src.buffer = buffers[p.drum].buffer;
    src.connect(ctx.destination);
    src.start(p.frame / RATE);
  }
  const rendered = await ctx.startRendering();
  const channels = [rendered.getChannelData(0), rendered.getChannelData(1)];
  let peak = 0;
  for (const ch of channels) for (let i = 0; i < ch.length; i++) peak = Math.max(peak, Math.abs(ch[i]));
  if (peak > 0) {
    const gain = 10 ** (PEAK_DBFS / 20) / peak;
    for (const ch of channels) for (let i = 0; i < ch.length; i++) ch[i] *= gain;
  }
  return { channels, rate: RATE, onsets: plan.map((p) => ({ frame: p.frame, drum: p.drum })) };
}

// 16-bit PCM WAV bytes of float channels (rounded and clipped as drumscore writes them).
export function encodeWav(channels, rate) {
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
      const v = Math.max(-32768, Math.min(32767, Math.round(channels[ch][i] * 32767)));
      view.setInt16(offset, v, true);
      offset += 2;
    }
  }
  return new Blob([bytes], { type: "audio/wav" });
}

// --- keys, as in drumscore play --------------------------------------------------------------

const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

// Keys, as `drumscore play` has them: space pauses and resumes, + − ±1 a minute, ] [ ±5,
// t tap tempo, s switch touhu/she at the end of the pass, q stop at the end of the pass, Esc stop.
export function bindKeys(actions) {
  const taps = [];
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    const field = TYPING.has(target.tagName) && !["checkbox", "range"].includes(target.type);
    // a number field takes no spaces, so space still plays there; + and − are its own
    const spaceTaken = field && target.type !== "number";
    if (event.key === " " && !spaceTaken) {
      if (target.tagName === "BUTTON" && !["play", "play-ab"].includes(target.id)) return;
      event.preventDefault();
      if (target.type === "number") target.dispatchEvent(new Event("change"));
      actions.toggle();
      return;
    }
    if (event.key === "Escape") {
      actions.stop();
      return;
    }
    if (field) return;
    const steps = { "+": 1, "=": 1, "-": -1, "−": -1, _: -1, "]": 5, "[": -5 };
    if (event.key in steps) {
      event.preventDefault();
      actions.tempoBy(steps[event.key]);
    } else if (event.key === "t" && actions.tap) {
      const now = event.timeStamp / 1000;
      if (taps.length && now - taps[taps.length - 1] > 2.5) taps.length = 0;
      taps.push(now);
      if (taps.length > 5) taps.shift();
      if (taps.length >= 2) {
        const gap = (taps[taps.length - 1] - taps[0]) / (taps.length - 1);
        actions.tap(60 / gap);
      }
    } else if (event.key === "s" && actions.switchSection) {
      actions.switchSection();
    } else if (event.key === "q" && actions.stopAtPassEnd) {
      actions.stopAtPassEnd();
    }
  });
}

export function clampBpm(value, tempo) {
  const v = Number(value);
  if (!Number.isFinite(v)) return tempo.default;
  return Math.min(tempo.max, Math.max(tempo.min, v));
}

export function drumName(drum) {
  return drum === "pi" ? "○ 鼙" : drum === "gu" ? "□ 鼓" : "count";
}
