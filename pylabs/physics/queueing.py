"""Queueing: how long work waits for one of ``servers`` identical servers.

Every function takes an arrival rate in jobs per second, a mean service time in
seconds and an integer number of servers, and returns seconds or a probability.
The offered load a = λ·S (in erlangs) is the average number of busy servers; the
utilisation is ρ = a / c. A queue is stable only for ρ < 1; beyond that the waits
grow without bound and the functions here return ``math.inf`` (times) or 1.0
(probabilities) instead of a negative or meaningless number.

Erlang C is computed from the Erlang B recursion, which is stable for thousands of
servers (no factorials, no powers that overflow). Allen–Cunneen extends the M/M/c
mean wait to general arrival and service variability with the factor
(C_a² + C_s²)/2; Kingman's formula is its one-server case.

Shared by the labs on cluster scheduling (V2-08), serving (V2-10), SLOs (V2-12)
and tail latency (V1-13).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from decimal import Decimal, localcontext

from pylabs.physics.validators import check


def _check(servers: int, arrival_per_s: float, service_s: float) -> None:
    check(not (servers < 0 or int(servers) != servers), f"servers must be a whole number >= 0, got {servers}")
    check(not (arrival_per_s < 0 or service_s <= 0),
          f"need arrival_per_s >= 0 and service_s > 0, got {arrival_per_s}, {service_s}")


def offered_load(arrival_per_s: float, service_s: float) -> float:
    """a = λ·S, in erlangs (the mean number of busy servers).

    Source: Little's law applied to the servers (Little 1961).
    """
    return arrival_per_s * service_s


def utilization(arrival_per_s: float, service_s: float, servers: int) -> float:
    """ρ = λ·S / c (may exceed 1: then the queue is unstable); 1.0 when there are no servers but work.

    Source: Kleinrock 1975, *Queueing Systems* Vol. 1, ch. 3.
    """
    _check(servers, arrival_per_s, service_s)
    load = offered_load(arrival_per_s, service_s)
    if servers == 0:
        return 0.0 if load == 0 else math.inf
    return load / servers


def erlang_b(servers: int, load_erlangs: float) -> float:
    """Blocking probability of M/M/c/c: B(0) = 1, B(k) = a·B(k−1) / (k + a·B(k−1)).

    Source: the standard Erlang B recursion (Kleinrock 1975, ch. 3, M/M/m/m).
    """
    _check(servers, load_erlangs, 1.0)
    blocking = 1.0
    for k in range(1, int(servers) + 1):
        blocking = load_erlangs * blocking / (k + load_erlangs * blocking)
    return blocking


def erlang_c(servers: int, load_erlangs: float) -> float:
    """P(wait > 0) in M/M/c: C = c·B / (c − a·(1 − B)), with B = Erlang B; 1 when a ≥ c.

    Source: Erlang C from Erlang B (Kleinrock 1975, ch. 3, M/M/m).
    """
    _check(servers, load_erlangs, 1.0)
    if load_erlangs >= servers:
        return 1.0
    if load_erlangs == 0:
        return 0.0
    blocking = erlang_b(servers, load_erlangs)
    return servers * blocking / (servers - load_erlangs * (1.0 - blocking))


def md1_wait_cdf(wait_s: float, arrival_per_s: float, service_s: float) -> float:
    """P(W_q <= t) in M/D/1 (Poisson arrivals, every service exactly D), for λt up to 500:

    (1 − ρ) · Σ_{k=0}^{⌊t/D⌋} [λ(kD − t)]^k / k! · e^{−λ(kD − t)}, ρ = λD; for t < D it is (1 − ρ)·e^{λt}.
    0.0 when ρ ≥ 1 (no stationary wait). The terms alternate in sign and grow like e^{λt}, so the sum
    is taken in decimal arithmetic with enough digits to keep fifteen.
    Source: Erlang 1909, "The theory of probabilities and telephone conversations", as given by
    Franx 2001, Operations Research Letters 29(5) (the M/D/c waiting-time distribution, c = 1).
    """
    _check(1, arrival_per_s, service_s)
    if wait_s < 0:
        return 0.0
    if arrival_per_s * wait_s > 500:
        raise ValueError(f"arrival_per_s * wait_s must be at most 500 (got {arrival_per_s * wait_s:.0f}); "
                         "so far out the wait's tail is below any probability a float holds")
    rho = arrival_per_s * service_s
    if rho >= 1:
        return 0.0
    with localcontext() as ctx:
        ctx.prec = 30 + int(arrival_per_s * wait_s)
        lam, t, d = Decimal(arrival_per_s), Decimal(wait_s), Decimal(service_s)
        total, factorial = Decimal(0), Decimal(1)
        for k in range(int(wait_s // service_s) + 1):
            factorial *= k or 1
            x = lam * (k * d - t)
            total += (x ** k if k else Decimal(1)) / factorial * (-x).exp()
        return min(1.0, max(0.0, float((1 - Decimal(rho)) * total)))


def mm1_mean_wait_s(arrival_per_s: float, service_s: float) -> float:
    """M/M/1 mean wait in queue: W_q = ρ·S / (1 − ρ); inf when ρ ≥ 1.

    Source: Kleinrock 1975, ch. 3.
    """
    return mmc_mean_wait_s(arrival_per_s, service_s, 1)


def mmc_mean_wait_s(arrival_per_s: float, service_s: float, servers: int) -> float:
    """M/M/c mean wait in queue: W_q = C(c, a)·S / (c − a); inf when a ≥ c.

    Source: Kleinrock 1975, ch. 3.
    """
    _check(servers, arrival_per_s, service_s)
    load = offered_load(arrival_per_s, service_s)
    if load >= servers:
        return 0.0 if load == 0 else math.inf
    return erlang_c(servers, load) * service_s / (servers - load)


def allen_cunneen_factor(arrival_scv: float, service_scv: float) -> float:
    """(C_a² + C_s²) / 2: the variability multiplier of a G/G/c queue (1 for M/M/c).

    Source: Allen 1990, *Probability, Statistics, and Queueing Theory*, 2nd ed., queueing chapters.
    """
    if arrival_scv < 0 or service_scv < 0:
        raise ValueError(f"squared coefficients of variation must be >= 0, got {arrival_scv}, {service_scv}")
    return (arrival_scv + service_scv) / 2.0


def ggc_mean_wait_s(arrival_per_s: float, service_s: float, servers: int,
                    arrival_scv: float = 1.0, service_scv: float = 1.0) -> float:
    """Allen–Cunneen G/G/c: W_q ≈ C(c, a)·S / (c − a) · (C_a² + C_s²)/2 (exact for M/M/c).

    Source: Allen 1990 (queueing chapters); with c = 1 it is Kingman's G/G/1 formula (Kingman 1961).
    """
    factor = allen_cunneen_factor(arrival_scv, service_scv)
    wait = mmc_mean_wait_s(arrival_per_s, service_s, servers)
    return wait if math.isinf(wait) or wait == 0 else wait * factor


def ggc_wait_tail(wait_s: float, arrival_per_s: float, service_s: float, servers: int,
                  arrival_scv: float = 1.0, service_scv: float = 1.0) -> float:
    """P(W_q > t) ≈ C(c, a) · exp(−t · C(c, a) / W_q): an exponential wait given that a job waits.

    Exact for M/M/c, where C/W_q = c/S − λ. With other variabilities the mean is Allen–Cunneen's
    and the tail shape is an approximation. 1 for an unstable queue.
    Source: Kleinrock 1975, ch. 3 (M/M/c waiting-time distribution).
    """
    if wait_s < 0:
        raise ValueError(f"wait_s must be >= 0, got {wait_s}")
    mean = ggc_mean_wait_s(arrival_per_s, service_s, servers, arrival_scv, service_scv)
    if math.isinf(mean):
        return 1.0
    waits = erlang_c(servers, offered_load(arrival_per_s, service_s))
    if waits == 0 or mean == 0:
        return 0.0
    return waits * math.exp(-wait_s * waits / mean)


def mmc_wait_tail(wait_s: float, arrival_per_s: float, service_s: float, servers: int) -> float:
    """M/M/c: P(W_q > t) = C(c, a) · exp(−(c/S − λ)·t); 1 when a ≥ c.

    Source: Kleinrock 1975, ch. 3.
    """
    return ggc_wait_tail(wait_s, arrival_per_s, service_s, servers)


def ggc_wait_percentile_s(quantile: float, arrival_per_s: float, service_s: float, servers: int,
                          arrival_scv: float = 1.0, service_scv: float = 1.0) -> float:
    """The q-quantile of the wait: 0 if C ≤ 1 − q, else (W_q / C)·ln(C / (1 − q)); inf if unstable.

    Source: inverse of ``ggc_wait_tail`` (exact for M/M/c; Kleinrock 1975, ch. 3).
    """
    if not 0 < quantile < 1:
        raise ValueError(f"quantile must be in (0, 1), got {quantile}")
    mean = ggc_mean_wait_s(arrival_per_s, service_s, servers, arrival_scv, service_scv)
    if math.isinf(mean):
        return math.inf
    waits = erlang_c(servers, offered_load(arrival_per_s, service_s))
    if waits <= 1 - quantile:
        return 0.0
    return mean / waits * math.log(waits / (1 - quantile))


def two_waits_tail(wait_s: float, first: tuple[float, float], second: tuple[float, float]) -> float:
    """P(W₁ + W₂ > t) for two independent waits, each of the M/M/c form P(W > t) = p·e^{−r·t}
    (zero with probability 1 − p, else exponential with rate r); each wait is given as (p, r).

    p₁(1 − p₂)e^{−r₁t} + p₂(1 − p₁)e^{−r₂t} + p₁p₂·(r₂e^{−r₁t} − r₁e^{−r₂t}) / (r₂ − r₁), the last term
    the tail of a sum of two exponentials (hypoexponential; (1 + r·t)e^{−r·t} when r₁ = r₂).
    Source: Kleinrock 1975, ch. 3 (the M/M/c wait's form); Ross, Introduction to Probability Models,
    §5.2.4 (the hypoexponential distribution).
    """
    if wait_s < 0:
        raise ValueError(f"wait_s must be >= 0, got {wait_s}")
    (p1, r1), (p2, r2) = first, second
    for p, r in (first, second):
        if not (0 <= p <= 1 and r > 0):
            raise ValueError(f"each wait is (probability in [0, 1], rate > 0); got ({p}, {r})")
    e1, e2 = math.exp(-r1 * wait_s), math.exp(-r2 * wait_s)
    if abs(r2 - r1) <= 1e-9 * max(r1, r2):
        both = (1 + r1 * wait_s) * e1
    else:
        both = (r2 * e1 - r1 * e2) / (r2 - r1)
    return min(1.0, p1 * (1 - p2) * e1 + p2 * (1 - p1) * e2 + p1 * p2 * both)


def two_waits_percentile_s(quantile: float, first: tuple[float, float], second: tuple[float, float]) -> float:
    """The q-quantile of W₁ + W₂ (``two_waits_tail``), by bisection: 0 when fewer than 1 − q wait at all.

    Source: inverse of ``two_waits_tail``.
    """
    if not 0 < quantile < 1:
        raise ValueError(f"quantile must be in (0, 1), got {quantile}")
    miss = 1 - quantile
    if two_waits_tail(0.0, first, second) <= miss:
        return 0.0
    high = 1.0 / min(first[1], second[1])
    while two_waits_tail(high, first, second) > miss:
        high *= 2
    low = 0.0
    for _ in range(200):
        mid = (low + high) / 2
        low, high = (mid, high) if two_waits_tail(mid, first, second) > miss else (low, mid)
        if high - low <= 1e-12 * high:
            break
    return high


def mean_queue_length(arrival_per_s: float, mean_wait_s: float) -> float:
    """L_q = λ·W_q (jobs waiting on average).

    Source: Little 1961.
    """
    return arrival_per_s * mean_wait_s


def max_utilization_for_wait(servers: int, service_s: float, target_wait_s: float,
                             arrival_scv: float = 1.0, service_scv: float = 1.0) -> float:
    """The largest ρ at which the G/G/c mean wait stays below ``target_wait_s`` (bisection).

    W_q rises monotonically with ρ, from 0 at ρ = 0 to infinity at ρ = 1.
    Source: Allen–Cunneen mean wait (Allen 1990), inverted numerically.
    """
    if servers < 1 or target_wait_s < 0:
        raise ValueError(f"need servers >= 1 and target_wait_s >= 0, got {servers}, {target_wait_s}")
    low, high = 0.0, 1.0
    for _ in range(100):
        mid = (low + high) / 2
        wait = ggc_mean_wait_s(mid * servers / service_s, service_s, servers, arrival_scv, service_scv)
        low, high = (mid, high) if wait < target_wait_s else (low, mid)
    return low


def min_servers_for_tail(arrival_per_s: float, service_s: float, wait_s: float, max_probability: float,
                         arrival_scv: float = 1.0, service_scv: float = 1.0, limit: int = 1_000_000) -> int:
    """The fewest servers c with P(W_q > t) ≤ p (search upwards from the first stable c).

    Source: ``ggc_wait_tail`` (Kleinrock 1975, ch. 3), the usual Erlang C staffing rule.
    """
    if not 0 < max_probability <= 1:
        raise ValueError(f"max_probability must be in (0, 1], got {max_probability}")
    servers = max(1, math.floor(offered_load(arrival_per_s, service_s)) + 1)
    while servers <= limit:
        if ggc_wait_tail(wait_s, arrival_per_s, service_s, servers, arrival_scv, service_scv) <= max_probability:
            return servers
        servers += 1
    raise ValueError(f"no server count up to {limit} meets P(W > {wait_s} s) <= {max_probability}")


@dataclass(frozen=True)
class Pool:
    """A pool of ``units`` (GPUs, replicas) serving jobs that each hold ``job_units`` at once:
    a G/G/c queue with c = ⌊units / job_units⌋ slots (M/M/c when both C² are 1).

    Units left over after the last whole slot are stranded: a gang cannot use them.
    """

    units: float
    job_units: float
    arrival_per_s: float
    service_s: float
    service_scv: float = 1.0
    arrival_scv: float = 1.0

    @property
    def slots(self) -> int:
        return int(max(0.0, self.units) // self.job_units)

    @property
    def load_erlangs(self) -> float:
        return offered_load(self.arrival_per_s, self.service_s)

    @property
    def rho(self) -> float:
        return utilization(self.arrival_per_s, self.service_s, self.slots)

    @property
    def stable(self) -> bool:
        return self.rho < 1

    @property
    def p_wait(self) -> float:
        return erlang_c(self.slots, self.load_erlangs)

    def mean_wait_s(self) -> float:
        return ggc_mean_wait_s(self.arrival_per_s, self.service_s, self.slots, self.arrival_scv, self.service_scv)

    def wait_tail(self, wait_s: float) -> float:
        return ggc_wait_tail(wait_s, self.arrival_per_s, self.service_s, self.slots,
                             self.arrival_scv, self.service_scv)

    def wait_percentile_s(self, quantile: float) -> float:
        return ggc_wait_percentile_s(quantile, self.arrival_per_s, self.service_s, self.slots,
                                     self.arrival_scv, self.service_scv)


# ---- overload: a FIFO queue past capacity, and retries (V2-12) ----------------------------


def fifo_collapse_time_s(overload: float, timeout_s: float) -> float:
    """When an overloaded FIFO queue's delay passes the clients' timeout: T_o / (x − 1).

    Arrivals at x times the service rate pile up at (x − 1)·μ per second, so the queueing
    delay grows as (x − 1)·t; past T_o every answer arrives after its client gave up, and
    goodput falls to zero. Infinite for x ≤ 1 (the queue never grows).
    Source: fluid approximation of a deterministic overload (Kleinrock 1975, ch. 2).
    """
    if timeout_s <= 0:
        raise ValueError(f"timeout must be positive, got {timeout_s}")
    return math.inf if overload <= 1 else timeout_s / (overload - 1)


def retry_amplification(retries: int, layers: int) -> float:
    """Worst-case attempts per user request when ``layers`` stacked callers each retry ``retries``
    times: (1 + r)^k (each layer makes up to 1 + r attempts at the layer below).
    Source: Beyer et al. 2016, *Site Reliability Engineering*, ch. 22 (retry amplification).
    """
    if retries < 0 or layers < 0:
        raise ValueError(f"need retries, layers >= 0, got {retries}, {layers}")
    return float((1 + retries) ** layers)


def shed_served_fraction(overload: float) -> float:
    """Share of demand a server that sheds load at its queue limit answers in time: min(1, 1/x).
    Source: with a bounded queue the server stays busy at rate μ and every answer is fresh."""
    return min(1.0, 1.0 / overload)


@dataclass(frozen=True)
class Overload:
    """A FIFO tier fed ``overload`` × its capacity, with retrying callers; the fluid model of V2-12.

    Goodput is the share of demand answered within the timeout, moment by moment. Without
    shedding the tier answers its capacity, 1/x of demand. A request arriving at t waits
    (x − 1)·t, so from t_c = T_o/(x − 1) on, arrivals would wait longer than the timeout; the first
    of them gives up, and is retried, at t_c + T_o = x·t_c, and from then on every answer is late
    and goodput is zero, with up to (1 + r)^k attempts per request. Capacity that matches demand
    restores goodput to 1 only if it arrives before t_c + T_o (``lag_s``): it then serves the one
    FIFO queue at x·μ, so no request waits more than lag·(x − 1)/x, which is under T_o. After that
    the retries offer x(1 + r)^k, more than the added capacity, and the overload sustains itself
    (a metastable failure, Bronson et al. 2021). With shedding (a bounded queue, circuit breakers,
    a retry budget b) the tier answers 1/x of demand and sees x(1 + b) until capacity arrives,
    then all of it.
    Source: ``fifo_collapse_time_s``, ``retry_amplification``, ``shed_served_fraction``.
    """

    overload: float
    timeout_s: float
    retries: int
    layers: int
    shedding: bool
    budget: float

    @property
    def t_collapse_s(self) -> float:
        return math.inf if self.shedding else fifo_collapse_time_s(self.overload, self.timeout_s)

    @property
    def amplification(self) -> float:
        return retry_amplification(self.retries, self.layers)

    @property
    def t_late_s(self) -> float:
        """When the first request gives up and is retried (the first late answer): t_c + T_o = x·t_c."""
        return self.t_collapse_s + self.timeout_s

    def rescued(self, lag_s: float) -> bool:
        """Capacity arriving after ``lag_s`` comes before any request has waited past the timeout:
        the enlarged tier serves the shared FIFO queue, so the longest wait is lag·(x − 1)/x < T_o."""
        return not self.shedding and self.t_late_s > lag_s

    def recovers(self, lag_s: float) -> bool:
        """Does capacity arriving after ``lag_s`` bring goodput back to 1?"""
        return not math.isinf(lag_s) and (self.shedding or self.rescued(lag_s))

    def goodput_at(self, t_s: float, lag_s: float) -> float:
        """Share of demand answered in time at ``t_s`` seconds into the overload."""
        if t_s >= lag_s and self.recovers(lag_s):
            return 1.0
        if self.shedding or t_s < self.t_late_s:
            return shed_served_fraction(self.overload)
        return 0.0

    def goodput_frac(self, lag_s: float) -> float:
        """The lowest share of demand answered in time while the overload lasts."""
        if lag_s <= 0 and self.recovers(lag_s):
            return 1.0
        return shed_served_fraction(self.overload) if self.shedding or self.rescued(lag_s) else 0.0

    def load(self, lag_s: float) -> float:
        """Offered load at the tier at its worst, in multiples of its capacity."""
        if self.shedding:
            return self.overload * (1 + self.budget)
        return self.overload if self.rescued(lag_s) else self.overload * self.amplification


# ---- V1-13 The Tail Latency Trap: the time a request spends in the system ---------------------


def mm1_sojourn_mean_s(arrival_per_s: float, service_s: float) -> float:
    """M/M/1 mean time in system (wait + service): W = 1 / (μ − λ); inf when λ ≥ μ.

    Source: Kleinrock 1975, ch. 3 (M/M/1 response time).
    """
    _check(1, arrival_per_s, service_s)
    spare = 1.0 / service_s - arrival_per_s
    return math.inf if spare <= 0 else 1.0 / spare


def mm1_sojourn_exceed(t_s: float, arrival_per_s: float, service_s: float) -> float:
    """M/M/1: P(T > t) = e^{−(μ − λ)·t} (the time in system is exponential); 1 when λ ≥ μ.

    Source: Kleinrock 1975, ch. 3 (M/M/1 response-time distribution).
    """
    mean = mm1_sojourn_mean_s(arrival_per_s, service_s)
    return 1.0 if math.isinf(mean) else math.exp(-max(0.0, t_s) / mean)


def mm1_sojourn_percentile_s(quantile: float, arrival_per_s: float, service_s: float) -> float:
    """M/M/1: T_q = ln(1 / (1 − q)) / (μ − λ), ln 100 ≈ 4.6 mean times at q = 0.99; inf when λ ≥ μ.

    Source: inverse of ``mm1_sojourn_exceed`` (Kleinrock 1975, ch. 3).
    """
    if not 0 < quantile < 1:
        raise ValueError(f"quantile must be in (0, 1), got {quantile}")
    return -math.log1p(-quantile) * mm1_sojourn_mean_s(arrival_per_s, service_s)


def _sojourn_tail(t_s: float, mu: float, theta: float, waits: float) -> float:
    """(1 − C)e^{−μt} + C·(θe^{−μt} − μe^{−θt}) / (θ − μ), with its θ = μ limit C·e^{−μt}(1 + μt)."""
    if abs(theta - mu) < 1e-9 * mu:
        queued = math.exp(-mu * t_s) * (1 + mu * t_s)
    else:
        queued = (theta * math.exp(-mu * t_s) - mu * math.exp(-theta * t_s)) / (theta - mu)
    return (1 - waits) * math.exp(-mu * t_s) + waits * queued


def mmc_sojourn_exceed(t_s: float, arrival_per_s: float, service_s: float, servers: int) -> float:
    """M/M/c: P(T > t) = (1 − C)e^{−μt} + C·(θe^{−μt} − μe^{−θt}) / (θ − μ), θ = cμ − λ; 1 if unstable.

    The wait is 0 with probability 1 − C and exponential at rate θ otherwise; the service is
    exponential at rate μ; the sum's tail is the convolution (at θ = μ: C·e^{−μt}(1 + μt)).
    Source: Kleinrock 1975, ch. 3 (M/M/m waiting-time distribution) convolved with the service time.
    """
    _check(servers, arrival_per_s, service_s)
    mu = 1.0 / service_s
    theta = servers * mu - arrival_per_s
    if servers == 0 or theta <= 0:
        return 1.0
    waits = erlang_c(servers, offered_load(arrival_per_s, service_s))
    return _sojourn_tail(max(0.0, t_s), mu, theta, waits)


def mm1_max_service_s(quantile: float, arrival_per_s: float, target_s: float) -> float:
    """The slowest mean service with which one M/M/1 server keeps its q-quantile time in system
    within ``target_s``: ln(1/(1−q)) / (1/S − λ) ≤ T, so S ≤ 1 / (λ + ln(1/(1−q)) / T).

    Source: inverse of ``mm1_sojourn_percentile_s`` (Kleinrock 1975, ch. 3).
    """
    if not 0 < quantile < 1 or target_s <= 0 or arrival_per_s < 0:
        raise ValueError(f"need 0 < quantile < 1, target_s > 0, arrival_per_s >= 0; got {quantile}, "
                         f"{target_s}, {arrival_per_s}")
    return 1.0 / (arrival_per_s - math.log1p(-quantile) / target_s)


def mmc_sojourn_mean_s(arrival_per_s: float, service_s: float, servers: int) -> float:
    """M/M/c mean time in system: W = W_q + S; inf when unstable.

    Source: Kleinrock 1975, ch. 3.
    """
    return mmc_mean_wait_s(arrival_per_s, service_s, servers) + service_s


def mmc_sojourn_percentile_s(quantile: float, arrival_per_s: float, service_s: float, servers: int) -> float:
    """The q-quantile of the M/M/c time in system: ``mmc_sojourn_exceed`` = 1 − q solved by bisection;
    inf when unstable. With one server it equals ``mm1_sojourn_percentile_s``.

    Source: inverse of ``mmc_sojourn_exceed`` (Kleinrock 1975, ch. 3).
    """
    if not 0 < quantile < 1:
        raise ValueError(f"quantile must be in (0, 1), got {quantile}")
    _check(servers, arrival_per_s, service_s)
    mu = 1.0 / service_s
    theta = servers * mu - arrival_per_s
    if servers == 0 or theta <= 0:
        return math.inf
    waits = erlang_c(servers, offered_load(arrival_per_s, service_s))
    target = 1 - quantile
    high = service_s
    while _sojourn_tail(high, mu, theta, waits) > target:
        high *= 2
    low = 0.0
    for _ in range(64):
        mid = (low + high) / 2
        low, high = (mid, high) if _sojourn_tail(mid, mu, theta, waits) > target else (low, mid)
    return (low + high) / 2


def min_servers_for_sojourn(arrival_per_s: float, service_s: float, target_s: float, quantile: float = 0.99,
                            limit: int = 1_000_000) -> int | None:
    """The fewest servers whose q-quantile time in system is at most ``target_s``; None when no
    number of servers can do it (the service time alone is longer: its q-quantile is −ln(1−q)·S).

    Source: ``mmc_sojourn_percentile_s``, searched upwards from the first stable c.
    """
    if -math.log1p(-quantile) * service_s > target_s:
        return None
    servers = max(1, math.floor(offered_load(arrival_per_s, service_s)) + 1)
    while servers <= limit:
        if mmc_sojourn_percentile_s(quantile, arrival_per_s, service_s, servers) <= target_s:
            return servers
        servers += 1
    return None


@dataclass(frozen=True)
class Spike:
    """A load spike on a fleet that scales reactively: the fluid model of V1-13.

    ``servers_before`` serve until the new capacity arrives after ``lag_s``; meanwhile work beyond
    their capacity piles up: Q = max(0, λ − c₀μ)·lag. First in, first out, a request arriving as
    the lag ends waits for the Q ahead of it, which the new capacity serves: Q / (c₁μ) (not
    Q / (c₀μ): the old servers no longer serve alone). The backlog drains in Q / (c₁μ − λ) (never,
    if c₁μ ≤ λ). A device that cannot scale has c₁ = c₀, and the lag is then how long the overload
    has lasted. Admission control with a ceiling ρ_max admits at most ρ_max of the capacity at
    each moment and sheds the rest (random shedding keeps the admitted stream Poisson).
    Source: deterministic fluid approximation of an overload, FIFO wait = the horizontal distance
    between the cumulative arrival and departure curves (Newell 1982, *Applications of Queueing
    Theory*, ch. 1-2); the steady state after scaling is M/M/c (Kleinrock 1975, ch. 3).
    """

    arrival_per_s: float
    service_s: float
    servers_before: int
    servers_after: int
    lag_s: float
    admit_max_rho: float = 1.0   # 1.0 = no admission control

    def _admitted(self, servers: int) -> float:
        if self.admit_max_rho >= 1:
            return self.arrival_per_s
        return min(self.arrival_per_s, self.admit_max_rho * servers / self.service_s)

    @property
    def admitted_during_lag_per_s(self) -> float:
        return self._admitted(self.servers_before)

    @property
    def admitted_after_per_s(self) -> float:
        return self._admitted(self.servers_after)

    @property
    def shed_after(self) -> float:
        """Share of requests refused once the new capacity serves."""
        return 1.0 - self.admitted_after_per_s / self.arrival_per_s if self.arrival_per_s > 0 else 0.0

    @property
    def backlog(self) -> float:
        """Requests queued when the new capacity arrives."""
        excess = self.admitted_during_lag_per_s - self.servers_before / self.service_s
        return max(0.0, excess) * self.lag_s

    @property
    def lag_end_wait_s(self) -> float:
        """Queueing wait of a request arriving as the lag ends: the backlog ahead of it, served
        first in, first out by the new capacity, Q / (c₁μ) (fluid)."""
        if self.backlog == 0:
            return 0.0
        return self.backlog * self.service_s / self.servers_after if self.servers_after else math.inf

    @property
    def rho_after(self) -> float:
        return utilization(self.admitted_after_per_s, self.service_s, self.servers_after)

    @property
    def drain_s(self) -> float:
        """Time for the new capacity to clear the backlog; inf if it cannot."""
        if self.backlog == 0:
            return 0.0
        spare = self.servers_after / self.service_s - self.admitted_after_per_s
        return math.inf if spare <= 0 else self.backlog / spare

    def queued_at(self, t_s: float) -> float:
        """Requests queued t seconds after the spike starts (fluid): growing at the excess rate
        during the lag, then changing at the admitted rate minus the new capacity, never below 0."""
        if t_s <= self.lag_s:
            return max(0.0, self.admitted_during_lag_per_s - self.servers_before / self.service_s) * t_s
        after = self.admitted_after_per_s - self.servers_after / self.service_s
        return max(0.0, self.backlog + after * (t_s - self.lag_s))

    def p99_after_s(self) -> float:
        """Steady-state P99 time in system once the new capacity serves (inf if unstable)."""
        return mmc_sojourn_percentile_s(0.99, self.admitted_after_per_s, self.service_s, self.servers_after)
