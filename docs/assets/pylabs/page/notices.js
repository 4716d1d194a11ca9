// Visible, polite messages: storage problems, quarantined data, boot failures.
// A notice with an id replaces an earlier one with the same id.

/**
 * Show a message in the page's `[data-notices]` region.
 * @param {"info"|"warn"|"danger"|"success"} kind
 * @param {string} text what happened and what the student can do
 * @param {{id?: string, action?: {label: string, run: () => void}}} [options] Default: `{}`
 */
export function showNotice(kind, text, { id, action } = {}) {
  const region = document.querySelector("[data-notices]");
  if (!region) return;
  if (id) region.querySelector(`[data-notice="${id}"]`)?.remove();
  const notice = document.createElement("div");
  notice.className = `pl-callout pl-callout--${kind} pl-notice`;
  notice.setAttribute("role", kind === "danger" ? "alert" : "status");
  if (id) notice.dataset.notice = id;
  const message = document.createElement("p");
  message.textContent = text;
  notice.appendChild(message);
  if (action) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pl-button";
    button.textContent = action.label;
    button.addEventListener("click", action.run);
    notice.appendChild(button);
  }
  region.appendChild(notice);
}

/**
 * Remove a notice by id.
 * @param {string} id
 */
export function clearNotice(id) {
  document.querySelector(`[data-notices] [data-notice="${id}"]`)?.remove();
}
