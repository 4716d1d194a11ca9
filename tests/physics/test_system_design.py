"""Golden vectors of handbook/labs/v2_17.md §4, the capstone's corrected model."""

import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics import serving
from pylabs.physics import system_design as sd

P, MOE_ACTIVE = 1e12, 100e9


def test_v2_17_training_memory_3d_with_zero1_is_52_gb():
    assert sd.training_memory_per_gpu_bytes(P, 8, 16, 128, 20e9) / 1e9 == pytest.approx(51.98, abs=0.01)


def test_v2_17_training_memory_dp_only_is_16_tb():
    assert sd.training_memory_per_gpu_bytes(P, 1, 1, 1, 0) / 1e9 == pytest.approx(16_000)


@pytest.mark.parametrize("active, days", [(P, 10.71), (MOE_ACTIVE, 1.071)])
def test_v2_17_training_days(active, days):
    assert sd.training_days(active, 1e12, 16_384, C.H100_PEAK_BF16_DENSE, 0.40) == pytest.approx(days, rel=1e-3)


def test_v2_17_serving_fleet_moe_and_dense():
    q = sd.peak_requests_per_s(5e9, 2, 2, 0.3)
    assert q == pytest.approx(69_444, abs=1)
    moe = sd.serving_gpus_busy(q, MOE_ACTIVE, 500, 200, C.H100_PEAK_BF16_DENSE, 0.4)
    assert moe == pytest.approx(24_566, abs=1)
    assert sd.annual_gpu_cost_usd(moe, 3.50, 8760) / 1e9 == pytest.approx(0.753, abs=0.001)
    dense = sd.serving_gpus_busy(q, P, 500, 200, C.H100_PEAK_BF16_DENSE, 0.4)
    assert dense == pytest.approx(245_660, abs=5)
    assert sd.annual_gpu_cost_usd(dense, 3.50, 8760) / 1e9 == pytest.approx(7.53, abs=0.01)


def _prefill(active):
    return serving.prefill_s(2 * active * 500, 16, C.H100_PEAK_BF16_DENSE, 0.5)


@pytest.mark.parametrize("active, load, ms", [(MOE_ACTIVE, 0.7, 191.6), (P, 0.7, 1916), (P, 0.3, 740)])
def test_v2_17_p99_ttft(active, load, ms):
    assert sd.ttft_p99_s(_prefill(active), load) * 1e3 == pytest.approx(ms, rel=2e-3)


def test_ttft_matches_the_v2_10_queue_model():
    t = _prefill(MOE_ACTIVE)
    assert _prefill(MOE_ACTIVE) * 1e3 == pytest.approx(12.6, abs=0.05)
    assert sd.ttft_p99_s(t, 0.7) == pytest.approx(serving.continuous_ttft_p99_s(t, 0.7 / t))
    assert sd.ttft_p99_s(t, 0.005) == t and math.isinf(sd.ttft_p99_s(t, 1.0))


@pytest.mark.parametrize("regions, needed, expected", [(3, 2, 0.999997), (1, 1, 0.999), (2, 2, 0.998001)])
def test_v2_17_availability(regions, needed, expected):
    assert sd.availability_k_of_n(regions, needed, 0.999) == pytest.approx(expected, abs=1e-6)


def test_availability_matches_a_binomial_sample_with_numpy():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(17)
    up = rng.random((400_000, 4)) < 0.9
    assert (up.sum(axis=1) >= 3).mean() == pytest.approx(sd.availability_k_of_n(4, 3, 0.9), abs=0.003)


@pytest.mark.parametrize("f, g", [(0.4, 161.0), (0.9, 43.5)])
def test_v2_17_carbon(f, g):
    assert sd.matched_intensity(f, 255, 20) == pytest.approx(g)


def test_v2_17_fairness_ppv_gap_under_equalized_odds():
    a, b = F.ppv(0.20, 0.85, 0.10), F.ppv(0.35, 0.85, 0.10)
    assert (round(a, 3), round(b, 3), round(b - a, 3)) == (0.680, 0.821, 0.141)


def test_bad_inputs_are_refused():
    with pytest.raises(ValueError):
        sd.availability_k_of_n(2, 3, 0.999)
    with pytest.raises(ValueError):
        sd.training_memory_per_gpu_bytes(P, 0, 1, 1, 0)
    with pytest.raises(ValueError):
        sd.matched_intensity(1.2, 255, 20)
