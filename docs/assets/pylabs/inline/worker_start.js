// Inlined at the top of each lab page's <head> by build_scripts/hooks.py via site_content.worker_start: it starts the
// Python worker while the page is still being parsed, so Python boots beside the first paint.
// A returning visit (the page comes from the service worker's copy, nothing to download) starts it
// at once; a first visit starts it from the inline script after the lab (early_inline.js calls
// `window.__pylabsStartWorker()`), so that the worker's downloads and start-up do not compete with
// the page's own files and first paint. runtime.js adopts the worker
// (window.__pylabsWorker) together with the messages it sent meanwhile (worker.early).
// data-site-root: the site root, relative to the page.
(() => {
  const root = new URL(document.currentScript.dataset.siteRoot || "./", location.href);
  const start = () => {
    if (window.__pylabsWorker || typeof Worker !== "function" || typeof WebAssembly !== "object") return;
    try {
      const script = new URL("assets/pylabs/worker/worker.js", root);
      if (new URLSearchParams(location.search).get("pylabs-boot") === "full") script.searchParams.set("boot", "full");
      // named for its first visit: what it downloads is handed to the service worker (handoff.js)
      performance.mark("pylabs:worker");  // tools/profile_boot.py: the worker asked for
      const worker = new Worker(script, { type: "module", name: navigator.serviceWorker && !navigator.serviceWorker.controller && window.isSecureContext ? "pylabs:first-visit" : "pylabs" });
      worker.early = [];
      worker.onmessage = (event) => worker.early.push(event.data);
      worker.onerror = (event) => { worker.failed = event.message || "the Python worker failed to start"; };
      window.__pylabsWorker = worker;
    } catch {
      // runtime.js starts it when the shell mounts the lab, and reports what went wrong
    }
  };
  window.__pylabsStartWorker = start;
  if (navigator.serviceWorker && navigator.serviceWorker.controller) start();
})();
