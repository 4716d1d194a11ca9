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
