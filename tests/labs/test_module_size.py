"""Issue 10: a lab module stays readable top to bottom, so it stays at 600 lines or fewer; its
scenario and model move to ``vN_NN_model.py`` beside it when it would not (AUTHORING.md)."""

from pathlib import Path

import pytest

LABS_DIR = Path(__file__).resolve().parents[2] / "pylabs" / "labs"
LIMIT = 600
MODULES = sorted(p for p in LABS_DIR.glob("vol*/*.py") if p.name != "__init__.py")


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.stem)
def test_module_stays_under_the_limit(path):
    lines = len(path.read_text().splitlines())
    assert lines <= LIMIT, f"{path.name} has {lines} lines; move its scenario and model to {path.stem}_model.py"
