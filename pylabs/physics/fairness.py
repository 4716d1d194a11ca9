"""Group fairness from the confusion matrix: selection rate, error rates, PPV, and why they clash.

Each group is described by its base rate p (the share of truly positive cases) and the
classifier's true- and false-positive rates at that group's threshold. Everything else follows
by algebra on the confusion matrix:

* selection rate  s = p·TPR + (1 − p)·FPR
* precision       PPV = p·TPR / s
* the identity    FPR = p/(1 − p) · (1 − PPV)/PPV · TPR   (Chouldechova 2017)

The identity is the impossibility: if two groups share TPR and PPV (error-rate balance on
positives and predictive parity) but have different p, their FPRs must differ. Scores come from
a binormal model (negatives N(0, 1), positives N(d′, 1), the same in every group), so the classifier
is imperfect and identical across groups: every gap the lab shows comes from base rates and
thresholds, not from a biased model. Rates are fractions; standard library only.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Callable, Sequence

from pylabs.physics.validators import require

_STD = NormalDist()
_LOW, _HIGH = -10.0, 10.0   # thresholds searched, in standard deviations of the negative scores
_ITERATIONS = 200
_TPR_LOW, _TPR_HIGH = 1e-9, 1.0 - 1e-15   # recalls searched, strictly inside (0, 1)


class FairnessError(ValueError):
    """Rates outside their domain (a base rate not strictly between 0 and 1, a negative rate)."""


def _check_rate(name: str, value: float, open_interval: bool = False) -> None:
    ok = 0.0 < value < 1.0 if open_interval else 0.0 <= value <= 1.0
    require(ok, name, value, "(0, 1)" if open_interval else "[0, 1]", "pass a fraction",
            form="{name} = {value} is outside {rule}; {fix}", error=FairnessError)


@dataclass(frozen=True)
class GroupRates:
    """One group's confusion matrix, as fractions of that group."""

    base_rate: float
    tpr: float
    fpr: float

    def __post_init__(self) -> None:
        _check_rate("base_rate", self.base_rate, open_interval=True)
        _check_rate("tpr", self.tpr)
        _check_rate("fpr", self.fpr)

    @property
    def fnr(self) -> float:
        return 1.0 - self.tpr

    @property
    def selection_rate(self) -> float:
        return selection_rate(self.base_rate, self.tpr, self.fpr)

    @property
    def ppv(self) -> float:
        return ppv(self.base_rate, self.tpr, self.fpr)


def selection_rate(base_rate: float, tpr: float, fpr: float) -> float:
    """s = p·TPR + (1 − p)·FPR: the share of the group the classifier selects (flags, hires).
    Source: confusion-matrix algebra (Chouldechova 2017)."""
    return base_rate * tpr + (1.0 - base_rate) * fpr


def ppv(base_rate: float, tpr: float, fpr: float) -> float:
    """PPV = p·TPR / (p·TPR + (1 − p)·FPR), the share of selected cases that are truly positive
    (1 when nothing is selected). Source: Bayes' rule on the confusion matrix."""
    selected = selection_rate(base_rate, tpr, fpr)
    return base_rate * tpr / selected if selected > 0 else 1.0


def fpr_from_identity(base_rate: float, ppv_value: float, tpr: float) -> float:
    """FPR = p/(1 − p) · (1 − PPV)/PPV · TPR. Source: Chouldechova 2017 (the relation behind her impossibility result)."""
    return base_rate / (1.0 - base_rate) * (1.0 - ppv_value) / ppv_value * tpr


def upper_tail(x: float) -> float:
    """1 − Φ(x) = erfc(x/√2)/2, accurate far into the tail (1 − Φ(x) computed as a difference
    reads 0 from x ≈ 8.3, where the true value is 10⁻¹⁶ and below).
    Source: the normal distribution's survival function via the complementary error function."""
    return 0.5 * math.erfc(x / math.sqrt(2.0))


def binormal_rates(base_rate: float, threshold: float, d_prime: float) -> GroupRates:
    """Rates at score threshold t: FPR = 1 − Φ(t), TPR = 1 − Φ(t − d′).
    Source: equal-variance binormal ROC model (signal detection theory; Green and Swets 1966)."""
    return GroupRates(base_rate, 1.0 - _STD.cdf(threshold - d_prime), 1.0 - _STD.cdf(threshold))


def _bisect(value: Callable[[float], float], target: float, increasing: bool, nearest: bool = False) -> float:
    """The threshold where a monotone function of the threshold reaches ``target``. A target the
    thresholds searched (±10 standard deviations) do not bracket raises FairnessError instead of
    returning the end of the search as if it were the answer; with ``nearest`` the caller asks for
    that end (the closest the group can come) and must say so where it shows it."""
    if not nearest:
        lowest, highest = sorted((value(_LOW), value(_HIGH)))
        if not lowest <= target <= highest:
            raise FairnessError(f"no threshold within ±{_HIGH:g} standard deviations gives {target}: "
                                f"the value runs from {lowest:.6g} to {highest:.6g}")
    low, high = _LOW, _HIGH
    for _ in range(_ITERATIONS):
        middle = (low + high) / 2
        if (value(middle) < target) == increasing:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def threshold_for_selection(base_rate: float, selection: float, d_prime: float) -> float:
    """The threshold at which the group's selection rate is ``selection`` (selection falls as t rises).
    Source: inverts ``selection_rate`` under the binormal model by bisection."""
    _check_rate("selection", selection, open_interval=True)
    return _bisect(lambda t: binormal_rates(base_rate, t, d_prime).selection_rate, selection, increasing=False)


def threshold_for_ppv(base_rate: float, target_ppv: float, d_prime: float, nearest: bool = False) -> float:
    """The threshold at which the group's PPV is ``target_ppv`` (PPV rises with t when d′ > 0,
    because the likelihood ratio of the binormal model rises with the score). PPV never falls below
    the base rate (its limit as t → −∞): a lower target raises FairnessError, or with ``nearest``
    gives the lowest threshold searched.
    Source: inverts ``ppv`` under the binormal model by bisection."""
    _check_rate("target_ppv", target_ppv, open_interval=True)
    return _bisect(lambda t: binormal_rates(base_rate, t, d_prime).ppv, target_ppv, increasing=True, nearest=nearest)


def posterior(base_rate: float, score: float, d_prime: float) -> float:
    """P(positive | score) = σ(logit p + d′·s − d′²/2): what a score calibrated within a group of
    base rate p says at raw score s. The same raw score means a different chance in groups with
    different p, so one raw score is not calibrated within groups.
    Source: Bayes' rule on the equal-variance binormal model (Green and Swets 1966)."""
    _check_rate("base_rate", base_rate, open_interval=True)
    log_odds = logit(base_rate) + d_prime * score - d_prime * d_prime / 2.0
    return 1.0 / (1.0 + math.exp(-log_odds)) if log_odds > -700 else 0.0


def threshold_for_posterior(base_rate: float, probability: float, d_prime: float) -> float:
    """The raw-score threshold at which a group's within-group calibrated score reaches ``probability``:
    s = (logit q − logit p)/d′ + d′/2 (``calibrated_cutoff_z`` on scores centred between the classes).
    Source: inverts ``posterior``."""
    return calibrated_cutoff_z(probability, base_rate, d_prime) + d_prime / 2.0


def threshold_for_fpr(fpr: float) -> float:
    """t = Φ⁻¹(1 − FPR): the threshold with a given false-positive rate (any group, same scores).
    Source: inverse of the negatives' score distribution."""
    _check_rate("fpr", fpr, open_interval=True)
    return _STD.inv_cdf(1.0 - fpr)


def impact_ratio(selection_rates: Sequence[float]) -> float:
    """The lowest group's selection rate ÷ the highest group's (1 when no group is selected).
    Source: US Uniform Guidelines on Employee Selection Procedures, 29 CFR 1607.4(D)."""
    highest = max(selection_rates)
    return min(selection_rates) / highest if highest > 0 else 1.0


def passes_four_fifths(ratio: float, limit: float = 0.8) -> bool:
    """True unless a group's selection rate is below four-fifths of the highest group's.
    Source: 29 CFR 1607.4(D) (a lower ratio is evidence of adverse impact, not proof)."""
    return ratio >= limit


def demographic_parity_gap(a: GroupRates, b: GroupRates) -> float:
    """|s_A − s_B|: demographic (statistical) parity holds at 0. Source: Dwork et al. 2012."""
    return abs(a.selection_rate - b.selection_rate)


def fpr_gap(a: GroupRates, b: GroupRates) -> float:
    """|FPR_A − FPR_B|. Source: Hardt, Price and Srebro 2016 (one half of equalized odds)."""
    return abs(a.fpr - b.fpr)


def equalized_odds_gap(a: GroupRates, b: GroupRates) -> float:
    """max(|ΔTPR|, |ΔFPR|): equalized odds holds at 0. Source: Hardt, Price and Srebro 2016."""
    return max(abs(a.tpr - b.tpr), fpr_gap(a, b))


def predictive_parity_gap(a: GroupRates, b: GroupRates) -> float:
    """|PPV_A − PPV_B|: predictive parity holds at 0. Source: Chouldechova 2017."""
    return abs(a.ppv - b.ppv)


def qualified_rejected_per_day(evaluations_per_day: float, base_rate: float, fnr: float) -> float:
    """N·p·FNR: truly qualified candidates a screen rejects per day. Source: confusion-matrix count."""
    return evaluations_per_day * base_rate * fnr


# ---- V1-15 There Is No Free Fairness: a score calibrated within each group ------------------
# Latent test score z | Y=1 ~ N(+d/2, 1), z | Y=0 ~ N(−d/2, 1) in every group (handbook/labs/v1_15.md §2); in
# this module's convention (negatives N(0, 1), positives N(d′, 1)) that is a shift by d/2.


def logit(p: float) -> float:
    _check_rate("p", p, open_interval=True)
    return math.log(p / (1.0 - p))


def calibrated_cutoff_z(probability_cutoff: float, base_rate: float, d: float) -> float:
    """z_g = (logit t − logit p_g)/d: the test-score cutoff at which the calibrated score
    s_g = σ(logit p_g + d·z) reaches the shared probability cutoff t.
    Source: handbook/labs/v1_15.md §2; the score is the group's posterior under the binormal model."""
    _check_rate("probability_cutoff", probability_cutoff, open_interval=True)
    if d <= 0:
        raise FairnessError(f"d = {d} must be positive")
    return (logit(probability_cutoff) - logit(base_rate)) / d


def rates_at_z(base_rate: float, z_cutoff: float, d: float) -> GroupRates:
    """TPR = 1 − Φ(z − d/2), FPR = 1 − Φ(z + d/2) for a cutoff on the centred test score, each tail
    through ``upper_tail``, so a cutoff far up a group's scores still approves a few (10⁻²⁶, not 0).
    Source: handbook/labs/v1_15.md §2; equal-variance binormal model (Green and Swets 1966)."""
    return GroupRates(base_rate, upper_tail(z_cutoff - d / 2.0), upper_tail(z_cutoff + d / 2.0))


def accuracy(rates: GroupRates) -> float:
    """ACC = p·TPR + (1 − p)·(1 − FPR)."""
    return rates.base_rate * rates.tpr + (1.0 - rates.base_rate) * (1.0 - rates.fpr)


def z_for_tpr(tpr: float, d: float) -> float:
    """z* = d/2 + Φ⁻¹(1 − TPR): one group-blind cutoff with the given recall in every group.
    Source: inverse of the positives' score distribution (handbook/labs/v1_15.md §2, policy 2)."""
    _check_rate("tpr", tpr, open_interval=True)
    return d / 2.0 + _STD.inv_cdf(1.0 - tpr)


def z_for_selection(base_rate: float, selection: float, d: float) -> float:
    """The centred cutoff at which a group's selection rate is ``selection`` (policy 3).
    Source: inverts ``selection_rate`` by bisection."""
    return threshold_for_selection(base_rate, selection, d) - d / 2.0


def auc_binormal(d: float) -> float:
    """AUC = Φ(d/√2) for the equal-variance binormal model.
    Source: Green and Swets 1966; Hanley and McNeil 1982."""
    return _STD.cdf(d / math.sqrt(2.0))


def blind_impact_ratio(base_a: float, base_b: float, tpr: float, d: float) -> float:
    """The adverse-impact ratio of one group-blind cutoff with recall ``tpr`` in both groups:
    SEL_g = p_g·TPR + (1 − p_g)·FPR with the same TPR and FPR, so SEL_A ÷ SEL_B =
    (p_A + (1 − p_A)·r) ÷ (p_B + (1 − p_B)·r) with r = FPR ÷ TPR: the ratio rises with r (as a lower
    cutoff admits the unqualified more nearly as often as the qualified), not as TPR − FPR shrinks
    (TPR − FPR grows as the cutoff falls to the midpoint of the two score distributions).
    Source: confusion-matrix algebra on the binormal model (handbook/labs/v1_15.md §2, policy 2)."""
    rates = [rates_at_z(p, z_for_tpr(tpr, d), d) for p in (base_a, base_b)]
    return impact_ratio([r.selection_rate for r in rates])


def tpr_for_impact_ratio(base_a: float, base_b: float, d: float, ratio: float) -> float:
    """The recall at which one group-blind cutoff reaches adverse-impact ratio ``ratio`` (the ratio
    rises with recall, from the base rates' own ratio as recall nears 0 toward 1 as the cutoff admits
    everyone). A ratio outside what the recalls searched reach raises FairnessError: a bisection
    returns the end of its range there, which would read as a recall that reaches the ratio.
    Source: inverts ``blind_impact_ratio`` by bisection."""
    if ratio <= 0:
        raise FairnessError(f"ratio = {ratio} must be positive")
    low, high = _TPR_LOW, _TPR_HIGH
    reach = blind_impact_ratio(base_a, base_b, low, d), blind_impact_ratio(base_a, base_b, high, d)
    if not reach[0] <= ratio <= reach[1]:
        raise FairnessError(f"no single cutoff reaches an impact ratio of {ratio}: between recalls of {low} "
                            f"and 1 − {1 - high:.0e} it runs from {reach[0]:.6g} to {reach[1]:.6g}")
    for _ in range(_ITERATIONS):
        middle = (low + high) / 2
        if blind_impact_ratio(base_a, base_b, middle, d) < ratio:
            low = middle
        else:
            high = middle
    return (low + high) / 2
