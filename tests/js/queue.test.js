// queue.js: one render at a time, moves made meanwhile coalesced into one waiting render.
import { test, equal, assert } from "./harness.js";
import { renderQueue } from "../../docs/assets/pylabs/page/queue.js";

/** A queue whose renders finish only when the test says so (as the worker's replies would). */
function held() {
  const runs = [];
  const busy = [];
  const failures = [];
  const queue = renderQueue((changed) => new Promise((resolve, reject) => runs.push({ changed, resolve, reject })),
    { busy: (on) => busy.push(on), failed: (error) => failures.push(error.message) });
  return { queue, runs, busy, failures };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test("moves made while a render runs coalesce into one waiting render", async () => {
  const { queue, runs, busy } = held();
  queue.schedule("a");
  queue.schedule("b");
  queue.schedule("c");
  equal(runs.map((r) => r.changed), ["a"], "one render runs at a time");
  runs[0].resolve();
  await tick();
  equal(runs.map((r) => r.changed), ["a", "b"], "the waiting render keeps the first control moved");
  runs[1].resolve();
  await queue.idle();
  equal(runs.length, 2);
  equal(busy, [true, true, true, false]);
});

test("idle waits for the waiting render too, not only the running one", async () => {
  const { queue, runs } = held();
  let settled = false;
  queue.schedule("a");
  queue.schedule(null);
  const idle = queue.idle().then(() => { settled = true; });
  runs[0].resolve();
  await tick();
  assert(!settled, "idle resolved while a render waited");
  runs[1].resolve();
  await idle;
  assert(settled);
});

test("idle resolves at once when nothing was scheduled", async () => {
  const { queue } = held();
  await queue.idle();
});

test("a failed render is reported, the queue stops being busy and takes the next move", async () => {
  const { queue, runs, busy, failures } = held();
  queue.schedule("a");
  runs[0].reject(new Error("worker gone"));
  await queue.idle();
  equal(failures, ["worker gone"]);
  equal(busy.at(-1), false);
  queue.schedule("b");
  equal(runs.length, 2);
});
