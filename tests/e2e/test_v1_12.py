"""V1-12 in a real browser: the student walkthrough (the 64-GPU job's ceiling, Gustafson's mode,
the benchmark's batch against production's) and the rank-inversion failure reached and left
through the Act II instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_12 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_12")
    assert page.control_disabled("a1_serial")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_speedup")

    # Act I: the CTO's near-linear speedup (D) is wrong; the fixed job reaches 6.12× (A).
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_speedup"), lab.act1_truth())
    assert close(page.metric("a1_wall_s"), lab.S.one_worker_s / lab.act1_truth())
    page.chart_drawn("a1_speedup_curve")
    page.chart_drawn("a1_hours")
    page.set_control("a1_workers", 1024)
    assert page.metric("a1_speedup") < page.metric("a1_ceiling")
    page.set_control("a1_mode", "scaled")
    assert close(page.metric("a1_speedup"), lab.Run(lab.S.serial, 1024, 1.0, True).speedup)
    page.set_control("a1_mode", "fixed")
    page.set_control("a1_workers", 64)
    page.set_control("a1_serial", 0.25)
    assert close(page.metric("a1_speedup"), 3.8208955223880596)
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the benchmark at batch 32 ranks the vendors opposite to production at batch 1.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "incorrect"
    assert close(page.metric("a2_crossover"), lab.crossover())
    page.chart_drawn("a2_throughput")
    assert page.failure_visible("a2_rank_inverted")
    assert page.control_disabled("a2_batch_bench")
    page.set_control("a2_scenario", "single")
    assert not page.failure_visible("a2_rank_inverted")
    assert page.metric("a2_rank_valid") == 1
    page.set_control("a2_scenario", "server")
    assert not page.control_disabled("a2_batch_bench")
    page.set_control("a2_batch_bench", 16)
    assert page.failure_visible("a2_rank_inverted")
    page.set_control("a2_batch_prod", 32)
    assert not page.failure_visible("a2_rank_inverted")
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v1_12")
    assert attempt["complete"]
    assert "a2_rank_inverted" in attempt["failures_hit"]


def test_edge_context_names_the_boards_and_moves_the_energy(lab_page):
    """Review: a context switch in the browser. Edge names its boards in the story and the question
    and prices the run's energy at the Orin NX's 25 W; the key (A, 6.12×) is the same."""
    page = lab_page.open("v1_12")
    page.set_control("context", "edge")
    assert "Orin NX boards" in page.question("a1_predict").inner_text()
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    wall = lab.S.one_worker_s / lab.act1_truth()
    assert close(page.metric("a1_energy"), lab.S.workers * wall * lab.C.ORIN_NX_POWER_MAX_W)
    assert close(page.metric("a1_speedup"), lab.act1_truth())
