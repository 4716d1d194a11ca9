"""V1-14 in a real browser: the walkthrough (the sampled monitor's numbers equal CPython's, so the
seeded draws agree across interpreters), every failure state reached and left, and the ledger."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_14 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e

WEEK, DAY = lab.WEEK, lab.DAY


def cpython(**controls):
    """What CPython computes for the instruments at these settings (after Act I's locks)."""
    from tests.labs.helpers import answered
    return answered(lab.LAB, {}, through="a2_reflect", controls=controls)


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_14")
    assert page.control_disabled("a1_drift")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_alarm")

    # The context moves the monitor's window (visible change), then back to the cloud.
    page.set_control("context", "mobile")
    assert page.page.eval_on_selector('[data-control="a1_window"]', "e => Number(e.value)") > 0
    page.set_control("context", "cloud")

    # Act I: "months" (D) is wrong; PSI alarms at week 4 while accuracy is still ~92.9 %.
    # (The record draws come from the bit tree of pylabs.physics.drift: Pyodide must agree exactly.)
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_crossing"), lab.act1_truth())
    assert close(page.metric("a1_alarm"), 4 * WEEK)
    assert close(page.metric("a1_acc_at_alarm"), lab.accuracy_at(4 * WEEK))
    sampled = lab.monitor(cpython()).run().checks[-1][1]
    assert close(page.metric("a1_psi_end"), sampled)  # the same seeded draw in Pyodide and CPython
    page.chart_drawn("a1_psi")

    # Feature preset: merchant drifts 0.06 σ/week and alarms at week 8.
    page.set_control("a1_feature", "merchant")
    assert close(page.metric("a1_alarm"), 8 * WEEK)

    # Missed: location checked quarterly; left by checking weekly.
    page.set_control("a1_feature", "location")
    page.set_control("a1_check", 13)
    assert page.failure_visible("a1_missed")
    page.set_control("a1_check", 1)
    assert not page.failure_visible("a1_missed")

    # False alarm: a tiny window reads noise; left with more records.
    page.set_control("a1_feature", "amount")
    page.set_control("a1_window", 50)
    assert page.failure_visible("a1_false_alarm")
    assert close(page.metric("a1_noise_floor"), 9 / 50)
    page.set_control("a1_window", 5000)
    assert not page.failure_visible("a1_false_alarm")

    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the team's 28-day calendar breaks the cloud floor; retraining sooner leaves it.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_floor_violated")
    cloud = lab.scenario_product("cloud")
    assert close(page.metric("a2_t_op"), cloud.t_op)
    assert close(page.metric("a2_annual"), cloud.annual(28 * DAY))
    assert page.control_disabled("a2_devices")
    page.set_control("a2_cadence", 6)
    assert not page.failure_visible("a2_floor_violated")
    page.chart_drawn("a2_cost")
    page.chart_drawn("a2_products")
    page.lock("a2_reflect", "A")
    assert page.verdict("a2_reflect") == "incorrect"  # the key is B: the two costs are equal at T*
    page.open_math(2)

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_14")
    assert attempt["complete"]
    assert {"a1_missed", "a1_false_alarm", "a2_floor_violated"} <= set(attempt["failures_hit"])
    assert attempt["results"]["detect_wk"] == 4 and attempt["results"]["floor_violated"] is False
