"""The class view's benchmark row, printed by `make bench` after the labs, or alone:

    .venv/bin/python -m tools.bench_class [--site site] [--students 500] [--runs 3]

A synthetic class (``class_fixture``: whole-course hand-ins, every lab, realistic spreads) is
written once. Each run: a floor (a blank page's ``loadPyodide()``, cold, as bench.py measures it),
then a fresh context opens ``class/``, waits for ``data-pylabs="ready"`` and gives the input every
file at once. Timed in the page from the input's ``change`` event to ``data-class-ready`` on
``[data-class-page]`` (every section inserted, the first frame drawn), as a ratio to the floor of
the same run; the page's own marks split it into reading (every file validated in the worker),
counting and rendering (one Python call) and drawing. Long tasks (> 50 ms) on the page's main
thread from the change until the charts in view are drawn (after ready) are recorded by a buffered PerformanceObserver. Memory: the
growth of the resident set of the browser's renderer processes (the page and its Python worker;
read from /proc) from before the files are given to once the class is drawn, beside the size of
Python's WebAssembly memory (the worker's ``memory`` op) and the page's JS heap. Targets: ready <= 1 x floor_cold, no long task over 200 ms,
memory under 300 MB.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
from pathlib import Path

from tools.bench import CHROMIUM, CHROMIUM_ARGS, measure_floors
from tools.class_fixture import write_class
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
INIT = """(() => {
  window.__class = { longtasks: [] };
  new PerformanceObserver((list) => list.getEntries().forEach((e) =>
    window.__class.longtasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: "longtask", buffered: true });
  document.addEventListener("change", (event) => {
    if (event.target.matches && event.target.matches("[data-class-input]")) window.__class.t0 = performance.now();
  }, true);
  new MutationObserver(() => {
    const root = document.querySelector("[data-class-page]");
    if (root && root.dataset.classReady && window.__class.t0 && !window.__class.t1) window.__class.t1 = performance.now();
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-class-ready"] });
})();"""
HEAPS = """async () => ({ page_js_mb: performance.memory ? performance.memory.usedJSHeapSize / 1e6 : null,
  python_mb: (await window.pylabsRuntime.call("memory", [])).wasm_bytes / 1e6 })"""
DRAWN = """() => {
  const seen = [...document.querySelectorAll("[data-class-view] [data-chart] .pl-chart__plot")].filter((p) => {
    const r = p.getBoundingClientRect();
    return r.bottom > 0 && r.top < innerHeight;
  });
  if (!seen.every((p) => p.querySelector(".main-svg"))) return false;
  window.__class.t2 = performance.now();
  return true;
}"""
READ = """() => {
  const c = window.__class, marks = {};
  for (const m of performance.getEntriesByType("mark")) if (m.name.startsWith("class:")) marks[m.name] = m.startTime - c.t0;
  const end = c.t2 || c.t1;  // the charts in view drawn (they draw after ready, as they come into view)
  return { ms: c.t1 - c.t0, drawn_ms: end - c.t0, marks,
           longtasks: c.longtasks.filter((t) => t.start >= c.t0 && t.start <= end).map((t) => t.duration) };
}"""


def renderer_rss_mb() -> float:
    """Resident memory of the Chromium renderer processes started under this process (MB)."""
    parents, lines = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2:].split()[1])
            lines[int(entry.name)] = (entry / "cmdline").read_bytes()
        except OSError:
            continue
    mine, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - mine
        mine |= frontier
    total = 0
    for pid in mine:
        if b"--type=renderer" in lines.get(pid, b""):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total / 1e6


def one_run(browser, base: str, files: list[Path]) -> dict:
    floor = measure_floors(browser, base, False)["floor_cold"]
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(INIT)
    try:
        page = context.new_page()
        page.goto(base + "class/")
        page.wait_for_selector("html[data-pylabs=ready]", timeout=180_000)
        page.wait_for_timeout(1500)  # Plotly and the page settle, as an instructor reads the page
        before = renderer_rss_mb()
        page.set_input_files("[data-class-input]", [str(p) for p in files])
        page.wait_for_selector("[data-class-page][data-class-ready]", timeout=600_000)
        page.wait_for_function("() => window.__class.t1")
        page.wait_for_function(DRAWN, timeout=120_000)  # long tasks count until the charts in view are drawn
        page.wait_for_timeout(300)
        result = page.evaluate(READ)
        students = int(page.get_attribute("[data-class-students]", "data-value"))
        return {"floor_cold": floor, "ready_ms": result["ms"], "ratio": result["ms"] / floor, "marks": result["marks"],
                "longest_task": max(result["longtasks"], default=0), "long_tasks": len(result["longtasks"]),
                "memory_mb": renderer_rss_mb(), "memory_before_mb": before, "students": students,
                "heaps": page.evaluate(HEAPS)}
    finally:
        context.close()


def report(browser, base: str, students: int = 500, runs: int = 3) -> list[dict]:
    """Run and print the row; returns every run."""
    with tempfile.TemporaryDirectory() as folder:
        files = write_class(Path(folder), students)
        size = sum(p.stat().st_size for p in files) / 1e6
        results = []
        for run in range(1, runs + 1):
            r = one_run(browser, base, files)
            results.append(r)
            print(f"  [class] run {run}: {r['students']} students, {len(files)} files ({size:.1f} MB): ready "
                  f"{r['ready_ms']:.0f} ms = {r['ratio']:.2f} x floor_cold ({r['floor_cold']:.0f} ms); read "
                  f"{r['marks'].get('class:read', 0):.0f} ms, counted {r['marks'].get('class:counted', 0):.0f} ms; "
                  f"longest task {r['longest_task']:.0f} ms; renderers {r['memory_before_mb']:.0f} -> {r['memory_mb']:.0f} MB "
                  f"(page JS heap {r['heaps']['page_js_mb']:.0f} MB, Python's memory {r['heaps']['python_mb']:.0f} MB)", flush=True)
    for r in results:
        r["memory_growth_mb"] = r["memory_mb"] - r["memory_before_mb"]
        r["python_mb"] = r["heaps"]["python_mb"]
    med = {k: statistics.median(r[k] for r in results)
           for k in ("ratio", "ready_ms", "floor_cold", "longest_task", "memory_growth_mb", "python_mb")}
    rows = [("class view, loaded and drawn / floor_cold", "<= 1", f"{med['ratio']:.2f}", med["ratio"] <= 1),
            ("  the same, ms (floor_cold ms)", "-", f"{med['ready_ms']:.0f} ({med['floor_cold']:.0f})", None),
            ("class view, longest main-thread task (ms)", "<= 200", f"{med['longest_task']:.0f}", med["longest_task"] <= 200),
            ("class view, memory it adds to the tab (MB)", "< 300", f"{med['memory_growth_mb']:.0f}",
             med["memory_growth_mb"] < 300),
            ("  of which Python's WebAssembly memory (MB)", "-", f"{med['python_mb']:.0f}", None)]
    print(f"\n== class view: {students} students x every lab, medians of {runs} runs ==")
    for label, target, value, met in rows:
        verdict = "info" if met is None else ("PASS" if met else "MISS")
        print(f"{label:<46}{target:>8}  {value:>14}  {verdict}")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--students", type=int, default=500)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    server, base = serve_in_thread(Path(args.site), "/labs/")
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            report(browser, base, args.students, args.runs)
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
