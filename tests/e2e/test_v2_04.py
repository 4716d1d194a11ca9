"""V2-04 in a real browser, beyond the walkthrough every lab gets (tests/e2e/test_walkthrough.py):
object store context and its failure state."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_04 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_object_store_context_and_its_failure_state(lab_page):
    page = lab_page.open("v2_04")
    # The context is chosen before the first lock and fixed by it; the keys are those of the object store.
    page.set_control("storage_type", "object")
    for qid, key in (("a1_predict", "A"), ("a1_reflect", "B"), ("a2_predict", "C")):
        page.lock(qid, key)
        assert page.verdict(qid) == "correct"
    assert close(page.metric("a1_supply"), lab.scenario_loader("object").supply)   # 204 KB/s: a 20 ms first byte
    assert "204 KB/s" in page.page.inner_text('[data-feedback="a1_predict"]')
    assert page.failure_visible("a2_requests_throttled")
    assert not page.failure_visible("a2_metadata_saturated")
    prefixes = lab.scenario_cluster("object").needed
    page.set_control("a2_servers", prefixes)
    assert not page.failure_visible("a2_requests_throttled")
    page.set_control("a2_servers", 1)
    assert page.failure_visible("a2_requests_throttled")
    page.set_control("a2_layout", "shards")
    assert not page.failure_visible("a2_requests_throttled")
