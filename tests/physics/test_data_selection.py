"""Data selection physics: the golden vectors of handbook/labs/v1_09.md §4, the surrogates' shape,
and the inversions behind "cost to reach the bar"."""

from __future__ import annotations

import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import data_selection as ds

SPEC_F_IMG = 24.6e9  # the spec's 3 × 8.2 GFLOP (it rounds torchvision's 4.09 G multiply-adds to 4.1)


def test_v1_09_4_throughput_golden_with_the_spec_flop():
    """handbook/labs/v1_09.md §4: Θ(H100) = 6,837.3 img/s, Θ(Orin) = 103.9 img/s at u = 0.17 and 24.6 GFLOP."""
    assert ds.training_samples_per_s(C.H100_PEAK_BF16_DENSE, 0.17, SPEC_F_IMG) == pytest.approx(6837.3, abs=0.05)
    assert ds.training_samples_per_s(C.ORIN_NX_PEAK_FP16_DENSE, 0.17, SPEC_F_IMG) == pytest.approx(103.9, abs=0.05)


def test_v1_09_4_training_time_golden():
    """handbook/labs/v1_09.md §4: 90 epochs × 1e6 images: 3.66 h on the H100, 240.5 h on the Orin NX."""
    h100 = ds.training_samples_per_s(C.H100_PEAK_BF16_DENSE, 0.17, SPEC_F_IMG)
    orin = ds.training_samples_per_s(C.ORIN_NX_PEAK_FP16_DENSE, 0.17, SPEC_F_IMG)
    assert ds.training_time_s(90, 1e6, h100) / 3600 == pytest.approx(3.66, abs=0.005)
    assert ds.training_time_s(90, 1e6, orin) / 3600 == pytest.approx(240.5, abs=0.05)


def test_registry_flop_is_the_curriculums_rounded_multiply_adds():
    """The registry keeps ResNet-50 at 4.1 G multiply-adds (torchvision lists 4.09), as every Volume I
    lab's golden vectors do: 8.2 GFLOP forward, 24.6 GFLOP per training image."""
    f = ds.training_flop_per_sample(2 * C.RESNET50_MACS)
    assert f == pytest.approx(24.6e9)
    assert ds.training_samples_per_s(C.H100_PEAK_BF16_DENSE, 0.17, f) == pytest.approx(6837.3, rel=3e-3)


def test_v1_09_4_ordering_speedup_golden():
    """handbook/labs/v1_09.md §4: S(η=0, β=1) = 1.000; S(η=0.2, β=0.3) = 1.347."""
    assert ds.curriculum_speedup(0.0, 1.0) == 1.0
    assert ds.curriculum_speedup(0.2, 0.3) == pytest.approx(1.347)


def test_orderings_random_is_one_and_anti_is_the_inverse():
    assert ds.ordering_speedup("random", 0.3, 0.2) == 1.0
    cur = ds.ordering_speedup("curriculum", 0.3, 0.2)
    assert ds.ordering_speedup("anti", 0.3, 0.2) == pytest.approx(1 / cur)
    with pytest.raises(ValueError, match="ordering must be one of"):
        ds.ordering_speedup("shuffled", 0, 1)


def test_surrogate_grows_with_noise_and_a_shorter_budget():
    assert ds.curriculum_speedup(0.4, 1.0) > ds.curriculum_speedup(0.2, 1.0) > 1
    assert ds.curriculum_speedup(0.0, 0.1) > ds.curriculum_speedup(0.0, 0.5) > 1


def test_v1_09_4_label_budget_golden():
    """handbook/labs/v1_09.md §4: B = $10K at $0.05: random 0.6488, AL (k 1.85) 0.6947; B = $50K: both 0.7600."""
    n = ds.labels_bought(10_000, 0.05, 1e6)
    assert n == pytest.approx(200_000)
    assert ds.accuracy_from_labels(n, 0.85, 90) == pytest.approx(0.6488, abs=5e-5)
    assert ds.accuracy_from_labels(ds.al_effective_labels(n, 1e6, 1.85), 0.85, 90) == pytest.approx(0.6947, abs=5e-5)
    full = ds.labels_bought(50_000, 0.05, 1e6)
    assert ds.accuracy_from_labels(full, 0.85, 90) == pytest.approx(0.76)
    assert ds.al_effective_labels(full, 1e6, 1.85) == pytest.approx(full)


def test_v1_09_4_cost_to_the_bar_golden():
    """handbook/labs/v1_09.md §4: bar 0.70: random $18,000 (360,000 labels); AL $10,802 (216,039 labels, 21.6 %)."""
    assert ds.labels_for_accuracy(0.70, 0.85, 90) == pytest.approx(360_000)
    assert ds.cost_to_accuracy_usd(0.70, 0.05, 1e6, 0.85, 90) == pytest.approx(18_000)
    labels = ds.al_labels_for_effective(360_000, 1e6, 1.85)
    assert labels == pytest.approx(216_039, abs=0.5)
    assert ds.cost_to_accuracy_usd(0.70, 0.05, 1e6, 0.85, 90, 1.85) == pytest.approx(10_802, abs=0.5)


def test_al_inverse_round_trips():
    for k in (0.5, 0.8, 1.0, 1.2, 1.85, 2.0):
        for n in (1e3, 1e5, 5e5, 1e6):
            eff = ds.al_effective_labels(n, 1e6, k)
            assert ds.al_labels_for_effective(eff, 1e6, k) == pytest.approx(n, rel=1e-9)


def test_an_efficiency_below_one_costs_more_than_random_and_still_ends_at_the_pool():
    """Some deep AL methods fall short of random sampling (Gashi, Deng and Elezi 2024, arXiv:2403.14800):
    at k = 0.8 reaching 360,000 effective labels takes more real labels, and the whole pool is still the pool."""
    assert ds.al_labels_for_effective(360_000, 1e6, 0.8) > 360_000
    assert ds.al_effective_labels(1e6, 1e6, 0.8) == pytest.approx(1e6)
    assert ds.cost_to_accuracy_usd(0.70, 0.05, 1e6, 0.85, 90, 0.8) > ds.cost_to_accuracy_usd(0.70, 0.05, 1e6, 0.85, 90)


def test_unreachable_bars_cost_infinity():
    assert math.isinf(ds.labels_for_accuracy(0.85, 0.85, 90))
    assert math.isinf(ds.cost_to_accuracy_usd(0.80, 0.05, 1e6, 0.85, 90, 1.85))  # needs 3.24M > the pool


def test_learning_curve_never_negative_and_rises():
    assert ds.accuracy_from_labels(0, 0.85, 90) == 0.0
    assert ds.accuracy_from_labels(100, 0.85, 90) == 0.0
    assert ds.accuracy_from_labels(1e5, 0.85, 90) < ds.accuracy_from_labels(1e6, 0.85, 90)


def test_budget_stops_at_the_pool():
    assert ds.labels_bought(200_000, 0.01, 1e6) == 1e6


@pytest.mark.parametrize("call,message", [
    (lambda: ds.training_samples_per_s(0, 0.17, 1e9), "peak_flops"),
    (lambda: ds.training_samples_per_s(1e12, 1.5, 1e9), "utilisation"),
    (lambda: ds.curriculum_speedup(0, 0), "budget_fraction"),
    (lambda: ds.al_effective_labels(2e6, 1e6, 1.5), "labels must be in"),
    (lambda: ds.al_effective_labels(1e5, 1e6, 3), "efficiency"),
    (lambda: ds.al_effective_labels(1e5, 1e6, 0), "efficiency"),
    (lambda: ds.labels_bought(1e4, 0, 1e6), "usd_per_label"),
])
def test_bad_inputs_name_the_parameter(call, message):
    with pytest.raises(ValueError, match=message):
        call()
