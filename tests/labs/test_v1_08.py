"""V1-08 The Training Memory Budget: keys proven by the physics, the spec's golden rows, feedback,
failure states reached and left, the phone context and the ledger record."""

from __future__ import annotations

import dataclasses
import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_08 as lab
from pylabs.labs.vol1 import v1_08_model as model
from pylabs.labs.vol1.contexts import BY_CONTEXT, device
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys (VOL1_00-08 §V1-08 (3) "Keys") ------------------------------------------


def test_act1_key_is_112_gb_of_static_state():
    """§V1-08: 7B in FP32 with Adam is 16 B/param = 112 GB; the key D holds."""
    assert model.act1_truth() == pytest.approx(112e9, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, "D")


def test_act1_reflection_fact_mixed_precision_is_also_112_gb():
    facts = lab.act1_facts()
    assert facts["mixed_gb"] == "112 GB" and facts["mixed_bpp"] == "16" and facts["pure_gb"] == "56 GB"
    assert lab.ACT1_REFLECTION.answer() == "B"


def test_act2_key_is_slightly_slower():
    """§V1-08 (4): ratio 0.9772 on the H100 (upstream displayed 0.51 against its own key)."""
    assert model.act2_truth() == pytest.approx(0.9772, abs=5e-5)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_act2_key_holds_on_the_phone_too():
    """A mobile-track student's instruments start at GPT-2, micro-batch 4 × 64: the same option."""
    assert model.PHONE.memory.fits
    assert lab.ACT2_PREDICTION.option("C").holds(model.PHONE.ratio)
    assert model.PHONE.ratio < model.act2_truth()  # the phone's bandwidth is small beside its compute


def test_act2_native_batch_is_far_over_the_h100():
    """ERRATA (24 heads): 256 sequences at once need 1,231.98 GB; micro-batches of 8 need 58.65 GB."""
    assert model.SCENARIO.native.total / 1e9 == pytest.approx(1231.98, abs=0.005)
    assert model.SCENARIO.memory.total / 1e9 == pytest.approx(58.65, abs=0.005)
    assert model.SCENARIO.memory.fits and not model.SCENARIO.native.fits


def test_act2_reflection_facts_are_the_errata_rows():
    facts = lab.act2_facts()
    assert facts["full_gb"] == "39.9 GB"   # ERRATA: b 64, full checkpointing, 39.86 GB
    assert facts["full_factor"] == "1.33×"
    assert lab.ACT2_REFLECTION.answer() == "B"


# ---- the spec's golden rows through the lab's own budget ---------------------------------


@pytest.mark.parametrize("batch, mode, gb", [(8, "none", 58.65), (16, "none", 96.50), (32, "selective", 75.56),
                                             (64, "full", 39.86)])
def test_gpt3_xl_rows_through_the_act2_instruments(batch, mode, gb):
    state = all_open(a2_batch=batch, a2_mode=mode)
    assert lab.accumulation(state).memory.total / 1e9 == pytest.approx(gb, abs=0.005)


def test_llama_shape_activations_in_mixed_precision():
    """§V1-08 (4): 79.46 GB of activations at s 1,024, b 8 (upstream: 1.95 GB)."""
    state = all_open(a1_precision="mixed")
    assert lab.act1_budget(state).activations / 1e9 == pytest.approx(79.46, abs=0.005)


def test_fp32_activations_are_larger_than_bf16():
    fp32, mixed = lab.act1_budget(all_open()), lab.act1_budget(all_open(a1_precision="mixed"))
    assert fp32.static == mixed.static and fp32.activations > 1.8 * mixed.activations


# ---- failure states ---------------------------------------------------------------------


def test_act1_oom_is_reached_at_the_scenario_and_left_with_a_smaller_model():
    assert "a1_out_of_memory" in LAB.failures_now(all_open())
    assert "a1_out_of_memory" not in LAB.failures_now(all_open(a1_model="gpt3xl", a1_precision="mixed"))


def test_act2_oom_is_reached_by_a_bigger_micro_batch_and_left_with_checkpointing():
    assert "a2_out_of_memory" not in LAB.failures_now(all_open())
    assert "a2_out_of_memory" in LAB.failures_now(all_open(a2_batch=16))
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_batch=64, a2_mode="full"))


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a2_out_of_memory"' in render_lab(LAB, all_open(a2_batch=16))
    assert 'data-failure="a2_out_of_memory"' not in render_lab(LAB, all_open())


# ---- the context ------------------------------------------------------------------------


def test_phone_context_moves_the_act2_instruments_to_what_fits():
    state = LAB.parse({"controls": {"context": "mobile"}}, changed="context")
    assert (state["a2_model"], state["a2_batch"], state["a2_accum"]) == ("gpt2", 4, 64)
    assert lab.accumulation(state).dev is device("mobile")
    back = LAB.parse({"controls": {**state.controls, "context": "cloud"}}, changed="context")
    assert (back["a2_model"], back["a2_batch"], back["a2_accum"]) == ("gpt3xl", 8, 32)


def test_phone_shows_its_assumed_figures():
    html = rendered(LAB, answered(LAB, {}, "a2_reflect", {"context": "mobile", "a2_model": "gpt2",
                                                          "a2_batch": 4, "a2_accum": 64}))
    assert "Assumed device figures" in html and "8 GB" in html
    assert "Assumed device figures" not in rendered(LAB, all_open())


def test_a_new_attempt_opens_in_the_v1_00_track():
    earlier = {"v1_00": {"controls": {"track": "mobile"}, "results": {}, "complete": True}}
    assert LAB.context_defaults(earlier) == {"context": "mobile"}
    assert LAB.context_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}


# ---- edges ------------------------------------------------------------------------------


@pytest.mark.parametrize("controls", [
    {"a1_batch": 1, "a1_seq": 512, "a1_precision": "bf16", "a1_optimizer": "sgd", "a1_model": "gpt2"},
    {"a1_batch": 512, "a1_seq": 8192},
    {"a2_batch": 1, "a2_accum": 1, "a2_seq": 512, "a2_mfu": 0.1, "a2_model": "gpt2"},
    {"a2_batch": 512, "a2_accum": 64, "a2_seq": 8192, "a2_mfu": 0.8, "a2_mode": "full", "a2_model": "7b"},
    {"context": "mobile", "a2_batch": 512, "a2_accum": 64, "a2_seq": 8192},
])
def test_edge_settings_give_finite_sensible_numbers(controls):
    state = all_open(**controls)
    a, b = lab.accumulation(state), lab.act1_budget(state)
    assert 0 < a.ratio <= 1 and b.total > 0 and a.memory.total > 0
    values = re.findall(r'data-value="([^"]*)"', rendered(LAB, state))
    assert values and all(math.isfinite(float(v)) and float(v) >= 0 for v in values)


def test_one_micro_batch_costs_nothing_but_recomputation():
    assert lab.accumulation(all_open(a2_accum=1)).ratio == 1.0
    assert lab.accumulation(all_open(a2_accum=1, a2_mode="full")).ratio == pytest.approx(0.75)


# ---- nothing given away, and the ledger --------------------------------------------------


def test_stakeholders_do_not_state_the_answers():
    page = rendered(LAB, LAB.default_state())
    assert "112 GB" not in page and "16 bytes" not in page
    before_act2 = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "97.7" not in before_act2


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open(a2_batch=16))
    assert rec["complete"] is True and rec["context"] == "cloud"
    assert {"a1_model", "a1_precision", "a1_optimizer", "a2_batch", "a2_accum", "a2_mode"} <= set(rec["controls"])
    res = rec["results"]
    assert res["params"] == 7e9 and res["bytes_per_param"] == 16 and res["static_bytes"] == pytest.approx(112e9)
    assert res["oom"] is True and res["a2_oom"] is True
    assert res["a2_ratio"] == pytest.approx(lab.accumulation(all_open(a2_batch=16)).ratio)
    assert set(rec["failures_active"]) == {"a1_out_of_memory", "a2_out_of_memory"}
    assert all(name == name.lower() for name in res)


def test_step_time_and_ratio_agree():
    """The step time on screen is the ratio's denominator: native time ÷ step time = ratio."""
    a = lab.accumulation(all_open(a2_mode="full"))
    native = a.steps * a.micro_step_s
    assert native / a.step_s == pytest.approx(a.ratio, rel=1e-12)
    assert lab.accumulation(all_open(a2_mfu=0.8)).step_s < lab.accumulation(all_open()).step_s


# ---- text follows its source -------------------------------------------------------------


def test_memories_and_the_wanted_micro_batch_in_the_text_follow_their_sources(relabelled, monkeypatch):
    """The context help reads each device's memory; the reflection's micro-batch is S.act2_big_batch."""
    before = rendered(LAB, answered(LAB, {"a2_reflect": "A"}, through="a2_reflect"))
    assert "an H100 with 80 GB, or a phone fine-tuning on device with 8 GB" in before
    assert "micro-batches of 64 on the H100" in before and "64 sequences need" in before
    monkeypatch.setitem(BY_CONTEXT, "cloud", dataclasses.replace(BY_CONTEXT["cloud"], mem_bytes=94e9))
    monkeypatch.setitem(BY_CONTEXT, "mobile", dataclasses.replace(BY_CONTEXT["mobile"], mem_bytes=12e9))
    changed = relabelled(act2_big_batch=32.0)
    after = rendered(changed.LAB, answered(changed.LAB, {"a2_reflect": "A"}, through="a2_reflect"))
    assert "an H100 with 94 GB, or a phone fine-tuning on device with 12 GB" in after
    assert "micro-batches of 32 on the H100" in after and "32 sequences need" in after
    assert "Nothing: 32 sequences of GPT-3 XL" in after and "at 32 sequences" in after
    assert "of 64" not in after and "64 sequences" not in after


def test_bytes_per_parameter_in_the_text_are_the_physics(monkeypatch):
    """The 2 + 2 + 4 + 8 sum and SGD's saving are read from training.static_bytes_per_param."""
    facts = lab.act1_facts()
    assert [facts[k] for k in ("weights", "grads", "master", "adam", "mixed_bpp")] == ["2", "2", "4", "8", "16"]
    assert lab.act2_facts()["sgd_saves"] == "8"
    monkeypatch.setattr(lab, "ADAM_MIXED", dataclasses.replace(lab.ADAM_MIXED, optimizer_b=4.0))
    assert lab.act1_facts()["adam"] == "4" and lab.act2_facts()["sgd_saves"] == "4"
