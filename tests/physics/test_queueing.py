"""pylabs.physics.queueing: closed forms, the handbook/labs/v2_08.md §4 golden vectors, a published Erlang B
figure, numerical stability for thousands of servers, and a seeded simulation of M/M/c."""

from __future__ import annotations

import heapq
import math
import random
from fractions import Fraction

import pytest

from pylabs.physics import queueing as q

H = 3600.0


def wait_h(servers: int, rho: float, service_h: float, service_scv: float) -> float:
    """Mean wait in hours of a G/G/c queue with Poisson arrivals at utilisation ``rho``."""
    arrival = rho * servers / (service_h * H)
    return q.ggc_mean_wait_s(arrival, service_h * H, servers, 1.0, service_scv) / H


def exact_erlang_c(servers: int, load: Fraction) -> Fraction:
    """Erlang C from its textbook sum, in exact rational arithmetic."""
    terms = [load ** k / math.factorial(k) for k in range(servers)]
    top = load ** servers / math.factorial(servers) * servers / (servers - load)
    return top / (sum(terms) + top)


# ---- closed forms ------------------------------------------------------------------


@pytest.mark.parametrize("rho", [0.1, 0.5, 0.9, 0.99])
def test_one_server_erlang_c_is_the_utilisation(rho):
    assert q.erlang_c(1, rho) == pytest.approx(rho, rel=1e-12)


@pytest.mark.parametrize("rho", [0.1, 0.5, 0.9])
def test_two_servers_erlang_c_closed_form(rho):
    assert q.erlang_c(2, 2 * rho) == pytest.approx(2 * rho ** 2 / (1 + rho), rel=1e-12)


@pytest.mark.parametrize("servers, load", [(3, Fraction(2)), (10, Fraction(8)), (16, Fraction(76, 5)),
                                           (40, Fraction(39))])
def test_erlang_c_matches_the_exact_sum(servers, load):
    assert q.erlang_c(servers, float(load)) == pytest.approx(float(exact_erlang_c(servers, load)), rel=1e-12)


def test_erlang_b_one_server():
    assert q.erlang_b(1, 3.0) == pytest.approx(3 / 4, rel=1e-12)


def test_mm1_mean_wait_is_rho_s_over_one_minus_rho():
    assert q.mm1_mean_wait_s(0.95 / H, H) / H == pytest.approx(0.95 / 0.05, rel=1e-12)


def test_mmc_tail_at_zero_is_the_chance_of_waiting():
    assert q.mmc_wait_tail(0.0, 5 / H, 0.5 * H, 4) == pytest.approx(q.erlang_c(4, 2.5), rel=1e-12)


def test_mmc_tail_decays_at_c_over_s_minus_lambda():
    lam, s, c, t = 5 / H, 0.5 * H, 6, 600.0
    assert q.mmc_wait_tail(t, lam, s, c) == pytest.approx(q.erlang_c(c, 2.5) * math.exp(-(c / s - lam) * t))


def test_percentile_inverts_the_tail():
    lam, s, c = 0.9 * 8 / H, H, 8
    t99 = q.ggc_wait_percentile_s(0.99, lam, s, c, 1.0, 2.25)
    assert q.ggc_wait_tail(t99, lam, s, c, 1.0, 2.25) == pytest.approx(0.01, rel=1e-9)


def test_percentile_is_zero_when_most_jobs_never_wait():
    assert q.ggc_wait_percentile_s(0.5, 1 / H, H, 8) == 0.0


def test_allen_cunneen_is_exact_for_mmc_and_halves_for_deterministic_service():
    assert q.ggc_mean_wait_s(3 / H, H, 4) == q.mmc_mean_wait_s(3 / H, H, 4)
    assert q.ggc_mean_wait_s(3 / H, H, 4, 1.0, 0.0) == pytest.approx(q.mmc_mean_wait_s(3 / H, H, 4) / 2)


def test_littles_law_queue_length():
    assert q.mean_queue_length(2.0, 3.0) == 6.0


# ---- edges: unstable, empty, huge -------------------------------------------------------


def test_unstable_queue_waits_forever_and_always_waits():
    assert q.mmc_mean_wait_s(4.5 / H, H, 4) == math.inf
    assert q.ggc_wait_tail(1e9, 4.5 / H, H, 4) == 1.0
    assert q.ggc_wait_percentile_s(0.5, 4.5 / H, H, 4) == math.inf
    assert q.erlang_c(4, 4.0) == 1.0


def test_no_servers_and_no_work():
    assert q.mmc_mean_wait_s(0.0, H, 0) == 0.0
    assert q.utilization(0.0, H, 0) == 0.0
    assert q.utilization(1.0, H, 0) == math.inf
    assert q.mmc_mean_wait_s(1 / H, H, 0) == math.inf


def test_idle_queue_never_waits():
    assert q.erlang_c(8, 0.0) == 0.0
    assert q.mmc_wait_tail(0.0, 0.0, H, 8) == 0.0


@pytest.mark.parametrize("servers", [1024, 5000, 20000])
def test_erlang_c_is_stable_for_thousands_of_servers(servers):
    value = q.erlang_c(servers, 0.98 * servers)
    assert 0 < value < 1 and math.isfinite(value)
    assert 0 <= q.erlang_c(servers, 0.5 * servers) < 1e-10


def test_bad_inputs_name_the_value():
    with pytest.raises(ValueError, match="servers must be a whole number"):
        q.erlang_c(2.5, 1.0)
    with pytest.raises(ValueError, match="quantile must be in"):
        q.ggc_wait_percentile_s(1.0, 1 / H, H, 2)
    with pytest.raises(ValueError, match="squared coefficients"):
        q.allen_cunneen_factor(-1.0, 1.0)


# ---- handbook/labs/v2_08.md §4 golden vectors ------------------------------------------------


def test_v2_08_golden_act1_scenario_c16_rho095():
    assert q.erlang_c(16, 16 * 0.95) == pytest.approx(0.7802, abs=5e-5)
    assert wait_h(16, 0.95, 2.0, 2.25) == pytest.approx(3.1695, abs=5e-5)


def test_v2_08_golden_more_gpus_c20_rho076():
    assert wait_h(20, 0.76, 2.0, 2.25) == pytest.approx(0.1199, abs=5e-5)


def test_v2_08_golden_small_jobs_c128():
    assert wait_h(128, 0.95, 1.0, 1.0) == pytest.approx(0.0715, abs=5e-5)


def test_v2_08_golden_largest_rho_for_half_hour_wait():
    assert q.max_utilization_for_wait(16, 2 * H, 0.5 * H, 1.0, 2.25) == pytest.approx(0.8378, abs=5e-5)


def test_v2_08_golden_interactive_pools():
    assert q.mmc_wait_tail(300.0, 5 / H, 0.5 * H, 4) == pytest.approx(0.2491, abs=5e-5)
    assert q.mmc_wait_tail(300.0, 5 / H, 0.5 * H, 8) == pytest.approx(0.0018, abs=5e-5)


def test_v2_08_golden_training_pool():
    lam = 3 / 24 / H
    assert q.mmc_mean_wait_s(lam, 18 * H, 3) / H == pytest.approx(13.63, abs=5e-3)
    assert q.mmc_wait_tail(48 * H, lam, 18 * H, 3) == pytest.approx(0.0768, abs=5e-5)


def test_v2_08_golden_search_pool():
    assert q.mmc_mean_wait_s(20 / 24 / H, 2 * H, 4) / H == pytest.approx(0.0878, abs=5e-5)


def test_min_servers_for_tail_finds_the_first_passing_pool():
    c = q.min_servers_for_tail(5 / H, 0.5 * H, 300.0, 0.05)
    assert q.mmc_wait_tail(300.0, 5 / H, 0.5 * H, c) <= 0.05 < q.mmc_wait_tail(300.0, 5 / H, 0.5 * H, c - 1)


# ---- a published figure --------------------------------------------------------------


def test_erlang_b_matches_a_published_calculator():
    """erlang.com calculator manual, 'How much traffic?': 15 lines at 1 % blocking carry 8.108 erlangs
    (quoted to 3 decimals, so B is 1 % to about 1e-4)."""
    assert q.erlang_b(15, 8.108) == pytest.approx(0.01, abs=1e-4)


# ---- a seeded simulation ----------------------------------------------------------------


def simulated_mmc_wait(arrival: float, service: float, servers: int, jobs: int, seed: int) -> float:
    """FIFO M/M/c: each job takes the earliest free server (numpy-free, fixed seed)."""
    rng = random.Random(seed)
    free = [0.0] * servers
    now = total = 0.0
    warmup = jobs // 10
    for n in range(jobs):
        now += rng.expovariate(arrival)
        start = max(now, heapq.heappop(free))
        heapq.heappush(free, start + rng.expovariate(1 / service))
        if n >= warmup:
            total += start - now
    return total / (jobs - warmup)


def test_simulated_mmc_mean_wait_matches_erlang_c():
    lam, s, c = 3.4, 1.0, 4  # rho = 0.85
    simulated = simulated_mmc_wait(lam, s, c, 200_000, seed=8)
    assert simulated == pytest.approx(q.mmc_mean_wait_s(lam, s, c), rel=0.06)


# ---- Pool: gangs on a pool of GPUs -------------------------------------------------------


def test_pool_strands_units_that_do_not_make_a_whole_slot():
    pool = q.Pool(896, 256, 3 / 86400, 18 * H)
    assert pool.slots == 3 and pool.rho == pytest.approx(0.75)
    assert pool.mean_wait_s() == q.mmc_mean_wait_s(3 / 86400, 18 * H, 3)
    assert pool.wait_tail(48 * H) == pytest.approx(0.0768, abs=5e-5)


def test_pool_with_no_slots_is_unstable():
    pool = q.Pool(16, 32, 1 / H, H)
    assert pool.slots == 0 and not pool.stable and pool.wait_tail(0.0) == 1.0
    assert pool.mean_wait_s() == math.inf and pool.p_wait == 1.0


def test_pool_percentile_uses_its_variability():
    pool = q.Pool(1024, 64, 0.95 * 16 / (2 * H), 2 * H, service_scv=2.25)
    assert pool.wait_percentile_s(0.9) == q.ggc_wait_percentile_s(0.9, pool.arrival_per_s, 2 * H, 16, 1.0, 2.25)
    assert pool.mean_wait_s() / H == pytest.approx(3.1695, abs=5e-5)


# ---- overload and retries (handbook/labs/v2_12.md §2 Act II, handbook/labs/v2_12.md §4 golden vectors)
# ------------------


def test_section4_storm_collapse_time_at_defaults_and_mild_overload():
    assert q.fifo_collapse_time_s(1.5, 2.0) == pytest.approx(4.0, rel=1e-12)
    assert q.fifo_collapse_time_s(1.1, 2.0) == pytest.approx(20.0, rel=1e-9)
    assert q.fifo_collapse_time_s(1.0, 2.0) == math.inf and q.fifo_collapse_time_s(0.8, 2.0) == math.inf


def test_section4_retry_amplification_16_and_effective_load_24():
    assert q.retry_amplification(3, 2) == 16.0
    assert 1.5 * q.retry_amplification(3, 2) == pytest.approx(24.0)
    assert q.retry_amplification(3, 1) == 4.0  # handbook/labs/v2_12.md §2: 3 retries put up to 4×, not 3×, on the DB
    assert q.retry_amplification(3, 3) == 64.0 and q.retry_amplification(0, 3) == 1.0


def test_section4_circuit_breaker_goodput_and_load():
    assert q.shed_served_fraction(1.5) == pytest.approx(0.667, abs=5e-4)
    assert 1.5 * (1 + 0.10) == pytest.approx(1.65)
    assert q.shed_served_fraction(0.7) == 1.0


def test_overload_inputs_are_checked():
    with pytest.raises(ValueError):
        q.fifo_collapse_time_s(1.5, 0.0)
    with pytest.raises(ValueError):
        q.retry_amplification(-1, 2)


def test_fluid_collapse_time_matches_a_simulated_fifo_queue():
    """A deterministic FIFO server at rate μ fed at x·μ: the first request whose wait passes T_o."""
    mu, x, timeout = 100.0, 1.5, 2.0
    arrival_gap, service = 1 / (x * mu), 1 / mu
    free_at, t = 0.0, 0.0
    while True:
        start = max(t, free_at)
        if start - t > timeout:
            break
        free_at = start + service
        t += arrival_gap
    assert t == pytest.approx(q.fifo_collapse_time_s(x, timeout), rel=0.01)


def test_section4_overload_model_storm_and_breaker():
    """handbook/labs/v2_12.md §4: storm at defaults (t_c 4 s, 16×, 24μ, autoscaler at 35 s too late); breaker: 0.667,
    1.65μ."""
    storm = q.Overload(1.5, 2.0, 3, 2, False, 0.10)
    assert storm.t_collapse_s == pytest.approx(4.0) and storm.amplification == 16.0
    assert not storm.rescued(35.0) and storm.goodput_frac(35.0) == 0.0 and storm.load(35.0) == pytest.approx(24.0)
    assert storm.rescued(3.0) and storm.load(3.0) == pytest.approx(1.5)
    assert storm.goodput_frac(3.0) == pytest.approx(1 / 1.5)  # at its lowest: capacity before help arrives
    breaker = q.Overload(1.5, 2.0, 3, 2, True, 0.10)
    assert breaker.t_collapse_s == math.inf and not breaker.rescued(0.0)
    assert breaker.goodput_frac(35.0) == pytest.approx(0.667, abs=5e-4) and breaker.load(35.0) == pytest.approx(1.65)


def test_shedding_goodput_recovers_when_capacity_arrives():
    """With shedding, goodput stayed at 1/x after the autoscaler arrived at
    35 s, while the same autoscaler restored 100 % to a rescued queue. A tier that sheds is still
    alive when capacity arrives, so it answers all of the demand from then on."""
    breaker = q.Overload(1.5, 2.0, 3, 2, True, 0.10)
    assert breaker.goodput_at(34.9, 35.0) == pytest.approx(1 / 1.5) and breaker.goodput_at(35.0, 35.0) == 1.0
    assert breaker.goodput_at(59.0, math.inf) == pytest.approx(1 / 1.5)  # no capacity ever: 1/x throughout
    storm = q.Overload(1.5, 2.0, 3, 2, False, 0.10)
    assert storm.goodput_at(5.9, 35.0) == pytest.approx(1 / 1.5) and storm.goodput_at(6.0, 35.0) == 0.0
    assert storm.goodput_at(40.0, 35.0) == 0.0  # after the collapse the retries swamp the new pods
    mild = q.Overload(1.1, 5.0, 3, 2, False, 0.10)  # collapses at 50 s: the autoscaler at 35 s is in time
    assert mild.goodput_at(35.0, 35.0) == 1.0 and mild.goodput_frac(35.0) == pytest.approx(1 / 1.1)


def _fifo_worst_wait_s(x: float, lag_s: float, horizon_s: float = 60.0, mu: float = 200.0) -> float:
    """One FIFO queue of unit jobs arriving evenly at x·μ, served at μ until ``lag_s``, then at x·μ."""
    free_at = worst = 0.0
    for i in range(int(horizon_s * x * mu)):
        arrival = i / (x * mu)
        start = max(arrival, free_at)
        free_at = start + 1 / (mu if start < lag_s else x * mu)
        worst = max(worst, free_at - arrival)
    return worst


def test_capacity_in_time_is_judged_at_the_first_timeout_not_at_t_c():
    """Review of V2-12: capacity that matches demand serves the shared FIFO queue at x·μ, so the
    longest wait is lag·(x − 1)/x (11.67 s for the autoscaler's 35 s at x = 1.5), not the 17.5 s
    the backlog would take at the old capacity. Nothing times out if the capacity arrives before
    the first request gives up, at t_c + T_o = x·t_c (6 s at the defaults), so a 12 s timeout
    (t_c = 24 s, before the pods) is already enough. Checked against a discrete FIFO simulation."""
    assert _fifo_worst_wait_s(1.5, 35.0) == pytest.approx(35.0 * 0.5 / 1.5, rel=2e-3)
    assert q.Overload(1.5, 12.0, 3, 2, False, 0.10).rescued(35.0)
    assert not q.Overload(1.5, 11.5, 3, 2, False, 0.10).rescued(35.0)
    storm = q.Overload(1.5, 2.0, 3, 2, False, 0.10)
    assert storm.t_late_s == pytest.approx(6.0) and storm.rescued(5.9) and not storm.rescued(6.1)
    assert _fifo_worst_wait_s(1.5, 5.9, horizon_s=20.0) < 2.0 < _fifo_worst_wait_s(1.5, 6.1, horizon_s=20.0)


# ---- V1-13 The Tail Latency Trap: time in system (handbook/labs/v1_13.md §4) ----------------


def test_v1_13_section4_mm1_lambda78_mu100():
    """handbook/labs/v1_13.md §4: M/M/1 λ = 78, μ = 100: W 45.455 ms, P99 209.33 ms, L 3.545, P(T > 100 ms) 0.1108."""
    w = q.mm1_sojourn_mean_s(78, 0.01)
    assert w * 1e3 == pytest.approx(45.455, abs=5e-4)
    assert q.mm1_sojourn_percentile_s(0.99, 78, 0.01) * 1e3 == pytest.approx(209.33, abs=5e-3)
    assert q.mean_queue_length(78, w) == pytest.approx(3.545, abs=5e-4)
    assert q.mm1_sojourn_exceed(0.1, 78, 0.01) == pytest.approx(0.1108, abs=5e-5)


def test_v1_13_section4_mm1_lambda800_mu1000():
    assert q.mm1_sojourn_mean_s(800, 1e-3) * 1e3 == pytest.approx(5.0, rel=1e-12)
    assert q.mm1_sojourn_percentile_s(0.99, 800, 1e-3) * 1e3 == pytest.approx(23.03, abs=5e-3)


def test_v1_13_mm1_p99_is_ln100_means_at_every_load():
    """handbook/labs/v1_13.md §5: P99 ÷ mean = ln 100 whatever ρ; what explodes near ρ = 1 is the mean S/(1 − ρ)."""
    for rho in (0.1, 0.5, 0.78, 0.99):
        ratio = q.mm1_sojourn_percentile_s(0.99, rho * 100, 0.01) / q.mm1_sojourn_mean_s(rho * 100, 0.01)
        assert ratio == pytest.approx(math.log(100), rel=1e-12)


def test_v1_13_section4_mmc_lambda1000_c30():
    """handbook/labs/v1_13.md §4: M/M/c λ = 1,000, c = 30, μ = 40: ρ 0.8333, C 0.2499, P99 116.64 ms."""
    assert q.utilization(1000, 0.025, 30) == pytest.approx(0.8333, abs=5e-5)
    assert q.erlang_c(30, 25) == pytest.approx(0.2499, abs=5e-5)
    assert q.mmc_sojourn_percentile_s(0.99, 1000, 0.025, 30) * 1e3 == pytest.approx(116.64, abs=5e-3)


@pytest.mark.parametrize("servers,p99_ms", [(250, math.inf), (251, 164.00), (260, 116.27), (300, 115.13)])
def test_v1_13_section4_mmc_spike_p99(servers, p99_ms):
    value = q.mmc_sojourn_percentile_s(0.99, 10_000, 0.025, servers) * 1e3
    assert value == p99_ms if math.isinf(p99_ms) else value == pytest.approx(p99_ms, abs=5e-3)


def test_v1_13_section4_minimum_replicas_26_and_251():
    assert q.min_servers_for_sojourn(1000, 0.025, 0.2) == 26
    assert q.min_servers_for_sojourn(10_000, 0.025, 0.2) == 251


def test_v1_13_section2_error6_50ms_service_cannot_meet_200ms():
    """handbook/labs/v1_13.md §5: exponential 50 ms service alone has P99 = 230 ms > 200 ms, at any replica count."""
    assert -math.log(0.01) * 0.05 == pytest.approx(0.2303, abs=5e-5)
    assert q.min_servers_for_sojourn(1000, 0.05, 0.2) is None


def test_v1_13_section4_spike_backlog_and_drain():
    """handbook/labs/v1_13.md §4: c0 = 30, lag 60 s, λ = 10,000: backlog 528,000; drain at c = 300: 264 s."""
    spike = q.Spike(10_000, 0.025, 30, 300, 60)
    assert spike.backlog == pytest.approx(528_000, rel=1e-12)
    assert spike.drain_s == pytest.approx(264, rel=1e-12)
    assert q.utilization(10_000, 0.025, 30) == pytest.approx(8.333, abs=5e-4)


@pytest.mark.parametrize("servers_after,wait_s,drain_s", [(60, 220.0, math.inf), (300, 44.0, 264.0),
                                                         (600, 22.0, 528_000 / 14_000)])
def test_v1_13_the_backlog_is_served_by_the_new_capacity_first_in_first_out(servers_after, wait_s, drain_s):
    """Against the spec's golden row "wait 440 s": first in, first out, a request
    arriving as the lag ends waits for the 528,000 requests ahead of it, and from then on c₁
    replicas serve them, at c₁μ: Q / (c₁μ) = 220 s for the doubled fleet, 22 s at 600 replicas
    (where the backlog drains in 37.7 s), not Q / (c₀μ) = 440 s at any c₁. Source: the FIFO wait
    is the horizontal distance between the cumulative arrival and departure curves (Newell 1982,
    *Applications of Queueing Theory*, 2nd ed., ch. 1-2); a discrete-event FIFO M/M/c simulation
    whose servers go from 30 to 60 at 60 s gives 219 s (3 seeds), 44.1 s at 300 and 22.2 s at 600."""
    spike = q.Spike(10_000, 0.025, 30, servers_after, 60)
    assert spike.lag_end_wait_s == pytest.approx(wait_s, rel=1e-12)
    assert spike.drain_s == pytest.approx(drain_s, rel=1e-12)
    assert spike.backlog * 0.025 / 30 == pytest.approx(440, rel=1e-12)  # the old capacity's figure


def test_v1_13_a_device_that_cannot_scale_serves_its_own_backlog():
    """One NPU (c₀ = c₁ = 1) at 60 requests/s of 25 ms for 60 s: 1,200 queue, the last waits 30 s
    (a discrete-event FIFO M/M/1 simulation gives 29.8 ± 2.5 s over 20 seeds)."""
    spike = q.Spike(60, 0.025, 1, 1, 60)
    assert spike.backlog == pytest.approx(1_200, rel=1e-12)
    assert spike.lag_end_wait_s == pytest.approx(30, rel=1e-12)
    assert math.isinf(spike.drain_s)
    assert q.Spike(30, 0.025, 1, 1, 60).lag_end_wait_s == 0


def test_v1_13_spike_without_enough_capacity_never_drains_and_admission_sheds():
    assert math.isinf(q.Spike(10_000, 0.025, 30, 250, 60).drain_s)
    shed = q.Spike(10_000, 0.025, 30, 200, 60, admit_max_rho=0.9)
    assert shed.backlog == 0 and shed.rho_after == pytest.approx(0.9, rel=1e-12)
    assert shed.shed_after == pytest.approx(1 - 0.9 * 200 * 40 / 10_000, rel=1e-12)
    assert q.Spike(500, 0.025, 30, 30, 60).backlog == 0


def test_v1_13_mmc_sojourn_tail_matches_mm1_and_its_theta_equals_mu_limit():
    for t in (0.0, 0.01, 0.1, 0.5):
        assert q.mmc_sojourn_exceed(t, 78, 0.01, 1) == pytest.approx(q.mm1_sojourn_exceed(t, 78, 0.01), rel=1e-9)
    # θ = cμ − λ = μ: 2 servers, μ = 10, λ = 10
    near = q.mmc_sojourn_exceed(0.2, 10 * (1 + 1e-7), 0.1, 2)
    assert q.mmc_sojourn_exceed(0.2, 10, 0.1, 2) == pytest.approx(near, rel=1e-5)


def test_v1_13_mmc_sojourn_mean_is_the_integral_of_its_tail():
    lam, s, c = 1000, 0.025, 30
    dt = 1e-4
    integral = sum(q.mmc_sojourn_exceed((k + 0.5) * dt, lam, s, c) for k in range(20_000)) * dt
    assert integral == pytest.approx(q.mmc_sojourn_mean_s(lam, s, c), rel=1e-4)


def test_v1_13_mm1_slowest_service_meets_the_target_exactly():
    """handbook/labs/v1_13.md §5: μ > λ + 4.6/SLO is the M/M/1 percentile, not Little's law."""
    slowest = q.mm1_max_service_s(0.99, 60, 0.2)
    assert 1 / slowest == pytest.approx(60 + math.log(100) / 0.2, rel=1e-12)
    assert q.mm1_sojourn_percentile_s(0.99, 60, slowest) == pytest.approx(0.2, rel=1e-12)


def test_v1_13_spike_queue_over_time_peaks_at_the_lag_and_drains():
    spike = q.Spike(10_000, 0.025, 30, 300, 60)
    assert spike.queued_at(0) == 0 and spike.queued_at(30) == pytest.approx(264_000)
    assert spike.queued_at(60) == pytest.approx(spike.backlog)
    assert spike.queued_at(60 + spike.drain_s) == pytest.approx(0, abs=1e-6) and spike.queued_at(1000) == 0
    assert q.Spike(10_000, 0.025, 30, 60, 60).queued_at(120) > spike.backlog


# ---- M/D/1: every service the same length ----------------------------------------------------


@pytest.mark.parametrize("rho,span", [(0.15, 10), (0.6, 25), (0.9, 60)])
def test_md1_wait_starts_at_one_minus_rho_and_its_mean_is_pollaczek_khinchine(rho, span):
    """Erlang's M/D/1 waiting time (Franx 2001, c = 1): P(W = 0) = 1 − ρ, and its mean, the integral of
    P(W > t) out to ``span`` services, is the Pollaczek–Khinchine ρD / (2(1 − ρ)) (Kleinrock 1975, M/G/1
    with no service variance)."""
    service = 0.15
    arrival = rho / service
    assert q.md1_wait_cdf(0.0, arrival, service) == pytest.approx(1 - rho)
    step = service / 5
    mean = sum((1 - q.md1_wait_cdf((k + 0.5) * step, arrival, service)) * step for k in range(span * 5))
    assert mean == pytest.approx(rho * service / (2 * (1 - rho)), rel=1e-4)


def test_md1_wait_below_one_service_is_exponential_growth_and_matches_a_simulation():
    """For t < D, P(W <= t) = (1 − ρ)·e^(λt); a Lindley recursion over 200,000 arrivals agrees."""
    arrival, service = 4.0, 0.1516
    t = 0.0484
    assert q.md1_wait_cdf(t, arrival, service) == pytest.approx((1 - arrival * service) * math.exp(arrival * t))
    rng, wait, waits = random.Random(7), 0.0, []
    for _ in range(200_000):
        wait = max(0.0, wait + service - rng.expovariate(arrival))
        waits.append(wait)
    for t in (0.0484, 0.2, 0.5):
        empirical = sum(w <= t for w in waits) / len(waits)
        assert empirical == pytest.approx(q.md1_wait_cdf(t, arrival, service), abs=0.01)


def test_md1_wait_edges():
    assert q.md1_wait_cdf(-1.0, 1.0, 0.1) == 0.0
    assert q.md1_wait_cdf(0.5, 10.0, 0.1) == 0.0   # rho = 1: no stationary wait
    with pytest.raises(ValueError, match="at most 500"):
        q.md1_wait_cdf(600.0, 1.0, 0.1)


# ---- the sum of two independent waits (V2-10: the prefill queue and the wait for a slot) -------------


def test_two_waits_reduce_to_one_when_the_other_never_waits():
    for t in (0.0, 0.1, 1.0):
        assert q.two_waits_tail(t, (0.3, 2.0), (0.0, 5.0)) == pytest.approx(0.3 * math.exp(-2.0 * t))
    assert q.two_waits_percentile_s(0.99, (0.3, 2.0), (0.0, 5.0)) == pytest.approx(math.log(0.3 / 0.01) / 2.0)
    assert q.two_waits_percentile_s(0.99, (0.005, 2.0), (0.004, 5.0)) == 0.0  # fewer than 1 % wait at all


def test_two_waits_tail_matches_a_monte_carlo_sum_and_its_equal_rate_limit():
    """Ross, Introduction to Probability Models §5.2.4: the hypoexponential tail; sampled independently."""
    rng = random.Random(3)
    first, second = (0.4, 3.0), (0.6, 1.5)
    def draw(p, r):
        return rng.expovariate(r) if rng.random() < p else 0.0
    sums = [draw(*first) + draw(*second) for _ in range(80_000)]
    for t in (0.0, 0.5, 1.0, 2.0):
        assert sum(x > t for x in sums) / len(sums) == pytest.approx(q.two_waits_tail(t, first, second), abs=0.006)
    assert q.two_waits_tail(0.7, (0.5, 2.0), (0.5, 2.0)) == pytest.approx(
        q.two_waits_tail(0.7, (0.5, 2.0), (0.5, 2.0 * (1 + 1e-6))), rel=1e-5)
    t99 = q.two_waits_percentile_s(0.99, first, second)
    assert q.two_waits_tail(t99, first, second) == pytest.approx(0.01, rel=1e-9)


def test_two_waits_inputs_are_checked():
    with pytest.raises(ValueError, match="probability in"):
        q.two_waits_tail(1.0, (1.5, 1.0), (0.1, 1.0))
    with pytest.raises(ValueError, match="wait_s must be >= 0"):
        q.two_waits_tail(-1.0, (0.5, 1.0), (0.1, 1.0))
    with pytest.raises(ValueError, match="quantile"):
        q.two_waits_percentile_s(1.0, (0.5, 1.0), (0.1, 1.0))
