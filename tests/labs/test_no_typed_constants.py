"""Physical quantities live in the constants registry or a lab's Scenario, never inline.

A numeric literal of physical size (|v| >= 100, or 0 < |v| < 0.01, in SI units
that means bytes, FLOP/s, seconds of latency...) is allowed only inside a lab's
``Scenario`` class or as an argument of a control or prediction-range
declaration (Slider, Range, Toggle, Option). Anything else fails, so a number
typed into a lab cannot drift from its cited source.
"""

import ast
from pathlib import Path

import pytest

from pylabs.labs import LAB_MODULES

LABS_DIR = Path(__file__).resolve().parents[2] / "pylabs" / "labs"
DECLARATIONS = {"Slider", "Range", "Toggle", "Option", "Choice", "FailureSpec", "Checks"}  # witnesses set controls too


def physical(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and (
        abs(value) >= 100 or 0 < abs(value) < 0.01)


def offending_literals(tree: ast.AST) -> list[str]:
    allowed: set[int] = set()
    for node in ast.walk(tree):
        inside = (isinstance(node, ast.ClassDef) and node.name == "Scenario") or (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in DECLARATIONS)
        if inside:
            allowed.update(id(child) for child in ast.walk(node))
    return [f"line {node.lineno}: {node.value!r}" for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and physical(node.value) and id(node) not in allowed]


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_lab_module_types_no_physical_constants(lab_id):
    tree = ast.parse((LABS_DIR / f"vol{lab_id[1]}" / f"{lab_id}.py").read_text())
    assert offending_literals(tree) == [], f"{lab_id}: move these into constants.py or Scenario"


HELPERS = sorted(p for p in LABS_DIR.glob("vol*/*.py") if p.stem not in LAB_MODULES and p.stem != "__init__")


@pytest.mark.parametrize("path", HELPERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_lab_helper_modules_type_no_physical_constants(path):
    """Modules beside the labs (contexts, a capstone's model) follow the same rule."""
    assert offending_literals(ast.parse(path.read_text())) == [], f"{path.name}: move these into constants.py or Scenario"


def test_the_check_catches_a_typed_bandwidth():
    assert offending_literals(ast.parse("bw = 450e9\nclass Scenario:\n    tokens = 4096.0\n")) == ["line 1: 450000000000.0"]
