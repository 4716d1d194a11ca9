"""The labs' own Plotly.js bundle: Plotly's core plus the trace types in ``plotly_bundle.json``.

``plotly_bundle.mjs`` bundles and minifies the npm ``plotly.js`` package's module entry points
(``plotly.js/lib/core``, ``plotly.js/lib/bar``, …) with esbuild, both devDependencies pinned by
package-lock.json. Nothing is committed: the bundle is built at site build time and kept in
``.cache/plotly/`` under a key hashing the lockfile, the trace list and the build script, so a
rebuild with the same lockfile copies it instead of bundling again.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "plotly"
LIST = Path(__file__).with_name("plotly_bundle.json")
SCRIPT = Path(__file__).with_name("plotly_bundle.mjs")
LOCKFILE = ROOT / "package-lock.json"


class BundleError(RuntimeError):
    """esbuild could not make the Plotly bundle."""


def bundle_traces() -> tuple[str, ...]:
    """The trace types the bundle draws (the one list the build and the tests read)."""
    return tuple(json.loads(LIST.read_text())["traces"])


def bundle_key() -> str:
    digest = hashlib.sha256()
    for path in (LOCKFILE, LIST, SCRIPT):
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def plotly_bundle() -> Path:
    """The minified bundle for the current lockfile, built once and then taken from the cache."""
    cached = CACHE / f"plotly-{bundle_key()}.min.js"
    if cached.exists():
        return cached
    if not (ROOT / "node_modules" / "plotly.js" / "package.json").exists():
        raise BundleError("node_modules/plotly.js is missing: run `npm ci` (make build does it for you)")
    CACHE.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(cached.name + ".part")
    done = subprocess.run(["node", str(SCRIPT), str(partial)], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    if done.returncode != 0 or not partial.exists():
        raise BundleError(f"node {SCRIPT.name} failed:\n{done.stderr[-3000:]}")
    partial.replace(cached)
    for old in CACHE.glob("plotly-*.min.js"):
        if old != cached:
            old.unlink()  # one bundle per checkout: the lockfile's
    return cached
