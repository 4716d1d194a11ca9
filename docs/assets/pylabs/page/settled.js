// Work that waits for the page's lab: once Python is ready or has failed (`<html data-pylabs>`
// leaves "loading"), or at once on a page without a lab, run it when the browser is idle.

/** Call `fn` when idle, once this page's lab has settled. */
export function whenSettled(fn) {
  const html = document.documentElement;
  const settled = () => html.dataset.pylabs !== "loading"; // static pages, or Python ready or failed
  const idle = (work) => (window.requestIdleCallback || window.setTimeout)(work);
  if (settled()) {
    idle(fn);
    return;
  }
  const observer = new MutationObserver(() => {
    if (!settled()) return;
    observer.disconnect();
    idle(fn);
  });
  observer.observe(html, { attributes: true, attributeFilter: ["data-pylabs"] });
}
