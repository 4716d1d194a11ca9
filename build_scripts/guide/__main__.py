"""Build the instructor's guide: ``make guide`` or ``python -m build_scripts.guide [--out guide] [--lab v2_02]``.

Writes ``index.html``, one ``<lab>.html`` per lab, ``guide.css``, ``guide.js`` and a copy of KaTeX
(from the pinned npm package) into the folder, and prints how many files and bytes it wrote.
"""

from __future__ import annotations

import argparse
import json
import shutil
from datetime import date
from pathlib import Path

import pylabs
from build_scripts.guide.render import index_page, lab_page
from pylabs.labs import LAB_MODULES, get

HERE = Path(__file__).parent
ROOT = HERE.parents[1]


def build(out: Path, lab_ids: list[str] | None = None) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    labs = [get(x) for x in (lab_ids or LAB_MODULES)]
    for lab in labs:
        (out / f"{lab.id}.html").write_text(lab_page(lab))
    (out / "index.html").write_text(index_page(labs, f"pylabs {pylabs.__version__}, {date.today().isoformat()}"))
    for name in ("guide.css", "guide.js"):
        shutil.copyfile(HERE / name, out / name)
    katex = ROOT / "node_modules" / "katex" / "dist"
    if katex.exists():
        target = out / "vendor" / "katex"
        shutil.rmtree(target, ignore_errors=True)
        target.mkdir(parents=True)
        for name in ("katex.min.js", "katex.min.css"):
            shutil.copyfile(katex / name, target / name)
        shutil.copytree(katex / "fonts", target / "fonts")
    files = [p for p in out.rglob("*") if p.is_file()]
    return {"out": str(out), "labs": len(labs), "files": len(files), "bytes": sum(p.stat().st_size for p in files),
            "pages_bytes": sum(p.stat().st_size for p in out.glob("*.html"))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "guide", help="Default: guide/ at the repository root")
    parser.add_argument("--lab", action="append", help="only this lab (repeatable); default: every lab")
    args = parser.parse_args()
    print(json.dumps(build(args.out, args.lab)))


if __name__ == "__main__":
    main()
