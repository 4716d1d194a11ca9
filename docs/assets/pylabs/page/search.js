// Material's search index, built once the lab has started. A lab page's search worker is
// search-later.js, which holds the index until this page says so on the "mlsys-search" channel:
// once the lab has settled, or as soon as the student reaches for the search box.

const CHANNEL = "mlsys-search";
let released = false;

function release() {
  if (released || typeof BroadcastChannel !== "function") return;
  released = true;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage("release");
  channel.close();
}

/** Release the search index now if the student is about to search (focus in Material's search form). */
export function releaseOnSearch(event) {
  if (event.target instanceof Element && event.target.closest('form[name="search"]')) release();
}

export { release as releaseSearch };
