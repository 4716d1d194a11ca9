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

    # Act I (Cloud): lock "the square" and miss; the total grows 102×, not 596×.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_total"), lab.memory(4096, False).total_b)
    assert close(page.metric("a1_vs_today"), lab.act1_truth())
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
    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"

    # Act II on the H100: the wide model needs 6.25 % of the deep one's time; the budget holds.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_wide_share"), lab.act2_truth("cloud"))
    assert not page.failure_visible("a2_sla_fail")
    page.chart_drawn("a2_depth")

    # On the Orin (its launch cost follows) the deep model misses the budget; four layers meet it.
    page.set_control("a2_device", "edge")
    assert close(float(page.page.get_attribute('[data-control="a2_launch"]', "value")), 20e-6)
    assert page.failure_visible("a2_sla_fail")
    page.set_control("a2_layers", 4)
    assert not page.failure_visible("a2_sla_fail")
    assert close(page.metric("a2_wide_share"), 1.0)

    # The CUDA graph overrides the launch slider.
    page.set_control("a2_graph", True)
    assert page.control_disabled("a2_launch")
    page.set_control("a2_graph", False)

    # Weights that do not fit the Orin.
    page.set_control("a2_params", 10e9)
    assert page.failure_visible("a2_oom")
    page.set_control("a2_params", 100e6)
    assert not page.failure_visible("a2_oom")
    page.lock("a2_reflect", "B")
    assert page.verdict("a2_reflect") == "correct"

    (attempt,) = page.attempts("v1_06")
    assert attempt["complete"]
    assert set(attempt["failures_hit"]) == {"a1_attn_oom", "a2_sla_fail", "a2_oom"}
    assert attempt["results"]["depth"] == 4


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
