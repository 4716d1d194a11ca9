"""V2-04 in a real browser: the student walkthrough, the context, and every failure state
reached and left through the instruments (console errors and other hosts fail via the fixture)."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_04 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_04")
    # Before the prediction: instruments locked, Act II locked, no numbers.
    assert page.control_disabled("a1_workers")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_gpu_util")

    # Act I: lock a wrong diagnosis (the storage); instruments unlock at the scenario's numbers.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert not page.control_disabled("a1_workers")
    assert close(page.metric("a1_gpu_util"), lab.scenario_loader("lustre").util)
    assert close(page.metric("a1_demand"), lab.DEMAND)
    page.chart_drawn("a1_supply")

    # Failure state reached at the defaults and left by adding workers; supply scales with them.
    assert page.failure_visible("a1_starved")
    supply = page.metric("a1_supply")
    page.set_control("a1_workers", 8)
    assert close(page.metric("a1_supply"), 8 * supply)
    assert page.metric("a1_gpu_util") == 1.0
    assert not page.failure_visible("a1_starved")
    page.set_control("a1_workers", 1)
    assert page.failure_visible("a1_starved")
    page.set_control("a1_pattern", "whole")
    assert not page.failure_visible("a1_starved")

    # More OSTs change nothing for the GPU.
    before = page.metric("a1_gpu_util")
    page.set_control("a1_osts", 48)
    assert page.metric("a1_gpu_util") == before

    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_meta_ops"), lab.scenario_cluster("lustre").meta_ops)
    assert page.failure_visible("a2_metadata_saturated")
    page.chart_drawn("a2_metadata")
    files = page.metric("a2_files")
    page.set_control("a2_workers", 16)
    assert page.metric("a2_files") == files
    page.set_control("a2_osts", 96)
    assert page.failure_visible("a2_metadata_saturated")
    page.set_control("a2_layout", "shards")
    assert not page.failure_visible("a2_metadata_saturated")
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_04")
    assert attempt["complete"]
    assert attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["answers"]["a2_predict"]["choice"] == "C"
    assert {"a1_starved", "a2_metadata_saturated"} <= set(attempt["failures_hit"])


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
