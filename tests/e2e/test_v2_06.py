"""V2-06 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
grown cluster context asks and answers at 1024 gpus."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_06 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_grown_cluster_context_asks_and_answers_at_1024_gpus(lab_page):
    """Review: in the grown cluster the Act I prompt, key and feedback are the 1,024-GPU ones and the
    feedback's ring time equals the card; Act II's card shows the 1,024-GPU gap, still under 1 %."""
    page = lab_page.open("v2_06")
    page.set_control("context", "frontier")
    assert "1,024 GPUs" in page.question("a1_predict").inner_text()
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    ring = page.metric("a1_ring_s")
    assert close(ring, lab.act1_truth("frontier"))
    feedback = page.page.inner_text('[data-feedback="a1_predict"]')
    assert lab.fmt(ring, "s") in feedback
    page.lock("a1_reflect", "D")
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ring_over_hd"), lab.act2_truth("frontier"))
