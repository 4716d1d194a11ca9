// Render TeX with self-hosted KaTeX, loaded only when a page has math.
import { BASE } from "./runtime.js";

let katex = null;

function loadKatex() {
  if (!katex) {
    const css = document.createElement("link");
    css.rel = "stylesheet";
    css.href = new URL("vendor/katex/katex.min.css", BASE).href;
    document.head.appendChild(css);
    katex = new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = new URL("vendor/katex/katex.min.js", BASE).href;
      script.async = true;
      script.onload = () => resolve(window.katex);
      script.onerror = () => reject(new Error("the math renderer could not be loaded"));
      document.head.appendChild(script);
    });
  }
  return katex;
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
