"""The scenario and model of V2-16 (The Fairness Impossibility): the two teams' inputs, both groups'
rates at their thresholds under each fairness rule, and the Act II deployments checked against the
US and EU rules. The lab module (``v2_16``) reads like its page; this is its model."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import constants as C
from pylabs.physics import fairness as F


@dataclass(frozen=True)
class Scenario:
    """The two teams' stated inputs; [A] marks the spec's scenario assumptions."""

    d_prime: float = 2.4                 # [A] score separation, the same in both groups
    base_a: float = 0.02                 # group A's share of truly violating posts / qualified applicants
    base_b: float = 0.10
    base_equal: float = 0.06             # the counterfactual context: both groups alike
    flag_rate: float = 0.06              # Act I: demographic parity at 6 %
    better_d_prime: float = 3.5          # Act I reflection: a much better classifier
    threshold: float = 1.8               # Act II: the platform's score cut-off
    evaluations_per_day: float = 5e6     # 0.5 % of a billion users screened a day
    eu_tolerance: float = 0.02           # [A] the team's documented |ΔFPR| tolerance
    harm_budget: float = 1e5             # qualified candidates rejected per day before the warning
    group_share: float = 0.5             # [A] each group is half of the applicants
    jurisdiction_share: float = 0.5      # [A] half the screens fall under each rule set
    pp_per_unit: float = 100.0
    sweep_below: float = 0.7             # Act II chart: group A's threshold from t − 0.7 ...
    sweep_above: float = 1.2             # ... to t + 1.2
    chart_height_px: float = 380.0       # room for the legend of four rules on a phone
    countries: float = 180.0
    eur_per_million: float = 1e6
    upstream_fine_turnover: float = 0.06  # the upstream lab's invented "6 % of turnover"


S = Scenario()


@dataclass(frozen=True)
class Pair:
    """Both groups at their thresholds."""

    a: F.GroupRates
    b: F.GroupRates
    t_a: float
    t_b: float

    @property
    def fpr_ratio(self) -> float:
        return self.a.fpr / self.b.fpr

    @property
    def impact(self) -> float:
        return F.impact_ratio([self.a.selection_rate, self.b.selection_rate])

    @property
    def fpr_gap(self) -> float:
        return F.fpr_gap(self.a, self.b)


def pair(p_a: float, p_b: float, t_a: float, t_b: float, d_prime: float = S.d_prime) -> Pair:
    return Pair(F.binormal_rates(p_a, t_a, d_prime), F.binormal_rates(p_b, t_b, d_prime), t_a, t_b)


def group_a_threshold(rule: str, p_a: float, p_b: float, t_b: float, d_prime: float = S.d_prime) -> float:
    """Group A's threshold under a rule, given group B's threshold and the same scores."""
    b = F.binormal_rates(p_b, t_b, d_prime)
    if rule == "dp":
        return F.threshold_for_selection(p_a, b.selection_rate, d_prime)
    if rule == "ppv":
        return F.threshold_for_ppv(p_a, b.ppv, d_prime)
    if rule == "fourfifths" and pair(p_a, p_b, t_b, t_b, d_prime).impact < C.UGESP_FOUR_FIFTHS:
        return F.threshold_for_selection(p_a, C.UGESP_FOUR_FIFTHS * b.selection_rate, d_prime)
    return t_b


@lru_cache(maxsize=64)
def act1_pair(criterion: str, p_a: float, p_b: float, flag_rate: float, d_prime: float = S.d_prime) -> Pair:
    """Group B flags ``flag_rate`` of its members; group A's threshold follows the criterion.
    Kept per arguments: the page asks for the same pair several times per move (two bisections)."""
    t_b = F.threshold_for_selection(p_b, flag_rate, d_prime)
    t_a = (F.threshold_for_selection(p_a, flag_rate, d_prime) if criterion == "dp"
           else group_a_threshold(criterion, p_a, p_b, t_b, d_prime))
    return pair(p_a, p_b, t_a, t_b, d_prime)


def a2_pair(rule: str, t_b: float = S.threshold) -> Pair:
    return pair(S.base_a, S.base_b, group_a_threshold(rule, S.base_a, S.base_b, t_b), t_b)


# ---- Act I · One flag rate, two error rates ------------------------------------------

SCENARIO_DP = act1_pair("dp", S.base_a, S.base_b, S.flag_rate)


def act1_truth() -> float:
    return SCENARIO_DP.fpr_ratio


# ---- Act II · Two jurisdictions, one score -------------------------------------------

@dataclass(frozen=True)
class Deployment:
    us_rule: str
    eu_rule: str
    t_b: float = S.threshold
    tolerance: float = S.eu_tolerance
    evaluations: float = S.evaluations_per_day

    @property
    def us(self) -> Pair:
        return a2_pair(self.us_rule, self.t_b)

    @property
    def eu(self) -> Pair:
        return a2_pair(self.eu_rule, self.t_b)

    @property
    def us_ok(self) -> bool:
        return F.passes_four_fifths(self.us.impact, C.UGESP_FOUR_FIFTHS)

    @property
    def eu_ok(self) -> bool:
        return self.eu.fpr_gap <= self.tolerance

    @property
    def rejected_per_day(self) -> float:
        per_jurisdiction = self.evaluations * S.jurisdiction_share * S.group_share
        return sum(F.qualified_rejected_per_day(per_jurisdiction, g.base_rate, g.fnr)
                   for p in (self.us, self.eu) for g in (p.a, p.b))


DESIGNS = {"A": Deployment("single", "single"), "B": Deployment("fourfifths", "single"),
           "C": Deployment("dp", "dp"), "D": Deployment("ppv", "ppv")}


def act2_answer() -> str:
    """The one design that passes both checks at the scenario's threshold (a test proves it is unique)."""
    return next(k for k, d in DESIGNS.items() if d.us_ok and d.eu_ok)
