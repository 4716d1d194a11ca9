"""V2-16 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_16 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e
S = lab.S
DESIGNS = lab.DESIGNS


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_16")
    assert page.control_disabled("a1_flag_rate")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_fpr_ratio")

    # The context toggle moves Act I's base-rate sliders (visible change).
    page.set_control("context", "equal")
    assert close(float(page.page.eval_on_selector('[data-control="a1_base_a"]', "e => e.value")), S.base_equal)
    page.set_control("context", "measured")

    # Act I: the intuitive answer (equal flag rates, equal error rates) is wrong.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_fpr_ratio"), lab.act1_truth("measured"))
    page.chart_drawn("a1_groups")
    page.set_control("a1_criterion", "single")
    assert close(page.metric("a1_fpr_ratio"), 1.0)
    page.set_control("a1_base_a", 0.1)
    assert close(page.metric("a1_ppv_a"), page.metric("a1_ppv_b"))
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: a sharper model fails the four-fifths check; one lower cut-off for everyone passes it.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_us_impact"), lab.Deployment("single", "single").us.impact)
    assert page.failure_visible("a2_us_adverse_impact") and not page.failure_visible("a2_group_cutoffs")
    page.chart_drawn("a2_tradeoff")
    page.set_control("a2_d_prime", S.better_d_prime)
    assert close(page.metric("a2_us_impact"), DESIGNS["A"].us.impact)
    page.set_control("a2_d_prime", S.d_prime)
    page.set_control("a2_us_rule", "fourfifths")          # the spec's old fix: passes the ratio, breaks the law
    assert not page.failure_visible("a2_us_adverse_impact") and page.failure_visible("a2_group_cutoffs")
    page.set_control("a2_us_rule", "single")
    page.set_control("a2_threshold", S.low_threshold)
    assert not page.failure_visible("a2_us_adverse_impact") and not page.failure_visible("a2_group_cutoffs")
    assert close(page.metric("a2_us_impact"), DESIGNS["C"].us.impact)
    page.set_control("a2_eu_rule", "dp")                  # equal selection in the EU: a gap over the tolerance
    assert page.failure_visible("a2_eu_error_gap") and page.failure_visible("a2_group_cutoffs")
    page.set_control("a2_eu_rule", "single")
    assert not page.failure_visible("a2_eu_error_gap")
    page.lock("a2_reflect", "D")
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    assert "not legal advice" in page.page.inner_text('[data-instruments="2"]')
    (attempt,) = page.attempts("v2_16")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a2_us_adverse_impact", "a2_group_cutoffs", "a2_eu_error_gap"} <= set(attempt["failures_hit"])
    assert attempt["results"]["one_cutoff"] == 1.0 and attempt["results"]["screen_ok"] == 1.0


def test_harm_warning_is_reached_and_left(lab_page):
    page = lab_page.open("v2_16")
    for qid, letter in (("a1_predict", "A"), ("a1_reflect", "B"), ("a2_predict", "C")):
        page.lock(qid, letter)
    assert not page.failure_visible("a2_harm")
    page.set_control("a2_threshold", 2.2)
    assert page.failure_visible("a2_harm")
    page.set_control("a2_threshold", 1.8)
    assert not page.failure_visible("a2_harm")
