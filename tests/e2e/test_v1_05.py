"""V1-05 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
cloud context keys and story."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_05 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_cloud_context_keys_and_story(lab_page):
    """Review: locked in Cloud, the Act I key is A (0.0046 %), its feedback quotes the card's number, and the
    Act II story gives the 512 KiB buffer to a small accelerator, not to the H100 (whose L2 is 50 MB)."""
    page = lab_page.open("v1_05")
    page.set_control("context", "cloud")
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_frame_share"), lab.frame_share("cloud"))
    assert "0.0046 %" in page.page.inner_text('[data-feedback="a1_predict"]')
    page.lock("a1_reflect", "C")
    assert page.act_unlocked(2)
    assert "H100's 50 MB L2 cache" in page.page.inner_text("body")
