"""V2-16 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_16 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_16")
    assert page.control_disabled("a1_flag_rate")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_fpr_ratio")

    # The context toggle moves Act I's base-rate sliders (visible change).
    page.set_control("context", "equal")
    assert close(float(page.page.eval_on_selector('[data-control="a1_base_a"]', "e => e.value")), lab.S.base_equal)
    page.set_control("context", "measured")

    # Act I: the intuitive answer (equal flag rates, equal error rates) is wrong.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_fpr_ratio"), lab.act1_truth())
    page.chart_drawn("a1_groups")
    page.set_control("a1_criterion", "single")
    assert close(page.metric("a1_fpr_ratio"), 1.0)
    page.set_control("a1_base_a", 0.1)
    assert close(page.metric("a1_ppv_a"), page.metric("a1_ppv_b"))
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: one threshold everywhere fails the US screen; the four-fifths fix in the US passes both.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_us_impact"), lab.DESIGNS["A"].us.impact)
    assert page.failure_visible("a2_us_adverse_impact") and not page.failure_visible("a2_eu_error_gap")
    page.chart_drawn("a2_tradeoff")
    page.set_control("a2_us_rule", "fourfifths")
    assert not page.failure_visible("a2_us_adverse_impact")
    assert close(page.metric("a2_us_gap"), lab.DESIGNS["B"].us.fpr_gap)
    page.set_control("a2_eu_rule", "fourfifths")
    assert page.failure_visible("a2_eu_error_gap")
    page.set_control("a2_eu_rule", "single")
    assert not page.failure_visible("a2_eu_error_gap")
    page.lock("a2_reflect", "B")
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v2_16")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a2_us_adverse_impact", "a2_eu_error_gap"} <= set(attempt["failures_hit"])
    assert attempt["results"]["us_ok"] is True and attempt["results"]["eu_ok"] is True


def test_harm_warning_is_reached_and_left(lab_page):
    page = lab_page.open("v2_16")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "B"), ("a2_predict", "B")):
        page.lock(qid, letter)
    assert not page.failure_visible("a2_harm")
    page.set_control("a2_threshold", 2.2)
    assert page.failure_visible("a2_harm")
    page.set_control("a2_threshold", 1.8)
    assert not page.failure_visible("a2_harm")
