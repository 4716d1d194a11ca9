// The labs' service worker: after one visit the site works offline, and a returning
// student is served from this browser's copy instead of waiting on the server's revalidation.
// Written by build_scripts/offline.py: BUILD, CORE and DIGESTS are filled in at build time.
// One cache per build: a new deployment installs a new cache and the old ones are deleted.
const BUILD = "__BUILD__";
const CACHE = `mlsys-labs-${BUILD}`;
const PREFIX = "mlsys-labs-";
// The runtime every lab needs (Pyodide, the wheel, the snapshot, the shell), relative to this file.
const CORE = __CORE__;
// The SHA-256 of each core file this build wrote, hex: a copy the page handed off, or one in the
// HTTP cache, is kept only when its bytes are this build's (the sitemap has none: a host may
// write its own address into it, and any copy serves to find the pages).
const DIGESTS = __DIGESTS__;
// What the page that registered us, and its Python worker, had already downloaded (handoff.js).
const HANDOFF = "mlsys-handoff";

async function sha256(response) {
  const digest = await crypto.subtle.digest("SHA-256", await response.arrayBuffer());
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** This browser's HTTP copy of a same-origin file (any age), or null; never the network. */
function httpCopy(url) {
  return fetch(url, { cache: "only-if-cached", mode: "same-origin" }).then((response) => (response.ok ? response : null), () => null);
}

/** A copy of a core file this browser already has (handed off, else in the HTTP cache) when it is this build's, else null. */
async function copyOf(handoff, path, url) {
  for (const find of [() => handoff.match(url, { ignoreSearch: true }), () => httpCopy(url)]) {
    const copy = await find();
    if (copy && (!DIGESTS[path] || (await sha256(copy.clone())) === DIGESTS[path])) return copy;
  }
  return null;
}

self.addEventListener("install", (event) => {
  // Only the core files this browser does not have yet cross the network.
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const handoff = await caches.open(HANDOFF);
    await Promise.all(CORE.map(async (path) => {
      const url = new URL(path, self.location);
      const copy = await copyOf(handoff, path, url).catch(() => null);
      await (copy ? cache.put(url, copy) : cache.add(url));
    }));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// The page sends the same-origin files it loaded before we controlled it (its HTML, styles,
// fonts): kept from the HTTP cache, which holds what the page just used, or else downloaded.
// The hand-off is then spent.
self.addEventListener("message", (event) => {
  const urls = event.data && Array.isArray(event.data.cache) ? event.data.cache : [];
  const mine = urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const handoff = await caches.open(HANDOFF);
    await Promise.all(mine.map(async (url) => {
      if (await cache.match(url)) return;
      const copy = (await handoff.match(url)) || (await httpCopy(url));
      await (copy ? cache.put(url, copy) : cache.add(url)).catch(() => {});
    }));
    await caches.delete(HANDOFF);
    if (event.source) event.source.postMessage({ cached: BUILD });
  })());
});

// Same-origin GETs: this build's copy first, else the network (and keep a copy); pages that the
// network cannot give fall back to a cached copy without the query string (e.g. a shared link).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin || request.headers.has("range")) return;
  event.respondWith(caches.open(CACHE).then(async (cache) => {
    const hit = await cache.match(request);
    if (hit) return hit;
    try {
      const response = await fetch(request);
      if (response.ok && response.type === "basic") cache.put(request, response.clone()).catch(() => {});
      return response;
    } catch (error) {
      const fallback = request.mode === "navigate" ? await cache.match(request, { ignoreSearch: true }) : null;
      if (fallback) return fallback;
      throw error;
    }
  }));
});
