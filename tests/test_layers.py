"""No module imports from a layer above its own.

physics → framework → labs → bridge → build_scripts → tools: the physics knows no lab, the framework
(the vocabulary and the one renderer) knows no particular lab, a lab knows no page or browser, the
bridge serves the browser from the labs, the build writes the site from all of them, and the
developer tools may use the build but the build never needs a tool.

Placed by what they import and who needs them:
- ``pylabs`` (the package root) holds only the version: below everything.
- ``ledger_letters`` and ``ledger`` sit with the framework. The ledger is the format a lab's record
  is kept in and knows no lab; the framework's ``Lab`` reads an answer of an older build through
  ``ledger_letters``, so they cannot sit higher.
- ``ledger_view`` and ``course/`` sit with the bridge: they are views over every lab in the
  registry (the Design Ledger page, hand-ins, the class page) that the browser asks for through
  the bridge.

Every import counts, at the top of a module or inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

LAYERS = ("physics", "framework", "labs", "bridge", "build_scripts", "tools")
PLACES = {
    "pylabs": "physics",
    "pylabs.physics": "physics",
    "pylabs.framework": "framework",
    "pylabs.ledger_letters": "framework",
    "pylabs.ledger": "framework",
    "pylabs.labs": "labs",
    "pylabs.bridge": "bridge",
    "pylabs.ledger_view": "bridge",
    "pylabs.course": "bridge",
    "build_scripts": "build_scripts",
    "tools": "tools",
}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for folder in ("pylabs", "build_scripts", "tools")
           for p in sorted((ROOT / folder).rglob("*.py"))}


def layer(name: str) -> str | None:
    """The layer of a module of this project (the longest place that contains it); None for others."""
    places = [place for place in PLACES if name == place or name.startswith(place + ".")]
    return PLACES[max(places, key=len)] if places else None


def imported(name: str, path: Path) -> set[str]:
    """The project modules ``name`` imports (relative imports resolved; ``from a import b`` is a.b
    when b is a module)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            source = ".".join(filter(None, (base, node.module or "")))
            for alias in node.names:
                found.add(f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source)
    return {module for module in found if layer(module) is not None}


def test_every_module_has_a_place():
    assert [name for name in MODULES if layer(name) is None] == []


def test_no_import_from_a_layer_above():
    upward = {name: sorted(m for m in imported(name, path) if LAYERS.index(layer(m)) > LAYERS.index(layer(name)))
              for name, path in MODULES.items()}
    assert {name: above for name, above in upward.items() if above} == {}


def test_the_check_sees_an_upward_import(tmp_path):
    """The renderer once imported the lab registry to link its connections."""
    module = tmp_path / "render.py"
    module.write_text("def linked():\n    from pylabs.labs import get\n    from .lab import Lab\n")
    found = imported("pylabs.framework.render", module)
    assert found == {"pylabs.labs", "pylabs.framework.lab"}
    assert LAYERS.index(layer("pylabs.labs")) > LAYERS.index(layer("pylabs.framework.render"))
