// A control's value as the page holds it, read for Python: the one place that knows how each kind
// of control the renderer draws (pylabs/framework/controls.py) turns into its wire value.

/**
 * The wire value of one control, as Python's `parse` expects it: a radio group's checked value,
 * a switch's boolean, a multi-choice's checked values (a list), a slider's number (2 ** or 10 **
 * its position on log2 and log scales), otherwise the element's text (a number field's text goes
 * to Python as typed, so Python can say what was wrong with it).
 * @param {Element} root the element holding the control
 * @param {HTMLInputElement|HTMLSelectElement} element an element with `data-control`
 */
export function controlValue(root, element) {
  const name = element.dataset.control;
  if (element.type === "radio") {
    const checked = root.querySelector(`[data-control="${name}"]:checked`);
    return checked ? checked.value : null;
  }
  if (element.type === "checkbox" && "multi" in element.dataset) {
    return [...root.querySelectorAll(`[data-control="${name}"]:checked`)].map((box) => box.value);
  }
  if (element.type === "checkbox") return element.checked;
  if (element.type === "range") {
    const value = Number(element.value);
    if (element.dataset.scale === "log2") return 2 ** value;
    return element.dataset.scale === "log" ? 10 ** value : value;
  }
  return element.value;
}

/**
 * Every control's wire value, by name.
 * @param {Element} root the element holding the controls
 */
export function readControls(root) {
  const controls = {};
  for (const element of root.querySelectorAll("[data-control]")) {
    if (element.type === "radio" && !element.checked) continue;
    controls[element.dataset.control] = controlValue(root, element);
  }
  return controls;
}
