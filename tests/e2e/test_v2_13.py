"""V2-13 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
context changes training time not epsilon."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_13 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_context_changes_training_time_not_epsilon(lab_page):
    page = lab_page.open("v2_13")
    page.set_control("context", "cloud")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "C"), ("a2_predict", "D")):
        page.lock(qid, letter)
        assert page.verdict(qid) == "correct"
    assert close(page.metric("a2_train_time"), lab.train_time("cloud", lab.S.records))
    assert close(page.metric("a2_epsilon"), lab.TEAM.epsilon)
    page.set_control("a2_conversion", "classic")
    assert close(page.metric("a2_epsilon"), lab.Training(lab.S.records, lab.S.z, "classic").epsilon)
