"""Every pointer in code and tests leads somewhere inside this repository.

The curriculum specs, the seed-lab audit and the background documents the code was first written against
are not in the repository; what the code needs from them is in ``handbook/``. So no file under the
folders below may point at them, nor at an issue number a reader cannot follow, and every
``handbook/...`` pointer must name a file, a section (``§N``, a ``## N`` heading) or an errata entry
(``#eN``) that exists.
"""

from __future__ import annotations

import re
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("pylabs", "tests", "docs/assets", "build_scripts", "tools")
SUFFIXES = {".py", ".js", ".mjs", ".css", ".md", ".html", ".txt", ".toml", ".yml", ".yaml"}
SKIP_PARTS = {"node_modules", "golden", "__pycache__", "fixtures"}

# pointers out of the repository, and what each looks like
OUTSIDE = {
    "issue number": re.compile(r"\b[Ii]ssues? (?:#?\d|\(\d)"),
    "curriculum spec": re.compile(r"\bVOL[12]\b|VOL[12]_|\bspec(?:'s)? §|§V[12]-\d\d"),
    "spec errata": re.compile(r"\bERRATA\b"),
    "seed-lab audit": re.compile(r"\bAUDIT\b(?!_)|\bSEED_LABS\b|\bAPI\.md\b"),
    "background document": re.compile(r"\b(?:TESTING|DESIGN|STYLE|DONE)\.md\b|(?<![\w.])\.\./shared/(?:[A-Z]+\.md|physics|labs|seeds|hooks)"
                                      r"|(?<![\w./-])/?shared/(?:physics|labs|seeds|hooks|README)"),
}
HANDBOOK = re.compile(r"handbook/((?:labs/)?[\w-]+\.md)(?:#(e\d+)|,? §(\d+))?")

def sources():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            rel = path.relative_to(ROOT)
            if (path.is_file() and path.suffix in SUFFIXES and path != Path(__file__).resolve()
                    and not SKIP_PARTS.intersection(rel.parts)):
                yield rel, path.read_text(encoding="utf-8", errors="replace")


def test_no_pointer_leads_out_of_the_repository():
    found = [f"{rel}:{n}: {kind}: {line.strip()[:120]}"
             for rel, text in sources()
             for n, line in enumerate(text.splitlines(), 1)
             for kind, pattern in OUTSIDE.items() if pattern.search(line)]
    assert not found, f"{len(found)} pointers lead out of the repository:\n" + "\n".join(found[:60])


def test_every_handbook_pointer_resolves():
    missing = []
    for rel, text in sources():
        for m in HANDBOOK.finditer(text):
            target = ROOT / "handbook" / m[1]
            if not target.exists():
                missing.append(f"{rel}: {m[0]} (no such file)")
                continue
            doc = target.read_text(encoding="utf-8")
            if m[2] and f'<a id="{m[2]}"></a>' not in doc:
                missing.append(f"{rel}: {m[0]} (no entry {m[2]})")
            if m[3] and not re.search(rf"^##+ {m[3]}\b", doc, re.M):
                missing.append(f"{rel}: {m[0]} (no section {m[3]})")
    assert not missing, f"{len(missing)} handbook pointers do not resolve:\n" + "\n".join(sorted(set(missing))[:60])
