// What a render of the lab puts on the page: Python's view (blocks whole, or only the parts of a
// block that changed) patched into the live blocks, and an act's numbers read out after a change.
import { patchBlock, patchParts } from "./morph.js";

/**
 * Patch a view from the bridge's `update` into the lab.
 * @param {Element} root the `[data-lab]` element
 * @param {{blocks: object, parts?: object, hashes: object}} view
 * @param {Record<string, string|null>} kept block key -> inner HTML as last rendered (null once only
 *   parts of it were sent), kept for the next visit's first paint
 * @returns {boolean} false when a block's structure was not the one its parts were cut from (it should
 *   not happen): the caller then asks for the whole page
 */
export function showView(root, view, kept) {
  for (const [key, blockHtml] of Object.entries(view.blocks)) {
    const block = root.querySelector(`[data-block="${key}"]`);
    const hash = view.hashes[key];
    // A block the page already shows (the static default on a first visit) is left untouched.
    if (block && block.dataset.hash !== hash) {
      patchBlock(block, `<div class="pl-block" data-block="${key}" data-hash="${hash}">${blockHtml}</div>`);
    }
    kept[key] = blockHtml;
  }
  let fits = true;
  for (const [key, ops] of Object.entries(view.parts || {})) {
    const block = root.querySelector(`[data-block="${key}"]`);
    if (!block) continue;
    // Python sends no digest for a patched block (hashing the act on every move cost more than
    // the skip it allows), so the page's digest, now stale, is dropped.
    if (patchParts(block, ops)) delete block.dataset.hash;
    else fits = false;
    kept[key] = null;
  }
  return fits;
}

/** Say an act's first metrics and its failures to a screen reader, after a change was saved. */
export function announce(root, act) {
  const region = root.querySelector("[data-live-region]");
  const section = root.querySelector(`[data-instruments="${act}"]`);
  if (!region || !section) return;
  const metrics = [...section.querySelectorAll("[data-metric]")].slice(0, 4).map((metric) =>
    `${metric.querySelector(".pl-metric__label").textContent}: ${metric.querySelector(".pl-metric__value").textContent}`);
  const failures = [...section.querySelectorAll("[data-failure] .pl-callout__title")].map((t) => t.textContent);
  region.textContent = [...metrics, ...failures].join(". ");
}

/** The live region `announce` writes to. */
export function addLiveRegion(root) {
  const live = document.createElement("div");
  live.className = "pl-sr-only";
  live.setAttribute("aria-live", "polite");
  live.dataset.liveRegion = "";
  root.appendChild(live);
}
