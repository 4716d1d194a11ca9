// Draw the figures the renderer embeds as JSON, with self-hosted Plotly.js.
// Colours arrive as "token:<name>" and are read from CSS custom properties,
// so charts follow the light or dark palette.
import { loadScript } from "./script.js";

const loadPlotly = () => loadScript("vendor/plotly/plotly.min.js", "Plotly", "the chart library");

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
    ...(layout.yaxis2 ? { yaxis2: axis(layout.yaxis2) } : {}),
    paper_bgcolor: "rgba(0,0,0,0)",
    plot_bgcolor: "rgba(0,0,0,0)",
    font: { family: getComputedStyle(document.body).fontFamily, color: color("ink"), size: 13 },
    hoverlabel: { font: { family: "inherit" } },
    autosize: true,
  };
}

const MARGIN_PX = 200;
let observer = null;
const observed = new WeakSet();

function onScreen(element) {
  const box = element.getBoundingClientRect();
  return box.bottom >= -MARGIN_PX && box.top <= window.innerHeight + MARGIN_PX;
}

// Charts out of view are drawn when they scroll into view, so a slider move pays only for
// the charts the student can see.
function watchVisibility(plot) {
  if (observed.has(plot) || typeof IntersectionObserver !== "function") return;
  if (!observer) {
    observer = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting && entry.target.dataset.stale === "true") {
          drawFigure(entry.target.closest("[data-chart]"), true).catch(() => {});
        }
      }
    }, { rootMargin: `${MARGIN_PX}px 0px` });
  }
  observer.observe(plot);
  observed.add(plot);
}

async function drawFigure(figure, force) {
  const spec = figure.querySelector(".pl-chart__spec")?.textContent ?? "";
  const plot = figure.querySelector(".pl-chart__plot");
  if (!plot || (!force && plot.dataset.drawn === spec)) return;
  const Plotly = await loadPlotly();
  const color = palette();
  const { data, layout } = resolveTokens(JSON.parse(spec), color);
  await Plotly.react(plot, data, themed(layout, color), { displayModeBar: false, responsive: true });
  plot.dataset.drawn = spec;
  plot.dataset.stale = "false";
}

/**
 * Draw every visible chart under `root` whose figure changed since it was last drawn; mark
 * the others stale, to be drawn when they scroll into view.
 * @param {Element} root element to search for `[data-chart]`
 * @param {{force?: boolean}} [options] Default: `{force: false}`; force redraws all (palette change)
 */
export async function drawCharts(root, { force = false } = {}) {
  for (const figure of root.querySelectorAll("[data-chart]")) {
    const plot = figure.querySelector(".pl-chart__plot");
    if (!plot) continue;
    watchVisibility(plot);
    const spec = figure.querySelector(".pl-chart__spec")?.textContent ?? "";
    if (!force && plot.dataset.drawn === spec) continue;
    if (!onScreen(plot)) {
      plot.dataset.stale = "true";
      continue;
    }
    await drawFigure(figure, force);
  }
}

/**
 * Draw the charts under `root` as they come into view, without measuring where they are now (on a
 * long page, measuring every chart at once forces one long layout).
 * @param {Element} root element to search for `[data-chart]`
 */
export function drawWhenSeen(root) {
  for (const plot of root.querySelectorAll("[data-chart] .pl-chart__plot")) {
    plot.dataset.stale = "true";
    watchVisibility(plot);
  }
}

/** Start loading Plotly early, while Python boots. */
export function preloadCharts() {
  loadPlotly().catch(() => {});
}

/**
 * Draw one small chart out of sight while the page is idle, then drop it. Plotly's first draw is
 * about three times as slow as the next ones (its code is compiled as it first runs: a stacked bar
 * chart took 149 ms first, then 44-53), so the first chart a reader waits for no longer pays it.
 */
export function warmCharts() {
  const idle = window.requestIdleCallback || ((task) => setTimeout(task, 200));
  loadPlotly().then((Plotly) => new Promise((resolve) => idle(resolve)).then(async () => {
    const box = document.createElement("div");
    box.setAttribute("aria-hidden", "true");
    box.className = "pl-chart__warm";
    document.body.append(box);
    try {
      const x = ["a", "b", "c"];
      const color = palette();
      await Plotly.newPlot(box, [{ type: "bar", x, y: [1, 2, 3] }, { type: "scatter", x, y: [3, 1, 2] }],
        themed({ barmode: "stack", height: 200, title: { text: "warm" } }, color), { displayModeBar: false });
      Plotly.purge(box);
    } finally {
      box.remove();
    }
  })).catch(() => {});
}

// ---- cheaper updates -------------------------------------------------------

/**
 * Reserve each chart's height from its figure before Plotly draws it, so nothing below moves.
 * @param {Element} root
 */
export function reserveCharts(root) {
  for (const figure of root.querySelectorAll("[data-chart]")) {
    const plot = figure.querySelector(".pl-chart__plot");
    if (!plot || plot.dataset.reserved === "true") continue;
    try {
      const height = JSON.parse(figure.querySelector(".pl-chart__spec")?.textContent || "{}").layout?.height;
      if (height) plot.style.minHeight = `${height}px`;
    } catch {
      // an unreadable figure keeps the stylesheet's height
    }
    plot.dataset.reserved = "true";
  }
}

const scheduled = new WeakMap(); // root -> {pending, drawing, again}

/**
 * Work out the style and layout of what the charts just drew, in the charts' own task. Left to
 * the next frame, that work (about 4 ms for a two-chart act on the 2-core machine) came before
 * the answer to the student's next move: a slider drags one input per frame, and the page can
 * patch the worker's answer only after the frame's rendering. The work is the same; it moves.
 * @param {Element} root
 */
function settle(root) {
  root.getBoundingClientRect();
}

/**
 * Draw the changed, visible charts after the numbers have been painted: one draw per frame,
 * always of the latest figures (a move that arrives meanwhile is folded into the next draw).
 * When done, `root.dataset.chartsFor` names the render (data-renders) whose figures are drawn.
 * @param {Element} root
 * @param {(error: Error) => void} onError
 */
export function scheduleCharts(root, onError) {
  const job = scheduled.get(root) || { pending: false, drawing: false, again: false };
  scheduled.set(root, job);
  reserveCharts(root);
  if (job.drawing) {
    job.again = true;
    return;
  }
  if (job.pending) return;
  job.pending = true;
  // The frame paints the numbers; the task after it draws the charts.
  requestAnimationFrame(() => setTimeout(async () => {
    job.pending = false;
    job.drawing = true;
    const renders = root.dataset.renders;
    try {
      await drawCharts(root);
      settle(root);
      root.dataset.chartsFor = renders;
    } catch (error) {
      onError(error);
    } finally {
      job.drawing = false;
      if (job.again) {
        job.again = false;
        scheduleCharts(root, onError);
      }
    }
  }, 0));
}
