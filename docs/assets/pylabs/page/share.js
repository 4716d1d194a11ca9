// Instrument settings carried by a lab page's URL (`?set.a1_tokens=8192`): read when the lab
// mounts (Python keeps the ones valid for this lab) and written by a Share button.
import { call } from "./runtime.js";
import { showNotice } from "./notices.js";
import { plural } from "./dom.js";

const LINK_PREFIX = "set.";

/** The link's settings as raw strings. */
function linkParams() {
  // Own properties only (Object.fromEntries), so a name like "__proto__" is data, not a prototype.
  const params = new Map();
  for (const [key, value] of new URLSearchParams(window.location.search)) {
    if (key.startsWith(LINK_PREFIX)) params.set(key.slice(LINK_PREFIX.length).slice(0, 60), value.slice(0, 200));
  }
  return Object.fromEntries(params);
}

/**
 * Apply the settings a shared link carries to the lab's state, say so, and drop them from the URL.
 * @param {string} labId
 * @param {{controls: object, answers: object}} state
 */
export async function applyLink(labId, state) {
  const params = linkParams();
  if (!Object.keys(params).length) return;
  const locked = Object.keys(state.answers).length > 0;
  const { controls, ignored } = await call("link_settings", [labId, JSON.stringify(params), locked]);
  Object.assign(state.controls, controls);
  const applied = Object.keys(controls).length;
  const parts = [];
  if (applied) {
    parts.push(`${plural(applied, "instrument setting")} from the shared link ${applied === 1 ? "is" : "are"} applied; ` +
      "your own answers are unchanged.");
  }
  if (ignored.length) {
    parts.push(`${plural(ignored.length, "setting")} in the link ${ignored.length === 1 ? "was" : "were"} not valid ` +
      "for this lab and ignored.");
  }
  showNotice(ignored.length ? "warn" : "info", parts.join(" "), { id: "link" });
  const url = new URL(window.location.href);
  [...url.searchParams.keys()].filter((k) => k.startsWith(LINK_PREFIX)).forEach((k) => url.searchParams.delete(k));
  window.history.replaceState(window.history.state, "", url.href);
}

/**
 * Copy a link to this lab with the settings of the controls a Share button names.
 * @param {HTMLElement} button with `data-controls`
 * @param {{controls: object}} state
 */
export async function shareSettings(button, state) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = "";
  for (const name of button.dataset.controls.split(" ")) url.searchParams.set(LINK_PREFIX + name, String(state.controls[name]));
  try {
    await navigator.clipboard.writeText(url.href);
    showNotice("success", "Link copied. It opens this lab with these instrument settings (never your answers).", { id: "share" });
  } catch {
    showNotice("info", `Copy this link to share these settings: ${url.href}`, { id: "share" });
  }
}
