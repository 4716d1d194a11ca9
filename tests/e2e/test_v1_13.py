"""V1-13 in a real browser: the student walkthrough (a wrong Act I guess, the seeded histogram,
the spike planner), the Act II failure states reached and left through the instruments, and a
one-device context whose feedback quotes its own cards."""

from __future__ import annotations

import math

import pytest

from pylabs.labs.vol1 import v1_13 as lab
from pylabs.labs.vol1 import v1_13_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_13")
    assert page.control_disabled("a1_rho")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_p99_s")

    # The context moves Act I's service time (visible change), then back to the cloud.
    page.set_control("context", "mobile")
    assert close(float(page.page.get_attribute('[data-control="a1_service_s"]', "value")),
                 math.log10(lab.S.npu_service_s), rel=1e-3)
    page.set_control("context", "cloud")

    # Act I: "the tail hugs the mean"; the instruments show an exponential tail.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    srv = model.scenario_server("cloud")
    assert close(page.metric("a1_p99_s"), srv.percentile_s(0.99))
    assert close(page.metric("a1_p99_over_mean"), lab.MIN_SLO_HEADROOM)
    assert page.failure_visible("a1_slo_missed")
    page.chart_drawn("a1_histogram")
    page.chart_drawn("a1_load_curve")
    page.set_control("a1_rho", 0.5)
    assert not page.failure_visible("a1_slo_missed")
    assert close(page.metric("a1_p99_over_mean"), lab.MIN_SLO_HEADROOM)
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the spike planner.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_lag_wait_s"), lab.act2_truth("cloud"))
    assert close(page.metric("a2_backlog"), model.scenario_spike("cloud").backlog)
    assert page.failure_visible("a2_unstable") and page.failure_visible("a2_spike_backlog")
    page.chart_drawn("a2_replicas_curve")
    page.chart_drawn("a2_backlog")
    page.set_control("a2_replicas", 251)
    assert not page.failure_visible("a2_unstable")
    assert close(page.metric("a2_p99_s"), 0.16400145982280117, rel=1e-6)
    page.lock("a2_reflect", "A")
    assert page.verdict("a2_reflect") == "correct"
    page.open_math(2)

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_13")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a1_slo_missed", "a2_unstable", "a2_spike_backlog"} <= set(attempt["failures_hit"])


def test_act2_failures_reach_and_leave(lab_page):
    page = lab_page.open("v1_13")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "C"), ("a2_predict", "D")):
        page.lock(qid, letter)
    page.set_control("a2_admission", True)
    assert not page.failure_visible("a2_unstable") and not page.failure_visible("a2_spike_backlog")
    assert page.metric("a2_shed") > 0
    page.set_control("a2_admission", False)
    page.set_control("a2_replicas", 600)
    page.set_control("a2_service_s", 0.05)
    assert page.failure_visible("a2_slo_violated")
    # review: no count of replicas meets the SLO at 50 ms; the card says "none", not "∞"
    assert page.page.inner_text('[data-metric="a2_min_replicas"] .pl-metric__value') == "none"
    assert "No number of replicas meets it" in page.page.inner_text('[data-failure="a2_slo_violated"]')
    page.set_control("a2_service_s", 0.025)
    assert not page.failure_visible("a2_slo_violated")
    page.set_control("a2_lag_s", 0)
    assert not page.failure_visible("a2_spike_backlog")


def test_one_device_asks_and_answers_in_its_own_context(lab_page):
    page = lab_page.open("v1_13")
    page.set_control("context", "edge")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    p99 = page.page.inner_text('[data-metric="a1_p99_s"] .pl-metric__value')
    assert p99 == "419 ms" and p99 in page.page.inner_text('[data-feedback="a1_predict"]')
    page.lock("a1_reflect", "C")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_lag_wait_s"), lab.act2_truth("edge"))
    assert page.control_disabled("a2_replicas") and page.failure_visible("a2_unstable")
    page.chart_drawn("a2_service_curve")
    page.set_control("a2_service_s", 0.008)
    assert not page.failure_visible("a2_unstable") and not page.failure_visible("a2_spike_backlog")
