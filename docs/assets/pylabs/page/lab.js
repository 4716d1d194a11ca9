// Mount a pre-rendered lab: restore the attempt from the ledger, send the state to Python on
// every change (through the render queue, so the page never queues stale work), patch the changed
// blocks, draw charts and math, and write the ledger through on every locked answer and decision.
// The parts: controls.js (a control's value), queue.js (the render queue), lab-view.js (a view
// patched in), attempt.js (the ledger: resume, save, lock, restart, hand in), share.js (settings
// in a link), early.js (the page before Python).
import { call, startRuntime, stopListening } from "./runtime.js";
import { preloadCharts, scheduleCharts } from "./charts.js";
import { preloadMath, renderMath } from "./math.js";
import { LEDGER_KEY, stash } from "./store.js";
import { showNotice } from "./notices.js";
import { mountStrips } from "./strip.js";
import { keepPlace } from "./place.js";
import { mountEarly } from "./early.js";
import { controlValue, readControls } from "./controls.js";
import { renderQueue } from "./queue.js";
import { addLiveRegion, announce, showView } from "./lab-view.js";
import { handInLab, lock, restart, resume, save, takeOtherLocks } from "./attempt.js";
import { applyLink, shareSettings } from "./share.js";

const html = document.documentElement;

function setBoot(root, text) {
  const line = root.querySelector("[data-boot]");
  if (!line) return;
  line.textContent = text;
  line.hidden = !text;
}

/** Start Python, showing its progress; false (the lab stays a static page, saying why) when it cannot. */
async function boot(root) {
  const onProgress = ({ progress, step, steps }) => setBoot(root, `${progress} (${step} of ${steps})`);
  try {
    await startRuntime(onProgress);
    return true;
  } catch (error) {
    html.dataset.pylabs = "error";
    setBoot(root, `The instruments cannot start: ${error.message}. You can still read this lab; ` +
      "its numbers above are the default scenario, computed when the site was built.");
    return false;
  } finally {
    stopListening(onProgress);
  }
}

/**
 * Render the state, then patch only what changed. `changed` names the control moved (Python sends
 * only the parts that changed); `full` asks for every block.
 * @param {object} lab the mounted lab
 * @param {() => void} after what follows a render on the page (strips, place, charts, math)
 */
async function render(lab, changed, full, after) {
  const { root, state } = lab;
  const view = await call("update", [lab.labId, JSON.stringify(state), changed, full]);
  if (lab.signal.aborted) return;
  if (!showView(root, view, lab.blocks)) {
    await render(lab, null, true, after);  // a page whose structure differs (it should not): whole
    return;
  }
  state.controls = view.controls;
  lab.record = view.record;
  root.dataset.renders = String(Number(root.dataset.renders || 0) + 1);
  const reached = lab.record.failures_active.filter((name) => !state.failures_hit.includes(name));
  if (reached.length) {
    state.failures_hit = [...state.failures_hit, ...reached].sort();
    save(lab);
  }
  after();
}

/** What follows every render: numbers are on the page now; charts follow after the next frame. */
function afterRender(lab, returnThere) {
  const checkStrips = mountStrips(lab.root, lab.signal);
  return () => {
    checkStrips();
    returnThere();
    scheduleCharts(lab.root, (error) => showNotice("warn", `Charts are unavailable: ${error.message}`, { id: "charts" }));
    renderMath(lab.root).catch(() => {});
  };
}

/** One set of delegated listeners for the whole lab. */
function listen(lab) {
  const { root, signal, state } = lab;
  const moved = (control) => {
    lab.state.controls[control.dataset.control] = controlValue(root, control);
    lab.queue.schedule(control.dataset.control);
  };
  root.addEventListener("input", (event) => {
    const control = event.target.closest("[data-control]");
    if (control) moved(control);
  }, { signal });
  root.addEventListener("change", (event) => {
    const target = event.target;
    const question = target.closest("[data-question]");
    if (question && target.type === "radio") {
      state.pending[question.dataset.question] = target.value;
      lab.queue.schedule(null);
      return;
    }
    const control = target.closest("[data-control]");
    if (!control) return;
    moved(control);
    // data-saving counts changes not yet in the ledger (tests and the curious can wait on it)
    root.dataset.saving = String(Number(root.dataset.saving || 0) + 1);
    queueMicrotask(async () => {
      try {
        await lab.settle();
      } finally {
        root.dataset.saving = String(Number(root.dataset.saving) - 1);
      }
      const act = control.closest("[data-instruments]")?.dataset.instruments;
      if (act) announce(root, act);
    });
  }, { signal });
  root.addEventListener("click", (event) => {
    const action = event.target.closest("[data-action]");
    if (!action || action.disabled) return;
    if (action.dataset.action === "lock") lock(lab, action.closest("[data-question]"));
    if (action.dataset.action === "restart") restart(lab);
    if (action.dataset.action === "share") shareSettings(action, lab.state);
    if (action.dataset.action === "hand-in") handInLab(lab);
  }, { signal });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") save(lab);
  }, { signal });
  // Leaving the page: keep the latest record synchronously; the next open folds it in.
  window.addEventListener("pagehide", () => {
    if (lab.record) stash(lab.attemptId, lab.record);
  }, { signal });
  window.addEventListener("storage", (event) => {
    if (event.key === LEDGER_KEY) takeOtherLocks(lab);
  }, { signal });
}

/**
 * Bring one lab to life.
 * @param {Element} root the `[data-lab]` element
 * @param {AbortSignal} signal aborted when the page is left (instant navigation)
 */
export async function mountLab(root, signal) {
  const lab = {
    root, signal, labId: root.dataset.lab, attemptId: null, record: null, defaults: {},
    state: { controls: readControls(root), answers: {}, pending: {}, failures_hit: [] },
    blocks: {},  // block key -> inner HTML as last rendered (lab-view.js showView)
  };
  // 1. Controls wait, visibly, until Python is ready; predictions can be locked meanwhile.
  html.dataset.pylabs = "loading";
  const returnThere = keepPlace(root, signal);
  const early = mountEarly(root, lab.labId, signal);
  early.restored.then(returnThere);
  if (!(await boot(root)) || signal.aborted) return;

  // 2. Resume the active attempt from the ledger, or start one; fold in what was locked before Python.
  await early.restored;
  await resume(lab, early);
  addLiveRegion(root);

  // 3. Render the state, then patch only what changed from here on, one render at a time.
  const after = afterRender(lab, returnThere);
  lab.render = (changed = null, full = false) => render(lab, changed, full, after);
  lab.queue = renderQueue(lab.render, {
    busy: (on) => { root.dataset.busy = String(on); },
    failed: (error) => {
      html.dataset.pylabs = "error";
      showNotice("danger", `The lab stopped responding: ${error.message}. Reload the page; your locked answers are saved.`, { id: "runtime" });
    },
  });
  lab.settle = async () => {
    await lab.queue.idle();
    await save(lab);
  };
  listen(lab);

  await applyLink(lab.labId, lab.state);
  await lab.render(null, true);
  if (signal.aborted) return;
  // The instruments answer from here; the attempt's first save goes on beside them (data-saving
  // counts it), and the early record is cleared once the ledger holds what it kept.
  const saved = save(lab);
  setBoot(root, "");
  html.dataset.pylabs = "ready";
  await saved;
  early.done();
  // 4. Warm the chart and math libraries while the student reads (not on the critical path).
  (window.requestIdleCallback || window.setTimeout)(() => { preloadCharts(); preloadMath(); });
}
