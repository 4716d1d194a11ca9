"""V2-13 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_13 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_13")
    assert page.control_disabled("a1_eps")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_mi_cap")

    # Act I: the vendor's coin flip is wrong; the instruments show the bound at ε = 1.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_mi_cap"), lab.act1_truth())
    assert close(page.metric("a1_naive_mi"), 0.6475)
    page.chart_drawn("a1_bound")
    page.set_control("a1_eps", "none")
    assert close(page.metric("a1_mi_cap"), 1.0)               # no DP: nothing bounds the attack
    page.set_control("a1_eps", "0.2")                          # the audit's attack beats the 55 % cap
    assert page.failure_visible("a1_refuted")
    page.set_control("a1_test", 0.95)
    assert not page.failure_visible("a1_refuted")
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the current run meets the rule but not the floor; 10x the records at the same z meets both.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_epsilon"), lab.TEAM.epsilon)
    assert page.failure_visible("a2_clinical") and not page.failure_visible("a2_policy")
    page.chart_drawn("a2_epsilon")
    page.chart_drawn("a2_accuracy")
    page.set_control("a2_conversion", "classic")               # the same run, a looser proof
    assert page.failure_visible("a2_policy")
    assert close(page.metric("a2_accuracy"), lab.TEAM.accuracy)
    page.set_control("a2_conversion", "tight")
    page.set_control("a2_records", "10000000")
    page.set_control("a2_z", lab.S.pooled_z)                   # plan C: the extra data spent on much less noise
    assert page.failure_visible("a2_policy") and not page.failure_visible("a2_clinical")
    page.set_control("a2_z", 1.15)                             # plan D
    assert close(page.metric("a2_epsilon"), lab.CANDIDATES["D"].epsilon)
    assert not page.failure_visible("a2_policy") and not page.failure_visible("a2_clinical")
    page.lock("a2_reflect", "A")
    peek = page.open_math(2)
    assert "Balle et al. 2020" in peek.inner_text()

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v2_13")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a1_refuted", "a2_clinical", "a2_policy"} <= set(attempt["failures_hit"])
    assert close(attempt["results"]["n"], 1e7) and attempt["results"]["policy_ok"] is True


def test_context_changes_training_time_not_epsilon(lab_page):
    page = lab_page.open("v2_13")
    page.set_control("context", "cloud")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "C"), ("a2_predict", "D")):
        page.lock(qid, letter)
        assert page.verdict(qid) == "correct"
    assert close(page.metric("a2_train_time"), lab.train_time("cloud", lab.S.records))
    assert close(page.metric("a2_epsilon"), lab.TEAM.epsilon)
    page.set_control("a2_conversion", "classic")
    assert close(page.metric("a2_epsilon"), lab.Training(lab.S.records, lab.S.z, "classic").epsilon)
