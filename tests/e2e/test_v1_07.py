"""V1-07 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_07 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_07")
    assert page.control_disabled("a1_cpu_s")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_busy")

    # The context moves the dispatch slider (visible change), then back to the cloud.
    page.set_control("context", "edge")
    assert close(float(page.page.get_attribute('[data-control="a1_cpu_s"]', "value")), 50e-6)
    page.set_control("context", "cloud")

    # Act I: the synchronous misconception (C); the instruments show the asynchronous truth.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_cpu_share"), lab.act1_truth("cloud"))
    assert close(page.metric("a1_busy"), 0.5)
    assert close(page.metric("a1_time_s"), 10e-3)
    page.chart_drawn("a1_modes")
    page.set_control("a1_mode", "sync")
    assert close(page.metric("a1_busy"), 1 / 3)
    assert page.failure_visible("a1_launch_bound")
    page.set_control("a1_mode", "graphs")
    assert not page.failure_visible("a1_launch_bound")
    assert page.control_disabled("a1_cpu_s")
    page.set_control("a1_mode", "async")
    page.set_control("a1_fast", True)
    assert close(page.metric("a1_busy"), 0.25) and close(page.metric("a1_time_s"), 10e-3)
    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the break-even, the failure reached and left, the fusion panel.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_breakeven_time_s"), lab.act2_truth("cloud"))
    assert close(page.metric("a2_breakeven"), 133_607, rel=1e-5)
    page.chart_drawn("a2_breakeven")
    page.set_control("a2_compiles", 64)
    page.set_control("a2_duration_s", 3600)
    assert page.failure_visible("a2_no_payback")
    page.set_control("a2_compiles", 1)
    assert not page.failure_visible("a2_no_payback")
    # A compiled model slower than the eager one: the break-even cards say "never" (review, class 22).
    page.set_control("a2_compiled", 1000)
    assert page.failure_visible("a2_no_payback")
    assert page.page.inner_text('[data-metric="a2_breakeven"] .pl-metric__value').strip() == "never"
    page.set_control("a2_compiled", 2150)
    assert not page.failure_visible("a2_no_payback")
    assert close(page.metric("a2_fusion_speedup"), 3.0)
    page.set_control("a2_ops", 8)
    assert close(page.metric("a2_fusion_speedup"), 8.0)
    page.chart_drawn("a2_fusion")
    page.lock("a2_reflect", "C")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_07")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a1_launch_bound", "a2_no_payback"} <= set(attempt["failures_hit"])
    assert attempt["results"]["roi_positive"] is True


def test_the_edge_keys_in_the_browser(lab_page):
    """Locked on the edge, Act II's key is D: 13,875 images take 5.78 days at 100 requests an hour."""
    page = lab_page.open("v1_07")
    page.set_control("context", "edge")
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_busy"), 0.10)
    page.lock("a1_reflect", "A")
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_breakeven_time_s"), lab.act2_truth("edge"))
    assert page.failure_visible("a2_no_payback")
    page.set_control("a2_duration_s", 7 * 86400)
    assert not page.failure_visible("a2_no_payback")
