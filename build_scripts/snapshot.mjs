// Make a Pyodide memory snapshot with micropip and pylabs imported and every lab warmed up, in Node
// with the pinned npm pyodide package (the same files the site vendors, micropip's wheel among them).
// pylabs is installed the way the worker's full boot installs it: micropip.install from the wheel's
// bytes (docs/assets/pylabs/worker/micropip.js).
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
const shared = (name) => import(pathToFileURL(path.join(here, "..", "docs", "assets", "pylabs", "worker", name)).href);
const { growMemoryOnInstantiate } = await shared("snapshot-memory.js");
const { installWithMicropip, micropipList, snapshotSerializer, snapshotDeserializer } = await shared("micropip.js");
const wheel = readFileSync(wheelPath);
const wheels = [{ name: path.basename(wheelPath), bytes: new Uint8Array(wheel.buffer, wheel.byteOffset, wheel.byteLength) }];

async function start(options) {
  return loadPyodide({ indexURL: pyodideDir + "/", stdout: () => {}, ...options });
}

const pyodide = await start({ _makeSnapshot: true });
await installWithMicropip(pyodide, wheels);
const installed = micropipList(pyodide);
if (!(installed.pylabs || "").startsWith("emfs:")) throw new Error(`micropip did not install pylabs: ${JSON.stringify(installed)}`);
// Import every module of the wheel (a snapshot boot then never needs the wheel's files), work out
// every question's key in every context (the class view), render every lab once (lazy tables), then
// forget what was rendered and "sent", so a page's first full update is computed as usual.
pyodide.runPython(`
import gc
import importlib
import pkgutil
import pylabs
for module in pkgutil.walk_packages(pylabs.__path__, "pylabs."):
    importlib.import_module(module.name)
import pylabs.bridge as bridge
import sys
from pylabs.course import aggregate
from pylabs.framework import components, controls, formats
from pylabs.labs import LAB_MODULES
# Every question's key in every context, for the class view; then what the physics cached on the
# way is forgotten (V2-12 keeps 60,000 sampled latencies per context: 0.7 MB of the gzipped image
# for every student's first visit), before the labs are warmed as a student's first page needs.
aggregate.work_out_keys()
def forget(prefix):
    for name, module in list(sys.modules.items()):
        if name.startswith(prefix):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and hasattr(value, "cache_info"):
                    value.cache_clear()
forget("pylabs.physics.")
for lab_id in LAB_MODULES:
    bridge.update(lab_id, "{}", None, True)
    bridge._memo.clear()
    bridge._sent.clear()
    # the markup the warm-up kept (controls, rich text, a peek's equations, the strip's numbers),
    # forgotten lab by lab: kept to the end, it left 80 kB of freed strings in the gzipped image
    controls._RENDERED.clear()
    components.forget_kept()
formats.forget_kept()
del lab_id, module, aggregate, components, controls, formats, forget, sys
importlib.invalidate_caches()  # importlib.metadata's open zip files (micropip listed what it installed)
gc.collect()
`);
const warm = pyodide.runPython("len(LAB_MODULES)");
// What Pyodide loaded is recorded outside Python's memory, and a restored Pyodide starts with none
// of those files: the record starts empty too (Pyodide refuses a snapshot otherwise).
for (const name of Object.keys(pyodide.loadedPackages)) delete pyodide.loadedPackages[name];
const image = pyodide.makeMemorySnapshot({ serializer: snapshotSerializer(pyodide) });
const restore = growMemoryOnInstantiate(image.length);
try {
  const refs = snapshotDeserializer();
  const check = await start({ _loadSnapshot: image, _snapshotDeserializer: refs.deserialize });   // throws if the browser could not restore it
  refs.bind(check);
  check.runPython(`import pylabs.bridge as bridge
from pylabs.labs import LAB_MODULES
bridge.update(list(LAB_MODULES)[-1], "{}", None, True)`);
  // micropip, restored without its files, still installs (what a snapshot boot does with an extra wheel)
  await installWithMicropip(check, wheels);
  if (!(micropipList(check).pylabs || "").startsWith("emfs:")) throw new Error("the restored micropip did not install pylabs");
} finally {
  restore();
}
writeFileSync(outPath, image);
console.log(JSON.stringify({ pyodide: pyodide.version, bytes: image.length, warm, installed }));
