"""Where a lab's start-up and its slider moves spend their time (the profile behind the README's
unmet "ready" and "slider -> numbers" rows):

    .venv/bin/python -m tools.profile_boot [--site site] [--lab v1_00 ...] [--runs 3]

Each run opens a fresh browser context and loads the lab twice: a first visit (nothing cached;
tools.bench's init script locks Act I at once, as in `make bench`) and then a returning one (the
service worker, the kept Python image, the HTTP cache). Each visit's steps come from the page
(navigation timing: the HTML's response, first contentful paint; the "pylabs:worker" mark where the
page asks for the worker; "ready" as tools.bench stamps it) and from the Python worker (its "marks", epoch ms on the page's clock: created, script, config,
restoring, image, python, bridge, first_call). Printed per step: ms since navigation start,
medians over runs, beside the floors of the same run (tools.bench.measure_floors). The step
"Pyodide's restore" (restoring -> python) is Pyodide's own work on our snapshot: compiling or
fetching its WebAssembly, instantiating it, copying the image into its memory and starting its
runtime; no change of ours shortens it below a restore of Pyodide's own image.

Then, on the returning visit, tools.bench's 50 slider moves; each move is split with the worker's
record of its "update" call: page to worker (the input handled, the call posted, the message
delivered), Python (the bridge's update), worker to page and the patch (until data-renders grows
and data-busy is "false", as "slider -> numbers" ends). Beside them, the floor of a round trip: 50
calls that do nothing in Python ("memory"), timed in the page.
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from tools.bench import CHROMIUM, CHROMIUM_ARGS, MOVES, measure_floors, p50_p95, wait_ready
from tools.bench_js import INIT_SCRIPT, SLIDER_JS
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
PAGE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const asked = performance.getEntriesByName("pylabs:worker")[0];
  return { origin: performance.timeOrigin, response: nav.responseEnd, fcp: fcp ? fcp.startTime : null,
           asked: asked ? asked.startTime : null, image: document.documentElement.dataset.pylabsImage || null,
           controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller) };
}"""
WORKER_STEPS = ("created", "script", "config", "restoring", "image", "python", "bridge", "first_call")
# (label, from, to): the steps as printed; each is the later mark minus the earlier (ms)
SPANS = [("HTML response", None, "response"), ("first contentful paint", None, "fcp"),
         ("worker asked for", None, "asked"), ("worker created", "asked", "created"),
         ("worker's script running", "created", "script"),
         ("runtime.json read", "script", "config"), ("image in hand", "config", "image"),
         ("Pyodide's restore", "restoring", "python"), ("bridge ready", "python", "bridge"),
         ("first call answered", "bridge", "first_call"), ("page ready", "first_call", "ready")]


def visit(page, url: str, lab_id: str) -> dict:
    """One visit: every step as ms since navigation start."""
    page.goto(url, wait_until="commit")
    ready = wait_ready(page, lab_id)
    shown = page.evaluate(PAGE)
    marks = page.evaluate("() => window.pylabsRuntime.call('timings', [])")["marks"]
    steps = {name: marks[name] - shown["origin"] for name in WORKER_STEPS if name in marks}
    steps.update(response=shown["response"], fcp=shown["fcp"], asked=shown["asked"], ready=ready["t"])
    return {"steps": steps, "image": shown["image"], "controlled": shown["controlled"]}


ROUND_TRIP = """async (moves) => {
  const times = [];
  for (let i = 0; i < moves; i++) {
    const t0 = performance.now();
    await window.pylabsRuntime.call("memory", []);
    times.push(performance.now() - t0);
  }
  return times;
}"""


def slider(page) -> dict | None:
    """The bench's slider moves, each split by the worker's record of its update call."""
    if not page.query_selector("input[type=range][data-control]:not([disabled])"):
        return None
    moves = page.evaluate(SLIDER_JS, MOVES)
    calls = [c for c in page.evaluate("() => window.pylabsRuntime.call('timings', [])")["calls"] if c[0] == "update"]
    split = {"to_worker": [], "python": [], "back_and_patch": [], "numbers": moves["numbers"]}
    for start, took in zip(moves["starts"], moves["numbers"]):
        mine = [c for c in calls if c[1] >= start and c[3] <= start + took]
        if not mine:
            continue
        _, received, began, done = mine[-1]
        split["to_worker"].append(received - start)
        split["python"].append(done - began)
        split["back_and_patch"].append(start + took - done)
    split["round_trip"] = page.evaluate(ROUND_TRIP, MOVES)
    split["control"] = moves["name"]
    return split


def one_run(browser, base: str, lab: dict) -> dict:
    floors = measure_floors(browser, base, False)
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(INIT_SCRIPT)
    try:
        page = context.new_page()
        first = visit(page, base + lab["url"], lab["id"])
        page.wait_for_timeout(1500)  # the image is kept and the service worker installs, as after a student's first minutes
        returning = visit(page, base + lab["url"], lab["id"])
        return {**floors, "first": first, "returning": returning, "slider": slider(page)}
    finally:
        context.close()


def span(steps: dict, start: str | None, end: str) -> float | None:
    if steps.get(end) is None or (start is not None and steps.get(start) is None):
        return None
    return steps[end] - (steps[start] if start else 0)


def report(runs: list[dict], lab_id: str) -> None:
    floor = statistics.median(r["floor_cold"] for r in runs)
    print(f"\n== {lab_id}: medians of {len(runs)} runs; floor_cold {floor:.0f} ms, "
          f"floor_warm {statistics.median(r['floor_warm'] for r in runs):.0f} ms ==")
    print(f"{'step':<28}{'first visit at':>16}{'returning at':>14}{'step, returning':>17}{'/ floor_cold':>14}")
    for label, start, end in SPANS:
        cells = []
        for which in ("first", "returning"):
            at = [r[which]["steps"].get(end) for r in runs]
            cells.append(statistics.median(at) if all(v is not None for v in at) else None)
        lengths = [span(r["returning"]["steps"], start, end) for r in runs]
        length = statistics.median(lengths) if all(v is not None for v in lengths) else None
        show = lambda v: "-" if v is None else f"{v:.0f} ms"
        ratio = "-" if length is None else f"{length / floor:.3f}"
        print(f"{label:<28}{show(cells[0]):>16}{show(cells[1]):>14}{show(length):>17}{ratio:>14}")
    how = {(r["returning"]["image"], r["returning"]["controlled"]) for r in runs}
    print("returning visits: " + ", ".join(f"image {i or 'none'}, service worker {'on' if c else 'off'}" for i, c in how))
    moves = [r["slider"] for r in runs if r["slider"]]
    if not moves:
        print("no slider in Act I")
        return
    print(f"slider {moves[0]['control']}, {len(moves)} x {MOVES} moves: p50 / p95 over all moves (ms)")
    for key, label in (("numbers", "slider -> numbers"), ("to_worker", "  page to worker"), ("python", "  Python (update)"),
                       ("back_and_patch", "  worker to page, patch"), ("round_trip", "round trip, nothing in Python")):
        p50, p95 = p50_p95([v for m in moves for v in m[key]])
        print(f"  {label:<32}{p50:>8.1f}{p95:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--lab", action="append", help="lab id (repeatable); default: the first lab")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", help="write every run here")
    args = parser.parse_args()
    labs = json.loads((Path(args.site) / "labs.json").read_text())["labs"]
    chosen = [x for x in labs if x["id"] in args.lab] if args.lab else labs[:1]
    from playwright.sync_api import sync_playwright
    server, base = serve_in_thread(Path(args.site), "/labs/")
    out = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            for lab in chosen:
                out[lab["id"]] = [one_run(browser, base, lab) for _ in range(args.runs)]
                report(out[lab["id"]], lab["id"])
            browser.close()
    finally:
        server.shutdown()
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
