// Make a Pyodide memory snapshot with pylabs imported and the labs warmed up, in Node with
// the pinned npm pyodide package (the same files the site vendors).
//   node build_scripts/snapshot.mjs <pyodide dir> <wheel> <out.bin>
// Pyodide's snapshot API is private (_makeSnapshot, makeMemorySnapshot): it keeps the
// WebAssembly memory only, so the browser still mounts the standard library and unpacks the
// wheel; modules imported here come back already imported.
//
// A snapshot must fit the memory a fresh Pyodide starts with (30 MiB for 314.0.7): restoring
// copies it into that heap and cannot grow it ("offset is out of bounds"), and WebAssembly memory
// never shrinks. So the labs are imported and rendered one by one, in registry order, until the
// next one would grow the heap; the warm-up then restarts with only those before it, and the
// others import on their page's first update. The snapshot is restored once here, so a build never
// ships one the browser cannot use.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, wheelPath, outPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const wheel = readFileSync(wheelPath);

async function start(options) {
  return loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, ...options });
}

/** A Pyodide with pylabs and the first `limit` labs warmed, or the index of the lab that grew the heap. */
async function warmed(limit) {
  const pyodide = await start({ _makeSnapshot: true });
  pyodide.unpackArchive(new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength), "wheel");
  const initial = pyodide._module.HEAP8.length;
  pyodide.runPython(`
import gc
import pylabs.bridge as bridge
from pylabs.labs import LAB_MODULES
lab_ids = list(LAB_MODULES)
`);
  const ids = pyodide.globals.get("lab_ids").toJs().slice(0, limit);
  for (const [index, id] of ids.entries()) {
    // Import and render once (lazy tables), then forget what was rendered and "sent", so the
    // page's first full update is computed as usual and the memory is reused by the next lab.
    pyodide.runPython(`bridge.update(${JSON.stringify(id)}, "{}", None, True)
bridge._memo.clear()
bridge._sent.clear()
gc.collect()`);
    if (pyodide._module.HEAP8.length > initial) return { grew: index };
  }
  pyodide.runPython("del lab_ids\ngc.collect()");
  return { pyodide, warm: ids.length };
}

let result = await warmed(Infinity);
if (result.grew !== undefined) result = await warmed(result.grew);
if (result.grew !== undefined) throw new Error(`the warm-up grew the heap at lab ${result.grew} on a second pass`);
const { pyodide, warm } = result;
const image = pyodide.makeMemorySnapshot();
const check = await start({ _loadSnapshot: image });   // throws if the browser could not restore it
check.runPython("import pylabs.bridge");
writeFileSync(outPath, image);
console.log(JSON.stringify({ pyodide: pyodide.version, bytes: pyodide._module.HEAP8.length, warm }));
