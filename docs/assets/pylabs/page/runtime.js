// The page's side of the Python worker: one worker per tab, kept across
// instant navigation, called with JSON strings and answering with parsed JSON.

export const BASE = new URL("../../../", import.meta.url);

let worker = null;
let booting = null;
let nextId = 1;
const waiting = new Map();
const listeners = new Set();
let lastProgress = { progress: "Loading Python…", step: 0, steps: 3 };

/**
 * Explain why this browser cannot run the labs, or return null when it can.
 * @returns {string|null}
 */
export function unsupportedReason() {
  if (typeof WebAssembly !== "object") return "this browser has WebAssembly turned off or does not support it";
  if (typeof Worker !== "function") return "this browser does not support Web Workers";
  return null;
}

/** The worker's name says whether its downloads are to be handed to the service worker (handoff.js). */
function workerName() {
  const first = Boolean(navigator.serviceWorker) && window.isSecureContext && !navigator.serviceWorker.controller;
  return first ? "pylabs:first-visit" : "pylabs";
}

/**
 * Start the worker once per tab. Resolves when Python and pylabs are ready.
 * @param {(p: {progress: string, step: number, steps: number}) => void} [onProgress] boot progress callback
 * @returns {Promise<{pylabs: string, pyodide: string}>}
 */
export function startRuntime(onProgress) {
  if (onProgress) {
    listeners.add(onProgress);
    onProgress(lastProgress);
  }
  if (booting) return booting;
  const reason = unsupportedReason();
  if (reason) {
    booting = Promise.reject(new Error(reason));
    return booting;
  }
  // The lab page's inline script (inline/worker_start.js) may have started the worker
  // already, keeping what it said meanwhile; otherwise start it here.
  const early = window.__pylabsWorker;
  if (early && !early.failed) {
    worker = early;
  } else {
    const script = new URL("../worker/worker.js", import.meta.url);
    // `?pylabs-boot=full` on a page starts Python without the memory snapshot (tests, benchmark).
    if (new URLSearchParams(window.location.search).get("pylabs-boot") === "full") script.searchParams.set("boot", "full");
    worker = new Worker(script, { type: "module", name: workerName() });
    window.__pylabsWorker = worker;
  }
  const receive = (message) => {
    if (message.progress) {
      lastProgress = message;
      listeners.forEach((listener) => listener(message));
      return;
    }
    const pending = waiting.get(message.id);
    if (!pending) return;
    waiting.delete(message.id);
    if (message.ok) pending.resolve(message.result);
    else pending.reject(new Error(message.error));
  };
  worker.onmessage = (event) => receive(event.data);
  (worker.early || []).splice(0).forEach(receive);
  worker.onerror = (event) => {
    const error = new Error(event.message || "the Python worker failed to start");
    waiting.forEach((pending) => pending.reject(error));
    waiting.clear();
  };
  booting = send("boot", []).then((versions) => {
    // How Python started ("snapshot" or "full"), and where a snapshot's image came from ("kept" in
    // this browser by an earlier visit, or "downloaded"), for tests and the curious.
    document.documentElement.dataset.pylabsBoot = versions.boot;
    if (versions.image) document.documentElement.dataset.pylabsImage = versions.image;
    return versions;
  });
  return booting;
}

/**
 * Stop listening for boot progress (a page unmounting).
 * @param {Function} onProgress the callback given to startRuntime
 */
export function stopListening(onProgress) {
  listeners.delete(onProgress);
}

function send(op, args) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    // a file's bytes are handed over, not copied
    worker.postMessage({ id, op, args }, args.filter((arg) => arg instanceof ArrayBuffer));
  });
}

/**
 * Have the worker hand what it downloaded to the service worker about to install (offline.js),
 * or drop it when `keep` is false. Nothing to do on a page whose lab has not started Python.
 * @returns {Promise<string[]>} the URLs handed off
 */
export function handOffDownloads(keep) {
  if (!booting) return Promise.resolve([]);
  return booting.then(() => send(keep ? "handoff" : "keep-nothing", []), () => []);
}

/**
 * Call a pylabs.bridge function; its JSON result is parsed.
 * @param {string} op bridge function name
 * @param {Array<string|boolean|null|ArrayBuffer>} args JSON-safe arguments, or a file's bytes (an ArrayBuffer,
 *   transferred: it is empty here afterwards), which Python receives as bytes
 * @returns {Promise<any>}
 */
export async function call(op, args) {
  await startRuntime();
  const text = await send(op, args);
  return typeof text === "string" ? JSON.parse(text) : text;
}
