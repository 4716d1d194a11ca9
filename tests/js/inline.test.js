// inline/early_inline.js, the script inlined after each lab: it fixes the context before the first
// paint when the active attempt (the shared vector's rule) has a locked answer, and records locks
// taken before the shell's modules have loaded.
import { test, vector, equal, assert, fixture, fixtures } from "./harness.js";

// The script as the build inlines it (site_content.early_inline: store.js's activeAttempt put in).
const SOURCE = fixtures.earlyInline;
const SITE = new URL("./", location.href).pathname;  // the lab's data-site-root is "./"
const ANSWER = { a1_predict: { choice: "A", locked_at: "2026-11-05T10:00:00.000Z" } };
const LAB = `<div data-lab="v2_02" data-site-root="./" data-letters="2">
  <div data-block="context"><input type="radio" data-control="context" value="a"></div>
  <p data-context-fixed hidden>Fixed.</p>
  <div data-question="a1_predict" data-locked="false">
    <input type="radio" name="q" value="A"><input type="radio" name="q" value="B">
    <button type="button" data-action="lock" disabled>Lock</button>
  </div>
</div>`;

/** Mount the lab with the inline script after it, as the build writes the page; return the lab. */
async function mount() {
  const main = fixture(LAB);
  const script = document.createElement("script");
  script.textContent = SOURCE;
  main.appendChild(script);  // runs now, with document.currentScript set
  return main.querySelector("[data-lab]");
}

function store(c, answeredId) {
  const ledger = structuredClone(c.ledger);
  for (const attempt of Object.values(ledger.attempts)) attempt.answers = attempt.id === answeredId ? ANSWER : {};
  localStorage.setItem(`mlsys-labs:ledger:${SITE}`, JSON.stringify(ledger));
  if (c.pending) {
    const pending = structuredClone(c.pending);
    pending.record.answers = pending.attemptId === answeredId ? ANSWER : {};
    localStorage.setItem(`mlsys-labs:pending:${SITE}`, JSON.stringify(pending));
  }
}

const fixed = (lab) => !lab.querySelector("[data-context-fixed]").hidden;

// Run twice per case: only the vector's active attempt answered (the context is fixed unless there
// is none), then every attempt but it answered (never fixed): so the script chose exactly that one.
vector("inline early_inline.js", "active_attempt.json", async (c) => {
  const ids = [...new Set([...Object.keys(c.ledger.attempts), ...(c.pending ? [c.pending.attemptId] : [])])];
  store(c, c.active);
  equal(fixed(await mount()), c.active !== null, "only the active attempt answered");
  for (const other of ids.filter((id) => id !== c.active)) {
    localStorage.clear();
    store(c, other);
    equal(fixed(await mount()), false, `only ${other} answered`);
  }
});

test("a lock before the shell is kept in the early record and fixes the context", async () => {
  const lab = await mount();
  lab.querySelector('input[value="B"]').click();
  lab.querySelector('input[value="B"]').dispatchEvent(new Event("change", { bubbles: true }));
  const button = lab.querySelector("[data-action=lock]");
  assert(!button.disabled, "choosing enables Lock");
  button.click();
  const early = JSON.parse(localStorage.getItem(`mlsys-labs:early:${SITE}`)).v2_02;
  equal(early.answers.a1_predict.choice, "B");
  equal(early.answers.a1_predict.letters, 2);
  equal(lab.querySelector("[data-question]").dataset.locked, "true");
  assert(fixed(lab) && lab.querySelector("[data-control]").disabled, "the context is fixed");
});

test("the inline script stands down once the shell has mounted the lab", async () => {
  const lab = await mount();
  lab.dataset.early = "mounted";
  lab.querySelector('input[value="A"]').checked = true;
  lab.querySelector("[data-action=lock]").disabled = false;
  lab.querySelector("[data-action=lock]").click();
  equal(localStorage.getItem(`mlsys-labs:early:${SITE}`), null);
  equal(lab.querySelector("[data-question]").dataset.locked, "false");
});
