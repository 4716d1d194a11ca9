"""V1-04 in a real browser: the walkthrough, both failure states reached and left, the edge context."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_04 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_04")
    assert page.control_disabled("a1_workers")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_util")

    # Act I: lock the diagnosis; the instruments open at the team's settings.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_util"), lab.SCENARIO_LOADER.pipeline().gpu_utilization)
    assert page.failure_visible("a1_gpu_starved")
    page.chart_drawn("a1_stages")
    assert page.control_disabled("a1_iops")        # only a disk reading small files uses it
    page.set_control("a1_storage", "hdd_random")
    assert not page.control_disabled("a1_iops")
    assert close(page.metric("a1_storage_rate"), 150)
    # Fix both stages: fast storage and enough workers; the failure clears.
    page.set_control("a1_storage", "sata")
    page.set_control("a1_workers", 16)
    assert close(page.metric("a1_util"), 1.0)
    assert not page.failure_visible("a1_gpu_starved")
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"

    # Act II: the transfer.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_transfer_s"), lab.act2_truth("cloud"))
    assert close(page.metric("a2_fee_usd"), 1000.0)
    page.chart_drawn("a2_transfer")
    assert not page.failure_visible("a2_data_gravity")
    page.set_control("a2_link", "10")
    assert page.failure_visible("a2_data_gravity")
    page.set_control("a2_link", "100")
    assert not page.failure_visible("a2_data_gravity")
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_04")
    assert attempt["complete"] and attempt["results"]["bottleneck"] == "The GPU"
    assert set(attempt["failures_hit"]) == {"a1_gpu_starved", "a2_data_gravity"}


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
