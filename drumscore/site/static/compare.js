// The compare view: two readings aligned as drumscore compare aligns them, A/B playback.
import { Player, bindKeys, clampBpm, drumName, pageData } from "./engine.js";

const data = pageData();
const $ = (id) => document.getElementById(id);
const byKey = new Map(data.scores.map((s) => [s.key, s]));
const MARKS = { same: "", substituted: "*", "only-a": "−", "only-b": "+" };
const KINDS = {
  substituted: "a different stroke",
  "only-a": "a stroke only in A",
  "only-b": "a stroke only in B",
};
const PAUSE = 2; // beats of silence between A and B

const params = new URLSearchParams(location.search);
const selA = $("a");
const selB = $("b");
// A: the one asked for, else the standard text's second 魯; B: asked for, else a reading of the
// same figure and drum that differs from A, else the next score.
const first = byKey.has("lu/2@zhushu") ? "lu/2@zhushu" : data.scores[0].key;
selA.value = byKey.has(params.get("a")) ? params.get("a") : first;
const chosen = byKey.get(selA.value);
const differing = data.scores.find(
  (s) => s.state === chosen.state && s.figure === chosen.figure && s.notation !== chosen.notation,
);
const next = data.scores.find((s) => s.key !== chosen.key) || chosen;
selB.value = byKey.has(params.get("b")) ? params.get("b") : (differing || next).key;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function comparison() {
  const a = byKey.get(selA.value);
  const b = byKey.get(selB.value);
  return { a, b, c: data.comparisons[`${a.notation}|${b.notation}`] };
}

function draw() {
  const { a, b, c } = comparison();
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
          title: `${side.toUpperCase()} stroke ${i + 1}: ${drumName(s.drum)}`,
        },
        s.glyph,
      );
    };
    const mark = MARKS[col.kind];
    const attrs = { class: `mark ${col.kind}`, "data-col": index, "data-kind": col.kind };
    if (mark) attrs.title = `column ${index + 1}: ${KINDS[col.kind]}`;
    slots.push([stroke("a"), el("td", attrs, mark), stroke("b")]);
  });
  // as many slots a line as the width holds, so a phone shows every stroke without scrolling
  const em = parseFloat(getComputedStyle(box).fontSize) || 16;
  const perLine = Math.max(8, Math.floor((box.clientWidth - 2.2 * em) / (1.75 * em)));
  for (let start = 0; start < slots.length; start += perLine) {
    const table = el("table", { class: "alignment", lang: "zh" });
    const rows = {
      a: el("tr", { class: "side-a" }),
      marks: el("tr", { class: "marks" }),
      b: el("tr", { class: "side-b" }),
    };
    rows.a.append(el("th", { scope: "row" }, "A"));
    rows.marks.append(el("th", { scope: "row", "aria-label": "difference" }));
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
    const node = el("a", { href: `score/${s.slug}.html`, lang: "zh" }, s.title);
    return node;
  };
  const pa = el("p");
  pa.append("A: ", link(a), ` [${a.key}]`);
  const pb = el("p");
  pb.append("B: ", link(b), ` [${b.key}]`);
  const verdict = c.identical
    ? "identical"
    : `${c.distance} ${c.distance === 1 ? "difference" : "differences"} in the strokes; ${c.half.description}`;
  summary.append(pa, pb, el("p", { class: "verdict" }, verdict));

  const sections = $("sections");
  sections.replaceChildren();
  const t = el("table", { class: "counts" });
  t.append(el("caption", {}, "Per section"));
  const head = el("tr");
  for (const h of ["section", "A ○ 鼙", "A □ 鼓", "B ○ 鼙", "B □ 鼓", "distance"]) {
    head.append(el("th", { scope: "col" }, h));
  }
  t.append(head);
  for (const [name, s] of Object.entries(c.sections)) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, name));
    for (const v of [s.a.pi, s.a.gu, s.b.pi, s.b.gu, s.distance]) tr.append(el("td", {}, String(v)));
    t.append(tr);
  }
  sections.append(t);
  history.replaceState(null, "", `?a=${encodeURIComponent(a.key)}&b=${encodeURIComponent(b.key)}`);
}

function itemsFor(side, section) {
  const score = comparison()[side];
  const range = score.sections[section];
  if (!range) return null;
  return score.strokes.slice(range.start, range.stop).map((s) => ({ drum: s.drum, mark: { side, i: s.i } }));
}

function highlight(entry, player, finished) {
  for (const c of document.querySelectorAll("#alignment .now")) c.classList.remove("now");
  if (!entry) {
    if (finished) $("status").textContent = "Played.";
    return;
  }
  const mark = entry.mark;
  const cell = document.querySelector(`#alignment .side-${mark.side} td[data-i="${mark.i}"]`);
  if (cell) {
    cell.classList.add("now");
    document.querySelector(`#alignment .marks td[data-col="${cell.dataset.col}"]`)?.classList.add("now");
  }
  const s = comparison()[mark.side].strokes[mark.i];
  $("status").textContent = `${mark.side.toUpperCase()} stroke ${mark.i + 1}: ${drumName(s.drum)} · ${player.bpm} a minute`;
}

const player = new Player(data.kit, data.root, highlight);
let lastPlay = "ab";

async function play(which) {
  const section = $("section").value;
  const a = itemsFor("a", section);
  const b = itemsFor("b", section);
  if ((which !== "b" && !a) || (which !== "a" && !b)) {
    $("status").textContent = `A or B has no 半, so it has only the whole pattern (射); choose that section.`;
    return;
  }
  lastPlay = which;
  const rests = Array.from({ length: PAUSE }, () => ({ drum: null, mark: null }));
  const items = which === "a" ? a : which === "b" ? b : [...a, ...rests, ...b];
  await player.start(items, { bpm: clampBpm($("bpm").value, data.tempo), loop: $("loop").checked });
}

async function toggle() {
  if (player.playing) {
    player.pause();
    $("status").textContent = "Paused.";
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
}

selA.addEventListener("change", () => { player.stop(); draw(); });
selB.addEventListener("change", () => { player.stop(); draw(); });
$("play-a").addEventListener("click", () => play("a"));
$("play-b").addEventListener("click", () => play("b"));
$("play-ab").addEventListener("click", () => play("ab"));
$("stop").addEventListener("click", () => player.stop());
$("bpm").addEventListener("change", () => setBpm($("bpm").value));
$("loop").addEventListener("change", () => { player.loop = $("loop").checked; });
bindKeys({
  toggle,
  stop: () => player.stop(),
  tempoBy: (step) => setBpm(clampBpm($("bpm").value, data.tempo) + step),
  tap: (value) => setBpm(Math.round(value)),
  stopAtPassEnd: () => player.stopAtPassEnd(),
});

draw();
let width = $("alignment").clientWidth;
window.addEventListener("resize", () => {
  if ($("alignment").clientWidth !== width) {
    width = $("alignment").clientWidth;
    draw();
  }
});
for (const id of ["play-a", "play-b", "play-ab", "stop"]) $(id).disabled = false;
window.drumscore = { player, comparison, draw, ready: true };
document.documentElement.dataset.ready = "true";
