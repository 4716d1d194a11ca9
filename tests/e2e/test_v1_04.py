"""V1-04 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): edge
context moves data over a free lan."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_04 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_edge_context_moves_data_over_a_free_lan(lab_page):
    page = lab_page.open("v1_04")
    page.set_control("context", "edge")
    page.lock("a1_predict", "A")
    page.lock("a1_reflect", "B")
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"       # 50 TB over the site's 1 Gb/s LAN: 4.63 days
    assert close(page.metric("a2_transfer_s"), lab.act2_truth("edge"))
    assert close(page.metric("a2_fee_usd"), 0.0)
    assert page.failure_visible("a2_data_gravity")   # 50 TB over 1 Gb/s is days
    assert page.control_disabled("a2_price")
