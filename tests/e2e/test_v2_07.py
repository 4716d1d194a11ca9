"""V2-07 in a real browser: the student walkthrough, every failure state reached and left, the ledger.
(The ``watch`` fixture fails the test on any page error, console error or request to another host.)"""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_07 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_07")
    page.page.set_default_timeout(90_000)  # a long walkthrough on a shared, loaded machine: wait, never sleep
    # Before the prediction: instruments locked, Act II locked, no numbers.
    assert page.control_disabled("a1_interval")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_optimal_interval")

    # The context moves the restart sliders of both acts.
    page.set_control("context", "warm")
    assert page.page.get_attribute('[data-control="a1_restart"]', "value") == str(int(lab.S.warm_restart_s))
    page.set_control("context", "cold")

    # Act I: a wrong prediction, then the instruments and the verdict.
    page.lock("a1_predict", "B")
    assert not page.control_disabled("a1_interval")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_optimal_interval"), lab.act1_truth())
    assert close(page.metric("a1_waste"), lab.team("cold").waste)
    page.chart_drawn("a1_waste_curve")
    page.set_control("a1_gpus", 4 * lab.S.a1_gpus)
    assert close(page.metric("a1_optimal_interval"), lab.act1_truth() / 2)

    # Failure: the same fleet at 16,384 GPUs loses most of its time; scaling back leaves it.
    page.set_control("a1_gpus", 16384)
    assert page.failure_visible("a1_collapse")
    page.set_control("a1_gpus", lab.S.a1_gpus)
    assert not page.failure_visible("a1_collapse")

    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1, timeout_ms=60_000)

    # Act II: the plan that meets the target, checked against the team's synchronous 30-min plan.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_below_target")
    assert close(page.metric("a2_goodput"), lab.PLANS["cold"]["C"].goodput_frac)
    assert close(page.metric("a2_time_lost"), lab.time_lost_s(lab.PLANS["cold"]["C"].waste_frac))
    page.chart_drawn("a2_waste_breakdown")

    page.set_control("a2_mode", "async")
    page.set_control("a2_interval", 15)
    assert page.failure_visible("a2_writes_overlap")
    assert close(page.metric("a2_stall"), lab.PLANS["cold"]["B"].stall_s)
    page.set_control("a2_interval", 600)
    assert not page.failure_visible("a2_writes_overlap")
    assert not page.failure_visible("a2_below_target")
    assert page.metric("a2_goodput") >= lab.GOODPUT_TARGET

    page.lock("a2_reflect", "C")

    # HUD and ledger: the whole attempt with the spec's result fields.
    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud and "3 of 3" in hud
    (attempt,) = page.attempts("v2_07")
    assert attempt["complete"] and attempt["context"] == "cold"
    assert attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["answers"]["a2_predict"]["correct"] is True
    assert set(attempt["failures_hit"]) == {"a1_collapse", "a2_below_target", "a2_writes_overlap"}
    results = attempt["results"]
    assert results["async_mode"] == 1.0 and results["constraint_hit"] == 0.0
    assert close(results["write_s"], lab.PLANS["cold"]["B"].write_s) and results["interval_s"] == 600
