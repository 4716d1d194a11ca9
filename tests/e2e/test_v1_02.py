"""V1-02 in a real browser: the student walkthrough (Pyodide's numbers equal CPython's), both
failure states reached and left through the instruments, and the ledger record."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_02 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_02")
    assert page.control_disabled("a1_intensity")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_speedup")

    # Act I: a wrong prediction (the compute ratio carries through), then the waterfall.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_speedup"), lab.act1_truth("cloud"))
    page.chart_drawn("a1_waterfall")
    page.chart_drawn("a1_roofline")

    # Overhead reproduces the "8 %" anecdote and the warning; lowering it leaves the warning.
    page.set_control("a1_overhead", 5e-3)
    assert page.failure_visible("a1_upgrade_wasted")
    page.set_control("a1_overhead", 0.05e-3)
    assert not page.failure_visible("a1_upgrade_wasted")
    # High intensity makes the step compute-bound: the speedup approaches the compute ratio.
    page.set_control("a1_intensity", 1000)
    assert page.metric("a1_speedup") > 2.5

    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: how far can the H100 be?
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_max_distance"), lab.act2_truth())
    assert close(page.metric("a2_latency"), lab.SCENARIO_SERVICE.total_s)
    assert page.failure_visible("a2_sla_violated")
    page.chart_drawn("a2_distance")
    page.set_control("a2_distance", 500e3)
    assert not page.failure_visible("a2_sla_violated")
    page.set_control("a2_distance", 3_000e3)
    page.set_control("a2_route", 1.5)
    assert close(page.metric("a2_rtt"), lab.ironlaw.fibre_rtt_s(3_000e3, 1.5))
    page.lock("a2_reflect", "B")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_02")
    assert attempt["complete"] and attempt["context"] == "cloud"
    assert attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["results"]["bound"] == "compute" and attempt["results"]["sla_violated"] is True
    assert set(attempt["failures_hit"]) == {"a1_upgrade_wasted", "a2_sla_violated"}


def test_edge_context_runs_int8_weights_and_the_car(lab_page):
    page = lab_page.open("v1_02")
    page.set_control("context", "edge")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_speedup"), lab.act1_truth("edge"))  # INT8 weights on the FP16 tensor cores: 1.93x
    assert not page.failure_visible("a1_upgrade_wasted")
    page.lock("a1_reflect", "D")
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert page.control_disabled("a2_distance")
    assert not page.failure_visible("a2_sla_violated")
    page.set_control("a2_batch", 64)
    assert page.failure_visible("a2_sla_violated")
    page.set_control("a2_batch", 1)
    assert not page.failure_visible("a2_sla_violated")
