"""V1-10 in a real browser: the student walkthrough, the MobileNetV2 collapse, and the tier planner's
out-of-memory state reached and left through the instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_10 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_10")
    assert page.control_disabled("a1_format")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_drop")

    # Act I: "as good as FP32" is wrong; torchvision's per-channel INT8 ResNet-50 loses 0.21 pp (C).
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_drop"), lab.act1_truth())
    assert lab.ACT1_PREDICTION.answer() == "C"
    assert close(page.metric("a1_size"), 25_557_032)
    assert page.failure_visible("a1_over_budget")
    page.chart_drawn("a1_frontier")
    page.set_control("a1_format", "int4")
    assert not page.failure_visible("a1_over_budget")
    page.set_control("a1_format", "fp16")
    assert page.control_disabled("a1_granularity")
    page.set_control("a1_format", "int8")
    page.set_control("a1_model", "mobilenetv2")
    page.set_control("a1_granularity", "per_tensor")
    assert page.failure_visible("a1_collapse")
    page.set_control("a1_scheme", "qat")
    assert not page.failure_visible("a1_collapse")
    assert close(page.metric("a1_drop"), 0.0022)
    page.set_control("a1_scheme", "ptq")
    page.set_control("a1_granularity", "per_channel")
    assert not page.failure_visible("a1_collapse")
    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the research team's plan is out of memory everywhere; the key plan fits.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_oom_tiers"), 3)
    assert page.failure_visible("a2_out_of_memory")
    assert close(page.metric("a2_rate_flagship"), 0)
    page.chart_drawn("a2_tiers")
    page.chart_drawn("a2_frontier")
    page.set_control("a2_flagship", "8b_int4")
    page.set_control("a2_mid", "8b_int3")
    page.set_control("a2_budget", "1b_int4")
    assert close(page.metric("a2_oom_tiers"), 0)
    assert not page.failure_visible("a2_out_of_memory")
    assert close(page.metric("a2_budget"), lab.VARIANTS["1b_int4"].footprint(2048))
    page.set_control("a2_context", 8192)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_context", 2048)
    page.lock("a2_reflect", "B")
    assert page.verdict("a2_reflect") == "correct"
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v1_10")
    assert attempt["complete"]
    assert {"a1_collapse", "a2_out_of_memory"} <= set(attempt["failures_hit"])


def test_the_context_sets_act_is_device_and_the_key_holds(lab_page):
    """A context switch in the browser (review): Edge moves Act I's latency to the Orin's, the key stays C,
    and the context locks with the first answer; INT4 after training collapses ResNet-50 (Krishnamoorthi
    2018, Table 5: 21.2 pp) and training with the rounding leaves the collapse."""
    page = lab_page.open("v1_10")
    page.set_control("context", "edge")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert page.control_disabled("context")
    edge = lab.config(lab.LAB.parse({"answers": {}, "controls": {"context": "edge"}}))
    assert close(page.metric("a1_latency"), edge.latency_s())
    page.set_control("a1_format", "int4")
    assert page.failure_visible("a1_collapse")
    assert close(page.metric("a1_drop"), 0.212)
    page.set_control("a1_scheme", "qat")
    assert not page.failure_visible("a1_collapse")
