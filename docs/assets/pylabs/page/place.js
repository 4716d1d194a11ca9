// Where the student was on a lab page, kept across a reload. The page grows as Python
// renders the acts a returning student had opened, so a pixel offset restored by the browser lands
// thousands of pixels too high; instead the element at the top of the window (a chart, a metric, a
// question, an act) and its distance from the top are kept in sessionStorage when the page is left,
// and the page is scrolled back to them as it is painted. A new tab or a link starts at the top.
const KEY = "mlsys-labs:place:";
const ANCHORS = "[data-chart], [data-metric], [data-question], [data-feedback], [data-instruments], [data-act], [data-block]";
const LINE = 80; // px below the top of the window: under Material's header

function selectorOf(element) {
  for (const name of ["chart", "metric", "question", "feedback", "instruments", "act", "block"]) {
    if (name in element.dataset) return `[data-${name}="${CSS.escape(element.dataset[name])}"]`;
  }
  return null;
}

/** The innermost anchor crossing the line under the header, else the first one below it. */
function anchorAt(root) {
  let crossing = null;
  let below = null;
  for (const element of root.querySelectorAll(ANCHORS)) {
    const box = element.getBoundingClientRect();
    if (!box.height) continue;
    if (box.top <= LINE && box.bottom > LINE) crossing = element;
    else if (box.top > LINE && !below) below = element;
  }
  const element = crossing || below;
  if (!element) return null;
  const selector = selectorOf(element);
  const index = [...root.querySelectorAll(selector)].indexOf(element);
  return { selector, index, offset: element.getBoundingClientRect().top };
}

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused: a reload starts at the top
  }
}

let firstPage = true;

/**
 * Keep the place when the lab page is left, and on a reload of it return there.
 * @param {Element} root the `[data-lab]` element
 * @param {AbortSignal} signal
 * @returns {Function} call whenever the page has grown (a painted view, a render): it scrolls back
 *   to the kept place until the student scrolls on their own
 */
export function keepPlace(root, signal) {
  const key = KEY + root.dataset.lab;
  const store = storage();
  const reload = firstPage && performance.getEntriesByType("navigation")[0]?.type === "reload";
  firstPage = false;
  let place = null;
  try {
    place = reload && store ? JSON.parse(store.getItem(key) || "null") : null;
  } catch {
    place = null;
  }
  if (place) window.history.scrollRestoration = "manual";
  const leave = () => {
    const here = anchorAt(root);
    try {
      if (here && window.scrollY > 0) store?.setItem(key, JSON.stringify(here));
      else store?.removeItem(key);
    } catch {
      // storage full or refused: the place is not kept
    }
  };
  window.addEventListener("pagehide", leave, { signal });
  const stop = () => { place = null; };
  for (const type of ["wheel", "touchstart", "keydown", "mousedown"]) {
    window.addEventListener(type, stop, { signal, once: true, passive: true });
  }
  return function returnThere() {
    if (!place) return;
    const element = root.querySelectorAll(place.selector)[place.index];
    if (!element) return;
    window.scrollTo({ top: window.scrollY + element.getBoundingClientRect().top - place.offset, behavior: "instant" });
  };
}
