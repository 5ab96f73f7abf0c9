// A score page's settings kept in its address, as a GrooveScribe link keeps a groove's: the
// section, reading, tempo, passes, loop, count-in and practice options, each under the name of
// the flag of drumscore play that asks the same (score/lu-1-zhushu.html?bpm=72&click=2&strokes=5-12).
// Only what differs from the page as built is written. The address follows the fields as they
// change (history.replaceState, so the back button is not filled with them), and a page opened
// at such an address starts with them, as if typed. The page's "copy link" button copies it.

// Each setting: its name in the address (drumscore play's flag) and the id of its field.
export const SETTINGS = [
  ["section", "section"],
  ["reading", "reading"],
  ["bpm", "bpm"],
  ["repeat", "repeat"],
  ["loop", "loop"],
  ["count-in", "count-in"],
  ["count-in-each", "count-each"],
  ["click", "click"],
  ["click-level", "click-level"],
  ["silent-every", "silent-every"],
  ["only", "only"],
  ["strokes", "strokes"],
  ["ramp", "ramp"],
];

const OFF = ["0", "false", "no", "off"];

function fieldsOf(root) {
  return SETTINGS.map(([name, id]) => [name, root.getElementById(id)]).filter(([, f]) => f);
}

// What the field held as the site built it.
function asBuilt(field) {
  if (field.type === "checkbox") return field.defaultChecked;
  if (field.tagName === "SELECT") {
    const built = [...field.options].find((o) => o.defaultSelected) ?? field.options[0];
    return built ? built.value : "";
  }
  return field.defaultValue;
}

const valueOf = (field) => (field.type === "checkbox" ? field.checked : field.value);

// A value as the address writes it: escaped, but for the : of a ramp and the / of a fraction.
const escaped = (text) => encodeURIComponent(text).replace(/%3A/gi, ":").replace(/%2F/gi, "/");

// The address of the page with the settings its fields hold now (other parts of it kept).
export function settingsUrl(root = document, href = location.href) {
  const url = new URL(href);
  const names = new Set(SETTINGS.map(([name]) => name));
  const kept = [...new URLSearchParams(url.search)].filter(([name]) => !names.has(name));
  const parts = kept.map(([name, value]) => `${escaped(name)}=${escaped(value)}`);
  for (const [name, field] of fieldsOf(root)) {
    const value = valueOf(field);
    if (value === asBuilt(field)) continue;
    parts.push(`${name}=${field.type === "checkbox" ? (value ? "1" : "0") : escaped(value)}`);
  }
  url.search = parts.length ? `?${parts.join("&")}` : "";
  return url.href;
}

// The settings an address gives, set in the fields (a choice the list does not offer is left
// as built; a number field takes only a number), each field then told it changed, as when it
// is set by hand. The fields set, in order.
export function restoreSettings(root = document, search = location.search) {
  const query = new URLSearchParams(search);
  const set = [];
  for (const [name, field] of fieldsOf(root)) {
    if (!query.has(name)) continue;
    const value = query.get(name);
    if (field.type === "checkbox") {
      field.checked = !OFF.includes(value.trim().toLowerCase());
    } else if (field.tagName === "SELECT") {
      if (![...field.options].some((o) => o.value === value)) continue;
      field.value = value;
    } else {
      const before = field.value;
      field.value = value;
      if (value.trim() && !field.value) {
        field.value = before; // not a number, where a number is asked: as built
        continue;
      }
    }
    set.push(field);
  }
  for (const field of set) field.dispatchEvent(new Event("change", { bubbles: true }));
  return set;
}

// Keeps the page's address in step with its fields from now on: after any change, typed,
// chosen or made by a key (tempo, section), the address is written again when it differs.
export function keepSettings(root = document) {
  let pending = null;
  const write = () => {
    pending = null;
    const href = settingsUrl(root);
    if (href !== location.href) history.replaceState(history.state, "", href);
  };
  const soon = () => {
    if (pending === null) pending = setTimeout(write, 50);
  };
  for (const type of ["input", "change", "keyup"]) root.addEventListener(type, soon);
  write();
  return write;
}

// Copies the page's address with the settings its fields hold now (settingsUrl) to the
// clipboard. Where the browser refuses the clipboard (a page opened from its files, file://, or
// a reader who said no), the address is put in `field`, shown and selected, for the reader to
// copy by hand. What was done: "copied", or "selected".
export async function copySettings(field, root = document, href = location.href) {
  const url = settingsUrl(root, href);
  try {
    if (!navigator.clipboard) throw new Error("no clipboard");
    await navigator.clipboard.writeText(url);
    field.hidden = true;
    return "copied";
  } catch {
    field.value = url;
    field.hidden = false;
    field.focus();
    field.select();
    return "selected";
  }
}
