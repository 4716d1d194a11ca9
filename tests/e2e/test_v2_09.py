"""V2-09 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): a
run in flight and the budget failure reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_09 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_a_run_in_flight_and_the_budget_failure_reached_and_left(lab_page):
    page = lab_page.open("v2_09")
    page.set_control("context", "locked")
    page.lock("a1_predict", "B")
    page.lock("a1_reflect", "C")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_best_single"), lab.act2_truth("locked"))
    assert page.control_disabled("a2_m")
    assert "m stays at 21" in page.page.inner_text("#pl-control-a2_m-help")
    assert not page.failure_visible("a2_over_budget")
    page.set_control("a2_k", 5)
    page.set_control("a2_v", "2")
    assert page.failure_visible("a2_over_budget")
    assert close(page.metric("a2_weeks"), 9.0)
    page.set_control("a2_v", "1")
    assert not page.failure_visible("a2_over_budget")
    (attempt,) = page.attempts("v2_09")
    assert "a2_over_budget" in attempt["failures_hit"]
