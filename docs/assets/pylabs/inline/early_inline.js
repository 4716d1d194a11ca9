// Inlined after each lab by build_scripts/site_content.py (embedded_lab): a prediction can be chosen
// and locked from the first paint, before the shell's modules have loaded. It writes the same
// record the shell's early.js writes (store.js EARLY_KEY), and stands down once early.js mounts.
// On a first visit it also starts the Python worker (worker_start.js, at the top of <head>).
(() => {
  if (window.__pylabsStartWorker) window.__pylabsStartWorker();
  const root = document.currentScript && document.currentScript.previousElementSibling;
  if (!root || !root.dataset.lab) return;
  const site = new URL(root.dataset.siteRoot || "./", location.href).pathname;
  const key = "mlsys-labs:early:" + site;
  const live = () => root.dataset.early !== "mounted";
  // A lock fixes the context (render.py context_picker): shown at once, so nothing moves later.
  const fixContext = () => {
    root.querySelectorAll('[data-block="context"] [data-control]').forEach((input) => { input.disabled = true; });
    const fixed = root.querySelector("[data-context-fixed]");
    if (fixed) fixed.hidden = false;
  };
  // The active attempt: store.js activeAttempt, put here by the build (site_content.early_inline), so
  // the rule is written once; tests/fixtures/active_attempt.json holds it, and pylabs/ledger.py, to the same cases.
  /* activeAttempt */
  // A returning student whose attempt has a locked answer: the page the shell restores shows the
  // context fixed, so show it before the first paint (the same records store.js looseAttempt reads).
  try {
    const lab = root.dataset.lab;
    const answered = (answers) => Boolean(answers && Object.keys(answers).length);
    const early = (JSON.parse(localStorage.getItem(key) || "{}") || {})[lab];
    const pending = JSON.parse(localStorage.getItem("mlsys-labs:pending:" + site) || "null");
    const ledger = JSON.parse(localStorage.getItem("mlsys-labs:ledger:" + site) || "{}") || {};
    const active = activeAttempt(ledger, pending, lab);
    if (answered(early && early.answers) || answered(active && active.answers)) fixContext();
  } catch {
    // unreadable storage: the shell reports it; Python renders the context as it is
  }
  root.addEventListener("change", (event) => {
    const question = event.target.closest("[data-question]");
    if (!live() || !question || question.dataset.locked === "true") return;
    const button = question.querySelector("[data-action=lock]");
    if (button) button.disabled = !question.querySelector("input[type=radio]:checked");
  });
  root.addEventListener("click", (event) => {
    const button = event.target.closest("[data-action=lock]");
    const question = button && button.closest("[data-question]");
    const chosen = question && question.querySelector("input[type=radio]:checked");
    if (!live() || !chosen || button.disabled || question.dataset.locked === "true") return;
    try {
      const all = JSON.parse(localStorage.getItem(key) || "{}");
      const entry = all[root.dataset.lab] || { attemptId: "", answers: {} };
      entry.answers[question.dataset.question] = {
        choice: chosen.value, locked_at: new Date().toISOString(), letters: Number(root.dataset.letters),
      };
      all[root.dataset.lab] = entry;
      localStorage.setItem(key, JSON.stringify(all));
    } catch {
      // no storage: the shell keeps the lock in this tab
    }
    window.__pylabsEarlyLocks = window.__pylabsEarlyLocks || {};
    window.__pylabsEarlyLocks[question.dataset.question] = chosen.value;
    question.dataset.locked = "true";
    question.querySelectorAll("input[type=radio]").forEach((radio) => { radio.disabled = true; });
    button.disabled = true;
    button.textContent = "Locked";
    fixContext();
  });
})();
