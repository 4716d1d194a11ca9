"""V2-15 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
deadline failure names its cause only after the reflection."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.e2e


def test_deadline_failure_names_its_cause_only_after_the_reflection(lab_page):
    """Review (class 34): at the Act II reflection's setting the failure gives the symptom; once the
    reflection is locked, the page re-renders it with the cause and the utilisation lever."""
    page = lab_page.open("v2_15")
    for qid, letter in (("a1_predict", "D"), ("a1_reflect", "A"), ("a2_predict", "B")):
        page.lock(qid, letter)
    page.set_control("a2_window", 12 * 3600)
    page.set_control("a2_flex", 1.0)
    assert page.failure_visible("a2_sla")
    text = page.page.inner_text('[data-failure="a2_sla"]')
    assert "lower utilisation" not in text and "idle GPUs" not in text
    page.lock("a2_reflect", "C")
    assert "lower utilisation" in page.page.inner_text('[data-failure="a2_sla"]')
