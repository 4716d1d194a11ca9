"""V1-07 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
edge keys in the browser."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_07 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_edge_keys_in_the_browser(lab_page):
    """Locked on the edge, Act II's key is D: 13,875 images take 5.78 days at 100 requests an hour."""
    page = lab_page.open("v1_07")
    page.set_control("context", "edge")
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_busy"), 0.10)
    page.lock("a1_reflect", "A")
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_breakeven_time_s"), lab.act2_truth("edge"))
    assert page.failure_visible("a2_no_payback")
    page.set_control("a2_duration_s", 7 * 86400)
    assert not page.failure_visible("a2_no_payback")
