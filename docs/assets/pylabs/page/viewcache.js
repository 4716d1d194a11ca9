// The last rendered blocks of each lab, kept in IndexedDB so that a returning student's page
// (locked answers, unlocked acts, settings) is painted before Python is ready. Python confirms
// or corrects it when it arrives: this is a picture of the page, never a source of answers
// (those come from the ledger). Entries name the build and the attempt they belong to.
import { BASE } from "./runtime.js";
import { keyValueStore } from "./idb.js";

const views = keyValueStore(`mlsys-labs:views:${BASE.pathname}`, "views");

/**
 * The cached view of a lab for this build and attempt, or null.
 * @param {string} labId
 * @param {{build: string, attemptId: string}} expected
 * @returns {Promise<Record<string, string>|null>} block key -> inner HTML
 */
export async function readView(labId, { build, attemptId }) {
  try {
    const entry = await views.get(labId);
    if (!entry || entry.build !== build || entry.attemptId !== attemptId) return null;
    return entry.blocks;
  } catch {
    return null;
  }
}

/**
 * Keep a lab's current blocks (failures are ignored: this is only a head start).
 * @param {string} labId
 * @param {{build: string, attemptId: string, blocks: Record<string, string>}} entry
 */
export async function writeView(labId, entry) {
  try {
    await views.put(labId, { ...entry, at: Date.now() });
  } catch {
    // private mode or full storage: the next visit boots without the head start
  }
}
