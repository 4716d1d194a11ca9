"""V1-12 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): edge
context names the boards and moves the energy."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_12 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_edge_context_names_the_boards_and_moves_the_energy(lab_page):
    """Review: a context switch in the browser. Edge names its boards in the story and the question
    and prices the run's energy at the Orin NX's 25 W; the key (A, 6.12×) is the same."""
    page = lab_page.open("v1_12")
    page.set_control("context", "edge")
    assert "Orin NX boards" in page.question("a1_predict").inner_text()
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    wall = lab.S.one_worker_s / lab.act1_truth()
    assert close(page.metric("a1_energy"), lab.S.workers * wall * lab.C.ORIN_NX_POWER_MAX_W)
    assert close(page.metric("a1_speedup"), lab.act1_truth())
