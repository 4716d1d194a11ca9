// morph.js: a rendered block is patched into the page in place, keeping what the student is using.
import { test, equal, assert, fixture } from "./harness.js";
import { patchBlock, patchParts } from "../../docs/assets/pylabs/page/morph.js";

const block = (inner) => `<div class="pl-block" data-block="act1">${inner}</div>`;

function mount(inner) {
  return fixture(block(inner)).firstElementChild;
}

test("text and attributes change in place; the elements stay the same nodes", () => {
  const live = mount('<p class="a" data-metric="speed">1 s</p>');
  const p = live.querySelector("p");
  patchBlock(live, block('<p class="b" data-metric="speed">2 s</p>'));
  assert(live.querySelector("p") === p, "the <p> was replaced");
  equal([p.className, p.textContent], ["b", "2 s"]);
});

test("an attribute the new render drops is removed", () => {
  const live = mount('<section data-act="1" hidden>x</section>');
  patchBlock(live, block('<section data-act="1">x</section>'));
  assert(!live.querySelector("section").hidden);
});

test("keyed elements keep their identity when one before them goes", () => {
  const live = mount('<p data-metric="a">A</p><p data-metric="b">B</p><p data-metric="c">C</p>');
  const c = live.querySelector('[data-metric="c"]');
  patchBlock(live, block('<p data-metric="a">A</p><p data-metric="c">C2</p>'));
  equal([...live.querySelectorAll("p")].map((p) => p.dataset.metric), ["a", "c"]);
  assert(live.querySelector('[data-metric="c"]') === c && c.textContent === "C2");
});

test("a new keyed element is inserted where the render puts it", () => {
  const live = mount('<p data-metric="a">A</p><p data-metric="c">C</p>');
  patchBlock(live, block('<p data-metric="a">A</p><p data-metric="b">B</p><p data-metric="c">C</p>'));
  equal([...live.querySelectorAll("p")].map((p) => p.textContent), ["A", "B", "C"]);
});

test("an open <details> stays open: the student opened it", () => {
  const live = mount("<details><summary>More</summary>text</details>");
  live.querySelector("details").open = true;
  patchBlock(live, block("<details><summary>More</summary>new text</details>"));
  assert(live.querySelector("details").open && live.querySelector("details").textContent.includes("new text"));
});

test("the focused input keeps what the student typed", () => {
  const live = mount('<input type="number" data-control="bandwidth" value="50">');
  const input = live.querySelector("input");
  input.focus();
  input.value = "500";
  patchBlock(live, block('<input type="number" data-control="bandwidth" value="400">'));
  assert(document.activeElement === input);
  equal(input.value, "500");
});

test("an input not in use takes the rendered value and checked state", () => {
  const live = mount('<input type="range" data-control="nodes" value="16"><input type="checkbox" data-control="spares">');
  patchBlock(live, block('<input type="range" data-control="nodes" value="32"><input type="checkbox" data-control="spares" checked>'));
  equal([live.querySelector("[type=range]").value, live.querySelector("[type=checkbox]").checked], ["32", true]);
});

test("radios of one control are told apart by their value", () => {
  const live = mount('<input type="radio" name="m" data-control="mode" value="train" checked><input type="radio" name="m" data-control="mode" value="serve">');
  const serve = live.querySelector('[value="serve"]');
  patchBlock(live, block('<input type="radio" name="m" data-control="mode" value="serve" checked>'));
  equal(live.querySelectorAll("input").length, 1);
  assert(live.querySelector("input") === serve && serve.checked);
});

test("typeset math is left alone while its source is unchanged, and retypeset when it changes", () => {
  const live = mount('<span data-tex="x^2">x^2</span>');
  const span = live.querySelector("span");
  span.dataset.rendered = "true";
  span.innerHTML = "<b>typeset</b>";
  patchBlock(live, block('<span data-tex="x^2">x^2</span>'));
  equal(span.innerHTML, "<b>typeset</b>");
  patchBlock(live, block('<span data-tex="y^2">y^2</span>'));
  equal(live.querySelector("span").textContent, "y^2");
});

test("a chart's plot keeps Plotly's children; only its label follows the render", () => {
  const live = mount('<figure data-chart="c"><div class="pl-chart__plot" aria-label="old"><svg></svg></div></figure>');
  const plot = live.querySelector(".pl-chart__plot");
  patchBlock(live, block('<figure data-chart="c"><div class="pl-chart__plot" aria-label="new"></div></figure>'));
  equal([plot.getAttribute("aria-label"), plot.children.length], ["new", 1]);
});

test("patchParts patches the part at its path (element-child indexes under the block's root) and nothing else", () => {
  const live = mount('<section><p data-metric="a">A</p><p data-metric="b">B</p></section>');
  const a = live.querySelector('[data-metric="a"]');
  equal(patchParts(live, [[[1], "p", '<p data-metric="b">B2</p>', 2]]), true);
  equal([a.textContent, live.querySelector('[data-metric="b"]').textContent], ["A", "B2"]);
});

test("patchParts patches several parts at once, table rows among them, each in its place", () => {
  const live = mount("<section><p data-metric=\"a\">A</p><div><span>s</span><script type=\"application/json\">{}</script></div>" +
    "<table><tbody><tr><td>1</td></tr><tr><td>2</td></tr></tbody></table></section>");
  const a = live.querySelector('[data-metric="a"]');
  const row = live.querySelectorAll("tr")[1];
  const ops = [[[0], "p", '<p data-metric="a">A2</p>', 3], [[1, 1], "script", '<script type="application/json">{"x":1}</script>', 2],
    [[2, 0, 1], "tr", "<tr><td>22</td></tr>", 2]];
  equal(patchParts(live, ops), true);
  equal([a.textContent, live.querySelector("script").textContent, row.textContent], ["A2", '{"x":1}', "22"]);
  assert(live.querySelector('[data-metric="a"]') === a && live.querySelectorAll("tr")[1] === row, "a part was replaced");
  // without a table part, the parts are parsed together
  equal(patchParts(live, [[[0], "p", '<p data-metric="a">A3</p>', 3], [[1, 0], "span", "<span>t</span>", 2]]), true);
  equal([a.textContent, live.querySelector("span").textContent], ["A3", "t"]);
});

test("patchParts refuses a page of another shape and patches nothing", () => {
  const live = mount('<section><p data-metric="a">A</p><p data-metric="b">B</p></section>');
  const before = live.innerHTML;
  const ops = [[[0], "p", '<p data-metric="a">A2</p>', 2], [[1], "span", "<span>x</span>", 2]];
  equal(patchParts(live, ops), false);
  equal(live.innerHTML, before);
  equal(patchParts(live, [[[0], "p", "<p>x</p>", 3]]), false, "a sibling count that differs");
});
