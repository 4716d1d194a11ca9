"""Adversarial robustness: chance level, attack decay, the clean–robust trade-off line, training cost.

Accuracies are fractions (0–1); perturbation budgets ε are fractions of the pixel range
(8/255 ≈ 0.031). Every curve here is an interpolation of published CIFAR-10 measurements,
labelled as such on the page: none of it is a law of nature.
"""

from __future__ import annotations

import math
from typing import Sequence

Point = tuple[float, float]  # (robust accuracy, clean accuracy)


def chance_accuracy(num_classes: int) -> float:
    """Accuracy of uniform random guessing over ``num_classes`` balanced classes.

    Source: definition (1/K for K balanced classes)."""
    if num_classes < 2:
        raise ValueError("a classifier needs at least two classes")
    return 1.0 / num_classes


def attack_scale(eps_anchor: float, clean_anchor: float, adv_anchor: float) -> float:
    """ε₀ of the decay a(ε) = clean·exp(−(ε/ε₀)²) through one published point: accuracy
    ``adv_anchor`` at budget ``eps_anchor`` for a model ``clean_anchor`` accurate on clean data.

    Source: handbook/labs/v2_14.md §2 (illustrative interpolation, fitted to Madry et al. 2018's anchors)."""
    if not 0.0 < adv_anchor < clean_anchor:
        raise ValueError("the attacked accuracy must lie between 0 and the clean accuracy")
    return eps_anchor / math.sqrt(math.log(clean_anchor / adv_anchor))


def adversarial_accuracy(clean_acc: float, eps: float, eps_scale: float) -> float:
    """Accuracy under an attack of budget ``eps``: clean·exp(−(ε/ε₀)²); equals ``clean_acc`` at ε = 0.

    Source: handbook/labs/v2_14.md §2 (illustrative interpolation)."""
    return clean_acc * math.exp(-((eps / eps_scale) ** 2))


def clean_drop(robust_acc: float, anchors: Sequence[Point]) -> float:
    """Clean-accuracy drop from the naturally trained model at robust accuracy ``robust_acc``,
    piecewise-linear through the published (robust, clean) ``anchors``; the first anchor is the
    natural model (drop 0). Below it the drop is 0; beyond the last anchor the line has no point,
    so the value is clamped to the last anchor's drop.

    Source: interpolation of Madry et al. 2018 and Zhang et al. 2019 (TRADES) CIFAR-10 points."""
    pts = sorted(anchors)
    base_clean = pts[0][1]
    drops = [(r, base_clean - c) for r, c in pts]
    if robust_acc <= drops[0][0]:
        return 0.0
    for (r0, d0), (r1, d1) in zip(drops, drops[1:]):
        if robust_acc <= r1:
            return d0 + (d1 - d0) * (robust_acc - r0) / (r1 - r0)
    return drops[-1][1]


def clean_on_frontier(robust_acc: float, baseline_clean: float, anchors: Sequence[Point]) -> float:
    """Clean accuracy of a model trained to ``robust_acc`` when its natural version reaches
    ``baseline_clean``: the baseline minus the line's drop (assumes the task's trade-off
    mirrors CIFAR-10's).

    Source: handbook/labs/v2_14.md §3 (drop added to the baseline, an [A] assumption)."""
    return baseline_clean - clean_drop(robust_acc, anchors)


def max_robust_for_clean(baseline_clean: float, clean_floor: float, anchors: Sequence[Point]) -> float:
    """The largest robust accuracy on the line whose clean accuracy stays at or above
    ``clean_floor`` (the inverse of :func:`clean_on_frontier`; the line is monotone). The line
    joins the given published points only: it is not a Pareto frontier, since later recipes can
    lie above it (V2-14: Qin et al. 2019 on the AutoAttack leaderboard).

    Source: inverse of the piecewise-linear frontier above."""
    pts = sorted(anchors)
    budget = baseline_clean - clean_floor
    if budget < 0.0:
        return 0.0
    drops = [(r, pts[0][1] - c) for r, c in pts]
    for (r0, d0), (r1, d1) in zip(drops, drops[1:]):
        if budget <= d1:
            return r0 + (budget - d0) * (r1 - r0) / (d1 - d0)
    return drops[-1][0]


def training_cost_multiplier(attack_steps: int) -> float:
    """Forward+backward passes per training step relative to natural training: k attack steps to
    build the adversarial example plus one to update the weights (PGD-7 AT = 8×).

    Source: Madry et al. 2018 (PGD adversarial training); Zhang et al. 2019 (TRADES, K inner steps)."""
    if attack_steps < 0:
        raise ValueError("attack steps cannot be negative")
    return 1.0 + attack_steps


def linear_logit_shift(eps: float, input_dims: int, mean_abs_weight: float = 1.0) -> float:
    """Goodfellow's linearity argument: an L∞ perturbation of size ε aligned with sign(w) moves a
    linear score by ε·‖w‖₁ = ε·D·mean|w|; it grows with the input dimension D.

    Source: Goodfellow, Shlens and Szegedy 2015, sec. 3."""
    return eps * input_dims * mean_abs_weight
