// Restoring a Pyodide memory snapshot copies it into the WebAssembly memory the module starts with
// (30 MiB for Pyodide 314.0.7) and cannot grow it ("offset is out of bounds"). A snapshot with every
// lab warmed is larger (36 MiB), so while Pyodide instantiates its module the memory is grown to
// the snapshot's size, before Emscripten takes its views of it. Used by the worker (worker.js) and
// by the build, which restores each snapshot once in Node (build_scripts/snapshot.mjs).

/**
 * Grow the next instantiated module's exported memory to at least `bytes`, until the returned
 * function is called (call it once loadPyodide has settled).
 * @param {number} bytes the memory the snapshot needs
 * @returns {() => void} puts WebAssembly's own functions back
 */
export function growMemoryOnInstantiate(bytes) {
  const saved = { instantiate: WebAssembly.instantiate, instantiateStreaming: WebAssembly.instantiateStreaming };
  const wrap = (original) => async function (...args) {
    const result = await original.apply(WebAssembly, args);
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
