"""V1-05 The Activation Tax: answer keys proven by the physics (VOL1_00-08 §V1-05), the
memory-bound reveal, the Memory Ledger, failure states, context and the ledger record."""

from __future__ import annotations

import itertools
import math

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_05 as lab
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys (§V1-05 (3) reworded predictions, (4) golden vectors) -----------------


def test_act1_key_is_c_sigmoid_needs_14x_relus_arithmetic():
    """§V1-05 (3): options ~1×, ~3×, ~15× (C), ~500×; the model gives 14×."""
    assert lab.act1_truth() == 14
    assert_key_proven(lab.ACT1_PREDICTION, "C")


def test_act2_key_is_c_the_map_is_98x_the_buffer():
    """§V1-05 (3): options ~1×, ~10×, ~100× (C), ~1,000×; answer 98×."""
    assert lab.act2_truth() == pytest.approx(98.0)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_reflection_keys_are_b():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "B"


def test_upstream_reveal_47x_23pct_is_not_what_the_model_gives():
    """§V1-05 (2b) error 1: the corrected model shows equal time, not 47× or 23 %."""
    state = all_open()
    html = rendered(LAB, state)
    assert "47×" not in html and "23 %" not in html


# ---- the Act I reveal: memory-bound, independent of the function ---------------------------


def test_on_the_npu_every_function_takes_31_36_us_per_layer():
    """§V1-05 (4): 56×56×256 INT8 on 35 T / 51.2 GB/s → 31.36 µs for ReLU and sigmoid alike."""
    state = all_open()
    times = {f: lab.act_layer(state, f).time_s for f in lab.NAMES}
    assert times["relu"] == pytest.approx(31.36e-6, rel=1e-4)
    assert len(set(times.values())) == 1
    assert 4 * times["sigmoid"] / lab.FRAME_S == pytest.approx(0.001505, rel=1e-3)


def test_on_the_h100_activations_are_memory_bound_too():
    state = answered(LAB, {}, "a2_reflect", {"context": "cloud", "a1_precision": "fp16"})
    times = {f: lab.act_layer(state, f).time_s for f in lab.NAMES}
    assert len(set(times.values())) == 1
    assert times["relu"] == pytest.approx(56 * 56 * 256 * 4 / C.H100_HBM_BW)


def test_the_swap_cannot_reach_the_target_frame_rate():
    for context, activation in itertools.product(("cloud", "mobile"), lab.NAMES):
        state = answered(LAB, {}, "a2_reflect", {"context": context, "a1_activation": activation})
        saved = 4 * (lab.act_layer(state, activation).time_s - lab.act_layer(state, "relu").time_s)
        assert lab.fps_with(lab.FRAME_S, saved) < lab.S.fps_target


def test_fusion_removes_the_traffic_and_the_arithmetic_ratio_shows():
    state = all_open(a1_fused=True)
    sig, relu = lab.act_layer(state, "sigmoid"), lab.act_layer(state, "relu")
    assert sig.memory_s == 0 and sig.time_s / relu.time_s == pytest.approx(14)
    assert sig.time_s < lab.act_layer(all_open(), "sigmoid").time_s


def test_compute_bound_is_reachable_only_at_the_extremes():
    """INT8 on the H100's CUDA cores: GELU at 30 operations per exponential passes the 40-op crossover."""
    state = all_open(context="cloud", a1_precision="int8", a1_activation="gelu", a1_exp_ops=30)
    layer = lab.act_layer(state, "gelu")
    assert layer.compute_s > layer.memory_s
    assert "compute-bound" in rendered(LAB, state)


def test_crossover_metric_matches_the_spec():
    """§V1-05 (2b) error 3: INT8 on 35 TOPS / 51.2 GB/s is compute-bound only above ~1,370 ops/element."""
    html = rendered(LAB, all_open())
    assert 'data-metric="a1_crossover_ops" data-value="1367.1875"' in html


# ---- Act II: the Memory Ledger ---------------------------------------------------------


def test_ledger_at_the_defaults_matches_the_spec():
    """§V1-05 (4): b 8, 224, C0 64, FP32: Σ 202.31 MB; peak pair 154.14 MB; all five layers spill."""
    led = lab.ledger(all_open())
    assert led.peak / 1e6 == pytest.approx(202.31, abs=0.005)
    assert lab.ledger(all_open(a2_mode="inference")).peak / 1e6 == pytest.approx(154.14, abs=0.005)
    assert sum(led.spilled) == 5 and not led.oom


def test_the_l2_of_an_h100_holds_the_smaller_layers():
    led = lab.ledger(all_open(context="cloud", a2_buffer="h100_l2"))
    assert led.spilled == [True, True, False, False, False]


def test_the_prediction_map_can_be_set_on_the_instruments():
    """Batch 1 and 256 first channels put the prediction's 224×224×256 FP32 map on the largest-map card."""
    html = rendered(LAB, all_open(a2_batch=1, a2_channels=256))
    assert 'data-metric="a2_buffer_ratio" data-value="98.0"' in html


def test_oom_is_reached_and_left_on_the_phone():
    """§V1-05 (4): b 128, 512, C0 64, FP32, 8 GB → training 16.91 GB and inference 12.88 GB: OOM."""
    big = dict(a2_batch=128, a2_image=512, a2_channels=64)
    for mode, peak in (("training", 16.91e9), ("inference", 12.88e9)):
        state = all_open(a2_mode=mode, **big)
        assert lab.ledger(state).peak == pytest.approx(peak, rel=5e-4)
        assert "a2_out_of_memory" in LAB.failures_now(state)
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_mode="inference", a2_batch=32, a2_image=512))
    assert "a2_out_of_memory" not in LAB.failures_now(all_open(a2_mode="training", **big, context="cloud"))


def test_oom_callout_renders_only_while_active():
    assert 'data-failure="a2_out_of_memory"' in render_lab(LAB, all_open(a2_batch=128, a2_image=512))
    assert 'data-failure="a2_out_of_memory"' not in render_lab(LAB, all_open())


def test_facts_quote_the_int8_ratio_and_batch_growth():
    facts = lab.act2_facts()
    assert facts["int8_ratio"] == "24.5×" and facts["fp16_ratio"] == "49×"
    assert facts["train_8"] == "202 MB" and facts["train_64"] == "1.62 GB"


# ---- edges: every control at its extremes gives finite, sensible numbers -------------------


@pytest.mark.parametrize("context", ["cloud", "mobile"])
def test_extreme_settings_render_finite_numbers(context):
    import re
    for a1 in itertools.product(("relu", "gelu"), ("int8", "fp32"), (7, 448), (4, 30), (False, True)):
        for a2 in itertools.product((28, 512), (1, 512), (1, 128), ("int8", "fp32"), ("inference", "training"),
                                    ("kib128", "h100_l2")):
            controls = dict(zip(("a1_activation", "a1_precision", "a1_side", "a1_exp_ops", "a1_fused"), a1))
            controls.update(zip(("a2_image", "a2_channels", "a2_batch", "a2_precision", "a2_mode", "a2_buffer"), a2))
            state = all_open(context=context, **controls)
            for value in lab.results(state).values():
                assert not isinstance(value, float) or (math.isfinite(value) and value >= 0)
            if a2[1:3] == (512, 128) and a1[2:4] == (448, 30):  # render the largest corner
                html = rendered(LAB, state)
                values = [float(v) for v in re.findall(r'data-value="([^"]+)"', html)]
                assert all(math.isfinite(v) and v >= 0 for v in values)


# ---- context and the ledger record ------------------------------------------------------


def test_context_preset_sets_the_precision():
    state = LAB.parse({"controls": {"context": "cloud", "a1_precision": "int8"}}, changed="context")
    assert state["a1_precision"] == "fp16"
    state = LAB.parse({"controls": {"context": "mobile", "a1_precision": "fp32"}}, changed="context")
    assert state["a1_precision"] == "int8"


def test_context_follows_the_v1_00_track():
    earlier = {"v1_00": {"controls": {"track": "cloud"}, "results": {}, "complete": True}}
    assert LAB.context_defaults(earlier) == {"context": "cloud"}
    assert LAB.context_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}


def test_context_changes_the_instruments():
    mobile, cloud = rendered(LAB, all_open()), rendered(LAB, all_open(context="cloud"))
    grab = lambda html: html.split('data-metric="a1_layer_s" data-value="')[1].split('"')[0]
    assert grab(mobile) != grab(cloud)


def test_record_holds_the_spec_ledger_fields():
    """§V1-05 ledger: context, activations[4], fused, act_ratio, batch, bytes, mode, spilled_layers, oom."""
    rec = record(LAB, all_open(a2_batch=128, a2_image=512))
    assert rec["context"] == "mobile" and rec["complete"] is True
    results = rec["results"]
    assert results["activations"].split(",") == ["sigmoid"] * 4
    assert results["act_ratio"] == 14 and results["act_time_ratio"] == 1
    assert results["fused"] is False and results["batch"] == 128 and results["bytes"] == 4
    assert results["mode"] == "training" and results["spilled_layers"] == 5 and results["oom"] is True
    assert all(k == k.lower() for k in results)
    assert rec["answers"]["a1_predict"]["correct"] is True


def test_nothing_answers_act2_in_act1s_instruments():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "98×" not in html
