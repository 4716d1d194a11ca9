"""The scenario and model of V2-12 (The SLO Composition Trap): the stakeholders' inputs, services
composed as a fan-out or a chain, and the retry storm with the fixes the Act II question weighs.
The lab module (``v2_12``) reads like its page; this is its model."""

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
    page_target: float = 0.01       # the reflection's goal for the whole page
    reflect_quantile: float = 0.95  # the reflection's option C: each shard promises its P95 instead
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
    hour_s: float = 3600.0
    ms_per_s: float = 1e3           # charts plot milliseconds
    step_s: float = 1e-3            # width of a step in the goodput chart
    n_ticks: tuple = (2, 5, 10, 20, 50, 100)
    ms_ticks: tuple = (20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000)
    load_ticks: tuple = (1, 2, 5, 10, 20, 50, 100, 200, 500)
    n_axis: tuple = (2, 3, 4, 5, 6, 8, 10, 13, 16, 20, 25, 32, 40, 50, 63, 80, 100)


S = Scenario()
HPA_LAG_S = S.hpa_sync_periods * C.K8S_HPA_SYNC_PERIOD + S.pod_start_s
HOPS = {"lognormal": L.Hop.lognormal(S.hop_median_s, S.hop_p99_s), "exponential": L.Hop.exponential(S.hop_p99_s)}


# ---- Act I · The fan-out ------------------------------------------------------------------

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


SHARDS = Composition(HOPS["lognormal"], "fanout", S.shards, S.p_svc, 0.0)
CHAIN = Composition(HOPS["lognormal"], "serial", S.shards, S.p_svc, 0.0)


def act1_truth() -> float:
    return L.fanout_slow_fraction(S.p_svc, S.shards)


N_AXIS = S.n_axis


# ---- Act II · The retry storm ---------------------------------------------------------------

SCENARIO_STORM = q.Overload(S.overload, S.timeout_s, S.retries, S.layers, False, C.SRE_RETRY_BUDGET_RATIO)
FIXES = {  # letter: (the storm after the fix, when its capacity arrives)
    "A": (SCENARIO_STORM, S.provision_s),
    "B": (q.Overload(S.overload, S.timeout_s, S.retries, S.layers, True, C.SRE_RETRY_BUDGET_RATIO), 0.0),
    "C": (SCENARIO_STORM, math.inf),
    "D": (SCENARIO_STORM, HPA_LAG_S),
}


def fix_goodput(letter: str) -> float:
    fixed, lag = FIXES[letter]
    return fixed.goodput_frac(lag)


def act2_decide() -> str:
    return next(k for k in "ABCD" if fix_goodput(k) >= S.goodput_floor)


def goodput_series(st: q.Overload, times: list[float]) -> list[float]:
    """Share of demand answered in time at each moment of the first minute."""
    served = q.shed_served_fraction(st.overload)
    if st.shedding:
        return [served] * len(times)
    return [1.0 if st.rescued(HPA_LAG_S) and t >= HPA_LAG_S else (served if t < st.t_collapse_s else 0.0)
            for t in times]
