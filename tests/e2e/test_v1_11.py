"""V1-11 in a real browser: the student walkthrough (tokens per call to reach the peak, the kernels
a faster chip speeds up, each sequence's share of its solo speed, the change that raises it), the decode
analyzer's OOM reached and left, and a key that follows the context chosen."""

from __future__ import annotations

import pytest

from pylabs.labs.vol1 import v1_11 as lab
from pylabs.labs.vol1 import v1_11_model as model
from pylabs.physics import constants as C
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v1_11")
    assert page.control_disabled("a1_m")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_m_star")

    # The context is free until the first lock: the edge and back to the H100.
    page.set_control("context", "edge")
    page.set_control("context", "cloud")

    # Act I: "one full tile of rows" (B) is wrong; 346 tokens per call reach the BF16 peak.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert page.metric("a1_m_star") == model.act1_truth("cloud") == 346
    assert close(page.metric("a1_rate"), 26.696e12, rel=1e-4)
    page.chart_drawn("a1_roofline")
    page.set_control("a1_m", 64)
    assert close(page.metric("a1_rate"), 207.9e12, rel=1e-3)
    page.set_control("a1_square", True)
    assert page.control_disabled("a1_m")
    page.set_control("a1_hidden", 512)
    page.set_control("a1_precision", "fp32")
    assert close(page.metric("a1_rate"), C.H100_PEAK_FP32)
    page.set_control("a1_square", False)
    before = page.metric("a1_chain_time")
    page.set_control("a1_fused", True)
    assert page.metric("a1_chain_time") < before
    page.lock("a1_reflect", "A")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: 64 conversations on one H100 at 4,096 tokens each.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert close(page.metric("a2_per_seq"), model.act2_truth("cloud"))
    assert close(page.metric("a2_tok_s"), model.scenario_decode("cloud").tok_s)
    page.chart_drawn("a2_throughput")
    page.chart_drawn("a2_roofline")
    page.set_control("a2_batch", 128)
    assert page.failure_visible("a2_out_of_memory")
    assert not page.has_metric("a2_speedup")  # nothing runs: no gain to show
    page.set_control("a2_weights", "int4")
    assert not page.failure_visible("a2_out_of_memory")
    assert page.has_metric("a2_speedup")
    page.set_control("a2_mha", True)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_batch", 16)
    assert not page.failure_visible("a2_out_of_memory")
    page.lock("a2_reflect", "B")
    assert page.verdict("a2_reflect") == "incorrect"
    page.open_math(2)

    assert "Complete" in page.page.inner_text("[data-hud]")
    (attempt,) = page.attempts("v1_11")
    assert attempt["complete"]
    assert "a2_out_of_memory" in attempt["failures_hit"]


def test_the_key_follows_the_context_locked_in(lab_page):
    """On the Jetson Orin NX 159 tokens reach the FP16 peak: C is right there, D is right on the H100."""
    page = lab_page.open("v1_11")
    page.set_control("context", "edge")
    assert "Jetson Orin NX" in page.page.inner_text('[data-question="a1_predict"]')
    page.lock("a1_predict", lab.ACT1_PREDICTION.answer("edge"))
    assert page.verdict("a1_predict") == "correct"
    assert page.metric("a1_m_star") == 159
    assert page.control_disabled("context")


def test_the_phone_runs_at_half_of_apple_s_figure_and_fails_past_its_memory(lab_page):
    """Review of V1-11: on the A17 Pro the 16-bit peak is assumed at half of Apple's 35 TOP/s (ridge 342,
    411 tokens); the phone's plan of 4 threads fits its 8 GB, 8 do not, and the failure is left again."""
    page = lab_page.open("v1_11")
    page.set_control("context", "mobile")
    page.lock("a1_predict", "D")
    assert page.verdict("a1_predict") == "correct"
    assert page.metric("a1_m_star") == 411
    assert close(page.metric("a1_ridge"), C.A17_PRO_NPU_OPS / 2 / C.A17_PRO_MEM_BW)
    assert "half of Apple's 35 TOP/s" in page.page.inner_text('[data-instruments="1"]')
    page.lock("a1_reflect", "A")
    page.lock("a2_predict", "C")
    assert page.verdict("a2_predict") == "correct"
    page.set_control("a2_batch", 8)
    assert page.failure_visible("a2_out_of_memory")
    page.set_control("a2_batch", 4)
    assert not page.failure_visible("a2_out_of_memory")
