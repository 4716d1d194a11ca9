"""Screenshots of pages as a student sees them: light and dark, 1280 px and 375 px.

    python -m tools.shots v2_02 [--site site] [--out shots] [--unlocked] [--parts] [--pages ledger/ sources/]
    python -m tools.shots --class-files /tmp/class500 [--site site] [--out shots]

Serves the built site on a free loopback port, opens each lab in headless Debian
Chromium, optionally locks every question (option A) so both acts are open, and
writes full-page PNGs named ``<lab>-<light|dark>-<width>[-unlocked].png``. Look
at them with an image viewer before calling a page done (handbook/principles.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path

from tools.serve import serve_in_thread

CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = ((1280, 800), (375, 740))
SCHEMES = ("light", "dark")


@contextlib.contextmanager
def served_browser(site: Path):
    """Headless Chromium and the built site served under /labs/: (browser, base URL)."""
    from playwright.sync_api import sync_playwright
    server, base = serve_in_thread(site, "/labs/")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            yield browser, base
            browser.close()
    finally:
        server.shutdown()


def looks(browser):
    """A fresh context per palette and width: (scheme, width, context), closed after its turn."""
    for scheme in SCHEMES:
        for width, height in SIZES:
            context = browser.new_context(viewport={"width": width, "height": height}, color_scheme=scheme)
            yield scheme, width, context
            context.close()


def lock_everything(page, entry: dict) -> None:
    """Lock every question in page order with option A (acts open as their questions lock)."""
    for question in entry["questions"]:
        box = page.locator(f'[data-question="{question["id"]}"]')
        box.locator('input[type=radio][value="A"]').check()
        box.locator('[data-action="lock"]').click()
        page.wait_for_selector(f'[data-question="{question["id"]}"][data-locked="true"]')


def shoot_parts(page, stem: Path) -> list[Path]:
    """One PNG per act's instruments and per chart, at full resolution (a full page of a long lab is
    scaled down too far to read when viewed whole)."""
    written = []
    for selector, label in (("[data-instruments]", "instruments"), ("[data-chart]", "chart")):
        for i, element in enumerate(page.locator(selector).all()):
            if not element.is_visible():
                continue
            path = stem.with_name(f"{stem.name}-{label}{i + 1}.png")
            element.screenshot(path=str(path))
            written.append(path)
    return written


def shoot(site: Path, out: Path, labs: list[str], pages: list[str], unlocked: bool,
          parts: bool = False) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    manifest = {lab["id"]: lab for lab in json.loads((site / "labs.json").read_text())["labs"]}
    written = []
    with served_browser(site) as (browser, base):
        for scheme, width, context in looks(browser):
            page = context.new_page()
            targets = [(lab, manifest[lab]["url"]) for lab in labs] + [(p.strip("/") or "home", p) for p in pages]
            for name, url in targets:
                page.goto(base + url)
                if name in manifest:
                    page.wait_for_selector("html[data-pylabs=ready]", timeout=90_000)
                    if unlocked:
                        lock_everything(page, manifest[name])
                page.wait_for_timeout(600)
                # Scroll through so charts in view draw, then back to the top.
                page.evaluate("async () => { for (let y = 0; y < document.body.scrollHeight; y += 500) "
                              "{ window.scrollTo(0, y); await new Promise(r => setTimeout(r, 120)); } "
                              "window.scrollTo(0, 0); }")
                page.wait_for_timeout(800)
                suffix = "-unlocked" if unlocked and name in manifest else ""
                path = out / f"{name.replace('/', '_')}-{scheme}-{width}{suffix}.png"
                page.screenshot(path=str(path), full_page=True)
                written.append(path)
                if parts and name in manifest:
                    written += shoot_parts(page, path.with_suffix(""))
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labs", nargs="*", help="lab ids, e.g. v2_02")
    parser.add_argument("--site", default="site", type=Path)
    parser.add_argument("--out", default="shots", type=Path)
    parser.add_argument("--pages", nargs="*", default=[], help="other pages, e.g. ledger/ sources/")
    parser.add_argument("--unlocked", action="store_true", help="lock every question first")
    parser.add_argument("--parts", action="store_true", help="also one PNG per act's instruments and per chart")
    parser.add_argument("--class-files", type=Path, help="also the class view with every *.json in this folder loaded")
    args = parser.parse_args()
    if args.class_files:
        for path in shoot_class(args.site, args.out, sorted(args.class_files.glob("*.json"))):
            print(path)
    for path in shoot(args.site, args.out, args.labs, args.pages, args.unlocked, args.parts):
        print(path)



CLASS_PARTS = (("[data-section=files]", "files"), ("[data-section=roster]", "roster"),
               ("[data-section=calibration]", "calibration"), ("[data-class-question]", "question"),
               (".pl-class__designs", "designs"))


def shoot_class(site: Path, out: Path, files: list[Path]) -> list[Path]:
    """The class view with ``files`` loaded: the first screen and its main parts, in
    light and dark at both widths (a class of 500 is too long for one full-page image)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with served_browser(site) as (browser, base):
        for scheme, width, context in looks(browser):
            page = context.new_page()
            page.goto(base + "class/")
            page.wait_for_selector("html[data-pylabs=ready]", timeout=120_000)
            page.set_input_files("[data-class-input]", [str(p) for p in files])
            page.wait_for_selector("[data-class-page][data-class-ready]", timeout=600_000)
            page.wait_for_timeout(800)
            path = out / f"class-{scheme}-{width}.png"
            page.screenshot(path=str(path))
            written.append(path)
            for selector, label in CLASS_PARTS:
                part = page.locator(selector).first
                part.scroll_into_view_if_needed()
                page.wait_for_timeout(900)  # its charts draw as they come into view
                path = out / f"class-{scheme}-{width}-{label}.png"
                part.screenshot(path=str(path))
                written.append(path)
    return written


if __name__ == "__main__":
    main()
