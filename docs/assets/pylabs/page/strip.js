// The act's key numbers in a strip fixed under the header: shown only while the act's own
// metric grid is out of view and its instruments are on screen, so a student sliding a control far
// from the readout still sees what the control changes. Python renders the strip; this only
// decides when it shows (one passive scroll listener, at most once a frame).
const HEADER_PX = 56;
const STRIP_CARDS = 6;  // as many cards as the strip repeats (framework.components.STRIP_SIZE)

function setIfChanged(element, name, value) {
  if (element.style.getPropertyValue(name) !== value) element.style.setProperty(name, value);
}

function update(root) {
  for (const section of root.querySelectorAll("[data-instruments][data-unlocked=true]")) {
    const grid = section.querySelector(".pl-readout .pl-metrics");
    const box = section.getBoundingClientRect();
    const inView = box.top < window.innerHeight && box.bottom > HEADER_PX + 60;
    // The strip stands in for the grid unless the grid's key cards (those the strip repeats)
    // are wholly in the window.
    let hidden = false;
    if (grid && grid.children.length) {
      const top = grid.getBoundingClientRect().top;
      const last = grid.children[Math.min(STRIP_CARDS, grid.children.length) - 1].getBoundingClientRect();
      hidden = top < HEADER_PX || last.bottom > window.innerHeight;
    }
    const on = inView && hidden ? "on" : "off";
    if (on === "on") {
      // The strip is fixed under the header, over the instruments' own column. Set only when it
      // moved: a custom property set on the section restyles everything in it, on every render.
      setIfChanged(section, "--pl-strip-left", `${Math.round(box.left)}px`);
      setIfChanged(section, "--pl-strip-width", `${Math.round(box.width)}px`);
    }
    if (section.dataset.strip !== on) section.dataset.strip = on;
  }
}

/**
 * Keep every act's strip in step with scrolling and resizing.
 * @param {Element} root the `[data-lab]` element
 * @param {AbortSignal} signal aborted when the page is left
 * @returns {() => void} call after a render to re-check at once
 */
export function mountStrips(root, signal) {
  let pending = false;
  const schedule = () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; update(root); });
  };
  window.addEventListener("scroll", schedule, { passive: true, signal });
  window.addEventListener("resize", schedule, { passive: true, signal });
  return schedule;
}
