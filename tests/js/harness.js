// A small test runner for the shell's modules, run in Chromium by tests/e2e/test_js_units.py.
// A test file registers cases with `test(name, fn)`, or one case per entry of a shared JSON test
// vector with `vector(label, file, fn)` (named "<label>: <case name>"); pytest finds the names in
// the source (so write them as string literals) and reports each case as its own test.

const cases = [];

/** Data the pytest side hands over before the run (HTML rendered by Python, by name). */
export const fixtures = {};

export function test(name, fn) {
  cases.push({ name, fn });
}

export function vector(label, file, fn) {
  cases.push({ vector: file, label, fn });
}

export function assert(ok, message = "assertion failed") {
  if (!ok) throw new Error(message);
}

export function equal(actual, expected, message = "") {
  const a = JSON.stringify(actual);
  const b = JSON.stringify(expected);
  if (a !== b) throw new Error(`${message ? message + ": " : ""}expected ${b}, got ${a}`);
}

/** Fresh state for each case: an empty fixture element and empty storage. */
export function fixture(html = "") {
  const main = document.getElementById("fixture");
  main.innerHTML = html;
  return main;
}

async function expand() {
  const out = [];
  for (const entry of cases) {
    if (!entry.vector) {
      out.push(entry);
      continue;
    }
    const data = await (await fetch(new URL(`../fixtures/${entry.vector}`, import.meta.url))).json();
    for (const item of data.cases) out.push({ name: `${entry.label}: ${item.name}`, fn: () => entry.fn(item, data) });
  }
  return out;
}

/**
 * Import the test files and run every case in order.
 * @param {string[]} files test modules, relative to this folder
 * @returns {Promise<Array<{file: string, name: string, ok: boolean, error: string}>>}
 */
export async function run(files) {
  const results = [];
  for (const file of files) {
    cases.length = 0;
    await import(new URL(file, import.meta.url).href);
    for (const { name, fn } of await expand()) {
      fixture();
      localStorage.clear();
      sessionStorage.clear();
      try {
        await fn();
        results.push({ file, name, ok: true, error: "" });
      } catch (error) {
        results.push({ file, name, ok: false, error: String(error && error.stack || error) });
      }
    }
  }
  return results;
}
