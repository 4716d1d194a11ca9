"""V2-15 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_15 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_15")
    assert page.control_disabled("a1_demand")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_net_change")

    # The context (accounting boundary) sets the PUE control (visible change before any lock).
    page.set_control("context", "facility")
    assert page.page.eval_on_selector('[data-control="a1_pue"]', "e => e.value") == "1.58"
    page.set_control("context", "board")

    # Act I: the student blames the H100's power draw (A); the physics says work grew 2.8×.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_net_change"), -0.5)
    page.chart_drawn("a1_rebound")
    page.set_control("a1_demand", 2.8)
    assert close(page.metric("a1_net_change"), 0.4)
    assert close(page.metric("a1_rebound"), 1.8)
    assert close(page.metric("a1_energy_week"), 117_600 * 3.6e6)
    # PUE scales tonnes, not the percentage.
    tonnes = page.metric("a1_co2e_week")
    page.set_control("a1_pue", 1.58)
    assert close(page.metric("a1_co2e_week"), tonnes * 1.58)
    assert close(page.metric("a1_net_change"), 0.4)
    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the upstream's "shifting reaches the target" (D) is wrong; the stated plan keeps its
    # deadlines (issue 24: the old rule broke them) and misses the target.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_shift_savings"), lab.TEAM.shift_savings)
    assert not page.failure_visible("a2_sla") and page.failure_visible("a2_target")
    page.chart_drawn("a2_shift")
    page.set_control("a2_flex", 1.0)
    assert page.failure_visible("a2_sla")
    page.set_control("a2_flex", 0.3)
    assert not page.failure_visible("a2_sla")
    page.set_control("a2_window", 12 * 3600)
    assert close(page.metric("a2_shift_savings"), 0.2322, rel=1e-3)
    page.set_control("a2_procure", 0.25)
    assert not page.failure_visible("a2_target")
    page.lock("a2_reflect", "C")
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v2_15")
    assert attempt["complete"] and attempt["answers"]["a2_predict"]["correct"] is False
    assert {"a2_sla", "a2_target"} <= set(attempt["failures_hit"])
    assert attempt["results"]["target_met"] is True


def test_sla_failure_from_headroom_is_reached_and_left(lab_page):
    page = lab_page.open("v2_15")
    for qid, letter in (("a1_predict", "D"), ("a1_reflect", "A"), ("a2_predict", "B")):
        page.lock(qid, letter)
    page.set_control("a2_window", 12 * 3600)
    assert not page.failure_visible("a2_sla")
    page.set_control("a2_util", 0.9)
    assert page.failure_visible("a2_sla")
    page.set_control("a2_util", 0.75)
    assert not page.failure_visible("a2_sla")


def test_deadline_failure_names_its_cause_only_after_the_reflection(lab_page):
    """Review (class 34): at the Act II reflection's setting the failure gives the symptom; once the
    reflection is locked, the page re-renders it with the cause and the utilisation lever."""
    page = lab_page.open("v2_15")
    for qid, letter in (("a1_predict", "D"), ("a1_reflect", "A"), ("a2_predict", "B")):
        page.lock(qid, letter)
    page.set_control("a2_window", 12 * 3600)
    page.set_control("a2_flex", 1.0)
    assert page.failure_visible("a2_sla")
    text = page.page.inner_text('[data-failure="a2_sla"]')
    assert "lower utilisation" not in text and "idle GPUs" not in text
    page.lock("a2_reflect", "C")
    assert "lower utilisation" in page.page.inner_text('[data-failure="a2_sla"]')
