"""Tail latency of composed services: a fan-out waits for the slowest, a chain adds.

A *hop* is one service's latency distribution, fixed by two published-style numbers (its
median and its P99 for a lognormal; its P99 alone for an exponential). Two compositions:

* **Fan-out** (a request waits for all N shards): the latency is the maximum of N draws,
  and P(max > t) = 1 − F(t)^N. With per-shard violation p this is 1 − (1 − p)^N, exact.
* **Serial chain** (a request visits N hops in turn): the latency is the sum of N draws.
  No closed form exists for lognormal hops; Fenton–Wilkinson matches the sum's mean and
  variance with one lognormal, and sampling checks it. For exponential hops the sum is Erlang.

A common-cause fraction ρ mixes two worlds: with probability ρ every hop draws the same value
(a shared cause such as a GC storm or a hot switch), otherwise the hops are independent.

Sampling is deterministic: ``random.Random(seed)`` (Mersenne Twister, identical in CPython and
Pyodide) draws uniforms once per (seed, draws); hop draws come from the inverse CDF, so one
uniform stream serves every distribution. A fan-out maximum is sampled exactly with one
uniform per request (the max of N i.i.d. uniforms is U^{1/N}); a chain's sums are sliding
windows over one stream of hop draws (each window is N distinct i.i.d. draws, so every sample
has exactly the sum's distribution; neighbouring windows overlap, which widens the estimator's
error a little but keeps a slider move to one pass over the samples). Results are cached per
(hop, N, ρ, seed, draws).

Units: seconds and probabilities. Shared by V2-12 (SLO composition) and V1-13 (tail latency).
"""

from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass
from functools import lru_cache
from itertools import compress
from statistics import NormalDist

from . import queueing

_STD = NormalDist()
Z99 = _STD.inv_cdf(0.99)


@dataclass(frozen=True)
class Hop:
    """One service's latency distribution: ``kind`` is "lognormal" or "exponential".

    Source: lognormal from its median and P99 (σ = ln(P99/median)/z₀.₉₉); exponential from its
    P99 (rate = ln 100 / P99). Standard results, e.g. Johnson, Kotz and Balakrishnan 1994.
    """

    kind: str
    median_s: float
    sigma: float = 0.0

    @staticmethod
    def lognormal(median_s: float, p99_s: float) -> "Hop":
        if not 0 < median_s < p99_s:
            raise ValueError(f"need 0 < median < P99, got {median_s}, {p99_s}")
        return Hop("lognormal", median_s, math.log(p99_s / median_s) / Z99)

    @staticmethod
    def exponential(p99_s: float) -> "Hop":
        if p99_s <= 0:
            raise ValueError(f"P99 must be positive, got {p99_s}")
        return Hop("exponential", p99_s * math.log(2) / math.log(100))

    @property
    def rate_per_s(self) -> float:
        """Exponential rate λ (the median is ln 2 / λ)."""
        return math.log(2) / self.median_s

    @property
    def mean_s(self) -> float:
        if self.kind == "exponential":
            return 1.0 / self.rate_per_s
        return self.median_s * math.exp(self.sigma ** 2 / 2)

    @property
    def variance_s2(self) -> float:
        if self.kind == "exponential":
            return self.mean_s ** 2
        return (math.exp(self.sigma ** 2) - 1) * self.median_s ** 2 * math.exp(self.sigma ** 2)

    def quantile(self, q: float) -> float:
        """The latency below which a share ``q`` of requests finish (0 < q < 1)."""
        q = min(max(q, 1e-300), 1 - 1e-16)
        if self.kind == "exponential":
            return -math.log1p(-q) / self.rate_per_s
        return self.median_s * math.exp(self.sigma * _STD.inv_cdf(q))

    def cdf(self, t_s: float) -> float:
        if t_s <= 0:
            return 0.0
        if self.kind == "exponential":
            return -math.expm1(-self.rate_per_s * t_s)
        return _STD.cdf(math.log(t_s / self.median_s) / self.sigma)


# ---- fan-out: the slowest of N ---------------------------------------------------------


def fanout_slow_fraction(p_svc: float, n: int, common: float = 0.0) -> float:
    """Share of fan-out requests slower than the per-shard threshold: (1−ρ)[1−(1−p)^N] + ρp.

    Source: Dean and Barroso 2013, "The Tail at Scale" (independent shards); the ρ term is a
    common-cause mixture (all shards slow together with probability ρ).
    """
    return (1 - common) * -math.expm1(n * math.log1p(-p_svc)) + common * p_svc


def per_service_budget(p_target: float, n: int) -> float:
    """The per-shard violation rate that keeps an N-way fan-out at ``p_target``: 1 − (1−p_t)^{1/N}.

    Source: inverting ``fanout_slow_fraction`` at ρ = 0.
    """
    return -math.expm1(math.log1p(-p_target) / n)


def _solve_u(q: float, n: int, common: float) -> float:
    """u in (0, 1) with ρu + (1−ρ)u^N = q (the fan-out CDF in probability space), by bisection."""
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if common * mid + (1 - common) * mid ** n < q:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def fanout_quantile_s(hop: Hop, n: int, q: float, common: float = 0.0) -> float:
    """Quantile of the slowest of N hops (closed form at ρ = 0: F⁻¹(q^{1/N})).

    Source: order statistics; P(max ≤ t) = ρF(t) + (1−ρ)F(t)^N.
    """
    u = q ** (1.0 / n) if common == 0 else _solve_u(q, n, common)
    return hop.quantile(u)


# ---- serial chain: the sum of N ----------------------------------------------------------


def fenton_wilkinson(hop: Hop, n: int) -> tuple[float, float]:
    """(μ_S, σ_S) of the lognormal matched to the sum of N i.i.d. hops' mean and variance.

    Source: Fenton 1960, "The Sum of Log-Normal Probability Distributions in Scatter
    Transmission Systems": m = N·E[X], v = N·Var[X], σ_S² = ln(1 + v/m²), μ_S = ln m − σ_S²/2.
    """
    m, v = n * hop.mean_s, n * hop.variance_s2
    sigma2 = math.log1p(v / m ** 2)
    return math.log(m) - sigma2 / 2, math.sqrt(sigma2)


def serial_exceed(hop: Hop, n: int, t_s: float, common: float = 0.0) -> float:
    """P(sum of N hops > t): with probability ρ all hops are equal (the sum is N·X); otherwise
    they are independent, and the sum is Erlang (exact) for exponential hops and the
    Fenton–Wilkinson lognormal (an approximation) for lognormal ones.

    Fenton–Wilkinson matches the mean and variance, not the tail: for 5 hops of median 40 ms and
    P99 100 ms it gives P(sum > 500 ms) = 1.26e-6 where the sum's true value is 2.34e-6
    (numerical convolution of the hop's density; 2×10⁸ Monte Carlo sums give 2.2 ± 0.1 × 10⁻⁶),
    while its P99 (324.4 ms) is within 0.3 % of the true 325.1 ms.

    Source: ``erlang_sf``, ``fenton_wilkinson`` and the common-cause mixture.
    """
    return (1 - common) * _independent_exceed(hop, n)(t_s) + common * (1 - hop.cdf(t_s / n))


def _independent_exceed(hop: Hop, n: int):
    """t ↦ P(sum of N independent hops > t): Erlang, or the Fenton–Wilkinson lognormal (fitted once)."""
    if hop.kind == "exponential":
        rate = hop.rate_per_s
        return lambda t_s: erlang_sf(t_s, n, rate)
    mu, sigma = fenton_wilkinson(hop, n)
    return lambda t_s: 1 - _STD.cdf((math.log(t_s) - mu) / sigma) if t_s > 0 else 1.0


@lru_cache(maxsize=512)
def serial_quantile_s(hop: Hop, n: int, q: float, common: float = 0.0) -> float:
    """Quantile of the chain's sum: Erlang (exact) for exponential hops, Fenton–Wilkinson for
    lognormal ones, with the common-cause mixture inverted by bisection on log t.

    Source: ``serial_exceed`` inverted (cached per arguments: the chart asks for 17 N per move).
    """
    if common == 0:
        if hop.kind == "exponential":
            return erlang_quantile_s(q, n, hop.rate_per_s)
        mu, sigma = fenton_wilkinson(hop, n)
        return math.exp(mu + sigma * _STD.inv_cdf(q))
    independent = _independent_exceed(hop, n)
    lo, hi = math.log(hop.quantile(1e-9)), math.log(n * hop.quantile(1 - 1e-9))
    for _ in range(60):
        mid = (lo + hi) / 2
        t_s = math.exp(mid)
        if 1 - ((1 - common) * independent(t_s) + common * (1 - hop.cdf(t_s / n))) < q:
            lo = mid
        else:
            hi = mid
    return math.exp((lo + hi) / 2)


def erlang_sf(t_s: float, n: int, rate_per_s: float) -> float:
    """P(sum of N i.i.d. exponentials > t) = Σ_{k<N} e^{−λt}(λt)^k/k!.

    Each term follows from the last (× λt/k). e^{−λt} underflows once λt passes about 745, so
    from λt = 700 the terms are summed in log space with the largest factored out.

    Source: the Erlang distribution (Erlang 1909; any queueing text, e.g. Kleinrock 1975).
    """
    x = rate_per_s * t_s
    if n <= 0:
        return 0.0
    if x <= 0:
        return 1.0
    if x < 700:
        term = total = math.exp(-x)
        for k in range(1, n):
            term *= x / k
            total += term
        return min(1.0, total)
    log_x, logs, term = math.log(x), [], -x
    for k in range(n):
        if k:
            term += log_x - math.log(k)
        logs.append(term)
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(v - top) for v in logs))


def erlang_cdf(t_s: float, n: int, rate_per_s: float) -> float:
    """P(sum of N i.i.d. exponentials ≤ t) = 1 − Σ_{k<N} e^{−λt}(λt)^k/k!.

    The terms are summed in log space: e^{−λt} underflows to zero once λt passes about 745, which
    made the sum 0 and the probability 1 (``erlang_cdf(800, 800, 1)`` gave 1.0 for 0.5047).

    Source: the Erlang distribution (Erlang 1909; any queueing text, e.g. Kleinrock 1975).
    """
    if n <= 0:
        return 1.0
    return max(0.0, 1.0 - erlang_sf(t_s, n, rate_per_s))


def erlang_quantile_s(q: float, n: int, rate_per_s: float) -> float:
    """Inverse of ``erlang_cdf`` by bisection. Source: as ``erlang_cdf``."""
    lo, hi = 0.0, (n + 10 * math.sqrt(n) + 50) / rate_per_s
    for _ in range(64):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if erlang_cdf(mid, n, rate_per_s) < q else (lo, mid)
    return (lo + hi) / 2


# ---- sampling --------------------------------------------------------------------------------


@lru_cache(maxsize=4)
def _uniforms(seed: int, draws: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Two fixed streams of uniforms in (0, 1): hop values and the common-cause coin."""
    rng = random.Random(seed)
    values = tuple(1.0 - rng.random() for _ in range(draws))   # (0, 1]: never 0
    coins = tuple(rng.random() for _ in range(draws))
    return values, coins


@lru_cache(maxsize=8)
def _hop_prefix(hop: Hop, seed: int, draws: int) -> tuple[float, ...]:
    """Prefix sums of one stream of hop draws, wrapped once so any window of ≤ draws fits."""
    values, _ = _uniforms(seed, draws)
    xs = [hop.quantile(min(u, 1 - 1e-16)) for u in values]
    prefix, total = [0.0], 0.0
    for x in xs + xs:
        total += x
        prefix.append(total)
    return tuple(prefix)


@dataclass(frozen=True)
class Sampled:
    """Sorted end-to-end samples of one composition. With ``hop`` set, the samples are kept in
    probability space (u = F(latency)) and mapped through the hop's inverse CDF only when asked,
    which keeps a fan-out slider move to one pass of arithmetic."""

    values: tuple[float, ...]
    hop: Hop | None = None

    def _latency(self, value: float) -> float:
        return self.hop.quantile(min(value, 1 - 1e-16)) if self.hop else value

    def quantile(self, q: float) -> float:
        """Empirical quantile (seconds): the smallest sample with at least a share q at or below it."""
        k = min(len(self.values) - 1, max(0, math.ceil(q * len(self.values)) - 1))
        return self._latency(self.values[k])

    def count_above(self, t_s: float) -> int:
        cut = self.hop.cdf(t_s) if self.hop else t_s
        return len(self.values) - bisect.bisect_right(self.values, cut)

    def exceed(self, t_s: float) -> float:
        """Share of samples strictly above t seconds."""
        return self.count_above(t_s) / len(self.values)


@lru_cache(maxsize=32)
def sample_serial(hop: Hop, n: int, common: float = 0.0, seed: int = 12, draws: int = 20_000) -> Sampled:
    """Sampled latency of an N-hop chain: sliding windows of N hop draws; with the coin below ρ,
    N times one draw. Source: Monte Carlo of the sum (module docstring)."""
    if not 1 <= n <= draws:
        raise ValueError(f"need 1 <= n <= draws, got {n}")
    prefix = _hop_prefix(hop, seed, draws)
    _, coins = _uniforms(seed, draws)
    if common == 0:
        sums = [b - a for a, b in zip(prefix[:draws], prefix[n:n + draws])]
    else:
        sums = [n * (prefix[i + 1] - prefix[i]) if coins[i] < common else prefix[i + n] - prefix[i]
                for i in range(draws)]
    sums.sort()
    return Sampled(tuple(sums))


@lru_cache(maxsize=8)
def _coin_split(seed: int, draws: int, common: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The stream's uniforms split by the common-cause coin, each part sorted (shared by every N and hop):
    the stream sorted once, so a new ρ only filters it (coin < ρ: shared)."""
    values, coins = _sorted_with_coins(seed, draws)
    rho = float(common)  # a float's own comparison: an int's would answer NotImplemented, which is true
    return tuple(compress(values, map(rho.__gt__, coins))), tuple(compress(values, map(rho.__le__, coins)))


@lru_cache(maxsize=2)
def _sorted_with_coins(seed: int, draws: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The stream's uniforms sorted, and each one's coin in that order."""
    values, coins = zip(*sorted(zip(*_uniforms(seed, draws))))
    return values, coins


@dataclass(frozen=True)
class FanoutSampled:
    """Sampled fan-out latencies, held as two sorted uniform streams: requests with a common cause
    take one draw F⁻¹(u); the others take the maximum of N draws, F⁻¹(u^{1/N}), exactly. Because
    u ↦ u^{1/N} is monotone, both stay sorted for every N, so a query costs O(log draws)."""

    hop: Hop
    n: int
    shared: tuple[float, ...]
    independent: tuple[float, ...]

    def _max_u(self, j: int) -> float:
        return self.independent[j] ** (1.0 / self.n)

    def count_above(self, t_s: float) -> int:
        w = self.hop.cdf(t_s)
        below = bisect.bisect_right(self.shared, w) + bisect.bisect_right(self.independent, w ** self.n)
        return len(self.shared) + len(self.independent) - below

    def exceed(self, t_s: float) -> float:
        return self.count_above(t_s) / (len(self.shared) + len(self.independent))

    def quantile(self, q: float) -> float:
        """Empirical quantile: the k-th smallest of the two merged sorted streams, k = ⌈q·M⌉."""
        a, b = self.shared, self.independent
        k = min(len(a) + len(b), max(1, math.ceil(q * (len(a) + len(b)))))
        lo, hi = max(0, k - len(b)), min(k, len(a))
        while lo < hi:               # i = how many of the k smallest come from the shared stream
            i = (lo + hi) // 2
            if a[i] < self._max_u(k - i - 1):
                lo = i + 1
            else:
                hi = i
        candidates = ([a[lo - 1]] if lo > 0 else []) + ([self._max_u(k - lo - 1)] if k - lo > 0 else [])
        return self.hop.quantile(min(max(candidates), 1 - 1e-16))


def sample_fanout(hop: Hop, n: int, common: float = 0.0, seed: int = 12, draws: int = 20_000) -> FanoutSampled:
    """Sampled latency of an N-way fan-out (exact: the max of N uniforms is U^{1/N}).
    Source: order statistics of uniforms."""
    if n < 1:
        raise ValueError(f"need n >= 1, got {n}")
    shared, independent = _coin_split(seed, draws, common)
    return FanoutSampled(hop, n, shared, independent)


# ---- V1-13 The Tail Latency Trap: seeded draws of a queue's time in system ---------------------


@lru_cache(maxsize=16)
def sample_mmc_sojourn(arrival_per_s: float, service_s: float, servers: int = 1, seed: int = 12,
                       draws: int = 20_000) -> Sampled:
    """Sorted seeded draws of the M/M/c time in system (seconds): a request finds every server
    busy with probability C (Erlang C) and then waits Exp(cμ − λ); its service is Exp(μ). Each
    draw uses three uniforms of the fixed stream (inverse CDFs), so CPython and Pyodide agree.

    With one server the time in system is exactly exponential at rate μ − λ (M/M/1), so each draw
    is one Exp(1) draw of the fixed stream times the mean 1/(μ − λ). The scaling keeps the order,
    so a new load rescales the stream sorted once instead of drawing and sorting 20,000 times again
    (4.0 ms of V1-13's load move in CPython before this, 1.2 ms after).

    Source: the M/M/c waiting-time distribution (Kleinrock 1975, ch. 3), sampled by inversion.
    """
    if servers < 1 or servers / service_s <= arrival_per_s:
        raise ValueError(f"an unstable queue has no time-in-system distribution: λ = {arrival_per_s}, "
                         f"S = {service_s}, c = {servers}")
    if servers == 1:
        mean = 1.0 / (1.0 / service_s - arrival_per_s)
        return Sampled(tuple(map(mean.__mul__, _sorted_unit_exponentials(seed, draws))))
    services, queued, coins = _unit_exponentials(seed, draws)
    waits = queueing.erlang_c(servers, queueing.offered_load(arrival_per_s, service_s))
    mean_wait = 1.0 / (servers / service_s - arrival_per_s)
    times = [service_s * e + (mean_wait * w if c < waits else 0.0) for e, w, c in zip(services, queued, coins)]
    times.sort()
    return Sampled(tuple(times))


@lru_cache(maxsize=4)
def _unit_exponentials(seed: int, draws: int) -> tuple[tuple[float, ...], tuple[float, ...], tuple[float, ...]]:
    """Two streams of Exp(1) draws, −ln u, and the coin stream (shared by every λ, S and c)."""
    values, coins = _uniforms(seed, 2 * draws)
    return (tuple(-math.log(u) for u in values[:draws]), tuple(-math.log(u) for u in values[draws:]),
            coins[:draws])


@lru_cache(maxsize=2)
def _sorted_unit_exponentials(seed: int, draws: int) -> tuple[float, ...]:
    """The first stream of Exp(1) draws, sorted (M/M/1's draws at every λ and S)."""
    return tuple(sorted(_unit_exponentials(seed, draws)[0]))
