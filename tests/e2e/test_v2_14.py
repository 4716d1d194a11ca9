"""V2-14 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_14 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_14")
    assert page.control_disabled("a1_eps")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_attacked_acc")

    # The context toggle swaps Act I's model (visible change in the clean-accuracy control).
    page.set_control("context", "cifar")
    assert close(float(page.page.eval_on_selector('[data-control="a1_clean"]', "e => e.value")), 0.952)
    page.set_control("context", "medical")

    # Act I: the upstream's wrong key (below chance is a bug, now A); the instruments unlock.
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_attacked_acc"), lab.attacked(lab.S.clean_acc, lab.EPS, "pgd"))
    assert page.metric("a1_attacked_acc") < page.metric("a1_chance")
    page.chart_drawn("a1_decay")
    page.set_control("a1_attack", "fgsm")
    assert close(page.metric("a1_attacked_acc"), lab.attacked(lab.S.clean_acc, lab.EPS, "fgsm"))
    page.set_control("a1_eps", 16)
    assert page.metric("a1_attacked_acc") < lab.CHANCE
    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the team's trade-off fails security; published recipes each break one limit; a tuned one passes.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "incorrect"
    assert page.failure_visible("a2_security") and not page.failure_visible("a2_clinical")
    page.chart_drawn("a2_pareto")
    page.set_control("a2_method", "trades")
    assert not page.failure_visible("a2_security") and page.failure_visible("a2_clinical")
    page.set_control("a2_method", "tuned")
    page.set_control("a2_target", 0.51)
    assert not page.failure_visible("a2_security") and not page.failure_visible("a2_clinical")
    assert close(page.metric("a2_clean_acc"), lab.clean_at(0.51))
    page.set_control("a2_steps", 10)
    assert close(page.metric("a2_cost"), 11.0)
    page.lock("a2_reflect", "B")
    page.open_math(2)

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_14")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a2_security", "a2_clinical"} <= set(attempt["failures_hit"])
    assert attempt["results"]["security_met"] is True and attempt["results"]["clinical_met"] is True


def test_failures_are_reached_and_left(lab_page):
    page = lab_page.open("v2_14")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "D"), ("a2_predict", "A")):
        page.lock(qid, letter)
    page.set_control("a2_method", "natural")
    assert page.failure_visible("a2_security")
    page.set_control("a2_method", "tuned")
    page.set_control("a2_target", 0.55)
    assert page.failure_visible("a2_clinical") and not page.failure_visible("a2_security")
    page.set_control("a2_target", 0.50)
    assert not page.failure_visible("a2_clinical") and not page.failure_visible("a2_security")


def test_cifar_context_and_the_equations_wait_for_the_reflection(lab_page):
    """Review: in the CIFAR-10 context the card uses a CIFAR image's 3,072 inputs, and the equations panel's
    linear argument (the Act I reflection's answer) appears only once that reflection is locked."""
    page = lab_page.open("v2_14")
    page.set_control("context", "cifar")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert "3,072" in page.page.text_content('[data-metric="a1_l1_shift"]')
    panel = '[data-act="1"] .pl-mathpeek'
    assert "ε·D at" not in page.page.text_content(panel)
    page.lock("a1_reflect", "D")
    page.page.wait_for_function(f"() => document.querySelector('{panel}').textContent.includes('ε·D at')")
