"""Differential privacy accounting for the subsampled Gaussian mechanism (DP-SGD, DP-FedAvg).

The Rényi-DP (RDP) accountant works at integer orders α ≥ 2, where the RDP of one
Poisson-subsampled Gaussian step has a closed form (a binomial expansion). Steps compose
by adding RDP; the total converts to an (ε, δ) guarantee by minimising over α. Two
conversions are offered, and a caller must say which one it reports:

* ``"classic"``: ε = RDP + ln(1/δ)/(α − 1), Mironov 2017, Proposition 3.
* ``"tight"``: ε = RDP + ln((α − 1)/α) − (ln δ + ln α)/(α − 1), Balle et al. 2020
  (the same bound as Canonne, Kamath and Steinke 2020); TF-Privacy's accountant uses it
  today. It is never larger than the classic one.

Everything is computed in log space (log-sum-exp), so large orders, tiny sampling rates and
small noise multipliers neither overflow nor underflow. Sampling rates q and δ are
fractions; ε is in nats (the usual unit). Standard library only.
"""

from __future__ import annotations

import math
from functools import lru_cache, partial
from typing import Iterable

from pylabs.physics.validators import check

ORDERS: tuple[int, ...] = tuple(range(2, 257))  # the integer orders the accountant searches
CONVERSIONS = ("classic", "tight")
CONVERSION_NAMES = {"classic": "Mironov 2017", "tight": "Balle et al. 2020"}  # whose bound each one is


class PrivacyError(ValueError):
    """Parameters outside the accountant's domain (a probability outside [0, 1], a negative count)."""


_check = partial(check, error=PrivacyError)


def logsumexp(values: Iterable[float]) -> float:
    """ln Σ e^v without overflow; −inf for an empty sum or all −inf terms.
    Source: the standard max-shift identity ln Σ e^v = m + ln Σ e^(v − m)."""
    terms = [v for v in values if v != -math.inf]
    if not terms:
        return -math.inf
    top = max(terms)
    if top == math.inf:
        return math.inf
    return top + math.log(sum(math.exp(v - top) for v in terms))


_LOG_FACTORIAL = tuple(math.lgamma(n + 1) for n in range(ORDERS[-1] + 1))  # ln n!, n = 0…256


@lru_cache(maxsize=256)
def _log_term_weights(log_q: float, log_1mq: float, z: float) -> tuple[float, ...]:
    """a_k = −ln k! + k·ln(q/(1−q)) + (k²−k)/(2z²): the α-independent part of each binomial term."""
    ratio = log_q - log_1mq
    return tuple(-_LOG_FACTORIAL[k] + k * ratio + (k * k - k) / (2.0 * z * z) for k in range(ORDERS[-1] + 1))


@lru_cache(maxsize=4096)
def sampled_gaussian_rdp(sampling_rate: float, noise_multiplier: float, order: int) -> float:
    """RDP of one step of the Poisson-subsampled Gaussian mechanism at integer order α:
    ε_α = ln[Σ_{k=0..α} C(α,k)(1−q)^{α−k} q^k e^{(k²−k)/(2z²)}] / (α − 1).
    Source: Mironov, Talwar and Zhang 2019, Sec. 3.3 (integer α); TF-Privacy rdp_accountant."""
    q, z, alpha = float(sampling_rate), float(noise_multiplier), int(order)
    _check(0.0 <= q <= 1.0, f"sampling rate {q} must lie in [0, 1]")
    _check(2 <= alpha <= ORDERS[-1] and alpha == order, f"order {order} must be an integer from 2 to {ORDERS[-1]}")
    _check(z >= 0.0, f"noise multiplier {z} must not be negative")
    if q == 0.0:
        return 0.0
    if z == 0.0:
        return math.inf
    if q == 1.0:
        return alpha / (2.0 * z * z)
    log_q, log_1mq = math.log(q), math.log1p(-q)
    weights, top = _log_term_weights(log_q, log_1mq, z), _LOG_FACTORIAL[alpha]
    # term k ÷ term 0 = exp(a_k + ln α! − ln (α−k)!); log1p keeps a tiny sum exact
    ratios = [a + top - f for a, f in zip(weights[1:alpha + 1], _LOG_FACTORIAL[alpha - 1::-1])]
    peak = max(ratios)
    tail = math.log1p(sum(map(math.exp, ratios))) if peak < 0 else logsumexp([0.0, *ratios])
    return max(0.0, (alpha * log_1mq + tail) / (alpha - 1))


def rdp_steps(sampling_rate: float, noise_multiplier: float, steps: float, order: int) -> float:
    """RDP of ``steps`` adaptive compositions: T·ε_α (RDP adds under composition).
    Source: Mironov 2017, Proposition 1."""
    _check(steps >= 0, f"steps {steps} must not be negative")
    return steps * sampled_gaussian_rdp(sampling_rate, noise_multiplier, order) if steps else 0.0


def epsilon_at_order(rdp: float, order: int, delta: float, conversion: str = "classic") -> float:
    """(ε, δ)-DP from (α, RDP): classic ε = RDP + ln(1/δ)/(α−1) (Mironov 2017, Prop. 3) or
    tight ε = RDP + ln((α−1)/α) − (ln δ + ln α)/(α−1) (Balle et al. 2020).
    Source: as named; both are valid upper bounds."""
    _check(0.0 < delta < 1.0, f"delta {delta} must lie strictly between 0 and 1")
    _check(conversion in CONVERSIONS, f"conversion {conversion!r} is not one of {CONVERSIONS}")
    a = float(order)
    if conversion == "classic":
        return rdp + math.log(1.0 / delta) / (a - 1.0)
    return max(0.0, rdp + math.log1p(-1.0 / a) - (math.log(delta) + math.log(a)) / (a - 1.0))


def _tight_floor_beyond(rdp: float, order: int, delta: float) -> float:
    """A floor on the tight ε at every order ≥ ``order``: RDP never decreases with α, and the
    tight conversion's δ-term is ≥ ln((α−1)/α) while α ≤ 1/δ."""
    return rdp + math.log1p(-1.0 / order) if ORDERS[-1] * delta <= 1.0 else -math.inf


@lru_cache(maxsize=4096)
def epsilon_and_order(sampling_rate: float, noise_multiplier: float, steps: float, delta: float,
                      conversion: str = "classic") -> tuple[float, int]:
    """ε(δ) = min over integer α in 2…256 of the chosen conversion of T·ε_α, and the best α (the
    smallest, on a tie). Source: Mironov 2017 (RDP accountant); Abadi et al. 2016 (moments
    accountant for DP-SGD)."""
    if conversion == "classic":
        return _classic_best(sampling_rate, noise_multiplier, steps, delta)
    best, best_order = math.inf, ORDERS[0]
    for alpha in ORDERS:  # tight: a scan, stopped once a floor on ε at every larger order passes the best
        rdp = rdp_steps(sampling_rate, noise_multiplier, steps, alpha)
        eps = epsilon_at_order(rdp, alpha, delta, conversion)
        if eps < best:
            best, best_order = eps, alpha
        if _tight_floor_beyond(rdp, alpha, delta) >= best:
            break
    return best, best_order


def _classic_best(sampling_rate: float, noise_multiplier: float, steps: float, delta: float) -> tuple[float, int]:
    """The classic conversion's best order, by bisection on the sign of ε(α+1) − ε(α).

    ε(α) = (g(α) + ln(1/δ))/(α − 1), with g(α) = (α−1)·T·ε_α, is the slope from the point
    (1, −ln(1/δ)) to (α, g(α)). g is convex in α: it is T·ln E_Q[(p/q)^α], a log-moment generating
    function, convex by Hölder's inequality (van Erven and Harremoës 2014 treat this convexity in
    the order). And g(1) = 0 lies above that point, so the slope falls and then rises: the best
    order is the first α whose next order is no lower. Bisection finds it with about 16 orders
    evaluated instead of every order up to the best (up to 256, each a sum of α terms; V2-13's
    noise slider took about 12 ms a move in CPython). Ties keep the smaller order, as a scan from
    α = 2 would.
    """
    def at(alpha: int) -> float:
        return epsilon_at_order(rdp_steps(sampling_rate, noise_multiplier, steps, alpha), alpha, delta, "classic")

    lo, hi = ORDERS[0], ORDERS[-1]
    while lo < hi:
        mid = (lo + hi) // 2
        if at(mid + 1) < at(mid):
            lo = mid + 1
        else:
            hi = mid
    return at(lo), lo


def epsilon(sampling_rate: float, noise_multiplier: float, steps: float, delta: float,
            conversion: str = "classic") -> float:
    """ε after ``steps`` subsampled Gaussian steps at rate q and noise multiplier z, for δ.
    Source: Mironov 2017, Prop. 3 (classic) or Balle et al. 2020 (tight)."""
    return epsilon_and_order(float(sampling_rate), float(noise_multiplier), float(steps), float(delta),
                             conversion)[0]


@lru_cache(maxsize=1024)
def noise_multiplier_for_epsilon(sampling_rate: float, steps: float, delta: float, target_epsilon: float,
                                 conversion: str = "classic", z_max: float = 100.0) -> float:
    """The smallest z whose ε is at most ``target_epsilon``, to 1e-5 relative (ε falls as z grows);
    ∞ when even ``z_max`` is not enough. Brackets by doubling from z = 0.5, then bisects.
    Source: inverts ``epsilon``, as TF-Privacy's compute_noise_from_budget does."""
    _check(target_epsilon > 0, f"target epsilon {target_epsilon} must be positive")

    def meets(z: float) -> bool:
        return epsilon(sampling_rate, z, steps, delta, conversion) <= target_epsilon

    low, high = 0.0, 0.5
    while not meets(high):
        if high >= z_max:
            return math.inf
        low, high = high, min(2.0 * high, z_max)
    while high - low > 1e-5 * high:
        mid = 0.5 * (low + high)
        low, high = (low, mid) if meets(mid) else (mid, high)
    return high


def epsilon_small_q_approx(sampling_rate: float, noise_multiplier: float, steps: float, delta: float) -> float:
    """Closed-form sanity check for small q: ε ≈ 2q·√(T ln(1/δ))/z + T·q²/z².
    Source: handbook/labs/v2_11.md §2 (from the second-order RDP expansion ε_α ≈ α q²/z²)."""
    q, z, t = sampling_rate, noise_multiplier, steps
    return 2.0 * q * math.sqrt(t * math.log(1.0 / delta)) / z + t * q * q / (z * z)


def gaussian_single_release_sigma(epsilon_: float, delta: float, sensitivity: float = 1.0) -> float:
    """Noise σ for ONE Gaussian release: σ = Δ·√(2 ln(1.25/δ))/ε, valid only for 0 < ε ≤ 1.
    It ignores composition over steps and subsampling; it is not an accountant.
    Source: Dwork and Roth 2014, Theorem A.1."""
    _check(0.0 < epsilon_ <= 1.0, f"epsilon {epsilon_} is outside (0, 1], where this bound holds")
    _check(0.0 < delta < 1.0, f"delta {delta} must lie strictly between 0 and 1")
    return sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / epsilon_


def membership_advantage_bound(epsilon_: float, delta: float) -> float:
    """Highest accuracy any membership-inference attack can reach against an (ε, δ)-DP model
    with a balanced prior: (e^ε + δ)/(1 + e^ε), capped at 1.
    Source: the (ε, δ) hypothesis-testing region (Kairouz, Oh and Viswanath 2015; Humphries et al. 2020)."""
    _check(epsilon_ >= 0.0, f"epsilon {epsilon_} must not be negative")
    _check(0.0 <= delta <= 1.0, f"delta {delta} must lie in [0, 1]")
    if epsilon_ == math.inf:
        return 1.0
    logistic = 1.0 / (1.0 + math.exp(-epsilon_))  # e^ε/(1+e^ε) without overflow
    return min(1.0, logistic + delta * (1.0 - logistic))


def gap_attack_accuracy(train_accuracy: float, test_accuracy: float) -> float:
    """Balanced accuracy of the simplest membership attack, "member if the model classifies it
    correctly" (or its inverse, whichever wins): 0.5 + |A_train − A_test|/2. This measures ONE
    attack: overfitting is sufficient for membership inference, not necessary, so a stronger
    attack can exceed it, and a zero gap proves nothing.
    Source: Yeom et al. 2018, Sec. 3 (advantage of the bounded-loss adversary = generalization gap)."""
    _check(0.0 <= train_accuracy <= 1.0, f"train accuracy {train_accuracy} must lie in [0, 1]")
    _check(0.0 <= test_accuracy <= 1.0, f"test accuracy {test_accuracy} must lie in [0, 1]")
    return 0.5 + abs(train_accuracy - test_accuracy) / 2.0


def epsilon_for_attack_accuracy(accuracy: float, delta: float) -> float:
    """The largest ε whose membership bound (e^ε + δ)/(1 + e^ε) stays at or below ``accuracy``:
    ε = ln((p − δ)/(1 − p)); 0 when even ε = 0 allows more (p ≤ (1 + δ)/2), ∞ when p = 1.
    Source: inverts ``membership_advantage_bound``."""
    _check(0.0 <= accuracy <= 1.0, f"accuracy {accuracy} must lie in [0, 1]")
    _check(0.0 <= delta < 1.0, f"delta {delta} must lie in [0, 1)")
    if accuracy >= 1.0:
        return math.inf
    if accuracy - delta <= 1.0 - accuracy:
        return 0.0
    return math.log((accuracy - delta) / (1.0 - accuracy))
