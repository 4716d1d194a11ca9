"""V2-12 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
cascade reached and left through the autoscaler and the timeout."""

from __future__ import annotations

import pytest

from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_cascade_reached_and_left_through_the_autoscaler_and_the_timeout(lab_page):
    page = lab_page.open("v2_12")
    page.set_control("context", "exponential")
    for qid, letter in (("a1_predict", "A"), ("a1_reflect", "B"), ("a2_pick", "B")):
        page.lock(qid, letter)
    assert page.verdict("a1_predict") == "correct"
    assert page.failure_visible("a2_cascade")
    page.set_control("a2_fixes", ["autoscaler"])
    assert page.failure_visible("a2_cascade")  # 2 s: the first request gives up at 6 s, long before 35 s
    page.set_control("a2_timeout_s", 12)  # over 35 s × 0.5/1.5 = 11.67 s: nobody gives up before the pods
    assert not page.failure_visible("a2_cascade")
    assert close(page.metric("a2_goodput"), 1 / 1.5) and close(page.metric("a2_capacity_s"), 35.0)
    page.set_control("a2_timeout_s", 11.5)
    assert page.failure_visible("a2_cascade")
