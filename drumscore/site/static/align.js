// Two readings compared in the page, as `drumscore compare` compares them (analysis/compare.py,
// apparatus/align.py, apparatus/linear.py): the same alignment, the same kinds of difference,
// the same stroke numbers, 半's place and the same per-section figures. The build no longer
// writes every pair into the page (a site of many editions would hold millions); the page
// aligns the pair asked for. The site's tests check this module against the command on pairs
// of the corpus and on random ones (tests/site/test_browser.py).
//
// Two readings printed by editions of the corpus take their rows of the corpus's apparatus of
// their figure and drum (each score's `collated` row in its data file, as
// apparatus.gather.collated_rows reads them, the notes' evidence included); any other two are
// aligned here as the apparatus aligns a witness with its base. The places of the apparatus (collate's numbering) are not made here:
// the page does not show them.

export const HALF = "半";
const GAP = "";
const SAME = "same";
// the kinds of difference of a column (apparatus.places.difference)
export function difference(first, second) {
  if (first === second) return SAME;
  if (!second) return "only-a";
  if (!first) return "only-b";
  return "substituted";
}

// apparatus.align._cost: 0 for the same stroke, 1 for ○ against □, 半 against a stroke never
// one column (3), 半 against 半 a half.
function cost(x, y) {
  if (x === y) return x === HALF ? 0.5 : 0;
  return x === HALF || y === HALF ? 3 : 1;
}

// apparatus.align.RULE_CELLS and linear.TABLE_CELLS
const RULE_CELLS = 40_000;
const TABLE_CELLS = 5_000;
// _ranked's radix; without the notes' evidence a rank is (cost × 2, substitutions, gaps opened)
const RADIX = 4096;
const PAIR = 0;
const LACK = 1;
const ADD = 2;

function rank(c, substituted, opened) {
  return (Math.trunc(c * 2) * RADIX + substituted) * RADIX + opened;
}

// apparatus.align._ranked (no evidence): least cost, then fewest substitutions, then fewest
// gaps opened, in three tables; a min packs (rank, state) as rank * 4 + state, as there.
function ranked(base, other) {
  const n = base.length;
  const m = other.length;
  const worst = rank(10 * (n + m + 1), 0, 0);
  const width = m + 1;
  const score = [0, 1, 2].map(() => new Float64Array((n + 1) * width).fill(worst));
  const came = [0, 1, 2].map(() => new Uint8Array((n + 1) * width));
  score[PAIR][0] = 0;
  const gap = rank(1, 0, 0);
  const opened = rank(1, 0, 1);
  const [pair, lack, add] = score;
  const [cameP, cameL, cameA] = came;
  const mod4 = (v) => v - Math.floor(v / 4) * 4;
  for (let i = 0; i <= n; i++) {
    const row = i * width;
    const up = i ? (i - 1) * width : row;
    for (let j = 0; j <= m; j++) {
      if (i && j) {
        const x = base[i - 1];
        const y = other[j - 1];
        const step = rank(cost(x, y), x !== y ? 1 : 0, 0);
        const best = Math.min(pair[up + j - 1] * 4, lack[up + j - 1] * 4 + 1, add[up + j - 1] * 4 + 2);
        pair[row + j] = Math.floor(best / 4) + step;
        cameP[row + j] = mod4(best);
      }
      if (i) {
        const best = Math.min((pair[up + j] + opened) * 4, (lack[up + j] + gap) * 4 + 1, (add[up + j] + opened) * 4 + 2);
        lack[row + j] = Math.floor(best / 4);
        cameL[row + j] = mod4(best);
      }
      if (j) {
        const best = Math.min(
          (pair[row + j - 1] + opened) * 4,
          (lack[row + j - 1] + opened) * 4 + 1,
          (add[row + j - 1] + gap) * 4 + 2,
        );
        add[row + j] = Math.floor(best / 4);
        cameA[row + j] = mod4(best);
      }
    }
  }
  const end = n * width + m;
  let state = PAIR;
  for (const k of [LACK, ADD]) if (score[k][end] < score[state][end]) state = k;
  const pairs = [];
  let i = n;
  let j = m;
  while (i || j) {
    const before = came[state][i * width + j];
    if (state === PAIR) {
      i -= 1;
      j -= 1;
      pairs.push([i, j]);
    } else if (state === LACK) {
      i -= 1;
      pairs.push([i, null]);
    } else {
      j -= 1;
      pairs.push([null, j]);
    }
    state = before;
  }
  return pairs.reverse();
}

// apparatus.linear.needleman_wunsch over a[i0:i1] and b[j0:j1], indices into a and b
function needlemanWunsch(a, b, i0, i1, j0, j1) {
  const n = i1 - i0;
  const m = j1 - j0;
  const width = m + 1;
  const table = new Float64Array((n + 1) * width);
  for (let i = 1; i <= n; i++) table[i * width] = i;
  for (let j = 1; j <= m; j++) table[j] = j;
  for (let i = 1; i <= n; i++) {
    for (let j = 1; j <= m; j++) {
      table[i * width + j] = Math.min(
        table[(i - 1) * width + j - 1] + cost(a[i0 + i - 1], b[j0 + j - 1]),
        table[(i - 1) * width + j] + 1,
        table[i * width + j - 1] + 1,
      );
    }
  }
  const pairs = [];
  let i = n;
  let j = m;
  while (i || j) {
    const here = table[i * width + j];
    if (i && j && here === table[(i - 1) * width + j - 1] + cost(a[i0 + i - 1], b[j0 + j - 1])) {
      i -= 1;
      j -= 1;
      pairs.push([i + i0, j + j0]);
    } else if (i && here === table[(i - 1) * width + j] + 1) {
      i -= 1;
      pairs.push([i + i0, null]);
    } else {
      j -= 1;
      pairs.push([null, j + j0]);
    }
  }
  return pairs.reverse();
}

// apparatus.linear._last_row: the last row of the cost table of `as` against `bs`, one row at
// a time (a row: the row above plus a substitution or a gap in b, then a running minimum).
function lastRow(as, bs) {
  const m = bs.length;
  let row = new Float64Array(m + 1);
  for (let j = 0; j <= m; j++) row[j] = j;
  const t = new Float64Array(m + 1);
  for (const x of as) {
    t[0] = row[0] + 1;
    for (let j = 1; j <= m; j++) t[j] = Math.min(row[j - 1] + cost(x, bs[j - 1]), row[j] + 1);
    let low = Infinity;
    for (let j = 0; j <= m; j++) {
      low = Math.min(low, t[j] - j);
      t[j] = low + j;
    }
    row = Float64Array.from(t);
  }
  return row;
}

// apparatus.linear._hirschberg
function hirschberg(a, b, i0, i1, j0, j1, pairs) {
  const n = i1 - i0;
  const m = j1 - j0;
  if ((n + 1) * (m + 1) <= TABLE_CELLS || n < 2 || m < 2) {
    for (const p of needlemanWunsch(a, b, i0, i1, j0, j1)) pairs.push(p);
    return;
  }
  const mid = i0 + Math.floor(n / 2);
  const top = lastRow(a.slice(i0, mid), b.slice(j0, j1));
  const bottom = lastRow(a.slice(mid, i1).reverse(), b.slice(j0, j1).reverse()).reverse();
  let split = 0;
  for (let k = 1; k < top.length; k++) if (top[k] + bottom[k] < top[split] + bottom[split]) split = k;
  hirschberg(a, b, i0, mid, j0, j0 + split, pairs);
  hirschberg(a, b, mid, i1, j0 + split, j1, pairs);
}

// apparatus.linear.align
function align(a, b) {
  if ((a.length + 1) * (b.length + 1) <= TABLE_CELLS) return needlemanWunsch(a, b, 0, a.length, 0, b.length);
  const pairs = [];
  hirschberg(a, b, 0, a.length, 0, b.length, pairs);
  return pairs;
}

// apparatus.align._pairwise: the base and one witness aligned, gaps moved to the first position
// of their run.
export function pairwise(base, other) {
  let pairs;
  if (base.length === other.length && base.every((x, i) => x === other[i])) {
    pairs = base.map((_, i) => [i, i]);
  } else if ((base.length + 1) * (other.length + 1) <= RULE_CELLS) {
    pairs = ranked(base, other);
  } else {
    pairs = align(base, other);
  }
  let moved = true;
  while (moved) {
    moved = false;
    for (let k = 1; k < pairs.length; k++) {
      const [i0, j0] = pairs[k - 1];
      const [i1, j1] = pairs[k];
      if (i0 === null || j0 === null || base[i0] !== other[j0]) continue;
      if (j1 === null && i1 !== null && base[i1] === base[i0]) {
        pairs[k - 1] = [i0, null];
        pairs[k] = [i1, j0];
        moved = true;
      } else if (i1 === null && j1 !== null && other[j1] === other[j0]) {
        pairs[k - 1] = [null, j0];
        pairs[k] = [i0, j1];
        moved = true;
      }
    }
  }
  return pairs;
}

// apparatus.align.lay_out of two witnesses: each column's [A's sign, B's sign] ("" for none).
function layOut(a, b) {
  const matched = a.map((x) => [x, GAP]);
  const added = new Map(); // slot (A's signs before) → B's signs added there
  let slot = 0;
  for (const [i, j] of pairwise(a, b)) {
    if (i !== null) {
      if (j !== null) matched[i][1] = b[j];
      slot = i + 1;
    } else if (j !== null) {
      if (!added.has(slot)) added.set(slot, []);
      added.get(slot).push([GAP, b[j]]);
    }
  }
  const columns = [];
  for (let i = 0; i <= a.length; i++) {
    if (added.has(i)) columns.push(...added.get(i));
    if (i < a.length) columns.push(matched[i]);
  }
  return columns;
}

// apparatus.align.differences
function differences(first, second) {
  let n = 0;
  for (const [i, j] of pairwise(first, second)) {
    if (i === null || j === null || first[i] !== second[j]) n += 1;
  }
  return n;
}

// The signs of a reading's row in a collation (its data file writes a gap as "-").
const signs = (row) => Array.from(row, (c) => (c === "-" ? GAP : c));

// analysis.compare.compare and comparison_data (without the places): `a` and `b` are scores as
// their data files have them (sitedata.score_data), `collated` their row of the corpus's
// apparatus of their figure and drum, if printed there; `say` the page's strings, for where 半
// stands.
export function comparePair(a, b, say) {
  let laid = null;
  if (a.collated && b.collated && a.collated.of === b.collated.of) {
    const ra = signs(a.collated.row);
    const rb = signs(b.collated.row);
    laid = ra.map((x, k) => [x, rb[k]]).filter(([x, y]) => x || y);
  }
  const ta = Array.from(a.notation);
  const tb = Array.from(b.notation);
  if (laid === null) laid = layOut(ta, tb);
  const alignment = [];
  const halves = [null, null];
  const next = [0, 0];
  for (const cells of laid) {
    if (cells.includes(HALF)) {
      for (const side of [0, 1]) if (cells[side] === HALF) halves[side] = alignment.length;
      continue;
    }
    const stroke = [null, null];
    for (const side of [0, 1]) {
      if (cells[side]) {
        next[side] += 1;
        stroke[side] = next[side];
      }
    }
    alignment.push({
      a: cells[0] || null,
      b: cells[1] || null,
      a_stroke: stroke[0],
      b_stroke: stroke[1],
      kind: difference(cells[0], cells[1]),
    });
  }
  const distance = alignment.filter((col) => col.kind !== SAME).length;
  const sections = {};
  for (const [name, range] of Object.entries(a.sections)) {
    const other = b.sections[name];
    if (!other) continue;
    const drums = (score, r) => score.strokes.slice(r.start, r.stop).map((s) => s.glyph);
    sections[name] = {
      a: { pi: range.pi, gu: range.gu },
      b: { pi: other.pi, gu: other.gu },
      distance: differences(drums(a, range), drums(b, other)),
    };
    sections[name].identical = sections[name].distance === 0;
  }
  const ha = a.half ?? null;
  const hb = b.half ?? null;
  const moved = halves[0] !== halves[1];
  return {
    identical: a.notation === b.notation,
    strokes_identical: distance === 0,
    distance,
    alignment,
    half_after_column: { a: halves[0], b: halves[1] },
    half: { a: ha, b: hb, moved, description: describeHalf(ha, hb, moved, say) },
    sections,
  };
}

// analysis.compare.Comparison.describe_half
function describeHalf(ha, hb, moved, say) {
  const place = (half) => (half === 0 ? say("half_first") : say("half_after", { n: half }));
  if (ha === null && hb === null) return say("half_none");
  if (hb === null) return say("half_only_a", { place: place(ha) });
  if (ha === null) return say("half_only_b", { place: place(hb) });
  if (moved) return say("half_moved", { a: place(ha), b: place(hb) });
  return say("half_same", { a: place(ha), b: place(hb) });
}
