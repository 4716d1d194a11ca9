// The labs' service worker (issue 9): after one visit the site works offline, and a returning
// student is served from this browser's copy instead of waiting on the server's revalidation.
// Written by build_scripts/offline.py: BUILD and CORE are filled in at build time.
// One cache per build: a new deployment installs a new cache and the old ones are deleted.
const BUILD = "__BUILD__";
const CACHE = `mlsys-labs-${BUILD}`;
const PREFIX = "mlsys-labs-";
// The runtime every lab needs (Pyodide, the wheel, the snapshot, the shell), relative to this file.
const CORE = __CORE__;

self.addEventListener("install", (event) => {
  // Most of these are in the HTTP cache already (the page that registered us just used them).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CORE.map((path) => new URL(path, self.location))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

// The page sends the same-origin files it loaded before we controlled it (its HTML, styles, fonts).
self.addEventListener("message", (event) => {
  const urls = event.data && Array.isArray(event.data.cache) ? event.data.cache : [];
  const mine = urls.filter((url) => new URL(url).origin === self.location.origin);
  event.waitUntil(caches.open(CACHE)
    .then((cache) => Promise.all(mine.map((url) => cache.match(url).then((hit) => hit || cache.add(url).catch(() => {})))))
    .then(() => event.source && event.source.postMessage({ cached: BUILD })));
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
