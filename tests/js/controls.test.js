// controls.js: each kind of control, as Python renders it (fixtures from pylabs.framework.controls),
// read back as the wire value Python's parse expects.
import { test, equal, fixture, fixtures } from "./harness.js";
import { controlValue, readControls } from "../../docs/assets/pylabs/page/controls.js";

function mount(...kinds) {
  return fixture(kinds.map((kind) => fixtures.controls[kind]).join(""));
}

const value = (root, name) => controlValue(root, root.querySelector(`[data-control="${name}"]`));

test("a linear slider reads its position", () => {
  const root = mount("linear");
  equal(value(root, "nodes"), 16);
  root.querySelector("[data-control=nodes]").value = "33";
  equal(value(root, "nodes"), 33);
});

test("a log slider reads 10 to the power of its position", () => {
  const root = mount("log");
  equal(Math.abs(value(root, "latency") - 1e-4) < 1e-12, true);
});

test("a log2 slider reads 2 to the power of its position", () => {
  const root = mount("log2");
  equal(value(root, "batch"), 64);
  root.querySelector("[data-control=batch]").value = "3";
  equal(value(root, "batch"), 8);
});

test("a number field reads its text as typed", () => {
  const root = mount("number");
  equal(value(root, "bandwidth"), "50");
});

test("a multi-choice reads the list of checked values", () => {
  const root = mount("multi");
  equal(value(root, "faults"), ["gpu"]);
  root.querySelector('[data-control=faults][value="psu"]').checked = true;
  equal(value(root, "faults"), ["gpu", "psu"]);
});

test("a switch reads a boolean", () => {
  const root = mount("toggle");
  equal(value(root, "spares"), false);
  root.querySelector("[data-control=spares]").checked = true;
  equal(value(root, "spares"), true);
});

test("a radio group reads its checked value from any of its inputs", () => {
  const root = mount("radio");
  equal(controlValue(root, root.querySelector('[data-control=mode][value="train"]')), "serve");
});

test("a select reads its selected option", () => {
  const root = mount("select");
  equal(value(root, "region"), "us");
});

test("readControls reads every control once, by name", () => {
  const root = mount("linear", "log2", "number", "multi", "toggle", "radio", "select");
  equal(readControls(root), { nodes: 16, batch: 64, bandwidth: "50", faults: ["gpu"], spares: false, mode: "serve", region: "us" });
});
