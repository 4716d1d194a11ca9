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
 * A count and its noun in the right number, as pylabs.framework.formats.plural writes it:
 * `plural(1, "file")` is "1 file", `plural(3, "file")` "3 files" (never "file(s)").
 * @param {number} count
 * @param {string} noun the singular
 * @param {string} [many] the plural, when it is not the singular plus "s"
 */
export function plural(count, noun, many = `${noun}s`) {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : many}`;
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
