// Small DOM helpers for the shell's own panels: elements built with text (never parsed HTML),
// and a file handed to the browser's download.

/**
 * An element with properties and children; strings become text nodes.
 * @param {string} tag
 * @param {Record<string, any>|null} [props] properties (`className`, `type`...) and `dataset` entries under `data`
 * @param {...(Node|string|null|false)} children
 * @returns {HTMLElement}
 */
export function el(tag, props, ...children) {
  const node = document.createElement(tag);
  const { data, attrs, ...rest } = props || {};
  Object.assign(node, rest);
  Object.assign(node.dataset, data || {});
  for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
  node.append(...children.filter((child) => child !== null && child !== false && child !== undefined));
  return node;
}

/**
 * Give the browser a file to save.
 * @param {string} name the file name offered
 * @param {string|Blob} content
 * @param {string} [type] Default: `"application/json"`
 */
export function download(name, content, type = "application/json") {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  const link = el("a", { href: url, download: name });
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * Today's date, `YYYY-MM-DD` (UTC), for file names.
 * @returns {string}
 */
export function today() {
  return new Date().toISOString().slice(0, 10);
}
