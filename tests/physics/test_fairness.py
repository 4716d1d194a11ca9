"""Confusion-matrix fairness algebra: the Chouldechova identity on a grid (cross-checked with numpy),
the binormal model against the curriculum's golden vectors (handbook/labs/v2_16.md §4, d′ = 2.4), and the
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


@pytest.mark.parametrize("x", (-9.0, -1.0, 0.0, 0.3095, 1.2, 8.5, 10.5, 20.0))
def test_upper_tail_matches_scipy_far_into_the_tail(x):
    """1 − Φ(x) as scipy.stats.norm.sf gives it: at x = 10.5 that is 4.3 × 10⁻²⁶, where
    1 − NormalDist().cdf(x) reads exactly 0 (V1-15 at its sliders' extremes)."""
    from scipy.stats import norm
    assert F.upper_tail(x) == pytest.approx(norm.sf(x), rel=1e-12)


def test_v1_15_rates_far_into_the_tail_are_tiny_not_zero():
    """A group whose cutoff sits 10 σ above its negatives still approves some: its FPR, TPR and
    selection rate are positive and its precision is a ratio of two positive numbers, not 0/0."""
    g = F.rates_at_z(0.05, 10.25, 0.5)
    assert 0 < g.fpr < 1e-24 and 0 < g.tpr < 1e-20 and 0 < g.selection_rate
    assert g.ppv == pytest.approx(0.05 * g.tpr / (0.05 * g.tpr + 0.95 * g.fpr), rel=1e-12) and g.ppv < 1


# ---- golden vectors: handbook/labs/v2_16.md §4 ----------------------------------------------------


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


# ---- V1-15 There Is No Free Fairness: golden vectors, handbook/labs/v1_15.md §4, d = 2 --------

from pylabs.physics.fairness import (accuracy, auc_binormal, calibrated_cutoff_z, equalized_odds_gap,  # noqa: E402
                                     impact_ratio, rates_at_z, z_for_selection, z_for_tpr)

D = 2.0


def _calibrated(p, t=0.5):
    return rates_at_z(p, calibrated_cutoff_z(t, p, D), D)


def test_v1_15_4_one_calibrated_cutoff_equal_accuracy_unequal_errors():
    a, b = _calibrated(0.35), _calibrated(0.65)
    assert (a.tpr, a.fpr, a.ppv, accuracy(a)) == pytest.approx((0.7551, 0.0952, 0.8103, 0.8524), abs=5e-5)
    assert (b.tpr, b.fpr, b.ppv, accuracy(b)) == pytest.approx((0.9048, 0.2449, 0.8728, 0.8524), abs=5e-5)
    assert impact_ratio([a.selection_rate, b.selection_rate]) == pytest.approx(0.484, abs=5e-4)


def test_v1_15_4_the_identity_holds_for_group_a():
    a = _calibrated(0.35)
    assert a.base_rate / (1 - a.base_rate) * (1 - a.ppv) / a.ppv * (1 - a.fnr) == pytest.approx(0.09518, abs=5e-6)
    assert a.fpr == pytest.approx(0.09518, abs=5e-6)


@pytest.mark.parametrize("tpr", (0.6, 0.8, 0.95, 0.99))
def test_v1_15_blind_impact_ratio_counts_selection_from_the_two_normal_tails(tpr):
    """SEL = p·TPR + (1 − p)·FPR at one cutoff, with scipy's normal quantile and tail."""
    from scipy.stats import norm
    fpr = norm.sf(D / 2 + norm.ppf(1 - tpr) + D / 2)
    sel_a, sel_b = 0.35 * tpr + 0.65 * fpr, 0.65 * tpr + 0.35 * fpr
    assert F.blind_impact_ratio(0.35, 0.65, tpr, D) == pytest.approx(sel_a / sel_b, rel=1e-12)


def test_v1_15_one_blind_cutoff_reaches_four_fifths_only_near_97_percent_recall():
    """scipy.optimize.brentq on the same ratio: 0.96869 (where FPR is 44.5 %)."""
    from scipy.optimize import brentq
    from scipy.stats import norm

    def ratio(tpr):
        fpr = norm.sf(D + norm.ppf(1 - tpr))
        return (0.35 * tpr + 0.65 * fpr) / (0.65 * tpr + 0.35 * fpr) - 0.8
    assert F.tpr_for_impact_ratio(0.35, 0.65, D, 0.8) == pytest.approx(brentq(ratio, 0.81, 0.999), abs=1e-9)
    assert F.tpr_for_impact_ratio(0.35, 0.65, D, 0.8) == pytest.approx(0.96869, abs=5e-6)


@pytest.mark.parametrize("ratio", (1.0, 1.6, 0.5, 0.3))
def test_v1_15_a_ratio_no_single_cutoff_reaches_is_refused_not_answered_with_the_range_end(ratio):
    """Review (defect class 9): the bisection answered a ratio of 1.6 with a recall of 1 − 10⁻¹⁵ and a
    ratio of 0.3 with 10⁻⁹, ends of its range shown as if reached. One cutoff's ratio runs from the
    base rates' 0.35/0.65 = 0.538 (recall near 0) toward 1 (everyone selected), so these are refused."""
    with pytest.raises(F.FairnessError, match="no single cutoff"):
        F.tpr_for_impact_ratio(0.35, 0.65, D, ratio)


def test_v1_15_a_ratio_of_zero_is_refused():
    with pytest.raises(F.FairnessError, match="ratio"):
        F.tpr_for_impact_ratio(0.35, 0.65, D, 0.0)


def test_v1_15_ratios_near_the_ends_of_the_reach_are_still_found():
    """Just inside the reach, the bisection lands on the recall whose ratio is the target."""
    for ratio in (0.54, 0.99):
        tpr = F.tpr_for_impact_ratio(0.35, 0.65, D, ratio)
        assert F.blind_impact_ratio(0.35, 0.65, tpr, D) == pytest.approx(ratio, rel=1e-9)


def test_v1_15_4_policy_2_one_group_blind_cutoff_at_recall_80():
    z = z_for_tpr(0.80, D)
    assert z == pytest.approx(0.1584, abs=5e-5)
    a, b = rates_at_z(0.35, z, D), rates_at_z(0.65, z, D)
    assert a.tpr == pytest.approx(0.80) and b.tpr == pytest.approx(0.80)
    assert a.fpr == pytest.approx(0.1234, abs=5e-5) and equalized_odds_gap(a, b) == pytest.approx(0, abs=1e-12)
    assert (a.selection_rate, b.selection_rate) == pytest.approx((0.3602, 0.5632), abs=5e-5)
    assert impact_ratio([a.selection_rate, b.selection_rate]) == pytest.approx(0.6396, abs=5e-4)
    assert (a.ppv, b.ppv) == pytest.approx((0.7774, 0.9233), abs=5e-5)


def test_v1_15_4_policy_3_equal_selection_opens_an_error_gap():
    sel = 0.4617
    za, zb = z_for_selection(0.35, sel, D), z_for_selection(0.65, sel, D)
    assert (za, zb) == pytest.approx((-0.2552, 0.5406), abs=5e-4)
    a, b = rates_at_z(0.35, za, D), rates_at_z(0.65, zb, D)
    assert (a.tpr, b.tpr) == pytest.approx((0.8953, 0.6770), abs=5e-4)
    assert equalized_odds_gap(a, b) == pytest.approx(0.2183, abs=5e-4)


def test_v1_15_auc_at_d_2():
    assert auc_binormal(2.0) == pytest.approx(0.921, abs=5e-4)


# ---- a score calibrated within a group: the binormal posterior -------------------------------


@pytest.mark.parametrize("p, s", [(0.02, 1.8), (0.1, 1.8), (0.3, -1.0), (0.5, 0.0), (0.9, 3.0)])
def test_posterior_is_bayes_rule_on_the_two_normal_densities(p, s):
    """P(positive | s) = p·φ(s − d′) / (p·φ(s − d′) + (1 − p)·φ(s)), computed with scipy."""
    from scipy.stats import norm
    expected = p * norm.pdf(s - D_PRIME) / (p * norm.pdf(s - D_PRIME) + (1 - p) * norm.pdf(s))
    assert F.posterior(p, s, D_PRIME) == pytest.approx(expected, rel=1e-12)


def test_one_raw_score_means_different_chances_in_groups_with_different_base_rates():
    """V2-16: at t = 1.8 the same score is 7.93 % likely qualified in group A, 31.9 % in group B."""
    assert (F.posterior(P_A, 1.8, D_PRIME), F.posterior(P_B, 1.8, D_PRIME)) == pytest.approx((0.0793, 0.3192), abs=5e-5)


@pytest.mark.parametrize("p", (0.02, 0.1, 0.35, 0.65))
def test_threshold_for_posterior_inverts_posterior_and_matches_v1_15_cutoffs(p):
    for q in (0.05, 0.32, 0.5, 0.9):
        t = F.threshold_for_posterior(p, q, D_PRIME)
        assert F.posterior(p, t, D_PRIME) == pytest.approx(q, rel=1e-12)
        assert t == pytest.approx(F.calibrated_cutoff_z(q, p, D_PRIME) + D_PRIME / 2, rel=1e-12)


def test_posterior_underflows_to_zero_far_below_instead_of_overflowing():
    assert F.posterior(0.01, -400.0, 4.0) == 0.0 and F.posterior(0.99, 400.0, 4.0) == 1.0


def test_a_ppv_below_the_base_rate_is_out_of_reach_not_the_end_of_the_search():
    """PPV → p as t → −∞ (every negative and positive flagged), so no threshold gives a group with a
    30 % base rate a precision of 15 %. The bisection used to return −10 silently (a class-9 defect
    found in V1-15's review); now it raises, or, asked for the nearest point, gives the search's end."""
    with pytest.raises(F.FairnessError, match="no threshold"):
        F.threshold_for_ppv(0.30, 0.15, D_PRIME)
    t = F.threshold_for_ppv(0.30, 0.15, D_PRIME, nearest=True)
    assert F.binormal_rates(0.30, t, D_PRIME).ppv == pytest.approx(0.30, abs=1e-9)
    with pytest.raises(F.FairnessError):
        F.threshold_for_selection(0.2, 1 - 1e-30, D_PRIME)
