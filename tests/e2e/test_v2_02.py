"""V2-02 in a real browser: the whole student walkthrough, persistence, restart, failure states."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_02 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_02")
    # Before the prediction: instruments locked, Act II locked.
    assert page.control_disabled("a1_tokens")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_efficiency")

    # The context toggle moves the instruments' tokens (visible change).
    page.set_control("context", "finetune")
    assert page.page.get_attribute('[data-control="a1_tokens"]', "value") == "10"  # log2(1024)
    page.set_control("context", "pretrain")

    # Act I: lock a prediction; instruments unlock; numbers follow the sliders.
    page.lock("a1_predict", "B")
    assert not page.control_disabled("a1_tokens")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_slowdown"), lab.act1_truth("pretrain"))
    page.chart_drawn("a1_step_time")
    before = page.metric("a1_allreduce_s")
    page.set_control("a1_fabric", "nvlink")
    assert page.metric("a1_allreduce_s") < before
    compute = page.metric("a1_compute_s")
    page.set_control("a1_tokens", 8192)
    assert close(page.metric("a1_compute_s"), 2 * compute)

    # Failure state reached and left through the instruments.
    page.set_control("a1_model", "70b")
    assert page.failure_visible("a1_out_of_memory")
    page.set_control("a1_model", "13b")
    assert not page.failure_visible("a1_out_of_memory")

    # Reflection and math peek.
    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II unlocks only now.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_network_wall")
    assert close(page.metric("a2_speedup"), lab.scenario_cluster("pretrain").speedup(16))
    assert close(page.metric("a2_rails_gain"), lab.act2_truth("pretrain"))
    page.set_control("a2_nics", "8")
    assert not page.failure_visible("a2_network_wall")
    assert close(page.metric("a2_speedup"), lab.scenario_cluster("pretrain", 8).speedup(16))
    page.chart_drawn("a2_scaling")
    page.set_control("a2_strong", True)
    assert close(page.metric("a2_tokens_per_gpu"), 2048)
    assert page.control_disabled("a2_tokens")   # the fixed batch decides, and the help says so
    assert "= 2,048 tokens" in page.page.inner_text("#pl-control-a2_tokens-help")
    page.set_control("a2_strong", False)
    assert not page.control_disabled("a2_tokens")
    page.lock("a2_reflect", "B")
    assert page.verdict("a2_reflect") == "correct"

    # HUD summarises; the ledger has the whole attempt.
    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud and "3 of 3" in hud
    (attempt,) = page.attempts("v2_02")
    assert attempt["complete"] and set(attempt["answers"]) == {"a1_predict", "a1_reflect", "a2_predict", "a2_reflect"}
    assert attempt["answers"]["a1_predict"]["correct"] is False
    assert set(attempt["failures_hit"]) == {"a1_comm_bound", "a1_out_of_memory", "a2_network_wall"}


def test_finetune_context_asks_and_answers_at_1024_tokens(lab_page):
    """One context per question: in fine-tuning the prompt names 1,024 tokens and D is the key (13.6×)."""
    page = lab_page.open("v2_02")
    page.set_control("context", "finetune")
    assert "1,024 tokens per GPU" in page.page.inner_text('[data-question="a1_predict"]')
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_slowdown"), lab.act1_truth("finetune"))


def test_reload_keeps_locks_and_settings(lab_page):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "C")
    page.set_control("a1_fabric", "pcie4")
    page.reload()
    assert page.locked("a1_predict")
    assert page.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "pcie4"
    assert page.page.eval_on_selector_all('[data-question="a1_predict"] input', "els => els.every(e => e.disabled)")


def test_restart_starts_a_new_attempt_and_keeps_the_old(lab_page):
    page = lab_page.open("v2_02")
    page.lock("a1_predict", "D")
    page.page.once("dialog", lambda dialog: dialog.accept())
    page.page.click('[data-action="restart"]')
    page.page.wait_for_selector('[data-question="a1_predict"][data-locked="false"]')
    # The new attempt is written after the re-render: wait for the save, not for a fixed time.
    page.page.wait_for_function(
        "() => { const k = Object.keys(localStorage).find(k => k.startsWith('mlsys-labs:ledger:'));"
        " return k && Object.keys(JSON.parse(localStorage.getItem(k)).attempts).length === 2; }")
    attempts = page.attempts("v2_02")
    assert len(attempts) == 2
    archived = [a for a in attempts if a["archived_at"]]
    assert len(archived) == 1 and archived[0]["answers"]["a1_predict"]["choice"] == "D"
    page.reload()
    assert not page.locked("a1_predict")
