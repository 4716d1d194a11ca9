// Build the labs' own Plotly.js bundle: Plotly's core plus the trace types listed in
// plotly_bundle.json, from the npm package's module entry points, bundled and minified by esbuild.
//
//   node build_scripts/plotly_bundle.mjs OUTFILE [METAFILE]
//
// build_scripts/plotly_bundle.py runs this and caches the result by package-lock.json; the
// bundle is never committed.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(ROOT, "package.json"));
const esbuild = require("esbuild");

const CORE_TRACES = new Set(["scatter"]); // plotly.js/lib/core registers scatter itself

/** The entry module: the core, then one register() call with every other listed trace. */
export function entrySource(traces) {
  const extra = traces.filter((name) => !CORE_TRACES.has(name));
  const modules = extra.map((name) => `  require("plotly.js/lib/${name}"),`).join("\n");
  return `var Plotly = require("plotly.js/lib/core");\nPlotly.register([\n${modules}\n]);\nmodule.exports = Plotly;\n`;
}

// Plotly's attribute tables carry documentation (description, hrName, the valType's option
// lists) for its schema and docs; drawing never reads them, and Plotly's own dist bundles leave
// them out too. A property is dropped only when its value is free of calls (string literals and
// names, added up, or an array of them joined) and it ends at a comma or the closing brace;
// anything else is kept. Every separator is mandatory, so the pattern cannot backtrack for long.
const STRING = String.raw`(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")`;
const NAME = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`;
const SUM = String.raw`(?:${STRING}|${NAME})(?:\s*\+\s*(?:${STRING}|${NAME}))*`;
const LIST = (item) => String.raw`\[\s*(?:${item}(?:\s*,\s*${item})*\s*,?)?\s*\]`;
const JOINED = String.raw`${LIST(SUM)}\.join\(\s*${STRING}\s*\)`;
const END = String.raw`\s*(?:,|(?=\s*\}))`;
const KEY = String.raw`(?<=[\s{,])`; // a property name, not a member access
const DOCS = new RegExp(String.raw`${KEY}(?:description|hrName):\s*(?:${JOINED}|${SUM})${END}`
  + String.raw`|${KEY}(?:requiredOpts|otherOpts):\s*${LIST(STRING)}${END}`, "g");

export function withoutDocs(source) {
  return source.replace(DOCS, "");
}

const dropDocs = {
  name: "drop-plotly-docs",
  setup(build) {
    build.onLoad({ filter: /[\\/]plotly\.js[\\/]src[\\/].*\.js$/ }, (args) => ({
      contents: withoutDocs(readFileSync(args.path, "utf8")),
      loader: "js",
    }));
  },
};

export async function bundle(outfile, metafile) {
  const { traces } = JSON.parse(readFileSync(join(ROOT, "build_scripts", "plotly_bundle.json"), "utf8"));
  const version = require("plotly.js/package.json").version;
  const result = await esbuild.build({
    stdin: { contents: entrySource(traces), resolveDir: ROOT, sourcefile: "plotly-labs.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "iife",
    globalName: "Plotly",
    target: "es2020",
    platform: "browser",
    // maplibre's stylesheet is required only by map traces, which this bundle leaves out.
    loader: { ".css": "empty" },
    define: { global: "window", "define.amd": "false" },
    plugins: [dropDocs],
    banner: { js: `/*! plotly.js ${version} (MIT), labs bundle: ${traces.join(", ")} */` },
    legalComments: "eof",
    metafile: Boolean(metafile),
    outfile,
    logLevel: "warning",
  });
  if (metafile) writeFileSync(metafile, JSON.stringify(result.metafile));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const [outfile, metafile] = process.argv.slice(2);
  if (!outfile) {
    console.error("usage: node build_scripts/plotly_bundle.mjs OUTFILE [METAFILE]");
    process.exit(2);
  }
  await bundle(outfile, metafile);
}
