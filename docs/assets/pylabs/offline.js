// Register the service worker (site root sw.js, written at build time) once the page has
// settled, so that its download of the runtime never competes with a lab's boot. It then keeps
// this build's files, and the pages visited, for offline use. `<html data-offline="ready">`
// says this page's files are in the offline copy.
import { BASE } from "./runtime.js";

let started = false;

function pageFiles() {
  const here = window.location.href.split("#")[0];
  const loaded = performance.getEntriesByType("resource").map((entry) => entry.name);
  return [here, ...loaded].filter((url) => url.startsWith(BASE.origin));
}

/** Register once per tab (the shell calls it once the page has settled: settled.js); later pages
 * (instant navigation) are cached as they are fetched. */
export function keepOffline() {
  if (started || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  started = true;
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (event.data && event.data.cached) document.documentElement.dataset.offline = "ready";
  });
  navigator.serviceWorker.register(new URL("sw.js", BASE), { scope: BASE.pathname, updateViaCache: "none" })
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => registration.active.postMessage({ cache: pageFiles() }))
    .catch((error) => console.info(`pylabs: no offline copy of the site (${error.message})`));
}
