"""Time to train and scaling speedups."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import scaling as s
from pylabs.physics.constants import H100_PEAK_BF16_DENSE as C

FAST = settings(max_examples=200, deadline=None)


def test_time_to_train_formula() -> None:
    assert s.time_to_train_s(1e21, 100, 1e15, 0.5) == pytest.approx(2e4, rel=1e-15)


def test_strong_scaling_without_comm_is_linear() -> None:
    assert s.strong_scaling_speedup(64, 100.0, 0.0) == pytest.approx(64, rel=1e-15)


def test_strong_scaling_formula() -> None:
    assert s.strong_scaling_speedup(10, 100.0, 1.0) == pytest.approx(100 / 11, rel=1e-15)


def test_weak_scaling_formula() -> None:
    assert s.weak_scaling_speedup(16, 1.0, 2.0) == 8.0


# ---- errors ----


def test_zero_gpus_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"gpus must be >= 1 \(got 0\)"):
        s.time_to_train_s(1e21, 0, C, 0.5)


def test_sparse_style_mfu_percent_is_rejected() -> None:
    with pytest.raises(ValueError, match=r"mfu must be in \(0, 1\] \(got 45\)"):
        s.time_to_train_s(1e21, 8, C, 45)


def test_negative_comm_is_rejected() -> None:
    with pytest.raises(ValueError, match="t_comm_s must be >= 0 s"):
        s.strong_scaling_speedup(8, 1.0, -1.0)


def test_zero_step_time_is_rejected() -> None:
    with pytest.raises(ValueError, match="t_step_scaled_s must be > 0 s"):
        s.weak_scaling_speedup(8, 1.0, 0.0)


# ---- properties ----


@FAST
@given(n=st.integers(1, 100_000), t1=st.floats(1e-3, 1e6), comm=st.floats(0, 1e3))
def test_strong_scaling_is_bounded_by_n_and_by_comm(n, t1, comm) -> None:
    speedup = s.strong_scaling_speedup(n, t1, comm)
    assert 0 < speedup <= n * (1 + 1e-12)
    if comm > 0:
        assert speedup < t1 / comm


@FAST
@given(n=st.integers(1, 100_000), t1=st.floats(1e-3, 1e6), comm=st.floats(0, 1e3))
def test_strong_scaling_grows_with_gpus_at_fixed_comm(n, t1, comm) -> None:
    assert s.strong_scaling_speedup(n + 1, t1, comm) >= s.strong_scaling_speedup(n, t1, comm)


@FAST
@given(flops=st.floats(1e15, 1e27), gpus=st.integers(1, 100_000), u=st.floats(0.01, 1))
def test_doubling_gpus_halves_time_to_train(flops, gpus, u) -> None:
    assert s.time_to_train_s(flops, 2 * gpus, C, u) == pytest.approx(
        s.time_to_train_s(flops, gpus, C, u) / 2, rel=1e-12)
