"""V2-09 in a real browser: the student walkthrough in each context, and the budget failure reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_09 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_09")
    assert page.control_disabled("a1_k")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_gain")

    # Act I: lock a prediction; the explorer unlocks at the team's kernel (attention, k = 3).
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_gain"), lab.gain("attention", 3))
    assert close(page.metric("a1_time_saved"), 0.08)
    assert close(page.metric("a1_hotspot_gain"), lab.act1_truth())
    page.chart_drawn("a1_profile")
    page.chart_drawn("a1_speedup_vs_k")
    page.set_control("a1_target", "allreduce")
    assert close(page.metric("a1_gain"), lab.act1_truth())
    assert page.page.locator('[data-act="1"] .pl-callout__title', has_text="On the bottleneck").count() == 1
    page.set_control("a1_k", 10)
    assert page.metric("a1_gain") < page.metric("a1_ceiling")

    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II in the next run (the default): more micro-batches alone reach the target.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_mfu"), 0.35)
    assert close(page.metric("a2_best_single"), lab.act2_truth("fresh"))
    assert not page.control_disabled("a2_m")
    page.set_control("a2_m", 84)
    assert close(page.metric("a2_mfu"), lab.act2_truth("fresh")) and close(page.metric("a2_weeks"), 2.0)
    page.set_control("a2_m", 21)
    page.set_control("a2_k", 2.5)
    page.set_control("a2_v", "5")
    assert close(page.metric("a2_weeks"), 6.75) and close(page.metric("a2_mfu"), 0.5)
    assert close(page.metric("a2_bubble"), 0.03)
    page.set_control("a2_m", 42)
    assert close(page.metric("a2_bubble"), 0.015)
    page.chart_drawn("a2_profile")
    page.chart_drawn("a2_mfu_vs_weeks")
    page.lock("a2_reflect", "A")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_09")
    assert attempt["complete"] and attempt["answers"]["a2_predict"]["correct"] is True
    assert attempt["results"]["a1_bottleneck_share"] == 0.45


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
