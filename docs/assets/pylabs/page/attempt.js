// The lab's attempt in the Design Ledger: resumed when the lab mounts, written through on every
// lock and decision, restarted, handed in, and kept in step with another tab's locks.
import { call } from "./runtime.js";
import { archive, commit, newAttemptId, openLedger } from "./store.js";
import { showNotice } from "./notices.js";
import { writeView } from "./viewcache.js";

/**
 * Resume the lab's active attempt from the ledger, or start one, and fold in what was locked before
 * Python (early.js). Until its first lock an attempt starts from the student's choices in earlier
 * labs (Volume I: the V1-00 track; the capstones: earlier decisions); before a lock only the context
 * can have been moved, and a lock taken before Python keeps the context it was taken in.
 * @param {object} lab the mounted lab (lab.js)
 * @param {{attemptId: string|null, fold: Function, handOver: Function}} early
 */
export async function resume(lab, early) {
  const { state } = lab;
  const opened = await openLedger(lab.labId);
  state.earlier = opened.earlier;
  if (opened.attempt) {
    lab.attemptId = opened.attempt.id;
    Object.assign(state.controls, opened.attempt.controls);
    for (const [qid, answer] of Object.entries(opened.attempt.answers)) {
      state.answers[qid] = { choice: answer.choice, locked_at: answer.locked_at };
    }
    state.failures_hit = [...opened.attempt.failures_hit];
  } else {
    lab.attemptId = early.attemptId || newAttemptId(lab.labId);
  }
  early.fold(state);
  early.handOver();
  lab.defaults = opened.defaults || {};
  if (!Object.keys(state.answers).length) Object.assign(state.controls, lab.defaults);
}

/**
 * Write the latest record to the ledger, then keep the page's view for the next visit's first paint.
 * `data-saving` counts saves in flight (tests wait on it).
 */
export function save(lab) {
  const { root } = lab;
  if (!lab.record) return Promise.resolve();
  root.dataset.saving = String(Number(root.dataset.saving || 0) + 1);
  const saved = commit(lab.attemptId, lab.record);
  saved.then(async () => writeView(lab.labId, { build: root.dataset.build || "", attemptId: lab.attemptId,
    blocks: await wholeBlocks(lab) }), () => {});
  return saved.catch((error) =>
    showNotice("danger", `Saving to the ledger failed: ${error.message}`, { id: "save" }))
    .finally(() => { root.dataset.saving = String(Number(root.dataset.saving) - 1); });
}

/** The page's blocks as last rendered, whole (asked of Python when only parts were sent). */
async function wholeBlocks(lab) {
  if (Object.values(lab.blocks).some((html) => html === null)) Object.assign(lab.blocks, await call("view", [lab.labId]));
  return { ...lab.blocks };
}

/** Lock a question's chosen answer, render, save, and take the student to its feedback. */
export async function lock(lab, question) {
  const { root, state } = lab;
  const qid = question.dataset.question;
  const chosen = question.querySelector("input[type=radio]:checked");
  if (!chosen || state.answers[qid]) return;
  state.answers[qid] = { choice: chosen.value, locked_at: new Date().toISOString() };
  delete state.pending[qid];
  await lab.render();
  await save(lab);
  // The student reads the feedback first: it sits under the question and takes focus;
  // the next Tab reaches the instruments that the lock opened.
  const feedback = root.querySelector(`[data-feedback="${qid}"]`)
    || root.querySelector(`[data-question="${qid}"] .pl-question__status`);
  feedback?.focus({ preventScroll: true });
  feedback?.scrollIntoView({ block: "nearest" });
}

/** Start the lab again: the current attempt is archived (it stays in the ledger) and a new one begins. */
export async function restart(lab) {
  const ok = window.confirm("Start this lab again? Your current attempt stays in the Design Ledger.");
  if (!ok) return;
  await save(lab);
  await archive(lab.attemptId);
  lab.attemptId = newAttemptId(lab.labId);
  Object.assign(lab.state, { controls: { ...lab.defaults }, answers: {}, pending: {}, failures_hit: [] });
  await lab.render(null, true);
  await save(lab);
  lab.root.querySelector("[data-act]")?.scrollIntoView({ behavior: "smooth", block: "start" });
}

/** Hand in the attempt as the ledger holds it, once every change is rendered and saved. */
export async function handInLab(lab) {
  await lab.settle();
  const { handIn } = await import("./handin.js");
  const title = document.querySelector("article h1")?.textContent.replace("¶", "").trim() || lab.labId;
  await handIn({ kind: "lab", labId: lab.labId, title: `Hand in: ${title}` });
}

/** Another tab locked answers in this attempt: take them (a lock never changes). */
export async function takeOtherLocks(lab) {
  const opened = await openLedger(lab.labId);
  if (!opened.attempt || opened.attempt.id !== lab.attemptId) return;
  let changed = false;
  for (const [qid, answer] of Object.entries(opened.attempt.answers)) {
    if (!lab.state.answers[qid]) {
      lab.state.answers[qid] = { choice: answer.choice, locked_at: answer.locked_at };
      changed = true;
    }
  }
  if (changed) lab.queue.schedule(null);
}
