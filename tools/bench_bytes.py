"""What a first visit costs in bytes: `make bench` prints it, or

    .venv/bin/python -m tools.bench_bytes [--site DIR] [--lab v2_02]

A fresh browser profile opens one lab, waits until it is ready and its files are in the offline
copy, and 15 s more (the service worker's install runs after "ready"). The site's server counts
every response it sends, per path; a full response is the file's bytes (this server does not
compress), and per file what gzip at level 6 makes of it, about what GitHub Pages sends for text types (it does not
recompress the gzipped Python image). Rows by file type; a path served more than once is listed
(there should be none: handoff.js). Transfer times are the bytes over 20 and 100 Mbit/s alone,
without latency or the browser's own work. 1 MB = 10^6 bytes.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from build_scripts import micropip_wheel
from tools.serve import serve_in_thread

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
PREFIX = "/labs/"
AFTER_READY_MS = 15_000
LINKS_MBIT = (20, 100)
ALREADY_PACKED = (".gz", ".whl", ".zip", ".woff2", ".png", ".jpg")  # gzip gains nothing; served as they are
TYPES = {"/" + micropip_wheel.FILE_NAME: "micropip wheel", ".html": "HTML", "/": "HTML", ".js": "JavaScript", ".mjs": "JavaScript", ".css": "CSS", ".wasm": "WebAssembly",
         ".zip": "Python standard library", ".gz": "Python image (snapshot)", ".whl": "pylabs wheel", ".json": "JSON",
         ".xml": "sitemap", ".woff2": "fonts", ".svg": "images", ".png": "images"}


def file_type(path: str) -> str:
    return next((name for suffix, name in TYPES.items() if path.endswith(suffix)), "other")


def sizes(site: Path, path: str) -> tuple[int, int]:
    """A served file's bytes as this server sends them, and what gzip -6 makes of them (files
    already packed are counted as they are)."""
    local = site / path[len(PREFIX):].split("?")[0]
    if local.is_dir():
        local = local / "index.html"
    if not local.is_file():
        return 0, 0
    data = local.read_bytes()
    return len(data), len(data) if local.suffix in ALREADY_PACKED else len(gzip.compress(data, 6))


def first_visit(site: Path, lab_id: str) -> dict:
    served: dict[str, list[int]] = {}  # status codes per path
    server, base = serve_in_thread(site, PREFIX, served)
    url = next(lab["url"] for lab in json.loads((site / "labs.json").read_text())["labs"] if lab["id"] == lab_id)
    from playwright.sync_api import sync_playwright
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            context = browser.new_context()
            page = context.new_page()
            page.goto(base + url)
            page.wait_for_selector("html[data-pylabs=ready]", timeout=180_000)
            page.wait_for_selector("html[data-offline=ready]", timeout=180_000)
            page.wait_for_timeout(AFTER_READY_MS)
            browser.close()
    finally:
        server.shutdown()
    rows: dict[str, dict] = {}
    for path, codes in served.items():
        row = rows.setdefault(file_type(path), {"requests": 0, "sent": 0, "gzip": 0})
        full = sum(code == 200 for code in codes)  # a 304 sends no body
        raw, packed = sizes(site, path)
        row["requests"] += len(codes)
        row["sent"] += raw * full
        row["gzip"] += packed * full
    return {"lab": lab_id, "types": rows, "twice": {p: len(s) for p, s in served.items() if len(s) > 1},
            "sent": sum(r["sent"] for r in rows.values()), "gzip": sum(r["gzip"] for r in rows.values())}


def report(result: dict) -> None:
    print(f"\n== First visit of {result['lab']} in bytes: ready, offline copy made, and 15 s more ==")
    print(f"{'file type':<26}{'requests':>9}{'sent, MB':>11}{'gzip, MB':>11}")
    for name, row in sorted(result["types"].items(), key=lambda item: -item[1]["sent"]):
        print(f"{name:<26}{row['requests']:>9}{row['sent'] / 1e6:>11.2f}{row['gzip'] / 1e6:>11.2f}")
    print(f"{'total':<26}{sum(r['requests'] for r in result['types'].values()):>9}"
          f"{result['sent'] / 1e6:>11.2f}{result['gzip'] / 1e6:>11.2f}")
    for mbit in LINKS_MBIT:
        print(f"  at {mbit} Mbit/s the gzip bytes alone take {result['gzip'] * 8 / (mbit * 1e6):.1f} s")
    print("  paths served more than once: " + (", ".join(f"{p} ×{n}" for p, n in result["twice"].items()) or "none"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", default=str(ROOT / "site"))
    parser.add_argument("--lab", default="v2_02")
    args = parser.parse_args()
    report(first_visit(Path(args.site), args.lab))


if __name__ == "__main__":
    main()
