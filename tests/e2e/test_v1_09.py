"""V1-09 in a real browser: the student walkthrough (a wrong Act I guess, the curriculum's
no-gain reveal, the label-budget plan) and both failure states reached and left through the
instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_09 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_09")
    assert page.control_disabled("a1_ordering")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_speedup")

    # Act I: the vendor's 3× (D) is wrong; on clean data trained to convergence the order washes out.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_speedup"), 1.0)
    cloud_rate = page.metric("a1_images_per_s")
    page.chart_drawn("a1_speedup")
    page.set_control("a1_noise", 0.2)
    page.set_control("a1_budget", 0.3)
    assert close(page.metric("a1_speedup"), 1.347)
    page.set_control("a1_ordering", "anti")
    assert page.metric("a1_speedup") < 1
    page.set_control("a1_util", 0.05)
    assert close(page.metric("a1_images_per_s"), cloud_rate * 0.05 / lab.S.utilisation)
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: at the claimed k, active learning's pick of 250,000 images (D) is the cheapest plan to the bar.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_acc"), 0.76)
    assert close(page.metric("a2_cost_to_bar"), lab.cost_to_bar(lab.S.bar, lab.S.usd_per_label, lab.S.al_claimed))
    page.chart_drawn("a2_learning_curve")
    page.set_control("a2_budget", 5000)
    assert page.failure_visible("a2_bar_missed")
    page.set_control("a2_budget", 12000)
    assert not page.failure_visible("a2_bar_missed")
    page.set_control("a2_gain", 0.8)  # below random sampling: the same budget misses
    assert page.failure_visible("a2_bar_missed")
    page.set_control("a2_gain", lab.S.al_claimed)
    page.set_control("a2_strategy", "random")
    assert page.control_disabled("a2_gain")
    assert page.failure_visible("a2_bar_missed")
    page.set_control("a2_budget", 20000)
    assert not page.failure_visible("a2_bar_missed")
    page.lock("a2_reflect", "D")  # wrong: the key is A
    assert page.verdict("a2_reflect") == "incorrect"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_09")
    assert attempt["complete"]
    assert "a2_bar_missed" in attempt["failures_hit"]
    assert attempt["results"]["strategy"] == "random"


def test_edge_context_trains_slower_and_breaks_the_week(lab_page):
    page = lab_page.open("v1_09")
    page.set_control("context", "edge")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    assert page.failure_visible("a1_over_a_week")
    assert page.has_metric("a1_run_energy")
    page.set_control("a1_epochs", 40)
    assert not page.failure_visible("a1_over_a_week")
