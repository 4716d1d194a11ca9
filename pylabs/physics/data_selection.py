"""Data selection: what ordering buys in training time, and what choosing labels buys in accuracy.

Two halves (handbook/labs/v1_09.md §2):

* Training time: a device sustains Θ = u·P_peak / F_sample samples per second, so E epochs over
  N samples take E·N / (S·Θ), where S is the speedup an ordering of the data buys in reaching
  the same quality. S is a *teaching surrogate*, labelled as such wherever a student reads it:
  curricula give no benefit on clean data trained to convergence and help only with noisy labels
  or a short time budget (Wu, Dyer and Neyshabur 2021), and anti-curricula never help.
* Label budget: n = min(B/c, N_pool) labels; a power-law learning curve acc(n) = a_max − k/√n
  (a surrogate calibrated so that 1M labels give ResNet-50's 76 %); active learning is modelled
  as an effective label count n·(1 + (k−1)(1 − n/N_pool)), whose gain vanishes when the whole
  pool is labelled, since then both strategies hold the same labels. k may lie below 1: some deep
  active-learning methods fall short of random sampling (Gashi, Deng and Elezi 2024).

Every function is pure, in SI units and dollars; ``Source:`` lines name the origin of each form.
"""

from __future__ import annotations

import math

from pylabs.physics.validators import check

ORDERINGS = ("random", "curriculum", "anti")


# ---- training time ----------------------------------------------------------------


def training_samples_per_s(peak_flops: float, utilisation: float, flop_per_sample: float) -> float:
    """Θ = u·P_peak / F_sample, training samples per second.
    Source: the roofline's compute roof scaled by a sustained utilisation (handbook/labs/v1_09.md §2)."""
    check(peak_flops > 0, f"peak_flops must be > 0 (got {peak_flops!r}); pass the dense peak in FLOP/s")
    check(0 < utilisation <= 1, f"utilisation must be in (0, 1] (got {utilisation!r}); e.g. 0.17 for 17 %")
    check(flop_per_sample > 0, f"flop_per_sample must be > 0 (got {flop_per_sample!r}); "
                                  "pass forward + backward FLOP per sample")
    return utilisation * peak_flops / flop_per_sample


def training_flop_per_sample(forward_flop: float) -> float:
    """F = 3·F_forward: the backward pass costs twice the forward.
    Source: Kaplan et al. 2020, Sec. 2.1 (6N per token = 3 × the forward's 2N)."""
    check(forward_flop > 0, f"forward_flop must be > 0 (got {forward_flop!r})")
    return 3 * forward_flop


def training_time_s(epochs: float, samples: float, samples_per_s: float, speedup: float = 1.0) -> float:
    """T = E·N / (S·Θ): E passes over N samples at Θ samples/s, shortened by an ordering speedup S.
    Source: handbook/labs/v1_09.md §2."""
    check(epochs >= 0 and samples >= 0, f"epochs and samples must be >= 0 (got {epochs!r}, {samples!r})")
    check(samples_per_s > 0 and speedup > 0,
          f"samples_per_s and speedup must be > 0 (got {samples_per_s!r}, {speedup!r})")
    return epochs * samples / (speedup * samples_per_s)


def curriculum_speedup(label_noise: float, budget_fraction: float, noise_gain: float = 1.0,
                       budget_gain: float = 0.3) -> float:
    """S_cur = 1 + g_η·η + g_β·(1 − β)²: a *teaching surrogate*, 1 on clean data with a full budget.
    Source: shape from Wu, Dyer and Neyshabur 2021 (ICLR), 'When Do Curricula Work?' (curricula help
    only with noisy labels or a limited time budget); coefficients from handbook/labs/v1_09.md §2, not fitted."""
    check(0 <= label_noise < 1, f"label_noise must be in [0, 1) (got {label_noise!r}); a fraction of labels")
    check(0 < budget_fraction <= 1,
          f"budget_fraction must be in (0, 1] (got {budget_fraction!r}); 1 means train to convergence")
    return 1 + noise_gain * label_noise + budget_gain * (1 - budget_fraction) ** 2


def ordering_speedup(ordering: str, label_noise: float, budget_fraction: float) -> float:
    """S for an ordering: random 1, curriculum S_cur, anti-curriculum 1/S_cur (a teaching surrogate).
    Source: handbook/labs/v1_09.md §2; Wu, Dyer and Neyshabur 2021 (anti-curricula do not help)."""
    check(ordering in ORDERINGS, f"ordering must be one of {ORDERINGS} (got {ordering!r})")
    if ordering == "random":
        return 1.0
    s = curriculum_speedup(label_noise, budget_fraction)
    return s if ordering == "curriculum" else 1 / s


# ---- label budget -------------------------------------------------------------------


def labels_bought(budget_usd: float, usd_per_label: float, pool: float) -> float:
    """n = min(B / c, N_pool): a budget buys labels until the pool runs out.
    Source: handbook/labs/v1_09.md §2."""
    check(budget_usd >= 0, f"budget_usd must be >= 0 (got {budget_usd!r})")
    check(usd_per_label > 0 and pool > 0,
          f"usd_per_label and pool must be > 0 (got {usd_per_label!r}, {pool!r})")
    return min(budget_usd / usd_per_label, pool)


def accuracy_from_labels(labels: float, ceiling: float, coefficient: float) -> float:
    """acc(n) = max(0, a_max − k/√n): a power-law learning curve (a teaching surrogate), never below 0.
    Source: power-law learning curves, Hestness et al. 2017; constants from handbook/labs/v1_09.md §2."""
    check(labels >= 0, f"labels must be >= 0 (got {labels!r})")
    if labels == 0:
        return 0.0
    return max(0.0, ceiling - coefficient / math.sqrt(labels))


def labels_for_accuracy(target: float, ceiling: float, coefficient: float) -> float:
    """n* = (k / (a_max − a))²: labels the learning curve needs to reach ``target``; ∞ at or above a_max.
    Source: the inverse of ``accuracy_from_labels``."""
    check(target > 0, f"target must be > 0 (got {target!r}); an accuracy as a fraction")
    if target >= ceiling:
        return math.inf
    return (coefficient / (ceiling - target)) ** 2


def al_effective_labels(labels: float, pool: float, efficiency: float) -> float:
    """n_eff = n·(1 + (k − 1)(1 − n/N_pool)): active learning's labels count k times early on, and
    not at all extra once the whole pool is labelled (both strategies then hold the same set).
    Source: handbook/labs/v1_09.md §2; k is a claimed efficiency, not a measured one."""
    check(0 <= labels <= pool, f"labels must be in [0, pool] (got {labels!r} of {pool!r})")
    check(0 < efficiency <= 2, f"efficiency must be in (0, 2] (got {efficiency!r}); 1 means no gain, "
                                  "below 1 a loss against random sampling")
    return labels * (1 + (efficiency - 1) * (1 - labels / pool))


def al_labels_for_effective(effective: float, pool: float, efficiency: float) -> float:
    """The n with n_eff(n) = ``effective``: the root in [0, N_pool] of (k−1)/N·n² − k·n + n_eff = 0
    (for k < 1 the other root is negative); ∞ when more than the pool is needed (n_eff rises
    monotonically to N_pool for 0 < k ≤ 2). Source: the inverse of ``al_effective_labels``."""
    check(effective >= 0, f"effective must be >= 0 (got {effective!r})")
    check(0 < efficiency <= 2, f"efficiency must be in (0, 2] (got {efficiency!r})")
    if effective > pool:
        return math.inf
    if efficiency == 1:
        return effective
    a = (efficiency - 1) / pool
    root = math.sqrt(max(0.0, efficiency ** 2 - 4 * a * effective))
    return (efficiency - root) / (2 * a)


def cost_to_accuracy_usd(target: float, usd_per_label: float, pool: float, ceiling: float,
                         coefficient: float, efficiency: float = 1.0) -> float:
    """Dollars of labels to reach ``target``: random sampling with efficiency 1, active learning with k;
    ∞ when even the whole pool falls short. Source: handbook/labs/v1_09.md §2, §4."""
    needed = labels_for_accuracy(target, ceiling, coefficient)
    return al_labels_for_effective(needed, pool, efficiency) * usd_per_label
