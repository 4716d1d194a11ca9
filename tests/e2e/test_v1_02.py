"""V1-02 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): edge
context runs int8 weights and the car."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_02 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_edge_context_runs_int8_weights_and_the_car(lab_page):
    page = lab_page.open("v1_02")
    page.set_control("context", "edge")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_speedup"), lab.act1_truth("edge"))  # INT8 weights on the FP16 tensor cores: 1.93x
    assert not page.failure_visible("a1_upgrade_wasted")
    page.lock("a1_reflect", "D")
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert page.control_disabled("a2_distance")
    assert not page.failure_visible("a2_sla_violated")
    page.set_control("a2_batch", 64)
    assert page.failure_visible("a2_sla_violated")
    page.set_control("a2_batch", 1)
    assert not page.failure_visible("a2_sla_violated")
