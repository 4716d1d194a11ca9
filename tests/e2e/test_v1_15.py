"""V1-15 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
mobile context prices act ii audits and its feedback follows."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.e2e


def test_the_mobile_context_prices_act_ii_audits_and_its_feedback_follows(lab_page):
    """Review: a context switch in the real page. On phones an audit costs $4k [assumed]: the story says
    so, the key stays B ($16k a year), D's monthly audits cost $48k (within budget, so only the
    adverse-impact ratio fails D), and the context is fixed once a prediction is locked."""
    page = lab_page.open("v1_15")
    page.set_control("context", "mobile")
    page.lock("a1_predict", "D")
    assert page.control_disabled("context")
    page.lock("a1_reflect", "A")
    assert "one audit costs $4k" in page.page.inner_text('[data-act="2"]')
    page.lock("a2_pick", "D")
    assert page.verdict("a2_pick") == "incorrect"
    said = page.page.inner_text('[data-feedback="a2_pick"]')
    assert "Monthly audits cost $48k a year, within the $50k budget" in said
    assert page.metric("a2_audit_cost") == 16_000
    page.set_control("a2_audits", 13)
    assert page.failure_visible("a2_audit_budget")
    page.set_control("a2_audits", 12)
    assert not page.failure_visible("a2_audit_budget")
