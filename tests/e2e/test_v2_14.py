"""V2-14 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
cifar context and the equations wait for the reflection."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.e2e


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
