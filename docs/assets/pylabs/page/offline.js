// Register the service worker (site root sw.js, written at build time) once the page has
// settled, so that its download of the runtime never competes with a lab's boot. It then keeps
// this build's files, and the pages visited, for offline use. `<html data-offline="ready">`
// says this page's files are in the offline copy.
//
// On a first visit the page and the boot worker first hand the service worker what they have
// downloaded (handoff.js), so that no file of the site crosses the network twice.
import { BASE, handOffDownloads } from "./runtime.js";
import { HANDOFF, handOffLoaded } from "../shared/handoff.js";

let started = false;

function pageFiles() {
  const here = window.location.href.split("#")[0];
  const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
  return [here, ...loaded].filter((url) => url.startsWith(BASE.origin));
}

/** Before a first install: a fresh hand-off cache holding this page's files and the boot's. */
async function handOffEverything(files) {
  try {
    await caches.delete(HANDOFF);  // never a copy left by another visit
    await Promise.all([handOffLoaded(files), handOffDownloads(true)]);
  } catch (error) {
    console.info(`pylabs: the service worker downloads the site itself (${error.message})`);
  }
}

/** Register once per tab (the shell calls it once the page has settled: settled.js); later pages
 * (instant navigation) are cached as they are fetched. */
export function keepOffline() {
  if (started || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  started = true;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.cached) document.documentElement.dataset.offline = "ready";
  });
  const files = pageFiles();
  const first = !navigator.serviceWorker.controller;
  const ready = first ? handOffEverything(files) : handOffDownloads(false);
  ready
    .then(() => navigator.serviceWorker.register(new URL("sw.js", BASE), { scope: BASE.pathname, updateViaCache: "none" }))
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active.postMessage({ cache: files }))
    .catch((error) => console.info(`pylabs: no offline copy of the site (${error.message})`));
}
