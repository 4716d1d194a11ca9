"""V1-06 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_06 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_06")
    assert page.control_disabled("a1_seq")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_total")

    # Act I: lock, then the score memory quadruples when the prompt doubles.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_total"), lab.memory(4096, False).total_b)
    scores = page.metric("a1_scores")
    page.set_control("a1_seq", 8192)
    assert close(page.metric("a1_scores"), 4 * scores)
    page.chart_drawn("a1_memory")

    # Failure: a long prompt does not fit the H100 without FlashAttention; FlashAttention fits it.
    page.set_control("a1_seq", 65536)
    assert page.failure_visible("a1_attn_oom")
    page.set_control("a1_flash", True)
    assert not page.failure_visible("a1_attn_oom")
    assert close(page.metric("a1_scores"), 0.0)
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"

    # Act II: the deep default misses the budget; four layers meet it.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_vs_wide"), lab.act2_truth())
    assert page.failure_visible("a2_sla_fail")
    page.chart_drawn("a2_depth")
    page.set_control("a2_layers", 4)
    assert not page.failure_visible("a2_sla_fail")
    assert close(page.metric("a2_vs_wide"), 1.0)

    # The CUDA graph overrides the launch slider; the device moves its default.
    page.set_control("a2_graph", True)
    assert page.control_disabled("a2_launch")
    page.set_control("a2_graph", False)
    page.set_control("a2_device", "cloud")
    assert close(float(page.page.get_attribute('[data-control="a2_launch"]', "value")), 5e-6)

    # Weights that do not fit the Orin.
    page.set_control("a2_device", "edge")
    page.set_control("a2_params", 10e9)
    assert page.failure_visible("a2_oom")
    page.set_control("a2_params", 100e6)
    assert not page.failure_visible("a2_oom")
    page.lock("a2_reflect", "C")

    (attempt,) = page.attempts("v1_06")
    assert attempt["complete"]
    assert set(attempt["failures_hit"]) == {"a1_attn_oom", "a2_sla_fail", "a2_oom"}
    assert attempt["results"]["depth"] == 4
