// The class view: an instructor drops students' files; Python in the worker validates
// each one (pylabs.course.classroom), counts the class and renders it (pylabs.course.class_view);
// this page inserts the sections one task at a time, so it never freezes, and draws the charts in
// view. Nothing is uploaded: the files stay in this tab's memory, or in this browser's IndexedDB
// when the instructor keeps the class.
import { BASE, call, startRuntime } from "./runtime.js";
import { showNotice, clearNotice } from "./notices.js";
import { drawWhenSeen, preloadCharts, warmCharts } from "./charts.js";
import { keyValueStore } from "./idb.js";
import { plural } from "./dom.js";
import { readFiles } from "./read-files.js";

const kept = keyValueStore(`mlsys-labs:class:${BASE.pathname}`, "class");
const CHANNEL = `mlsys-labs:class:${BASE.pathname}`;
const html = document.documentElement;

// The next task after the next frame: what a slice inserted is styled and laid out in that frame,
// on its own, not together with the slices after it (setTimeout alone let several slices' layout
// pile into one frame of 300-400 ms with 500 students, found in review).
const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

function siteBuild() {
  return document.querySelector('meta[name="pylabs-build"]')?.content || "";
}

const SLICE_MS = 20;  // insert sections for at most this long, then let the page draw them

/** Insert the view's sections a few at a time; charts draw as they come into view. */
async function showView(root, view) {
  const container = root.querySelector("[data-class-view]");
  container.replaceChildren();
  let slice = performance.now();
  for (const section of view.sections) {
    if (performance.now() - slice > SLICE_MS) {
      await nextFrame();
      slice = performance.now();
    }
    if (section.into) {
      container.querySelector(`[data-class-${section.into}]`).insertAdjacentHTML("beforeend", section.html);
    } else {
      container.insertAdjacentHTML("beforeend", `<div class="pl-class__section" data-section="${section.key}">${section.html}</div>`);
    }
  }
  setCsv(root.querySelector("[data-class-csv]"), view.gradebook, "gradebook");
  setCsv(root.querySelector("[data-class-dates-csv]"), view.dates, "completion-dates");
  setCsv(root.querySelector("[data-class-summary-csv]"), view.summary, "class-summary");
  root.querySelector("[data-class-actions]").hidden = false;
  drawWhenSeen(container);
  // the first frame with everything in place
  await nextFrame();
}

function setCsv(link, text, stem) {
  if (link.href.startsWith("blob:")) URL.revokeObjectURL(link.href);
  link.href = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  link.download = `${stem}-${new Date().toISOString().slice(0, 10)}.csv`;
}

/**
 * Mount the class page.
 * @param {Element} root the `[data-class-page]` element
 * @param {AbortSignal} signal aborted when the page is left
 */
export async function mountClassPage(root, signal) {
  const status = root.querySelector("[data-class-status]");
  const input = root.querySelector("[data-class-input]");
  const loaded = [];  // the File objects of this class, to keep on request
  let busy = Promise.resolve();
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  signal.addEventListener("abort", () => channel?.close());

  async function load(files, { keep = false } = {}) {
    delete root.dataset.classReady;
    const started = performance.now();
    status.textContent = `Reading ${plural(files.length, "file")}…`;
    await readFiles(files, (file, bytes) => call("class_read", [file.name, bytes, file.size]), {
      onProgress: (n) => { status.textContent = `Read ${n} of ${plural(files.length, "file")}…`; },
      onRead: (file) => loaded.push(file),
    });
    performance.mark("class:read");  // the benchmark (tools/bench_class.py) reads these marks
    const view = await call("class_view", []);
    performance.mark("class:counted");
    status.textContent = `Drawing the class (${plural(view.students, "student")})…`;
    await showView(root, view);
    const refused = view.rejected.length ? `; ${plural(view.rejected.length, "file")} refused, listed below` : "";
    status.textContent = `${plural(view.students, "student")} from ${plural(view.files - view.rejected.length, "file")}${refused}.`;
    root.dataset.classReady = "true";
    root.dataset.classMs = String(Math.round(performance.now() - started));
    if (keep) await keepClass();
  }

  async function keepClass() {
    try {
      await kept.put("class", { at: new Date().toISOString(), files: loaded.map((f) => ({ name: f.name, blob: f })) });
      showNotice("success", `This class (${plural(loaded.length, "file")}) is kept in this browser until you forget it.`, { id: "class-kept" });
      channel?.postMessage({ kept: loaded.length });
    } catch (error) {
      showNotice("danger", `The class could not be kept in this browser (${error.message}); it stays in this tab.`, { id: "class-kept" });
    }
  }

  async function forget() {
    await kept.remove("class").catch(() => {});
    await call("class_reset", [siteBuild()]);
    loaded.length = 0;
    root.querySelector("[data-class-view]").replaceChildren();
    root.querySelector("[data-class-actions]").hidden = true;
    delete root.dataset.classReady;
    status.textContent = "The class is forgotten: nothing of it is kept in this tab or this browser.";
    clearNotice("class-kept");
    channel?.postMessage({ forgotten: true });
  }

  const queue = (task) => { busy = busy.then(task).catch((error) => {
    status.textContent = `The class could not be read: ${error.message}. The files loaded before are still here.`;
  }); return busy; };

  input.addEventListener("change", () => {
    const files = [...input.files];
    input.value = "";
    if (files.length) queue(() => load(files));
  }, { signal });
  const drop = root.querySelector("[data-class-drop]");
  drop.addEventListener("dragover", (event) => { event.preventDefault(); drop.dataset.over = "true"; }, { signal });
  drop.addEventListener("dragleave", () => { delete drop.dataset.over; }, { signal });
  drop.addEventListener("drop", (event) => {
    event.preventDefault();
    delete drop.dataset.over;
    const files = [...(event.dataTransfer?.files || [])];
    if (files.length) queue(() => load(files));
  }, { signal });
  root.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action === "class-keep") queue(keepClass);
    if (action === "class-forget") queue(forget);
  }, { signal });
  if (channel) channel.onmessage = () => showNotice("info",
    "Another tab changed the class kept in this browser. This tab keeps what it has loaded; reload it to see the kept class.",
    { id: "class-other-tab" });

  html.dataset.pylabs = "loading";
  try {
    await startRuntime();
    await call("class_reset", [siteBuild()]);
  } catch (error) {
    html.dataset.pylabs = "error";
    status.textContent = `The class view needs Python, which cannot start here (${error.message}).`;
    return;
  }
  clearNotice("boot");
  preloadCharts();  // Plotly's first evaluation is a long task: it happens now, not when the class is drawn
  warmCharts();     // and so is its first draw
  status.textContent = "Ready: choose or drop the files.";
  html.dataset.pylabs = "ready";
  const previous = await kept.get("class").catch(() => null);
  if (previous && previous.files?.length && !signal.aborted) {
    const files = previous.files.map((f) => new File([f.blob], f.name));
    showNotice("info", `The class kept in this browser on ${previous.at.slice(0, 10)} (${plural(files.length, "file")}) is loaded. ` +
      "Forget this class removes it.", { id: "class-kept" });
    queue(() => load(files));
  }
}
