// Typeset the math peeks' equations with the guide's own copy of KaTeX (nothing from other hosts).
document.addEventListener("DOMContentLoaded", () => {
  if (!window.katex) return;
  for (const el of document.querySelectorAll("[data-tex]")) {
    window.katex.render(el.dataset.tex, el, { displayMode: el.classList.contains("pl-tex--display"), throwOnError: false });
  }
  for (const peek of document.querySelectorAll("details.pl-mathpeek")) peek.open = true;
});
