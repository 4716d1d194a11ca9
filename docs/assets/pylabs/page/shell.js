// The composition root of the labs' browser shell. It mounts whatever the current
// page holds, through Material's document$ so instant navigation works:
//   [data-lab]          a lab: Python runtime, ledger, live instruments
//   [data-ledger-page]  the Design Ledger page
//   [data-class-page]   the instructors' class view
//   [data-progress]     progress badges from the ledger
//   math and charts     typeset and drawn wherever they appear
// The Python worker lives for the whole tab, so moving between labs reuses it.
import { mountLab } from "./lab.js";
import { mountLedgerPage } from "./ledger-page.js";
import { progressByLab, readRaw } from "./store.js";
import { renderMath } from "./math.js";
import { drawCharts } from "./charts.js";
import { call } from "./runtime.js";
import { keepOffline } from "./offline.js";
import { releaseOnSearch, releaseSearch } from "./search.js";
import { whenSettled } from "./settled.js";

const LABELS = { "complete": "Complete", "in-progress": "In progress", "not-started": "Not started" };
let current = null;

function showProgress() {
  const progress = progressByLab();
  for (const badge of document.querySelectorAll("[data-progress]")) {
    const status = progress[badge.dataset.progress] || "not-started";
    badge.textContent = LABELS[status];
    badge.className = `pl-progress pl-progress--${status}`;
  }
}

function mountPage() {
  // 1. Leave the previous page: its listeners go with its AbortController.
  if (current) current.abort();
  current = new AbortController();
  const { signal } = current;
  const html = document.documentElement;
  html.dataset.pylabs = "static";

  // Material's search dialog has no accessible name; give it one (axe: aria-dialog-name).
  document.querySelector('.md-search[role="dialog"]:not([aria-label])')?.setAttribute("aria-label", "Search the labs");

  // 2. Read storage once, so an unavailable store is reported on every page.
  readRaw();

  // 3. Mount the page's parts.
  const lab = document.querySelector("[data-lab]");
  if (lab) mountLab(lab, signal);
  const ledgerPage = document.querySelector("[data-ledger-page]");
  if (ledgerPage) mountLedgerPage(ledgerPage, signal);
  const classPage = document.querySelector("[data-class-page]");  // loaded only where it is used
  if (classPage) import("./class-page.js").then((page) => page.mountClassPage(classPage, signal));
  showProgress();
  window.addEventListener("storage", showProgress, { signal });
  renderMath(document.body).catch(() => {});
  // 4. After one visit the site works offline (service worker, registered once the page settles),
  // and a lab page's search index is built (search-later.js).
  whenSettled(keepOffline);
  whenSettled(releaseSearch);
}

// A student who reaches for the search box gets its index at once.
document.addEventListener("focusin", releaseOnSearch);

// 5. Re-theme charts when the palette toggle changes the colour scheme.
new MutationObserver(() => {
  const charted = document.querySelector("[data-lab], [data-class-page]");
  if (charted) drawCharts(charted, { force: true }).catch(() => {});
}).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });

// A documented hook for tests and curious students: run the bridge from the console,
// e.g. await pylabsRuntime.call("update", ["v2_02", "{}", null, true]).
window.pylabsRuntime = Object.freeze({ call });

if (window.document$ && typeof window.document$.subscribe === "function") {
  window.document$.subscribe(mountPage);
} else {
  mountPage();
}
