"""micropip in the site: PyPI's wheel, pinned by its SHA-256, and the vendored lock file pointed at it.

The npm ``pyodide`` package ships Pyodide's core and its lock file (``pyodide-lock.json``), not its
packages: the lock names ``micropip-0.11.1-py3-none-any.whl`` with the SHA-256 of Pyodide's own
build of it, which only Pyodide's CDN serves. PyPI's wheel of the same version (Requires-Python >=
3.13, so pip on Python 3.11 hides it) is pure Python and imports on the Pyodide we vendor, but its
bytes differ. The build downloads PyPI's wheel once into ``.cache/micropip/`` (a warm cache
builds offline), refuses any bytes whose hash is not ``SHA256``, copies the wheel next to Pyodide in
``<site>/vendor/pyodide/`` and rewrites micropip's entry in the vendored lock file (file name and
hash; the name and version are the ones Pyodide expects). ``pyodide.loadPackage("micropip")``
then finds, checks and installs it as it would Pyodide's own build.
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "micropip"

VERSION = "0.11.1"
FILE_NAME = f"micropip-{VERSION}-py3-none-any.whl"
SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
URL = ("https://files.pythonhosted.org/packages/17/54/d737f98fe5da2fd3375de34e9231c56550eefdd33ae9b671a25070792430/"
       + FILE_NAME)


class MicropipError(RuntimeError):
    """The micropip wheel could not be had with the pinned hash."""


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def checked(data: bytes, source: str) -> bytes:
    """``data`` when its hash is the pinned one; else the build stops and says what arrived."""
    got = sha256(data)
    if got != SHA256:
        raise MicropipError(f"{FILE_NAME} from {source} has SHA-256 {got}, not the pinned {SHA256} "
                            f"(build_scripts/micropip_wheel.py): refusing to ship it")
    return data


def wheel_bytes(cache: Path = CACHE, url: str = URL) -> bytes:
    """The pinned wheel, from the cache when it holds the right bytes, else downloaded into it."""
    cached = cache / FILE_NAME
    if cached.is_file():
        data = cached.read_bytes()
        if sha256(data) == SHA256:
            return data
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            data = checked(response.read(), url)
    except OSError as error:
        raise MicropipError(f"{FILE_NAME} is not in {cache} and could not be downloaded from {url} ({error}); "
                            "build once with the network on") from error
    cache.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".part")
    partial.write_bytes(data)
    partial.replace(cached)
    return data


def point_lock_at(lock: dict) -> dict:
    """The lock file with micropip's entry naming PyPI's wheel (the rest untouched)."""
    entry = lock.get("packages", {}).get("micropip")
    if not entry or entry.get("version") != VERSION:
        found = entry.get("version") if entry else "no entry"
        raise MicropipError(f"the vendored pyodide-lock.json has micropip {found}, the build pins {VERSION}: "
                            "update build_scripts/micropip_wheel.py with the new Pyodide")
    entry.update(name="micropip", file_name=FILE_NAME, sha256=SHA256)
    return lock


def ship(pyodide_dir: Path) -> Path:
    """Put the wheel beside the vendored Pyodide and point its lock file at it; return the wheel."""
    target = pyodide_dir / FILE_NAME
    target.write_bytes(wheel_bytes())
    lock_path = pyodide_dir / "pyodide-lock.json"
    lock = point_lock_at(json.loads(lock_path.read_text()))
    lock_path.write_text(json.dumps(lock))
    return target
