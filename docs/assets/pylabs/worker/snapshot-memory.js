// Restoring a Pyodide memory snapshot copies it into the WebAssembly memory the module starts with
// (30 MiB for Pyodide 314.0.7) and cannot grow it ("offset is out of bounds"). A snapshot with every
// lab warmed is larger (36 MiB), so while Pyodide instantiates its module the memory is grown to
// the snapshot's size, before Emscripten takes its views of it. Used by the worker (worker.js) and
// by the build, which restores each snapshot once in Node (build_scripts/snapshot.mjs).
//
// The worker may also have compiled Pyodide's module already (worker.js compileWasm): Pyodide only
// asks for it once the snapshot image is in, so the instantiation then takes the compiled module
// and Pyodide's own download of the same file is cancelled.

/**
 * Until the returned function is called (call it once loadPyodide has settled): grow the next
 * instantiated module's exported memory to at least `bytes`, and instantiate from `compiled`
 * when it resolves to a module.
 * @param {number} bytes the memory the snapshot needs
 * @param {Promise<WebAssembly.Module|null>|null} [compiled] Pyodide's module, compiled ahead
 * @returns {() => void} puts WebAssembly's own functions back
 */
export function growMemoryOnInstantiate(bytes, compiled = null) {
  const saved = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const wrap = (original) => async function (source, imports, ...rest) {
    const module = compiled && await compiled;
    let result;
    if (module) {
      if (original === saved.instantiateStreaming) Promise.resolve(source).then((response) => response.body?.cancel()).catch(() => {});
      result = { module, instance: await saved.instantiate.call(WebAssembly, module, imports) };
    } else {
      result = await original.call(WebAssembly, source, imports, ...rest);
    }
    const memory = result && result.instance && result.instance.exports.memory;
    if (memory instanceof WebAssembly.Memory && memory.buffer.byteLength < bytes) {
      memory.grow(Math.ceil((bytes - memory.buffer.byteLength) / 65536));
    }
    return result;
  };
  WebAssembly.instantiate = wrap(saved.instantiate);
  if (saved.instantiateStreaming) WebAssembly.instantiateStreaming = wrap(saved.instantiateStreaming);
  return () => Object.assign(WebAssembly, saved);
}
