"""Silent degradation: binned drift statistics, drift detection on sampled data, and the
economics of a retraining cadence (handbook/labs/v1_14.md §2).

**Drift.** A feature is N(0, 1) at training time; in production its mean has moved by Δ (in
training standard deviations, σ). The population stability index compares the share of
production data in each of B training quantile bins (deciles for B = 10, so every expected
share is 1/B) with the training share:

    PSI = Σ_i (a_i − e_i) · ln(a_i / e_i) = KL(a‖e) + KL(e‖a),

the symmetric (Jeffreys) Kullback–Leibler divergence of the two binned distributions. For two
unit-variance Gaussians the unbinned Jeffreys divergence is Δ² exactly; binning loses a little.

**Sampling.** A monitor sees n production records per check, not the distribution. A record's
bin is where its uniform u falls among the CDF values Φ(q_i − Δ) of the shifted bin edges
(inverse-CDF sampling), so the same uniforms serve every Δ (common random numbers, which keep
the sampled curve smooth as a slider moves) and a bin count is a count of uniforms below a cut.
The uniforms are never listed: they are drawn as a binary tree of counts. A uniform's first bit
says which half of [0, 1) it lies in, its second which quarter, and so on; with every bit a fair
coin, the count of a node's m records in its lower half is the number of zeros among m fair bits
(a Binomial(m, ½) draw, exactly). Level d of the tree is one seeded string of n bits
(``random.Random(seed).getrandbits(n)``, Mersenne Twister, the same in CPython and Pyodide), a
node owning the positions of its records; the count below a cut follows one path down the tree
until its node is empty (about log₂ n + 2 levels). The n records are exactly n independent
uniforms, at a few hundred bit operations per check instead of n draws and a sort. Empty bins
get half a record (additive smoothing), the usual guard against ln 0. Under no drift, n·PSI is
close to χ² with B − 1 degrees of freedom, so a small window reads about (B − 1)/n of pure noise.

**Cadence.** Accuracy falls linearly at r (fraction per second) after each retrain; a retrain
costs C; each unit of accuracy lost costs V per second. Over a cycle of length T the average
cost per second is C/T + V·r·T/2, minimised at T* = √(2C/(V·r)) (the economic-order-quantity
form); an accuracy floor A_min caps T at (A₀ − A_min)/r.

Units: seconds, fractions of accuracy (0.94 is 94 %), US dollars, σ for shifts.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Sequence

SECONDS_PER_DAY = 86400.0
SECONDS_PER_WEEK = 7 * SECONDS_PER_DAY
SECONDS_PER_YEAR = 365 * SECONDS_PER_DAY
DEFAULT_BINS = 10
_STD = NormalDist()


# ---- the statistic --------------------------------------------------------------------------


def kl_divergence(p: Sequence[float], q: Sequence[float]) -> float:
    """KL(p‖q) = Σ p_i ln(p_i/q_i) in nats, for distributions with positive shares.
    Source: Kullback and Leibler 1951, "On Information and Sufficiency"."""
    return sum(a * math.log(a / b) for a, b in zip(p, q))


def psi(actual: Sequence[float], expected: Sequence[float]) -> float:
    """PSI = Σ (a_i − e_i)·ln(a_i/e_i) over bins with positive shares.
    Source: Yurdakul 2018, "Statistical Properties of Population Stability Index" (WMU), eq. 1.1."""
    if len(actual) != len(expected):
        raise ValueError(f"PSI needs the same bins on both sides, got {len(actual)} and {len(expected)}")
    if min(actual) <= 0 or min(expected) <= 0:
        raise ValueError("PSI needs a positive share in every bin; smooth empty bins first")
    return sum((a - e) * math.log(a / e) for a, e in zip(actual, expected))


@lru_cache(maxsize=8)
def quantile_edges(bins: int = DEFAULT_BINS) -> tuple[float, ...]:
    """The B − 1 inner edges of the training N(0, 1) quantile bins: Φ⁻¹(i/B).
    Source: the standard normal quantile function (deciles for B = 10)."""
    if bins < 2:
        raise ValueError(f"need at least 2 bins, got {bins}")
    return tuple(_STD.inv_cdf(i / bins) for i in range(1, bins))


def _lower(x: float) -> float:
    """Φ(x) through erfc, accurate far into the lower tail (where 1 + erf(x) would round to 0)."""
    return 0.5 * math.erfc(-x / math.sqrt(2))


def _upper(x: float) -> float:
    """1 − Φ(x), accurate far into the upper tail."""
    return 0.5 * math.erfc(x / math.sqrt(2))


def shifted_cdf_cuts(shift_sigma: float, bins: int = DEFAULT_BINS) -> tuple[float, ...]:
    """Φ(q_i − Δ): the share of a production feature N(Δ, 1) below each training bin edge.
    Source: the normal CDF of the shifted edges."""
    return tuple(_lower(edge - shift_sigma) for edge in quantile_edges(bins))


def shifted_bin_shares(shift_sigma: float, bins: int = DEFAULT_BINS) -> tuple[float, ...]:
    """a_i = Φ(q_i − Δ) − Φ(q_{i−1} − Δ), the production shares of the training bins, each taken
    in the tail where it is accurate (so a bin far from the shifted mean keeps a tiny positive share).
    Source: handbook/labs/v1_14.md §2 (binned PSI on training deciles under a mean shift)."""
    edges = (-math.inf, *(e - shift_sigma for e in quantile_edges(bins)), math.inf)
    return tuple(_lower(hi) - _lower(lo) if hi <= 0 else _upper(lo) - _upper(hi)
                 for lo, hi in zip(edges, edges[1:]))


@lru_cache(maxsize=4096)
def binned_psi(shift_sigma: float, bins: int = DEFAULT_BINS) -> float:
    """PSI of a mean shift Δ on B equal-share training bins, from the exact shares.
    Source: handbook/labs/v1_14.md §2; PSI as in ``psi``. Kept per arguments: a chart asks for the
    same shifts on every move that keeps the drift."""
    return psi(shifted_bin_shares(shift_sigma, bins), (1.0 / bins,) * bins)


def continuous_psi(shift_sigma: float) -> float:
    """The unbinned limit: the Jeffreys divergence of N(Δ, 1) and N(0, 1) is Δ².
    Source: Jeffreys 1946; KL(N(Δ,1)‖N(0,1)) = Δ²/2 each way."""
    return shift_sigma ** 2


@lru_cache(maxsize=64)
def shift_for_psi(target: float, bins: int = DEFAULT_BINS) -> float:
    """The shift Δ ≥ 0 (σ) at which the binned PSI reaches ``target`` (bisection; PSI grows with Δ).
    Source: inverting ``binned_psi``. Kept per (target, bins): a slider move asks for the same few
    thresholds many times, and the bisection is ~90 PSI evaluations."""
    if target <= 0:
        raise ValueError(f"a PSI threshold must be positive, got {target}")
    lo, hi = 0.0, 1.0
    while binned_psi(hi, bins) < target:
        lo, hi = hi, 2 * hi
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if binned_psi(mid, bins) < target else (lo, mid)
    return (lo + hi) / 2


def crossing_time_s(threshold: float, drift_sigma_per_s: float, bins: int = DEFAULT_BINS) -> float:
    """When a shift growing at δ (σ per second) first takes the binned PSI to ``threshold``:
    t = Δ_threshold / δ (infinite without drift). Source: handbook/labs/v1_14.md §2, Δ(t) = δ·t."""
    if drift_sigma_per_s <= 0:
        return math.inf
    return shift_for_psi(threshold, bins) / drift_sigma_per_s


def null_psi_mean(window: int, bins: int = DEFAULT_BINS) -> float:
    """PSI a window of n records reads with no drift at all: E[n·PSI] ≈ E[χ²_{B−1}] = B − 1.
    Source: Yurdakul 2018, ch. 3 (n·PSI is asymptotically χ² with B − 1 degrees of freedom)."""
    return (bins - 1) / window


# ---- accuracy under drift ---------------------------------------------------------------------


def decay_rate_per_s(start: float, end: float, duration_s: float) -> float:
    """λ of an exponential decline from ``start`` to ``end`` over ``duration_s``: ln(start/end)/T.
    Source: handbook/labs/v1_14.md §2 (A(t) = A₀·e^{−λt}, λ = ln(94/87)/26 per week)."""
    return math.log(start / end) / duration_s


def accuracy_exponential(start: float, rate_per_s: float, t_s: float) -> float:
    """A(t) = A₀·e^{−λt}. Source: handbook/labs/v1_14.md §2."""
    return start * math.exp(-rate_per_s * t_s)


# ---- sampled detection --------------------------------------------------------------------------


class _BitTree:
    """One check's records as a binary tree of counts: level d is a seeded string of ``window`` fair
    bits, drawn when first needed (levels are drawn in order, so the stream does not depend on which
    cuts asked). A node of m records at level d owns positions [start, start + m) at every deeper
    level; the zeros among its bits at level d are its records in the lower half."""

    __slots__ = ("_draw", "levels", "window")

    def __init__(self, seed: int, week: int, window: int):
        self._draw = random.Random(seed * 1_000_003 + week).getrandbits
        self.levels: list[int] = []
        self.window = window

    def count_below(self, cut: float) -> int:
        """How many of the records lie below ``cut`` (a point of [0, 1])."""
        if cut <= 0.0:
            return 0
        if cut >= 1.0:
            return self.window
        levels, low_edge, width, start, m, below, depth = self.levels, 0.0, 1.0, 0, self.window, 0, 0
        while m:
            try:
                level = levels[depth]
            except IndexError:
                if depth == _TREE_DEPTH:
                    break
                level = self._draw(self.window)
                levels.append(level)
            width *= 0.5
            lower = m - ((level >> start) & ((1 << m) - 1)).bit_count()
            middle = low_edge + width
            if cut < middle:
                m = lower
            else:
                below, start, m, low_edge = below + lower, start + lower, m - lower, middle
            depth += 1
        return below + (m if low_edge < cut else 0)  # records left at 2⁻⁵³ resolution sit at low_edge


    def counts_below(self, cuts: Sequence[float]) -> list[int]:
        """``count_below`` for each of ``cuts`` in ascending order: each walk starts from the deepest node
        of the previous walk that still holds its cut (cuts crowd together when the shift is large)."""
        levels, window, out = self.levels, self.window, []
        path = [(0.0, 1.0, 0, window, 0)]  # per depth: the node walked through (low edge, width, start, m, below)
        for cut in cuts:
            if cut <= 0.0 or cut >= 1.0:
                out.append(0 if cut <= 0.0 else window)
                continue
            while len(path) > 1 and not path[-1][0] <= cut < path[-1][0] + path[-1][1]:
                path.pop()
            low_edge, width, start, m, below = path[-1]
            depth = len(path) - 1
            while m:
                try:
                    level = levels[depth]
                except IndexError:
                    if depth == _TREE_DEPTH:
                        break
                    level = self._draw(window)
                    levels.append(level)
                width *= 0.5
                lower = m - ((level >> start) & ((1 << m) - 1)).bit_count()
                if cut < low_edge + width:
                    m = lower
                else:
                    below, start, m, low_edge = below + lower, start + lower, m - lower, low_edge + width
                depth += 1
                path.append((low_edge, width, start, m, below))
            out.append(below + (m if low_edge < cut else 0))
        return out


_TREE_DEPTH = 53  # a double's resolution on [0, 1)


@lru_cache(maxsize=512)
def _tree(seed: int, week: int, window: int) -> _BitTree:
    """The records of one check (kept: a slider that moves the shift reuses them)."""
    return _BitTree(seed, week, window)


def sampled_bin_counts(shift_sigma: float, window: int, seed: int, week: int, bins: int = DEFAULT_BINS
                       ) -> tuple[int, ...]:
    """Counts of ``window`` production records N(Δ, 1) in the training bins, drawn from the seeded
    uniforms of ``week`` (a record falls in bin i when its uniform lies between Φ(q_{i−1} − Δ) and
    Φ(q_i − Δ)). Source: inverse-CDF sampling; the uniforms drawn as a binary tree of fair bits
    (seeded Mersenne Twister, ``random.Random.getrandbits``)."""
    if window < 1:
        raise ValueError(f"a window needs at least one record, got {window}")
    positions = [0, *_tree(seed, week, window).counts_below(shifted_cdf_cuts(shift_sigma, bins)), window]
    return tuple(hi - lo for lo, hi in zip(positions, positions[1:]))


def smoothed_shares(counts: Sequence[int]) -> tuple[float, ...]:
    """Bin shares with half a record in each empty bin, so ln 0 never occurs.
    Source: additive smoothing, the usual PSI guard against empty bins."""
    n = sum(counts)
    return tuple(max(c, 0.5) / n for c in counts)


@lru_cache(maxsize=2048)
def sampled_psi(shift_sigma: float, window: int, seed: int, week: int, bins: int = DEFAULT_BINS) -> float:
    """PSI of one seeded window of ``window`` records against the exact training shares.
    Source: ``psi`` on ``sampled_bin_counts`` (smoothed). Kept per arguments: a monitor that checks
    less often asks for a subset of the same weeks."""
    counts = sampled_bin_counts(shift_sigma, window, seed, week, bins)
    return psi(smoothed_shares(counts), (1.0 / bins,) * bins)


@dataclass(frozen=True)
class Detection:
    """A monitor's checks: (check time in s, sampled PSI) in order, and the first alarm (or None)."""

    checks: tuple[tuple[float, float], ...]
    alarm_s: float | None

    def alarm_psi(self) -> float | None:
        return next((p for t, p in self.checks if t == self.alarm_s), None)


@lru_cache(maxsize=256)
def detect(drift_sigma_per_s: float, check_interval_s: float, horizon_s: float, threshold: float,
           window: int, seed: int, bins: int = DEFAULT_BINS) -> Detection:
    """Checks every ``check_interval_s`` up to ``horizon_s``: each draws a window of records at the
    current shift δ·t and computes the sampled PSI; the alarm is the first check at or above
    ``threshold``. Each check's uniforms are seeded by its whole week, so a check at week 4 sees the
    same records whatever the interval. Source: handbook/labs/v1_14.md §2 (detection week). Seeded, so
    kept per arguments (a page asks for the same monitors on every move)."""
    if check_interval_s <= 0:
        raise ValueError(f"the check interval must be positive, got {check_interval_s}")
    checks, alarm, k = [], None, 1
    while k * check_interval_s <= horizon_s * (1 + 1e-12):
        t = k * check_interval_s
        value = sampled_psi(drift_sigma_per_s * t, window, seed, round(t / SECONDS_PER_WEEK), bins)
        checks.append((t, value))
        if alarm is None and value >= threshold:
            alarm = t
        k += 1
    return Detection(tuple(checks), alarm)


# ---- retraining economics -----------------------------------------------------------------------


def staleness_cost_slope(value_usd_per_frac_s: float, decay_frac_per_s: float) -> float:
    """k = V·r: how fast the cost rate of a stale model grows (USD/s²). Source: handbook/labs/v1_14.md §2."""
    return value_usd_per_frac_s * decay_frac_per_s


def optimal_interval_s(retrain_usd: float, value_usd_per_frac_s: float, decay_frac_per_s: float) -> float:
    """T* = √(2C/(V·r)), where retraining and staleness cost the same per unit time.
    Source: handbook/labs/v1_14.md §2; Harris 1913 (the economic order quantity has the same form)."""
    return math.sqrt(2 * retrain_usd / staleness_cost_slope(value_usd_per_frac_s, decay_frac_per_s))


def floor_interval_s(start: float, floor: float, decay_frac_per_s: float) -> float:
    """T_max = (A₀ − A_min)/r, the longest cycle that keeps accuracy at or above the floor.
    Source: handbook/labs/v1_14.md §2."""
    if floor >= start:
        return 0.0
    return (start - floor) / decay_frac_per_s


def retrain_usd_per_year(interval_s: float, retrain_usd: float) -> float:
    """Retraining spend per 365-day year: C·(year/T). Source: handbook/labs/v1_14.md §2."""
    return retrain_usd * SECONDS_PER_YEAR / interval_s


def staleness_usd_per_year(interval_s: float, value_usd_per_frac_s: float, decay_frac_per_s: float) -> float:
    """Value lost to a stale model per year: (V·r·T/2)·year (the average loss over a cycle is r·T/2).
    Source: handbook/labs/v1_14.md §2."""
    return staleness_cost_slope(value_usd_per_frac_s, decay_frac_per_s) * interval_s / 2 * SECONDS_PER_YEAR


def annual_cost_usd(interval_s: float, retrain_usd: float, value_usd_per_frac_s: float,
                    decay_frac_per_s: float) -> float:
    """365 days × (C/T + V·r·T/2). Source: handbook/labs/v1_14.md §2."""
    return (retrain_usd_per_year(interval_s, retrain_usd)
            + staleness_usd_per_year(interval_s, value_usd_per_frac_s, decay_frac_per_s))
