"""Tail latency of composed services (pylabs.physics.latency): the spec's golden vectors
(handbook/labs/v2_12.md §4, and handbook/devices.md §4), closed forms against the seeded sampler, and
a numpy cross-check of the sampler's statistics."""

from __future__ import annotations

import math
import random

import pytest

from pylabs.physics import constants as C
from pylabs.physics import latency as L

LOGN = L.Hop.lognormal(0.040, 0.100)
EXPO = L.Hop.exponential(0.100)


# ---- handbook/labs/v2_12.md §4 golden vectors ---------------------------------------------------------------------


def test_section4_fanout_5_by_1pct():
    assert L.fanout_slow_fraction(0.01, 5) == pytest.approx(0.049010, abs=5e-7)


def test_section0_tail_at_scale_100_leaves():
    """handbook/devices.md §4: 100 leaves each slow 1 % of the time make 63.4 % of requests slow (Dean & Barroso)."""
    value = L.fanout_slow_fraction(C.TAIL_AT_SCALE_LEAF_SLOW, int(C.TAIL_AT_SCALE_LEAVES))
    assert value == pytest.approx(0.6340, abs=5e-5)
    assert round(value, 2) == C.TAIL_AT_SCALE_SLOW_REQUESTS


def test_section4_budget_for_1pct_at_5():
    assert L.per_service_budget(0.01, 5) == pytest.approx(0.0020080, abs=5e-8)
    assert L.fanout_slow_fraction(L.per_service_budget(0.01, 5), 5) == pytest.approx(0.01, rel=1e-12)


def test_section4_hop_sigma_and_p998():
    assert LOGN.sigma == pytest.approx(0.39388, abs=5e-6)
    assert LOGN.quantile(1 - L.per_service_budget(0.01, 5)) == pytest.approx(0.1242, abs=5e-5)
    assert LOGN.quantile(0.99) == pytest.approx(0.100, rel=1e-12) and LOGN.quantile(0.5) == pytest.approx(0.040)


def test_section4_serial_sum_fenton_wilkinson():
    assert L.serial_quantile_s(LOGN, 5, 0.99) == pytest.approx(0.3244, abs=5e-5)
    assert L.serial_exceed(LOGN, 5, 0.5) == pytest.approx(1.26e-6, abs=5e-9)


def test_section2_error1_sum_of_p99s_is_conservative_for_a_chain():
    """handbook/labs/v2_12.md §2: the chain's sampled P99 is far below 5 × 100 ms; the fan-out formula overstates it."""
    sampled = L.sample_serial(LOGN, 5)
    assert sampled.quantile(0.99) == pytest.approx(0.3244, rel=0.01)
    assert sampled.exceed(0.5) < 1e-3 < L.fanout_slow_fraction(0.01, 5)


# ---- fan-out: closed forms against the sampler ------------------------------------------------


@pytest.mark.parametrize("n", [1, 5, 20, 100])
def test_max_of_exponentials_matches_closed_form(n):
    """The max of n i.i.d. Exp(λ): F⁻¹(q) = −ln(1 − q^{1/n})/λ."""
    lam = EXPO.rate_per_s
    sample = L.sample_fanout(EXPO, n)
    for q in (0.5, 0.99):
        exact = -math.log(1 - q ** (1 / n)) / lam
        assert L.fanout_quantile_s(EXPO, n, q) == pytest.approx(exact, rel=1e-9)
        assert sample.quantile(q) == pytest.approx(exact, rel=0.03)


@pytest.mark.parametrize("n,common", [(5, 0.0), (5, 0.5), (100, 0.0), (100, 0.3)])
def test_fanout_violation_sampled_matches_formula(n, common):
    sample = L.sample_fanout(LOGN, n, common)
    exact = L.fanout_slow_fraction(0.01, n, common)
    assert sample.exceed(LOGN.quantile(0.99)) == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 2e4))
    assert sample.quantile(0.99) == pytest.approx(L.fanout_quantile_s(LOGN, n, 0.99, common), rel=0.03)


def test_exponential_hop_is_memoryless_shape():
    assert EXPO.quantile(0.99) == pytest.approx(0.1, rel=1e-12)
    assert EXPO.quantile(0.5) == pytest.approx(0.1 * math.log(2) / math.log(100), rel=1e-12)
    assert EXPO.cdf(EXPO.quantile(0.3)) == pytest.approx(0.3, rel=1e-12)
    assert LOGN.cdf(LOGN.quantile(0.3)) == pytest.approx(0.3, rel=1e-9)


def test_one_hop_is_the_hop():
    assert L.fanout_slow_fraction(0.01, 1) == pytest.approx(0.01)
    assert L.fanout_quantile_s(LOGN, 1, 0.99) == pytest.approx(0.1, rel=1e-9)
    assert L.serial_quantile_s(LOGN, 1, 0.99) == pytest.approx(0.1, rel=1e-9)


def test_full_common_cause_makes_fanout_a_single_hop_and_chain_a_multiple():
    assert L.fanout_slow_fraction(0.01, 50, 1.0) == pytest.approx(0.01)
    assert L.fanout_quantile_s(LOGN, 50, 0.99, 1.0) == pytest.approx(0.1, rel=1e-6)
    assert L.serial_quantile_s(LOGN, 5, 0.99, 1.0) == pytest.approx(0.5, rel=1e-6)
    assert L.sample_serial(LOGN, 5, 1.0).quantile(0.99) == pytest.approx(0.5, rel=0.03)


# ---- serial chain: Erlang and Fenton–Wilkinson against the sampler ------------------------------


def test_erlang_cdf_closed_forms():
    lam = 10.0
    assert L.erlang_cdf(0.3, 1, lam) == pytest.approx(1 - math.exp(-3.0), rel=1e-12)
    assert L.erlang_cdf(0.3, 2, lam) == pytest.approx(1 - math.exp(-3.0) * 4.0, rel=1e-12)
    assert L.erlang_cdf(L.erlang_quantile_s(0.99, 7, lam), 7, lam) == pytest.approx(0.99, abs=1e-9)


@pytest.mark.parametrize("n", [2, 5, 20, 100])
def test_sum_of_exponentials_matches_erlang(n):
    """Sliding windows of one hop stream: each window is n distinct draws, so the sum is Erlang(n)."""
    lam = EXPO.rate_per_s
    sample = L.sample_serial(EXPO, n)
    for q in (0.5, 0.99):
        assert sample.quantile(q) == pytest.approx(L.erlang_quantile_s(q, n, lam), rel=0.03)


@pytest.mark.parametrize("n", [2, 5, 20, 100])
def test_lognormal_chain_sampler_agrees_with_fenton_wilkinson(n):
    sample = L.sample_serial(LOGN, n)
    assert sample.quantile(0.5) == pytest.approx(L.serial_quantile_s(LOGN, n, 0.5), rel=0.02)
    assert sample.quantile(0.99) == pytest.approx(L.serial_quantile_s(LOGN, n, 0.99), rel=0.03)


def test_chain_mean_is_n_times_hop_mean():
    sample = L.sample_serial(LOGN, 10)
    mean = sum(sample.values) / len(sample.values)
    assert mean == pytest.approx(10 * LOGN.mean_s, rel=0.01)


def test_sampler_is_deterministic_and_independent_of_call_order():
    L.sample_serial.cache_clear()
    first = L.sample_serial(LOGN, 7).quantile(0.99), L.sample_fanout(LOGN, 7).quantile(0.99)
    L.sample_serial.cache_clear()
    L._hop_prefix.cache_clear()
    L._uniforms.cache_clear()
    L._coin_split.cache_clear()
    assert (L.sample_serial(LOGN, 7).quantile(0.99), L.sample_fanout(LOGN, 7).quantile(0.99)) == first
    assert L._uniforms(12, 10)[0][0] == 1.0 - random.Random(12).random()  # one Mersenne Twister stream


def test_numpy_cross_check_of_the_chain_sampler():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(7)
    sums = np.exp(np.log(0.040) + LOGN.sigma * rng.standard_normal((200_000, 5))).sum(axis=1)
    assert float(np.quantile(sums, 0.99)) == pytest.approx(L.sample_serial(LOGN, 5).quantile(0.99), rel=0.02)


def test_bad_inputs_raise():
    with pytest.raises(ValueError):
        L.Hop.lognormal(0.1, 0.05)
    with pytest.raises(ValueError):
        L.Hop.exponential(0.0)
    with pytest.raises(ValueError):
        L.sample_serial(LOGN, 0)


@pytest.mark.parametrize("n,common", [(1, 0.0), (7, 0.0), (7, 0.35), (60, 1.0)])
def test_fanout_merged_quantile_equals_a_plain_sort(n, common):
    """The O(log M) k-th smallest of the two streams equals sorting every sampled latency."""
    values, coins = L._uniforms(12, 20_000)
    plain = sorted(u if c < common else u ** (1 / n) for u, c in zip(values, coins))
    fast = L.sample_fanout(LOGN, n, common)
    for q in (0.0, 0.01, 0.5, 0.9, 0.99, 0.999, 1.0):
        k = min(len(plain), max(1, math.ceil(q * len(plain))))
        assert fast.quantile(q) == pytest.approx(LOGN.quantile(min(plain[k - 1], 1 - 1e-16)), rel=1e-12)
    t = LOGN.quantile(0.99)
    assert fast.count_above(t) == sum(1 for w in plain if w > LOGN.cdf(t))


# ---- V1-13: seeded draws of a queue's time in system against the closed forms ----------------

from pylabs.physics import queueing as Q  # noqa: E402


@pytest.mark.parametrize("lam,service,servers", [(78, 0.01, 1), (800, 1e-3, 1), (1000, 0.025, 30),
                                                 (10_000, 0.025, 260)])
def test_v1_13_sampled_sojourn_percentiles_match_closed_forms(lam, service, servers):
    sample = L.sample_mmc_sojourn(lam, service, servers)
    for quantile in (0.5, 0.9, 0.99):
        exact = Q.mmc_sojourn_percentile_s(quantile, lam, service, servers)
        assert sample.quantile(quantile) == pytest.approx(exact, rel=0.03)
    assert sample.exceed(0.1) == pytest.approx(Q.mmc_sojourn_exceed(0.1, lam, service, servers), abs=0.005)


def test_v1_13_sampled_mm1_sojourn_is_exponential_with_its_mean():
    sample = L.sample_mmc_sojourn(78, 0.01)
    mean = sum(sample.values) / len(sample.values)
    assert mean == pytest.approx(Q.mm1_sojourn_mean_s(78, 0.01), rel=0.02)


def test_v1_13_sojourn_sampler_is_deterministic_and_refuses_unstable_queues():
    a = L.sample_mmc_sojourn(78, 0.01, 1, 12, 1000)
    L.sample_mmc_sojourn.cache_clear()
    assert L.sample_mmc_sojourn(78, 0.01, 1, 12, 1000) == a
    with pytest.raises(ValueError, match="unstable"):
        L.sample_mmc_sojourn(100, 0.01)


def test_v1_13_mm1_draws_are_one_sorted_stream_scaled_by_the_mean_sojourn():
    """One server: every load's draws are the same sorted Exp(1) draws times 1/(μ − λ), so a new
    load rescales them (the order, and so each percentile's rank, never changes)."""
    light, heavy = L.sample_mmc_sojourn(20, 0.01).values, L.sample_mmc_sojourn(95, 0.01).values
    assert list(light) == sorted(light)
    scale = Q.mm1_sojourn_mean_s(95, 0.01) / Q.mm1_sojourn_mean_s(20, 0.01)
    assert all(h == pytest.approx(v * scale, rel=1e-12) for v, h in zip(light, heavy))


@pytest.mark.parametrize("t,n,lam", [(800, 800, 1.0), (0.05, 5, 10 * math.log(100)), (2.0, 1, 1.0),
                                      (1000.0, 900, 1.0), (760.0, 3, 1.0), (1e-3, 40, 100.0), (30.0, 64, 2.5)])
def test_erlang_cdf_against_scipy_gamma_far_into_the_tail(t, n, lam):
    """exp(-x) underflowed past x ~ 745 and the CDF read 1.0; scipy.stats.gamma is the
    reference (shape n, scale 1/lambda)."""
    from scipy.stats import gamma
    assert L.erlang_cdf(t, n, lam) == pytest.approx(gamma.cdf(t, a=n, scale=1 / lam), rel=1e-9, abs=1e-15)
    assert L.erlang_cdf(800, 800, 1.0) == pytest.approx(0.5047, abs=5e-5)


def test_exponential_chain_is_the_exact_erlang_sum_not_fenton_wilkinson():
    """The exponential context matched the chain's sum with Fenton–Wilkinson
    (P99 268 ms, P(> 500 ms) = 7.53e-5). Five exponential hops of P99 100 ms (λ = ln 100 / 0.1 s)
    sum to Erlang(5, λ): P99 252.0 ms and P(> 500 ms) = 1.40e-6 (scipy.stats.gamma(a=5, scale=1/λ))."""
    from scipy.stats import gamma

    lam = math.log(100) / 0.1
    assert EXPO.rate_per_s == pytest.approx(lam, rel=1e-12)
    assert L.serial_quantile_s(EXPO, 5, 0.99) == pytest.approx(0.2520, abs=5e-5)
    assert L.serial_quantile_s(EXPO, 5, 0.99) == pytest.approx(gamma.ppf(0.99, a=5, scale=1 / lam), rel=1e-9)
    assert L.serial_exceed(EXPO, 5, 0.5) == pytest.approx(1.40e-6, abs=5e-9)
    assert L.serial_exceed(EXPO, 5, 0.5) == pytest.approx(gamma.sf(0.5, a=5, scale=1 / lam), rel=1e-9)
    # with a common cause: the mixture of the Erlang sum and five times one hop
    mixed = 0.7 * gamma.sf(0.5, a=5, scale=1 / lam) + 0.3 * math.exp(-lam * 0.1)
    assert L.serial_exceed(EXPO, 5, 0.5, 0.3) == pytest.approx(mixed, rel=1e-9)
    assert L.serial_exceed(EXPO, 5, L.serial_quantile_s(EXPO, 5, 0.99, 0.3), 0.3) == pytest.approx(0.01, rel=1e-6)


@pytest.mark.parametrize("t,n,lam", [(0.5, 5, 46.05), (3.0, 40, 20.0), (900.0, 800, 1.0), (1e-4, 3, 10.0)])
def test_erlang_survival_against_scipy_in_the_far_tail(t, n, lam):
    """The survival sum keeps its relative precision where 1 − cdf would not (scipy.stats.gamma.sf)."""
    from scipy.stats import gamma

    assert L.erlang_sf(t, n, lam) == pytest.approx(gamma.sf(t, a=n, scale=1 / lam), rel=1e-9)


def test_fenton_wilkinson_understates_the_lognormal_chain_s_far_tail():
    """handbook/labs/v2_12.md §4's vector P(> 500 ms) = 1.26e-6 for five lognormal hops (median 40 ms, P99
    100 ms) is Fenton–Wilkinson's; the sum's own value, by numerical convolution of the hop's
    distribution (scipy.stats.lognorm, exact cell probabilities), is 2.34e-6, while the P99s agree
    to 0.3 % (FW 324.4 ms, convolution 325.1 ms). The lab labels the share an approximation."""
    import numpy as np
    from scipy.signal import fftconvolve
    from scipy.stats import lognorm

    dt = 1e-5
    edges = np.arange(0.0, 1.0 + dt, dt)
    cell = np.diff(lognorm.cdf(edges, s=LOGN.sigma, scale=LOGN.median_s))
    total = cell
    for _ in range(4):
        total = fftconvolve(total, cell)[:len(cell)]
    total = np.clip(total, 0.0, None)
    k = int(round(0.5 / dt))
    tail_low, tail_high = total[k:].sum(), total[k - 5:].sum()  # a sum of 5 cell starts lies within 5 dt
    assert 2.30e-6 < tail_low <= tail_high < 2.40e-6
    assert L.serial_exceed(LOGN, 5, 0.5) == pytest.approx(1.26e-6, abs=5e-9)
    assert L.serial_exceed(LOGN, 5, 0.5) < 0.6 * tail_low
    cdf = np.cumsum(total)
    p99 = np.searchsorted(cdf, 0.99) * dt
    assert p99 == pytest.approx(0.3251, abs=3e-4)
    assert L.serial_quantile_s(LOGN, 5, 0.99) == pytest.approx(p99, rel=0.005)
