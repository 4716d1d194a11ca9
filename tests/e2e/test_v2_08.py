"""V2-08 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_08 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_08")
    assert page.control_disabled("a1_added_gpus")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_wait_s")

    # The context moves Act I's job size (visible change).
    page.set_control("context", "small")
    assert page.page.get_attribute('[data-control="a1_job_gpus"]', "value") == "3"  # log2(8)
    page.set_control("context", "gangs")

    # Act I: a wrong prediction; the instruments open at Finance's offer, then today's failure.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_wait_share"), lab.act1_truth("gangs"))
    assert close(page.metric("a1_wait_s"), lab.with_added("gangs").mean_wait_s())
    assert not page.failure_visible("a1_wait_exceeds_job")
    page.chart_drawn("a1_wait_curve")
    page.set_control("a1_added_gpus", 0)
    assert close(page.metric("a1_wait_s"), lab.today("gangs").mean_wait_s())
    assert page.failure_visible("a1_wait_exceeds_job")
    page.set_control("a1_utilization", 0.8)
    assert not page.failure_visible("a1_wait_exceeds_job")

    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the design pick, then the pool designer.
    assert page.act_unlocked(2)
    page.lock("a2_pick", "C")
    assert page.verdict("a2_pick") == "correct"
    assert page.failure_visible("a2_interactive_sla")
    page.chart_drawn("a2_notebook_pool")
    page.set_control("a2_interactive_gpus", 48)
    assert not page.failure_visible("a2_interactive_sla")
    assert close(page.metric("a2_interactive_late"), lab.LAYOUTS["C"].interactive_late())
    assert close(page.metric("a2_training_late"), lab.LAYOUTS["C"].training_late())
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_08")
    assert attempt["complete"] and attempt["answers"]["a2_pick"]["correct"] is True
    assert {"a1_wait_exceeds_job", "a2_interactive_sla"} <= set(attempt["failures_hit"])


def test_act2_failures_reach_and_leave(lab_page):
    page = lab_page.open("v2_08")
    for qid, letter in (("a1_predict", "A"), ("a1_reflect", "B"), ("a2_pick", "B")):
        page.lock(qid, letter)
    page.set_control("a2_interactive_gpus", 48)
    page.set_control("a2_training_gpus", 512)
    assert page.failure_visible("a2_training_tail")
    page.set_control("a2_training_gpus", 768)
    assert not page.failure_visible("a2_training_tail")
    page.set_control("a2_interactive_gpus", 256)
    assert page.failure_visible("a2_search_overloaded")
    page.set_control("a2_interactive_gpus", 128)
    assert not page.failure_visible("a2_search_overloaded")
