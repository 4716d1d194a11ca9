"""V1-02 The Iron Law: answer keys proven by the physics (exactly one option each), the spec's
golden vectors through the lab, contexts, gating, failure states, edges and the ledger record."""

from __future__ import annotations

import dataclasses
import math

import pytest

from pylabs.framework.render import record
from pylabs.labs.vol1 import v1_02 as lab
from pylabs.labs.vol1 import v1_02_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
MS = 1e-3


def all_open(context: str = "cloud", **controls):
    return answered(LAB, {}, through="a2_reflect", controls={"context": context, **controls})


# ---- answer keys -------------------------------------------------------------------------


def test_act1_key_is_b_and_only_b():
    """§V1-02 (3)/(4): speedup 1.6175 at D 2 GB, AI 5, L 0.05 ms; one option holds it (upstream keyed two)."""
    assert model.act1_truth() == pytest.approx(1.6175, abs=5e-5)
    assert_key_proven(lab.ACT1_PREDICTION, "B")
    holding = [o.letter for o in lab.ACT1_PREDICTION.options if o.holds(model.act1_truth())]
    assert holding == ["B"]


def test_act1_upstream_keys_are_both_wrong():
    """§V1-02 (2b) #2: neither "10-15 %" nor "no effect" holds the physics' gain (38.2 % lower latency)."""
    cut = model.SCENARIO_UPGRADE.cut
    assert cut == pytest.approx(0.3818, abs=5e-5)
    assert not 0.10 <= cut <= 0.15 and cut > 0


def test_act1_compute_ratio_is_dense_3_17_and_ridges_are_dense():
    u = model.SCENARIO_UPGRADE
    assert u.compute_ratio == pytest.approx(3.171, abs=5e-4)
    assert (u.old.ridge, u.new.ridge) == (pytest.approx(153.02, abs=0.005), pytest.approx(295.34, abs=0.005))


def test_act2_key_is_c_and_only_c():
    """§V1-02 (4): RTT 29.380 ms at 3,000 km; with the H100's inference the frame takes 29.45 ms."""
    assert model.SCENARIO_SERVICE.rtt_s / MS == pytest.approx(29.380, abs=5e-4)
    assert model.act2_truth() / MS == pytest.approx(29.454, abs=5e-3)
    assert_key_proven(lab.ACT2_PREDICTION, "C")


def test_act2_key_holds_with_the_routed_fibre_of_the_spec():
    """§V1-02 (4): k = 1.5 gives 44.07 ms, still in C; the key does not hang on a rounding."""
    routed = model.service("cloud", 3_000e3, 1.5, 1)
    assert routed.rtt_s / MS == pytest.approx(44.070, abs=5e-4)
    assert lab.ACT2_PREDICTION.option("C").holds(routed.total_s)


# ---- the model -------------------------------------------------------------------------


def test_upgrade_terms_match_the_golden_vector():
    u = model.SCENARIO_UPGRADE
    assert (u.after.memory_s / MS, u.after.compute_s / MS) == (pytest.approx(0.5970, abs=5e-5),
                                                               pytest.approx(0.01011, abs=5e-6))
    assert (u.before.memory_s / MS, u.before.compute_s / MS) == (pytest.approx(0.9809, abs=5e-5),
                                                                 pytest.approx(0.03205, abs=5e-6))
    assert u.after.memory_share == pytest.approx(0.9085, abs=5e-5)


def test_the_8_percent_anecdote_needs_4_06_ms_of_overhead():
    assert lab.act1_facts()["anecdote_overhead"] == "4.06 ms"
    u = model.upgrade("cloud", 2e9, 5, 4.06 * MS)
    assert u.cut == pytest.approx(0.080, abs=5e-4)


def test_edge_context_compares_the_orin_dense_paths_not_100_tops():
    u = model.upgrade("edge", 2e9, 5, 0.05 * MS)
    assert u.old.peak_ops == C.ORIN_NX_PEAK_FP16_DENSE and u.new.peak_ops == C.ORIN_NX_PEAK_INT8_DENSE
    assert u.compute_ratio == pytest.approx(2.0, rel=1e-3) and u.bandwidth_ratio == 1.0
    assert u.speedup < 1.02  # twice the compute, the same memory: almost nothing
    assert u.new.ridge == pytest.approx(294, abs=0.5)
    html = rendered(LAB, all_open("edge"))
    assert "100 TOP/s, INT8 with 2:4 sparsity" in html and "Orin NX FP16" in html and "A100 → H100 upgrade gives" in html


def test_intensity_rises_with_batch_because_weights_are_read_once():
    """§V1-02 (2b) #6: weights once per batch; activations assumed on chip (a lower bound)."""
    assert model.perception_intensity(1) == pytest.approx(8.2e9 / (2 * 25_557_032), rel=1e-9)
    assert model.perception_intensity(64) == pytest.approx(64 * model.perception_intensity(1), rel=1e-9)


def test_in_vehicle_orin_meets_the_budget_and_ignores_distance():
    edge = model.service("edge", 5_000e3, 2.0, 1)
    assert edge.rtt_s == 0 and edge.total_s < model.S.sla_s
    html = rendered(LAB, all_open("edge"))
    start = html.index('data-control="a2_distance"')
    assert " disabled" in html[html.rindex("<input", 0, start):start + 200]
    assert "no network hop" in html


def test_max_distance_matches_the_golden_vector():
    """§V1-02 (4): SLA 10 ms, t_inf 2 ms → 816.9 km."""
    assert model.ironlaw.max_distance_m(10 * MS, 2 * MS) / 1e3 == pytest.approx(816.9, abs=0.05)


# ---- failure states -------------------------------------------------------------------------


def test_upgrade_wasted_is_reached_with_overhead_and_left_without():
    assert "a1_upgrade_wasted" not in LAB.failures_now(all_open())
    assert "a1_upgrade_wasted" in LAB.failures_now(all_open(a1_overhead=5e-3))
    assert "a1_upgrade_wasted" in LAB.failures_now(all_open("edge"))
    assert "a1_upgrade_wasted" not in LAB.failures_now(all_open("edge", a1_intensity=1000))


def test_sla_failure_says_no_gpu_can_fix_the_round_trip():
    html = rendered(LAB, all_open())
    assert 'data-failure="a2_sla_violated"' in html and "No GPU can fix this" in html
    assert "a2_sla_violated" not in LAB.failures_now(all_open(a2_distance=500e3))


def test_sla_failure_in_the_vehicle_comes_from_batching():
    assert "a2_sla_violated" not in LAB.failures_now(all_open("edge"))
    late = all_open("edge", a2_batch=64)
    assert "a2_sla_violated" in LAB.failures_now(late)
    assert "No GPU can fix this" not in rendered(LAB, late)


def test_failures_wait_for_their_acts():
    state = answered(LAB, {}, through="a1_predict", controls={"a1_overhead": 5e-3})
    assert LAB.failures_now(state) == {"a1_upgrade_wasted"}


# ---- edges of every instrument ----------------------------------------------------------


EXTREMES = [
    {"a1_bytes": 0.1e9, "a1_intensity": 1, "a1_overhead": 0},
    {"a1_bytes": 20e9, "a1_intensity": 1000, "a1_overhead": 5e-3},
    {"a2_distance": 0, "a2_route": 1, "a2_batch": 1, "a2_sla": 5e-3},
    {"a2_distance": 5_000e3, "a2_route": 2, "a2_batch": 64, "a2_sla": 50e-3},
]


@pytest.mark.parametrize("context", ["cloud", "edge"])
@pytest.mark.parametrize("controls", EXTREMES)
def test_extremes_render_finite_numbers(context, controls):
    state = all_open(context, **controls)
    html = rendered(LAB, state)
    assert "nan" not in html.lower().replace("nano", "") and "∞" not in html
    values = [float(v) for v in __import__("re").findall(r'data-value="([^"]+)"', html)]
    assert values and all(math.isfinite(v) and v >= 0 for v in values)
    assert all(isinstance(v, (float, str, bool)) for v in record(LAB, state)["results"].values())


def test_compute_bound_at_high_intensity():
    u = model.upgrade("cloud", 2e9, 1000, 0)
    assert u.after.bound == "compute" and u.speedup == pytest.approx(u.compute_ratio, rel=0.25)


# ---- contexts, ledger ----------------------------------------------------------------------


def test_record_holds_the_spec_ledger_fields():
    rec = record(LAB, all_open())
    assert rec["context"] == "cloud" and rec["complete"] is True
    assert set(rec["answers"]) == {"a1_predict", "a1_reflect", "a2_predict", "a2_reflect"}
    assert rec["results"] == {"speedup": pytest.approx(1.6175, abs=5e-5), "bound": "memory",
                              "distance_km": 3000.0, "sla_violated": True}
    assert all(name == name.lower() for name in rec["results"])


def test_no_upstream_error_survives_on_the_page():
    """§0.2: no sparse 1,979 as a peak, no HBM3e, no 590 ridge, no '6×' compute, no 100 MB ResNet, no
    'one-way' 30 ms; the advertised figures appear only as what they are."""
    import re
    html = rendered(LAB, all_open())
    text = re.sub(r"<[^>]+>", " ", re.sub(r"<script.*?</script>", " ", html, flags=re.S))
    for wrong in ("HBM3e", "590 FLOP/B", "6× compute", "6× the", "100 MB", "one-way", "one way", "12 ms"):
        assert wrong not in text
    assert "with 2:4 sparsity" in text


# ---- text follows its source -------------------------------------------------------------


def test_the_weight_bytes_in_act2s_math_follow_the_scenario(monkeypatch):
    """D = 2P_w and the table's "2P_w" are S.bytes_per_weight, the width the row's value is computed with."""
    before = rendered(LAB, all_open())
    assert "D = 2P_w" in before and "ResNet-50 weights, <em>2P_w</em>" in before
    monkeypatch.setattr(lab, "S", dataclasses.replace(lab.S, bytes_per_weight=1.0))
    after = rendered(LAB, all_open())
    assert "D = 1P_w" in after and "ResNet-50 weights, <em>1P_w</em>" in after and "2P_w" not in after
