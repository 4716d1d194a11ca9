"""The scenario and the model of V1-13 (The Tail Latency Trap): the M/M/1 server of Act I, the load
spike of Act II (on a replica fleet in the cloud, on one device at the edge and on a phone), and
the sweeps behind its charts. The lab module (``v1_13``) reads like its page; this is its model.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import latency as L
from pylabs.physics import queueing as q
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs (pedagogical defaults, not hardware facts). The edge and
    phone service times and bursts are this scenario's assumptions, shown as such on the page."""

    # Act I: one server at 78 % load; its P99 target is ten service times, so in every context
    # the mean (S / 0.22 = 4.5 S) sits under half the target, as the stakeholder says.
    service_s: float = 0.01            # cloud: one GPU replica, μ = 100 requests/s
    edge_service_s: float = 0.02       # edge: one detection on a Jetson Orin NX (assumed)
    npu_service_s: float = 0.025       # mobile: one inference on the phone's Neural Engine (assumed)
    slo_per_service: float = 10.0      # Act I's P99 target, in service times: 100 ms in the cloud
    rho: float = 0.78
    quantile: float = 0.99
    # Act II: the cloud's launch spike on a fleet that scales after a lag
    replica_service_s: float = 0.025   # μ = 40 requests/s per replica
    replicas: int = 30
    base_rps: float = 1000.0
    spike_rps: float = 10_000.0
    lag_s: float = 60.0                # the new replicas serve a minute after the spike starts
    scaled_replicas: int = 60          # the autoscaler's plan: double the fleet
    # Act II on one device that cannot scale: a burst, looked at a minute in (the same lag_s)
    edge_spike_rps: float = 80.0       # every camera sees motion at opening time (assumed)
    npu_spike_rps: float = 60.0        # a new feature's requests while it runs (assumed)
    act2_slo_s: float = 0.2
    admit_max_rho: float = 0.9         # admission control sheds above 90 % of capacity
    slow_service_s: float = 0.05       # Act II's reflection: the slowest service the planner offers
    rho_high: float = 0.95             # Act I's reflection: the mean near full load
    seed: int = 12
    draws: int = 20_000
    thin: int = 5                      # the histogram shows every 5th sorted draw
    bins: int = 40
    timeline_s: float = 900.0          # the backlog chart's horizon
    table_percentiles: tuple = (50, 90, 99, 99.9)


S = Scenario()
MIN_SLO_HEADROOM = -math.log1p(-S.quantile)   # ln 100: P99 ÷ mean of an exponential


@dataclass(frozen=True)
class Setting:
    """One deployment context's scenario: Act I's server and Act II's spike."""

    service_s: float       # Act I: mean service time of the one server
    spike_rps: float       # Act II: arrivals during the spike
    a2_service_s: float    # Act II: mean service time per request
    fleet: bool            # replicas behind a load balancer, scaled after a lag (else one device)

    @property
    def slo_s(self) -> float:
        return S.slo_per_service * self.service_s


SETTINGS = {
    "cloud": Setting(S.service_s, S.spike_rps, S.replica_service_s, True),
    "edge": Setting(S.edge_service_s, S.edge_spike_rps, S.edge_service_s, False),
    "mobile": Setting(S.npu_service_s, S.npu_spike_rps, S.npu_service_s, False),
}


# ---- Act I · The comfortable mean --------------------------------------------------------------


@dataclass(frozen=True)
class Server:
    """One M/M/1 server: Poisson arrivals at λ, exponential service of mean S."""

    service_s: float
    rho: float

    @property
    def arrival_per_s(self) -> float:
        return self.rho / self.service_s

    @property
    def mean_s(self) -> float:
        return q.mm1_sojourn_mean_s(self.arrival_per_s, self.service_s)

    @property
    def spare_per_s(self) -> float:
        """μ − λ: the capacity left over, whose inverse is the mean time in system."""
        return 1 / self.service_s - self.arrival_per_s

    def percentile_s(self, quantile: float) -> float:
        return q.mm1_sojourn_percentile_s(quantile, self.arrival_per_s, self.service_s)

    def exceed(self, t_s: float) -> float:
        return q.mm1_sojourn_exceed(t_s, self.arrival_per_s, self.service_s)

    def sample_ms(self) -> list[float]:
        """Every ``thin``-th of the seeded draws, sorted, in ms (the histogram's data)."""
        draws = L.sample_mmc_sojourn(self.arrival_per_s, self.service_s, 1, S.seed, S.draws).values
        return [round(v * U.MS_PER_S, 3) for v in draws[S.thin // 2::S.thin]]


def scenario_server(context: str) -> Server:
    return Server(SETTINGS[context].service_s, S.rho)


def act1_truth(context: str) -> float:
    """P99 ÷ mean time in system at the context's scenario (ln 100 for every M/M/1)."""
    srv = scenario_server(context)
    return srv.percentile_s(S.quantile) / srv.mean_s


def exponential_beyond(means: float) -> float:
    """Share of an exponential time beyond ``means`` times its mean: e^(−k)."""
    return math.exp(-means)


def load_curve(service_s: float) -> tuple[list[float], list[Server]]:
    """The load curve's data: one server at 61 loads from 5 % to 99 %."""
    rhos = [0.05 + 0.94 * k / 60 for k in range(61)]
    return rhos, [Server(service_s, r) for r in rhos]


# ---- Act II · The spike --------------------------------------------------------------------------


def spike_of(context: str, arrival_per_s: float, service_s: float, replicas: int, lag_s: float,
             admission: bool) -> q.Spike:
    """The spike in a context: a fleet of ``replicas`` after the lag (cloud), or one device that
    cannot scale, looked at ``S.lag_s`` into the burst (edge, mobile)."""
    admit = S.admit_max_rho if admission else 1.0
    if SETTINGS[context].fleet:
        return q.Spike(arrival_per_s, service_s, S.replicas, replicas, lag_s, admit)
    return q.Spike(arrival_per_s, service_s, 1, 1, S.lag_s, admit)


def scenario_spike(context: str) -> q.Spike:
    setting = SETTINGS[context]
    return spike_of(context, setting.spike_rps, setting.a2_service_s, S.scaled_replicas, S.lag_s, False)


def act2_truth(context: str) -> float:
    return scenario_spike(context).lag_end_wait_s


def min_replicas(service_s: float, arrival_per_s: float, slo_s: float) -> float:
    found = q.min_servers_for_sojourn(arrival_per_s, service_s, slo_s, S.quantile)
    return math.inf if found is None else float(found)


def replica_span(arrival_per_s: float, service_s: float, servers: int) -> tuple[int, int]:
    """The replica counts the curve spans: from the fewest that keep the queue stable to well past ``servers``."""
    load = q.offered_load(arrival_per_s, service_s)
    first = math.floor(load) + 1
    return first, max(first + 40, int(1.6 * first), servers + 10)


@lru_cache(maxsize=32)
def replica_curve(arrival_per_s: float, service_s: float, first: int, last: int,
                  admit_max_rho: float = 1.0) -> tuple[list[int], list[float]]:
    """P99 (ms) at about 60 replica counts from ``first`` to ``last``, each with the rate admission
    control admits at that count (cached: Act I's sliders redraw it)."""
    cs = sorted({round(first + (last - first) * k / 60) for k in range(61)})
    return cs, [q.Spike(arrival_per_s, service_s, S.replicas, c, S.lag_s, admit_max_rho).p99_after_s() * U.MS_PER_S
                for c in cs]


def service_curve(arrival_per_s: float, low_s: float, high_s: float,
                  admit_max_rho: float = 1.0) -> tuple[list[float], list[float]]:
    """One device's P99 (ms) at 46 service times from ``low_s`` to ``high_s``, each with the rate
    admission control admits at that speed; the stable ones only."""
    services = [low_s + (high_s - low_s) * k / 45 for k in range(46)]
    spikes = [q.Spike(arrival_per_s, t, 1, 1, S.lag_s, admit_max_rho) for t in services]
    stable = [sp for sp in spikes if sp.rho_after < 1]
    return [sp.service_s for sp in stable], [sp.p99_after_s() * U.MS_PER_S for sp in stable]


def max_service_s(arrival_per_s: float, slo_s: float, admit_max_rho: float = 1.0) -> float:
    """The slowest mean service at which one device's P99 meets ``slo_s``. Without shedding, M/M/1
    gives μ ≥ λ + ln 100 / SLO. Admission control admits min(λ, ρ_max μ): once a slower service
    would admit less than λ, the device runs at ρ_max and its P99 is ln 100 · S / (1 − ρ_max).
    The P99 rises with S on both sides of that point, so the answer is the one whose side it is on."""
    plain = q.mm1_max_service_s(S.quantile, arrival_per_s, slo_s)
    if admit_max_rho >= 1 or plain * arrival_per_s <= admit_max_rho:
        return plain
    return slo_s * (1 - admit_max_rho) / MIN_SLO_HEADROOM


def backlog_timeline(sp: q.Spike) -> tuple[list[float], list[float]]:
    """The queue during the spike (fluid model) over the chart's horizon, with a point where the lag ends."""
    ts = [S.timeline_s * k / 90 for k in range(91)]
    if 0 < sp.lag_s < S.timeline_s:
        ts = sorted(set(ts) | {sp.lag_s})
    return ts, [sp.queued_at(t) for t in ts]
