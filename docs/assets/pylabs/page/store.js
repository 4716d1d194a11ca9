// The Design Ledger in localStorage: one key scoped by the site's base path.
// Every write is read–merge–write under a Web Lock, so tabs never overwrite each
// other; validation and merging happen in Python (pylabs.ledger). Content that
// cannot be read is moved to the quarantine key and reported, never dropped.
// When storage is unavailable the ledger lives in memory for this tab, and the
// page says so.
import { BASE, call } from "./runtime.js";
import { showNotice } from "./notices.js";

export const LEDGER_KEY = `mlsys-labs:ledger:${BASE.pathname}`;
export const QUARANTINE_KEY = `mlsys-labs:quarantine:${BASE.pathname}`;
// The latest record of the open attempt, written synchronously so that a reload or a closed
// tab in the middle of an (asynchronous) ledger write loses nothing; folded in on next open.
export const PENDING_KEY = `mlsys-labs:pending:${BASE.pathname}`;

let memory = null; // the ledger while storage is unavailable
let available = null;

function markUnavailable(error) {
  if (available === false) return;
  available = false;
  document.documentElement.dataset.ledger = "unavailable";
  const reason = error && error.name === "QuotaExceededError" ? "its storage is full" : "it does not allow this site to store data";
  showNotice("danger",
    `Your work is not being saved: this browser says ${reason}. The lab keeps working in this tab; ` +
    "export your ledger from the Design Ledger page before you close it.", { id: "storage" });
}

/**
 * The stored ledger text (null when there is none).
 * @returns {string|null}
 */
export function readRaw() {
  if (available === false) return memory;
  try {
    const raw = window.localStorage.getItem(LEDGER_KEY);
    available = true;
    document.documentElement.dataset.ledger = "ok";
    return raw;
  } catch (error) {
    markUnavailable(error);
    return memory;
  }
}

function writeRaw(raw) {
  memory = raw;
  if (available === false) return false;
  try {
    window.localStorage.setItem(LEDGER_KEY, raw);
    return true;
  } catch (error) {
    markUnavailable(error);
    return false;
  }
}

/**
 * The quarantined items: [{at, reason, raw}].
 * @returns {Array<{at: string, reason: string, raw: string}>}
 */
export function readQuarantine() {
  let raw = null;
  try {
    raw = window.localStorage.getItem(QUARANTINE_KEY);
  } catch {
    return [];
  }
  if (!raw) return [];
  try {
    const items = JSON.parse(raw);
    return Array.isArray(items) ? items : [{ at: "", reason: "unreadable quarantine", raw }];
  } catch {
    return [{ at: "", reason: "unreadable quarantine", raw }];
  }
}

function quarantine(items) {
  if (!items || !items.length) return;
  const at = new Date().toISOString();
  const all = readQuarantine().concat(items.map((item) => ({ at, ...item })));
  try {
    window.localStorage.setItem(QUARANTINE_KEY, JSON.stringify(all));
  } catch (error) {
    markUnavailable(error);
  }
  showNotice("warn",
    `Part of your saved ledger could not be read and was set aside, not deleted (${items[0].reason}). ` +
    "The Design Ledger page lets you download it.", { id: "quarantine" });
}

function withLock(task) {
  if (navigator.locks && navigator.locks.request) return navigator.locks.request(LEDGER_KEY, task);
  return task();
}

/**
 * Keep the latest record synchronously (no Python needed): the page may be leaving.
 * @param {string} attemptId
 * @param {object} record
 * @returns {string|null} what was stored, to recognise it later
 */
export function stash(attemptId, record) {
  const text = JSON.stringify({ attemptId, record, at: new Date().toISOString() });
  try {
    window.localStorage.setItem(PENDING_KEY, text);
    return text;
  } catch {
    return null; // storage unavailable: already reported, the ledger lives in memory
  }
}

function takeStash() {
  try {
    const text = window.localStorage.getItem(PENDING_KEY);
    return text ? { text, ...JSON.parse(text) } : null;
  } catch {
    return null;
  }
}

function clearStash(text) {
  try {
    if (window.localStorage.getItem(PENDING_KEY) === text) window.localStorage.removeItem(PENDING_KEY);
  } catch {
    // nothing to clear
  }
}

/** Fold in the record a page stashed while leaving (its save may not have landed). Call under withLock. */
async function foldStashed() {
  const pending = takeStash();
  if (pending && pending.attemptId && pending.record) {
    const folded = await call("ledger_commit", [readRaw(), pending.attemptId, JSON.stringify(pending.record), pending.at]);
    quarantine(folded.quarantined);
    writeRaw(folded.raw);
    clearStash(pending.text);
  }
}

/**
 * The ledger page's first read: what a lab page stashed while leaving is folded in first, so a
 * lock taken just before opening the ledger is in its view and its export.
 * @returns {Promise<void>}
 */
export function settleLedger() {
  return withLock(foldStashed);
}

/**
 * Validate the stored ledger and return the lab's active attempt (after folding in a record
 * the previous page stashed while leaving).
 * @param {string} labId
 * @returns {Promise<{attempt: object|null}>}
 */
export function openLedger(labId) {
  return withLock(async () => {
    await foldStashed();
    const raw = readRaw();
    const result = await call("ledger_open", [raw, labId]);
    if (result.quarantined.length) {
      quarantine(result.quarantined);
      writeRaw(result.raw);
    }
    return result;
  });
}

async function update(op, args) {
  return withLock(async () => {
    const result = await call(op, [readRaw(), ...args]);
    quarantine(result.quarantined);
    writeRaw(result.raw);
    document.dispatchEvent(new CustomEvent("pylabs:ledger-saved"));
    return result;
  });
}

/**
 * Fold a lab's record into its attempt (write-through).
 * @param {string} attemptId
 * @param {object} record the `record` of a bridge update
 */
export async function commit(attemptId, record) {
  const stashed = stash(attemptId, record);
  const result = await update("ledger_commit", [attemptId, JSON.stringify(record), new Date().toISOString()]);
  if (stashed) clearStash(stashed);
  return result;
}

/**
 * Mark an attempt as archived (restart keeps it in the ledger).
 * @param {string} attemptId
 */
export function archive(attemptId) {
  return update("ledger_restart", [attemptId, new Date().toISOString()]);
}

/**
 * Preview an import: validated and merged in Python, nothing written.
 * @param {string} text the file's contents
 * @returns {Promise<{ok: boolean, error?: string, added?: string[], changed?: string[], rejected?: string[]}>}
 */
export async function previewImport(text) {
  return call("ledger_import", [readRaw(), text]);
}

/**
 * Merge an imported file into the ledger (re-validated against the latest stored ledger).
 * @param {string} text
 */
export function applyImport(text) {
  return withLock(async () => {
    const result = await call("ledger_import", [readRaw(), text]);
    if (!result.ok) return result;
    quarantine(result.quarantined);
    writeRaw(result.raw);
    return result;
  });
}

/**
 * Keep the student's name or ID in the ledger (validated in Python: trimmed, at most 100
 * characters, no control characters).
 * @param {string} name as the student typed it
 * @returns {Promise<{ok: boolean, error?: string, student?: {name: string, updated_at: string}}>}
 */
export function setStudent(name) {
  return withLock(async () => {
    const result = await call("ledger_student", [readRaw(), name, new Date().toISOString()]);
    if (!result.ok) return result;
    quarantine(result.quarantined);
    writeRaw(result.raw);
    return result;
  });
}

/**
 * The student's name as stored, read loosely for display (null when there is none).
 * @returns {string|null}
 */
export function storedStudent() {
  try {
    const name = JSON.parse(readRaw() || "{}").student?.name;
    return typeof name === "string" ? name : null;
  } catch {
    return null;
  }
}

/** Remove the ledger (the page asks for confirmation first). */
export function clearLedger() {
  memory = null;
  try {
    window.localStorage.removeItem(LEDGER_KEY);
  } catch (error) {
    markUnavailable(error);
  }
}

/**
 * A new attempt id: `<lab>-<time base 36>-<random>`.
 * @param {string} labId
 */
export function newAttemptId(labId) {
  const random = Math.random().toString(36).slice(2, 8);
  return `${labId}-${Date.now().toString(36)}-${random}`;
}

/**
 * Read-only progress per lab, parsed loosely for display (the ledger is validated on every write).
 * @returns {Record<string, "not-started"|"in-progress"|"complete">}
 */
export function progressByLab() {
  const progress = {};
  try {
    const doc = JSON.parse(readRaw() || "{}");
    for (const attempt of Object.values(doc.attempts || {})) {
      const status = attempt.complete ? "complete" : "in-progress";
      if (progress[attempt.lab] !== "complete") progress[attempt.lab] = status;
    }
  } catch {
    // An unreadable ledger shows as not started here; the lab pages quarantine it.
  }
  return progress;
}

// ---- before Python ---------------------------------------------------------
// Answers locked while Python boots are written here synchronously, one entry per lab
// ({attemptId, answers: {qid: {choice, locked_at}}}), and folded into the ledger (validated in
// Python) as soon as it is ready; the entry is removed once the ledger holds them.
export const EARLY_KEY = `mlsys-labs:early:${BASE.pathname}`;

function readEarlyAll() {
  try {
    const doc = JSON.parse(window.localStorage.getItem(EARLY_KEY) || "{}");
    return doc && typeof doc === "object" && !Array.isArray(doc) ? doc : {};
  } catch {
    return {};
  }
}

/**
 * Answers locked before Python for one lab, or null.
 * @param {string} labId
 * @returns {{attemptId: string, answers: Record<string, {choice: string, locked_at: string}>}|null}
 */
export function readEarly(labId) {
  const entry = readEarlyAll()[labId];
  if (!entry || typeof entry.attemptId !== "string" || !entry.answers || typeof entry.answers !== "object") return null;
  return entry;
}

/**
 * Keep a lab's early answers synchronously (the student may reload at once).
 * @returns {boolean} whether storage took it
 */
export function writeEarly(labId, entry) {
  const all = readEarlyAll();
  all[labId] = entry;
  try {
    window.localStorage.setItem(EARLY_KEY, JSON.stringify(all));
    return true;
  } catch {
    return false; // storage unavailable: the answer lives in this tab until Python saves it
  }
}

/** Forget a lab's early answers once the ledger holds them. */
export function clearEarly(labId) {
  const all = readEarlyAll();
  if (!(labId in all)) return;
  delete all[labId];
  try {
    if (Object.keys(all).length) window.localStorage.setItem(EARLY_KEY, JSON.stringify(all));
    else window.localStorage.removeItem(EARLY_KEY);
  } catch {
    // nothing to clear
  }
}

/**
 * Which attempt of a lab is active, read loosely (nothing validated): the newest by started_at, then
 * id, that is not archived, once the record a page stashed while leaving is folded in the way the
 * ledger folds it (pylabs.ledger.commit: a new attempt starts at the stash's time, one the ledger
 * holds keeps its start and its archive). pylabs/ledger.py active_attempt is the same rule; the build
 * puts this function into inline/early_inline.js; tests/fixtures/active_attempt.json holds all to it.
 * @param {{attempts?: object}|null} doc the ledger as stored
 * @param {{attemptId: string, record: object, at: string}|null} stashed what PENDING_KEY holds
 * @param {string} labId
 * @returns {object|null} the attempt (the stashed record's answers and controls when it is the stashed one)
 */
export function activeAttempt(doc, stashed, labId) {
  const attempts = { ...((doc && doc.attempts) || {}) };
  if (stashed && stashed.record && stashed.record.lab === labId && typeof stashed.attemptId === "string") {
    const held = attempts[stashed.attemptId];
    attempts[stashed.attemptId] = { ...stashed.record, id: stashed.attemptId,
      started_at: held ? held.started_at : stashed.at, archived_at: held ? held.archived_at : null };
  }
  let newest = null;
  for (const a of Object.values(attempts)) {
    if (!a || a.lab !== labId || a.archived_at) continue;
    if (!newest || a.started_at > newest.started_at || (a.started_at === newest.started_at && a.id > newest.id)) newest = a;
  }
  return newest;
}

/**
 * The lab's active attempt as storage holds it, for the first paint only (Python validates the
 * ledger when it arrives).
 * @param {string} labId
 * @returns {{attemptId: string, answers: object, controls: object}|null}
 */
export function looseAttempt(labId) {
  try {
    const stashed = JSON.parse(window.localStorage.getItem(PENDING_KEY) || "null");
    const attempt = activeAttempt(JSON.parse(readRaw() || "{}"), stashed, labId);
    return attempt ? { attemptId: attempt.id, answers: attempt.answers || {}, controls: attempt.controls || {} } : null;
  } catch {
    return null;
  }
}
