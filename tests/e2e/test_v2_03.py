"""V2-03 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
reload keeps locks and settings."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.e2e


def test_reload_keeps_locks_and_settings(lab_page):
    page = lab_page.open("v2_03")
    page.lock("a1_predict", "D")
    page.set_control("a1_oversub", "4")
    page.set_control("a1_pattern", "ring_random")
    page.reload()
    assert page.locked("a1_predict")
    assert page.failure_visible("a1_uplink_bound")
