"""V1-08 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
phone trains on its gpu."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_08_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_phone_trains_on_its_gpu(lab_page):
    page = lab_page.open("v1_08")
    page.set_control("context", "mobile")
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_largest"), 0.5e9)
    page.lock("a1_reflect", "B")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ratio"), model.act2_truth("mobile"))
    assert close(page.metric("a2_effective_batch"), 256)
