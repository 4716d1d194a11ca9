// Make a Pyodide memory snapshot with pylabs imported and every lab warmed up, in Node with
// the pinned npm pyodide package (the same files the site vendors).
//   node build_scripts/snapshot.mjs <pyodide dir> <wheel> <out.bin>
// Pyodide's snapshot API is private (_makeSnapshot, makeMemorySnapshot): it keeps the
// WebAssembly memory only, so the browser still mounts the standard library and unpacks the
// wheel; modules imported here come back already imported.
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, wheelPath, outPath] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", _makeSnapshot: true, stdout: () => {} });
const file = readFileSync(wheelPath);
pyodide.unpackArchive(new Uint8Array(file.buffer, file.byteOffset, file.byteLength), "wheel");
// Import the bridge and render every lab once (imports, lazy tables, memo), then forget what was
// "sent" so the page's first full update is computed as usual.
pyodide.runPython(`
import gc, json
import pylabs.bridge as bridge
from pylabs.labs import all_labs
for lab in all_labs():
    bridge.update(lab.id, "{}", None, True)
bridge._sent.clear()
del lab
gc.collect()
`);
writeFileSync(outPath, pyodide.makeMemorySnapshot());
console.log(JSON.stringify({ pyodide: pyodide.version, bytes: pyodide._module.HEAP8.length }));
