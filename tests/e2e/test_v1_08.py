"""V1-08 in a real browser: the student walkthrough, both out-of-memory states reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_08 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_08")
    assert page.control_disabled("a1_batch")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_static")

    # The context moves Act II to what fits a phone (visible once Act II opens).
    page.set_control("context", "mobile")
    page.set_control("context", "cloud")

    # Act I: a wrong prediction; the engineer's setup is out of memory.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_static"), lab.act1_truth())
    assert page.failure_visible("a1_out_of_memory")
    page.chart_drawn("a1_memory")
    page.set_control("a1_precision", "mixed")
    assert close(page.metric("a1_static"), lab.act1_truth())   # mixed precision saves nothing static
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
    assert close(page.metric("a2_ratio"), lab.act2_truth())
    assert close(page.metric("a2_native_total"), lab.SCENARIO.native.total)
    assert not page.failure_visible("a2_out_of_memory")
    page.chart_drawn("a2_memory")
    page.set_control("a2_batch", 64)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_mode", "full")
    assert not page.failure_visible("a2_out_of_memory")
    assert close(page.metric("a2_compute_factor"), 4 / 3)
    page.lock("a2_reflect", "B")
    page.wait_saved("v1_08", "a2_reflect")  # saves are asynchronous

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud and "2 of 2" in hud
    (attempt,) = page.attempts("v1_08")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert set(attempt["failures_hit"]) == {"a1_out_of_memory", "a2_out_of_memory"}
    assert attempt["results"]["static_bytes"] == pytest.approx(lab.C.GPT3_XL_PARAMS * 16)
