// The one loader of the shell's classic scripts (Plotly, KaTeX): each is loaded once per page, on
// first use, from the site's own copy under vendor/.
import { BASE } from "./runtime.js";

const loading = new Map();

/**
 * Load a script from the site (once; later calls share the first load) and give the global it defines.
 * @param {string} path relative to the site root, e.g. "vendor/plotly/plotly.min.js"
 * @param {string} global the name the script defines on window
 * @param {string} what for the error: "the chart library", "the math renderer"
 * @returns {Promise<any>}
 */
export function loadScript(path, global, what) {
  if (!loading.has(path)) {
    loading.set(path, new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL(path, BASE).href;
      script.async = true;
      script.onload = () => resolve(window[global]);
      script.onerror = () => reject(new Error(`${what} could not be loaded`));
      document.head.appendChild(script);
    }));
  }
  return loading.get(path);
}

/**
 * Add a stylesheet from the site once.
 * @param {string} path relative to the site root
 */
export function loadStyle(path) {
  const href = new URL(path, BASE).href;
  if (loading.has(href)) return;
  loading.set(href, null);
  const css = document.createElement("link");
  css.rel = "stylesheet";
  css.href = href;
  document.head.appendChild(css);
}
