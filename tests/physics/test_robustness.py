"""Adversarial robustness physics: published CIFAR-10 figures as rows, the spec's golden vectors
(handbook/labs/v2_14.md §4, recomputed on the confirmed anchors only, handbook/errata.md#e34), chance and training
cost."""

from __future__ import annotations

import math

import pytest

from pylabs.physics import constants as C
from pylabs.physics import robustness as rb

ANCHORS = ((C.MADRY_NATURAL_PGD_ACC, C.MADRY_NATURAL_CLEAN_ACC), (C.MADRY_AT_PGD20_ACC, C.MADRY_AT_CLEAN_ACC),
           (C.TRADES_BETA6_PGD20_ACC, C.TRADES_BETA6_CLEAN_ACC))
BASE = 0.973  # the spec's medical baseline


@pytest.mark.parametrize("name, value", [
    ("MADRY_NATURAL_CLEAN_ACC", 0.952), ("MADRY_NATURAL_PGD_ACC", 0.035), ("MADRY_AT_CLEAN_ACC", 0.873),
    ("MADRY_AT_PGD20_ACC", 0.458), ("TRADES_BETA6_CLEAN_ACC", 0.8492), ("TRADES_BETA6_PGD20_ACC", 0.5661),
])
def test_published_figures_in_the_registry(name, value):
    assert getattr(C, name) == value
    assert C.REGISTRY[name].url and C.REGISTRY[name].source


def test_cifar10_budget_is_8_of_255():
    assert C.CIFAR10_EPS_LINF == pytest.approx(0.031, abs=5e-4)


@pytest.mark.parametrize("robust, clean", [(a[0], a[1]) for a in ANCHORS])
def test_frontier_passes_through_every_published_point(robust, clean):
    assert rb.clean_on_frontier(robust, C.MADRY_NATURAL_CLEAN_ACC, ANCHORS) == pytest.approx(clean, abs=1e-12)


@pytest.mark.parametrize("robust, drop_pp, clean_pct", [
    (0.458, 7.90, 89.40), (0.50, 8.8247, 88.4753), (0.52, 9.2650, 88.0350), (0.5661, 10.28, 87.02),
])
def test_spec_4_golden_rows_on_confirmed_anchors(robust, drop_pp, clean_pct):
    """handbook/labs/v2_14.md §4 rows recomputed without the unconfirmed TRADES 1/λ = 1 point
    (handbook/errata.md#e34)."""
    assert rb.clean_drop(robust, ANCHORS) * 100 == pytest.approx(drop_pp, abs=5e-4)
    assert rb.clean_on_frontier(robust, BASE, ANCHORS) * 100 == pytest.approx(clean_pct, abs=5e-4)


def test_spec_4_max_robust_at_the_floors():
    """handbook/labs/v2_14.md §4 'largest robust accuracy with clean ≥ floor': 42.59 % at 90 % (the spec's floor, which
    the
    confirmed frontier makes infeasible for 50 %), 52.16 % at 88 % (the lab's floor)."""
    assert rb.max_robust_for_clean(BASE, 0.90, ANCHORS) == pytest.approx(0.42587, abs=1e-5)
    assert rb.max_robust_for_clean(BASE, 0.88, ANCHORS) == pytest.approx(0.52159, abs=1e-5)


@pytest.mark.parametrize("floor", [0.86, 0.87, 0.88, 0.89, 0.90, 0.95])
def test_max_robust_inverts_the_frontier(floor):
    r = rb.max_robust_for_clean(BASE, floor, ANCHORS)
    if r < ANCHORS[-1][0]:
        assert rb.clean_on_frontier(r, BASE, ANCHORS) == pytest.approx(floor, abs=1e-12)


def test_frontier_edges_are_clamped_and_monotone():
    assert rb.clean_drop(0.0, ANCHORS) == 0.0
    assert rb.clean_drop(0.9, ANCHORS) == pytest.approx(ANCHORS[0][1] - ANCHORS[-1][1])
    grid = [i / 100 for i in range(0, 60)]
    drops = [rb.clean_drop(r, ANCHORS) for r in grid]
    assert all(b >= a for a, b in zip(drops, drops[1:]))
    assert rb.max_robust_for_clean(BASE, 0.99, ANCHORS) == 0.0
    assert rb.max_robust_for_clean(BASE, 0.5, ANCHORS) == ANCHORS[-1][0]


def test_spec_4_act1_anchors_reproduced():
    """handbook/labs/v2_14.md §4: at ε = 8/255 with 95.2 % clean, PGD → 3.5 % (and FGSM → 32.7 %, an assumed anchor)."""
    eps = C.CIFAR10_EPS_LINF
    for adv in (0.035, 0.327):
        scale = rb.attack_scale(eps, 0.952, adv)
        assert rb.adversarial_accuracy(0.952, eps, scale) == pytest.approx(adv, rel=1e-12)
    assert rb.attack_scale(eps, 0.952, 0.035) * 255 == pytest.approx(4.40, abs=0.005)
    assert rb.attack_scale(eps, 0.952, 0.327) * 255 == pytest.approx(7.74, abs=0.005)


def test_attack_decay_is_clean_at_zero_and_falls():
    assert rb.adversarial_accuracy(0.9, 0.0, 0.02) == 0.9
    assert rb.adversarial_accuracy(0.9, 0.06, 0.02) < rb.adversarial_accuracy(0.9, 0.03, 0.02)
    with pytest.raises(ValueError):
        rb.attack_scale(0.03, 0.9, 0.95)


def test_chance_level():
    assert rb.chance_accuracy(10) == 0.1
    with pytest.raises(ValueError):
        rb.chance_accuracy(1)


def test_spec_4_training_cost():
    """handbook/labs/v2_14.md §4: PGD-7 AT = 8×; TRADES with K = 10 = 11×."""
    assert rb.training_cost_multiplier(7) == 8.0
    assert rb.training_cost_multiplier(10) == 11.0
    with pytest.raises(ValueError):
        rb.training_cost_multiplier(-1)


def test_goodfellow_l1_at_imagenet_size():
    """handbook/labs/v2_14.md §2: 150,528 × 8/255 = 4,722 (not 4,666)."""
    assert rb.linear_logit_shift(8 / 255, 224 * 224 * 3) == pytest.approx(4722.45, abs=0.01)
    assert math.isclose(rb.linear_logit_shift(0.0, 10), 0.0)
