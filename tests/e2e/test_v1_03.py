"""V1-03 in a real browser: the student walkthrough in the Cloud context, and the phone's energy gate
reached and left in the Mobile context."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_03 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e
HOUR = 3600.0


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_03")
    assert page.control_disabled("a1_stage")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_multiplier")

    # Act I: "retrain and re-evaluate" (C) misses the data stage; the instruments unlock.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_redone"), lab.act1_truth())
    assert close(page.metric("a1_redone"), 130 * 86400)
    assert close(page.metric("a1_delivery"), 280 * 86400)
    assert close(page.metric("a1_multiplier"), 16)
    assert page.failure_visible("a1_most_redone")
    page.chart_drawn("a1_rework")
    page.set_control("a1_stage", 2)
    assert close(page.metric("a1_multiplier"), 2) and not page.failure_visible("a1_most_redone")
    assert close(page.metric("a1_redone"), 0)
    page.set_control("a1_stage", 3)
    page.set_control("a1_days_2", 60 * 86400)
    assert close(page.metric("a1_redone"), 60 * 86400)
    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the race; the crossover is there at r = 0.999 and gone at r = 0.95.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_crossover"), 52 * HOUR)
    assert page.control_disabled("a2_power")  # no battery in the datacentre, and the help says so
    page.chart_drawn("a2_race")
    page.set_control("a2_decay", 0.95)
    assert page.failure_visible("a2_no_crossover")
    assert page.page.get_attribute('[data-metric="a2_crossover"]', "data-value") == "Infinity"
    assert page.page.inner_text('[data-metric="a2_crossover"] .pl-metric__value') == "never"  # not "∞" (review)
    page.set_control("a2_decay", 0.999)
    assert not page.failure_visible("a2_no_crossover")
    page.lock("a2_reflect", "C")
    assert page.verdict("a2_reflect") == "correct"
    page.open_math(2)

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_03")
    assert attempt["complete"] and attempt["results"]["crossover_h"] == 52
    assert set(attempt["failures_hit"]) == {"a1_most_redone", "a2_no_crossover"}


def test_phone_retraining_budget_reached_and_left(lab_page):
    page = lab_page.open("v1_03")
    page.set_control("context", "mobile")
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    page.lock("a1_reflect", "A")
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert not page.control_disabled("a2_power")
    assert page.failure_visible("a2_energy_budget")
    assert close(page.metric("a2_energy_ratio"), 21.6)
    page.set_control("a2_small_cycle", "24")
    assert not page.failure_visible("a2_energy_budget")
    assert close(page.metric("a2_energy_ratio"), 0.9)
    assert close(page.metric("a2_crossover"), lab.DAILY_RACE.crossover_s)
    page.set_control("a2_budget", 3600)
    assert page.failure_visible("a2_energy_budget")
