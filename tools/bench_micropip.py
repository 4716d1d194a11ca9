"""What micropip costs the full boot (no memory snapshot), measured in one run: `make bench` prints
it, or

    .venv/bin/python -m tools.bench_micropip [--site DIR] [--lab v2_02] [--runs 5]

The built site is served twice: as built (the worker installs the wheels with micropip) and as a
copy whose runtime.json says ``"installer": "unpack"`` (the worker unzips the wheels into
site-packages, as it did before micropip; every other file is the same, linked). Each run times
the floor (loadPyodide() on a blank page, cold: tools/bench.py) and then, each in a fresh browser
context, a first visit of one lab with ``?pylabs-boot=full`` on each site, the order alternating
from run to run; "ready" is when <html data-pylabs> becomes "ready". Printed: the medians of the
per-run ratios ready/floor for both installers and their difference, the same for the worker's
own time installing the wheels once downloaded (the boot result's install_ms: less exposed to the
machine's other load than "ready"), and the bytes micropip adds
to a first visit (its wheel, fetched by a full boot and by the service worker's install).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
from pathlib import Path

from build_scripts import micropip_wheel
from tools.bench import CHROMIUM, CHROMIUM_ARGS, gzip_size, measure_floors, open_page, wait_ready
from tools.bench_js import INIT_SCRIPT
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
INSTALLERS = ("micropip", "unpack")


def unpacking_copy(site: Path, into: Path) -> Path:
    """A copy of the site (symlinks) whose worker installs the wheels without micropip."""
    copy = into / "site"
    shutil.copytree(site, copy, copy_function=os.symlink)
    runtime_path = copy / "assets" / "pylabs" / "runtime.json"
    runtime = json.loads(runtime_path.read_text())
    runtime_path.unlink()  # a link into the real site: replaced, not written through
    runtime_path.write_text(json.dumps({**runtime, "installer": "unpack"}, indent=1))
    return copy


def full_boot(browser, base: str, lab: dict) -> tuple[float, float]:
    """ms from navigation to "ready" on a first visit booting without the snapshot, and the
    worker's own ms installing the wheels (once downloaded: micropip's load and install, or the unzip)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(INIT_SCRIPT)
    try:
        page, _ = open_page(context, False)
        page.goto(base + lab["url"] + "?pylabs-boot=full", wait_until="commit")
        ready = wait_ready(page, lab["id"])["t"]
        if page.get_attribute("html", "data-pylabs-boot") != "full":
            raise RuntimeError("the page did not boot without the snapshot")
        return ready, page.evaluate("() => pylabsRuntime.call('boot', [])")["install_ms"]
    finally:
        context.close()


def measure(browser, bases: dict[str, str], lab: dict, runs: int) -> dict:
    """Per run: the floor, then the full boot with each installer; medians of the ratios."""
    ratios: dict[str, list[float]] = {name: [] for name in INSTALLERS}
    ready: dict[str, list[float]] = {name: [] for name in INSTALLERS}
    install: dict[str, list[float]] = {name: [] for name in INSTALLERS}
    floors = []
    for run in range(runs):
        floor = measure_floors(browser, bases["micropip"], False)["floor_cold"]
        floors.append(floor)
        order = INSTALLERS if run % 2 == 0 else INSTALLERS[::-1]
        for name in order:
            ms, installing = full_boot(browser, bases[name], lab)
            ready[name].append(ms)
            ratios[name].append(ms / floor)
            install[name].append(installing / floor)
        print(f"  [micropip] run {run + 1} {lab['id']}: floor {floor:.0f} ms, full boot "
              + ", ".join(f"{name} {ready[name][-1]:.0f} ms (installing {install[name][-1] * floor:.0f})"
                          for name in INSTALLERS), flush=True)
    cost = [m - u for m, u in zip(ratios["micropip"], ratios["unpack"])]
    install_cost = [m - u for m, u in zip(install["micropip"], install["unpack"])]
    return {"lab": lab["id"], "runs": runs, "floor_cold": statistics.median(floors),
            **{f"ready_{name}": statistics.median(ready[name]) for name in INSTALLERS},
            **{f"r_{name}": statistics.median(ratios[name]) for name in INSTALLERS},
            **{f"r_install_{name}": statistics.median(install[name]) for name in INSTALLERS},
            "r_cost": statistics.median(cost), "r_install_cost": statistics.median(install_cost)}


def wheel_bytes(site: Path, base: str) -> dict:
    path = f"vendor/pyodide/{micropip_wheel.FILE_NAME}"
    return {"micropip_wheel": (site / path).stat().st_size, "micropip_wheel_gzip": gzip_size(base + path)}


def report(browser, site: Path, lab: dict, runs: int) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        servers = {"micropip": serve_in_thread(site, "/labs/"),
                   "unpack": serve_in_thread(unpacking_copy(site, Path(scratch)), "/labs/")}
        try:
            bases = {name: base for name, (_, base) in servers.items()}
            result = {**measure(browser, bases, lab, runs), **wheel_bytes(site, bases["micropip"])}
        finally:
            for server, _ in servers.values():
                server.shutdown()
    print_report(result)
    return result


def print_report(result: dict) -> None:
    print(f"\n== micropip: the full boot of {result['lab']} ({result['runs']} runs, medians; floor = loadPyodide() "
          f"cold, {result['floor_cold']:.0f} ms) ==")
    for name in INSTALLERS:
        print(f"  {name:>8}: ready {result[f'ready_{name}']:.0f} ms = {result[f'r_{name}']:.2f} x floor; "
              f"installing the wheel {result[f'r_install_{name}']:.3f} x floor")
    print(f"  micropip costs the worker {result['r_install_cost']:+.3f} x floor installing and the whole boot "
          f"{result['r_cost']:+.2f} x floor (medians of the per-run differences), "
          f"and a first visit {result['micropip_wheel'] / 1000:.0f} KB for its wheel "
          f"({result['micropip_wheel_gzip'] / 1000:.0f} KB gzipped)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--lab", default="v2_02")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    site = Path(args.site)
    lab = next(lab for lab in json.loads((site / "labs.json").read_text())["labs"] if lab["id"] == args.lab)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        report(browser, site, lab, args.runs)
        browser.close()


if __name__ == "__main__":
    main()
