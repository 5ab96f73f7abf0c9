// The compare view: two readings aligned as drumscore compare aligns them (align.js aligns the
// pair asked for, from the two scores' data files, loaded when they are chosen), A/B playback.
import { comparePair } from "./align.js";
import { Player, bindKeys, clampBpm, drumName, pageData, say } from "./engine.js";
import { FieldError, resolveName } from "./fields.js";

const data = pageData();
const $ = (id) => document.getElementById(id);
// the site's scores as the page lists them (name, page, notation); each one's strokes, sections
// and row of the corpus's apparatus are in its data file
const byKey = new Map(data.scores.map((s) => [s.key, s]));
const MARKS = data.marks; // drumscore compare's marks, from the page data
const KINDS = {
  substituted: say("kind_substituted"),
  "only-a": say("kind_only_a"),
  "only-b": say("kind_only_b"),
};

// a section's row is named in the reader's language (the strings table), its id kept in the data
const SECTION_NAMES = { head: "section_head", touhu: "section_touhu", she: "section_she" };

// A name, as the command line takes it (fields.resolveName, by the page data's table of names):
// a score's name in any spelling drumscore reads (lu, lu/2, xue / 2 @ benyi, 薛/2@本義…), or
// notation (○□○半□, 〇 and 口 too) that a reading of the site has. Returns {score} or {problem}.
function resolve(text) {
  let found;
  try {
    found = resolveName(text || "", data.names, say);
  } catch (error) {
    if (error instanceof FieldError) return { problem: error.message, key: error.key };
    throw error;
  }
  if (found.key) return { score: byKey.get(found.key) };
  const score = found.notation && data.scores.find((s) => s.notation === found.notation);
  if (score) return { score, notation: true };
  const notation = found.notation || found.text;
  return { problem: say("no_edition_reads", { notation }), key: "no_edition_reads" };
}

const params = new URLSearchParams(location.search);
const inputA = $("a-name");
const inputB = $("b-name");
// A: the one asked for, else the standard text's second 魯; B: asked for, else the reading that
// differs most from A (as a score page's "Compare" link chooses it), else the next score.
const first = byKey.has("lu/2@zhushu") ? "lu/2@zhushu" : data.scores[0].key;
inputA.value = params.get("a") || first;
function partnerOf(score) {
  const other = data.partners[score.key];
  return other || (data.scores.find((s) => s.key !== score.key) || score).key;
}
const startA = resolve(inputA.value);
inputB.value = params.get("b") || (startA.score ? partnerOf(startA.score) : first);
let current = null; // {a, b, c} of the pair shown

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function comparison() {
  return current;
}

// --- each score's data, loaded when it is chosen -------------------------------------------
// A score's data file (data/SLUG.js, sitedata.score_data) is a plain script that hands the data
// to drumscoreScore: a script element loads it from a server and from the site's folder opened
// as files (file://, where a browser refuses fetch()). Each file is loaded once.
const arrived = new Map(); // key -> the data a file handed over, until its load ends
window.drumscoreScore = (score) => {
  if (score && typeof score === "object" && typeof score.key === "string") arrived.set(score.key, score);
};
const loading = new Map(); // key -> the promise of its data

// Whether `score` is the data of `listed` as the build writes it (a file replaced, cut short or
// of another score is refused, not drawn).
function holds(score, listed) {
  if (!score || score.key !== listed.key || typeof score.notation !== "string") return false;
  if (!Array.isArray(score.strokes) || !score.sections || typeof score.sections !== "object") return false;
  const strokes = Array.from(score.notation).filter((c) => c !== "半").length;
  if (score.strokes.length !== strokes) return false;
  if (!score.strokes.every((s) => s && typeof s.drum === "string" && typeof s.glyph === "string")) return false;
  const whole = (n) => Number.isInteger(n) && n >= 0 && n <= strokes;
  if (!Object.values(score.sections).every((r) => r && whole(r.start) && whole(r.stop) && r.start <= r.stop)) {
    return false;
  }
  const row = score.collated;
  return row === null || row === undefined || (typeof row.of === "string" && typeof row.row === "string");
}

function load(listed) {
  if (!loading.has(listed.key)) {
    const url = `${data.root}data/${encodeURIComponent(listed.slug)}.js`;
    const promise = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = url;
      script.onload = () => {
        script.remove();
        const score = arrived.get(listed.key);
        arrived.delete(listed.key);
        if (holds(score, listed)) resolve(score);
        else reject(new Error(say("score_data_garbled", { url, name: listed.title })));
      };
      script.onerror = () => {
        script.remove();
        reject(new Error(say("score_data_missing", { url, name: listed.title })));
      };
      document.head.append(script);
    });
    promise.catch(() => loading.delete(listed.key)); // tried again when chosen again
    loading.set(listed.key, promise);
  }
  return loading.get(listed.key);
}

// The comparison of two scores' data, as drumscore compare --json has it (its places aside);
// each pair aligned once.
const made = new Map();
function compared(a, b) {
  const key = `${a.key}\u0000${b.key}`;
  if (!made.has(key)) made.set(key, comparePair(a, b, say));
  return made.get(key);
}
// By the names of the site's scores, their data loaded (for the site's tests).
async function compareKeys(a, b) {
  const [da, db] = await Promise.all([load(byKey.get(a)), load(byKey.get(b))]);
  return compared(da, db);
}

// Resolve both names and load their data; on a problem say so (and show nothing as if it were
// the pair asked for). The page is ready again when the last pair asked for is shown.
let turn = 0;
async function choose() {
  const mine = ++turn;
  document.documentElement.dataset.ready = "false";
  const ra = resolve(inputA.value);
  const rb = resolve(inputB.value);
  const problems = [];
  if (ra.problem) problems.push(say("labelled", { label: "A", text: ra.problem }));
  if (rb.problem) problems.push(say("labelled", { label: "B", text: rb.problem }));
  let loaded = [];
  if (!problems.length) {
    loaded = await Promise.allSettled([load(ra.score), load(rb.score)]);
    if (mine !== turn) return; // another pair was asked for meanwhile
    loaded.forEach((got, k) => {
      if (got.status === "rejected") {
        problems.push(say("labelled", { label: "AB"[k], text: got.reason.message }));
      }
    });
  }
  const box = $("problem");
  box.textContent = problems.join("\n");
  box.hidden = problems.length === 0;
  if (problems.length) {
    current = null;
    player.stop();
    for (const id of ["alignment", "summary", "sections"]) $(id).replaceChildren();
    for (const id of ["play-a", "play-b", "play-ab"]) $(id).disabled = true;
  } else {
    const [a, b] = loaded.map((got) => got.value);
    current = { a, b, c: compared(a, b) };
    for (const id of ["play-a", "play-b", "play-ab"]) $(id).disabled = false;
    draw();
    const query = `?a=${encodeURIComponent(inputA.value.trim())}&b=${encodeURIComponent(inputB.value.trim())}`;
    history.replaceState(null, "", query.replace(/%2F/g, "/").replace(/%40/g, "@"));
  }
  document.documentElement.dataset.ready = "true";
}

function draw() {
  if (!current) return;
  const { a, b, c } = current;
  const box = $("alignment");
  box.replaceChildren();
  const halves = { a: c.half_after_column.a, b: c.half_after_column.b };
  const shared = new Set([halves.a, halves.b].filter((h) => h !== null));
  // slots: one [A cell, mark cell, B cell] per aligned column, and one where 半 stands
  const slots = [];
  const cols = [...c.alignment, null];
  cols.forEach((col, index) => {
    if (shared.has(index)) {
      const cell = (side) => {
        const here = halves[side] === index;
        return el("td", { class: here ? "half-mark" : "half-gap" }, here ? "半" : "");
      };
      const moved = halves.a !== halves.b;
      slots.push([
        cell("a"),
        el("td", { class: moved ? "mark half-moved" : "half-gap" }, moved ? "半" : ""),
        cell("b"),
      ]);
    }
    if (col === null) return;
    const stroke = (side) => {
      // compare --json's data: strokes numbered from 1
      const i = col[`${side}_stroke`] === null ? null : col[`${side}_stroke`] - 1;
      const score = side === "a" ? a : b;
      if (i === null) return el("td", { class: `gap ${col.kind}`, "data-col": index }, "·");
      const s = score.strokes[i];
      return el(
        "td",
        {
          class: `cell ${s.drum} ${col.kind}`,
          "data-col": index,
          "data-i": i,
          title: say("side_stroke", { side: side.toUpperCase(), n: i + 1, drum: drumName(s.drum, s.glyph) }),
        },
        s.glyph,
      );
    };
    const mark = MARKS[col.kind].trim(); // a column alike has a blank mark
    const attrs = { class: `mark ${col.kind}`, "data-col": index, "data-kind": col.kind };
    if (mark) attrs.title = say("column", { n: index + 1, kind: KINDS[col.kind] });
    slots.push([stroke("a"), el("td", attrs, mark), stroke("b")]);
  });
  // as many slots a line as the width holds, so a phone shows every stroke without scrolling
  const em = parseFloat(getComputedStyle(box).fontSize) || 16;
  const perLine = Math.max(8, Math.floor((box.clientWidth - 2.2 * em) / (1.75 * em)));
  for (let start = 0; start < slots.length; start += perLine) {
    const table = el("table", { class: "alignment", lang: data.source_lang });
    const rows = {
      a: el("tr", { class: "side-a" }),
      marks: el("tr", { class: "marks" }),
      b: el("tr", { class: "side-b" }),
    };
    rows.a.append(el("th", { scope: "row" }, "A"));
    rows.marks.append(el("th", { scope: "row", "aria-label": say("difference") }));
    rows.b.append(el("th", { scope: "row" }, "B"));
    for (const [ca, cm, cb] of slots.slice(start, start + perLine)) {
      rows.a.append(ca);
      rows.marks.append(cm);
      rows.b.append(cb);
    }
    table.append(rows.a, rows.marks, rows.b);
    box.append(table);
  }

  const summary = $("summary");
  summary.replaceChildren();
  const link = (s) => {
    const node = el("a", { href: `score/${s.slug}.html`, lang: data.source_lang }, s.cited || s.title);
    return node;
  };
  const pa = el("p");
  pa.append(say("labelled", { label: "A", text: "" }), link(a), say("aside", { text: "", note: a.key }));
  const pb = el("p");
  pb.append(say("labelled", { label: "B", text: "" }), link(b), say("aside", { text: "", note: b.key }));
  const verdict = c.identical
    ? say("identical")
    : say("differences", { n: c.distance, half: c.half.description });
  summary.append(pa, pb, el("p", { class: "verdict" }, verdict));

  const sections = $("sections");
  sections.replaceChildren();
  const t = el("table", { class: "counts" });
  t.append(el("caption", {}, say("per_section")));
  const head = el("tr");
  for (const h of [say("section"), "A ○ 鼙", "A □ 鼓", "B ○ 鼙", "B □ 鼓", say("distance")]) {
    head.append(el("th", { scope: "col" }, h));
  }
  t.append(head);
  for (const [name, s] of Object.entries(c.sections)) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, say(SECTION_NAMES[name] ?? name)));
    for (const v of [s.a.pi, s.a.gu, s.b.pi, s.b.gu, s.distance]) tr.append(el("td", {}, String(v)));
    t.append(tr);
  }
  sections.append(t);
}

function itemsFor(side, section) {
  if (!current) return null;
  const score = current[side];
  const range = score.sections[section];
  if (!range) return null;
  return score.strokes.slice(range.start, range.stop).map((s) => ({ drum: s.drum, mark: { side, i: s.i } }));
}

function highlight(entry, player, finished) {
  for (const c of document.querySelectorAll("#alignment .now")) c.classList.remove("now");
  if (!entry) {
    if (finished) $("status").textContent = say("played_both");
    return;
  }
  const mark = entry.mark;
  const cell = document.querySelector(`#alignment .side-${mark.side} td[data-i="${mark.i}"]`);
  if (cell) {
    cell.classList.add("now");
    document.querySelector(`#alignment .marks td[data-col="${cell.dataset.col}"]`)?.classList.add("now");
  }
  if (!current) return;
  const s = current[mark.side].strokes[mark.i];
  const side = mark.side.toUpperCase();
  const drum = drumName(s.drum, s.glyph);
  $("status").textContent = say("side_stroke_status", { side, n: mark.i + 1, drum, bpm: player.bpm });
}

const player = new Player(data.kit, data.root, highlight);
let lastPlay = "ab";

async function play(which) {
  const section = $("section").value;
  const a = itemsFor("a", section);
  const b = itemsFor("b", section);
  if (!current) return;
  if ((which !== "b" && !a) || (which !== "a" && !b)) {
    $("status").textContent = say("no_half");
    return;
  }
  lastPlay = which;
  // the beats of silence between A and B, as drumscore compare --audio has them
  const rests = Array.from({ length: data.play.ab_pause }, () => ({ drum: null, mark: null }));
  const items = which === "a" ? a : which === "b" ? b : [...a, ...rests, ...b];
  await player.start(items, { bpm: clampBpm($("bpm").value, data.tempo), loop: $("loop").checked });
  // a key pressed while the sound was being readied still counts
  const now = clampBpm($("bpm").value, data.tempo);
  if (player.bpm !== now) player.setTempo(now);
  player.setLoop($("loop").checked);
}

async function toggle() {
  if (player.playing) {
    player.pause();
    $("status").textContent = say("paused_compare", { bpm: player.bpm });
  } else if (player.state === "paused") {
    await player.resume();
  } else {
    await play(lastPlay);
  }
}

function setBpm(value) {
  const v = clampBpm(value, data.tempo);
  $("bpm").value = String(v);
  player.setTempo(v);
  if (!player.playing || !player.current) $("status").textContent = say("tempo", { bpm: v });
  else highlight(player.current, player);
}

$("choose").addEventListener("submit", (event) => {
  event.preventDefault();
  player.stop();
  choose();
});
for (const input of [inputA, inputB]) input.addEventListener("change", () => { player.stop(); choose(); });
$("play-a").addEventListener("click", () => play("a"));
$("play-b").addEventListener("click", () => play("b"));
$("play-ab").addEventListener("click", () => play("ab"));
$("stop").addEventListener("click", () => player.stop());
$("bpm").addEventListener("change", () => setBpm($("bpm").value));
$("loop").addEventListener("change", () => player.setLoop($("loop").checked));
bindKeys(
  {
    toggle,
    stop: () => player.stop(),
    tempoBy: (step) => setBpm(clampBpm($("bpm").value, data.tempo) + step),
    tap: (value) => setBpm(value),
    stopAtPassEnd: () => {
      if (player.stopAtPassEnd()) $("status").textContent = `[${say("stop_waiting")}]`;
    },
  },
  data.play,
);

await choose();
let width = $("alignment").clientWidth;
window.addEventListener("resize", () => {
  if ($("alignment").clientWidth !== width) {
    width = $("alignment").clientWidth;
    draw();
  }
});
$("stop").disabled = false;
window.drumscore = { player, comparison, compareKeys, choose, resolve, draw, ready: true };
