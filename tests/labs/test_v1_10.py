"""V1-10 The Compression Frontier: answer keys proven by the physics (VOL1_09-16 §V1-10), the
corrected sizes, latency and tier footprints, failure states reached and left, the context and
the ledger record."""

from __future__ import annotations

import itertools
import math
import re

import pytest

from pylabs.framework.formats import fmt
from pylabs.framework.render import record, render_lab
from pylabs.labs.vol1 import v1_10 as lab
from pylabs.labs.vol1 import v1_10_model as model
from pylabs.physics import constants as C
from tests.labs.helpers import answered, assert_key_proven, rendered

LAB = lab.LAB
GB = 1e9


def all_open(**controls):
    return answered(LAB, {}, through="a2_reflect", controls=controls)


# ---- answer keys (§V1-10 (3)) --------------------------------------------------------------


def test_act1_key_is_b_resnet50_per_channel_int8_loses_0_2_pp():
    """§V1-10 (3): R50 INT8 PTQ per-channel 0.2 pp; contiguous bands, B = (0, 0.5] is correct."""
    assert model.act1_truth() == pytest.approx(0.002)
    assert_key_proven(lab.ACT1_PREDICTION, "B")


def test_act1_bands_are_contiguous_and_cover_the_spec_bands():
    """§V1-10 (2) error 1: the upstream bands left gaps; these meet and cover every value."""
    ordered = sorted(lab.ACT1_PREDICTION.options, key=lambda o: -math.inf if o.low is None else o.low)
    assert [o.letter for o in ordered] == ["A", "B", "C", "D"]
    assert ordered[1].high == 0.005 and ordered[2].high == 0.02


def test_act2_key_is_c_int4_3bit_and_a_1b_model():
    """§V1-10 (3): key 'flagship INT4, mid-range 3-bit, budget tier a 1B-class model at INT4'."""
    assert model.act2_answer() == "C"
    assert lab.ACT2_PREDICTION.answer() == "C"


@pytest.mark.parametrize("letter, fits", [("A", [False, False, False]), ("B", [False, False, False]),
                                          ("C", [True, True, True]), ("D", [True, False, False])])
def test_every_design_is_checked_against_every_tier(letter, fits):
    """§V1-10 (2) error 6: the upstream key B is out of memory on all three tiers."""
    assert model.design_fits(model.DESIGNS[letter]) == fits


def test_reflection_keys_are_b():
    assert lab.ACT1_REFLECTION.answer() == "B" and lab.ACT2_REFLECTION.answer() == "B"


def test_feedback_quotes_the_corrected_footprints():
    facts = lab.act2_facts()
    assert facts["int8"] == "8.6 GB" and facts["int4"] == "4.71 GB" and facts["int3"] == "3.71 GB"
    assert facts["one_b"] == "1 GB" and facts["three_b"] == "2.19 GB"


# ---- Act I: sizes and time ------------------------------------------------------------------


def test_resnet50_sizes_match_the_golden_vectors():
    """§V1-10 (4): FP32 102.228 MB, INT8 25.557 MB (> the 25 MB target: the warning shows)."""
    cfg = lab.config(all_open())
    assert cfg.size == pytest.approx(25.557e6, abs=1e3)
    assert "a1_over_budget" in LAB.failures_now(all_open())
    html = rendered(LAB, all_open())
    assert 'data-metric="a1_shrink" data-value="4.0"' in html


def test_int4_buys_no_time_when_the_model_is_compute_bound():
    """On the phone at batch 1, ResNet-50 INT8 is compute-bound: INT4 halves bytes but not time."""
    int8, int4 = lab.config(all_open()), lab.config(all_open(a1_format="int4"))
    assert not int8.memory_bound
    assert int4.latency_s() == int8.latency_s()
    assert int4.size == int8.size / 2


def test_mobilenetv2_is_memory_bound_on_the_phone_so_int4_helps():
    int8 = lab.config(all_open(a1_model="mobilenetv2"))
    int4 = lab.config(all_open(a1_model="mobilenetv2", a1_format="int4"))
    assert int8.memory_bound and int4.latency_s() < int8.latency_s()


def test_cloud_int8_is_the_dense_rate_not_the_sparse_one():
    """§V1-10 (2) error 9: 1,978.9 dense, not 3,958; no INT4 tensor rate on Hopper."""
    assert model.peak_ops("cloud", "int8") == C.H100_PEAK_INT8_DENSE == 1978.9e12
    assert model.peak_ops("cloud", "int4") == model.peak_ops("cloud", "int8")


def test_phone_bandwidth_is_51_2_and_labelled_assumed():
    """§V1-10 (2) error 11: 51.2 GB/s, an assumption, not 68 or 50."""
    html = rendered(LAB, all_open())
    assert "51.2 GB/s (assumed)" in html and "68 GB/s" not in html


def test_fp16_greys_out_granularity_and_scheme_with_a_reason():
    state = all_open(a1_format="fp16")
    assert set(lab.a1_overridden(state)) == {"a1_granularity", "a1_scheme"}
    assert "Not used at FP16" in rendered(LAB, state)
    assert lab.a1_overridden(all_open()) == {}


# ---- failures reached and left -----------------------------------------------------------------


def test_collapse_is_reached_with_mobilenetv2_per_tensor_and_left_per_channel():
    bad = all_open(a1_model="mobilenetv2", a1_granularity="per_tensor")
    assert "a1_collapse" in LAB.failures_now(bad)
    assert 'data-failure="a1_collapse"' in render_lab(LAB, bad)
    assert "a1_collapse" not in LAB.failures_now(all_open(a1_model="mobilenetv2"))


def test_over_budget_is_left_at_int4():
    assert "a1_over_budget" not in LAB.failures_now(all_open(a1_format="int4"))


def test_tier_oom_is_reached_by_default_and_left_with_the_key_design():
    assert "a2_out_of_memory" in LAB.failures_now(all_open())
    good = all_open(a2_flagship="8b_int4", a2_mid="8b_int3", a2_budget="1b_int4")
    assert not LAB.failures_now(good) & {"a2_out_of_memory", "a2_quality"}
    assert 'data-failure="a2_out_of_memory"' not in render_lab(LAB, good)


def test_a_longer_context_pushes_the_mid_tier_out_of_memory():
    tight = all_open(a2_flagship="8b_int4", a2_mid="8b_int3", a2_budget="1b_int4", a2_context=8192)
    assert "a2_out_of_memory" in LAB.failures_now(tight)


def test_quality_warning_for_two_bits_and_for_pruning_without_retraining():
    assert "a2_quality" in LAB.failures_now(all_open(a2_budget="8b_int2"))
    assert "a2_quality" in LAB.failures_now(all_open(a2_mid="8b_int4_u50m"))
    for key, v in model.VARIANTS.items():
        assert v.acceptable == (key in {"8b_fp16", "8b_int8", "8b_int4", "8b_int3", "3b_int4", "1b_int8",
                                        "1b_int4"})


def test_unstructured_pruning_stored_dense_saves_nothing():
    """§V1-10 (2) error 7: 50 % unstructured stored dense is the dense size; a bitmask adds 1 bit/weight."""
    dense, pruned = model.VARIANTS["8b_int4"], model.VARIANTS["8b_int4_u50"]
    assert pruned.weights == dense.weights
    assert model.VARIANTS["8b_int4_u50m"].weights > dense.weights / 2


def test_decode_rate_follows_the_bytes():
    html = rendered(LAB, all_open(a2_flagship="8b_int4"))
    rate = float(re.search(r'data-metric="a2_rate_flagship" data-value="([^"]+)"', html).group(1))
    v = model.VARIANTS["8b_int4"]
    assert rate == pytest.approx(C.A17_PRO_MEM_BW / (v.weights + v.kv(2048)))


# ---- edges ------------------------------------------------------------------------------------


@pytest.mark.parametrize("context", ["cloud", "edge", "mobile"])
def test_every_setting_renders_finite_numbers(context):
    for name, f, g, sc in itertools.product(lab.MODELS, lab.FORMATS, lab.GRANULARITY, lab.SCHEMES):
        state = all_open(context=context, a1_model=name, a1_format=f, a1_granularity=g, a1_scheme=sc)
        cfg = lab.config(state)
        assert 0 <= cfg.top1 <= 1 and cfg.latency_s() > 0
    for tier_keys in itertools.product(lab.VARIANTS, repeat=1):
        for tokens in (256, 8192):
            state = all_open(context=context, a2_flagship=tier_keys[0], a2_mid=tier_keys[0],
                             a2_budget=tier_keys[0], a2_context=tokens)
            values = [float(v) for v in re.findall(r'data-value="([^"]+)"', rendered(LAB, state))]
            assert values and all(math.isfinite(v) and v >= 0 for v in values)


# ---- context and ledger ------------------------------------------------------------------------


def test_context_changes_the_act1_instruments():
    grab = lambda html: re.search(r'data-metric="a1_latency" data-value="([^"]+)"', html).group(1)
    values = {grab(rendered(LAB, all_open(context=c))) for c in ("cloud", "edge", "mobile")}
    assert len(values) == 3


def test_record_holds_the_spec_ledger_fields():
    """§V1-10 ledger: model, fmt, granularity, drop_pp, tier_configs, tier_footprints_gb, oom_tiers."""
    rec = record(LAB, all_open(a2_flagship="8b_int4", a2_mid="8b_int3", a2_budget="3b_int4"))
    r = rec["results"]
    assert rec["context"] == "mobile" and rec["complete"] is True
    assert (r["model"], r["fmt"], r["granularity"]) == ("resnet50", "int8", "per_channel")
    assert r["drop_pp"] == pytest.approx(0.2)
    assert r["tier_configs"] == "8b_int4,8b_int3,3b_int4"
    assert r["tier_footprints_gb"] == "4.709,3.705,2.192"
    assert r["oom_tiers"] == "budget"
    assert all(k == k.lower() for k in r)


def test_upstream_errors_do_not_reappear():
    """§V1-10 (2): no 98 MB, no 3,958 'INT8', no 'App Store limit', no 'INT4 native'."""
    html = rendered(LAB, all_open())
    for wrong in ("98 MB", "3,958", "App Store", "INT4 native", "68 GB/s"):
        assert wrong not in html


# ---- the text follows its source (nothing typed) ---------------------------------------------------


def test_the_level_counts_in_feedback_and_math_follow_the_physics(monkeypatch):
    state = answered(LAB, {"a1_predict": "B", "a1_reflect": "C"}, through="a1_reflect")
    html = rendered(LAB, state)
    assert "255 levels cover" in html and "−127 to +127" in html and "127 levels each side at INT8, 7 at INT4" in html
    monkeypatch.setattr(lab.cp, "symmetric_levels", lambda bits: 2 ** (bits - 1))  # a grid without the sign trick
    html = rendered(LAB, state)
    assert "257 levels cover" in html and "−128 to +128" in html and "128 levels each side at INT8, 8 at INT4" in html


def test_variant_labels_follow_the_scenarios_group_and_pruned_share():
    group, pruned = fmt(model.S.group_size, "int"), fmt(model.S.pruned_share, "pct")
    assert model.VARIANTS["8b_int4"].label == f"8B INT4 (group {group})"
    assert model.VARIANTS["8b_int4_s50"].label == f"8B INT4 + {pruned} structured pruning"
    assert all(model.VARIANTS[k].density == 1 - model.S.pruned_share for k in ("8b_int4_s50", "8b_int4_u50"))
    assert f"INT4 with {pruned} structured pruning" in lab.ACT2_PREDICTION.options[1].text


def test_how_many_times_fewer_parameters_follows_the_registry():
    """Reflection A's "seven times fewer parameters" is ResNet-50's count over MobileNetV2's (7.3)."""
    ratio = C.RESNET50_PARAMS / C.MOBILENETV2_PARAMS
    assert 7 <= ratio < 7.5
    assert LAB.question("a1_reflect").option("A").text.startswith("It has seven times fewer parameters")
