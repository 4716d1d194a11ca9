// Python in a Web Worker: boots self-hosted Pyodide, installs the pylabs wheel,
// and answers calls to pylabs.bridge with JSON strings. The page never blocks on Python.
import { loadPyodide } from "../../vendor/pyodide/pyodide.mjs";

const BASE = new URL("../../", import.meta.url);
const BRIDGE_FUNCTIONS = ["update", "ledger_open", "ledger_commit", "ledger_restart", "ledger_import", "ledger_view", "link_settings"];

/** @type {Record<string, Function>} bridge functions, kept for the worker's lifetime */
let bridge = null;

/**
 * Boot Python and load our wheel.
 * @returns {Promise<{pylabs: string, pyodide: string}>} the versions that are running
 */
async function boot() {
  const config = await (await fetch(new URL("assets/pylabs/runtime.json", BASE))).json();
  // The wheel downloads while Python starts.
  const wheel = fetch(new URL(config.wheel, BASE));
  progress("Starting Python (WebAssembly)…", 1);
  const pyodide = await loadPyodide({
    indexURL: new URL("vendor/pyodide/", BASE).href,
    stdout: () => {},
    stderr: (text) => console.warn(text),
  });
  if (pyodide.version !== config.pyodide_version) {
    throw new Error(`Pyodide ${pyodide.version} is loaded but the site was built for ${config.pyodide_version}; reload the page`);
  }
  progress("Loading the lab physics…", 2);
  const response = await wheel;
  if (!response.ok) throw new Error(`the lab package could not be downloaded (HTTP ${response.status})`);
  pyodide.unpackArchive(await response.arrayBuffer(), "wheel");
  const module = pyodide.pyimport("pylabs.bridge");
  const version = module.version();
  if (version !== config.pylabs_version) {
    throw new Error(`pylabs ${version} is installed but the site expects ${config.pylabs_version}; reload the page`);
  }
  // The module proxy lives as long as the worker; its functions are borrowed from it.
  bridge = Object.fromEntries(BRIDGE_FUNCTIONS.map((name) => [name, module[name]]));
  progress("Ready", 3);
  return { pylabs: version, pyodide: pyodide.version };
}

function progress(message, step) {
  self.postMessage({ progress: message, step, steps: 3 });
}

const booted = boot();

self.onmessage = async (event) => {
  const { id, op, args } = event.data;
  try {
    const versions = await booted;
    if (op === "boot") {
      self.postMessage({ id, ok: true, result: versions });
      return;
    }
    const fn = bridge[op];
    if (!fn) throw new Error(`unknown runtime call ${op}`);
    // JS null would arrive as JsNull; undefined arrives as Python None.
    self.postMessage({ id, ok: true, result: fn(...args.map((arg) => (arg === null ? undefined : arg))) });
  } catch (error) {
    self.postMessage({ id, ok: false, error: String(error && error.message ? error.message : error) });
  }
};
