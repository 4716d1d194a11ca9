// The lab's render queue: at most one update waits while one runs, and the next starts when the
// worker's reply to the running one has been applied. Moves made meanwhile coalesce into that one
// waiting update (the state it sends is read when it starts), so the page never queues stale work.

/**
 * @param {(changed: string|null) => Promise<void>} run one render; `changed` names the control moved
 * @param {{busy: (on: boolean) => void, failed: (error: Error) => void}} hooks
 * @returns {{schedule: (changed: string|null) => void, idle: () => Promise<void>}}
 */
export function renderQueue(run, { busy, failed }) {
  let waiting = null;  // {changed}: the one update not started yet
  let draining = null; // the promise of the loop while it runs

  async function drain() {
    try {
      while (waiting) {
        const job = waiting;
        waiting = null;
        await run(job.changed);
      }
    } catch (error) {
      failed(error);
    } finally {
      draining = null;
      busy(false);
    }
  }

  /** Ask for a render; the first control moved since the last one started names the change. */
  function schedule(changed) {
    waiting = { changed: waiting && waiting.changed ? waiting.changed : changed };
    busy(true);
    if (!draining) draining = drain();
  }

  /** Resolves once nothing is waiting or running. */
  function idle() {
    return draining ? draining.then(idle) : Promise.resolve();
  }

  return { schedule, idle };
}
