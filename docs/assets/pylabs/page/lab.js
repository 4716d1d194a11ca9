// Mount a pre-rendered lab: restore the attempt from the ledger, send the state to
// Python on every change (coalesced, so the page never queues stale work), patch the
// changed blocks, draw charts and math, and write the ledger through on every
// locked answer and decision.
import { call, startRuntime, stopListening } from "./runtime.js";
import { patchBlock, patchParts } from "./morph.js";
import { preloadCharts, scheduleCharts } from "./charts.js";
import { preloadMath, renderMath } from "./math.js";
import { LEDGER_KEY, archive, commit, newAttemptId, openLedger, stash } from "./store.js";
import { showNotice } from "./notices.js";
import { mountStrips } from "./strip.js";
import { keepPlace } from "./place.js";
// issue 9: the page before Python (early locks, a returning student's view) and the view cache.
import { mountEarly } from "./early.js";
import { writeView } from "./viewcache.js";
import { plural } from "./dom.js";
import { controlValue, readControls } from "./controls.js";

const html = document.documentElement;

const LINK_PREFIX = "set.";

/** Instrument settings carried by the page URL (`?set.a1_tokens=8192`), as raw strings. */
function linkParams() {
  // Own properties only (Object.fromEntries), so a name like "__proto__" is data, not a prototype.
  const params = new Map();
  for (const [key, value] of new URLSearchParams(window.location.search)) {
    if (key.startsWith(LINK_PREFIX)) params.set(key.slice(LINK_PREFIX.length).slice(0, 60), value.slice(0, 200));
  }
  return Object.fromEntries(params);
}

async function applyLink(labId, state) {
  const params = linkParams();
  if (!Object.keys(params).length) return;
  const locked = Object.keys(state.answers).length > 0;
  const { controls, ignored } = await call("link_settings", [labId, JSON.stringify(params), locked]);
  Object.assign(state.controls, controls);
  const applied = Object.keys(controls).length;
  const parts = [];
  if (applied) {
    parts.push(`${plural(applied, "instrument setting")} from the shared link ${applied === 1 ? "is" : "are"} applied; ` +
      "your own answers are unchanged.");
  }
  if (ignored.length) {
    parts.push(`${plural(ignored.length, "setting")} in the link ${ignored.length === 1 ? "was" : "were"} not valid ` +
      "for this lab and ignored.");
  }
  showNotice(ignored.length ? "warn" : "info", parts.join(" "), { id: "link" });
  const url = new URL(window.location.href);
  [...url.searchParams.keys()].filter((k) => k.startsWith(LINK_PREFIX)).forEach((k) => url.searchParams.delete(k));
  window.history.replaceState(window.history.state, "", url.href);
}

async function shareSettings(button, state) {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = "";
  for (const name of button.dataset.controls.split(" ")) url.searchParams.set(LINK_PREFIX + name, String(state.controls[name]));
  try {
    await navigator.clipboard.writeText(url.href);
    showNotice("success", "Link copied. It opens this lab with these instrument settings (never your answers).", { id: "share" });
  } catch {
    showNotice("info", `Copy this link to share these settings: ${url.href}`, { id: "share" });
  }
}

function announce(root, act) {
  const region = root.querySelector("[data-live-region]");
  const section = root.querySelector(`[data-instruments="${act}"]`);
  if (!region || !section) return;
  const metrics = [...section.querySelectorAll("[data-metric]")].slice(0, 4).map((metric) =>
    `${metric.querySelector(".pl-metric__label").textContent}: ${metric.querySelector(".pl-metric__value").textContent}`);
  const failures = [...section.querySelectorAll("[data-failure] .pl-callout__title")].map((t) => t.textContent);
  region.textContent = [...metrics, ...failures].join(". ");
}

function setBoot(root, text) {
  const boot = root.querySelector("[data-boot]");
  if (!boot) return;
  boot.textContent = text;
  boot.hidden = !text;
}

/**
 * Bring one lab to life.
 * @param {Element} root the `[data-lab]` element
 * @param {AbortSignal} signal aborted when the page is left (instant navigation)
 */
export async function mountLab(root, signal) {
  const labId = root.dataset.lab;
  const state = { controls: readControls(root), answers: {}, pending: {}, failures_hit: [] };
  let attemptId = null;
  let record = null;
  let queued = null;
  let running = false;

  // 1. Controls wait, visibly, until Python is ready; predictions can be locked meanwhile.
  html.dataset.pylabs = "loading";
  const returnThere = keepPlace(root, signal);
  const early = mountEarly(root, labId, signal);
  early.restored.then(returnThere);
  // block key -> inner HTML as last rendered, kept for the next visit's first paint; null once
  // only parts of the block were sent (the whole is then asked for when it is kept)
  const lastBlocks = {};
  const onProgress = ({ progress, step, steps }) => setBoot(root, `${progress} (${step} of ${steps})`);
  try {
    await startRuntime(onProgress);
  } catch (error) {
    html.dataset.pylabs = "error";
    setBoot(root, `The instruments cannot start: ${error.message}. You can still read this lab; ` +
      "its numbers above are the default scenario, computed when the site was built.");
    return;
  } finally {
    stopListening(onProgress);
  }
  if (signal.aborted) return;

  // 2. Resume the active attempt from the ledger, or start one; fold in what was locked before Python.
  await early.restored;
  const opened = await openLedger(labId);
  state.earlier = opened.earlier;
  const live = document.createElement("div");
  live.className = "pl-sr-only";
  live.setAttribute("aria-live", "polite");
  live.dataset.liveRegion = "";
  root.appendChild(live);
  if (opened.attempt) {
    attemptId = opened.attempt.id;
    Object.assign(state.controls, opened.attempt.controls);
    for (const [qid, answer] of Object.entries(opened.attempt.answers)) {
      state.answers[qid] = { choice: answer.choice, locked_at: answer.locked_at };
    }
    state.failures_hit = [...opened.attempt.failures_hit];
  } else {
    attemptId = early.attemptId || newAttemptId(labId);
  }
  early.fold(state);
  early.handOver();
  // Until its first lock, an attempt starts from the student's choices in earlier labs (Volume I:
  // the V1-00 track; the capstones: earlier decisions). Before a lock only the context can have been
  // moved, and a lock taken before Python keeps the context it was taken in.
  const defaults = opened.defaults || {};
  if (!Object.keys(state.answers).length) Object.assign(state.controls, defaults);

  const checkStrips = mountStrips(root, signal);

  // 3. Render the state, then patch only what changed from here on.
  async function render(changed = null, full = false) {
    const view = await call("update", [labId, JSON.stringify(state), changed, full]);
    if (signal.aborted) return;
    for (const [key, blockHtml] of Object.entries(view.blocks)) {
      const block = root.querySelector(`[data-block="${key}"]`);
      const hash = view.hashes[key];
      // A block the page already shows (the static default on a first visit) is left untouched.
      if (block && block.dataset.hash !== hash) {
        patchBlock(block, `<div class="pl-block" data-block="${key}" data-hash="${hash}">${blockHtml}</div>`);
      }
      lastBlocks[key] = blockHtml;
    }
    // A slider move: only the parts that changed. A page whose structure differs (it should not)
    // is rendered whole instead.
    let whole = false;
    for (const [key, ops] of Object.entries(view.parts || {})) {
      const block = root.querySelector(`[data-block="${key}"]`);
      if (!block) continue;
      if (patchParts(block, ops)) block.dataset.hash = view.hashes[key];
      else whole = true;
      lastBlocks[key] = null;
    }
    if (whole) {
      await render(null, true);
      return;
    }
    state.controls = view.controls;
    record = view.record;
    root.dataset.renders = String(Number(root.dataset.renders || 0) + 1);
    const reached = record.failures_active.filter((name) => !state.failures_hit.includes(name));
    if (reached.length) {
      state.failures_hit = [...state.failures_hit, ...reached].sort();
      save();
    }
    checkStrips();
    returnThere();
    // Numbers are on the page now; charts follow after the next frame (latest figures only).
    scheduleCharts(root, (error) => showNotice("warn", `Charts are unavailable: ${error.message}`, { id: "charts" }));
    renderMath(root).catch(() => {});
  }

  function schedule(changed) {
    queued = { changed: queued && queued.changed ? queued.changed : changed };
    root.dataset.busy = "true";
    if (!running) flush();
  }

  async function flush() {
    running = true;
    try {
      while (queued) {
        const job = queued;
        queued = null;
        await render(job.changed);
      }
    } catch (error) {
      html.dataset.pylabs = "error";
      showNotice("danger", `The lab stopped responding: ${error.message}. Reload the page; your locked answers are saved.`, { id: "runtime" });
    } finally {
      running = false;
      root.dataset.busy = "false";
    }
  }

  function save() {
    if (!record) return Promise.resolve();
    root.dataset.saving = String(Number(root.dataset.saving || 0) + 1);  // saves in flight (tests wait on it)
    const saved = commit(attemptId, record);
    saved.then(async () => writeView(labId, { build: root.dataset.build || "", attemptId, blocks: await wholeBlocks() }), () => {});
    return saved.catch((error) =>
      showNotice("danger", `Saving to the ledger failed: ${error.message}`, { id: "save" }))
      .finally(() => { root.dataset.saving = String(Number(root.dataset.saving) - 1); });
  }

  /** The page's blocks as last rendered, whole (asked of Python when only parts were sent). */
  async function wholeBlocks() {
    if (Object.values(lastBlocks).some((html) => html === null)) Object.assign(lastBlocks, await call("view", [labId]));
    return { ...lastBlocks };
  }

  async function lock(question) {
    const qid = question.dataset.question;
    const chosen = question.querySelector("input[type=radio]:checked");
    if (!chosen || state.answers[qid]) return;
    state.answers[qid] = { choice: chosen.value, locked_at: new Date().toISOString() };
    delete state.pending[qid];
    await render();
    await save();
    // The student reads the feedback first: it sits under the question and takes focus;
    // the next Tab reaches the instruments that the lock opened.
    const feedback = root.querySelector(`[data-feedback="${qid}"]`)
      || root.querySelector(`[data-question="${qid}"] .pl-question__status`);
    feedback?.focus({ preventScroll: true });
    feedback?.scrollIntoView({ block: "nearest" });
  }

  async function restart() {
    const ok = window.confirm("Start this lab again? Your current attempt stays in the Design Ledger.");
    if (!ok) return;
    await save();
    await archive(attemptId);
    attemptId = newAttemptId(labId);
    state.controls = { ...defaults };
    state.answers = {};
    state.pending = {};
    state.failures_hit = [];
    await render(null, true);
    await save();
    root.querySelector("[data-act]")?.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // 4. One set of delegated listeners for the whole lab.
  root.addEventListener("input", (event) => {
    const control = event.target.closest("[data-control]");
    if (!control) return;
    state.controls[control.dataset.control] = controlValue(root, control);
    schedule(control.dataset.control);
  }, { signal });
  root.addEventListener("change", (event) => {
    const target = event.target;
    const question = target.closest("[data-question]");
    if (question && target.type === "radio") {
      state.pending[question.dataset.question] = target.value;
      schedule(null);
      return;
    }
    const control = target.closest("[data-control]");
    if (!control) return;
    state.controls[control.dataset.control] = controlValue(root, control);
    schedule(control.dataset.control);
    // data-saving counts changes not yet in the ledger (tests and the curious can wait on it)
    root.dataset.saving = String(Number(root.dataset.saving || 0) + 1);
    queueMicrotask(async () => {
      try {
        await flushThenSave();
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
    if (action.dataset.action === "lock") lock(action.closest("[data-question]"));
    if (action.dataset.action === "restart") restart();
    if (action.dataset.action === "share") shareSettings(action, state);
    if (action.dataset.action === "hand-in") handInLab();
  }, { signal });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "hidden") save();
  }, { signal });
  // Leaving the page: keep the latest record synchronously; the next open folds it in.
  window.addEventListener("pagehide", () => {
    if (record) stash(attemptId, record);
  }, { signal });

  // Another tab locked answers in this attempt: take them (a lock never changes).
  window.addEventListener("storage", async (event) => {
    if (event.key !== LEDGER_KEY) return;
    const opened = await openLedger(labId);
    if (!opened.attempt || opened.attempt.id !== attemptId) return;
    let changed = false;
    for (const [qid, answer] of Object.entries(opened.attempt.answers)) {
      if (!state.answers[qid]) {
        state.answers[qid] = { choice: answer.choice, locked_at: answer.locked_at };
        changed = true;
      }
    }
    if (changed) schedule(null);
  }, { signal });

  // issue 21: hand in the attempt as the ledger holds it once every change is saved
  async function handInLab() {
    await flushThenSave();
    const { handIn } = await import("./handin.js");
    await handIn({ kind: "lab", labId, title: `Hand in: ${document.querySelector("article h1")?.textContent.replace("¶", "").trim() || labId}` });
  }

  async function flushThenSave() {
    while (running || queued) await new Promise((resolve) => setTimeout(resolve, 10));
    await save();
  }

  await applyLink(labId, state);
  await render(null, true);
  if (signal.aborted) return;
  // The instruments answer from here; the attempt's first save goes on beside them (data-saving
  // counts it), and the early record is cleared once the ledger holds what it kept.
  const saved = save();
  setBoot(root, "");
  html.dataset.pylabs = "ready";
  await saved;
  early.done();
  // 5. Warm the chart and math libraries while the student reads (not on the critical path).
  (window.requestIdleCallback || window.setTimeout)(() => { preloadCharts(); preloadMath(); });
}
