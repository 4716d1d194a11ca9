"""V1-11 in a real browser: the student walkthrough (the kernel already at its ceiling, the roofline
drawn, batching the projection), and the decode analyzer's OOM reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_11 as lab
from pylabs.physics import constants as C
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_11")
    assert page.control_disabled("a1_m")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_ai")

    # The context is free until the first lock: the edge and back to the H100.
    page.set_control("context", "edge")
    page.set_control("context", "cloud")

    # Act I: "tuning reaches the peak" (D) is wrong; the kernel is on its memory roof.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_ai"), lab.SCENARIO_KERNEL.ai)
    assert close(page.metric("a1_rate"), 26.696e12, rel=1e-4)
    page.chart_drawn("a1_roofline")
    page.set_control("a1_m", 64)
    assert close(page.metric("a1_rate"), 207.9e12, rel=1e-3)
    page.set_control("a1_square", True)
    assert page.control_disabled("a1_m")
    page.set_control("a1_hidden", 512)
    page.set_control("a1_precision", "fp32")
    assert close(page.metric("a1_rate"), C.H100_PEAK_FP32)
    page.set_control("a1_square", False)
    before = page.metric("a1_chain_time")
    page.set_control("a1_fused", True)
    assert page.metric("a1_chain_time") < before
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: batching the decode.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_tok_s"), 8698, rel=5e-4)
    assert close(page.metric("a2_speedup"), lab.act2_truth())
    page.chart_drawn("a2_throughput")
    page.chart_drawn("a2_roofline")
    page.set_control("a2_batch", 512)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_weights", "int4")
    assert not page.failure_visible("a2_out_of_memory")
    page.set_control("a2_mha", True)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_batch", 64)
    assert not page.failure_visible("a2_out_of_memory")
    page.lock("a2_reflect", "C")
    assert page.verdict("a2_reflect") == "incorrect"
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v1_11")
    assert attempt["complete"]
    assert "a2_out_of_memory" in attempt["failures_hit"]
