"""V1-01 The Magnitude Awakening: keys proven by the physics (VOL1_00-08 §V1-01), feedback,
gating, the failure state, context presets and the ledger record."""

from __future__ import annotations

import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_01 as lab
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def text_of(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


# ---- answer keys (§V1-01 (1), (3), (4)) ------------------------------------------------------


def test_act1_key_is_c_from_the_int8_ratio():
    """§V1-01 (4): H100 INT8 / M7 INT8 = 1.0307e6, so 10⁶ (C)."""
    assert lab.act1_truth() == pytest.approx(1.0307e6, rel=1e-4)
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_fp32_against_fp32_would_have_been_b():
    """§V1-01 (2b) error 5: FP32 vs FP32 is 6.969e4, which is why the question fixes the precision."""
    fp32 = lab.peak_ratio("fp32")
    assert fp32 == pytest.approx(6.969e4, rel=1e-4)
    assert lab.ACT1_PREDICTION.option("B").holds(fp32)


def test_act2_key_is_b_memory_by_1_84():
    """§V1-01 (3)-(4): 15.284 us against 8.288 us, ratio 1.844, memory-bound. The spec rounds ResNet-50
    to 25.6 M parameters; the lab uses torchvision's exact 25,557,032, 0.17 % less memory time."""
    law = lab.SCENARIO_RUN.law
    assert law.memory_s == pytest.approx(15.284e-6, rel=2e-3)
    assert law.compute_s == pytest.approx(8.288e-6, rel=1e-4)
    assert lab.act2_truth() == pytest.approx(1.844, rel=2e-3)
    assert_key_proven(lab.ACT2_PREDICTION, "B")
    assert lab.SCENARIO_RUN.crossover == pytest.approx(1.844, rel=2e-3)


def test_fp32_weights_with_tf32_on_the_instrument():
    """§V1-01 (4): FP32 weights + TF32, 30.567 / 16.576 us."""
    law = lab.Run("cloud", "fp32", "resnet50", 1, 0.0).law
    assert (law.memory_s, law.compute_s) == (pytest.approx(30.567e-6, rel=2e-3), pytest.approx(16.576e-6, rel=1e-4))


def test_the_m7_is_compute_bound_and_does_not_fit():
    """§V1-01 (2b) error 4 and (4): 25.6 MB > 2.097 MB flash; compute would be 4.27 s > memory."""
    r = lab.M7_RESNET
    assert not r.fits and r.law.bound == "compute"
    assert r.weights / C.STM32H743_FLASH_BYTES == pytest.approx(12.2, rel=3e-3)
    assert r.law.compute_s == pytest.approx(4.27, rel=2e-3)
    assert lab.M7_KWS.fits and lab.M7_KWS.law.total_s == pytest.approx(2.83e-3, rel=1e-2)


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "B"


# ---- the recurring errors of §0.2 do not survive ---------------------------------------------


@pytest.mark.parametrize("context", ["cloud", "tiny"])
def test_no_recurring_error_is_on_the_finished_page(context):
    state = answered(LAB, {}, through="a2_reflect", controls={"context": context, "a2_overhead": 10e-6})
    page = text_of(rendered(LAB, state) + " ".join(LAB.takeaways()))
    for wrong in ("HBM3e", "4 ns", "7,500", "2,000,000", "1,979 T", "nine orders", "100 TOPS"):
        assert wrong not in page, wrong
    assert "multiply-adds" in page  # ResNet-50's "4 GFLOPs" are named for what they are
    assert "8.2 GFLOP" in page or "8.2 GFLOP" in lab.act2_facts()["flop"]


def test_act2_compute_term_is_microseconds_not_nanoseconds():
    """§V1-01 (2b) error 1: the MathPeek's '~4 ns' and '7,500×' were wrong by 1,000×."""
    assert lab.act2_facts()["t_comp"] == "8.29 µs" and lab.act2_facts()["t_mem"] == "15.3 µs"


# ---- instruments, context and gating ----------------------------------------------------------


def test_nothing_unlocks_before_the_first_prediction():
    html = rendered(LAB, LAB.default_state())
    assert 'data-metric="a1_compute_ratio"' not in html and 'data-metric="a2_memory_s"' not in html


def test_context_changes_the_instruments():
    cloud = rendered(LAB, answered(LAB, {}, through="a1_predict", controls={"context": "cloud"}))
    tiny = rendered(LAB, answered(LAB, {}, through="a1_predict", controls={"context": "tiny"}))
    def peak(html):
        return float(re.search(r'data-metric="a1_your_peak" data-value="([^"]+)"', html).group(1))
    assert peak(cloud) == C.H100_PEAK_INT8_DENSE and peak(tiny) == C.STM32H743_PEAK_INT8


def test_context_preset_sets_the_act2_device_and_precision():
    state = LAB.parse({"controls": {"context": "tiny"}}, changed="context")
    assert state["a2_device"] == "tiny" and state["a2_precision"] == "int8"
    state = LAB.parse({"controls": {"context": "cloud", "a2_device": "tiny"}}, changed="context")
    assert state["a2_device"] == "cloud" and state["a2_precision"] == "bf16"


def test_every_act1_control_moves_a_card():
    base = lab.gap("int8", "onchip", C.MCU_ACTIVE_POWER_W)
    assert lab.gap("fp32", "onchip", C.MCU_ACTIVE_POWER_W).compute < base.compute
    assert lab.gap("int8", "qspi", C.MCU_ACTIVE_POWER_W).bandwidth == pytest.approx(67_000)
    assert lab.gap("int8", "onchip", 0.3).power == pytest.approx(700 / 0.3)


def test_overhead_adds_to_the_total_and_a_callout_names_it():
    html = rendered(LAB, all_open(a2_overhead=10e-6))
    assert "The third term" in html
    law = lab.run(LAB.parse({"controls": {"a2_overhead": 10e-6}})).law
    assert law.total_s == pytest.approx(15.284e-6 + 8.288e-6 + 10e-6, rel=2e-3)


@pytest.mark.parametrize("controls", [
    {"a2_device": "cloud", "a2_precision": "fp32", "a2_batch": 64, "a2_overhead": 2e-3},
    {"a2_device": "tiny", "a2_precision": "bf16", "a2_model": "dscnn", "a2_batch": 1, "a2_overhead": 0},
    {"a2_device": "tiny", "a2_precision": "int8", "a2_model": "resnet50", "a2_batch": 64},
    {"a1_precision": "fp32", "a1_mcu_memory": "qspi", "a1_mcu_power": 0.02},
    {"a1_mcu_power": 0.5},
])
def test_edge_settings_render_finite_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = re.findall(r'data-value="([^"]*)"', html)
    assert values and all(v not in ("nan", "inf", "-inf", "") for v in values)
    assert all(float(v) >= 0 for v in values)


# ---- failure state --------------------------------------------------------------------------------


def test_oom_is_reached_on_the_m7_and_left_by_the_keyword_spotter_or_the_h100():
    assert "a2_does_not_fit" in LAB.failures_now(all_open(a2_device="tiny", a2_precision="int8"))
    assert "a2_does_not_fit" not in LAB.failures_now(all_open(a2_device="tiny", a2_model="dscnn"))
    assert "a2_does_not_fit" not in LAB.failures_now(all_open(a2_device="cloud"))
    assert 'data-failure="a2_does_not_fit"' in render_lab(LAB, all_open(a2_device="tiny"))
    assert 'data-failure="a2_does_not_fit"' not in render_lab(LAB, all_open(a2_device="cloud"))


def test_failure_stays_quiet_before_act2_is_predicted():
    state = answered(LAB, {}, through="a1_reflect", controls={"a2_device": "tiny"})
    assert "a2_does_not_fit" not in LAB.failures_now(state)


# ---- ledger ---------------------------------------------------------------------------------------


def test_record_holds_the_spec_fields():
    rec = record(LAB, all_open(a2_device="tiny", a2_precision="int8"))
    assert rec["complete"] is True and rec["context"] == "cloud"
    assert rec["results"]["compute_ratio"] == pytest.approx(lab.act1_truth())
    assert rec["results"]["bound"] == "compute" and rec["results"]["oom"] is True
    assert {"a1_predict", "a2_predict"} <= set(rec["answers"])
    assert set(rec["results"]) == {m.name for m in LAB.record_metrics}


