// Wheels into Python with micropip, the way Pyodide installs packages: used by the worker (a full
// boot, or an extra wheel after a snapshot boot) and by the build's memory snapshot
// (build_scripts/snapshot.mjs), so both install the same way. micropip is PyPI's wheel, which the
// build put beside Pyodide and named in its lock file (build_scripts/micropip_wheel.py).

const WHEELS_DIR = "/tmp/pylabs-wheels";

/**
 * Install downloaded wheels with micropip: each is written to Emscripten's file system and
 * installed from there (`emfs:`), so nothing is downloaded twice; without dependencies (pylabs
 * has none, and micropip would look for them on PyPI). micropip is loaded first unless it is
 * imported already (restored from a snapshot).
 * @param {object} pyodide a running Pyodide
 * @param {{name: string, bytes: Uint8Array}[]} wheels file names (micropip reads the tags from them) and bytes
 */
export async function installWithMicropip(pyodide, wheels) {
  if (!pyodide.runPython("'micropip' in __import__('sys').modules")) {
    await pyodide.loadPackage("micropip", { messageCallback: () => {} });
  }
  const micropip = pyodide.pyimport("micropip");
  try {
    pyodide.FS.mkdirTree(WHEELS_DIR);
    for (const { name, bytes } of wheels) {
      const path = `${WHEELS_DIR}/${name}`;
      pyodide.FS.writeFile(path, bytes);
      await micropip.install.callKwargs(`emfs:${path}`, { deps: false });
    }
  } finally {
    micropip.destroy();
  }
}

/**
 * What micropip lists as installed, by name, with where it came from (`emfs:…` for a wheel it
 * installed from this site's files).
 * @returns {Record<string, string>}
 */
export function micropipList(pyodide) {
  return JSON.parse(pyodide.runPython(
    "import json, micropip; json.dumps({p.name: p.source for p in micropip.list().values()})"));
}

// A memory snapshot keeps Python's memory, not JavaScript's. Once micropip is imported, its modules
// hold four of Pyodide's JavaScript objects (the `pyodide_js` module, loadPackage, and the private
// install and loadBinaryFile), which Pyodide cannot write into a snapshot by itself: the snapshot
// records their names, and the restored Python gets stand-ins that call the new Pyodide's.

function namedObjects(pyodide) {
  return { pyodide, loadPackage: pyodide.loadPackage, install: pyodide._api.install, loadBinaryFile: pyodide._api.loadBinaryFile };
}

/**
 * For makeMemorySnapshot({serializer}): the name of each object micropip holds; any other
 * object fails the build, rather than coming back as nothing.
 */
export function snapshotSerializer(pyodide) {
  const known = Object.entries(namedObjects(pyodide));
  return (object) => {
    const found = known.find(([, value]) => value === object);
    if (!found) throw new Error(`the Python snapshot holds a JavaScript object it cannot name (${String(object).slice(0, 60)})`);
    return found[0];
  };
}

/**
 * For loadPyodide({_snapshotDeserializer}): stand-ins for the named objects, which call the
 * restored Pyodide's once `bind(pyodide)` has named it (Pyodide restores them before it returns).
 * @returns {{deserialize: (name: string) => object, bind: (pyodide: object) => void}}
 */
export function snapshotDeserializer() {
  let restored = null;
  const current = (name) => {
    if (!restored) throw new Error(`Pyodide's ${name} was called before the restored Pyodide was bound`);
    return namedObjects(restored)[name];
  };
  const deserialize = (name) => (name === "pyodide"
    ? new Proxy({}, { get: (_, key) => Reflect.get(current(name), key), has: (_, key) => key in current(name) })
    : (...args) => current(name)(...args));
  return { deserialize, bind: (pyodide) => { restored = pyodide; } };
}
