"""The service worker that keeps the site usable offline after one visit.

``write_service_worker(site_dir, runtime)`` writes ``<site>/sw.js`` from the template
``docs/assets/pylabs/inline/sw.js`` with the
build id (a hash of every file the build wrote), the core files every lab needs (Pyodide with
micropip's wheel beside it, the pylabs wheel, the snapshot, the shell's scripts and styles) and each one's SHA-256, against which the
service worker checks the copies a first visit hands it (handoff.js). A new build changes the id, so the
browser installs the new worker, which deletes the old build's cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

TEMPLATE = Path(__file__).resolve().parents[1] / "docs" / "assets" / "pylabs" / "inline" / "sw.js"


def build_id(site_dir: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(p for p in site_dir.rglob("*") if p.is_file() and p.name != "sw.js"):
        digest.update(path.relative_to(site_dir).as_posix().encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def core_files(site_dir: Path, runtime: dict) -> list[str]:
    # the page, worker and shared realms (inline/ is not copied: its scripts are inlined or written here)
    shell = sorted(p.relative_to(site_dir).as_posix() for p in (site_dir / "assets" / "pylabs").rglob("*.js"))
    # Material's search worker: a lab page's search-later.js imports it, sometimes before we control the page
    search = sorted(p.relative_to(site_dir).as_posix() for p in (site_dir / "assets" / "javascripts" / "workers").glob("*.js"))
    pyodide = sorted(p.relative_to(site_dir).as_posix() for p in (site_dir / "vendor" / "pyodide").iterdir())
    files = ["assets/pylabs/runtime.json", "assets/pylabs/pylabs.css", "assets/pylabs/course.css", runtime["wheel"], runtime["plotly"], *shell, *search, *pyodide]
    if runtime.get("snapshot"):
        files.append(runtime["snapshot"]["url"])
    # What Material fetches from a page (instant navigation, search) and the labs' manifest.
    files += [name for name in ("sitemap.xml", "search/search_index.json", "labs.json") if (site_dir / name).exists()]
    return files


def digests(site_dir: Path, files: list[str]) -> dict[str, str]:
    """SHA-256 (hex) of each listed file that exists, by its entry (a query string is not part of the file)."""
    paths = {entry: site_dir / entry.split("?")[0] for entry in files if entry != "sitemap.xml"}  # a host may rewrite it
    return {entry: hashlib.sha256(path.read_bytes()).hexdigest() for entry, path in paths.items() if path.is_file()}


def write_service_worker(site_dir: Path, runtime: dict) -> str:
    """Write sw.js; return the build id."""
    build = build_id(site_dir)
    core = core_files(site_dir, runtime)
    text = (TEMPLATE.read_text().replace("__BUILD__", build).replace("__CORE__", json.dumps(core))
            .replace("__DIGESTS__", json.dumps(digests(site_dir, core))))
    (site_dir / "sw.js").write_text(text)
    return build
