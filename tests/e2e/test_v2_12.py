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
    assert not page.has_metric("a1_violation")

    # Act I: a wrong prediction, then the fan-out instruments.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_violation"), lab.act1_truth())
    # The seeded sampler gives the same P99 in Pyodide as in CPython.
    assert close(page.metric("a1_p99_s"), model.SHARDS.sampled().quantile(0.99))
    page.chart_drawn("a1_p99_curve")
    page.set_control("a1_services", 100)
    assert page.failure_visible("a1_tail_is_typical")
    page.set_control("a1_services", 5)
    assert not page.failure_visible("a1_tail_is_typical")
    page.set_control("a1_topology", "serial")
    assert close(page.metric("a1_p99_s"), model.CHAIN.sampled().quantile(0.99))
    assert page.metric("a1_p99_s") < 0.7 * model.CHAIN.slo_s

    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the design pick, the cascade, and the way out.
    assert page.act_unlocked(2)
    page.lock("a2_pick", "B")
    assert page.verdict("a2_pick") == "correct"
    assert page.failure_visible("a2_cascade")
    assert close(page.metric("a2_t_collapse_s"), 4.0)
    page.chart_drawn("a2_goodput_time")
    page.set_control("a2_shedding", True)
    assert not page.failure_visible("a2_cascade")
    assert close(page.metric("a2_goodput"), 1 / 1.5)
    page.lock("a2_reflect", "A")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_12")
    assert attempt["complete"] and attempt["answers"]["a2_pick"]["correct"] is True
    assert {"a1_tail_is_typical", "a2_cascade"} <= set(attempt["failures_hit"])


def test_cascade_reached_and_left_through_the_timeout(lab_page):
    page = lab_page.open("v2_12")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "B"), ("a2_pick", "D")):
        page.lock(qid, letter)
    assert page.failure_visible("a2_cascade")
    page.set_control("a2_overload", 1.1)
    page.set_control("a2_timeout_s", 5)
    assert not page.failure_visible("a2_cascade")
    assert close(page.metric("a2_goodput"), 1.0)
    page.set_control("a2_timeout_s", 2)
    assert page.failure_visible("a2_cascade")
