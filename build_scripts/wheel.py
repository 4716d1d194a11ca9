"""Build the pure-Python ``pylabs`` wheel that Pyodide loads, byte-for-byte reproducible.

A wheel is a zip with the package files and a ``.dist-info`` folder (METADATA,
WHEEL, RECORD). Fixed timestamps and sorted entries make the same sources give
the same bytes, so the content hash can name the file in the browser cache.
"""

from __future__ import annotations

import base64
import hashlib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EPOCH = (2020, 1, 1, 0, 0, 0)


def _version() -> str:
    namespace: dict = {}
    exec((ROOT / "pylabs" / "__init__.py").read_text(), namespace)
    return namespace["__version__"]


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def package_files() -> list[tuple[str, bytes]]:
    files = sorted(p for p in (ROOT / "pylabs").rglob("*.py") if "__pycache__" not in p.parts)
    return [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in files]


def build_wheel(out_dir: Path) -> Path:
    """Write ``pylabs-<version>-py3-none-any.whl`` into ``out_dir`` and return its path."""
    version = _version()
    dist_info = f"pylabs-{version}.dist-info"
    entries = package_files()
    entries.append((f"{dist_info}/METADATA",
                    f"Metadata-Version: 2.1\nName: pylabs\nVersion: {version}\n"
                    "Summary: ML Systems labs: physics, controllers, renderer\n".encode()))
    entries.append((f"{dist_info}/WHEEL",
                    b"Wheel-Version: 1.0\nGenerator: build_scripts.wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    record = "\n".join(_record_line(n, d) for n, d in entries) + f"\n{dist_info}/RECORD,,\n"
    entries.append((f"{dist_info}/RECORD", record.encode()))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"pylabs-{version}-py3-none-any.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as wheel:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(info, data)
    return path


def content_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


if __name__ == "__main__":
    built = build_wheel(ROOT / "dist")
    print(built, content_hash(built))
