"""V2-01 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
start up is asked about its own fabric."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_01 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_start_up_is_asked_about_its_own_fabric(lab_page):
    """In 'Start-up' the key is A and the feedback quotes the card's 39x, not the frontier's 167x."""
    page = lab_page.open("v2_01")
    page.set_control("context", "startup")
    assert "1 × NDR 400G NIC each" in page.page.inner_text('[data-question="a1_predict"]')
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_speedup"), lab.act1_truth("startup"))
    feedback = page.page.inner_text('[data-feedback="a1_predict"]')
    assert "39×" in feedback and "167×" not in feedback
