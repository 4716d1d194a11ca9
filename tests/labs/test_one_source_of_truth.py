"""Principle 1: change a registry constant and every lab page follows (nothing typed in).

Each lab is checked with a constant it reads: the H100 peak where the lab uses it, otherwise
the first registry name the module (or its ``<lab>_model`` module) refers to as ``C.<NAME>``."""

import ast
import importlib
from pathlib import Path

import pytest

from pylabs.framework.render import render_lab
from pylabs.labs import LAB_MODULES
from pylabs.physics import constants
from tests.labs.helpers import answered

LABS_DIR = Path(__file__).resolve().parents[2] / "pylabs" / "labs"
PREFERRED = "H100_PEAK_BF16_DENSE"


def sources(lab_id: str) -> list[Path]:
    """The lab's module and, when it has one, its model module."""
    folder = LABS_DIR / f"vol{lab_id[1]}"
    return [p for p in (folder / f"{lab_id}.py", folder / f"{lab_id}_model.py") if p.exists()]


def constant_read_by(lab_id: str) -> str:
    names = [node.attr for path in sources(lab_id) for node in ast.walk(ast.parse(path.read_text()))
             if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "C"
             and node.attr in constants.REGISTRY]
    assert names, f"{lab_id} reads no registry constant through C.<NAME>"
    return PREFERRED if PREFERRED in names else sorted(names, key=lambda n: (n.startswith("BYTES_PER"), n))[0]


# The constant each lab is checked against: the H100 peak, unless the lab computes no FLOPs. V2-07 reads
# the peak only in its model (the run's compute days); naming it keeps the check there if the model changes.
CONSTANT_READ = {"v2_03": "IB_NDR_BW", "v2_07": "H100_PEAK_BF16_DENSE"}


def page(lab_id: str) -> str:
    """The lab rendered after reloading its model (values computed at import) and then the lab."""
    if len(sources(lab_id)) > 1:
        importlib.reload(importlib.import_module(LAB_MODULES[lab_id] + "_model"))
    lab = importlib.reload(importlib.import_module(LAB_MODULES[lab_id])).LAB
    return str(render_lab(lab, answered(lab, {}, through=lab.questions[-1].id)))


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_changing_a_registry_constant_changes_the_page(lab_id, monkeypatch):
    name = CONSTANT_READ.get(lab_id) or constant_read_by(lab_id)
    before = page(lab_id)
    monkeypatch.setattr(constants, name, getattr(constants, name) * 2)
    after = page(lab_id)
    monkeypatch.undo()
    page(lab_id)  # reload with the real constant for the tests that follow
    assert after != before, f"{lab_id}: doubling {name} left the page unchanged"
