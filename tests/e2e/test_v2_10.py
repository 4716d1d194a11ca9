"""V2-10 in a real browser: the student walkthrough and every failure state reached and left."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_10 as lab
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_10")
    assert page.control_disabled("a1_window")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_users")

    # The context toggle moves the instruments (tokens a conversation holds).
    page.set_control("context", "docs")
    assert page.page.get_attribute('[data-control="a1_used"]', "value") == "15"  # log2(32768)
    page.set_control("context", "chat")

    # Act I: predict, unlock, and watch the numbers follow the instruments.
    page.lock("a1_predict", "C")
    assert page.verdict("a1_predict") == "incorrect"
    assert page.metric("a1_users") == lab.act1_truth()
    page.chart_drawn("a1_users")
    page.set_control("a1_alloc", "paged")
    assert page.metric("a1_users") == 324  # §V2-10.4: the 4K reveal
    page.set_control("a1_window", 65536)
    assert page.metric("a1_users") == 324  # paging: the window no longer matters
    page.set_control("a1_alloc", "contiguous")
    assert page.metric("a1_users") == 20
    page.set_control("a1_gpus", "1")
    assert page.failure_visible("a1_no_room")
    page.set_control("a1_gpus", "8")
    assert not page.failure_visible("a1_no_room")
    page.lock("a1_reflect", "B")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the proposal (static batches of 64) breaks the chat promise.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "B")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_ttft_slo")
    assert close(page.metric("a2_ttft"), lab.CONFIGS["A"].ttft)
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 16)
    assert not page.failure_visible("a2_ttft_slo")
    assert close(page.metric("a2_ttft"), lab.CONFIGS["B"].ttft)
    assert close(page.metric("a2_tput"), lab.CONFIGS["B"].tokens_per_s)
    page.chart_drawn("a2_ttft")
    page.lock("a2_reflect", "A")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_10")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["results"]["max_users"] == 20 and attempt["results"]["lat_batch"] == 16
    assert {"a1_no_room", "a2_ttft_slo"} <= set(attempt["failures_hit"])


def test_act2_failures_reach_and_leave(lab_page):
    page = lab_page.open("v2_10")
    for qid, letter in (("a1_predict", "B"), ("a1_reflect", "B"), ("a2_predict", "A")):
        page.lock(qid, letter)
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 1)
    assert page.failure_visible("a2_ttft_slo")  # one slot cannot keep up with the arrivals
    assert page.page.get_attribute('[data-metric="a2_ttft"]', "data-value") == "Infinity"
    page.set_control("a2_lat_batch", 16)
    assert not page.failure_visible("a2_ttft_slo")
    page.set_control("a2_prompt", 8192)
    page.set_control("a2_tput_batch", 256)
    assert page.failure_visible("a2_kv_oom")
    page.set_control("a2_tput_batch", 32)
    assert not page.failure_visible("a2_kv_oom")
    (attempt,) = page.attempts("v2_10")
    assert {"a2_ttft_slo", "a2_kv_oom"} <= set(attempt["failures_hit"])
