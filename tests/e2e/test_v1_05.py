"""V1-05 in a real browser: the student walkthrough, the memory-bound reveal, and the OOM
failure reached and left through the Memory Ledger's instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_05 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_05")
    assert page.control_disabled("a1_activation")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_time_ratio")

    # The context toggle moves the precision preset (visible change), then back to the phone.
    page.set_control("context", "cloud")
    assert page.page.eval_on_selector('[data-control="a1_precision"]:checked', "e => e.value") == "fp16"
    page.set_control("context", "mobile")
    assert page.page.eval_on_selector('[data-control="a1_precision"]:checked', "e => e.value") == "int8"

    # Act I: the transistor intuition (D, the swap closes the gap) is wrong; sigmoid and ReLU tie in time.
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "incorrect"
    assert close(page.metric("a1_frame_share"), lab.frame_share("mobile"))
    assert close(page.metric("a1_op_ratio"), 14.0)
    assert close(page.metric("a1_time_ratio"), 1.0)
    assert close(page.metric("a1_layer_s"), 31.36e-6)
    page.chart_drawn("a1_layer_time")
    page.set_control("a1_activation", "gelu")
    assert close(page.metric("a1_time_ratio"), 1.0) and close(page.metric("a1_op_ratio"), 24.0)
    before = page.metric("a1_layer_s")
    page.set_control("a1_fused", True)
    assert page.metric("a1_layer_s") < before
    page.set_control("a1_fused", False)
    page.lock("a1_reflect", "C")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the Memory Ledger.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_buffer_ratio"), 196.0)
    assert close(page.metric("a2_spilled"), 5)
    page.chart_drawn("a2_ledger")
    page.set_control("a2_batch", 128)
    page.set_control("a2_image", 512)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_mode", "inference")
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_batch", 32)
    assert not page.failure_visible("a2_out_of_memory")
    page.lock("a2_reflect", "B")
    assert page.verdict("a2_reflect") == "incorrect"
    page.open_math(2)

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v1_05")
    assert attempt["complete"]
    assert "a2_out_of_memory" in attempt["failures_hit"]


def test_cloud_context_keys_and_story(lab_page):
    """Review: locked in Cloud, the Act I key is A (0.0046 %), its feedback quotes the card's number, and the
    Act II story gives the 512 KiB buffer to a small accelerator, not to the H100 (whose L2 is 50 MB)."""
    page = lab_page.open("v1_05")
    page.set_control("context", "cloud")
    page.lock("a1_predict", "A")
    assert page.verdict("a1_predict") == "correct"
    assert close(page.metric("a1_frame_share"), lab.frame_share("cloud"))
    assert "0.0046 %" in page.page.inner_text('[data-feedback="a1_predict"]')
    page.lock("a1_reflect", "C")
    assert page.act_unlocked(2)
    assert "H100's 50 MB L2 cache" in page.page.inner_text("body")
