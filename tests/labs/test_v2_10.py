"""V2-10 The KV-Cache Memory Wall: keys proven by the physics (VOL2_03-17.md §V2-10.3/.4),
feedback for every option, failure states reached and left, edges, presets, the ledger record."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol2 import v2_10 as lab
from pylabs.labs.vol2 import v2_10_model as model
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
S = model.S


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- Act I: the key and the spec's golden vectors ------------------------------------------


def test_act1_answer_is_proven_by_the_physics():
    """§V2-10.3 Act I at 32K: ~40 users, option B."""
    assert model.act1_truth() == 40
    assert_key_proven(lab.ACT1_PREDICTION, "B")


def test_act1_instrument_reproduces_the_spec_reveal_at_4k():
    """§V2-10.4: 4,096 tokens -> 1.342 GB per user -> 324 users (paged, a chat that holds 4K)."""
    m = lab.memory(all_open(a1_alloc="paged", a1_used=4096))
    assert m.users == 324 and m.per_user == pytest.approx(1.342e9, abs=0.0005e9) and m.waste == 0


def test_act1_contiguous_ignores_the_tokens_used_and_counts_the_waste():
    short, long = lab.memory(all_open(a1_used=256)), lab.memory(all_open(a1_used=131072))
    assert short.users == long.users == 40
    assert short.waste == pytest.approx(1 - 256 / 32768) and long.waste == 0


def test_act1_multi_head_figure_is_the_option_a_trap():
    """§V2-10.4: with 64 KV heads, 85.9 GB per user -> 5 users; option A's range holds it."""
    m = lab.memory(all_open())
    assert m.users_without_gqa() == 5
    assert lab.ACT1_PREDICTION.option("A").holds(5)


def test_act1_fp8_kv_and_the_8b_model():
    assert lab.memory(all_open(a1_dtype="fp8")).users == 81
    small = lab.memory(all_open(a1_model="8b"))
    assert small.per_user == 131_072 * 32768 and small.users > 40


# ---- Act II: the decision and the spec's golden vectors ------------------------------------


def test_act2_decision_is_proven_by_the_physics():
    """§V2-10.3: answer B; exactly one configuration meets both promises."""
    assert [k for k, c in model.CONFIGS.items() if c.meets()] == ["B"]
    assert lab.ACT2_PREDICTION.answer() == "B"


def test_act2_configurations_match_the_spec_table():
    """§V2-10.3 Act II table and §V2-10.4: 153 ms, 4.33 s, 601 and 8,302 tokens/s."""
    a, b, c, d = (model.CONFIGS[k] for k in "ABCD")
    assert b.ttft == pytest.approx(0.1532, abs=0.00005) and b.ttft < S.ttft_slo_s
    assert a.ttft == pytest.approx(4.333, abs=0.0005)
    assert d.tokens_per_s == pytest.approx(601, abs=0.5) and d.tokens_per_s < S.tput_target
    assert b.tokens_per_s == pytest.approx(8302, abs=0.5)
    assert model.Serving("continuous", 16, 4, 16).tokens_per_s == pytest.approx(2331, abs=0.5)


def test_act2_capacity_checks_catch_the_batchers_that_cannot_keep_up():
    c, d = model.CONFIGS["C"], model.CONFIGS["D"]
    assert c.capacity < S.arrival and c.ttft == math.inf
    assert d.capacity < S.arrival and d.ttft == math.inf
    assert model.CONFIGS["B"].capacity > S.arrival and model.CONFIGS["A"].capacity > S.arrival


# ---- feedback for every option ----------------------------------------------------------


@pytest.mark.parametrize("letter,needles", [
    ("A", ["85.9 GB", "5 would fit", "8×"]), ("B", ["327,680 bytes", "10.7 GB", "435 GB", "40"]),
    ("C", ["324"]), ("D", ["10.7 GB"]),
])
def test_act1_feedback_quotes_the_physics(letter, needles):
    html = rendered(LAB, answered(LAB, {"a1_predict": letter}, through="a1_predict"))
    feedback = html.split('data-feedback="a1_predict"')[1].split("</div>")[0]
    assert all(n in feedback for n in needles), feedback


def test_act1_feedback_follows_the_model_shape(monkeypatch):
    """Option A's head counts and the reflection's parameter count are the model's, not typed."""
    def feedback(qid, letter):
        html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
        return html.split(f'data-feedback="{qid}"')[1].split("</div>")[0]
    assert "each of the 64 query heads" in feedback("a1_predict", "A")
    assert "shares 8 KV heads among its 64 query heads" in feedback("a1_predict", "A")
    assert "the 70.6B parameters" in feedback("a1_reflect", "A")
    monkeypatch.setattr(lab, "SEVENTY", dataclasses.replace(lab.SEVENTY, query_heads=32.0, kv_heads=4.0, params=65e9))
    assert "each of the 32 query heads" in feedback("a1_predict", "A")
    assert "shares 4 KV heads among its 32 query heads" in feedback("a1_predict", "A")
    assert "the 65B parameters" in feedback("a1_reflect", "A")


@pytest.mark.parametrize("letter,needles", [
    ("A", ["4.33 s", "8,302 tokens/s"]), ("B", ["153 ms", "8.92 requests/s"]),
    ("C", ["0.579 requests/s", "∞"]), ("D", ["601 tokens/s", "2.3 requests/s"]),
])
def test_act2_feedback_quotes_the_physics(letter, needles):
    html = rendered(LAB, answered(LAB, {"a2_predict": letter}, through="a2_predict"))
    feedback = html.split('data-feedback="a2_predict"')[1].split("</div>")[0]
    assert all(n in feedback for n in needles), feedback
    assert f'data-verdict="{"correct" if letter == "B" else "incorrect"}"' in html


@pytest.mark.parametrize("qid,letter", [("a1_reflect", "B"), ("a2_reflect", "A")])
def test_reflection_keys(qid, letter):
    assert LAB.question(qid).answer() == letter
    html = rendered(LAB, answered(LAB, {qid: letter}, through=qid))
    assert f'data-feedback="{qid}" data-verdict="correct"' in html


# ---- failure states: reached and left through the instruments ----------------------------


@pytest.mark.parametrize("name,reach,leave", [
    ("a1_no_room", {"a1_gpus": "1"}, {"a1_gpus": "8"}),
    ("a2_ttft_slo", {}, {"a2_lat_mode": "continuous"}),
    ("a2_ttft_slo", {"a2_lat_mode": "continuous", "a2_lat_batch": 4}, {"a2_lat_mode": "continuous", "a2_lat_batch": 16}),
    ("a2_kv_oom", {"a2_tput_batch": 256, "a2_prompt": 8192}, {"a2_tput_batch": 64, "a2_prompt": 8192}),
])
def test_failure_reached_and_left(name, reach, leave):
    assert name in LAB.failures_now(all_open(**reach))
    assert f'data-failure="{name}"' in render_lab(LAB, all_open(**reach))
    assert name not in LAB.failures_now(all_open(**leave))
    assert f'data-failure="{name}"' not in render_lab(LAB, all_open(**leave))


def test_failures_stay_quiet_until_their_act_opens():
    state = answered(LAB, {}, through="a1_reflect", controls={"a1_gpus": "1"})
    assert LAB.failures_now(state) == {"a1_no_room"}


def test_throughput_shortfall_is_a_warning_not_a_failure():
    html = str(render_lab(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=16, a2_tput_batch=4)))
    assert "Bulk tier below target" in html and "data-failure=" not in html


# ---- edges: every instrument at its extremes shows finite, sensible numbers ------------------


EXTREMES = {name: (LAB.control(name).min, LAB.control(name).max) for name in
            ("a1_window", "a1_used", "a2_lat_batch", "a2_arrival", "a2_tput_batch", "a2_prompt")}


@pytest.mark.parametrize("gpus,model,mode", [("1", "70b", "static"), ("8", "8b", "continuous")])
def test_extremes_render_without_nan_or_negative_numbers(gpus, model, mode):
    for values in itertools.product(*EXTREMES.values()):
        controls = dict(zip(EXTREMES, values), a1_gpus=gpus, a1_model=model, a2_lat_mode=mode, a1_alloc="paged")
        state = all_open(**controls)
        html = str(render_lab(LAB, state))
        assert not re.search(r"\bnan\b", html, re.IGNORECASE)
        metrics = [float(v) for v in re.findall(r'data-value="([^"]+)"', html)]
        assert all(v >= 0 and not math.isnan(v) for v in metrics)
        json.dumps(record(LAB, state), allow_nan=False)


# ---- context, presets and the ledger ---------------------------------------------------------


def test_context_preset_moves_the_used_tokens_and_the_prompt():
    state = LAB.parse({"controls": {"context": "docs"}}, changed="context")
    assert state["a1_used"] == S.used_docs and state["a2_prompt"] == S.prompt_docs
    assert lab.memory(state).waste == 0 and lab.serving(state).ttft > S.ttft_slo_s


def test_record_holds_every_spec_ledger_field():
    """§V2-10.3 ledger: model, context_len, kv_per_user_GB, max_users, lat_mode, lat_batch, ttft_p99_ms,
    tput_batch, tokens_per_s, kv_oom, act1_prediction, act1_correct, act2_decision, constraint_hit."""
    rec = record(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=16))
    results, controls, answers = rec["results"], rec["controls"], rec["answers"]
    assert controls["a1_model"] == "70b" and controls["a1_window"] == 32768
    assert controls["a2_lat_mode"] == "continuous"
    assert results["context_len"] == 32768 and results["max_users"] == 40
    assert results["kv_per_user_gb"] == pytest.approx(10.737, abs=0.0005)
    assert results["lat_batch"] == 16 and results["tput_batch"] == 64
    assert results["ttft_p99_ms"] == pytest.approx(153.2, abs=0.05)
    assert results["tokens_per_s"] == pytest.approx(8302, abs=0.5)
    assert results["kv_oom"] == 0 and results["constraint_hit"] == 0
    assert answers["a1_predict"] == {"choice": "B", "locked_at": answers["a1_predict"]["locked_at"], "correct": True}
    assert answers["a2_predict"]["choice"] == "B"


def test_record_keeps_an_unbounded_ttft_as_null():
    rec = record(LAB, all_open(a2_lat_mode="continuous", a2_lat_batch=1))
    assert rec["results"]["ttft_p99_ms"] is None and rec["results"]["constraint_hit"] == 1
    assert "a2_ttft_slo" in rec["failures_active"]
