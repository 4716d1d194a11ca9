"""A Pyodide memory snapshot with micropip and pylabs already imported, made at build time.

``make_snapshot(site_dir, wheel)`` runs ``snapshot.mjs`` in Node against the vendored Pyodide and
the wheel just built (installed with micropip, as the worker's full boot does; every lab imported
and rendered once), gzips the memory image and writes it into the site as
``assets/pylabs/snapshot-<key>.bin.gz``, where ``key`` hashes the Pyodide version, its build id,
the pinned micropip and the wheel's bytes: a new Pyodide or a new pylabs gives a new name, and the
worker checks the same key in ``runtime.json`` before it uses the file. Nothing is committed; the
image is kept in ``.cache/snapshot/`` by key so a rebuild without Python changes does not redo it.

Set ``PYLABS_SNAPSHOT=off`` to build without one (the page then boots Pyodide as before).
The browser decompresses with ``DecompressionStream("gzip")`` (GitHub Pages does not compress
binary files, so the file is stored compressed).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from build_scripts import micropip_wheel

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "snapshot"
SCRIPT = Path(__file__).with_name("snapshot.mjs")
MEMORY_JS = ROOT / "docs" / "assets" / "pylabs" / "worker" / "snapshot-memory.js"  # how the restore grows the memory
MICROPIP_JS = ROOT / "docs" / "assets" / "pylabs" / "worker" / "micropip.js"  # how the wheel is installed and micropip's objects named


class SnapshotError(RuntimeError):
    """Node could not make the snapshot."""


def enabled() -> bool:
    return os.environ.get("PYLABS_SNAPSHOT", "on").lower() not in ("0", "off", "no", "false")


def pyodide_build_id(pyodide_dir: Path) -> str:
    """The BUILD_ID Pyodide writes into and checks against every snapshot."""
    found = re.search(r'BUILD_ID:"([0-9a-f]+)"', (pyodide_dir / "pyodide.mjs").read_text())
    return found.group(1) if found else "unknown"


def snapshot_key(pyodide_version: str, build_id: str, wheel: Path) -> str:
    digest = hashlib.sha256()
    for part in (pyodide_version, build_id, SCRIPT.read_text(), MEMORY_JS.read_text(), MICROPIP_JS.read_text(),
                 micropip_wheel.SHA256):
        digest.update(part.encode() + b"\0")
    digest.update(wheel.read_bytes())
    return digest.hexdigest()[:16]


def make_snapshot(site_dir: Path, wheel: Path, pyodide_version: str) -> dict | None:
    """Write the gzipped snapshot into the site; return its runtime.json entry (None when off)."""
    if not enabled():
        return None
    pyodide_dir = site_dir / "vendor" / "pyodide"
    build_id = pyodide_build_id(pyodide_dir)
    key = snapshot_key(pyodide_version, build_id, wheel)
    cached = CACHE / f"{key}.bin.gz"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        raw = CACHE / f"{key}.bin"
        done = subprocess.run(["node", str(SCRIPT), str(pyodide_dir), str(wheel), str(raw)],
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0:
            raise SnapshotError(f"node {SCRIPT.name} failed:\n{done.stderr[-2000:]}")
        partial = cached.with_suffix(".part")
        with raw.open("rb") as source, gzip.GzipFile(partial, "wb", compresslevel=6, mtime=0) as target:
            shutil.copyfileobj(source, target, 1 << 20)
        raw.unlink()
        partial.replace(cached)
        for old in sorted(CACHE.glob("*.bin.gz"), key=lambda p: p.stat().st_mtime)[:-4]:
            old.unlink()  # keep the cache small: the last four images
    name = f"snapshot-{key}.bin.gz"
    shutil.copy2(cached, site_dir / "assets" / "pylabs" / name)
    return {"url": f"assets/pylabs/{name}", "key": key, "pyodide": pyodide_version, "build_id": build_id,
            "bytes": cached.stat().st_size, "memory": uncompressed_size(cached), "micropip": micropip_wheel.VERSION}


def uncompressed_size(path: Path) -> int:
    """The image's size (gzip's ISIZE trailer; the image is far below 4 GiB): the memory the
    worker grows Pyodide's to before restoring."""
    with path.open("rb") as handle:
        handle.seek(-4, os.SEEK_END)
        return int.from_bytes(handle.read(4), "little")


if __name__ == "__main__":
    print(json.dumps({"enabled": enabled()}))
