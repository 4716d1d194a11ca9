"""V2-06 in a real browser: the student walkthrough, and the failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_06 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_06")
    assert page.control_disabled("a1_gpus")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_ratio")

    # The context moves the GPU sliders of the instruments (visible change).
    page.set_control("context", "frontier")
    assert page.page.get_attribute('[data-control="a1_gpus"]', "value") == "10"  # log2(1024)
    page.set_control("context", "cluster")

    # Act I: lock a prediction; the instruments reproduce the physics at the scenario.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_ring_s"), lab.act1_truth("cluster"))
    assert close(page.metric("a1_ratio"), lab.act1_ratio("cluster"))
    page.chart_drawn("a1_time")
    page.chart_drawn("a1_bandwidth")
    assert close(page.metric("a1_busbw"), lab.collectives.busbw(14e9, lab.ring_s(14e9, 128, lab.C.IB_NDR_BW), 128))
    page.set_control("a1_gpus", 8)
    assert close(page.metric("a1_ratio"), lab.naive_ratio(14e9, 8, lab.C.IB_NDR_BW))
    ring = page.metric("a1_ring_s")
    page.set_control("a1_link", "hdr")
    assert page.metric("a1_ring_s") > 1.9 * ring

    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the crossover, the workloads and the custom slider down to 1 KB.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ring_over_hd"), lab.act2_truth("cluster"))
    assert close(page.metric("a2_crossover"), lab.crossover(128))
    assert close(page.metric("a2_message"), 350e9)
    page.chart_drawn("a2_sizes")
    page.set_control("a2_workload", "small")
    assert close(page.metric("a2_rab_s"), 60.6875e-6)
    assert close(page.metric("a2_ring_s"), 420.6875e-6)
    page.set_control("a2_custom", 1024)
    assert page.page.eval_on_selector('[data-control="a2_workload"]:checked', "e => e.value") == "custom"
    assert close(page.metric("a2_message"), 1024)
    page.set_control("a2_gpus", 1024)
    assert close(page.metric("a2_crossover"), lab.crossover(1024))
    page.lock("a2_reflect", "B")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_06")
    assert attempt["complete"] and attempt["answers"]["a2_predict"]["correct"] is True
    assert attempt["results"]["a2_message"] == 1024


def test_communication_bound_failure_is_reached_and_left(lab_page):
    page = lab_page.open("v2_06")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "D"), ("a2_predict", "A")):
        page.lock(qid, letter)
    assert not page.failure_visible("a2_comm_bound")

    # A 1 MB message on a ring spends most of the step synchronising.
    page.set_control("a2_workload", "small")
    assert page.failure_visible("a2_comm_bound")
    page.set_control("a2_algorithm", "rab")
    assert page.failure_visible("a2_comm_bound")
    page.set_control("a2_tokens", 16384)
    assert not page.failure_visible("a2_comm_bound")

    # A large message on half the bandwidth reaches it again; NVLink leaves it.
    page.set_control("a2_workload", "175b")
    page.set_control("a2_tokens", 8192)
    page.set_control("a2_link", "hdr")
    assert page.failure_visible("a2_comm_bound")
    page.set_control("a2_link", "nvlink")
    assert not page.failure_visible("a2_comm_bound")
    (attempt,) = page.attempts("v2_06")
    assert attempt["failures_hit"] == ["a2_comm_bound"]


def test_grown_cluster_context_asks_and_answers_at_1024_gpus(lab_page):
    """Review: in the grown cluster the Act I prompt, key and feedback are the 1,024-GPU ones and the
    feedback's ring time equals the card; Act II's card shows the 1,024-GPU gap, still under 1 %."""
    page = lab_page.open("v2_06")
    page.set_control("context", "frontier")
    assert "1,024 GPUs" in page.question("a1_predict").inner_text()
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "correct"
    ring = page.metric("a1_ring_s")
    assert close(ring, lab.act1_truth("frontier"))
    feedback = page.page.inner_text('[data-feedback="a1_predict"]')
    assert lab.fmt(ring, "s") in feedback
    page.lock("a1_reflect", "D")
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ring_over_hd"), lab.act2_truth("frontier"))
