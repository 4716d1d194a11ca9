// store.js: the active attempt (the shared vector), the early record, progress, the stash.
import { test, vector, equal, assert } from "./harness.js";
import {
  EARLY_KEY, LEDGER_KEY, PENDING_KEY, activeAttempt, clearEarly, looseAttempt, newAttemptId, progressByLab,
  readEarly, readRaw, stash, writeEarly,
} from "../../docs/assets/pylabs/page/store.js";

vector("store.js activeAttempt", "active_attempt.json", (c, data) => {
  const attempt = activeAttempt(c.ledger, c.pending, data.lab);
  equal(attempt ? attempt.id : null, c.active);
});

vector("store.js looseAttempt", "active_attempt.json", (c, data) => {
  localStorage.setItem(LEDGER_KEY, JSON.stringify(c.ledger));
  if (c.pending) localStorage.setItem(PENDING_KEY, JSON.stringify(c.pending));
  const attempt = looseAttempt(data.lab);
  equal(attempt ? attempt.attemptId : null, c.active);
});

test("looseAttempt gives the stashed record's answers and controls", () => {
  const record = { lab: "v2_02", answers: { a1_predict: { choice: "B" } }, controls: { a1_tokens: 8192 } };
  localStorage.setItem(PENDING_KEY, JSON.stringify({ attemptId: "v2_02-new00", record, at: "2026-11-05T10:00:00.000Z" }));
  equal(looseAttempt("v2_02"), { attemptId: "v2_02-new00", answers: record.answers, controls: record.controls });
});

test("an unreadable ledger gives no loose attempt and no progress", () => {
  localStorage.setItem(LEDGER_KEY, "{not json");
  equal(looseAttempt("v2_02"), null);
  equal(progressByLab(), {});
});

test("readRaw returns the stored text and marks storage usable", () => {
  localStorage.setItem(LEDGER_KEY, "{}");
  equal(readRaw(), "{}");
  equal(document.documentElement.dataset.ledger, "ok");
});

test("progress: a complete attempt wins over one in progress, whatever their order", () => {
  localStorage.setItem(LEDGER_KEY, JSON.stringify({ attempts: {
    "v2_02-a": { lab: "v2_02", complete: true }, "v2_02-b": { lab: "v2_02", complete: false },
    "v2_03-a": { lab: "v2_03", complete: false } } }));
  equal(progressByLab(), { v2_02: "complete", v2_03: "in-progress" });
});

test("stash keeps the latest record under the pending key, synchronously", () => {
  const text = stash("v2_02-abcd1", { lab: "v2_02" });
  equal(localStorage.getItem(PENDING_KEY), text);
  equal(JSON.parse(text).attemptId, "v2_02-abcd1");
});

test("early answers are kept per lab and cleared once the ledger holds them", () => {
  const entry = { attemptId: "v2_02-abcd1", answers: { a1_predict: { choice: "A", locked_at: "2026-11-05T10:00:00.000Z" } } };
  assert(writeEarly("v2_02", entry));
  writeEarly("v2_03", { attemptId: "", answers: {} });
  equal(readEarly("v2_02"), entry);
  clearEarly("v2_02");
  equal(readEarly("v2_02"), null);
  equal(Object.keys(JSON.parse(localStorage.getItem(EARLY_KEY))), ["v2_03"]);
  clearEarly("v2_03");
  equal(localStorage.getItem(EARLY_KEY), null);
});

test("an early entry of the wrong shape is not read", () => {
  localStorage.setItem(EARLY_KEY, JSON.stringify({ v2_02: { attemptId: 7, answers: {} } }));
  equal(readEarly("v2_02"), null);
});

test("a new attempt id names its lab and passes the ledger's pattern", () => {
  const id = newAttemptId("v2_02");
  assert(/^v[12]_\d{2}-[A-Za-z0-9-]{4,48}$/.test(id), id);
  assert(id.startsWith("v2_02-") && id !== newAttemptId("v2_02"));
});
