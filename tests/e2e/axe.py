"""axe-core on a page in the browser: the serious and critical WCAG 2.1 A/AA violations, and the same
in both palettes (the site follows the system's colour scheme, so emulating it switches Material's
palette on the page as it stands)."""

from __future__ import annotations

from pathlib import Path

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
SCHEMES = {"light": "default", "dark": "slate"}  # the system's scheme -> Material's data-md-color-scheme


def violations(page) -> list[str]:
    # Sections with content-visibility: auto (the class view's labs) are not laid out off screen, so
    # axe read their text at a stale place, over the footer (V2-02's section: "#040404 on #212121").
    # Laid out for the check, the page a reader scrolls to is the same.
    page.add_style_tag(content="* { content-visibility: visible !important; }")
    if not page.evaluate("() => typeof axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    return page.evaluate("""async () => (await axe.run(document, {
        runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']})).violations
        .filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`)""")


def use_scheme(page, scheme: str) -> None:
    """Emulate the system's colour scheme and wait until the page's palette follows it."""
    page.emulate_media(color_scheme=scheme)
    page.wait_for_function("(s) => document.body.dataset.mdColorScheme === s", arg=SCHEMES[scheme])


def in_both_palettes(page, back_to: str = "light") -> dict[str, list[str]]:
    """The violations in light and in dark, of a page with no chart drawn yet (a drawn chart keeps
    the ink of the palette it was drawn in until it is next in view); leaves the page in ``back_to``."""
    found = {}
    for scheme in SCHEMES:
        use_scheme(page, scheme)
        found[scheme] = violations(page)
    use_scheme(page, back_to)
    return {scheme: v for scheme, v in found.items() if v}
