"""Principle 1: change a registry constant and every lab page follows (nothing typed in)."""

import importlib

import pytest

from pylabs.framework.render import render_lab
from pylabs.labs import LAB_MODULES
from pylabs.physics import constants
from tests.labs.helpers import answered


# The constant each lab is checked against: the H100 peak, unless the lab computes no FLOPs.
CONSTANT_READ = {"v2_03": "IB_NDR_BW"}


def page(lab_id: str) -> str:
    lab = importlib.reload(importlib.import_module(LAB_MODULES[lab_id])).LAB
    return str(render_lab(lab, answered(lab, {}, through=lab.questions[-1].id)))


@pytest.mark.parametrize("lab_id", sorted(LAB_MODULES))
def test_changing_the_h100_peak_changes_the_page(lab_id, monkeypatch):
    before = page(lab_id)
    name = CONSTANT_READ.get(lab_id, "H100_PEAK_BF16_DENSE")
    monkeypatch.setattr(constants, name, getattr(constants, name) * 2)
    after = page(lab_id)
    monkeypatch.undo()
    page(lab_id)  # reload with the real constant for the tests that follow
    assert after != before
