"""V2-02 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
finetune context asks and answers at 1024 tokens; reload keeps locks and settings; restart starts a
new attempt and keeps the old."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_02 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


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
