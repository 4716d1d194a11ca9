// The last rendered blocks of each lab, kept in IndexedDB so that a returning student's page
// (locked answers, unlocked acts, settings) is painted before Python is ready. Python confirms
// or corrects it when it arrives: this is a picture of the page, never a source of answers
// (those come from the ledger). Entries name the build and the attempt they belong to.
import { BASE } from "./runtime.js";

const DB_NAME = `mlsys-labs:views:${BASE.pathname}`;
const STORE = "views";
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      if (typeof indexedDB === "undefined") {
        reject(new Error("no IndexedDB"));
        return;
      }
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
      request.onblocked = () => reject(new Error("IndexedDB is blocked"));
    });
    opening.catch(() => {});
  }
  return opening;
}

async function transact(mode, run) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(STORE, mode);
    const request = run(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/**
 * The cached view of a lab for this build and attempt, or null.
 * @param {string} labId
 * @param {{build: string, attemptId: string}} expected
 * @returns {Promise<Record<string, string>|null>} block key -> inner HTML
 */
export async function readView(labId, { build, attemptId }) {
  try {
    const entry = await transact("readonly", (store) => store.get(labId));
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
    await transact("readwrite", (store) => store.put({ ...entry, at: Date.now() }, labId));
  } catch {
    // private mode or full storage: the next visit boots without the head start
  }
}
