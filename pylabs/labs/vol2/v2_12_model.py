"""The scenario and model of V2-12 (The SLO Composition Trap): the stakeholders' inputs, services
composed as a chain or a fan-out, and the retry storm with the fixes the Act II question weighs.
The lab module (``v2_12``) reads like its page; this is its model.

Departures from the spec's model, and why:
* The exponential context summed the chain by Fenton–Wilkinson (P99 268 ms, 7.53e-5 over 500 ms);
  five exponential hops sum to Erlang(5, λ = ln 100 / 0.1 s) exactly: 252.0 ms and 1.40e-6
  (scipy.stats.gamma). For lognormal hops Fenton–Wilkinson stays, labelled an approximation: its
  P99 (324.4 ms) is within 0.3 % of the true 325.1 ms, but its P(> 500 ms) = 1.26e-6, the spec's
  golden vector, is half the true 2.34e-6 (numerical convolution; 2×10⁸ Monte Carlo sums give
  2.2 ± 0.1e-6). The page quotes the sampled P99 and labels the tail share.
* Review: capacity comes in time if it arrives before the first request gives up, at t_c + T_o
  (not at t_c): the pods serve the one FIFO queue at x·μ, so the longest wait is lag·(x − 1)/x,
  and the autoscaler alone needs T_o > 11.67 s, not the 17.5 s the backlog would take at the old
  capacity (a discrete FIFO simulation in tests/physics/test_queueing.py agrees).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pylabs.physics import constants as C
from pylabs.physics import latency as L
from pylabs.physics import queueing as q


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs [A]: the spec's scenario, not published facts."""

    hop_median_s: float = 0.040
    hop_p99_s: float = 0.100
    shards: int = 5
    p_svc: float = 0.01
    page_target: float = 0.01       # the reflection's goal for a fan-out request
    typical_violation: float = 0.5  # past this share of requests over the SLO, slow is the norm ("most")
    seed: int = 12                  # the sampler's fixed seed
    draws: int = 20_000             # samples per composition
    # Act II: the retry storm
    overload: float = 1.5           # demand ÷ capacity
    timeout_s: float = 2.0
    retries: int = 3
    layers: int = 2
    hpa_sync_periods: int = 2       # the autoscaler needs two readings above target [A]
    pod_start_s: float = 5.0        # a warm image on a ready node [A]
    provision_s: float = 600.0      # new GPU nodes ordered mid-incident [A]
    goodput_floor: float = 0.5      # below this share of demand answered: a cascade
    horizon_s: float = 60.0         # the storm chart's first minute
    outage_h: float = 6.0
    step_s: float = 1e-3            # width of a step in the goodput chart
    n_ticks: tuple = (2, 5, 10, 20, 50, 100)
    ms_ticks: tuple = (20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)
    load_ticks: tuple = (1, 2, 5, 10, 20, 50, 100, 200, 500)
    n_axis: tuple = (2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 80, 100)


S = Scenario()
HPA_LAG_S = S.hpa_sync_periods * C.K8S_HPA_SYNC_PERIOD + S.pod_start_s
HOPS = {"lognormal": L.Hop.lognormal(S.hop_median_s, S.hop_p99_s), "exponential": L.Hop.exponential(S.hop_p99_s)}


# ---- Act I · Composing -----------------------------------------------------------------------

@dataclass(frozen=True)
class Composition:
    """N services of one latency shape, combined as a fan-out or a chain."""

    hop: L.Hop
    topology: str
    n: int
    p_svc: float
    common: float

    @property
    def threshold_s(self) -> float:
        return self.hop.quantile(1 - self.p_svc)

    @property
    def slo_s(self) -> float:
        return self.threshold_s if self.topology == "fanout" else self.n * self.threshold_s

    @property
    def violation(self) -> float:
        if self.topology == "fanout":
            return L.fanout_slow_fraction(self.p_svc, self.n, self.common)
        return L.serial_exceed(self.hop, self.n, self.slo_s, self.common)

    @property
    def upstream(self) -> float:
        """The upstream lab's formula, applied whatever the topology."""
        return L.fanout_slow_fraction(self.p_svc, self.n, self.common)

    def sampled(self) -> L.Sampled:
        fn = L.sample_fanout if self.topology == "fanout" else L.sample_serial
        return fn(self.hop, self.n, self.common, S.seed, S.draws)

    def p99_curve(self, n: int) -> float:
        if self.topology == "fanout":
            return L.fanout_quantile_s(self.hop, n, 0.99, self.common)
        return L.serial_quantile_s(self.hop, n, 0.99, self.common)


CHAINS = {name: Composition(h, "serial", S.shards, S.p_svc, 0.0) for name, h in HOPS.items()}
FANOUTS = {name: Composition(h, "fanout", S.shards, S.p_svc, 0.0) for name, h in HOPS.items()}


def act1_truth(context: str) -> float:
    """The chain's end-to-end P99 as the explorer samples it, in the hop shape locked in."""
    return CHAINS[context].sampled().quantile(0.99)


def closed_form(h: L.Hop) -> str:
    """How a chain of these hops is summed in closed form."""
    return "exact Erlang" if h.kind == "exponential" else "Fenton–Wilkinson approximation"


def chain_exact_p99(context: str) -> float:
    """The chain's P99 in closed form: Erlang (exact) for exponential hops, Fenton–Wilkinson
    (an approximation) for lognormal ones."""
    return CHAINS[context].p99_curve(S.shards)


N_AXIS = S.n_axis


# ---- Act II · The retry storm ---------------------------------------------------------------

FIX_LAGS = {"nodes": S.provision_s, "autoscaler": HPA_LAG_S}  # fixes that add capacity, and when
FIX_OF = {"A": "nodes", "B": "autoscaler", "C": "shedding", "D": "alerts"}  # the Act II pick's options


def capacity_lag_s(fixes: tuple[str, ...]) -> float:
    """When the first new capacity arrives (inf: none does; alerts add no capacity)."""
    return min((FIX_LAGS[f] for f in fixes if f in FIX_LAGS), default=math.inf)


def storm_with(fixes: tuple[str, ...], overload: float = S.overload, timeout_s: float = S.timeout_s,
               retries: int = S.retries, layers: int = S.layers,
               budget: float = C.SRE_RETRY_BUDGET_RATIO) -> q.Overload:
    return q.Overload(overload, timeout_s, retries, layers, "shedding" in fixes, budget)


SCENARIO_STORM = storm_with(())


def fix_goodput(letter: str) -> float:
    """The lowest goodput with the pick's option ``letter`` alone, at the scenario's inputs."""
    fixes = (FIX_OF[letter],)
    return storm_with(fixes).goodput_frac(capacity_lag_s(fixes))


def act2_decide() -> str:
    return next(k for k in "ABCD" if fix_goodput(k) >= S.goodput_floor)


def timeout_to_wait_for(lag_s: float, overload: float) -> float:
    """The client timeout above which no request has given up when capacity arrives after ``lag_s``.

    The first request gives up at t_c + T_o = x·T_o/(x − 1); the capacity must come before it:
    T_o > lag·(x − 1)/x. That is also the longest wait, because the enlarged tier serves the one
    FIFO queue at x·μ (the 17.5 s backlog at the old capacity takes 11.67 s at the new one).
    """
    return lag_s * (overload - 1) / overload


def goodput_series(st: q.Overload, lag_s: float, times: list[float]) -> list[float]:
    """Share of demand answered in time at each moment of the first minute."""
    return [st.goodput_at(t, lag_s) for t in times]
