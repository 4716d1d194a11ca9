// Hand in: a file for the instructor and a printable report, both made by Python from
// the ledger (pylabs.course.handin, pylabs.course.report). The first hand-in asks for the
// student's name or ID once and keeps it in the ledger. Nothing leaves the browser: the file is
// saved by the browser's download, the report printed by the browser's print.
import { call } from "./runtime.js";
import { readRaw, setStudent } from "./store.js";
import { showNotice } from "./notices.js";
import { download, el } from "./dom.js";

const html = document.documentElement;

function siteBuild() {
  return document.querySelector('meta[name="pylabs-build"]')?.content || "";
}

function makeHandin(kind, labId) {
  return call("handin", [readRaw(), kind, labId, siteBuild(), new Date().toISOString()]);
}

/** The one hand-in dialog of the page, emptied for a new step. */
function dialogFor(title) {
  let dialog = document.querySelector("[data-handin-dialog]");
  if (!dialog) {
    dialog = el("dialog", { className: "pl-dialog", data: { handinDialog: "" }, attrs: { "aria-labelledby": "pl-handin-title" } });
    document.body.appendChild(dialog);
  }
  dialog.replaceChildren(el("h2", { id: "pl-handin-title", className: "pl-dialog__title" }, title));
  return dialog;
}

/**
 * Ask for the name or ID and keep it in the ledger.
 * @returns {Promise<boolean>} false when the student cancels
 */
function askName(dialog) {
  const input = el("input", { type: "text", name: "student", maxLength: 100, required: true, autocomplete: "name",
    id: "pl-handin-name", data: { studentName: "" } });
  const error = el("p", { className: "pl-dialog__error", hidden: true, data: { handinError: "" }, attrs: { role: "alert" } });
  const form = el("form", { className: "pl-dialog__form" },
    el("label", { htmlFor: "pl-handin-name" }, "Your name or student ID, as your instructor knows it"),
    input,
    el("p", { className: "pl-dialog__hint" },
      "It is kept in your Design Ledger with your work, asked for only this once; the Design Ledger page lets you change it."),
    error,
    el("p", { className: "pl-dialog__buttons" },
      el("button", { type: "submit", className: "pl-button pl-button--primary", data: { action: "handin-name" } }, "Hand in"),
      el("button", { type: "button", className: "pl-button", data: { action: "handin-cancel" } }, "Cancel")));
  dialog.append(form);
  dialog.dataset.state = "name";
  if (!dialog.open) dialog.showModal();
  input.focus();
  return new Promise((resolve) => {
    form.querySelector("[data-action=handin-cancel]").addEventListener("click", () => { dialog.close(); resolve(false); });
    dialog.addEventListener("cancel", () => resolve(false), { once: true });
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const saved = await setStudent(input.value);
      if (saved.ok) return resolve(true);
      error.textContent = `This cannot be kept: ${saved.error}.`;
      error.hidden = false;
      input.focus();
    });
  });
}

/** Put the report where print finds it, and print it alone. */
export function printReport(reportHtml) {
  let host = document.querySelector("[data-print-report]");
  if (!host) {
    host = el("div", { className: "pl-print-report", data: { printReport: "" } });
    document.body.appendChild(host);
  }
  host.innerHTML = reportHtml;  // HTML rendered by pylabs, escaped there
  html.dataset.print = "report";
  window.addEventListener("afterprint", () => { delete html.dataset.print; }, { once: true });
  window.print();
}

function showDone(dialog, result) {
  const print = result.report && el("button", { type: "button", className: "pl-button pl-button--primary",
    data: { action: "handin-print" } }, "Print the report");
  const again = el("button", { type: "button", className: "pl-button", data: { action: "handin-download" } }, "Download the file again");
  const close = el("button", { type: "button", className: "pl-button", data: { action: "handin-close" } }, "Close");
  dialog.append(
    el("p", { data: { handinFile: result.name } }, "Your browser saved ", el("code", null, result.name),
      `, ${result.student}'s hand-in. Send that file to your instructor; nothing was sent anywhere.`),
    el("p", { className: "pl-dialog__hint" }, "Its digest (SHA-256) is ", el("code", { className: "pl-dialog__digest" }, result.digest),
      `. ${result.note}`),
    el("p", { className: "pl-dialog__buttons" }, print, again, close));
  if (result.report) {
    const preview = el("div", { className: "pl-dialog__report", tabIndex: 0, attrs: { role: "region", "aria-label": "The printable report" } });
    preview.innerHTML = result.report;  // HTML rendered by pylabs, escaped there
    dialog.append(preview);
  }
  dialog.dataset.state = "done";
  if (!dialog.open) dialog.showModal();
  (print || close).focus();
  print?.addEventListener("click", () => printReport(result.report));
  again.addEventListener("click", () => download(result.name, result.text));
  close.addEventListener("click", () => dialog.close());
}

/**
 * Hand in one lab ("lab", with its report) or the whole course ("course"): ask for the name the
 * first time, save the file, show what was made.
 * @param {{kind: "lab"|"course", labId?: string|null, title: string}} what
 * @returns {Promise<object|null>} the hand-in made, or null when nothing was
 */
export async function handIn({ kind, labId = null, title }) {
  let result = await makeHandin(kind, labId);
  const dialog = dialogFor(title);
  if (!result.ok && result.needs_name) {
    if (!(await askName(dialog))) return null;
    dialogFor(title);
    result = await makeHandin(kind, labId);
  }
  if (!result.ok) {
    if (dialog.open) dialog.close();
    showNotice("danger", `Nothing was handed in: ${result.error}.`, { id: "handin" });
    return null;
  }
  download(result.name, result.text);
  showDone(dialog, result);
  return result;
}
