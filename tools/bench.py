"""Performance benchmark of the labs ("Fast" in handbook/principles.md): `make bench`, or
    .venv/bin/python -m tools.bench [--site DIR] [--runs 5] [--json PATH] [--quick] [--no-throttle]

The site is served by tools.serve under /labs/ (like GitHub Pages); every lab in
labs.json is loaded in headless Debian Chromium driven by Playwright. Each run, per lab, uses a
fresh browser context (empty HTTP cache and localStorage) and measures:
- floors, once per run and mode, before the labs: Pyodide's own loadPyodide() on a blank
  page (labs.json, on the page's main thread, a fresh context; then reloaded: floor_cold,
  floor_warm), performance.now() when it resolved. The fast boot's rows are printed as ratios to the
  floors of the same run (medians per lab of the per-run ratios), since machines here differ 3x.
- cold: page.goto(lab) (until "commit"); at once the student picks Act I's first option and
  locks it: the init script, in the first document of the context only, clicks the first radio
  and the lock button every animation frame until the lock is taken (in the page, so no driver
  round-trip is timed); "locked" is performance.now() when a [data-question] first gets
  data-locked="true" (an init-script MutationObserver); lock_after_fcp = locked - FCP. CLS: the sum of 'layout-shift' entries
  without recent input over the whole load (buffered PerformanceObserver). "Interactive" is performance.now() (ms since performance.timeOrigin,
  navigation start) when <html data-pylabs> becomes "ready", stamped in the page by a
  MutationObserver that an init script installs before any page script (no polling). FCP is the
  'first-contentful-paint' entry. Long tasks: a PerformanceObserver({type: "longtask", buffered:
  true}) from the same init script; sum, count and longest of the tasks (each > 50 ms) that
  start before "ready".
- bytes: every request of the page and its workers. Playwright's page.on("request") reports the
  dedicated workers' requests; a CDP session (Network.enable + Target.setAutoAttach, flatten)
  sees only the page target's, since worker Network events go to child sessions Playwright's
  CDPSession does not expose (both counts are printed). The local server does not compress, so
  each URL is fetched once more with urllib and gzipped at level 6, about what GitHub Pages
  sends. "Before Python" sums the requests issued before the first one under vendor/pyodide/ or
  for assets/pylabs/*.whl: the static page's weight (HTML, CSS, JS, fonts, math, and whatever
  else it asked for by then). "First visit" sums every request from navigation to network idle
  after "ready". 1 KB = 1000 bytes, 1 MB = 10^6 bytes.
- warm (a returning student): after the slider moves, a second page.goto of the same lab in the
  same context (HTTP cache, service worker, stored ledger and view cache all in place); its CLS
  runs to 500 ms after "ready".
- slider: with Act I locked (above), take the first enabled input[type=range][data-control] and 50 times set it alternately to two
  neighbouring valid values (its own min/max/step; for data-scale="log2" those are exponents)
  and dispatch `input`. Timed in the page with performance.now() from dispatch until [data-lab]
  data-renders has grown and data-busy is "false", plus the next requestAnimationFrame when the
  slider's act holds a [data-chart]; that chart is scrolled into view first (charts out of view
  are not redrawn until they scroll in), so its redraw is part of the time. Median and p95 of
  the 50 moves, per run. "Numbers" stops the clock at the patch (data-renders grown, data-busy
  false); "numbers+charts" waits for the shell's data-charts-for to name that render, then a frame.
  Two values alternated are a student dragging back and forth: after the first two moves Python
  finds both renders in its memo (pylabs.framework.render keeps each act's last eight), so the
  rows time the messages, the diff and the page. So 50 more moves follow ("new values"): each one
  step on from the last, wrapping from the top of the range to the bottom, so a value comes back
  only after every other (a slider of eight positions or fewer is then all kept renders). Timed
  the same way; no bare replay. tools.move_cost times Python alone on new values in CPython.
  The figures passed to Plotly.react are recorded per slider value, and replayed on a blank
  page (the same Plotly bundle, same plot widths) alternately 50 times, each timed to the next
  frame: the "bare Plotly.react" of the same figures.
- navigate: from that lab, ready, click an <a> to the next lab in labs.json (the page's own link,
  else one injected into the article; with a single lab: home, then back). Timed from the click
  (performance.timeOrigin + now(), an epoch clock shared by documents) to "ready" with the target
  [data-lab]. Whether the JS context survived (Material instant navigation, so the Python worker
  is reused) is reported; Material only intercepts links to pages listed in sitemap.xml.
- foreign: requests in any phase whose URL does not start with the server origin (data:, blob:
  ignored).
- micropip (tools/bench_micropip.py): the full boot of the first lab with the wheels installed by
  micropip and by unpacking them, as ratios to the floor of the same run.
Runs repeat --runs times; cells are min/median/max per lab; a target is met when every lab's median
meets it. With throttling (default) the whole set runs again with CDP Emulation.setCPUThrottlingRate
({rate: 4}) on the page target; a probe (one busy loop in the page and in a dedicated worker) tells
whether workers are throttled too. Exit code: always 0.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gzip
import json
import math
import statistics
import sys
import time
import traceback
import urllib.request
from pathlib import Path

from tools import move_cost
from tools.bench_js import BARE_JS, CLICK_JS, FLOOR_JS, INIT_SCRIPT, PROBE_JS, SLIDER_JS
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TIMEOUT_MS = 180_000
SLIDER_WAIT_MS = 15_000
MOVES = 50
# key, label, unit, scale from raw value, target (None: information only)
MEASURES = [
    ("bytes_before_python", "bytes before Python, gzip", "KB", 1e-3, 300),
    ("fcp", "first contentful paint", "s", 1e-3, 1.0),
    ("lock_after_fcp", "Act I locked, after FCP", "ms", 1, 100),
    ("ready_cold", "interactive, cold cache", "s", 1e-3, 3.0),
    ("ready_warm", "interactive, returning (reload)", "s", 1e-3, 1.5),
    ("ready_nav", "interactive after lab->lab nav", "s", 1e-3, 0.3),
    ("numbers_median", "slider->numbers median", "ms", 1, 8),
    ("numbers_p95", "slider->numbers p95", "ms", 1, 16),
    ("numbers_new_median", "slider->numbers median, new values", "ms", 1, None),
    ("numbers_new_p95", "slider->numbers p95, new values", "ms", 1, None),
    ("slider_median", "slider->numbers+charts median", "ms", 1, 20),
    ("slider_p95", "slider->numbers+charts p95", "ms", 1, 50),
    ("bare_median", "bare Plotly.react median", "ms", 1, None),
    ("bare_p95", "bare Plotly.react p95", "ms", 1, None),
    ("cls_cold", "layout shift, first visit", "", 1, 0.05),
    ("cls_warm", "layout shift, returning", "", 1, 0.05),
    ("longtask_sum", "long tasks during boot, sum", "ms", 1, 100),
    ("longtask_count", "long tasks during boot, count", "", 1, None),
    ("longtask_max", "long tasks during boot, longest", "ms", 1, None),
    ("transfer_total", "first-visit transfer, gzip", "MB", 1e-6, 7.5),
    ("foreign", "requests to other hosts", "", 1, 0),
]

@functools.lru_cache(maxsize=None)
def gzip_size(url: str) -> int:
    """gzip -6 size of a URL's body, fetched once more from the local server (errors: 0)."""
    try:
        with urllib.request.urlopen(url.split("#")[0], timeout=60) as response:
            return len(gzip.compress(response.read(), compresslevel=6))
    except OSError:
        return 0


def is_python(url: str) -> bool:
    """Pyodide or the pylabs wheel: where "before any Python loads" ends."""
    path = url.split("?")[0]
    return "/vendor/pyodide/" in path or ("/assets/pylabs/" in path and path.endswith(".whl"))


def open_page(context, throttle: bool):
    """A page with request capture (Playwright and CDP) and, if asked, 4x CPU throttling."""
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    seen = {"requests": [], "cdp_page_requests": [], "cdp_workers": []}
    page.on("request", lambda r: seen["requests"].append(r.url))
    cdp = context.new_cdp_session(page)
    cdp.on("Network.requestWillBeSent", lambda e: seen["cdp_page_requests"].append(e["request"]["url"]))
    cdp.on("Target.attachedToTarget", lambda e: seen["cdp_workers"].append(e["targetInfo"]["url"]))
    cdp.send("Network.enable")
    cdp.send("Target.setAutoAttach", {"autoAttach": True, "flatten": True, "waitForDebuggerOnStart": False})
    if throttle:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    return page, seen


def wait_ready(page, lab_id: str | None, after: float = 0.0) -> dict:
    """Wait for the init script's record of data-pylabs="ready" (for lab_id, after epoch ms)."""
    handle = page.wait_for_function(
        """([lab, after]) => {
          if (document.documentElement.dataset.pylabs === "error") return { error: true };
          const b = window.__bench;
          return b && b.ready.find((r) => (lab === null || r.lab === lab) && r.abs > after);
        }""", arg=[lab_id, after], timeout=TIMEOUT_MS, polling=100)
    record = handle.json_value()
    if record.get("error"):
        raise RuntimeError('the page reached data-pylabs="error"')
    return record


PREDICTION = '[data-act="1"] [data-question][data-kind="prediction"]'


def layout_shift(page, until: float | None = None) -> float:
    """Sum of layout-shift values without recent input (CLS over the whole load, one session)."""
    return sum(s["value"] for s in page.evaluate("() => window.__bench.shifts") if until is None or s["t"] <= until)


def measure_cold(page, seen, url: str, lab_id: str) -> dict:
    """Cold load: the student locks Act I at once; interactive time, FCP, long tasks, CLS, bytes."""
    page.goto(url, wait_until="commit")
    page.wait_for_selector(f'{PREDICTION}[data-locked="true"]')  # the init script's robot locks it
    ready = wait_ready(page, lab_id)
    with contextlib.suppress(Exception):  # what loads lazily after "ready" is part of the first visit
        page.wait_for_load_state("networkidle", timeout=15_000)
    paint = page.evaluate("() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null")
    durations = [t["duration"] for t in page.evaluate("() => window.__bench.longtasks") if t["start"] < ready["t"]]
    requests = [u for u in seen["requests"] if not u.startswith(("data:", "blob:"))]
    static = requests[:next((i for i, u in enumerate(requests) if is_python(u)), len(requests))]
    locked = page.evaluate("() => window.__bench.locked")
    return {"ready_cold": ready["t"], "fcp": paint, "lock_at": locked,
            "lock_after_fcp": None if locked is None or paint is None else locked - paint,
            "cls_cold": layout_shift(page),
            "longtask_sum": sum(durations), "longtask_count": len(durations),
            "longtask_max": max(durations, default=0), "bytes_before_python": sum(gzip_size(u) for u in static),
            "transfer_total": sum(gzip_size(u) for u in requests),
            "_static": sorted(((gzip_size(u), u) for u in static), reverse=True)[:5], "_requests": len(requests),
            "_cdp_page_requests": len(seen["cdp_page_requests"]), "_workers": list(seen["cdp_workers"])}


def measure_warm(page, url: str, lab_id: str) -> dict:
    """A returning student: the same lab again in the same context, after the prediction was locked."""
    page.goto(url)
    ready = wait_ready(page, lab_id)
    page.wait_for_timeout(500)  # a shift just after "ready" counts too
    # how this visit started: the image kept by the first visit or downloaded, and whether the
    # service worker served the page (then the worker starts from the top of <head>)
    how = page.evaluate("() => ({ image: document.documentElement.dataset.pylabsImage || null, "
                        "controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller) })")
    return {"ready_warm": ready["t"], "cls_warm": layout_shift(page), "_warm": how}


def p50_p95(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return statistics.median(ordered), ordered[math.ceil(0.95 * len(ordered)) - 1]


def measure_slider(page, base: str) -> dict:
    """50 slider moves timed in the page (Act I is locked by then), then the same figures on a blank page."""
    try:  # a lab whose Act I has only choices and toggles has no slider to time
        page.wait_for_selector("input[type=range][data-control]:not([disabled])", timeout=SLIDER_WAIT_MS)
    except Exception:  # noqa: BLE001 - Playwright's TimeoutError
        return {}
    result = page.evaluate(SLIDER_JS, MOVES)
    out = {"_slider": {k: result[k] for k in ("name", "values", "scale", "hasChart")}}
    out["numbers_median"], out["numbers_p95"] = p50_p95(result["numbers"])
    out["slider_median"], out["slider_p95"] = p50_p95(result["times"])
    # then 50 moves to new values, one step each (the memo finds no render for most of them)
    swept = page.evaluate(SLIDER_JS, {"moves": MOVES, "sweep": True})
    out["numbers_new_median"], out["numbers_new_p95"] = p50_p95(swept["numbers"])
    if result["hasChart"] and result["figures"].get("0") and result["figures"].get("1"):
        out.update(measure_bare(page.context, base, [result["figures"]["0"], result["figures"]["1"]]))
    return out


def measure_bare(context, base: str, figures: list) -> dict:
    """A bare Plotly.react of the same figures on a blank page, in the same browser and run."""
    blank = context.new_page()
    try:
        blank.set_content("<!doctype html><html><body style='margin:0'></body></html>")
        blank.add_script_tag(url=base + "vendor/plotly/plotly.min.js")
        result = blank.evaluate(BARE_JS, [figures, MOVES])
    finally:
        blank.close()
    median, p95 = p50_p95(result["times"])
    return {"bare_median": median, "bare_p95": p95, "_bare_plots": result["plots"]}


def measure_floors(browser, base: str, throttle: bool) -> dict:
    """Pyodide's own loadPyodide() on a blank page (main thread), cold and after a reload."""
    context = browser.new_context()
    try:
        page, _ = open_page(context, throttle)
        out = {}
        for key in ("floor_cold", "floor_warm"):
            page.goto(base + "labs.json")
            out[key] = page.evaluate(FLOOR_JS, base + "vendor/pyodide/")["t"]
        return out
    finally:
        context.close()


def measure_navigation(page, route: list[str], lab_id: str) -> dict:
    """Click through route (URLs) from the current page; time the last click to lab_id ready."""
    for i, url in enumerate(route):
        clicked = page.evaluate(CLICK_JS, url)
        if i < len(route) - 1:
            page.wait_for_url(url)
            page.wait_for_load_state()
    ready = wait_ready(page, lab_id, after=clicked["t0"])
    kept = page.evaluate("() => window.__benchMarker === true")
    return {"ready_nav": ready["abs"] - clicked["t0"], "_instant": kept, "_link_injected": clicked["injected"]}


def run_lab(browser, base: str, labs: list[dict], index: int, throttle: bool) -> dict:
    """One run for one lab: cold, warm, slider on that lab; then navigate to the next lab."""
    lab, nxt = labs[index], labs[(index + 1) % len(labs)]
    route = [base + nxt["url"]] if len(labs) > 1 else [base, base + lab["url"]]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(INIT_SCRIPT)
    result, seen = {}, {"requests": []}
    try:
        page, seen = open_page(context, throttle)
        result.update(measure_cold(page, seen, base + lab["url"], lab["id"]))
        result.update(measure_slider(page, base))
        result.update(measure_warm(page, base + lab["url"], lab["id"]))
        result["_nav"] = {"to": nxt["id"], **measure_navigation(page, route, nxt["id"])}
    except Exception as error:  # record what was measured; the benchmark goes on
        result["_error"] = f"{type(error).__name__}: {str(error).splitlines()[0][:200]}"
    finally:
        origin = base.split("/labs/")[0]
        result["foreign"] = sum(1 for u in seen["requests"] if not u.startswith((origin, "data:", "blob:")))
        context.close()
    return result


LINKS = {"20 Mbit/s": 20e6, "100 Mbit/s": 100e6}  # emulated first-visit links, 40 ms RTT


def measure_network_first_visit(browser, base: str, lab: dict, runs: int) -> dict:
    """First visit over emulated links (CDP Network.emulateNetworkConditions on the page target):
    the default boot (the worker keeps the snapshot only when its download is quick enough, else it
    boots the usual way) against the usual boot forced (?pylabs-boot=full); which boot the default
    took is recorded. Bytes are as the local server sends them (uncompressed)."""
    out: dict = {}
    for link, bits in LINKS.items():
        conditions = {"offline": False, "latency": 40, "downloadThroughput": bits / 8, "uploadThroughput": bits / 8}
        for run in range(runs):
            for boot, query in (("default", ""), ("full", "?pylabs-boot=full")):
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                context.add_init_script(INIT_SCRIPT)
                try:
                    page, _ = open_page(context, False)
                    cdp = context.new_cdp_session(page)
                    cdp.send("Network.enable")
                    cdp.send("Network.emulateNetworkConditions", conditions)
                    page.goto(base + lab["url"] + query, wait_until="commit")
                    ready = wait_ready(page, lab["id"])["t"]
                    took = page.get_attribute("html", "data-pylabs-boot")
                    entry = out.setdefault(link, {}).setdefault(boot, {"ready": [], "took": []})
                    entry["ready"].append(ready)
                    entry["took"].append(took)
                    print(f"  [network {link}] run {run + 1} {lab['id']} {boot}: ready {ready:.0f} ms ({took})", flush=True)
                finally:
                    context.close()
    return {link: {boot: {"ready": statistics.median(e["ready"]), "took": sorted(set(e["took"]))}
                   for boot, e in boots.items()} for link, boots in out.items()}


def probe_worker_throttling(browser, base: str) -> dict:
    """Time one busy loop in the page and in a dedicated worker, at throttling rate 1 and 4."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(base)
    cdp, ms = context.new_cdp_session(page), {}
    for rate in (1, 4):  # best of 3: the machine may be busy
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        samples = [page.evaluate(PROBE_JS) for _ in range(3)]
        ms[rate] = {where: min(x[where] for x in samples) for where in ("main", "worker")}
    context.close()
    return {"ms": ms, "main_slowdown": ms[4]["main"] / ms[1]["main"],
            "worker_slowdown": ms[4]["worker"] / ms[1]["worker"]}


# The boot targets as ratios to the floors of the same run: key, label, numerator, denominator, target.
RATIOS = [
    ("r_lock", "Act I lock possible: ms after FCP", "lock_after_fcp", None, 100),
    ("r_ready_warm", "ready, returning / floor_cold", "ready_warm", "floor_cold", 0.3),
    ("r_ready_cold", "ready, first visit / floor_cold", "ready_cold", "floor_cold", 0.9),
    ("r_numbers_p50", "slider->numbers p50 (ms)", "numbers_median", None, 8),
    ("r_numbers_p95", "slider->numbers p95 (ms)", "numbers_p95", None, 16),
    ("r_numbers_new_p50", "slider->numbers p50, new values (ms)", "numbers_new_median", None, None),
    ("r_numbers_new_p95", "slider->numbers p95, new values (ms)", "numbers_new_p95", None, None),
    ("r_charts_p50", "slider->charts p50 / bare react p50", "slider_median", "bare_median", 1.3),
    ("r_charts_p95", "slider->charts p95 / bare react p95", "slider_p95", "bare_p95", 2.0),
    ("r_longtasks", "long tasks while booting (ms)", "longtask_sum", None, 100),
    ("r_cls_cold", "CLS first visit", "cls_cold", None, 0.05),
    ("r_cls_warm", "CLS returning", "cls_warm", None, 0.05),
    ("r_transfer", "first-visit transfer, gzip (MB)", "transfer_total", None, 7.5),
    ("floor_cold", "floor: loadPyodide() cold (ms)", "floor_cold", None, None),
    ("floor_warm", "floor: loadPyodide() reloaded (ms)", "floor_warm", None, None),
]


def ratios(result: dict) -> dict:
    out = {}
    for key, _, top, bottom, _ in RATIOS:
        value = result.get(top)
        if value is None or (bottom and not result.get(bottom)):
            continue
        out[key] = value / result[bottom] if bottom else (value * 1e-6 if top == "transfer_total" else value)
    return out


def print_ratios(title: str, table: dict) -> None:
    """The boot targets' table: medians per lab of per-run ratios to the floors of that run."""
    labs = list(table)
    head = f"{'target row':<42}{'target':>8}  " + "".join(f"{lab:>10}" for lab in labs) + "  verdict"
    print(f"\n{title}\n{head}\n{'-' * len(head)}")
    for key, label, _, _, target in RATIOS:
        cells, missed = [], False
        for lab in labs:
            stats = table[lab].get(key)
            if not stats:
                cells.append("n/a".rjust(10))
                continue
            med = stats["median"]
            missed |= target is not None and med > target
            cells.append((f"{med:.3f}" if med < 10 else f"{med:.0f}").rjust(10))
        verdict = "info" if target is None else ("MISS" if missed else "PASS")
        goal = "-" if target is None else f"<= {target:g}"
        print(f"{label:<42}{goal:>8}  {''.join(cells)}  {verdict}")


def summarize(runs: list[dict], labs: list[dict]) -> dict:
    """{lab: {measure: {runs, min, median, max}}}; ready_nav is filed under its target lab."""
    table: dict = {lab["id"]: {} for lab in labs}
    for run in runs:
        for key, *_ in MEASURES + [(r[0],) for r in RATIOS]:
            source = run.get("_nav", {}) if key == "ready_nav" else run
            if source.get(key) is not None:
                table[source.get("to", run["_lab"])].setdefault(key, {"runs": []})["runs"].append(round(source[key], 3))
    for per_lab in table.values():
        for stats in per_lab.values():
            stats.update(min=min(stats["runs"]), median=statistics.median(stats["runs"]), max=max(stats["runs"]))
    return table


def print_table(title: str, table: dict) -> None:
    """Rows = measures; cells = median (min-max) per lab; verdict from every lab's median."""
    labs = list(table)
    number = lambda v, unit: f"{v:.0f}" if unit in ("KB", "ms", "") else f"{v:.2f}"
    head = f"{'measure':<36}{'target':>10}  " + "".join(f"{lab:>22}" for lab in labs) + "  verdict"
    print(f"\n{title}\n{head}\n{'-' * len(head)}")
    for key, label, unit, scale, target in MEASURES:
        cells, missed = [], []
        for lab in labs:
            stats = table[lab].get(key)
            if not stats:
                cells.append("n/a".rjust(22))
                missed.append(lab)
                continue
            med, lo, hi = (stats[k] * scale for k in ("median", "min", "max"))
            missed += [lab] if target is not None and med > target else []
            mark = "*" if lab in missed else " "
            cells.append(f"{number(med, unit)}{mark}({number(lo, unit)}-{number(hi, unit)})".rjust(22))
        verdict = "info" if target is None else ("MISS" if missed else "PASS")
        goal = "-" if target is None else f"<= {target:g} {unit}".strip()
        print(f"{label + (f' [{unit}]' if unit else ''):<36}{goal:>10}  {''.join(cells)}  {verdict}")
    print("cells: median (min-max) over runs; * marks a median over its target (n/a: not measured)")


def print_notes(mode: str, runs: list[dict]) -> None:
    navs = [r["_nav"] for r in runs if "_nav" in r]
    kept = sum(1 for n in navs if n["_instant"])
    injected = sum(1 for n in navs if n["_link_injected"])
    print(f"[{mode}] lab->lab navigation kept the JS context (Material instant navigation, Python worker "
          f"reused) in {kept}/{len(navs)} runs; an <a> was injected (page had no link) in {injected}/{len(navs)}")
    for run in (r for r in runs if "_error" in r):
        print(f"[{mode}] {run['_lab']} run {run['_run']} stopped early: {run['_error']}")


def run_mode(browser, base: str, labs: list[dict], runs: int, throttle: bool) -> list[dict]:
    mode, collected = ("throttled-4x" if throttle else "normal"), []
    for run in range(1, runs + 1):
        floors = measure_floors(browser, base, throttle)
        print(f"  [{mode}] run {run} floors: loadPyodide() on a blank page {floors['floor_cold']:.0f} ms cold, "
              f"{floors['floor_warm']:.0f} ms reloaded", flush=True)
        for index, lab in enumerate(labs):
            started = time.monotonic()
            result = run_lab(browser, base, labs, index, throttle)
            result.update(_lab=lab["id"], _run=run, **floors)
            result.update(ratios(result))
            collected.append(result)
            nav = result.get("_nav", {})
            print(f"  [{mode}] run {run} {lab['id']}: cold {result.get('ready_cold', math.nan):.0f} ms, "
                  f"nav->{nav.get('to')} {nav.get('ready_nav', math.nan):.0f} ms "
                  f"({time.monotonic() - started:.0f} s) {result.get('_error', '')}", flush=True)
    return collected


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"), help="built site (default: <repo>/site)")
    parser.add_argument("--runs", type=int, default=5, help="runs per lab (default 5)")
    parser.add_argument("--json", help="also write the full results (every run) to this file")
    parser.add_argument("--throttle", action=argparse.BooleanOptionalAction, default=True,
                        help="also run everything with the CPU throttled 4x (default: yes)")
    parser.add_argument("--quick", action="store_true", help="smoke test: 2 runs, no throttling")
    parser.add_argument("--lab", action="append", help="only this lab id (repeatable; default: all)")
    parser.add_argument("--network", action=argparse.BooleanOptionalAction, default=True,
                        help="also time a first visit over emulated 20 and 100 Mbit/s links, by default and with the usual boot")
    parser.add_argument("--bytes", action=argparse.BooleanOptionalAction, default=True,
                        help="also count a first visit's bytes per file type (tools/bench_bytes.py)")
    parser.add_argument("--micropip", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the full boot with and without micropip (tools/bench_micropip.py)")
    parser.add_argument("--class-view", action=argparse.BooleanOptionalAction, default=True,
                        help="also time the class view with 500 students (tools/bench_class.py)")
    args = parser.parse_args()
    runs, modes = (2, [False]) if args.quick else (args.runs, [False, True] if args.throttle else [False])
    site = Path(args.site)
    labs = json.loads((site / "labs.json").read_text())["labs"]
    labs = [lab for lab in labs if not args.lab or lab["id"] in args.lab]
    server, base = serve_in_thread(site, "/labs/")
    report: dict = {"site": str(site), "runs": runs, "moves": MOVES, "labs": [lab["id"] for lab in labs],
                    "methodology": __doc__, "modes": {}}
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        report["chromium"] = browser.version
        print(f"Chromium {browser.version}, {len(labs)} labs, {runs} runs, serving {site} at {base}", flush=True)
        for throttle in modes:
            mode = "throttled-4x" if throttle else "normal"
            report["modes"][mode] = {"runs": run_mode(browser, base, labs, runs, throttle)}
        if True in modes:
            report["throttle_probe"] = probe_worker_throttling(browser, base)
        if args.network:
            report["network"] = measure_network_first_visit(browser, base, labs[0], 1 if args.quick else 3)
        if args.micropip:  # what installing the wheels with micropip costs the full boot
            from tools import bench_micropip
            report["micropip"] = bench_micropip.report(browser, site, labs[0], 2 if args.quick else 5)
        if args.class_view:  # the course: a class of 500 students in the class view
            from tools import bench_class
            report["class_view"] = bench_class.report(browser, base, runs=1 if args.quick else 3)
        browser.close()
    server.shutdown()
    print("\n" + __doc__[__doc__.index("The site is served"):].strip())
    first = next((r for r in report["modes"]["normal"]["runs"] if "_static" in r), None)
    if first:
        print(f"\nRequest capture ({first['_lab']}, cold): Playwright page.on('request') saw {first['_requests']} "
              f"requests, the workers' included; the CDP page session saw {first['_cdp_page_requests']} "
              f"(page target only); CDP auto-attach reported the workers {first['_workers']}")
        print("Largest requests before Python, gzip bytes: "
              + ", ".join(f"{u.split('/labs/')[-1]} {s}" for s, u in first["_static"]))
    if "throttle_probe" in report:
        probe = report["throttle_probe"]
        report["worker_throttled"] = probe["worker_slowdown"] >= 3
        print(f"4x CPU throttling slowed a busy loop {probe['main_slowdown']:.1f}x on the page's main thread and "
              f"{probe['worker_slowdown']:.1f}x in a dedicated worker: " + (
                  "the Python worker is throttled too" if report["worker_throttled"] else
                  "the Python worker is NOT throttled (any slowdown there is CPU contention with the spinning main"
                  " thread on this machine)"))
    for link, net in report.get("network", {}).items():
        default, full = net["default"], net["full"]
        print(f"First visit of {labs[0]['id']} over {link}, 40 ms RTT (medians): ready {default['ready']:.0f} ms by "
              f"default (boot: {', '.join(default['took'])}), {full['ready']:.0f} ms with the usual boot forced")
    for mode, data in report["modes"].items():
        data["summary"] = summarize(data["runs"], labs)
        print_table(f"== {mode}: {runs} runs per lab, {MOVES} slider moves per run ==", data["summary"])
        print_ratios(f"== {mode}: boot targets, ratios to the floors of the same run (medians per lab) ==",
                     data["summary"])
        print_notes(mode, data["runs"])
    if args.bytes:  # first-visit bytes: what a first visit moves, and that nothing moves twice
        from tools import bench_bytes
        report["bytes"] = bench_bytes.first_visit(site, labs[0]["id"])
        bench_bytes.report(report["bytes"])
    print()
    move_cost.report([lab["id"] for lab in labs] if args.lab else None)  # every slider, new values
    print("\nJSON:\n" + json.dumps({m: d["summary"] for m, d in report["modes"].items()}))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=str))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    try:
        main()
    except Exception:  # the benchmark reports; it never fails a build
        traceback.print_exc()
    sys.exit(0)
