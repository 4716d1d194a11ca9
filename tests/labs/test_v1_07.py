"""V1-07 The Kernel Fusion Dividend: keys proven by the corrected model (VOL1_00-08 §V1-07), the
spec's golden vectors through the lab, failures reached and left, presets, the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_07 as lab
from pylabs.labs.vol1 import v1_07_model as model
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
RIGHT = {"a1_predict": "B", "a1_reflect": "C", "a2_predict": "C", "a2_reflect": "B"}


def all_open(**controls):
    return answered(LAB, RIGHT, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    start = html.index(f'data-metric="{name}"')
    value = html[start:].split('data-value="')[1].split('"')[0]
    return float(value)


# ---- answer keys ---------------------------------------------------------------------


def test_act1_key_is_b_half_busy_with_asynchronous_launches():
    """§V1-07 (2b) #1-2: upstream keyed 33 % (C) and its model gave 7.7 %; asynchronous launches give 50 %."""
    assert model.act1_truth() == pytest.approx(0.5)
    assert_key_proven(lab.ACT1_PREDICTION, "B")
    assert model.stream("kws", model.S.cloud_cpu_s, "sync", False).busy == pytest.approx(1 / 3)
    assert lab.ACT1_PREDICTION.option("A").holds(1 / 3)  # the synchronous misconception has its own option


def test_act2_key_is_c_breakeven_133607_images():
    """§V1-07 (4): t_c 30 s, 1,450 → 2,150 images/s: N* = 133,607."""
    assert model.act2_truth() == pytest.approx(133_607, abs=1)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_reflection_keys():
    assert lab.ACT1_REFLECTION.answer() == "C"
    assert lab.ACT2_REFLECTION.answer() == "B"
    facts = lab.act1_facts()
    assert facts["fast_time"] == "10 ms" and facts["fast_busy"] == "25 %"
    f2 = lab.act2_facts()
    assert f2["speedup"] == "3×" and f2["t_un"] == "30 µs" and f2["t_f"] == "10 µs"
    assert f2["g_un"] == "4.63 µs" and f2["g_f"] == "1.54 µs"


# ---- the spec's golden vectors through the lab ------------------------------------------


@pytest.mark.parametrize("controls,time_s,busy", [
    ({}, 10e-3, 0.5),                                                   # async
    ({"a1_mode": "sync"}, 15e-3, 1 / 3),                                # sync
    ({"a1_fast": True}, 10e-3, 0.25),                                   # GPU 2× faster
    ({"context": "edge", "a1_cpu_s": 50e-6}, 50e-3, 0.10),              # edge dispatch
    ({"a1_mode": "fused"}, 5e-3, 1.0),                                  # f = 0.5
])
def test_act1_golden_vectors_on_the_page(controls, time_s, busy):
    """§V1-07 (4) rows 1-4."""
    html = rendered(LAB, all_open(**controls))
    assert metric(html, "a1_time_s") == pytest.approx(time_s)
    assert metric(html, "a1_busy") == pytest.approx(busy)


def test_graph_mode_overrides_the_dispatch_slider_and_says_so():
    html = rendered(LAB, all_open(a1_mode="graphs", a1_cpu_s=50e-6))
    assert metric(html, "a1_time_s") == pytest.approx(1000 * 5e-6)  # 1 µs per kernel < 5 µs of work
    start = html.index('data-control="a1_cpu_s"')
    assert " disabled" in html[html.rindex("<div", 0, start):start + 400]
    assert "Not used with a CUDA graph" in html


def test_fusion_panel_golden_vector_on_the_a100():
    """§V1-07 (4): 3 ops, S = 1,572,864 B at 2.039 TB/s; 10 µs dispatch: 30 → 10 µs (3.0×)."""
    html = rendered(LAB, all_open())
    assert model.TENSOR_BYTES == 1_572_864
    assert metric(html, "a2_unfused_s") == pytest.approx(30e-6)
    assert metric(html, "a2_fused_s") == pytest.approx(10e-6)
    assert metric(html, "a2_fusion_speedup") == pytest.approx(3.0)
    assert metric(html, "a2_bytes_saved") == pytest.approx(4 * 1_572_864)


@pytest.mark.parametrize("ops", [1, 3, 8])
@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_fusion_speedup_is_the_chain_length_on_either_device(ops, context):
    html = rendered(LAB, all_open(context=context, a2_ops=ops))
    assert metric(html, "a2_fusion_speedup") == pytest.approx(ops)


def test_compile_golden_vectors_on_the_page():
    """§V1-07 (4): 4 replicas → 534,429; edge 150 → 222: 13,875 (5.78 days at 2,400/day); 120 s → 55,500."""
    html = rendered(LAB, all_open(a2_compiles=4))
    assert metric(html, "a2_breakeven") == pytest.approx(534_429, abs=1)
    edge = LAB.parse({"answers": {k: vars(v) for k, v in all_open().answers.items()},
                      "controls": {"context": "edge"}}, changed="context")
    html = rendered(LAB, edge)
    assert metric(html, "a2_breakeven") == pytest.approx(13_875, abs=0.5)
    assert metric(html, "a2_breakeven_time_s") / 86400 == pytest.approx(5.78, abs=0.005)
    html = rendered(LAB, all_open(context="edge", a2_eager=150, a2_compiled=222, a2_compile_s=120))
    assert metric(html, "a2_breakeven") == pytest.approx(55_500, abs=1)


def test_cloud_breakeven_is_reached_in_minutes():
    """§V1-07 (4): 19.2 min at 10 M requests a day."""
    assert model.CLOUD.breakeven_s / 60 == pytest.approx(19.2, abs=0.05)


# ---- failure states ------------------------------------------------------------------


def test_launch_bound_is_reached_and_left():
    assert "a1_launch_bound" in LAB.failures_now(all_open(a1_mode="sync"))
    assert "a1_launch_bound" in LAB.failures_now(all_open(a1_cpu_s=50e-6))
    assert "a1_launch_bound" not in LAB.failures_now(all_open())
    assert "a1_launch_bound" not in LAB.failures_now(all_open(a1_cpu_s=50e-6, a1_mode="graphs"))
    html = rendered(LAB, all_open(a1_mode="sync"))
    assert 'data-failure="a1_launch_bound"' in html and "waits for its kernel" in html


def test_no_payback_is_reached_on_the_edge_and_left_with_a_longer_deployment():
    """§V1-07 (4): 13,875 images at 2,400 a day: a one-day deployment fails; a week passes."""
    edge = LAB.parse({"answers": {k: vars(v) for k, v in all_open().answers.items()},
                      "controls": {"context": "edge"}}, changed="context")
    assert "a2_no_payback" in LAB.failures_now(edge)
    week = LAB.parse({"answers": {k: vars(v) for k, v in edge.answers.items()},
                      "controls": {**edge.controls, "a2_duration_s": 7 * 86400}})
    assert "a2_no_payback" not in LAB.failures_now(week)
    assert "a2_no_payback" not in LAB.failures_now(all_open())
    assert "a2_no_payback" in LAB.failures_now(all_open(a2_compiles=64, a2_compile_s=300, a2_duration_s=3600))


def test_a_compiled_model_no_faster_never_pays_back():
    state = all_open(a2_eager=2000, a2_compiled=1500)
    assert "a2_no_payback" in LAB.failures_now(state)
    html = rendered(LAB, state)
    assert math.isinf(metric(html, "a2_breakeven")) and math.isinf(metric(html, "a2_breakeven_time_s"))
    assert "no volume of traffic" in html
    assert record(LAB, state)["results"]["breakeven"] is None  # infinity is stored as null


# ---- edges of every instrument -----------------------------------------------------------


@pytest.mark.parametrize("context", ["cloud", "edge"])
@pytest.mark.parametrize("extreme", ["min", "max"])
def test_every_instrument_at_its_extremes_shows_finite_sensible_numbers(context, extreme):
    controls = {"context": context}
    for control in LAB.controls:
        if hasattr(control, "max") and control.name != "context":
            controls[control.name] = getattr(control, extreme)
    html = rendered(LAB, all_open(**controls))
    assert not re.search(r"\bnan\b", html, re.I)
    for name in ("a1_busy", "a1_time_s", "a1_idle_s", "a2_fusion_speedup", "a2_unfused_s", "a2_volume"):
        value = metric(html, name)
        assert math.isfinite(value) and value >= 0, (name, value)
    assert 0 < metric(html, "a1_busy") <= 1


# ---- context, presets, ledger ----------------------------------------------------------------


def test_the_context_sets_dispatch_and_throughputs():
    edge = LAB.parse({"controls": {"context": "edge"}}, changed="context")
    assert edge["a1_cpu_s"] == pytest.approx(50e-6)
    assert (edge["a2_eager"], edge["a2_compiled"]) == (150, 222)
    cloud = LAB.parse({"controls": {"context": "cloud", "a1_cpu_s": 30e-6}}, changed="context")
    assert cloud["a1_cpu_s"] == pytest.approx(10e-6) and cloud["a2_eager"] == 1450


def test_opening_in_the_edge_track_brings_the_edge_defaults():
    defaults = LAB.earlier_defaults({"v1_00": {"controls": {"track": "edge"}, "results": {}, "complete": True}})
    assert defaults["context"] == "edge" and defaults["a1_cpu_s"] == pytest.approx(50e-6)
    assert LAB.earlier_defaults({"v1_00": {"controls": {"track": "tiny"}, "results": {}, "complete": True}}) == {}


def test_the_cloud_is_labelled_a100_and_the_edge_assumptions_are_labelled():
    html = rendered(LAB, LAB.default_state())
    assert "Cloud (NVIDIA A100)" in html and "Cloud (NVIDIA H100)" not in html
    assert "assumption" in html and "assumed" in html


def test_record_holds_the_spec_ledger_fields():
    """§V1-07 (3): {context, model, mode, util, fusion_speedup, breakeven, roi_positive}."""
    rec = record(LAB, all_open(a1_mode="sync"))
    assert rec["complete"] is True
    assert {"context", "a1_model", "a1_mode"} <= set(rec["controls"])
    assert rec["results"]["util"] == pytest.approx(1 / 3)
    assert rec["results"]["fusion_speedup"] == pytest.approx(3.0)
    assert rec["results"]["breakeven"] == pytest.approx(133_607, abs=1)
    assert rec["results"]["roi_positive"] is True
    assert "a1_launch_bound" in rec["failures_active"]
    assert {m.name for m in LAB.record_metrics} == set(rec["results"])


def test_no_answer_is_on_the_page_before_its_lock():
    html = rendered(LAB, LAB.default_state())
    assert "50 %" not in html and "133,607" not in html
    act1_done = rendered(LAB, answered(LAB, RIGHT, through="a1_reflect"))
    assert "133,607" not in act1_done


def test_feedback_quotes_the_physics():
    html = rendered(LAB, answered(LAB, {"a1_predict": "A"}, through="a1_predict"))
    feedback = html.split('data-feedback="a1_predict"')[1].split("</div>")[0]
    assert "50 %" in feedback and "incorrect" in html.split('data-feedback="a1_predict"')[1][:40]
    html = rendered(LAB, answered(LAB, {"a2_reflect": "D"}, through="a2_reflect"))
    feedback = html.split('data-feedback="a2_reflect"')[1].split("</div>")[0]
    assert "3×" in feedback and "30 µs" in feedback


# ---- the text follows its source (nothing typed) ---------------------------------------------------


def test_the_ratio_words_follow_the_scenario(relabelled):
    assert lab.A1_FAST.label == "A GPU 2× as fast (every kernel takes half of the time)"
    assert lab.MODES["fused"] == "Fused: half of the kernels merged into the others"
    assert lab.A2_OPS.help.startswith("LayerNorm → Dropout → ReLU is three;")
    new = relabelled(fast_gpu=3.0, fused_fraction=0.25, chain_ops=4)
    assert new.A1_FAST.label == "A GPU 3× as fast (every kernel takes a third of the time)"
    assert new.MODES["fused"] == "Fused: a quarter of the kernels merged into the others"
    assert new.A2_OPS.help.startswith("LayerNorm → Dropout → ReLU is four;")
    claims = {c.letter: c.text for c in new.ACT1_REFLECTION.options}
    assert claims["A"].startswith("It takes a third of the time") and "busy share shrinks 3×" in claims["C"]
    html = rendered(new.LAB, answered(new.LAB, {"a1_reflect": "A"}, through="a1_reflect"))
    assert "The GPU's work shrinks 3×" in html
