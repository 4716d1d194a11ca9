// Inlined after each lab by build_scripts/site_content.py (issue 9): a prediction can be chosen
// and locked from the first paint, before the shell's modules have loaded. It writes the same
// record the shell's early.js writes (store.js EARLY_KEY), and stands down once early.js mounts.
(() => {
  const root = document.currentScript && document.currentScript.previousElementSibling;
  if (!root || !root.dataset.lab) return;
  const key = "mlsys-labs:early:" + new URL(root.dataset.siteRoot || "./", location.href).pathname;
  const live = () => root.dataset.early !== "mounted";
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
      entry.answers[question.dataset.question] = { choice: chosen.value, locked_at: new Date().toISOString() };
      all[root.dataset.lab] = entry;
      localStorage.setItem(key, JSON.stringify(all));
    } catch (error) {
      // no storage: the shell keeps the lock in this tab
    }
    (window.__pylabsEarlyLocks = window.__pylabsEarlyLocks || {})[question.dataset.question] = chosen.value;
    question.dataset.locked = "true";
    question.querySelectorAll("input[type=radio]").forEach((radio) => { radio.disabled = true; });
    button.disabled = true;
    button.textContent = "Locked";
  });
})();
