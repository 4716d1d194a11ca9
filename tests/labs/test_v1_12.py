"""V1-12 The Speedup Ceiling: answer keys proven by the physics (VOL1_09-16 §V1-12), the
golden vectors on the instruments, Gustafson's mode, the rank-inversion failure reached and
left, the context, edges and the ledger record."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from pylabs.framework import fmt
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_12 as lab
from pylabs.labs.vol1 import v1_12_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


def metric(html: str, name: str) -> float:
    return float(html.split(f'data-metric="{name}" data-value="')[1].split('"')[0])


# ---- answer keys (§V1-12 (3) and (4)) ----------------------------------------------------


def test_act1_key_is_c_6_12x_not_64x():
    """§V1-12 (3): key C, "≈6.1×, ≈16.3 h" (upstream's 6.4× / 15.6 h needs s = 0.143, error 1)."""
    assert model.act1_truth() == pytest.approx(6.1244, abs=5e-5)
    assert_key_proven(lab.ACT1_PREDICTION, "C")
    assert model.serial_for(6.4) == pytest.approx(0.143, abs=5e-4)


def test_act2_key_is_b_the_vendors_tie_at_batch_9_4():
    """§V1-12 (3)-(4): crossover b* = 9.418; key B (a small batch)."""
    assert model.act2_truth() == pytest.approx(9.418, abs=5e-4)
    assert_key_proven(lab.ACT2_PREDICTION, "B")


def test_reflection_keys_are_c_and_b():
    """§V1-12 (1): Act I "cut the serial fraction" (C); Act II "production traffic at P99" (B)."""
    assert lab.ACT1_REFLECTION.answer() == "C" and lab.ACT2_REFLECTION.answer() == "B"


def test_gustafson_answer_sits_in_option_b_not_the_key():
    """§V1-12 (2) error 2: 54.55 is a scaled job's speedup; option B holds it, so the confusion is testable."""
    scaled = model.Run(model.S.serial, model.S.workers, 1.0, True).speedup
    assert scaled == pytest.approx(54.55)
    assert lab.ACT1_PREDICTION.option("B").holds(scaled)


# ---- Act I instruments against the golden vectors ----------------------------------------


def test_defaults_show_the_golden_fixed_job():
    """§V1-12 (4): s=0.15, N=64, e=1 → S 6.1244; 16.328 h; E 9.57 %; ceiling 6.667; s' 0.91866."""
    html = rendered(LAB, all_open())
    assert metric(html, "a1_speedup") == pytest.approx(6.1244, abs=5e-5)
    assert metric(html, "a1_wall_s") / 3600 == pytest.approx(16.328, abs=5e-4)
    assert metric(html, "a1_efficiency_out") == pytest.approx(0.0957, abs=5e-5)
    assert metric(html, "a1_ceiling") == pytest.approx(6.6667, abs=5e-5)
    assert metric(html, "a1_run_share") == pytest.approx(0.91866, abs=5e-6)


def test_a_quarter_serial_gives_3_82x():
    """§V1-12 (4): s = 0.25, N = 64 → 3.8209."""
    assert metric(rendered(LAB, all_open(a1_serial=0.25)), "a1_speedup") == pytest.approx(3.8209, abs=5e-5)


def test_scaled_mode_shows_gustafson_54_55x_in_the_same_100_h():
    html = rendered(LAB, all_open(a1_mode="scaled"))
    assert metric(html, "a1_speedup") == pytest.approx(54.55)
    assert metric(html, "a1_wall_s") == lab.S.one_worker_s
    assert "Gustafson's speedup is a different job" in html


def test_efficiency_lowers_the_speedup_but_not_the_ceiling():
    low, full = rendered(LAB, all_open(a1_efficiency=0.7)), rendered(LAB, all_open())
    assert metric(low, "a1_speedup") < metric(full, "a1_speedup")
    assert metric(low, "a1_ceiling") == metric(full, "a1_ceiling")


def test_one_worker_is_exactly_the_one_device_run_at_any_efficiency():
    html = rendered(LAB, all_open(a1_workers=1, a1_efficiency=0.7))
    assert metric(html, "a1_speedup") == 1.0 and metric(html, "a1_wall_s") == lab.S.one_worker_s


def test_efficiency_is_disabled_with_one_worker():
    html = rendered(LAB, all_open(a1_workers=1))
    assert " disabled" in html.split('data-control="a1_efficiency"')[1].split(">")[0]
    assert " disabled" not in rendered(LAB, all_open()).split('data-control="a1_efficiency"')[1].split(">")[0]


def test_energy_is_workers_times_wall_clock_times_rated_power():
    html = rendered(LAB, all_open())
    assert metric(html, "a1_energy") == pytest.approx(64 * 16.328125 * 3600 * C.H100_TDP_W)


def test_reflection_claims_hold_in_the_physics():
    """A: 128 GPUs leave the ceiling; C: halving s is the lever that lifts it."""
    assert model.Run(0.15, 64, 1.0, False).speedup < model.Run(0.15, 128, 1.0, False).speedup < 1 / 0.15
    assert model.Run(0.075, 64, 1.0, False).speedup > 1 / 0.15


# ---- Act II: the rank inversion ------------------------------------------------------------


def test_vendor_rates_match_the_golden_vectors():
    """§V1-12 (4): b=1 A 476.2/s, B 571.4/s; b=32 A 6,153.8/s, B 5,212.7/s (A/B = 85/72)."""
    assert model.throughput("A", 1) == pytest.approx(476.19, abs=5e-3)
    assert model.throughput("B", 1) == pytest.approx(571.43, abs=5e-3)
    assert model.throughput("A", 32) == pytest.approx(6153.85, abs=5e-3)
    assert model.throughput("B", 32) == pytest.approx(5212.67, abs=5e-3)
    assert model.throughput("A", 32) / model.throughput("B", 32) == pytest.approx(85 / 72)


def test_the_default_benchmark_ranks_backwards_and_single_stream_fixes_it():
    """§V1-12 (2) error 6: upstream's failure could never be left; here the scenario leaves it."""
    assert "a2_rank_inverted" in LAB.failures_now(all_open())
    assert 'data-failure="a2_rank_inverted"' in str(render_lab(LAB, all_open()))
    fixed = all_open(a2_scenario="single")
    assert "a2_rank_inverted" not in LAB.failures_now(fixed)
    assert metric(rendered(LAB, fixed), "a2_rank_valid") == 1.0


def test_server_batch_decides_which_side_of_the_crossover():
    assert "a2_rank_inverted" not in LAB.failures_now(all_open(a2_scenario="server", a2_batch_bench=8))
    assert "a2_rank_inverted" in LAB.failures_now(all_open(a2_scenario="server", a2_batch_bench=16))
    # production at a large batch agrees with the Offline benchmark
    assert "a2_rank_inverted" not in LAB.failures_now(all_open(a2_batch_prod=64))


def test_bench_slider_is_disabled_outside_server():
    html = rendered(LAB, all_open())
    slider = html.split('data-control="a2_batch_bench"')[1].split(">")[0]
    assert " disabled" in slider and "Choose Server" in html
    html = rendered(LAB, all_open(a2_scenario="server"))
    assert " disabled" not in html.split('data-control="a2_batch_bench"')[1].split(">")[0]


def test_failure_is_quiet_until_act2_is_predicted():
    assert LAB.failures_now(answered(LAB, {}, through="a1_reflect")) == frozenset()


# ---- edges ----------------------------------------------------------------------------------


@pytest.mark.parametrize("context", ["cloud", "edge"])
def test_extreme_settings_render_finite_numbers(context):
    for serial, workers, eff, mode, scenario, bench, prod in itertools.product(
            (0.0, 0.5), (1, 1024), (0.7, 1.0), ("fixed", "scaled"), ("offline", "server"), (1, 256), (1, 256)):
        state = all_open(context=context, a1_serial=serial, a1_workers=workers, a1_efficiency=eff, a1_mode=mode,
                         a2_scenario=scenario, a2_batch_bench=bench, a2_batch_prod=prod)
        for value in lab.results(state).values():
            assert not isinstance(value, float) or (math.isfinite(value) and value >= 0)
        if bench == prod == 256:
            html = rendered(LAB, state)
            values = [float(v) for v in re.findall(r'data-value="([^"]+)"', html)]
            assert all(v >= 0 for v in values)
            assert all(math.isfinite(v) for v in values) or serial == 0.0  # the ceiling 1/0 is ∞


# ---- context and the ledger record ----------------------------------------------------


def test_context_changes_the_energy_on_screen():
    cloud, edge = rendered(LAB, all_open()), rendered(LAB, all_open(context="edge"))
    assert metric(cloud, "a1_energy") / metric(edge, "a1_energy") == pytest.approx(C.H100_TDP_W / C.ORIN_NX_POWER_MAX_W)
    assert "Jetson Orin NX" in edge


def test_record_holds_the_spec_ledger_fields():
    """§V1-12 ledger: s, N, speedup, efficiency, b_bench, b_prod, crossover_b, rank_valid."""
    rec = record(LAB, all_open())
    res = rec["results"]
    assert {"s", "n", "speedup", "efficiency", "b_bench", "b_prod", "crossover_b", "rank_valid"} <= set(res)
    assert res["s"] == 0.15 and res["n"] == 64 and res["speedup"] == pytest.approx(6.1244, abs=5e-5)
    assert res["b_bench"] == 32 and res["b_prod"] == 1 and res["rank_valid"] is False
    assert res["crossover_b"] == pytest.approx(9.418, abs=5e-4)
    assert rec["failures_active"] == ["a2_rank_inverted"] and rec["complete"] is True
    assert all(k == k.lower() for k in res)


def test_nothing_answers_act2_in_act1s_instruments():
    html = rendered(LAB, answered(LAB, {}, through="a1_reflect"))
    assert "9.42" not in html


# ---- text follows its source -------------------------------------------------------------


def test_worker_count_in_the_text_follows_the_scenario(relabelled):
    """The context help and the reflection's "double the cluster" are computed from S.workers."""
    before = rendered(LAB, all_open())
    assert "the 64 workers are" in before and "Double the cluster to 128 GPUs." in before
    changed = relabelled(workers=32.0)
    after = rendered(changed.LAB, answered(changed.LAB, {}, through="a2_reflect"))
    assert "the 32 workers are" in after and "Double the cluster to 64 GPUs." in after
    assert "the 64 workers" not in after and "128 GPUs" not in after


def test_feedback_quotes_the_batches_and_efficiency_it_computes_at(monkeypatch):
    facts = lab.act2_facts()
    assert (facts["small"], facts["small_words"], facts["halfway"]) == ("2", "two", "16")
    monkeypatch.setattr(lab, "SMALL_BATCH", 4.0)
    monkeypatch.setattr(lab, "E_LOW", 0.8)
    facts, one = lab.act2_facts(), lab.act1_facts()
    assert (facts["small"], facts["small_words"]) == ("4", "four")
    assert facts["ratio_small"] == fmt(model.ratio_b_over_a(4.0), "x")
    assert one["e_low"] == "80 %" and one["e_low_speedup"] == fmt(model.Run(0.15, 64, 0.8, False).speedup, "x")
