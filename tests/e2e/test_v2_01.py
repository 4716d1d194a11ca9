"""V2-01 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_01 as lab
from pylabs.labs.vol2 import v2_01_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_01")
    assert page.control_disabled("a1_batch")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_speedup")

    # The context toggle moves the fabric (visible change), then back.
    page.set_control("context", "startup")
    assert page.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "ndr1"
    page.set_control("context", "frontier")

    # Act I: lock a wrong prediction; the verdict states the miss; numbers follow the instruments.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert "below the bottom of your range" in page.page.inner_text('[data-feedback="a1_predict"]')
    assert close(page.metric("a1_speedup"), lab.act1_truth())
    page.chart_drawn("a1_speedup")
    assert page.failure_visible("a1_schedule_blown")
    page.set_control("a1_batch", 4194304)
    assert close(page.metric("a1_speedup"), model.BIG_RUN.speedup(1024))
    assert not page.failure_visible("a1_schedule_blown")
    page.set_control("a1_fabric", "eth100")
    assert page.metric("a1_speedup") < model.BIG_RUN.speedup(1024)

    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II unlocks now; the prediction is right; the instruments show the scenario.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_breakeven_reserved"), 0.65)
    assert close(page.metric("a2_reserved_usd"), lab.SCENARIO_FLEET.reserved())
    page.chart_drawn("a2_tco")
    page.set_control("a2_discount", 0.5)
    assert close(page.metric("a2_breakeven_reserved"), 0.5)
    page.lock("a2_reflect", "A")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_01")
    assert attempt["complete"]
    assert attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["answers"]["a2_predict"]["correct"] is True
    assert "a1_schedule_blown" in attempt["failures_hit"]


def test_every_failure_state_is_reached_and_left_through_the_instruments(lab_page):
    page = lab_page.open("v2_01")
    page.lock("a1_predict", "B")
    assert page.failure_visible("a1_schedule_blown")
    page.set_control("a1_gpus", 16384)  # more GPUs do not rescue the schedule ...
    assert page.failure_visible("a1_schedule_blown")
    page.set_control("a1_batch", 2097152)  # ... more tokens per GPU do
    assert not page.failure_visible("a1_schedule_blown")
    page.lock("a1_reflect", "C")

    page.lock("a2_predict", "A")
    assert page.failure_visible("a2_over_budget") and page.failure_visible("a2_never_pays_back")
    # review: the way out names the path that fits and the settings that alone clear it, not utilization
    text = page.page.inner_text('[data-failure="a2_over_budget"]')
    assert "Reserved cloud (one-year terms) fits it" in text  # on demand, utilization is a lever
    assert "a cheaper purchase" in page.page.inner_text('[data-failure="a2_never_pays_back"]')
    page.set_control("a2_plan", "reserved")
    assert not page.failure_visible("a2_over_budget")
    page.set_control("a2_plan", "on_prem")
    assert page.failure_visible("a2_over_budget")
    page.set_control("a2_price", 4.0)
    assert not page.failure_visible("a2_never_pays_back")
    page.set_control("a2_price", 2.1)
    assert page.failure_visible("a2_never_pays_back")
    page.set_control("a2_years", 5)
    assert not page.failure_visible("a2_never_pays_back")
    page.set_control("a2_plan", "reserved")
    assert not page.failure_visible("a2_over_budget")
    (attempt,) = page.attempts("v2_01")
    assert set(attempt["failures_hit"]) == {f.name for f in lab.FAILURES}


def test_the_start_up_is_asked_about_its_own_fabric(lab_page):
    """Issue 20: in 'Start-up' the key is A and the feedback quotes the card's 39x, not the frontier's 167x."""
    page = lab_page.open("v2_01")
    page.set_control("context", "startup")
    assert "1 × NDR 400G NIC each" in page.page.inner_text('[data-question="a1_predict"]')
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_speedup"), lab.act1_truth("startup"))
    feedback = page.page.inner_text('[data-feedback="a1_predict"]')
    assert "39×" in feedback and "167×" not in feedback
