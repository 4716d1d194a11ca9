// Python in a Web Worker: boots self-hosted Pyodide, installs the pylabs wheel with micropip,
// and answers calls to pylabs.bridge with JSON strings. The page never blocks on Python.
//
// Boot: when the build made a memory snapshot of Python with pylabs and every lab already imported
// (runtime.json "snapshot"), Pyodide is restored from it, which skips most of its own start-up.
// A snapshot for another Pyodide or another wheel, a browser without DecompressionStream, or
// a snapshot that fails to load falls back to the usual boot, saying so in the console.
// `worker.js?boot=full` (the page's `?pylabs-boot=full`) boots the usual way on purpose.
import { loadPyodide, version as PYODIDE_VERSION } from "../../../vendor/pyodide/pyodide.mjs";
import { growMemoryOnInstantiate } from "./snapshot-memory.js";
import { dropImage, keepImage, keptImage } from "./image-cache.js";
import { dropCopies, handOff, keepBytes, keepCopy } from "../shared/handoff.js";
import { installWithMicropip, micropipList, snapshotDeserializer } from "./micropip.js";

const BASE = new URL("../../../", import.meta.url);
// A page that no service worker controls yet (a first visit) names its worker so: what the boot
// downloads is then kept to hand to the service worker, which would otherwise download it again.
const HANDING_OFF = self.name === "pylabs:first-visit" && typeof caches === "object";
const networkFetch = self.fetch.bind(self);
if (HANDING_OFF) self.fetch = (input, init) => networkFetch(input, init).then(keepCopy); // Pyodide's own fetches too
const WANTED = new URL(import.meta.url).searchParams.get("boot") === "full" ? "full" : "auto";
const PROBE_MS = 400;             // how long the snapshot's download is watched before deciding
const WORTH_WAITING_MS = 2500;    // about what the snapshot saves on a desktop CPU (floor_cold - restore)
const KEEP_AFTER_MS = 300;     // after the first call (the page is drawn), keep the image for the next visit
const WARM_AFTER_MS = 400;     // after a lab's first update (its page is drawn), warm its slider moves
const WARM_TURNS = 80;         // moves' work per lab, or
const WARM_BUDGET_MS = 450;    // this much of the worker's time (150 ms left the first moves half warmed)
const BRIDGE_FUNCTIONS = ["update", "view", "warm", "ledger_open", "ledger_commit", "ledger_restart", "ledger_import", "ledger_view", "link_settings",
  // the course: a student's name and hand-ins, an instructor's class view
  "ledger_student", "handin", "class_reset", "class_read", "class_view"];

/**
 * When each step of the boot ended, as epoch milliseconds (performance.timeOrigin + now(), which
 * the page's clock shares): the worker's creation, its script running, runtime.json read, Pyodide
 * asked to restore the snapshot, the snapshot image in hand, Python started, the bridge ready,
 * the first call answered. Reported on request (the "timings" call), with the last calls' times,
 * for tools/profile_boot.py.
 */
const epoch = () => performance.timeOrigin + performance.now();
const marks = { created: performance.timeOrigin };
const mark = (name) => { marks[name] ??= epoch(); };
mark("script");
/** The last calls answered, each [op, received, Python started, Python done] in epoch ms (the same report). */
const calls = [];
const CALLS_KEPT = 200;

/** The running Pyodide (its memory's size is reported on request). */
let python = null;
/** @type {Record<string, Function>} bridge functions, kept for the worker's lifetime */
let bridge = null;
/** After a snapshot boot the wheels are installed later: see installLater. */
let later = null;
/** An image unpacked from the gzipped file, to keep for the next visit (image-cache.js). */
let keeping = null;
/** After a snapshot boot: the labs whose slider moves are warmed already (see warmLater). */
let warmed = null;
/** The warm-up under way: an update from the page once it has begun stops it (the page comes first). */
let warming = null;

/** Why the snapshot cannot be used here, or null when it can. */
function snapshotRefusal(config) {
  const entry = config.snapshot;
  if (WANTED === "full") return "the page asked for a full boot";
  if (!entry) return "this build has no snapshot";
  if (typeof DecompressionStream !== "function") return "this browser has no DecompressionStream";
  if (entry.pyodide !== PYODIDE_VERSION) return `it was made for Pyodide ${entry.pyodide}, this is ${PYODIDE_VERSION}`;
  if (!config.wheel_hash || !entry.key) return "runtime.json does not name its key";
  return null;
}

/** The snapshot is not worth its download on this network: boot the usual way (not a failure). */
class SlowNetwork extends Error {}

/**
 * Start downloading the image and decide, from its rate, whether to wait for it. The snapshot
 * saves a few seconds of Pyodide's start-up; the files both boots need (7.5 MB) come after the
 * decision, so only the image's own 12.5 MB count: over a slow link (a first visit at 20 Mbit/s)
 * the usual boot is ready sooner. After PROBE_MS of data, an image that would take longer than
 * WORTH_WAITING_MS in all is dropped (the service worker fetches it for the next visit, which
 * then reads it from Cache Storage at once).
 * @returns {Promise<{image: Promise<Uint8Array>}>} once decided: the image, still arriving
 */
async function startSnapshot(entry) {
  // Not through keepCopy: a copy would go on downloading the image after a slow link drops it.
  const response = await networkFetch(new URL(entry.url, BASE));
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const total = Number(response.headers.get("Content-Length")) || entry.bytes || 0;
  const reader = response.body.getReader();
  const chunks = [];
  let received = 0;
  let first = null;
  let decide;
  const decided = new Promise((resolve) => { decide = resolve; });
  const settle = (value) => {
    if (!decide) return;
    decide(value);
    decide = null;
  };
  const image = (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      received += value.length;
      first ??= { t: performance.now(), bytes: value.length };
      const elapsed = performance.now() - first.t;
      if (decide && elapsed >= PROBE_MS) {
        const rate = (received - first.bytes) / elapsed;  // bytes per ms since the first chunk
        if (total / rate > WORTH_WAITING_MS) {
          reader.cancel().catch(() => {});
          const mbits = (rate * 8 / 1000).toFixed(1);
          throw new SlowNetwork(`the ${(total / 1e6).toFixed(1)} MB snapshot would take about ` +
            `${(total / rate / 1000).toFixed(1)} s at ${mbits} Mbit/s`);
        }
        settle(true);
      }
    }
    settle(true);
    const packed = new Blob(chunks);
    if (HANDING_OFF) keepBytes(response.url, packed, response.headers);
    return decompress(packed);
  })();
  // A refusal or a failure before the decision is the decision; after it, loadPyodide reports it.
  image.catch((error) => decide && settle(Promise.reject(error)));
  await decided;
  return { image };  // wrapped: an async function returning a promise would wait for it
}

async function decompress(packed) {
  try {
    return new Uint8Array(await new Response(packed.stream().pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  } catch (error) {
    throw new Error(`the image does not decompress (${error.message})`);
  }
}

/**
 * Compile Pyodide's WebAssembly now, rather than once the snapshot image is in (where Pyodide
 * starts it): with the image read from this browser's cache, both take about as long.
 * @returns {Promise<WebAssembly.Module|null>} null when it cannot (Pyodide then compiles it itself)
 */
function compileWasm(indexURL) {
  if (typeof WebAssembly.compileStreaming !== "function") return null;
  const compiled = WebAssembly.compileStreaming(fetch(new URL("pyodide.asm.wasm", indexURL)));
  return compiled.catch(() => null);
}

/**
 * Start Pyodide, from the snapshot when it fits, else the usual way.
 * @returns {Promise<{pyodide: object, boot: "snapshot"|"full", image?: "kept"|"downloaded", note: string}>}
 */
async function startPython(config) {
  const options = {
    indexURL: new URL("vendor/pyodide/", BASE).href,
    stdout: () => {},
    stderr: (text) => console.warn(text),
  };
  const refusal = snapshotRefusal(config);
  if (!refusal) {
    const entry = config.snapshot;
    // A returning visit reads the image this browser kept, unpacked, while Pyodide compiles its
    // WebAssembly; a first one downloads the gzipped image.
    const kept = await keptImage(BASE, entry);
    try {
      // Once the image is worth waiting for, Pyodide fetches its WebAssembly and standard library
      // while the rest of it downloads.
      const { image } = kept || await startSnapshot(entry);
      image.then(() => mark("image"), () => {}); // a failure is reported below, through loadPyodide
      const compiled = kept ? compileWasm(options.indexURL) : null;
      const restore = growMemoryOnInstantiate(entry.memory || 0, compiled);
      const refs = snapshotDeserializer();  // micropip's references to Pyodide (micropip.js)
      let pyodide;
      mark("restoring");
      try {
        pyodide = await loadPyodide({ ...options, _loadSnapshot: image, _snapshotDeserializer: refs.deserialize });
      } finally {
        restore();
      }
      refs.bind(pyodide);
      if (!kept) keeping = { entry, image };
      return { pyodide, boot: "snapshot", image: kept ? "kept" : "downloaded", note: `restored from snapshot ${entry.key}` };
    } catch (error) {
      if (kept) await dropImage(BASE, entry);
      const reason = error && error.message ? error.message.split("\n")[0] : String(error);
      const slow = error instanceof SlowNetwork;
      const note = slow ? `${reason}; starting Python the usual way, which is sooner on this network`
        : `the Python snapshot could not be used (${reason}); starting Python the usual way`;
      (slow ? console.info : console.warn)(`pylabs: ${note}`);
      return { pyodide: await loadPyodide(options), boot: "full", note };
    }
  }
  console.info(`pylabs: starting Python without a snapshot: ${refusal}`);
  return { pyodide: await loadPyodide(options), boot: "full", note: refusal };
}

/**
 * Install the wheels (pylabs, then runtime.json's extra_wheels) from the downloads started while
 * Python booted, with micropip (micropip.js). runtime.json's `"installer": "unpack"` unzips them
 * into site-packages instead, as the worker did before micropip: the benchmark compares the two
 * (tools/bench_micropip.py).
 * @param {{url: string, download: Promise<Response>}[]} wheels
 * @returns {Promise<number>} ms spent installing, once the downloads were in
 */
async function installWheels(pyodide, config, wheels) {
  const files = [];
  for (const { url, download } of wheels) {
    const response = await download;
    if (!response.ok) throw new Error(`the lab package could not be downloaded (HTTP ${response.status})`);
    files.push({ name: new URL(url, BASE).pathname.split("/").pop(), bytes: new Uint8Array(await response.arrayBuffer()) });
  }
  const start = performance.now();
  if (config.installer === "unpack") files.forEach(({ bytes }) => pyodide.unpackArchive(bytes, "wheel"));
  else await installWithMicropip(pyodide, files);
  return performance.now() - start;
}

/**
 * Boot Python and load our wheel.
 * @returns {Promise<{pylabs: string, pyodide: string, boot: string, image: string, note: string, install_ms: number|null}>}
 *   what is running, and how long installing the wheels took (null after a snapshot boot)
 */
async function boot() {
  const config = await (await fetch(new URL("assets/pylabs/runtime.json", BASE))).json();
  mark("config");
  // The wheels download while Python starts.
  const wheels = [config.wheel, ...(config.extra_wheels || [])].map((url) => ({ url, download: fetch(new URL(url, BASE)) }));
  progress("Starting Python (WebAssembly)…", 1);
  const { pyodide, boot: how, image = "", note } = await startPython(config);
  mark("python");
  let installMs = null;
  python = pyodide;
  if (pyodide.version !== config.pyodide_version) {
    throw new Error(`Pyodide ${pyodide.version} is loaded but the site was built for ${config.pyodide_version}; reload the page`);
  }
  progress("Loading the lab physics…", 2);
  if (how === "snapshot") {
    warmed = new Set();
    // The snapshot's memory holds micropip and every pylabs module already imported
    // (build_scripts/snapshot.mjs), but not the wheels' files. Installing them costs the worker
    // 0.2-0.3 s even unzipped, so it only happens when an import needs them (an extra wheel's
    // module): never during a student's first slider moves.
    later = { pyodide, config, wheels, done: null };
  } else {
    installMs = await installWheels(pyodide, config, wheels);
  }
  const module = pyodide.pyimport("pylabs.bridge");
  const version = module.version();
  if (version !== config.pylabs_version) {
    throw new Error(`pylabs ${version} is installed but the site expects ${config.pylabs_version}; reload the page`);
  }
  // The module proxy lives as long as the worker; its functions are borrowed from it.
  bridge = Object.fromEntries(BRIDGE_FUNCTIONS.map((name) => [name, module[name]]));
  mark("bridge");
  progress("Ready", 3);
  return { pylabs: version, pyodide: pyodide.version, boot: how, image, note, install_ms: installMs };
}

/** Install the wheels a snapshot boot left for later (once; every caller waits for the same work). */
function installLater() {
  if (!later) return Promise.resolve(false);
  later.done ||= (async () => {
    await installWheels(later.pyodide, later.config, later.wheels);
    later.pyodide.runPython("import importlib; importlib.invalidate_caches()");
    later = null;
    return true;
  })();
  return later.done;
}

/** Keep the image unpacked at boot for the next visit (once, shortly after the first call has drawn the page). */
async function keepLater() {
  const job = keeping;
  keeping = null;
  if (job) await keepImage(BASE, job.entry, await job.image);
}

/**
 * Warm a lab's slider moves while the student reads (once per lab, after a snapshot boot). The
 * restored Python runs WebAssembly the browser has not yet optimised, so the first moves took
 * about 1.5 times as long as later ones (Python's share of a move, V1-11 and V2-02: 3.2-6.5 ms
 * against 2.3-2.9 from the second 40 moves on). The worker runs a few moves' work
 * (pylabs.bridge.warm: nothing kept or sent), one per task. An update from the page after the
 * first turn stops it: a real move then waits for one turn at most, and moving on to another lab
 * does not wait for this one's warm-up.
 */
function warmLater(labId, stateJson) {
  if (!warmed || warmed.has(labId)) return;
  warmed.add(labId);
  if (warming) warming.stopped = true;  // the page has moved on to this lab
  const job = { started: false, stopped: false };
  warming = job;
  let turn = 0;
  let spent = 0;
  const next = () => {
    if (job.stopped) return;
    job.started = true;
    const start = performance.now();
    try {
      bridge.warm(labId, stateJson, turn);
    } catch (error) {
      console.info(`pylabs: warming ${labId} stopped (${String(error && error.message).split("\n")[0]})`);
      return;
    }
    spent += performance.now() - start;
    if (++turn < WARM_TURNS && spent < WARM_BUDGET_MS) setTimeout(next, 0);
  };
  setTimeout(next, WARM_AFTER_MS);
}

/**
 * An argument from the page as Python is to receive it: null as None (JS null would arrive as
 * JsNull), a file's bytes (an ArrayBuffer the page transferred) as a Uint8Array.
 */
function fromPage(arg) {
  if (arg === null) return undefined;
  return arg instanceof ArrayBuffer ? new Uint8Array(arg) : arg;
}

/** Call a bridge function; an import that needs files not unpacked yet unpacks them and retries. */
async function callBridge(fn, args) {
  const pyArgs = args.map(fromPage);
  try {
    return fn(...pyArgs);
  } catch (error) {
    // ModuleNotFoundError, or ImportError for `from pylabs import ledger_view` (a submodule)
    if (!later || !/(ModuleNotFoundError|ImportError)/.test(String(error && error.message))) throw error;
    await installLater();
    return fn(...pyArgs);
  }
}

function progress(message, step) {
  self.postMessage({ progress: message, step, steps: 3 });
}

const booted = boot();

self.onmessage = async (event) => {
  const received = epoch();
  const { id, op, args } = event.data;
  if (op === "update" && warming && warming.started) warming.stopped = true;
  try {
    const versions = await booted;
    if (op === "boot") {
      self.postMessage({ id, ok: true, result: versions });
      return;
    }
    if (op === "handoff") {  // the page is about to register its service worker (offline.js)
      self.postMessage({ id, ok: true, result: await handOff() });
      return;
    }
    if (op === "keep-nothing") {  // a service worker already keeps this site
      dropCopies();
      self.postMessage({ id, ok: true, result: [] });
      return;
    }
    if (op === "installed") {  // what micropip lists as installed, by name, and from where (tests)
      self.postMessage({ id, ok: true, result: micropipList(python) });
      return;
    }
    if (op === "timings") {  // when each step of the boot ended, and the last calls (tools/profile_boot.py)
      self.postMessage({ id, ok: true, result: { marks, calls } });
      return;
    }
    if (op === "memory") {  // the size of Python's WebAssembly memory (the class view's benchmark reads it)
      self.postMessage({ id, ok: true, result: { wasm_bytes: python ? python._module.HEAP8.length : null } });
      return;
    }
    const fn = bridge[op];
    if (!fn) throw new Error(`unknown runtime call ${op}`);
    const started = epoch();
    const result = await callBridge(fn, args);
    calls.push([op, received, started, epoch()]);
    if (calls.length > CALLS_KEPT) calls.shift();
    self.postMessage({ id, ok: true, result });
    mark("first_call");
    if (keeping) setTimeout(keepLater, KEEP_AFTER_MS);
    if (op === "update") warmLater(args[0], args[1]);
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message ? error.message : error) });
  }
};
