"""V1-15 in a real browser: the walkthrough, and the Act II failures reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_15 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_15")
    assert not page.act_unlocked(2) and not page.has_metric("a1_fpr_ratio")

    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_fpr_ratio"), lab.act1_truth())
    assert close(page.metric("a1_acc_a"), page.metric("a1_acc_b"), rel=1e-3)
    page.chart_drawn("a1_groups")
    page.set_control("a1_base_a", 0.5)
    page.set_control("a1_base_b", 0.5)
    assert close(page.metric("a1_fpr_ratio"), 1.0)
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"

    page.lock("a2_pick", "C")
    assert page.verdict("a2_pick") == "correct"
    assert page.failure_visible("a2_recall_floor") and page.failure_visible("a2_eo_gap")
    page.chart_drawn("a2_groups")
    page.set_control("a2_policy", "parity")
    assert page.failure_visible("a2_unlawful")
    page.set_control("a2_policy", "blind")
    assert page.failure_visible("a2_adverse_impact") and not page.failure_visible("a2_eo_gap")
    assert page.control_disabled("a2_t")
    page.set_control("a2_validated", True)
    assert not page.failure_visible("a2_adverse_impact")
    page.lock("a2_reflect", "B")

    (attempt,) = page.attempts("v1_15")
    assert attempt["complete"] and attempt["results"]["violations"] == "none"
    assert {"a2_recall_floor", "a2_unlawful", "a2_adverse_impact"} <= set(attempt["failures_hit"])
