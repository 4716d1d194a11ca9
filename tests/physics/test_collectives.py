"""Collective costs: formulas, edge cases, errors and properties."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pylabs.physics import collectives as c

ALPHA = 1.5e-6
NDR = 50e9
FAST = settings(max_examples=200, deadline=None)
ALLREDUCES = (
    c.ring_allreduce_s,
    c.rabenseifner_allreduce_s,
    c.recursive_doubling_allreduce_s,
    c.binomial_tree_allreduce_s,
    c.reduce_scatter_halving_s,
    c.naive_master_allreduce_s,
)

sizes = st.floats(min_value=0, max_value=1e12, allow_nan=False)
ranks = st.integers(min_value=1, max_value=4096)
bandwidths = st.floats(min_value=1e6, max_value=1e13)
alphas = st.floats(min_value=0, max_value=1e-3)


# ---- formulas ----


def test_ring_matches_formula() -> None:
    expected = 2 * 7 * ALPHA + 2 * 7 / 8 * 1e9 / NDR
    assert c.ring_allreduce_s(1e9, 8, NDR, ALPHA) == pytest.approx(expected, rel=1e-15)


def test_rabenseifner_has_ring_bandwidth_term_and_log_latency() -> None:
    ring_bw_s = c.ring_allreduce_s(1e9, 16, NDR)
    assert c.rabenseifner_allreduce_s(1e9, 16, NDR, ALPHA) == pytest.approx(
        ring_bw_s + 2 * 4 * ALPHA, rel=1e-15)


def test_recursive_doubling_sends_whole_message_each_round() -> None:
    assert c.recursive_doubling_allreduce_s(1e6, 8, NDR, ALPHA) == pytest.approx(
        3 * (ALPHA + 1e6 / NDR), rel=1e-15)


def test_binomial_is_twice_recursive_doubling() -> None:
    rd = c.recursive_doubling_allreduce_s(1e6, 64, NDR, ALPHA)
    assert c.binomial_tree_allreduce_s(1e6, 64, NDR, ALPHA) == pytest.approx(2 * rd, rel=1e-15)


def test_reduce_scatter_is_half_rabenseifner() -> None:
    rab = c.rabenseifner_allreduce_s(1e9, 128, NDR, ALPHA)
    assert c.reduce_scatter_halving_s(1e9, 128, NDR, ALPHA) == pytest.approx(rab / 2, rel=1e-15)


def test_naive_serial_and_pipelined() -> None:
    assert c.naive_master_allreduce_s(1e6, 4, NDR, ALPHA) == pytest.approx(
        6 * (ALPHA + 1e6 / NDR), rel=1e-15)
    assert c.naive_master_allreduce_s(1e6, 4, NDR, ALPHA, pipelined=True) == pytest.approx(
        3 * 1e6 / NDR + 2 * ALPHA, rel=1e-15)


@pytest.mark.parametrize("fn", ALLREDUCES, ids=lambda fn: fn.__name__)
def test_one_rank_costs_nothing(fn) -> None:
    assert fn(1e9, 1, NDR, ALPHA) == 0.0


def test_naive_pipelined_one_rank_costs_nothing() -> None:
    assert c.naive_master_allreduce_s(1e9, 1, NDR, ALPHA, pipelined=True) == 0.0


@pytest.mark.parametrize("p, steps", [(1, 0), (2, 1), (3, 2), (8, 3), (24, 5), (128, 7),
                                      (129, 8), (1024, 10)])
def test_log2_steps_rounds_up_for_non_powers_of_two(p: int, steps: int) -> None:
    assert c.log2_steps(p) == steps


def test_non_power_of_two_binomial_uses_ceil_log2() -> None:
    assert c.binomial_tree_allreduce_s(0, 24, NDR, ALPHA) == pytest.approx(2 * 5 * ALPHA)


def test_integral_float_rank_count_is_accepted() -> None:
    assert c.ring_allreduce_s(1e9, 8.0, NDR) == c.ring_allreduce_s(1e9, 8, NDR)


def test_algbw_and_busbw() -> None:
    assert c.algbw(1e9, 4e-3) == 250e9
    assert c.busbw(1e9, 4e-3, 8) == pytest.approx(437.5e9, rel=1e-15)
    assert c.busbw(1e9, 4e-3, 1) == 0.0


def test_ring_busbw_equals_link_bandwidth() -> None:
    time_s = c.ring_allreduce_s(1e9, 64, NDR)
    assert c.busbw(1e9, time_s, 64) == pytest.approx(NDR, rel=1e-12)


# ---- crossovers ----


def test_ring_and_binomial_tie_at_the_crossover() -> None:
    n_star = c.ring_binomial_crossover_bytes(128, ALPHA, NDR)
    ring = c.ring_allreduce_s(n_star, 128, NDR, ALPHA)
    tree = c.binomial_tree_allreduce_s(n_star, 128, NDR, ALPHA)
    assert ring == pytest.approx(tree, rel=1e-12)


def test_crossover_depends_on_p() -> None:
    values = [c.ring_binomial_crossover_bytes(p, ALPHA, NDR) for p in (8, 128, 1024)]
    assert values == sorted(values)


def test_ring_never_loses_to_binomial_when_latencies_match() -> None:
    assert c.ring_binomial_crossover_bytes(2, ALPHA, NDR) == 0.0
    assert c.ring_binomial_crossover_bytes(3, ALPHA, NDR) == 0.0


def test_crossover_is_zero_without_latency() -> None:
    assert c.ring_binomial_crossover_bytes(128, 0.0, NDR) == 0.0


def test_crossover_at_one_rank_is_zero() -> None:
    assert c.ring_binomial_crossover_bytes(1, ALPHA, NDR) == 0.0


def test_ring_never_beats_recursive_doubling_at_two_ranks() -> None:
    assert c.ring_rd_crossover_bytes(2, ALPHA, NDR) == math.inf
    assert c.rabenseifner_rd_crossover_bytes(2, ALPHA, NDR) == math.inf


def test_ring_and_recursive_doubling_tie_at_their_crossover() -> None:
    n_star = c.ring_rd_crossover_bytes(128, ALPHA, NDR)
    assert c.ring_allreduce_s(n_star, 128, NDR, ALPHA) == pytest.approx(
        c.recursive_doubling_allreduce_s(n_star, 128, NDR, ALPHA), rel=1e-12)


# ---- hierarchical ----


def test_hierarchical_one_node_is_ring_over_nvlink() -> None:
    assert c.hierarchical_allreduce_s(26e9, 8, 1, 450e9, NDR, 8) == c.ring_allreduce_s(
        26e9, 8, 450e9)


def test_hierarchical_is_intra_plus_inter_term() -> None:
    expected = 2 * 7 / 8 * 26e9 / 450e9 + 2 * 15 / 16 * 26e9 / (8 * NDR)
    assert c.hierarchical_allreduce_s(26e9, 8, 16, 450e9, NDR, 8) == pytest.approx(
        expected, rel=1e-15)


def test_more_rails_cut_inter_node_time() -> None:
    one = c.hierarchical_allreduce_s(26e9, 8, 16, 450e9, NDR, 1)
    eight = c.hierarchical_allreduce_s(26e9, 8, 16, 450e9, NDR, 8)
    assert eight < one


# ---- errors ----


@pytest.mark.parametrize("fn", ALLREDUCES, ids=lambda fn: fn.__name__)
def test_zero_ranks_is_rejected(fn) -> None:
    with pytest.raises(ValueError, match=r"p must be a whole number >= 1 \(got 0\)"):
        fn(1e9, 0, NDR)


def test_fractional_ranks_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"p must be a whole number >= 1 \(got 2.5\)"):
        c.ring_allreduce_s(1e9, 2.5, NDR)


def test_negative_bytes_are_rejected() -> None:
    with pytest.raises(ValueError, match=r"size_bytes must be >= 0 bytes \(got -1\)"):
        c.ring_allreduce_s(-1, 8, NDR)


def test_zero_bandwidth_is_rejected_with_fix() -> None:
    with pytest.raises(ValueError, match="bw must be > 0 bytes/s .*NVLINK4_BW"):
        c.rabenseifner_allreduce_s(1e9, 8, 0)


def test_negative_latency_is_rejected() -> None:
    with pytest.raises(ValueError, match="alpha_s must be >= 0 s"):
        c.recursive_doubling_allreduce_s(1e9, 8, NDR, -1e-6)


def test_nan_bandwidth_is_rejected() -> None:
    with pytest.raises(ValueError, match="bw must be > 0"):
        c.ring_allreduce_s(1e9, 8, math.nan)


def test_busbw_needs_positive_time() -> None:
    with pytest.raises(ValueError, match=r"time_s must be > 0 s \(got 0\)"):
        c.busbw(1e9, 0, 8)


def test_hierarchical_names_bad_parameter() -> None:
    with pytest.raises(ValueError, match="nodes must be a whole number >= 1"):
        c.hierarchical_allreduce_s(1e9, 8, 0, 450e9, NDR, 8)
    with pytest.raises(ValueError, match="nics_per_node must be a whole number >= 1"):
        c.hierarchical_allreduce_s(1e9, 8, 2, 450e9, NDR, 0)
    with pytest.raises(ValueError, match="nic_bw must be > 0"):
        c.hierarchical_allreduce_s(1e9, 8, 2, 450e9, 0, 8)
    with pytest.raises(ValueError, match="gpus_per_node must be a whole number >= 1"):
        c.hierarchical_allreduce_s(1e9, 0, 2, 450e9, NDR, 8)


def test_crossover_rejects_zero_bandwidth() -> None:
    with pytest.raises(ValueError, match="bw must be > 0"):
        c.ring_binomial_crossover_bytes(128, ALPHA, 0)


# ---- properties ----


@FAST
@given(size=sizes, extra=sizes, p=ranks, bw=bandwidths, alpha=alphas)
def test_ring_time_is_non_decreasing_in_bytes(size, extra, p, bw, alpha) -> None:
    assert c.ring_allreduce_s(size + extra, p, bw, alpha) >= c.ring_allreduce_s(
        size, p, bw, alpha)


@FAST
@given(size=sizes, p=ranks, bw=bandwidths, factor=st.floats(min_value=1, max_value=1e3),
       alpha=alphas)
def test_ring_time_is_non_increasing_in_bandwidth(size, p, bw, factor, alpha) -> None:
    assert c.ring_allreduce_s(size, p, bw * factor, alpha) <= c.ring_allreduce_s(
        size, p, bw, alpha)


@FAST
@given(size=st.floats(min_value=1, max_value=1e12), p=st.integers(2, 4096), bw=bandwidths)
def test_ring_bandwidth_time_is_between_one_and_two_message_times(size, p, bw) -> None:
    time_s = c.ring_allreduce_s(size, p, bw)
    assert size / bw * (1 - 1e-12) <= time_s < 2 * size / bw


@FAST
@given(size=st.floats(min_value=1, max_value=1e12), time_s=st.floats(1e-9, 1e3),
       p=st.integers(1, 4096))
def test_busbw_over_algbw_is_two_p_minus_one_over_p(size, time_s, p) -> None:
    ratio = c.busbw(size, time_s, p) / c.algbw(size, time_s)
    assert ratio == pytest.approx(2 * (p - 1) / p, rel=1e-12)


@FAST
@given(size=sizes, p=ranks, bw=bandwidths, alpha=alphas)
def test_every_allreduce_time_is_non_negative(size, p, bw, alpha) -> None:
    for fn in ALLREDUCES:
        assert fn(size, p, bw, alpha) >= 0


@FAST
@given(size=sizes, k=st.integers(1, 12), bw=bandwidths, alpha=alphas)
def test_rabenseifner_never_slower_than_ring_for_powers_of_two(size, k, bw, alpha) -> None:
    p = 2**k
    assert c.rabenseifner_allreduce_s(size, p, bw, alpha) <= c.ring_allreduce_s(
        size, p, bw, alpha) * (1 + 1e-12)


@FAST
@given(p=st.integers(4, 4096), bw=bandwidths, alpha=st.floats(1e-7, 1e-4),
       scale=st.floats(0.01, 0.99))
def test_binomial_wins_below_and_ring_wins_above_crossover(p, bw, alpha, scale) -> None:
    n_star = c.ring_binomial_crossover_bytes(p, alpha, bw)
    assert 0 < n_star < math.inf
    below, above = n_star * scale, n_star / scale
    assert c.binomial_tree_allreduce_s(below, p, bw, alpha) <= c.ring_allreduce_s(
        below, p, bw, alpha) * (1 + 1e-9)
    assert c.ring_allreduce_s(above, p, bw, alpha) <= c.binomial_tree_allreduce_s(
        above, p, bw, alpha) * (1 + 1e-9)


@FAST
@given(size=sizes, g=st.integers(1, 16), n=st.integers(1, 512), rails=st.integers(1, 16))
def test_hierarchical_at_least_intra_node_ring(size, g, n, rails) -> None:
    total = c.hierarchical_allreduce_s(size, g, n, 450e9, NDR, rails)
    assert total >= c.ring_allreduce_s(size, g, 450e9)
