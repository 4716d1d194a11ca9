// Render TeX with self-hosted KaTeX, loaded only when a page has math.
import { loadScript, loadStyle } from "./script.js";

function loadKatex() {
  loadStyle("vendor/katex/katex.min.css");
  return loadScript("vendor/katex/katex.min.js", "katex", "the math renderer");
}

function texOf(element) {
  if (element.hasAttribute("data-tex")) return [element.getAttribute("data-tex"), element.classList.contains("pl-tex--display")];
  const text = element.textContent.trim();
  const display = element.tagName === "DIV";
  return [text.replace(/^\\\[|\\\]$|^\\\(|\\\)$/g, ""), display];
}

/**
 * Typeset every unrendered `.pl-tex` (lab math) and `.arithmatex` (Markdown math) under `root`.
 * @param {Element} root
 */
export async function renderMath(root) {
  const pending = [...root.querySelectorAll(".pl-tex:not([data-rendered]), .arithmatex:not([data-rendered])")];
  if (!pending.length) return;
  const engine = await loadKatex();
  for (const element of pending) {
    const [tex, displayMode] = texOf(element);
    engine.render(tex, element, { displayMode, throwOnError: false, output: "htmlAndMathml" });
    element.dataset.rendered = "true";
  }
}

/** Start loading KaTeX before the first math peek opens. */
export function preloadMath() {
  loadKatex().catch(() => {});
}
