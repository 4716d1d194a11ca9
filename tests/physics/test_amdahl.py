"""Amdahl's law for one and several components."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import amdahl as a

FAST = settings(max_examples=200, deadline=None)
fractions = st.floats(min_value=0, max_value=1)
factors = st.floats(min_value=1, max_value=1e6)


def test_speedup_formula() -> None:
    assert a.amdahl_speedup(0.5, 2) == pytest.approx(4 / 3, rel=1e-15)


def test_nothing_sped_up_means_no_speedup() -> None:
    assert a.amdahl_speedup(0.0, 100) == 1.0
    assert a.amdahl_speedup(0.7, 1) == 1.0


def test_slowdown_factor_is_allowed() -> None:
    assert a.amdahl_speedup(0.5, 0.5) == pytest.approx(2 / 3, rel=1e-15)


def test_whole_step_infinitely_fast_is_infinite() -> None:
    assert a.amdahl_speedup(1.0, math.inf) == math.inf
    assert a.amdahl_ceiling(1.0) == math.inf


def test_multi_leaves_unlisted_share_unchanged() -> None:
    assert a.amdahl_multi([0.5], [2]) == pytest.approx(a.amdahl_speedup(0.5, 2), rel=1e-15)


def test_multi_with_empty_profile_is_one() -> None:
    assert a.amdahl_multi([], []) == 1.0


def test_time_reduction_formula() -> None:
    assert a.time_reduction(0.5, 4) == pytest.approx(0.375, rel=1e-15)


# ---- errors ----


def test_fraction_above_one_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"fraction must be in \[0, 1\] \(got 1.2\).*0.45"):
        a.amdahl_speedup(1.2, 2)


def test_zero_factor_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"factor must be > 0 \(got 0\)"):
        a.time_reduction(0.5, 0)


def test_mismatched_lengths_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"factors must be the same length as fractions \(2\)"):
        a.amdahl_multi([0.5, 0.5], [2])


def test_fractions_summing_above_one_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"sum\(fractions\) must be <= 1.*rescale"):
        a.amdahl_multi([0.6, 0.6], [1, 1])


def test_bad_component_is_named_by_index() -> None:
    with pytest.raises(ValueError, match=r"fractions\[1\] must be in \[0, 1\]"):
        a.amdahl_multi([0.5, -0.1], [1, 1])
    with pytest.raises(ValueError, match=r"factors\[0\] must be > 0"):
        a.amdahl_multi([0.5], [-2])


# ---- properties ----


@FAST
@given(f=fractions, k=factors)
def test_speedup_is_between_one_and_ceiling(f, k) -> None:
    speedup = a.amdahl_speedup(f, k)
    assert 1 <= speedup <= a.amdahl_ceiling(f) * (1 + 1e-12)


@FAST
@given(f=fractions, k=factors, extra=st.floats(0, 1e3))
def test_speedup_is_non_decreasing_in_factor(f, k, extra) -> None:
    assert a.amdahl_speedup(f, k + extra) >= a.amdahl_speedup(f, k) * (1 - 1e-12)


@FAST
@given(f=fractions, k=factors)
def test_time_reduction_is_one_minus_inverse_speedup(f, k) -> None:
    assert a.time_reduction(f, k) == pytest.approx(1 - 1 / a.amdahl_speedup(f, k), abs=1e-12)


@FAST
@given(shares=st.lists(st.floats(0.01, 1), min_size=1, max_size=6),
       ks=st.lists(factors, min_size=6, max_size=6))
def test_multi_is_between_one_and_best_single_factor(shares, ks) -> None:
    total = sum(shares)
    profile = [share / total for share in shares]
    speedup = a.amdahl_multi(profile, ks[: len(profile)])
    assert 1 - 1e-12 <= speedup <= max(ks[: len(profile)]) * (1 + 1e-9)


# ---- V1-12 The Speedup Ceiling (handbook/labs/v1_12.md §4 golden vectors) ---

V112_B_FIXED_S, V112_B_PER_SAMPLE_S = a.batch_costs_through(
    1, a.batch_latency_s(1, 2.0e-3, 0.100e-3) / 1.2, 32, a.batch_latency_s(32, 2.0e-3, 0.100e-3) * 85 / 72)


def test_v1_12_golden_fixed_job_on_64_workers() -> None:
    """handbook/labs/v1_12.md §4: s=0.15, N=64, e=1 -> S 6.1244, 16.328 h of 100 h, E 9.57 %, ceiling 6.667."""
    speedup = a.parallel_speedup(0.15, 64)
    assert speedup == pytest.approx(6.1244019, rel=1e-7)
    assert 100 / speedup == pytest.approx(16.328125, rel=1e-9)
    assert speedup / 64 == pytest.approx(0.0957, abs=5e-5)
    assert a.parallel_ceiling(0.15) == pytest.approx(6.6666667, rel=1e-7)


def test_v1_12_golden_a_quarter_serial() -> None:
    """handbook/labs/v1_12.md §4: s=0.25, N=64 -> 3.8209."""
    assert a.parallel_speedup(0.25, 64) == pytest.approx(3.8209, abs=5e-5)


def test_v1_12_golden_gustafson_same_job_and_scaled_job() -> None:
    """handbook/labs/v1_12.md §4, §5: s' = 0.91866 reproduces 6.1244; a scaled job with s = 0.15 gives 54.55."""
    share = a.serial_share_of_parallel_run(0.15, 64)
    assert share == pytest.approx(0.91866, abs=5e-6)
    assert a.gustafson_speedup(share, 64) == pytest.approx(a.parallel_speedup(0.15, 64), rel=1e-12)
    assert a.gustafson_speedup(0.15, 64) == pytest.approx(54.55, rel=1e-12)


def test_v1_12_golden_vendor_throughputs_and_crossover() -> None:
    """handbook/labs/v1_12.md §4: b=1 A 476.2/s, B 571.4/s; b=32 A 6,153.8/s, B 5,212.7/s (A/B = 85/72); b* 9.418.
    (The spec prints 5,212.6: 32 / 6.13889 ms is 5,212.67.) B's rounded costs are 1.608 ms and 0.1416 ms."""
    assert (V112_B_FIXED_S, V112_B_PER_SAMPLE_S) == pytest.approx((1.608e-3, 0.1416e-3), abs=5e-7)
    a1, b1 = (a.batch_throughput_per_s(1, t0, t1) for t0, t1 in ((2e-3, 1e-4), (V112_B_FIXED_S, V112_B_PER_SAMPLE_S)))
    a32, b32 = (a.batch_throughput_per_s(32, t0, t1) for t0, t1 in ((2e-3, 1e-4), (V112_B_FIXED_S, V112_B_PER_SAMPLE_S)))
    assert (a1, b1, b1 / a1) == pytest.approx((476.19, 571.43, 1.2), abs=5e-3)
    assert (a32, b32, a32 / b32) == pytest.approx((6153.85, 5212.67, 85 / 72), abs=5e-3)
    crossover = a.throughput_crossover_batch(2e-3, 1e-4, V112_B_FIXED_S, V112_B_PER_SAMPLE_S)
    assert crossover == pytest.approx(9.418, abs=5e-4)
    assert a.batch_throughput_per_s(crossover, 2e-3, 1e-4) == pytest.approx(
        a.batch_throughput_per_s(crossover, V112_B_FIXED_S, V112_B_PER_SAMPLE_S), rel=1e-12)


def test_v1_12_equal_per_sample_costs_never_cross() -> None:
    assert a.throughput_crossover_batch(2e-3, 1e-4, 1e-3, 1e-4) == math.inf


def test_v1_12_one_worker_is_no_speedup_and_no_serial_work_is_linear() -> None:
    assert a.parallel_speedup(0.3, 1) == 1.0
    assert a.parallel_speedup(0.0, 64, 0.8) == pytest.approx(64 * 0.8, rel=1e-12)
    assert a.parallel_ceiling(0.0) == math.inf
    assert a.parallel_speedup(1.0, 1024) == 1.0


def test_v1_12_throughput_approaches_the_per_sample_ceiling() -> None:
    assert a.batch_throughput_per_s(1e9, 2e-3, 1e-4) == pytest.approx(1e4, rel=1e-6)


def test_v1_12_bad_inputs_are_named() -> None:
    with pytest.raises(ValueError, match=r"workers must be >= 1 \(got 0.5\)"):
        a.parallel_speedup(0.1, 0.5)
    with pytest.raises(ValueError, match=r"efficiency must be in \(0, 1\] \(got 0\)"):
        a.gustafson_speedup(0.1, 8, 0)
    with pytest.raises(ValueError, match=r"serial_fraction must be in \[0, 1\]"):
        a.parallel_ceiling(-0.1)
    with pytest.raises(ValueError, match=r"batch must be >= 1"):
        a.batch_throughput_per_s(0, 1e-3, 1e-4)
    with pytest.raises(ValueError, match=r"batch_2 must be different from batch_1"):
        a.batch_costs_through(4, 1e-3, 4, 2e-3)


@FAST
@given(s=fractions, n=st.floats(1, 4096), e=st.floats(0.01, 1))
def test_v1_12_speedup_stays_under_both_limits(s, n, e) -> None:
    speedup = a.parallel_speedup(s, n, e)
    assert 1 / (s + (1 - s) / e) * (1 - 1e-12) <= speedup <= min(n, a.parallel_ceiling(s)) * (1 + 1e-12)


@FAST
@given(s=fractions, n=st.floats(1, 4096), e=st.floats(0.01, 1))
def test_v1_12_gustafson_of_the_same_job_is_amdahl(s, n, e) -> None:
    share = a.serial_share_of_parallel_run(s, n, e)
    assert a.gustafson_speedup(share, n, e) == pytest.approx(a.parallel_speedup(s, n, e), rel=1e-9)
