"""V1-09 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): edge
context trains slower and breaks the week."""

from __future__ import annotations

import pytest


pytestmark = pytest.mark.e2e


def test_edge_context_trains_slower_and_breaks_the_week(lab_page):
    page = lab_page.open("v1_09")
    page.set_control("context", "edge")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    assert page.failure_visible("a1_over_a_week")
    assert page.has_metric("a1_run_energy")
    page.set_control("a1_epochs", 40)
    assert not page.failure_visible("a1_over_a_week")
