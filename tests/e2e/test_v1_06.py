"""V1-06 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
edge context carries into both acts."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_06 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_edge_context_carries_into_both_acts(lab_page):
    """Review: the context chosen before the first lock sets the Orin NX in both acts: Act I's memory and
    longest prompt, Act II's prompt (its assumed 20 µs), its key (19.0 %, A) and its budget failure."""
    page = lab_page.open("v1_06")
    page.set_control("context", "edge")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_max_ctx"), lab.max_context(lab.device("edge"), False))
    page.lock("a1_reflect", "D")
    prompt = page.question("a2_predict").inner_text()
    assert "Orin NX" in prompt and "20 µs" in prompt
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_wide_share"), lab.act2_truth("edge"))
    assert page.failure_visible("a2_sla_fail")
