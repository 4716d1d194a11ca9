"""V1-11 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
key follows the context locked in; the phone runs at half of apple's figure and fails past its
memory."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_11 as lab
from pylabs.physics import constants as C
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_key_follows_the_context_locked_in(lab_page):
    """On the Jetson Orin NX 159 tokens reach the FP16 peak: C is right there, D is right on the H100."""
    page = lab_page.open("v1_11")
    page.set_control("context", "edge")
    assert "Jetson Orin NX" in page.page.inner_text('[data-question="a1_predict"]')
    page.lock("a1_predict", lab.ACT1_PREDICTION.answer("edge"))
    assert page.verdict("a1_predict") == "correct"
    assert page.metric("a1_m_star") == 159
    assert page.control_disabled("context")


def test_the_phone_runs_at_half_of_apple_s_figure_and_fails_past_its_memory(lab_page):
    """Review of V1-11: on the A17 Pro the 16-bit peak is assumed at half of Apple's 35 TOP/s (ridge 342,
    411 tokens); the phone's plan of 4 threads fits its 8 GB, 8 do not, and the failure is left again."""
    page = lab_page.open("v1_11")
    page.set_control("context", "mobile")
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    assert page.metric("a1_m_star") == 411
    assert close(page.metric("a1_ridge"), C.A17_PRO_NPU_OPS / 2 / C.A17_PRO_MEM_BW)
    assert "half of Apple's 35 TOP/s" in page.page.inner_text('[data-instruments="1"]')
    page.lock("a1_reflect", "A")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    page.set_control("a2_batch", 8)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_batch", 4)
    assert not page.failure_visible("a2_out_of_memory")
