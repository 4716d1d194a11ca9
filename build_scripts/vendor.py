"""Copy the browser runtime from ``node_modules`` (pinned by package-lock.json) into the site.

Nothing is fetched from a CDN: Pyodide's core (with micropip beside it, from PyPI: see
``micropip_wheel.py``), the labs' Plotly.js bundle (built from npm ``plotly.js`` with exactly the trace
types in ``plotly_bundle.json``: see ``plotly_bundle.py``) and KaTeX are served from ``<site>/vendor/``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from build_scripts import micropip_wheel
from build_scripts.plotly_bundle import plotly_bundle

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "node_modules"

PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")


class VendorError(RuntimeError):
    """A browser dependency is missing from node_modules."""


def _need(path: Path) -> Path:
    if not path.exists():
        raise VendorError(f"{path.relative_to(ROOT)} is missing: run `npm ci` (make build does it for you)")
    return path


def package_version(name: str) -> str:
    return json.loads(_need(MODULES / name / "package.json").read_text())["version"]


def vendor(site_dir: Path) -> dict[str, str]:
    """Copy the runtime into ``site_dir/vendor`` and return the versions copied."""
    target = site_dir / "vendor"
    pyodide = target / "pyodide"
    pyodide.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(_need(MODULES / "pyodide" / name), pyodide / name)
    micropip_wheel.ship(pyodide)
    plotly = target / "plotly"
    plotly.mkdir(parents=True, exist_ok=True)
    shutil.copy2(plotly_bundle(), plotly / "plotly.min.js")
    katex = target / "katex"
    if katex.exists():
        shutil.rmtree(katex)
    dist = _need(MODULES / "katex" / "dist")
    katex.mkdir(parents=True)
    for name in ("katex.min.js", "katex.min.css"):
        shutil.copy2(dist / name, katex / name)
    shutil.copytree(dist / "fonts", katex / "fonts", ignore=shutil.ignore_patterns("*.ttf", "*.woff"))
    return {**{name: package_version(name) for name in ("pyodide", "plotly.js", "katex")},
            "micropip": micropip_wheel.VERSION}
