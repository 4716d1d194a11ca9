"""The JavaScript the benchmark runs in the page (tools/bench.py imports it)."""

INIT_SCRIPT = """(() => {
  const bench = window.__bench = { ready: [], longtasks: [], shifts: [], locked: null };
  new MutationObserver((records) => {
    const now = performance.now(), html = document.documentElement, lab = document.querySelector("[data-lab]");
    if (html.dataset.pylabs !== "ready" || !records.some((r) => r.target === html && r.oldValue !== "ready")) return;
    bench.ready.push({ t: now, abs: performance.timeOrigin + now, lab: lab ? lab.dataset.lab : null });
  }).observe(document, { subtree: true, attributes: true, attributeOldValue: true, attributeFilter: ["data-pylabs"] });
  new MutationObserver((records) => {
    if (bench.locked === null && records.some((r) => r.target.dataset && r.target.dataset.locked === "true"))
      bench.locked = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-locked"] });
  // The student who locks at once: from the first frame of the first document of the context,
  // every frame, click Act I's first option and its lock button until the lock is taken. In the
  // page, so no driver round-trip is timed; later documents (reload, navigation) leave it alone.
  let robot = false;
  try { robot = !sessionStorage.getItem("bench-robot"); sessionStorage.setItem("bench-robot", "1"); } catch (e) {}
  const attempt = () => {
    if (bench.locked !== null) return;
    const q = document.querySelector('[data-act="1"] [data-question][data-kind="prediction"]');
    const radio = q && q.querySelector("input[type=radio]");
    const lock = q && q.querySelector("[data-action=lock]");
    if (radio && !radio.disabled && !radio.checked) radio.click();
    if (lock && !lock.disabled) lock.click();
    requestAnimationFrame(attempt);
  };
  if (robot) requestAnimationFrame(attempt);
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((e) =>
      e.hadRecentInput || bench.shifts.push({ t: e.startTime, value: e.value })))
      .observe({ type: "layout-shift", buffered: true });
  } catch (error) { bench.shiftError = String(error); }
  try {
    new PerformanceObserver((list) => list.getEntries().forEach((e) =>
      bench.longtasks.push({ start: e.startTime, duration: e.duration })))
      .observe({ type: "longtask", buffered: true });
  } catch (error) { bench.longtaskError = String(error); }
})();"""

SLIDER_JS = """async (arg) => {
  // arg: the number of moves (two neighbouring values alternated), or {moves, sweep: true}: each
  // move one step on from the last, wrapping from the top to the bottom, to values not just left
  const { moves, sweep } = typeof arg === "number" ? { moves: arg, sweep: false } : arg;
  const root = document.querySelector("[data-lab]");
  const name = [...root.querySelectorAll("input[type=range][data-control]")].find((e) => !e.disabled).dataset.control;
  const slider = () => root.querySelector(`input[type=range][data-control="${name}"]`);
  const el = slider(), [min, max, step, start] = [+el.min, +el.max, +el.step || 1, +el.value];
  const values = [start, start + step <= max ? start + step : Math.max(min, start - step)];
  const count = Math.floor((max - min) / step + 1e-9) + 1, first = Math.round((start - min) / step);
  const swept = (i) => Number((min + ((first + i) % count) * step).toPrecision(12));
  const chart = el.closest("[data-act]")?.querySelector("[data-chart]");
  const hasChart = Boolean(chart);
  // Charts draw only when in view, so put the act's chart on screen: its redraw is timed too.
  if (chart) chart.scrollIntoView({ block: "center" });
  await new Promise((resolve) => setTimeout(resolve, 300));
  // Keep the figures Plotly is given (per plot, per slider value) to replay them on a blank page
  // (alternating only: the sweep has no replay).
  const figures = {};
  const Plotly = window.Plotly;
  const react = Plotly && Plotly.react;
  let current = 0;
  if (react && !sweep) Plotly.react = function (plot, data, layout, config) {
    const i = [...root.querySelectorAll(".pl-chart__plot")].indexOf(plot);
    (figures[current] ||= {})[i] = JSON.parse(JSON.stringify({ data, layout, config, width: plot.clientWidth }));
    return react.apply(this, arguments);
  };
  const waitFor = (done) => new Promise((resolve, reject) => {
    if (done()) return resolve();
    const timer = setTimeout(() => { observer.disconnect(); reject(new Error("no update in 30 s")); }, 30000);
    const observer = new MutationObserver(() => done() && (observer.disconnect(), clearTimeout(timer), resolve()));
    observer.observe(root, { attributes: true, attributeFilter: ["data-renders", "data-busy", "data-charts-for"] });
  });
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  const numbers = [], times = [], starts = [];  // starts: each move's dispatch, epoch ms (tools/profile_boot.py)
  for (let i = 1; i <= moves; i++) {
    const before = Number(root.dataset.renders || 0);
    const target = slider();  // re-found each time, in case a patch replaced it
    current = i % 2;
    target.value = String(sweep ? swept(i) : values[current]);
    const t0 = performance.now();
    starts.push(performance.timeOrigin + t0);
    target.dispatchEvent(new Event("input", { bubbles: true }));
    await waitFor(() => Number(root.dataset.renders || 0) > before && root.dataset.busy === "false");
    numbers.push(performance.now() - t0);
    if (hasChart) {
      await waitFor(() => root.dataset.chartsFor === root.dataset.renders);
      await frame();
    }
    times.push(performance.now() - t0);
  }
  if (react && !sweep) Plotly.react = react;
  return { name, values, scale: el.dataset.scale || "linear", hasChart, times, numbers, starts, figures };
}"""

BARE_JS = """async ([figures, moves]) => {
  // The same figures, given to Plotly.react on a blank page, alternately, timed to the next frame.
  const states = [figures[0] || {}, figures[1] || {}];
  const plots = Object.keys(states[0]).filter((i) => states[1][i]).map((i) => {
    const div = document.body.appendChild(document.createElement("div"));
    div.style.width = `${states[0][i].width}px`;
    return [i, div];
  });
  const draw = (k) => Promise.all(plots.map(([i, div]) => {
    const f = states[k][i];
    return Plotly.react(div, f.data, f.layout, f.config);
  }));
  await draw(0);
  const times = [];
  for (let n = 1; n <= moves; n++) {
    const t0 = performance.now();
    await draw(n % 2);
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    times.push(performance.now() - t0);
  }
  return { plots: plots.length, times };
}"""

FLOOR_JS = """async (indexURL) => {
  const t0 = performance.now();
  const { loadPyodide } = await import(indexURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL });
  pyodide.runPython("1 + 1");
  return { t: performance.now(), dt: performance.now() - t0 };
}"""

CLICK_JS = """(url) => {
  const wanted = new URL(url, location.href).href;
  let link = [...document.querySelectorAll("a[href]")].find((a) => a.href.split("#")[0] === wanted);
  const injected = !link;
  if (injected) link = (document.querySelector("article") || document.body).appendChild(
    Object.assign(document.createElement("a"), { href: wanted, textContent: "benchmark link" }));
  window.__benchMarker = true;
  const t0 = performance.timeOrigin + performance.now();
  link.click();
  return { t0, injected };
}"""

PROBE_JS = """async () => {
  const loop = "const t0 = performance.now(); let x = 0; for (let i = 0; i < 3e7; i++) x += Math.sqrt(i); "
    + "return performance.now() - t0;";
  const main = new Function(loop)();
  const blob = new Blob([`onmessage = () => postMessage((() => { ${loop} })());`], { type: "text/javascript" });
  const worker = new Worker(URL.createObjectURL(blob));
  const inWorker = await new Promise((resolve) => { worker.onmessage = (e) => resolve(e.data); worker.postMessage(0); })
    .finally(() => worker.terminate());
  return { main, worker: inWorker };
}"""
