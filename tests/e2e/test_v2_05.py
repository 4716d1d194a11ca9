"""V2-05 in a real browser: the student walkthrough, and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_05 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_05")
    assert page.control_disabled("a1_gpus")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_mfu")

    # The context toggle moves the global batch and the GPU count the question asks about (visible change).
    page.set_control("context", "warmup")
    assert page.page.get_attribute('[data-control="a1_batch"]', "value") == "17"  # log2(131,072)
    assert page.page.get_attribute('[data-control="a1_gpus"]', "value") == "7"  # log2(128)
    page.set_control("context", "full")

    # Act I: lock a wrong prediction; the instruments follow the GPU count.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert page.page.eval_on_selector('[data-control="a1_fabric"]', "e => e.value") == "8ndr"  # the scenario
    assert close(page.metric("a1_mfu"), lab.act1_truth("full"))  # opens where the question asks: 512 GPUs
    page.chart_drawn("a1_mfu_scaling")
    few, mid = lab.measured("full")
    page.set_control("a1_gpus", 8)
    assert close(page.metric("a1_mfu"), few.mfu)
    page.set_control("a1_gpus", 64)
    assert close(page.metric("a1_mfu"), mid.mfu)
    page.set_control("a1_gpus", 512)
    page.set_control("a1_overlap", True)
    assert page.metric("a1_mfu") > lab.act1_truth("full")

    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the default layout (the seed's TP8 × PP4) is out of memory until the optimizer is sharded.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_distopt", True)
    assert not page.failure_visible("a2_out_of_memory")
    assert close(page.metric("a2_memory"), lab.Layout(8, 4, distopt=True).memory)
    assert page.metric("a2_microbatches") == 48
    page.chart_drawn("a2_memory")
    page.lock("a2_reflect", "A")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_05")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert {"a1_comm_bound", "a2_out_of_memory"} <= set(attempt["failures_hit"])


def test_every_failure_state_is_reached_and_left(lab_page):
    page = lab_page.open("v2_05")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "C"), ("a2_predict", "D"), ("a2_reflect", "A")):
        page.lock(qid, letter)
    steps = [
        ("a1_out_of_memory", [("a1_zero", "0")], [("a1_zero", "1")]),
        ("a1_comm_bound", [("a1_gpus", 512)], [("a1_gpus", 64)]),
        ("a2_out_of_memory", [("a2_pp", 4)], [("a2_pp", 16)]),
        ("a2_tp_across_nodes", [("a2_tp", 16), ("a2_pp", 8)], [("a2_tp", 8), ("a2_pp", 16)]),
        ("a2_bubble", [("a2_tp", 4), ("a2_pp", 32)], [("a2_tp", 8), ("a2_pp", 16)]),
    ]
    for name, reach, leave in steps:
        for control, value in reach:
            page.set_control(control, value)
        assert page.failure_visible(name), name
        for control, value in leave:
            page.set_control(control, value)
        assert not page.failure_visible(name), name
    (attempt,) = page.attempts("v2_05")
    assert set(attempt["failures_hit"]) == {f.name for f in lab.FAILURES}
