"""V1-08 in a real browser: the student walkthrough, both out-of-memory states reached and left, and
the phone's keys and cards in its own context."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_08 as lab
from pylabs.labs.vol1 import v1_08_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_08")
    assert page.control_disabled("a1_batch")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_static")

    # The context moves both acts to that device's setups (visible once the acts open).
    page.set_control("context", "mobile")
    page.set_control("context", "cloud")

    # Act I: a wrong prediction; the engineer's 7B is out of memory.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_weights_share"), model.act1_truth())
    assert close(page.metric("a1_largest"), 5e9)
    assert close(page.metric("a1_static"), 112e9)
    assert page.failure_visible("a1_out_of_memory")
    page.chart_drawn("a1_memory")
    page.set_control("a1_precision", "mixed")
    assert close(page.metric("a1_static"), 112e9)   # mixed precision saves nothing static
    page.set_control("a1_model", "gpt3xl")
    assert not page.failure_visible("a1_out_of_memory")
    page.set_control("a1_batch", 64)
    assert page.failure_visible("a1_out_of_memory")
    page.set_control("a1_batch", 8)

    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: accumulation is only slightly slower; a bigger micro-batch runs out of memory.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_ratio"), model.act2_truth("cloud"))
    assert close(page.metric("a2_native_total"), model.scenario("cloud").native.total)
    assert not page.failure_visible("a2_out_of_memory")
    page.chart_drawn("a2_memory")
    page.set_control("a2_batch", 64)
    assert page.failure_visible("a2_out_of_memory")
    assert not page.has_metric("a2_ratio")   # no throughput beside an out-of-memory
    page.set_control("a2_mode", "full")
    assert not page.failure_visible("a2_out_of_memory")
    assert close(page.metric("a2_compute_factor"), 4 / 3)
    page.lock("a2_reflect", "D")
    assert page.verdict("a2_reflect") == "correct"
    page.wait_saved("v1_08", "a2_reflect")  # saves are asynchronous

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud and "2 of 2" in hud
    (attempt,) = page.attempts("v1_08")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert set(attempt["failures_hit"]) == {"a1_out_of_memory", "a2_out_of_memory"}
    assert attempt["results"]["static_bytes"] == pytest.approx(lab.C.GPT3_XL_PARAMS * 16)


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
