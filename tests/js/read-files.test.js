// read-files.js: the class view's files reach Python in order, a few in flight, and a failure
// stops the sending without losing track of what Python holds.
import { test, equal, assert } from "./harness.js";
import { readFiles } from "../../docs/assets/pylabs/page/read-files.js";

const file = (name, text = "{}") => new File([text], name);
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A worker that answers in the order it was sent to, when the test says so. */
function held(failing = null) {
  const got = [];
  const pending = [];
  const send = (f, bytes) => {
    got.push({ name: f.name, bytes });
    return new Promise((resolve, reject) => pending.push(() => (f.name === failing ? reject(new Error("worker stopped")) : resolve())));
  };
  const answer = () => pending.shift()();
  return { got, pending, send, answer };
}

test("every file is sent in order, as bytes, with at most four unanswered", async () => {
  const files = Array.from({ length: 10 }, (_, i) => file(`f${i}.json`, `{"n": ${i}}`));
  const worker = held();
  const read = [];
  const done = readFiles(files, worker.send, { onRead: (f) => read.push(f.name) });
  for (let i = 0; i < 40 && worker.got.length < 4; i += 1) await tick();
  equal(worker.got.map((g) => g.name), ["f0.json", "f1.json", "f2.json", "f3.json"], "four sent before any answer");
  while (read.length < 10) {
    if (worker.pending.length) worker.answer();
    await tick();
  }
  equal(await done, 10);
  equal(worker.got.map((g) => g.name), files.map((f) => f.name), "in the order given");
  equal(read, files.map((f) => f.name));
  assert(worker.got[3].bytes instanceof ArrayBuffer, "a file goes as its bytes");
  equal(new TextDecoder().decode(worker.got[3].bytes), '{"n": 3}');
});

test("a file over 5 MB is not read: it is sent empty, with its name", async () => {
  const big = { name: "huge.json", size: 50_000_000, arrayBuffer: () => { throw new Error("read"); } };
  const worker = held();
  const done = readFiles([big], worker.send);
  await tick();
  worker.answer();
  equal(await done, 1);
  equal(worker.got, [{ name: "huge.json", bytes: "" }]);
});

test("after a failure nothing more is sent, the sends made are waited for, and the failure is thrown", async () => {
  const files = Array.from({ length: 10 }, (_, i) => file(`f${i}.json`));
  const worker = held("f1.json");
  const read = [];
  let unhandled = 0;
  const count = () => { unhandled += 1; };
  window.addEventListener("unhandledrejection", count);
  const done = readFiles(files, worker.send, { onRead: (f) => read.push(f.name) }).then(() => "resolved", (e) => e.message);
  const until = async (ok) => { for (let i = 0; i < 200 && !ok(); i += 1) await tick(); };
  await until(() => worker.got.length === 4);
  worker.answer();  // f0
  await until(() => worker.got.length === 5);
  worker.answer();  // f1 fails
  for (let i = 0; i < 200 && worker.pending.length; i += 1) {
    worker.answer();
    await tick();
  }
  equal(await done, "worker stopped");
  // f4 went out when f0 was answered, before f1's failure came back; nothing went out after it
  equal(worker.got.map((g) => g.name), ["f0.json", "f1.json", "f2.json", "f3.json", "f4.json"], "no send after the failure");
  equal(read, ["f0.json", "f2.json", "f3.json", "f4.json"], "what Python read, for the page's list");
  await tick();
  window.removeEventListener("unhandledrejection", count);
  equal(unhandled, 0, "no unhandled rejection");
});
