// The Design Ledger page: a summary rendered by Python, export, import with a
// preview of what will change, and clear with confirmation.
import { call, startRuntime } from "./runtime.js";
import { applyImport, clearLedger, previewImport, readQuarantine, readRaw, setStudent, settleLedger, storedStudent,
  LEDGER_KEY } from "./store.js";
import { showNotice, clearNotice } from "./notices.js";
import { drawCharts } from "./charts.js";
import { download, plural, today } from "./dom.js";

const MAX_IMPORT_BYTES = 2_000_000;

/** Export what is stored, exactly as stored (pretty-printed when it parses). */
export function exportLedger() {
  const raw = readRaw() || JSON.stringify({ schema: "mlsys-labs.ledger", version: 2, attempts: {} });
  let text = raw;
  try {
    text = JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    // Export unreadable content unchanged: it is still the student's.
  }
  download(`mlsys-labs-ledger-${today()}.json`, text);
}

/**
 * Show what an import will change and wait for Merge or Cancel.
 * @returns {Promise<boolean>}
 */
function confirmPreview(root, name, preview, parts) {
  const panel = root.querySelector("[data-import-preview]");
  panel.replaceChildren();
  panel.hidden = false;
  const title = document.createElement("p");
  title.className = "pl-callout__title";
  title.textContent = `Import ${name}: ${parts.join(", ")}.`;
  const list = document.createElement("ul");
  for (const [label, ids] of [["New", preview.added], ["Updated", preview.changed]]) {
    for (const id of ids) {
      const item = document.createElement("li");
      item.textContent = `${label}: ${id}`;
      list.appendChild(item);
    }
  }
  const note = document.createElement("p");
  note.textContent = "Merging keeps every attempt you have and never changes a locked answer.";
  const merge = document.createElement("button");
  merge.type = "button";
  merge.className = "pl-button pl-button--primary";
  merge.dataset.action = "import-confirm";
  merge.textContent = "Merge into my ledger";
  const cancel = document.createElement("button");
  cancel.type = "button";
  cancel.className = "pl-button";
  cancel.dataset.action = "import-cancel";
  cancel.textContent = "Cancel";
  panel.append(title, list, note, merge, cancel);
  merge.focus();
  return new Promise((resolve) => {
    const done = (answer) => () => { panel.hidden = true; panel.replaceChildren(); resolve(answer); };
    merge.addEventListener("click", done(true), { once: true });
    cancel.addEventListener("click", done(false), { once: true });
  });
}

/**
 * Mount the ledger page.
 * @param {Element} root the `[data-ledger-page]` element
 * @param {AbortSignal} signal
 */
export async function mountLedgerPage(root, signal) {
  const summary = root.querySelector("[data-ledger-summary]");
  const html = document.documentElement;

  async function refresh() {
    summary.innerHTML = await call("ledger_view", [readRaw()]).then((view) => view.html);
    drawCharts(summary).catch(() => {});
    const quarantined = readQuarantine();
    if (quarantined.length) {
      showNotice("warn", `${plural(quarantined.length, "item")} of unreadable ledger data ${quarantined.length === 1 ? "is" : "are"} kept aside.`, {
        id: "quarantine",
        action: { label: "Download them", run: () => download(`mlsys-labs-quarantine-${today()}.json`, JSON.stringify(quarantined, null, 2)) },
      });
    }
  }

  root.addEventListener("click", async (event) => {
    const action = event.target.closest("[data-action]")?.dataset.action;
    if (action === "ledger-export") exportLedger();
    if (action === "ledger-print") window.print();
    if (action === "ledger-clear") {
      const ok = window.confirm("Delete every attempt in this browser's Design Ledger? Export it first if you may want it back.");
      if (!ok) return;
      clearLedger();
      showNotice("info", "The ledger is empty.", { id: "import" });
      refresh();
    }
  }, { signal });

  // The name on hand-ins, and the whole course handed in as one file
  const nameField = root.querySelector("[data-student-name]");
  const showName = () => { if (nameField && document.activeElement !== nameField) nameField.value = storedStudent() || ""; };
  root.querySelector("[data-student-form]")?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const saved = await setStudent(nameField.value);
    if (!saved.ok) {
      showNotice("danger", `The name was not saved: ${saved.error}.`, { id: "student" });
      return;
    }
    nameField.value = saved.student.name;
    showNotice("success", `Your hand-ins will carry the name ${saved.student.name}.`, { id: "student" });
  }, { signal });
  root.addEventListener("click", async (event) => {
    if (event.target.closest("[data-action]")?.dataset.action !== "hand-in-course") return;
    const { handIn } = await import("./handin.js");
    await handIn({ kind: "course", title: "Hand in the whole course" });
    showName();
  }, { signal });

  root.addEventListener("change", async (event) => {
    const input = event.target.closest("[data-action=ledger-import]");
    if (!input || !input.files.length) return;
    const file = input.files[0];
    input.value = "";
    if (file.size > MAX_IMPORT_BYTES) {
      showNotice("danger", `${file.name} is larger than 2 MB, so it is not a ledger export. Nothing was changed.`, { id: "import" });
      return;
    }
    const text = await file.text();
    const preview = await previewImport(text);
    if (!preview.ok) {
      showNotice("danger", `${file.name} was not imported: ${preview.error}. Nothing was changed.`, { id: "import" });
      return;
    }
    const parts = [plural(preview.added.length, "new attempt"), `${preview.changed.length} updated`];
    if (preview.rejected.length) parts.push(`${preview.rejected.length} rejected (${preview.rejected[0]})`);
    const ok = await confirmPreview(root, file.name, preview, parts);
    if (!ok) return;
    const result = await applyImport(text);
    if (!result.ok) {
      showNotice("danger", `${file.name} was not imported: ${result.error}. Nothing was changed.`, { id: "import" });
      return;
    }
    showNotice("success", `Imported ${file.name}: ${parts.join(", ")}.`, { id: "import" });
    refresh();
  }, { signal });

  window.addEventListener("storage", (event) => {
    if (event.key !== LEDGER_KEY) return;
    refresh();
    showName();
  }, { signal });

  html.dataset.pylabs = "loading";
  try {
    await startRuntime();
  } catch (error) {
    html.dataset.pylabs = "error";
    summary.textContent = `The summary needs Python, which cannot start here (${error.message}). Export still works.`;
    return;
  }
  clearNotice("boot");
  await settleLedger().catch(() => {});  // a lock the last lab page had not saved yet
  await refresh();
  showName();
  html.dataset.pylabs = "ready";
}
