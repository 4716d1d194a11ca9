// Files this tab has already downloaded, handed to the service worker so that its install keeps
// them instead of downloading them a second time (a first visit moved the Python image
// and pyodide.asm.wasm twice, 20.7 MB, because the install's own fetches could not be served by
// the HTTP cache, which does not keep files that large everywhere). The boot worker puts copies
// into one Cache Storage cache; the service worker (inline/sw.js) takes a core file from
// there only when its bytes have the digest the build recorded, so a copy left over from another
// build is never kept, and deletes the cache once it has read it.

export const HANDOFF = "mlsys-handoff";

/** @type {Array<[string, Response]>} copies waiting to be handed off */
const copies = [];

/** Keep an unread copy of a same-origin response to hand off later; returns the response itself. */
export function keepCopy(response) {
  if (response.ok && response.type === "basic" && response.status === 200) copies.push([response.url, response.clone()]);
  return response;
}

/** Keep bytes already read (the Python image, read chunk by chunk) with the response's headers. */
export function keepBytes(url, blob, headers) {
  copies.push([url, new Response(blob, { headers: { "Content-Type": headers.get("Content-Type") || "application/octet-stream" } })]);
}

/** Forget what was kept (a page whose service worker already has this build needs none of it). */
export function dropCopies() {
  copies.splice(0).forEach(([, response]) => response.body?.cancel().catch(() => {}));
}

/**
 * Put the kept copies into the hand-off cache.
 * @returns {Promise<string[]>} the URLs handed off
 */
export async function handOff() {
  const items = copies.splice(0);
  if (!items.length || typeof caches !== "object") return [];
  const cache = await caches.open(HANDOFF);
  const done = await Promise.all(items.map(([url, response]) => cache.put(url, response).then(() => url, () => null)));
  return done.filter(Boolean);
}

/**
 * Hand off files the page loaded (its HTML, styles, scripts) as this browser's HTTP cache holds
 * them: what the page just used. (Unlike the service worker, the page cannot ask the cache alone
 * without a console error on a miss; a miss, rare for files this small, downloads the file.)
 * @param {string[]} urls same-origin URLs
 */
export async function handOffLoaded(urls) {
  if (typeof caches !== "object") return;
  const cache = await caches.open(HANDOFF);
  await Promise.all(urls.map((url) => fetch(url, { cache: "force-cache" })
    .then((response) => (response.ok && response.type === "basic" ? cache.put(url, response) : null))
    .catch(() => null)));
}
