"""Is every instrument's effect on screen while a student moves it? And does nothing give away
an answer before its lock?

    python -m tools.check_layout [lab ...] [--site site] [--widths 1280 375]

For each lab (both acts unlocked) and each slider and choice of each act, at each width: put the
control in the middle of the window as a student would, move it, and count the numbers that
changed and are visible in the window (the metric cards, or the strip of key numbers that sticks
under the header), then set it back, so every control moves from the state the locks left. Prints
one line per control and exits non-zero when a control changes no number that is on screen
(MISS) or no number at all (NONE). Not a timed test and not part of `make test`: run it after a layout
change, on a built site.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from tools.serve import serve_in_thread
from tools.shots import CHROMIUM_ARGS, lock_everything
from pylabs.framework.formats import plural

VISIBLE_CHANGES = """(before) => {
  const header = 56, height = window.innerHeight;
  const onScreen = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.bottom > header && r.top < height && getComputedStyle(el).visibility !== 'hidden'; };
  const now = {};
  for (const m of document.querySelectorAll('[data-metric]')) now[m.dataset.metric] = m.dataset.value;
  const changed = Object.keys(now).filter((k) => before[k] !== undefined && before[k] !== now[k]);
  const cards = changed.filter((k) => onScreen(document.querySelector(`[data-metric="${k}"]`)));
  const strip = [...document.querySelectorAll('[data-strip="on"] .pl-strip__item')]
    .filter((item) => onScreen(item) && changed.includes(item.dataset.stripOf)).length;
  return { changed: changed.length, visible: cards.length, strip };
}"""

METRICS = "() => Object.fromEntries([...document.querySelectorAll('[data-metric]')].map((m) => [m.dataset.metric, m.dataset.value]))"

MOVE = """(name) => {
  const els = [...document.querySelectorAll(`[data-control="${name}"]`)];
  const el = els[0];
  const r = el.getBoundingClientRect();
  window.scrollBy(0, r.top + r.height / 2 - window.innerHeight / 2);
  if (el.type === 'radio') {
    const next = els.find((e) => !e.checked) || els[0];
    next.checked = true; next.dispatchEvent(new Event('input', { bubbles: true }));
    next.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (el.tagName === 'SELECT') {
    el.selectedIndex = (el.selectedIndex + 1) % el.options.length;
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (el.type === 'range') {
    const lo = Number(el.min), hi = Number(el.max), v = Number(el.value);
    el.value = String(v - lo > (hi - lo) / 2 ? lo : hi);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (el.type === 'number') {
    el.value = Number(el.value) === Number(el.max) ? el.min : el.max;
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  } else if (el.type === 'checkbox') {  // a switch, or a multi-select's first box
    el.checked = !el.checked; el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}"""


# a control's value as the page holds it, and setting it back (with the events a student's move sends),
# so each control is moved from the state the locks left and not from the previous control's extreme
VALUE = """(name) => {
  const els = [...document.querySelectorAll(`[data-control="${name}"]`)];
  if (els[0].type === 'radio' || els[0].type === 'checkbox') return els.map((e) => e.checked);
  return els[0].tagName === 'SELECT' ? els[0].selectedIndex : els[0].value;
}"""

RESTORE = """([name, value]) => {
  const els = [...document.querySelectorAll(`[data-control="${name}"]`)];
  const fire = (el) => { el.dispatchEvent(new Event('input', { bubbles: true }));
                         el.dispatchEvent(new Event('change', { bubbles: true })); };
  if (Array.isArray(value)) {
    els.forEach((e, i) => { if (e.checked !== value[i]) { e.checked = value[i]; fire(e); } });
  } else if (els[0].tagName === 'SELECT') { els[0].selectedIndex = value; fire(els[0]); }
  else { els[0].value = value; fire(els[0]); }
}"""

RENDERED = ("(n) => { const r = document.querySelector('[data-lab]'); "
            "return r.dataset.renders !== n && r.dataset.busy !== 'true'; }")


def check(site: Path, labs: list[str], widths: list[int]) -> int:
    from playwright.sync_api import sync_playwright
    server, base = serve_in_thread(site, "/labs/")
    manifest = {lab["id"]: lab for lab in json.loads((site / "labs.json").read_text())["labs"]}
    misses = 0
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            for width in widths:
                page = browser.new_context(viewport={"width": width, "height": 800 if width > 500 else 740}).new_page()
                for lab_id in labs or sorted(manifest):
                    entry = manifest[lab_id]
                    page.goto(base + entry["url"])
                    page.wait_for_selector("html[data-pylabs=ready]", timeout=90_000)
                    lock_everything(page, entry)
                    for control in entry["controls"][1:]:  # the context is fixed by the first lock
                        before, held = page.evaluate(METRICS), page.evaluate(VALUE, control["name"])
                        renders = page.get_attribute("[data-lab]", "data-renders")
                        page.evaluate(MOVE, control["name"])
                        page.wait_for_function(RENDERED, arg=renders)
                        page.wait_for_timeout(150)
                        seen = page.evaluate(VISIBLE_CHANGES, before)
                        # a move that changes no number at all is a miss too (V2-05's review: slider
                        # ends that are never valid); a chart-only control would show here: judge it
                        verdict = ("NONE" if seen["changed"] == 0 else
                                   "ok  " if seen["visible"] > 0 or seen["strip"] > 0 else "MISS")
                        misses += verdict != "ok  "
                        print(f"{verdict} {width:>4} {lab_id} {control['name']:<18} "
                              f"changed {seen['changed']}, on screen {seen['visible']}, in strip {seen['strip']}")
                        renders = page.get_attribute("[data-lab]", "data-renders")
                        page.evaluate(RESTORE, [control["name"], held])
                        page.wait_for_function(RENDERED, arg=renders)
                page.context.close()
            browser.close()
    finally:
        server.shutdown()
    return misses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("labs", nargs="*")
    parser.add_argument("--site", default="site", type=Path)
    parser.add_argument("--widths", nargs="*", type=int, default=[1280, 375])
    args = parser.parse_args()
    misses = check(args.site, args.labs, args.widths)
    print(f"{plural(misses, 'control', count_fmt='int')} change{'s' if misses == 1 else ''} no number on screen")
    sys.exit(1 if misses else 0)


if __name__ == "__main__":
    main()
