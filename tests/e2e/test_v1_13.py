"""V1-13 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): one
device asks and answers in its own context."""

from __future__ import annotations


import pytest

from pylabs.labs.vol1 import v1_13 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_one_device_asks_and_answers_in_its_own_context(lab_page):
    page = lab_page.open("v1_13")
    page.set_control("context", "edge")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    p99 = page.page.inner_text('[data-metric="a1_p99_s"] .pl-metric__value')
    assert p99 == "419 ms" and p99 in page.page.inner_text('[data-feedback="a1_predict"]')
    page.lock("a1_reflect", "C")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_lag_wait_s"), lab.act2_truth("edge"))
    assert page.control_disabled("a2_replicas") and page.failure_visible("a2_unstable")
    page.chart_drawn("a2_service_curve")
    page.set_control("a2_service_s", 0.008)
    assert not page.failure_visible("a2_unstable") and not page.failure_visible("a2_spike_backlog")
