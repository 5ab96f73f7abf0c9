// A score's page: play it, watch the stroke being heard, make a WAV of it. The keys do what
// drumscore play's keys do, in every state, and the status line changes with them at once.
import {
  Player,
  bindKeys,
  clampBpm,
  drumName,
  encodeWav,
  intervalOf,
  pageData,
  renderOffline,
  roundBy,
  say,
} from "./engine.js";
import { fracText, parseOnly, parseRamp, parseSpan } from "./fields.js";
import { copySettings, keepSettings, restoreSettings, settingsUrl } from "./settings.js";

const data = pageData();
const score = data.score;
const play = data.play;
const fields = data.fields;
const $ = (id) => document.getElementById(id);
const controls = {
  play: $("play"),
  stop: $("stop"),
  section: $("section"),
  bpm: $("bpm"),
  range: $("bpm-range"),
  countIn: $("count-in"),
  loop: $("loop"),
  status: $("status"),
  makeWav: $("make-wav"),
  click: $("click"),
  only: $("only"),
  strokes: $("strokes"),
  clickLevel: $("click-level"),
  repeat: $("repeat"),
  ramp: $("ramp"),
  countEach: $("count-each"),
  silentEvery: $("silent-every"),
  wavLink: $("wav-link"),
  reading: $("reading"),
  readingCite: $("reading-cite"),
};
const cells = [...document.querySelectorAll(".notation .stroke")];
for (const c of cells) c.dataset.title = c.title; // as built: 鄭玄's drums
const legend = $("legend");
const legendAsBuilt = legend.innerHTML;
// The MIDI and MusicXML links, each by its kind and section (as the page data's downloads name
// them): the site writes every reading's files, and a link leads to the chosen reading's.
const fileLinks = new Map();
for (const a of document.querySelectorAll("a[data-kind]")) {
  const built = Object.entries(score.downloads[data.readings[0].id]);
  const found = built.find(([, path]) => data.root + path === a.getAttribute("href"));
  if (found) fileLinks.set(a, found[0]);
}

// The reading of the signs chosen (the page data's readings, drumscore's READINGS: 鄭玄's first).
function reading() {
  return data.readings.find((r) => r.id === controls.reading.value) ?? data.readings[0];
}

// The drum a stroke strikes in the reading chosen: by its sign, as the reading has it.
function drumOf(stroke, chosen = reading()) {
  return chosen.drums[stroke.glyph];
}

function sectionItems(name) {
  const range = score.sections[name];
  const chosen = reading();
  return score.strokes
    .slice(range.start, range.stop)
    .map((s) => ({ drum: drumOf(s, chosen), mark: s.i }));
}

// The practice options the controls ask for (as Player.start takes them); an Error saying what
// is wrong with one, in drumscore's words, when one is.
function practice() {
  const clicks = roundBy(Number(controls.click.value) || 0, play.rounding);
  const levels = play.practice.click_level;
  const level = controls.clickLevel.value.trim() === "" ? levels.default : Number(controls.clickLevel.value);
  const clickLevel = roundBy(Number.isFinite(level) ? level : levels.default, play.rounding);
  const silentEvery = roundBy(Number(controls.silentEvery.value) || 0, play.rounding);
  const name = controls.section.value;
  const count = score.sections[name].stop - score.sections[name].start;
  return {
    clicks: Math.max(0, Math.min(play.practice.max_clicks, clicks)),
    clickLevel: Math.max(levels.min, Math.min(levels.max, clickLevel)),
    only: parseOnly(controls.only.value, fields, say),
    span: controls.strokes.value.trim() ? parseSpan(controls.strokes.value, count, fields, say) : null,
    ramp: controls.ramp.value.trim() ? parseRamp(controls.ramp.value, fields, say) : null,
    countEach: controls.countEach.checked,
    silentEvery: Math.max(0, Math.min(play.practice.max_silent_every, silentEvery)),
  };
}

function bpm() {
  return clampBpm(controls.bpm.value, data.tempo);
}

function describe(entry, player) {
  const waiting = player.waiting.map((w) => say("status_joiner") + say("waiting", { note: w })).join("");
  if (entry.drum === "count") {
    const c = entry.c ?? entry.k + player.countIn; // a count-in before a later pass has its own
    return say("count_in", { k: c + 1, of: player.countIn, bpm: player.bpm }) + waiting;
  }
  const items = player.passOf(entry.k).items;
  const stroke = score.strokes[entry.mark];
  const side = stroke.side; // where it stands, as drumscore play says it (Pattern.side_label)
  const pass = say(player.loop ? "pass_loop" : "pass_once", { number: entry.pass, repeats: player.repeats });
  // numbered as drumscore play numbers them: in the strokes played (a span's from its first)
  const of = items.length;
  const drum = drumName(drumOf(stroke), stroke.glyph) + (entry.muted ? ` ${say("muted")}` : "");
  const n = entry.index + 1;
  return say("stroke_status", { n, of, drum, side, pass, bpm: player.bpm }) + waiting;
}

// The status line for the state the player is in now.
function showState() {
  if (player.playing && player.current) {
    controls.status.textContent = describe(player.current, player);
  } else if (player.playing) {
    const waiting = player.waiting.map((w) => say("status_joiner") + say("waiting", { note: w })).join("");
    controls.status.textContent = say("starting", { bpm: player.bpm }) + waiting;
  } else if (player.state === "paused") {
    const waiting = player.waiting.map((w) => say("status_joiner") + say("waiting", { note: w })).join("");
    controls.status.textContent = say("paused", { bpm: player.bpm }) + waiting;
  } else {
    const v = bpm();
    const label = score.sections[controls.section.value].name;
    const apart = intervalOf(v).toFixed(3);
    controls.status.textContent = say("ready", { section: label, bpm: v, apart });
  }
}

function highlight(entry, player, finished) {
  for (const c of document.querySelectorAll(".notation .stroke.now")) c.classList.remove("now");
  for (const c of document.querySelectorAll(".notation .stroke.heard")) c.classList.remove("heard");
  if (!entry) {
    controls.play.textContent = say("play");
    controls.play.setAttribute("aria-pressed", "false");
    if (finished) controls.status.textContent = say("played", { n: player.played });
    return;
  }
  controls.status.textContent = describe(entry, player);
  if (entry.drum === "count") return;
  const items = player.passOf(entry.k).items;
  const before = new Set(items.slice(0, entry.index).map((item) => item.mark));
  for (const c of cells) {
    const i = Number(c.dataset.i);
    if (i === entry.mark) c.classList.add("now");
    else if (before.has(i)) c.classList.add("heard");
  }
}

const player = new Player(data.kit, data.root, highlight);

async function toggle() {
  if (player.playing) {
    player.pause();
    controls.play.textContent = say("resume");
    controls.play.setAttribute("aria-pressed", "false");
    showState();
    return;
  }
  if (player.state === "paused") {
    await player.resume();
  } else {
    let options;
    try {
      options = practice();
    } catch (error) {
      controls.status.textContent = say("problem", { message: error.message });
      return;
    }
    await player.start(sectionItems(controls.section.value), {
      bpm: bpm(),
      loop: controls.loop.checked,
      countIn: countIn(),
      practice: options,
      repeats: repeats(),
    });
    // a key pressed while the sound was being readied still counts (a ramp sets its own)
    if (!options.ramp && player.bpm !== bpm()) player.setTempo(bpm());
    player.setLoop(controls.loop.checked);
  }
  controls.play.textContent = say("pause");
  controls.play.setAttribute("aria-pressed", "true");
  showState();
}

function setBpm(value) {
  const v = clampBpm(value, data.tempo);
  controls.bpm.value = String(v);
  controls.range.value = String(Math.min(v, Number(controls.range.max)));
  player.setTempo(v);
  showState();
}

controls.play.addEventListener("click", toggle);
controls.stop.addEventListener("click", () => stop());
controls.bpm.addEventListener("change", () => setBpm(controls.bpm.value));
controls.range.addEventListener("input", () => setBpm(controls.range.value));
controls.loop.addEventListener("change", () => {
  player.setLoop(controls.loop.checked);
  showState();
});
// The passes a play (not looping) and the WAV hold, as --repeat gives them; null when the field
// is empty (one pass, a ramp's all its passes, as without --repeat).
function repeats() {
  if (!controls.repeat.value.trim()) return null;
  const n = roundBy(Number(controls.repeat.value) || 1, play.rounding);
  return Math.max(1, Math.min(play.max_repeat, n));
}

function countIn() {
  const n = roundBy(Number(controls.countIn.value) || 0, play.rounding);
  return Math.max(0, Math.min(play.max_count_in, n));
}

function stop() {
  if (player.state === "stopped") return;
  player.stop();
  controls.status.textContent = say("stopped");
}

// A section chosen from the list: from the end of the pass when looping, else for the next play
// (a play under way ends with its pass, as without a switch).
function sectionChanged() {
  const name = controls.section.value;
  const label = score.sections[name].name;
  if (player.switchAtPassEnd(sectionItems(name))) {
    controls.status.textContent = say("switch_at_pass_end", { section: label });
  } else if (player.state !== "stopped") {
    controls.status.textContent = say("switch_next_play", { section: label });
  } else {
    showState();
  }
}

controls.section.addEventListener("change", sectionChanged);

// The downloads under a reading: the files the site wrote for it, as drumscore render writes
// them with that reading.
function linkFiles(chosen) {
  const files = score.downloads[chosen.id];
  for (const [a, file] of fileLinks) a.setAttribute("href", data.root + files[file]);
}

// Another reading chosen: the citation, the strokes' colours, the downloads and (from the end
// of the pass when one plays, as a section switch) the playback follow it.
function readingChanged() {
  const chosen = reading();
  controls.readingCite.querySelector(".says").textContent = chosen.says;
  controls.readingCite.querySelector("cite").textContent = chosen.citation;
  // the legend as built says 鄭玄's reading; another's is said in its words
  if (chosen === data.readings[0]) legend.innerHTML = legendAsBuilt;
  else legend.textContent = chosen.legend;
  for (const c of cells) {
    const drum = drumOf(score.strokes[Number(c.dataset.i)], chosen);
    c.classList.toggle("pi", drum === "pi");
    c.classList.toggle("gu", drum === "gu");
    const built = score.strokes[Number(c.dataset.i)].drum;
    c.title = c.dataset.title.replace(data.drum_words[built], data.drum_words[drum]);
  }
  const name = controls.section.value;
  if (player.switchAtPassEnd(sectionItems(name))) {
    controls.status.textContent = say("reading_at_pass_end", { reading: chosen.name });
  } else if (player.state !== "stopped") {
    controls.status.textContent = say("reading_next_play", { reading: chosen.name });
  } else {
    showState();
  }
  linkFiles(chosen);
  document.documentElement.dataset.reading = chosen.id;
}

controls.reading.addEventListener("change", readingChanged);
bindKeys(
  {
    toggle,
    stop,
    tempoBy: (step) => setBpm(bpm() + step),
    tap: (value) => setBpm(value),
    // s: touhu ⇄ she at the end of the pass; again before then, called off
    switchSection: () => {
      if (score.half === null) return;
      const other = controls.section.value === "touhu" ? "she" : "touhu";
      controls.section.value = other;
      if (player.state !== "stopped") player.toggleSwitch(sectionItems(other));
      showState();
    },
    // q: stop at the end of the pass; nothing when nothing plays
    stopAtPassEnd: () => {
      if (player.stopAtPassEnd()) showState();
    },
  },
  play,
);

// The WAV's file name, by what it holds: the score, the section, the tempo (or the ramp), then
// each practice option asked for, such as lu-1-zhushu-she-60bpm-strokes5-12-click2.wav.
function wavName(section, tempo, count, options, passes) {
  const number = (x) => fracText(x).replace("/", "_");
  const parts = [score.slug, section];
  if (reading() !== data.readings[0]) parts.push(reading().id);
  const { ramp, span, clicks, only, countEach, silentEvery } = options;
  if (ramp) {
    const every = ramp.every > 1 ? `-${ramp.every}` : "";
    parts.push(`ramp${number(ramp.start)}-${number(ramp.stop)}-${number(ramp.step)}${every}`);
  } else {
    parts.push(`${tempo}bpm`);
  }
  if (passes !== null) parts.push(`x${passes}`);
  if (count) parts.push(`count${count}${countEach ? "each" : ""}`);
  if (span) parts.push(`strokes${span[0] + 1}-${span[1]}`);
  if (clicks) parts.push(`click${clicks}`);
  if ((clicks || silentEvery) && options.clickLevel !== play.practice.click_level.default) parts.push(`level${options.clickLevel}`);
  if (only) parts.push(`only-${only}`);
  if (silentEvery) parts.push(`silent${silentEvery}`);
  return `${parts.join("-")}.wav`;
}

controls.makeWav.addEventListener("click", async () => {
  controls.makeWav.disabled = true;
  controls.makeWav.textContent = say("making_wav");
  try {
    const section = controls.section.value;
    const tempo = bpm();
    const count = countIn();
    let options; // the practice options, as the player takes them
    try {
      options = practice();
    } catch (error) {
      controls.status.textContent = say("problem", { message: error.message });
      return;
    }
    const audio = await renderOffline(data.kit, data.root, sectionItems(section), {
      bpm: tempo,
      countIn: count,
      repeats: repeats(),
      peakLevel: play.peak_level,
      rate: play.rate,
      fields,
      practice: options,
    });
    const blob = encodeWav(audio.channels, audio.rate, play.rounding);
    if (controls.wavLink.href) URL.revokeObjectURL(controls.wavLink.href);
    controls.wavLink.href = URL.createObjectURL(blob);
    const name = wavName(section, tempo, count, options, repeats());
    controls.wavLink.download = name;
    const seconds = (audio.channels[0].length / audio.rate).toFixed(1);
    controls.wavLink.textContent = say("save_wav", { name, seconds });
    controls.wavLink.hidden = false;
    window.drumscore.wav = { name, onsets: audio.onsets, blob };
  } finally {
    controls.makeWav.disabled = false;
    controls.makeWav.textContent = say("make_wav");
  }
});

// A staff wider than its box (a phone) opens on its first notes, not on the clef and labels.
const staff = document.querySelector(".staff[data-first]");
if (staff) {
  const image = staff.querySelector("img");
  const toFirst = () => {
    if (staff.scrollWidth > staff.clientWidth) {
      const em = parseFloat(getComputedStyle(staff).fontSize) || 16;
      staff.scrollLeft = Math.max(0, Number(staff.dataset.first) * image.clientWidth - em);
    }
    staff.dataset.opened = "true";
  };
  if (image.complete && image.naturalWidth) toFirst();
  else image.addEventListener("load", toFirst, { once: true });
}

if (controls.reading.value !== data.readings[0].id) readingChanged(); // a reload keeps a choice
// The settings a link keeps (settings.js): read from the page's address when it opens, and
// written back into it as they change, so that the address shares them.
restoreSettings(document);
keepSettings(document);
const linkStatus = $("link-status");
$("copy-link").addEventListener("click", async () => {
  linkStatus.textContent = "";
  const done = await copySettings($("link-field"), document);
  linkStatus.textContent = say(done === "copied" ? "link_copied" : "link_selected");
});
for (const c of [controls.play, controls.stop, controls.makeWav]) c.disabled = false;
window.drumscore = {
  player,
  score,
  reading,
  sectionItems,
  countIn,
  repeats,
  practice,
  renderOffline,
  encodeWav,
  settingsUrl,
  ready: true,
};
document.documentElement.dataset.ready = "true";

// --- listening as they play: drumscore serve's listener hears the microphone -----------------
// (site/listening.py: POST /listen/start, then the samples a piece at a time, each answer the
// lines told or changed since the last, then /end and check's report). A page not served by
// drumscore serve keeps the note that says how to have it.

const LISTEN = "/listen";
// Samples gathered before they are sent (s): a line comes within this of being told.
const SEND_EVERY = 0.04;
const along = {
  served: $("along-served"),
  note: $("along-static"),
  start: $("listen"),
  end: $("listen-end"),
  status: $("along-status"),
  lines: $("along-lines"),
  report: $("along-report"),
};
let listening = null;

async function alongServed() {
  try {
    const answer = await fetch(LISTEN, { cache: "no-store" });
    if (!answer.ok || !(await answer.json()).listening) return;
  } catch {
    return; // opened from its files, or a server without listening
  }
  along.note.hidden = true;
  along.served.hidden = false;
  along.status.hidden = false;
  along.status.textContent = along.status.dataset.ready;
}

async function alongStart() {
  if (listening) return;
  along.start.disabled = true;
  // the session and the tap readied first, so that the microphone is heard from its first sample
  const context = new AudioContext();
  await context.audioWorklet.addModule(new URL("listen-worklet.js", import.meta.url));
  const started = await alongPost(`${LISTEN}/start`, JSON.stringify({
    score: score.key,
    section: controls.section.value,
    bpm: bpm(),
    reading: controls.reading.value,
    rate: context.sampleRate,
    lang: document.documentElement.lang,
  }));
  if (!started) {
    context.close();
    along.start.disabled = false;
    return;
  }
  const tap = new AudioWorkletNode(context, "pcm-tap");
  tap.connect(context.destination); // (it sounds nothing: it keeps the tap running)
  listening = { id: started.id, context, tap, pending: [], size: 0, busy: null, shown: [] };
  tap.port.onmessage = (event) => alongGather(event.data);
  try {
    listening.stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
  } catch (error) {
    along.status.textContent = along.status.dataset.refused.replace("{reason}", error.message);
    alongPost(`${LISTEN}/${listening.id}/end`, new ArrayBuffer(0)); // the session given up
    alongStop(listening);
    return;
  }
  context.createMediaStreamSource(listening.stream).connect(tap);
  alongMarks([]);
  along.lines.replaceChildren();
  along.report.hidden = true;
  along.start.setAttribute("aria-pressed", "true");
  along.end.disabled = false;
  along.status.textContent = along.status.dataset.listening;
}

function alongGather(samples) {
  const session = listening;
  if (!session || session.ending) return;
  session.pending.push(samples);
  session.size += samples.length;
  if (!session.busy && session.size >= SEND_EVERY * session.context.sampleRate) alongSend(session);
}

// The samples gathered, sent as one body of float32s; one request at a time, in order.
function alongSend(session) {
  const body = new Float32Array(session.size);
  let at = 0;
  for (const piece of session.pending) {
    body.set(piece, at);
    at += piece.length;
  }
  session.pending = [];
  session.size = 0;
  session.busy = alongPost(`${LISTEN}/${session.id}`, body.buffer).then((answer) => {
    session.busy = null;
    if (answer) alongShow(session, answer);
    else alongStop(session);
  });
  return session.busy;
}

async function alongPost(url, body) {
  try {
    const answer = await fetch(url, { method: "POST", body, cache: "no-store" });
    const reply = await answer.json();
    if (answer.ok) return reply;
    along.status.textContent = reply.error;
  } catch (error) {
    along.status.textContent = say("problem", { message: error.message });
  }
  return null;
}

// The lines answered (from line `at` on) in the list and on the notation.
function alongShow(session, answer) {
  session.shown = session.shown.slice(0, answer.at).concat(answer.lines);
  const items = [...along.lines.children];
  for (const [k, line] of answer.lines.entries()) {
    const i = answer.at + k;
    const li = items[i] ?? along.lines.appendChild(document.createElement("li"));
    if (items[i] && li.textContent !== line.text) li.classList.add("revised");
    li.textContent = line.text;
    li.dataset.kind = line.kind ?? "withdrawn";
  }
  for (const li of items.slice(session.shown.length)) li.remove();
  along.lines.scrollTop = along.lines.scrollHeight;
  alongMarks(session.shown);
}

// Each stroke of the section lit as it was heard: played, on the wrong drum or missed, its
// offset from the even beat under it.
function alongMarks(lines) {
  for (const c of cells) {
    c.classList.remove("along-played", "along-wrong", "along-missed");
    delete c.dataset.offset;
  }
  const items = sectionItems(controls.section.value);
  for (const line of lines) {
    const item = line.number ? items[line.number - 1] : null;
    if (!item || !["played", "wrong", "missed"].includes(line.kind)) continue;
    const cell = cells.find((c) => Number(c.dataset.i) === item.mark);
    if (!cell) continue;
    cell.classList.add(`along-${line.kind}`);
    if (line.offset_ms !== undefined) {
      cell.dataset.offset = `${line.offset_ms >= 0 ? "+" : "−"}${Math.abs(Math.round(line.offset_ms))}`;
    }
  }
}

async function alongEnd() {
  const session = listening;
  if (!session || session.ending) return;
  session.ending = true;
  along.end.disabled = true;
  along.status.textContent = along.status.dataset.ending;
  alongRelease(session);
  if (session.busy) await session.busy;
  if (session.size) {
    session.ending = false;
    await alongSend(session);
    session.ending = true;
  }
  const answer = await alongPost(`${LISTEN}/${session.id}/end`, new ArrayBuffer(0));
  if (answer) {
    alongShow(session, answer);
    along.report.textContent = answer.report;
    along.report.hidden = false;
    along.status.textContent = along.status.dataset.ended;
  }
  alongStop(session);
}

function alongRelease(session) {
  session.tap.port.onmessage = null;
  for (const track of session.stream?.getTracks() ?? []) track.stop();
  session.context.close();
}

function alongStop(session) {
  if (!session.ending) alongRelease(session);
  listening = null;
  along.start.disabled = false;
  along.start.setAttribute("aria-pressed", "false");
  along.end.disabled = true;
}

along.start.addEventListener("click", alongStart);
along.end.addEventListener("click", alongEnd);
alongServed();
