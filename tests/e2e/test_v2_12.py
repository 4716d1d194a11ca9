"""V2-12 in a real browser: the student walkthrough (sampled instruments in Pyodide equal CPython's),
and every failure state reached and left, the cascade included."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_12 as lab
from pylabs.labs.vol2 import v2_12_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_12")
    assert page.control_disabled("a1_services")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_p99_s")

    # Act I: a wrong prediction (the sum of the P99s), then the explorer.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    # The seeded sampler gives the same P99 in Pyodide as in CPython: the chain's, the key.
    assert close(page.metric("a1_p99_s"), lab.ACT1_PREDICTION.value_in("lognormal"))
    assert page.metric("a1_p99_s") < 0.7 * model.CHAINS["lognormal"].slo_s
    page.chart_drawn("a1_p99_curve")
    page.set_control("a1_topology", "fanout")
    assert close(page.metric("a1_violation"), model.FANOUTS["lognormal"].violation)
    assert close(page.metric("a1_p99_s"), model.FANOUTS["lognormal"].sampled().quantile(0.99))
    page.set_control("a1_services", 100)
    assert page.failure_visible("a1_tail_is_typical")
    page.set_control("a1_services", 5)
    assert not page.failure_visible("a1_tail_is_typical")

    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the design pick, the cascade, and the way out.
    assert page.act_unlocked(2)
    page.lock("a2_pick", "C")
    assert page.verdict("a2_pick") == "correct"
    assert page.failure_visible("a2_cascade")
    assert close(page.metric("a2_t_collapse_s"), 4.0)
    page.chart_drawn("a2_goodput_time")
    page.set_control("a2_fixes", ["shedding"])
    assert not page.failure_visible("a2_cascade")
    assert close(page.metric("a2_goodput"), 1 / 1.5)
    assert not page.has_metric("a2_t_collapse_s") and close(page.metric("a2_shed"), 1 - 1 / 1.5)
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_12")
    assert attempt["complete"] and attempt["answers"]["a2_pick"]["correct"] is True
    assert {"a1_tail_is_typical", "a2_cascade"} <= set(attempt["failures_hit"])


def test_cascade_reached_and_left_through_the_autoscaler_and_the_timeout(lab_page):
    page = lab_page.open("v2_12")
    page.set_control("context", "exponential")
    for qid, letter in (("a1_predict", "A"), ("a1_reflect", "B"), ("a2_pick", "B")):
        page.lock(qid, letter)
    assert page.verdict("a1_predict") == "correct"
    assert page.failure_visible("a2_cascade")
    page.set_control("a2_fixes", ["autoscaler"])
    assert page.failure_visible("a2_cascade")  # 2 s: the first request gives up at 6 s, long before 35 s
    page.set_control("a2_timeout_s", 12)  # over 35 s × 0.5/1.5 = 11.67 s: nobody gives up before the pods
    assert not page.failure_visible("a2_cascade")
    assert close(page.metric("a2_goodput"), 1 / 1.5) and close(page.metric("a2_capacity_s"), 35.0)
    page.set_control("a2_timeout_s", 11.5)
    assert page.failure_visible("a2_cascade")
