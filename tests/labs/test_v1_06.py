"""V1-06 The Quadratic Wall: answer keys proven by the physics (VOL1 §V1-06), the corrected
depth-vs-width model, failures reached and left, the context, and the ledger record."""

from __future__ import annotations

import math
import re

import pytest

from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_06 as lab
from pylabs.physics.devices import H100, ORIN_NX
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


# ---- answer keys -------------------------------------------------------------------


def test_act1_key_is_b_four_times():
    """§V1-06 (3): doubling 4,096 -> 8,192 multiplies the score memory by exactly 4 (key B)."""
    assert lab.act1_truth() == pytest.approx(4.0, rel=1e-12)
    assert_key_proven(lab.ACT1_PREDICTION, "B")


def test_act2_key_is_b_and_the_corrected_model_supports_it():
    """§V1-06 (2b) item 1: upstream gave deep and wide the same time. The corrected model
    (§V1-06 (4): Orin 20 µs 12.80 vs 2.433 ms) makes the wide model 5.26× faster: key B."""
    deep = lab.token(ORIN_NX, 64, 100e6, 20e-6).total_s
    wide = lab.token(ORIN_NX, 4, 100e6, 20e-6).total_s
    assert deep == pytest.approx(12.80e-3, rel=5e-4) and wide == pytest.approx(2.433e-3, rel=5e-4)
    assert lab.act2_truth() == pytest.approx(deep / wide, rel=1e-12)
    assert lab.act2_truth() == pytest.approx(5.261, abs=5e-3)
    assert_key_proven(lab.ACT2_PREDICTION, "B")


def test_wide_is_faster_on_both_devices_at_every_launch_cost():
    """The reflection's claim: depth costs time on the H100 too, with or without CUDA graphs."""
    for dev in (H100, ORIN_NX):
        for launch in (lab.S.launch_graph_s, lab.S.launch_cloud_s, lab.S.launch_edge_s):
            assert lab.depth_ratio(dev, 64, 100e6, launch) > 1.0
    assert lab.depth_ratio(H100, 64, 100e6, 5e-6) == pytest.approx(16.0, rel=1e-3)   # 3.20 / 0.200 ms


def test_gpt2_xl_is_the_real_config():
    """§V1-06 (2b) item 2: d 1,600, 25 heads, 48 layers, 1,557,611,200 parameters."""
    assert (lab.LAYERS, lab.WIDTH, lab.HEADS) == (48, 1600, 25)
    assert lab.XL_PARAMS == 1_557_611_200


def test_the_h100_uses_its_dense_peak():
    """§V1-06 (2b) item 3: 989.4 dense, not the sparse 1,979."""
    assert H100.peak_ops == pytest.approx(989.4e12)
    assert "989 TFLOP/s" in rendered(LAB, all_open(a2_device="cloud"))
    assert "1,979 TFLOP/s" not in rendered(LAB, all_open(a2_device="cloud"))


def test_reflection_facts_match_the_golden_vectors():
    """§V1-06 (3) reveal: 100K naive 534 GB, flash 33.8 GB, KV 30.7 GB."""
    facts = lab.act1_facts()
    assert facts == {"naive_target": "534 GB", "flash_target": "33.8 GB", "kv_target": "30.7 GB",
                     "target": "100,000 tokens"}


# ---- failure states -------------------------------------------------------------------


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def test_prompt_oom_is_reached_and_left():
    assert "a1_attn_oom" not in LAB.failures_now(all_open(context="cloud", a1_seq=32768))
    assert "a1_attn_oom" in LAB.failures_now(all_open(context="cloud", a1_seq=65536))
    assert "a1_attn_oom" not in LAB.failures_now(all_open(context="cloud", a1_seq=65536, a1_flash=True))
    assert "a1_attn_oom" in LAB.failures_now(all_open(context="edge", a1_seq=16384))
    assert "a1_attn_oom" in LAB.failures_now(all_open(context="edge", a1_seq=65536, a1_flash=True))


def test_sla_failure_at_the_deep_default_and_gone_when_wide():
    assert "a2_sla_fail" in LAB.failures_now(all_open())
    assert "a2_sla_fail" not in LAB.failures_now(all_open(a2_layers=4))
    assert "a2_sla_fail" not in LAB.failures_now(all_open(a2_graph=True))


def test_weights_oom_on_the_orin_only():
    assert "a2_oom" in LAB.failures_now(all_open(a2_params=10e9))
    assert "a2_oom" not in LAB.failures_now(all_open(a2_params=10e9, a2_device="cloud"))
    assert "a2_oom" not in LAB.failures_now(all_open())


def test_failure_callouts_render_only_while_active():
    assert 'data-failure="a2_sla_fail"' in render_lab(LAB, all_open())
    assert 'data-failure="a2_sla_fail"' not in render_lab(LAB, all_open(a2_layers=4))


# ---- context, presets, overrides ---------------------------------------------------------


def test_context_changes_the_act1_instruments():
    cloud = rendered(LAB, all_open(context="cloud"))
    edge = rendered(LAB, all_open(context="edge"))
    assert "250,276 tokens" in cloud and "13,272 tokens" in rendered(LAB, all_open(context="edge"))
    assert "of 80 GB" in cloud and "of 16 GB" in edge


def test_device_choice_moves_the_launch_cost():
    state = LAB.parse({"controls": {"a2_device": "cloud"}}, changed="a2_device")
    assert state["a2_launch"] == pytest.approx(5e-6)
    state = LAB.parse({"controls": {"a2_device": "edge", "a2_launch": 9e-6}}, changed="a2_launch")
    assert state["a2_launch"] == pytest.approx(9e-6)


def _control(html, name):
    start = html.index(f'data-control="{name}"')
    return html[html.rindex("<div", 0, start):html.index("</div>", start)]


def test_launch_slider_is_disabled_with_a_reason_under_a_cuda_graph():
    html = _control(rendered(LAB, all_open(a2_graph=True)), "a2_launch")
    assert " disabled" in html and "CUDA graph" in html
    assert " disabled" not in _control(rendered(LAB, all_open()), "a2_launch")


# ---- edges and the record -------------------------------------------------------------


@pytest.mark.parametrize("controls", [
    {"a1_seq": 512, "a2_layers": 2, "a2_params": 10e6, "a2_launch": 1e-6},
    {"a1_seq": 131072, "a1_flash": True, "a2_layers": 100, "a2_params": 10e9, "a2_launch": 50e-6},
    {"a1_seq": 131072, "a2_layers": 2, "a2_params": 10e9, "a2_device": "cloud", "a2_graph": True},
    {"context": "edge", "a1_seq": 512, "a2_layers": 100, "a2_params": 10e6},
])
def test_extremes_give_finite_sensible_numbers(controls):
    html = rendered(LAB, all_open(**controls))
    values = [float(v.split('"')[0]) for v in html.split('data-value="')[1:]]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert "∞" not in html and not re.search(r"\bnan\b", html, re.IGNORECASE)
    rec = record(LAB, all_open(**controls))
    for key in ("max_ctx", "width", "t_token_ms"):
        assert rec["results"][key] is not None and rec["results"][key] >= 0


def test_record_has_the_spec_ledger_fields():
    rec = record(LAB, all_open())
    assert set(rec["results"]) == {"context", "seq_len", "flash", "attn_oom", "max_ctx", "depth", "width",
                                   "t_token_ms", "sla_fail"}
    assert rec["results"]["t_token_ms"] == pytest.approx(12.80, rel=5e-4)
    assert rec["results"]["sla_fail"] is True and rec["results"]["attn_oom"] is False
    assert rec["results"]["max_ctx"] == pytest.approx(36261.6, abs=0.5)
    assert rec["complete"] is True


def test_nothing_reveals_a_key_before_its_lock():
    html = rendered(LAB, LAB.default_state())
    assert "4×" not in html
    before_act2 = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert lab.fmt(lab.act2_truth(), "x") not in before_act2
