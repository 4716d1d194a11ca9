"""Confusion-matrix fairness algebra: the Chouldechova identity on a grid (cross-checked with numpy),
the binormal model against the curriculum's golden vectors (VOL2 §V2-16 §4, d′ = 2.4), and the
four-fifths rule as 29 CFR 1607.4(D) states it."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pylabs.physics import fairness as F

D_PRIME = 2.4
P_A, P_B = 0.02, 0.10


# ---- the identity: FPR = p/(1 − p)·(1 − PPV)/PPV·TPR ------------------------------------

GRID = list(itertools.product((0.01, 0.02, 0.1, 0.3, 0.5, 0.9), (0.05, 0.3, 0.76, 0.99), (0.001, 0.05, 0.4, 0.9)))


@pytest.mark.parametrize("p, tpr, fpr", GRID)
def test_identity_recovers_fpr_on_a_grid(p, tpr, fpr):
    value = F.ppv(p, tpr, fpr)
    assert F.fpr_from_identity(p, value, tpr) == pytest.approx(fpr, rel=1e-12)


def test_identity_matches_a_numpy_confusion_matrix():
    """Count a synthetic population with numpy (independent of the closed forms) and compare."""
    rng = np.random.default_rng(16)
    for p in (0.02, 0.1, 0.4):
        labels = rng.random(400_000) < p
        scores = rng.normal(0.0, 1.0, labels.size) + D_PRIME * labels
        flagged = scores >= 1.8
        tp, fp = np.sum(flagged & labels), np.sum(flagged & ~labels)
        tpr, fpr = tp / labels.sum(), fp / (~labels).sum()
        ppv = tp / flagged.sum()
        p_hat = labels.mean()
        assert F.fpr_from_identity(p_hat, ppv, tpr) == pytest.approx(fpr, rel=1e-9)
        assert F.selection_rate(p_hat, tpr, fpr) == pytest.approx(flagged.mean(), rel=1e-9)
        model = F.binormal_rates(p, 1.8, D_PRIME)
        assert (tpr, fpr) == pytest.approx((model.tpr, model.fpr), abs=0.01)


def test_equal_tpr_and_ppv_with_unequal_base_rates_force_unequal_fpr():
    """Chouldechova 2017: hold TPR and PPV equal across groups; FPR scales with p/(1 − p)."""
    fpr_a, fpr_b = (F.fpr_from_identity(p, 0.5, 0.7) for p in (P_A, P_B))
    assert fpr_b / fpr_a == pytest.approx((P_B / (1 - P_B)) / (P_A / (1 - P_A)), rel=1e-12)
    assert fpr_a != pytest.approx(fpr_b)


def test_equal_base_rates_let_every_criterion_hold_together():
    a, b = F.binormal_rates(0.06, 1.8, D_PRIME), F.binormal_rates(0.06, 1.8, D_PRIME)
    assert F.demographic_parity_gap(a, b) == F.equalized_odds_gap(a, b) == F.predictive_parity_gap(a, b) == 0.0


# ---- golden vectors: VOL2 §V2-16 §4 ----------------------------------------------------


def test_spec_4_demographic_parity_at_six_percent():
    t_a, t_b = (F.threshold_for_selection(p, 0.06, D_PRIME) for p in (P_A, P_B))
    a, b = F.binormal_rates(P_A, t_a, D_PRIME), F.binormal_rates(P_B, t_b, D_PRIME)
    assert (a.fpr, a.tpr, a.ppv) == pytest.approx((0.0457, 0.7617, 0.2539), abs=5e-5)
    assert (b.fpr, b.tpr, b.ppv) == pytest.approx((0.0092, 0.5171, 0.8619), abs=5e-5)
    assert a.fpr / b.fpr == pytest.approx(4.96, abs=5e-3)
    assert F.demographic_parity_gap(a, b) == pytest.approx(0.0, abs=1e-12)


def test_spec_4_single_threshold():
    a, b = F.binormal_rates(P_A, 1.8, D_PRIME), F.binormal_rates(P_B, 1.8, D_PRIME)
    assert a.fpr == b.fpr == pytest.approx(0.0359, abs=5e-5)
    assert F.equalized_odds_gap(a, b) == 0.0
    assert (a.selection_rate, b.selection_rate) == pytest.approx((0.0497, 0.1049), abs=5e-5)
    assert (a.ppv, b.ppv) == pytest.approx((0.2919, 0.6918), abs=5e-5)
    assert F.impact_ratio([a.selection_rate, b.selection_rate]) == pytest.approx(0.474, abs=5e-4)


def test_spec_4_four_fifths_fix():
    b = F.binormal_rates(P_B, 1.8, D_PRIME)
    t_a = F.threshold_for_selection(P_A, 0.0839, D_PRIME)
    a = F.binormal_rates(P_A, t_a, D_PRIME)
    assert a.fpr == pytest.approx(0.0689, abs=5e-5)
    # The spec's 0.0839 is 0.8 × s_B rounded; at the exact four-fifths point the gap is 3.30 pp.
    exact = F.binormal_rates(P_A, F.threshold_for_selection(P_A, 0.8 * b.selection_rate, D_PRIME), D_PRIME)
    assert F.fpr_gap(exact, b) == pytest.approx(0.0330, abs=5e-5)


def test_spec_4_scale_row():
    assert F.qualified_rejected_per_day(5e6, 0.1, 0.3) == pytest.approx(150_000.0)


# ---- inverses and the legal screen --------------------------------------------------------


@pytest.mark.parametrize("p", (0.02, 0.1, 0.5))
@pytest.mark.parametrize("target", (0.01, 0.06, 0.3))
def test_threshold_for_selection_inverts(p, target):
    t = F.threshold_for_selection(p, target, D_PRIME)
    assert F.binormal_rates(p, t, D_PRIME).selection_rate == pytest.approx(target, rel=1e-10)


@pytest.mark.parametrize("p, target", [(0.02, 0.3), (0.1, 0.6918), (0.5, 0.9)])
def test_threshold_for_ppv_inverts(p, target):
    t = F.threshold_for_ppv(p, target, D_PRIME)
    assert F.binormal_rates(p, t, D_PRIME).ppv == pytest.approx(target, rel=1e-9)


def test_threshold_for_fpr_inverts():
    assert F.binormal_rates(0.1, F.threshold_for_fpr(0.0359), D_PRIME).fpr == pytest.approx(0.0359, rel=1e-12)


def test_four_fifths_is_a_selection_rate_screen():
    """29 CFR 1607.4(D): a rate below 4/5 of the highest group's is evidence of adverse impact."""
    assert F.impact_ratio([0.42, 0.60]) == pytest.approx(0.70)
    assert not F.passes_four_fifths(0.70) and F.passes_four_fifths(0.80)
    assert F.impact_ratio([0.0, 0.0]) == 1.0


def test_nothing_selected_has_ppv_one_and_no_nan():
    assert F.ppv(0.1, 0.0, 0.0) == 1.0


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.1, 1.2])
def test_base_rate_outside_the_open_interval_is_refused(bad):
    with pytest.raises(F.FairnessError, match="base_rate"):
        F.GroupRates(bad, 0.5, 0.1)
