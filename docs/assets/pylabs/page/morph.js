// Patch a rendered block into the page without replacing what the student is using:
// elements are kept and their attributes and text updated in place, a slider being
// dragged (or a radio being arrowed through) keeps its state, open <details> stay open, and subtrees owned by
// Plotly or KaTeX are left alone while their inputs are unchanged.

const KEY_ATTRIBUTES = ["id", "data-block", "data-act", "data-question", "data-metric", "data-chart",
  "data-failure", "data-feedback", "data-instruments", "data-control"];
const USER_ATTRIBUTES = new Set(["open"]);

function keyOf(node) {
  // most nodes of a patch (text, table cells, spans) have no attributes: no key to look for
  if (node.nodeType !== Node.ELEMENT_NODE || !node.hasAttributes()) return "";
  for (const name of KEY_ATTRIBUTES) {
    const value = node.getAttribute(name);
    // Radios share a data-control name, so their option value is part of the key; a slider's
    // value changes with every render and must not be, or the element being dragged is replaced.
    if (value !== null) return node.type === "radio" ? `${name}=${value}/${node.value}` : `${name}=${value}`;
  }
  return "";
}

function same(a, b) {
  return a.nodeType === b.nodeType && a.nodeName === b.nodeName && keyOf(a) === keyOf(b);
}

function syncAttributes(from, to) {
  if (!from.hasAttributes() && !to.hasAttributes()) return;
  for (const { name } of [...from.attributes]) {
    if (!to.hasAttribute(name) && !USER_ATTRIBUTES.has(name)) from.removeAttribute(name);
  }
  for (const { name, value } of [...to.attributes]) {
    if (from.getAttribute(name) !== value && !USER_ATTRIBUTES.has(name)) from.setAttribute(name, value);
  }
}

function syncFormState(from, to) {
  // The element the student is using is ahead of any render in flight: leave it alone.
  if (from === document.activeElement) return;
  if (from.type === "checkbox" || from.type === "radio") {
    const checked = to.hasAttribute("checked");
    if (from.checked !== checked) from.checked = checked;
  } else if (from.nodeName === "INPUT" && from.value !== to.getAttribute("value")) {
    from.value = to.getAttribute("value") ?? "";
  }
}

function owned(from, to) {
  return from.hasAttribute("data-tex") && from.dataset.rendered === "true" &&
    from.getAttribute("data-tex") === to.getAttribute("data-tex");
}

/**
 * Make `from` look like `to`, reusing `from`'s nodes wherever they match.
 * @param {Element} from live element in the page
 * @param {Element} to freshly parsed element
 */
export function morph(from, to) {
  if (from.classList.contains("pl-chart__plot")) {
    // Plotly owns this element's classes, styles and children.
    const label = to.getAttribute("aria-label");
    if (from.getAttribute("aria-label") !== label) from.setAttribute("aria-label", label);
    return;
  }
  if (owned(from, to)) {
    syncAttributes(from, to);
    if (from.hasAttribute("data-tex")) from.dataset.rendered = "true";
    return;
  }
  syncAttributes(from, to);
  if (from.nodeName === "INPUT") syncFormState(from, to);
  morphChildren(from, to);
  if (from.nodeName === "SELECT" && from !== document.activeElement) {
    const selected = to.querySelector("option[selected]");
    if (selected && from.value !== selected.value) from.value = selected.value;
  }
}

function morphChildren(from, to) {
  let current = from.firstChild;
  let incoming = to.firstChild;
  while (incoming) {
    const next = incoming.nextSibling;
    if (!current) {
      from.appendChild(incoming);
    } else if (same(current, incoming)) {
      if (current.nodeType === Node.ELEMENT_NODE) morph(current, incoming);
      else if (current.nodeValue !== incoming.nodeValue) current.nodeValue = incoming.nodeValue;
      current = current.nextSibling;
    } else {
      let match = current.nextSibling;
      while (match && !(keyOf(incoming) && same(match, incoming))) match = match.nextSibling;
      if (match) {
        while (current !== match) {
          const gone = current;
          current = current.nextSibling;
          gone.remove();
        }
        morph(current, incoming);
        current = current.nextSibling;
      } else {
        from.insertBefore(incoming, current);
      }
    }
    incoming = next;
  }
  while (current) {
    const gone = current;
    current = current.nextSibling;
    gone.remove();
  }
}

/**
 * Replace the contents of a keyed block with new HTML from the renderer.
 * @param {Element} block the live `[data-block]` element
 * @param {string} html the block's new inner HTML
 */
export function patchBlock(block, html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = template.content.firstElementChild;
  morph(block, fresh);
}

/**
 * Patch only the parts of a block that changed: `[path, tag, html, siblings]` per part, from the
 * bridge (pylabs/framework/markup.py changed_parts), where `path` is the element-child indexes
 * from the block's root element. Every part is found and checked (its tag, and its parent's
 * element count) before any is patched.
 * @param {Element} block the live `[data-block]` element
 * @param {Array<[number[], string, string, number]>} ops the changed parts
 * @returns {boolean} false, with nothing patched, when the page's structure is not the one the
 *   parts were cut from (the caller then renders the block whole)
 */
export function patchParts(block, ops) {
  const targets = [];
  for (const [path, tag, html, siblings] of ops) {
    let parent = block;
    let element = block.firstElementChild;
    for (const index of path) {
      parent = element;
      element = element ? element.children[index] : null;
    }
    if (!element || element.localName !== tag || parent.children.length !== siblings) return false;
    targets.push([element, html]);
  }
  const fresh = parseParts(targets.map(([element, html]) => [element.localName, html]));
  targets.forEach(([element], i) => morph(element, fresh[i]));
  return true;
}

// Elements the parser places only inside a table: parsed one by one, in a template of their own.
const TABLE_PARTS = new Set(["caption", "col", "colgroup", "tbody", "td", "tfoot", "th", "thead", "tr"]);

/**
 * Parse each part's HTML (one element each) into an element. One parse for them all: a template
 * per part cost more than the parts' HTML (a slider move sends about ten). It relies on every
 * part closing every element it opens (the renderer's h() always does; tests/framework/test_parts.py
 * checks every lab's parts): a part that left a <b> open would spill into the next part, which
 * the check of the top-level tags below cannot see.
 * @param {Array<[string, string]>} parts [tag, html] per part
 * @returns {Element[]} the parsed elements, in order
 */
function parseParts(parts) {
  if (!parts.some(([tag]) => TABLE_PARTS.has(tag))) {
    const template = document.createElement("template");
    template.innerHTML = parts.map(([, html]) => html).join("");
    const elements = [...template.content.children];
    if (elements.length === parts.length && elements.every((element, i) => element.localName === parts[i][0])) {
      return elements;
    }
  }
  return parts.map(([, html]) => {
    const one = document.createElement("template");
    one.innerHTML = html;
    return one.content.firstElementChild;
  });
}
