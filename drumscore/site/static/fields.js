// What the page's fields take, read by the patterns and tables the site writes from drumscore's
// own constants (site/grammar.py): numbers, ranges of strokes, ramps, drums and score names, as
// the command line reads them. Numbers are exact fractions (BigInt), as drumscore's are.

// --- exact fractions -------------------------------------------------------------------------

function gcd(a, b) {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b) [a, b] = [b, a % b];
  return a;
}

// The fraction n/d in lowest terms, its denominator positive: {n, d} of BigInts.
export function frac(n, d = 1n) {
  n = BigInt(n);
  d = BigInt(d);
  if (d < 0n) [n, d] = [-n, -d];
  const g = gcd(n, d) || 1n;
  return { n: n / g, d: d / g };
}

export const add = (a, b) => frac(a.n * b.d + b.n * a.d, a.d * b.d);
export const sub = (a, b) => frac(a.n * b.d - b.n * a.d, a.d * b.d);
export const mul = (a, b) => frac(a.n * b.n, a.d * b.d);
export const div = (a, b) => frac(a.n * b.d, a.d * b.n);
export const cmp = (a, b) => {
  const x = a.n * b.d - b.n * a.d;
  return x < 0n ? -1 : x > 0n ? 1 : 0;
};
// The largest whole number not above a/b (Python's //), as a BigInt.
export function floorDiv(a, b) {
  const q = div(a, b);
  const r = q.n / q.d;
  return q.n < 0n && r * q.d !== q.n ? r - 1n : r;
}
// The nearest whole number, ties rounded up, as drumscore rounds frames (track._round).
export function roundHalfUp(x) {
  return floorDiv(frac(2n * x.n + x.d, 2n * x.d), frac(1n));
}
export const toNumber = (x) => Number(x.n) / Number(x.d);
export const fracText = (x) => (x.d === 1n ? `${x.n}` : `${x.n}/${x.d}`);

// --- reading a field -------------------------------------------------------------------------

// A field refused: `key` names the refusal as drumscore's error does (DrumscoreError.key), the
// message is the page's words for it.
export class FieldError extends Error {
  constructor(key, message) {
    super(message);
    this.key = key;
  }
}

// The patterns of `table` (the page data's `fields` or `names`) compiled once.
const compiled = new WeakMap();
function patterns(table) {
  if (!compiled.has(table)) {
    const made = { ends: new RegExp(`^${table.space}+|${table.space}+$`, "gu") };
    made.spaces = new RegExp(table.space, "gu");
    for (const name of ["number", "whole", "pattern", "notation"]) {
      if (table[name]) made[name] = new RegExp(name === "pattern" ? table[name] : `^(?:${table[name]})$`, "u");
    }
    if (table.notation) made.notationChar = new RegExp(table.notation, "u");
    compiled.set(table, made);
  }
  return compiled.get(table);
}

// Text without the spaces at either end, as Python's str.strip() takes them.
export function strip(text, table) {
  return String(text).replace(patterns(table).ends, "");
}

// The length of text in characters (code points), as Python counts it.
export const length = (text) => [...text].length;

// Text casefolded, as far as it can match a word of the table (its `fold`).
export function fold(text, table) {
  return [...text].map((c) => table.fold[c] ?? c).join("");
}

const quoted = (text) => JSON.stringify(String(text));

// An exact fraction from the text of a number ('96', '37.3', '1e-3', '3/2'), or a FieldError,
// as drumscore's timing.number_text reads it.
export function numberText(text, table, say, what) {
  const t = strip(text, table);
  if (length(t) > table.max_number) {
    throw new FieldError("number_long", say("number_long", { what, text: quoted(t), limit: table.max_number }));
  }
  const match = patterns(table).number.exec(t);
  const refused = () => new FieldError("number_format", say("number_format", { what, text: quoted(t) }));
  if (!match) throw refused();
  const { mantissa, exponent } = match.groups;
  if (mantissa === undefined) {
    const [n, d] = t.split("/").map((p) => BigInt(p));
    if (d === 0n) throw refused();
    return frac(n, d);
  }
  const m = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(mantissa);
  const decimals = m[3] || "";
  let value = frac(BigInt(`${m[1]}${m[2] || "0"}${decimals}` || "0"), 10n ** BigInt(decimals.length));
  if (exponent !== undefined) {
    let e = BigInt(exponent);
    const most = BigInt(table.max_exponent);
    if (e > most || e < -most) {
      if (value.n === 0n) return value;
      e = e > 0n ? most + 1n : -(most + 1n);
    }
    value = e >= 0n ? mul(value, frac(10n ** e)) : div(value, frac(10n ** -e));
  }
  return value;
}

function whole(text, table) {
  return patterns(table).whole.test(text);
}

// [first, end) of strokes "A-B" (or "A"), numbered from 1, of a section of `count` strokes, or
// a FieldError, as drumscore's conductor.timeline.parse_span reads it.
export function parseSpan(text, count, table, say) {
  const raw = strip(text, table);
  let parts = length(raw) <= table.max_span ? raw.split("-") : [];
  if (parts.length === 1) parts = [parts[0], parts[0]];
  if (parts.length !== 2 || !parts.every((p) => whole(strip(p, table), table))) {
    throw new FieldError("strokes_format", say("strokes_format", { text: quoted(raw) }));
  }
  const [first, last] = parts.map((p) => BigInt(strip(p, table)));
  if (last >= 1n && last < first && first <= BigInt(count)) {
    const values = { text: quoted(raw), span: `${last}-${first}` };
    throw new FieldError("strokes_reversed", say("strokes_reversed", values));
  }
  if (!(first >= 1n && first <= last && last <= BigInt(count))) {
    throw new FieldError("strokes_range", say("strokes_range", { text: quoted(raw), count }));
  }
  return [Number(first) - 1, Number(last)];
}

// {start, stop, step, every} of START:STOP:STEP[:EVERY] (fractions, every a Number), or a
// FieldError, as drumscore's conductor.track.Ramp.parse reads it.
export function parseRamp(text, table, say) {
  const raw = strip(text, table);
  const parts = length(raw) <= table.max_ramp ? raw.split(":") : [];
  // drumscore's one list grammar (drumscore.timing.split_list): three or four items, none of them empty
  if (![3, 4].includes(parts.length) || parts.some((p) => strip(p, table) === "")) {
    throw new FieldError("ramp_format", say("ramp_format", { text: quoted(raw) }));
  }
  const [start, stop, step] = parts.slice(0, 3).map((p) => numberText(p, table, say, "ramp"));
  const low = frac(BigInt(table.min_bpm));
  const high = frac(BigInt(table.max_bpm));
  for (const bpm of [start, stop]) {
    if (cmp(bpm, low) < 0 || cmp(bpm, high) > 0) {
      const values = { min: table.min_bpm, max: table.max_bpm, bpm: toNumber(bpm) };
      throw new FieldError("ramp_range", say("ramp_range", values));
    }
  }
  const every = parts.length === 4 ? strip(parts[3], table) : "1";
  if (!whole(every, table) || BigInt(every) < 1n) {
    throw new FieldError("ramp_every", say("ramp_every", { every: quoted(every) }));
  }
  const away = cmp(mul(sub(stop, start), step), frac(0n)) < 0;
  if (step.n === 0n || away) {
    const values = { start: toNumber(start), stop: toNumber(stop) };
    throw new FieldError("ramp_step", say("ramp_step", values));
  }
  return { start, stop, step, every: Number(BigInt(every)) };
}

// The tempo of pass p (from 1) on a ramp, exactly, by drumscore's rule (track.Ramp.tempo).
export function rampTempo(ramp, p) {
  const bpm = add(ramp.start, mul(ramp.step, frac(BigInt(Math.floor((p - 1) / ramp.every)))));
  const up = ramp.step.n > 0n;
  return up ? (cmp(bpm, ramp.stop) < 0 ? bpm : ramp.stop) : cmp(bpm, ramp.stop) > 0 ? bpm : ramp.stop;
}

// The passes of a ramp: from its start to the first pass at its stop, that one included
// (track.Ramp.passes).
export function rampPasses(ramp) {
  const abs = (x) => (x.n < 0n ? frac(-x.n, x.d) : x);
  const distance = abs(sub(ramp.stop, ramp.start));
  const steps = -floorDiv(frac(-distance.n, distance.d), abs(ramp.step)); // ceil, exactly
  return Number(steps) * ramp.every + 1;
}

// The drum key ("pi"/"gu") `text` names (鼙, pi, ○…; case and spaces ignored), "" for the
// empty text (both drums), or a FieldError, as drumscore's Drum.parse reads it.
export function parseOnly(text, table, say) {
  if (text === "") return "";
  const key = fold(strip(text, table), table);
  for (const [drum, names] of Object.entries(table.drums)) if (names.includes(key)) return drum;
  throw new FieldError("no_drum", say("no_drum", { text: quoted(text) }));
}

// What a score's name means, as drumscore's corpus.resolve reads it, among the site's scores
// (`names`, the page data's table): {key} of a score, {notation} of text read as notation
// (its glyphs made canonical, spaces left out), or a FieldError.
export function resolveName(text, names, say) {
  const name = strip(text, names);
  const made = patterns(names);
  if (!name) throw new FieldError("empty_name", say("empty_name"));
  const match = made.pattern.exec(name);
  const state = match ? names.states[fold(strip(match.groups.state, names), names)] : undefined;
  if (state !== undefined) {
    const figure = strip(match.groups.figure || "1", names);
    if (!names.figures.includes(figure)) {
      throw new FieldError("unknown_figure", say("unknown_figure", { figure: quoted(figure) }));
    }
    const given = match.groups.edition;
    const edition = given === undefined ? names.default_edition : names.editions[fold(strip(given, names), names)];
    if (edition === undefined) {
      throw new FieldError("unknown_edition", say("unknown_edition", { name: quoted(given) }));
    }
    const key = names.scores[`${state}|${figure}|${edition}`];
    if (key === undefined) throw new FieldError("no_figure", say("no_figure", { name: quoted(name) }));
    return { key };
  }
  if ([...name].some((c) => made.notationChar.test(c))) {
    const chars = [...name.replace(made.spaces, "")];
    const notation = chars.every((c) => c in names.glyphs) ? chars.map((c) => names.glyphs[c]).join("") : null;
    return { notation, text: name };
  }
  throw new FieldError("unknown_name", say("unknown_name", { name: quoted(name) }));
}
