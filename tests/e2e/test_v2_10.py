"""V2-10 in a real browser: the student walkthrough in each context, every failure state reached and
left, and a reload that comes back to Act II's instruments."""

from __future__ import annotations

import pytest

from pylabs.labs.vol2 import v2_10 as lab
from pylabs.labs.vol2 import v2_10_model as model
from tests.e2e.driver import close

pytestmark = pytest.mark.e2e


def test_full_walkthrough(lab_page):
    page = lab_page.open("v2_10")
    assert page.control_disabled("a1_window")
    assert not page.act_unlocked(2)
    assert not page.has_metric("a1_users")

    # Act I: predict, unlock, and watch the numbers follow the instruments.
    page.lock("a1_predict", "B")
    assert page.verdict("a1_predict") == "incorrect"
    assert page.metric("a1_users") == lab.act1_truth() == 40
    assert page.control_disabled("a1_used")  # contiguous: what a chat holds does not count
    page.chart_drawn("a1_users")
    page.set_control("a1_alloc", "paged")
    assert not page.control_disabled("a1_used")
    assert page.metric("a1_users") == 324  # §V2-10.4: the 4K reveal
    page.set_control("a1_window", 65536)
    assert page.metric("a1_users") == 324  # paging: the window no longer matters
    page.set_control("a1_alloc", "contiguous")
    assert page.metric("a1_users") == 20
    page.set_control("a1_model", "8b")
    assert page.metric("a1_kv_token") == 131_072
    page.set_control("a1_model", "70b")
    page.set_control("a1_gpus", "1")
    assert page.failure_visible("a1_no_room")
    page.set_control("a1_gpus", "8")
    assert not page.failure_visible("a1_no_room")
    page.lock("a1_reflect", "D")
    assert page.verdict("a1_reflect") == "correct"
    page.open_math(1)

    # Act II: the default is a static chat batcher, which breaks the promise.
    assert page.act_unlocked(2)
    page.lock("a2_predict", "A")
    assert page.verdict("a2_predict") == "correct"
    assert page.failure_visible("a2_ttft_slo")
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 32)
    assert not page.failure_visible("a2_ttft_slo")
    plan = model.plans("chat")["A"]
    assert close(page.metric("a2_ttft"), plan.ttft)
    assert close(page.metric("a2_tput"), plan.tokens_per_s)  # 3,782 tokens/s, prefills included
    page.set_control("a2_tput_batch", 256)
    assert close(page.metric("a2_tput"), model.S.output * plan.completes(256))
    page.chart_drawn("a2_ttft")
    page.lock("a2_reflect", "B")

    hud = page.page.inner_text("[data-hud]")
    assert "Complete" in hud
    (attempt,) = page.attempts("v2_10")
    assert attempt["complete"] and attempt["answers"]["a1_predict"]["correct"] is False
    assert attempt["results"]["max_users"] == 20 and attempt["results"]["lat_batch"] == 32
    assert {"a1_no_room", "a2_ttft_slo"} <= set(attempt["failures_hit"])


def test_document_context_locks_none_as_the_key(lab_page):
    """Document Q&A: 4,096-token prompts, no plan keeps a 200 ms P99; the page says so, not "153 ms"."""
    page = lab_page.open("v2_10")
    page.set_control("context", "docs")
    for qid in ("a1_predict", "a1_reflect"):
        page.lock(qid, lab.LAB.question(qid).answer("docs"))
    assert page.page.get_attribute('[data-control="a2_prompt"]', "value") == "12"  # log2(4096)
    page.lock("a2_predict", "D")
    assert page.verdict("a2_predict") == "correct"
    feedback = page.page.inner_text('[data-feedback="a2_predict"]')
    assert "1.73 s" in feedback and "153 ms" not in feedback
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 32)
    assert page.failure_visible("a2_ttft_slo")
    assert close(page.metric("a2_ttft"), model.plans("docs")["A"].ttft)
    page.set_control("a2_prompt", 1024)
    assert not page.failure_visible("a2_ttft_slo")


def test_act2_failures_reach_and_leave(lab_page):
    page = lab_page.open("v2_10")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "D"), ("a2_predict", "B")):
        page.lock(qid, letter)
    page.set_control("a2_lat_mode", "continuous")
    page.set_control("a2_lat_batch", 1)
    assert page.failure_visible("a2_ttft_slo")  # one slot cannot keep up with the arrivals
    assert page.page.get_attribute('[data-metric="a2_ttft"]', "data-value") == "Infinity"
    page.set_control("a2_lat_batch", 32)
    assert not page.failure_visible("a2_ttft_slo")
    page.set_control("a2_lat_batch", 16)
    assert page.failure_visible("a2_ttft_slo")  # 16 slots, each held for a reply: requests wait for one
    assert page.metric("a2_ttft") > 0.2
    page.set_control("a2_lat_batch", 32)
    assert not page.failure_visible("a2_ttft_slo")
    page.set_control("a2_prompt", 8192)
    page.set_control("a2_tput_batch", 256)
    assert page.failure_visible("a2_kv_oom")
    page.set_control("a2_tput_batch", 32)
    assert not page.failure_visible("a2_kv_oom")
    (attempt,) = page.attempts("v2_10")
    assert {"a2_ttft_slo", "a2_kv_oom"} <= set(attempt["failures_hit"])


def test_a_reload_returns_to_act_ii_instruments(lab_page):
    """Issue 20: a reload moved the page from Act II's instruments (4,350 px) to 2,165 px."""
    page = lab_page.open("v2_10")
    for qid, letter in (("a1_predict", "C"), ("a1_reflect", "D"), ("a2_predict", "A")):
        page.lock(qid, letter)
    p = page.page
    before = page.place('[data-instruments="2"]')
    assert before > 2000
    page.reload()
    p.wait_for_timeout(800)  # charts and math settle
    assert abs(p.evaluate("() => window.scrollY") - before) <= 200
