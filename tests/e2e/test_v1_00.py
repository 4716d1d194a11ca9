"""V1-00 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
medium changes the question and the instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_00 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_medium_changes_the_question_and_the_instruments(lab_page):
    page = lab_page.open("v1_00")
    page.set_control("context", "vacuum")
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_reach"), lab.reach_m("vacuum"))
    assert close(page.metric("a1_rtt"), lab.rtt_s(lab.S.distance_m, "vacuum"))
    assert page.control_disabled("context")
