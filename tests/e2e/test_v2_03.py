"""V2-03 in a real browser: the student walkthrough, both failure states reached and left, the ledger."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_03 as lab
from pylabs.labs.vol2 import v2_03_model as model
from tests.e2e.driver import close
from tests.e2e.test_experience import axe_violations

pytestmark = pytest.mark.e2e

SAVED_COMPLETE = """() => {
    const key = Object.keys(localStorage).find((k) => k.startsWith('mlsys-labs:ledger:'));
    const saved = key ? JSON.parse(localStorage.getItem(key)) : {};
    return Object.values(saved.attempts || {}).some((a) => a.lab === 'v2_03' && a.complete && a.context === 'moe');
}"""


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_03")
    # Before the prediction: instruments locked, Act II locked, no readings.
    assert page.control_disabled("a1_gpus")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_kept")
    assert axe_violations(page.page) == []  # before any prediction (the suite checks the unlocked page)

    # Act I: lock a prediction (the bisection rule of thumb); the instruments open on the ordered ring.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_kept"), lab.act1_truth())
    page.chart_drawn("a1_locality")
    page.set_control("a1_pattern", "ring_random")
    assert close(page.metric("a1_kept"), lab.SCATTERED_JOB.kept)

    # Failure state: 4:1 uplinks with a scattered ring; ordering the ring leaves it.
    page.set_control("a1_oversub", "4")
    assert page.failure_visible("a1_uplink_bound")
    page.set_control("a1_pattern", "ring_aware")
    assert not page.failure_visible("a1_uplink_bound")

    # The context visibly changes Act I: the all-to-all reading comes and goes.
    assert page.has_metric("a1_a2a_kept")
    page.set_control("context", "dense")
    assert not page.has_metric("a1_a2a_kept")
    page.set_control("context", "moe")

    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    assert page.act_unlocked(2)

    # Act II: the design choice in the MoE workload; the default 2:1 Ethernet is over the budget.
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_over_budget")
    assert close(page.metric("a2_comm_s"), model.scenario_step("eth").total_s)
    page.chart_drawn("a2_fabrics")
    page.set_control("a2_fabric", "ib")
    assert not page.failure_visible("a2_over_budget")
    assert close(page.metric("a2_comm_s"), model.scenario_step("ib").total_s)

    # The torus fails with the all-to-all; with no expert bytes it passes on its all-reduce alone.
    page.set_control("a2_fabric", "torus")
    assert page.failure_visible("a2_over_budget")
    page.set_control("a2_a2a", 0)
    assert page.metric("a2_a2a_s") == 0.0
    assert not page.failure_visible("a2_over_budget")
    assert close(page.metric("a2_allreduce_s"), model.scenario_step("torus").allreduce_s)
    page.chart_drawn("a2_scaling")
    page.lock("a2_reflect", "C")

    # HUD and ledger: the whole attempt, with the spec's fields.
    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud and "2 of 2" in hud
    page.page.wait_for_function(SAVED_COMPLETE)  # the last save may still be in flight
    (attempt,) = page.attempts("v2_03")
    assert attempt["complete"] and attempt["context"] == "moe"
    assert set(attempt["failures_hit"]) == {"a1_uplink_bound", "a2_over_budget"}
    results = attempt["results"]
    assert results["fabric_type"] == "torus" and results["oversubscription"] is None
    assert results["constraint_hit"] is False
    assert attempt["answers"]["a1_predict"]["choice"] == "B" and attempt["answers"]["a2_predict"]["choice"] == "B"


def test_reload_keeps_locks_and_settings(lab_page):
    page = lab_page.open("v2_03")
    page.lock("a1_predict", "D")
    page.set_control("a1_oversub", "4")
    page.set_control("a1_pattern", "ring_random")
    page.reload()
    assert page.locked("a1_predict")
    assert page.failure_visible("a1_uplink_bound")
