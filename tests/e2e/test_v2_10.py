"""V2-10 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
document context locks none as the key; a reload returns to act ii instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_10 as lab
from pylabs.labs.vol2 import v2_10_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_document_context_locks_none_as_the_key(lab_page):
    """Document Q&A: 4,096-token prompts, no plan keeps a 200 ms P99; the page says so, not "153 ms"."""
    page = lab_page.open("v2_10")
    page.set_control("context", "docs")
    for qid in ("a1_predict", "a1_reflect"):
        page.lock(qid, lab.LAB.question(qid).answer("docs"))
    assert page.page.get_attribute('[data-control="a2_prompt"]', "value") == "12"  # log2(4096)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    feedback = page.page.inner_text('[data-feedback="a2_predict"]')
    assert "1.73 s" in feedback and "153 ms" not in feedback
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 32)
    assert page.failure_visible("a2_ttft_slo")
    assert close(page.metric("a2_ttft"), model.plans("docs")["A"].ttft)
    page.set_control("a2_prompt", 1024)
    assert not page.failure_visible("a2_ttft_slo")


def test_a_reload_returns_to_act_ii_instruments(lab_page):
    """A reload moved the page from Act II's instruments (4,350 px) to 2,165 px."""
    page = lab_page.open("v2_10")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "D"), ("a2_predict", "A")):
        page.lock(qid, letter)
    p = page.page
    before = page.place('[data-instruments="2"]')
    assert before > 2000
    page.reload()
    p.wait_for_timeout(800)  # charts and math settle
    assert abs(p.evaluate("() => window.scrollY") - before) <= 200
