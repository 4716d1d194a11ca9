// Make a Pyodide memory snapshot with pylabs imported and every lab warmed up, in Node with the
// pinned npm pyodide package (the same files the site vendors).
//   node build_scripts/snapshot.mjs <pyodide dir> <wheel> <out.bin>
// Pyodide's snapshot API is private (_makeSnapshot, makeMemorySnapshot): it keeps the
// WebAssembly memory only, so the browser still mounts the standard library (and unpacks the
// wheel when something imports a file the snapshot did not); modules imported here come back
// already imported.
//
// With every lab warmed the memory is larger than the one a fresh Pyodide starts with, so the
// restore grows the memory first (docs/assets/pylabs/worker/snapshot-memory.js, shared with the worker).
// The snapshot is restored once here and answers an update, so a build never ships one the
// browser cannot use.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, wheelPath, outPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const here = path.dirname(fileURLToPath(import.meta.url));
const { growMemoryOnInstantiate } = await import(
  pathToFileURL(path.join(here, "..", "docs", "assets", "pylabs", "worker", "snapshot-memory.js")).href);
const wheel = readFileSync(wheelPath);

async function start(options) {
  return loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, ...options });
}

const pyodide = await start({ _makeSnapshot: true });
pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel");
// Import every module of the wheel (a snapshot boot then never needs the wheel's files), render every
// lab once (lazy tables), then forget what was rendered and "sent", so a page's first full update
// is computed as usual.
pyodide.runPython(`
import gc
import importlib
import pkgutil
import pylabs
for module in pkgutil.walk_packages(pylabs.__path__, "pylabs."):
    importlib.import_module(module.name)
import pylabs.bridge as bridge
from pylabs.framework import controls, formats
from pylabs.labs import LAB_MODULES
for lab_id in LAB_MODULES:
    bridge.update(lab_id, "{}", None, True)
    bridge._memo.clear()
    bridge._sent.clear()
controls._RENDERED.clear()
formats._sig.cache_clear()
del lab_id, module
gc.collect()
`);
const warm = pyodide.runPython("len(LAB_MODULES)");
const image = pyodide.makeMemorySnapshot();
const restore = growMemoryOnInstantiate(image.length);
try {
  const check = await start({ _loadSnapshot: image });   // throws if the browser could not restore it
  check.runPython(`import pylabs.bridge as bridge
from pylabs.labs import LAB_MODULES
bridge.update(list(LAB_MODULES)[-1], "{}", None, True)`);
} finally {
  restore();
}
writeFileSync(outPath, image);
console.log(JSON.stringify({ pyodide: pyodide.version, bytes: image.length, warm }));
