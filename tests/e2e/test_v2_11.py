"""V2-11 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_11 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_11")
    assert page.control_disabled("a1_compression")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_ratio")

    # The context toggle swaps the model in Act I's instruments (visible change).
    page.set_control("context", "gboard")
    assert page.page.eval_on_selector('[data-control="a1_params"]', "e => e.value") == "gboard"
    page.set_control("context", "server")

    # Act I: a wrong prediction (several to tens of times); instruments unlock.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_ratio"), lab.act1_truth("server"))
    page.chart_drawn("a1_traffic")
    page.set_control("a1_compression", 10)
    assert close(page.metric("a1_ratio"), 52.8)
    page.set_control("a1_clients", "1000")
    assert close(page.metric("a1_fl_bytes_day"), 4.8e12 * 0.55)
    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the team's DP setting meets ε but breaks the utility floor.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_epsilon"), lab.TEAM.epsilon)
    assert page.failure_visible("a2_utility") and not page.failure_visible("a2_privacy")
    page.chart_drawn("a2_epsilon")
    page.set_control("a2_clients", "10000")
    assert not page.failure_visible("a2_utility") and page.failure_visible("a2_privacy")
    page.set_control("a2_conversion", "tight")
    assert not page.failure_visible("a2_privacy")
    page.set_control("a2_conversion", "classic")
    page.set_control("a2_z", 1.1)
    assert not page.failure_visible("a2_privacy") and not page.failure_visible("a2_utility")
    page.lock("a2_reflect", "C")
    assert page.verdict("a2_reflect") == "correct"
    peek = page.open_math(2)
    assert "Mironov 2017" in peek.inner_text()

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_11")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a2_utility", "a2_privacy"} <= set(attempt["failures_hit"])
    assert close(attempt["results"]["dp_z"], 1.1)


def test_bandwidth_warning_is_reached_and_left(lab_page):
    page = lab_page.open("v2_11")
    for qid, letter in (("a1_predict", "D"), ("a1_reflect", "A"), ("a2_predict", "B")):
        page.lock(qid, letter)
    assert not page.failure_visible("a2_bandwidth")
    page.set_control("a2_clients", "100000")
    assert page.failure_visible("a2_bandwidth")
    page.set_control("a2_clients", "10000")  # the context is fixed by the first lock: K is the lever
    assert not page.failure_visible("a2_bandwidth")
