"""V1-10 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py): the
context sets act is device and the key holds."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_10 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_the_context_sets_act_is_device_and_the_key_holds(lab_page):
    """A context switch in the browser (review): Edge moves Act I's latency to the Orin's, the key stays C,
    and the context locks with the first answer; INT4 after training collapses ResNet-50 (Krishnamoorthi
    2018, Table 5: 21.2 pp) and training with the rounding leaves the collapse."""
    page = lab_page.open("v1_10")
    page.set_control("context", "edge")
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    assert page.control_disabled("context")
    edge = lab.config(lab.LAB.parse({"answers": {}, "controls": {"context": "edge"}}))
    assert close(page.metric("a1_latency"), edge.latency_s())
    page.set_control("a1_format", "int4")
    assert page.failure_visible("a1_collapse")
    assert close(page.metric("a1_drop"), 0.212)
    page.set_control("a1_scheme", "qat")
    assert not page.failure_visible("a1_collapse")
