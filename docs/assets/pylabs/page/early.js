// A lab page before Python is ready:
//  - a returning student's page is painted from the view cache (their locked answers, unlocked
//    acts and settings), the lab hidden only for the few milliseconds IndexedDB takes;
//  - a prediction can be chosen and locked at once: the lock is written synchronously to
//    storage (store.js EARLY_KEY), survives a reload, and is folded into the ledger and answered
//    with feedback when Python is ready;
//  - the instruments stay inactive until both the lock and Python are there, and say which
//    one they wait for.
// lab.js hands over to its own listeners when Python is ready (`handOver`).
import { patchBlock } from "./morph.js";
import { clearEarly, looseAttempt, newAttemptId, readEarly, writeEarly } from "./store.js";
import { readView } from "./viewcache.js";
import { reserveCharts } from "./charts.js";

const RESTORE_WAIT_MS = 400;
let LETTERS = 0; // the ledger version whose letters this page's options carry (data-letters)
const WAITING_FOR_PYTHON = "Your prediction is locked and saved. The instruments start as soon as Python " +
  "has loaded (a few seconds on a first visit).";

/** Everything interactive that must wait for Python (question radios excepted). */
export function deactivate(root) {
  root.querySelectorAll("[data-control], [data-action=lock], [data-action=restart], [data-action=share]")
    .forEach((element) => { element.disabled = true; });
}

function enableLock(question) {
  const button = question.querySelector("[data-action=lock]");
  const chosen = question.querySelector("input[type=radio]:checked");
  if (button && question.dataset.locked !== "true") button.disabled = !chosen;
}

function showLocked(root, question, choice) {
  question.dataset.locked = "true";
  question.querySelectorAll("input[type=radio]").forEach((radio) => {
    radio.checked = radio.value === choice;
    radio.disabled = true;
  });
  const button = question.querySelector("[data-action=lock]");
  if (button) {
    button.disabled = true;
    button.textContent = "Locked";
  }
  // The context is fixed by the first lock, as Python will render it.
  root.querySelectorAll('[data-block="context"] [data-control]').forEach((input) => { input.disabled = true; });
  root.querySelector("[data-context-fixed]")?.removeAttribute("hidden");
  const act = question.closest("[data-act]");
  const waiting = act?.querySelector("[data-instruments] .pl-instruments__lock");
  if (waiting && question.dataset.kind === "prediction") waiting.textContent = WAITING_FOR_PYTHON;
  if (!question.querySelector("[data-early-status]")) {
    const status = document.createElement("p");
    status.className = "pl-question__early";
    status.dataset.earlyStatus = "";
    status.setAttribute("role", "status");
    status.textContent = `You chose ${choice}. Locked and saved; your feedback appears when Python is ready.`;
    question.appendChild(status);
  }
}

async function restore(root, labId, attemptId) {
  const build = root.dataset.build || "";
  const blocks = await Promise.race([
    readView(labId, { build, attemptId }),
    new Promise((resolve) => setTimeout(() => resolve(null), RESTORE_WAIT_MS)),
  ]);
  if (!blocks) return false;
  for (const [key, html] of Object.entries(blocks)) {
    const block = root.querySelector(`[data-block="${key}"]`);
    if (block) patchBlock(block, `<div class="pl-block" data-block="${key}">${html}</div>`);
  }
  return true;
}

/**
 * Make the static lab usable before Python.
 * @param {Element} root the `[data-lab]` element
 * @param {AbortSignal} signal
 * @returns {{attemptId: string|null, restored: Promise<boolean>, fold: Function, handOver: Function, done: Function}}
 */
export function mountEarly(root, labId, signal) {
  LETTERS = Number(root.dataset.letters);
  const known = looseAttempt(labId);
  const stored = readEarly(labId);
  const early = {
    active: true,
    attemptId: known?.attemptId || stored?.attemptId || null,
    answers: { ...(stored?.answers || {}) },
  };
  // Locks taken by the page's inline script (inline/early_inline.js) when storage refused them.
  for (const [qid, choice] of Object.entries(window.__pylabsEarlyLocks || {})) {
    early.answers[qid] ??= { choice, locked_at: new Date().toISOString(), letters: LETTERS };
  }
  root.dataset.early = "mounted"; // the inline script stands down

  function paintLocks() {
    deactivate(root);
    for (const question of root.querySelectorAll("[data-question]")) {
      const answer = early.answers[question.dataset.question];
      if (answer) showLocked(root, question, answer.choice);
      else enableLock(question);
    }
    reserveCharts(root);
  }

  // 1. A returning student: paint their last page (hidden only while IndexedDB answers).
  let restored = Promise.resolve(false);
  if (known) {
    root.dataset.restoring = "true";
    restored = restore(root, labId, known.attemptId)
      .catch(() => false)
      .then((ok) => {
        if (ok && early.active) paintLocks();
        delete root.dataset.restoring;
        return ok;
      });
  }
  paintLocks();

  // 2. Choose and lock while Python boots.
  function lockEarly(question) {
    const qid = question.dataset.question;
    const chosen = question.querySelector("input[type=radio]:checked");
    if (!chosen || early.answers[qid] || question.dataset.locked === "true") return;
    early.attemptId ||= newAttemptId(labId);
    early.answers[qid] = { choice: chosen.value, locked_at: new Date().toISOString(), letters: LETTERS };
    writeEarly(labId, { attemptId: early.attemptId, answers: early.answers });
    showLocked(root, question, chosen.value);
  }
  root.addEventListener("change", (event) => {
    if (!early.active) return;
    const question = event.target.closest("[data-question]");
    if (question && event.target.type === "radio") enableLock(question);
  }, { signal });
  root.addEventListener("click", (event) => {
    if (!early.active) return;
    const action = event.target.closest("[data-action=lock]");
    if (action && !action.disabled) lockEarly(action.closest("[data-question]"));
  }, { signal });

  return {
    get attemptId() { return early.attemptId; },
    restored,
    /** Add the early answers (and a chosen, unlocked option) to the state Python will render. */
    fold(state) {
      for (const [qid, answer] of Object.entries(early.answers)) {
        // an answer kept from a page of an earlier build says nothing of its letters: version 1
        // (Python reads it with today's letters, pylabs/ledger_letters.py)
        if (!state.answers[qid]) {
          state.answers[qid] = { choice: answer.choice, locked_at: answer.locked_at, letters: answer.letters || 1 };
        }
      }
      for (const question of root.querySelectorAll("[data-question]")) {
        const chosen = question.querySelector("input[type=radio]:checked");
        const qid = question.dataset.question;
        if (chosen && !state.answers[qid]) state.pending[qid] = chosen.value;
      }
      return Object.keys(early.answers).length > 0;
    },
    /** Python is ready: lab.js's own listeners take over. */
    handOver() { early.active = false; },
    /** The ledger now holds the early answers. */
    done() { if (Object.keys(early.answers).length) clearEarly(labId); },
  };
}
