// Draw the figures the renderer embeds as JSON, with self-hosted Plotly.js.
// Colours arrive as "token:<name>" and are read from CSS custom properties,
// so charts follow the light or dark palette.
import { BASE } from "./runtime.js";

let plotly = null;

function loadPlotly() {
  if (!plotly) {
    plotly = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL("vendor/plotly/plotly.min.js", BASE).href;
      script.async = true;
      script.onload = () => resolve(window.Plotly);
      script.onerror = () => reject(new Error("the chart library could not be loaded"));
      document.head.appendChild(script);
    });
  }
  return plotly;
}

function palette() {
  const style = getComputedStyle(document.body);
  return (name) => style.getPropertyValue(`--pl-chart-${name}`).trim() || "#888";
}

function resolveTokens(value, color) {
  if (typeof value === "string") return value.startsWith("token:") ? color(value.slice(6)) : value;
  if (Array.isArray(value)) return value.map((item) => resolveTokens(item, color));
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveTokens(v, color)]));
  }
  return value;
}

function themed(layout, color) {
  const axis = (a) => ({ ...a, gridcolor: color("grid"), zerolinecolor: color("grid"), linecolor: color("grid"),
    automargin: true });
  return {
    ...layout,
    xaxis: axis(layout.xaxis || {}),
    yaxis: axis(layout.yaxis || {}),
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { family: getComputedStyle(document.body).fontFamily, color: color("ink"), size: 13 },
    hoverlabel: { font: { family: "inherit" } },
    autosize: true,
  };
}

/**
 * Draw every chart under `root` whose figure changed since it was last drawn.
 * @param {Element} root element to search for `[data-chart]`
 * @param {{force?: boolean}} [options] Default: `{force: false}`; force redraws all (palette change)
 */
export async function drawCharts(root, { force = false } = {}) {
  const figures = [...root.querySelectorAll("[data-chart]")];
  if (!figures.length) return;
  const Plotly = await loadPlotly();
  const color = palette();
  for (const figure of figures) {
    const spec = figure.querySelector(".pl-chart__spec")?.textContent ?? "";
    const plot = figure.querySelector(".pl-chart__plot");
    if (!plot || (!force && plot.dataset.drawn === spec)) continue;
    const { data, layout } = resolveTokens(JSON.parse(spec), color);
    await Plotly.react(plot, data, themed(layout, color), { displayModeBar: false, responsive: true });
    plot.dataset.drawn = spec;
  }
}

/** Start loading Plotly early, while Python boots. */
export function preloadCharts() {
  loadPlotly().catch(() => {});
}
