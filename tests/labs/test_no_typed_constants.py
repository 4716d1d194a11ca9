"""Physical quantities live in the constants registry or a lab's Scenario, never inline.

A numeric literal of physical size (|v| >= 100, or 0 < |v| < 0.01, in SI units
that means bytes, FLOP/s, seconds of latency...) is allowed only inside a lab's
``Scenario`` class or as an argument of a control or prediction-range
declaration (Slider, Range, Toggle, Option). Anything else fails, so a number
typed into a lab cannot drift from its cited source.

Unit conversions (milliseconds per second, bytes per GB, percent per fraction) are
neither: they are the named units of ``pylabs.physics.units`` (``U.MS_PER_S``), and
a Scenario field that only holds one fails, so the Scenario keeps the lab's own
assumptions.
"""

import ast
import re
from pathlib import Path

import pytest

from pylabs.labs import LAB_MODULES
from pylabs.physics import units

LABS_DIR = Path(__file__).resolve().parents[2] / "pylabs" / "labs"
DECLARATIONS = {"Slider", "Range", "Toggle", "Option", "Choice"}


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


UNIT_VALUES = {value for name, value in vars(units).items() if name.isupper()}
# a name that is a unit, or one unit per another: ms, pct, tera, hour_s, bytes_per_gb, pp_per_unit ...
_UNIT = r"(ms|us|s|m|km|mph|gb|tb|b|bytes|w|watts|kw|pp|pct|percent|chart_bytes|chart_percent)"
UNIT_NAME = re.compile(rf"^({_UNIT}|{_UNIT}_({_UNIT}|{_UNIT}_per_{_UNIT}|per_{_UNIT}|per_unit)"
                       rf"|per_(thousand|million|billion|trillion|tera|unit)|eur_per_million|tera|kibi|kilo_tokens"
                       rf"|(minute|hour|day)_s)$")


def unit_fields(tree: ast.AST) -> list[str]:
    """Scenario fields that hold nothing but a unit conversion."""
    return [f"line {node.lineno}: {node.target.id}" for cls in ast.walk(tree)
            if isinstance(cls, ast.ClassDef) and cls.name == "Scenario"
            for node in cls.body
            if isinstance(node, ast.AnnAssign) and isinstance(node.value, ast.Constant)
            and node.value.value in UNIT_VALUES and UNIT_NAME.match(node.target.id)]


@pytest.mark.parametrize("path", sorted(LABS_DIR.glob("vol*/*.py")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_scenarios_hold_no_unit_conversions(path):
    assert unit_fields(ast.parse(path.read_text())) == [], f"{path.name}: use pylabs.physics.units (U.MS_PER_S, ...)"


def test_the_check_catches_a_unit_field():
    tree = ast.parse("class Scenario:\n    ms_per_s: float = 1e3\n    hour_s: float = 3600.0\n"
                     "    rate_per_s: float = 1000.0\n    lag_s: float = 60.0\n")
    assert unit_fields(tree) == ["line 2: ms_per_s", "line 3: hour_s"]
