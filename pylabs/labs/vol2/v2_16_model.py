"""The scenario and model of V2-16 (The Fairness Impossibility): the two teams' inputs, both groups'
rates at their thresholds under each fairness rule, and the Act II deployments checked against the
launch checks (US law, the company's US and EU policies, the harm budget). The lab module
(``v2_16``) reads like its page; this is its model."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics import units as U


@dataclass(frozen=True)
class Scenario:
    """The two teams' stated inputs; [A] marks the spec's scenario assumptions."""

    d_prime: float = 2.4                 # [A] score separation, the same in both groups
    base_a: float = 0.02                 # group A's share of truly violating posts / qualified applicants
    base_b: float = 0.10
    base_equal: float = 0.06             # the counterfactual context: both groups alike
    flag_rate: float = 0.06              # Act I: demographic parity at 6 %
    better_d_prime: float = 3.5          # a much sharper classifier (Act I reflection, Act II option A)
    threshold: float = 1.8               # Act II: today's one cut-off on the score
    low_threshold: float = 0.75          # Act II option C: the cut-off lowered a lot
    evaluations_per_day: float = 5e6     # 0.5 % of a billion users screened a day
    eu_tolerance: float = 0.02           # [A] the team's documented |ΔFPR| tolerance
    harm_budget: float = 1e5             # qualified candidates rejected per day before the warning
    group_share: float = 0.5             # [A] each group is half of the applicants
    jurisdiction_share: float = 0.5      # [A] half the screens fall under each rule set
    sweep_low: float = 0.0               # Act II chart: the one cut-off swept from 0 ...
    sweep_high: float = 3.0              # ... to 3 (the slider's range)
    sweep_steps: float = 60.0
    chart_height_px: float = 380.0       # room for the legend on a phone
    same_cutoff: float = 1e-9            # two cut-offs closer than this are one cut-off


S = Scenario()
CONTEXT_BASE_RATES = {"measured": (S.base_a, S.base_b), "equal": (S.base_equal, S.base_equal)}


@dataclass(frozen=True)
class Pair:
    """Both groups at their thresholds."""

    a: F.GroupRates
    b: F.GroupRates
    t_a: float
    t_b: float

    @property
    def fpr_ratio(self) -> float:
        """Group B's false-positive rate ÷ group A's (Act I's question)."""
        return self.b.fpr / self.a.fpr

    @property
    def impact(self) -> float:
        return F.impact_ratio([self.a.selection_rate, self.b.selection_rate])

    @property
    def fpr_gap(self) -> float:
        return F.fpr_gap(self.a, self.b)

    @property
    def pass_ratio(self) -> float:
        """How often an unqualified applicant passes relative to a qualified one, FPR ÷ TPR of group A (a
        ratio of rates, not of counts; with one cut-off the same in both groups)."""
        return self.a.fpr / self.a.tpr

    @property
    def precision_gap(self) -> float:
        """Group B's precision minus group A's."""
        return self.b.ppv - self.a.ppv

    @property
    def one_cutoff(self) -> bool:
        """Both groups face the same cut-off on the same score (no rule set group A's apart)."""
        return abs(self.t_a - self.t_b) < S.same_cutoff


def held(x: float, y: float) -> bool:
    """Two rates the page would show as the same (equal to a tenth of a percentage point)."""
    return abs(x - y) < 1 / (U.PERCENT * 10)


def pair(p_a: float, p_b: float, t_a: float, t_b: float, d_prime: float = S.d_prime) -> Pair:
    return Pair(F.binormal_rates(p_a, t_a, d_prime), F.binormal_rates(p_b, t_b, d_prime), t_a, t_b)


def group_a_threshold(rule: str, p_a: float, p_b: float, t_b: float, d_prime: float = S.d_prime) -> float:
    """Group A's threshold under a rule, given group B's threshold and the same scores."""
    b = F.binormal_rates(p_b, t_b, d_prime)
    if rule == "dp":
        return F.threshold_for_selection(p_a, b.selection_rate, d_prime)
    if rule == "ppv":
        # below group A's base rate, parity is out of reach: the nearest point, which the page labels (out_of_reach)
        return F.threshold_for_ppv(p_a, b.ppv, d_prime, nearest=True)
    if rule == "calibrated":  # each group's score calibrated within the group, one probability cut-off
        return F.threshold_for_posterior(p_a, F.posterior(p_b, t_b, d_prime), d_prime)
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


@lru_cache(maxsize=64)
def a2_pair(rule: str, t_b: float = S.threshold, d_prime: float = S.d_prime) -> Pair:
    return pair(S.base_a, S.base_b, group_a_threshold(rule, S.base_a, S.base_b, t_b, d_prime), t_b, d_prime)


# ---- Act I · One flag rate for two communities -------------------------------------


def act1_scenario(context: str, criterion: str = "dp", d_prime: float = S.d_prime) -> Pair:
    """Both groups flagged at the scenario's rate, at the context's base rates."""
    return act1_pair(criterion, *CONTEXT_BASE_RATES[context], S.flag_rate, d_prime)


def act1_truth(context: str) -> float:
    """Group B's false-positive rate ÷ group A's under demographic parity, in the context's base rates."""
    return act1_scenario(context).fpr_ratio


# ---- Act II · A screen for two markets ------------------------------------------------


@dataclass(frozen=True)
class Deployment:
    """One model and one score everywhere; each market's rule sets group A's cut-off from group B's t."""

    us_rule: str
    eu_rule: str
    t_b: float = S.threshold
    d_prime: float = S.d_prime
    tolerance: float = S.eu_tolerance
    evaluations: float = S.evaluations_per_day

    @property
    def us(self) -> Pair:
        return a2_pair(self.us_rule, self.t_b, self.d_prime)

    @property
    def eu(self) -> Pair:
        return a2_pair(self.eu_rule, self.t_b, self.d_prime)

    @property
    def one_cutoff(self) -> bool:
        """US law (42 U.S.C. §2000e–2(l)): no different cut-offs or adjusted scores by group."""
        return self.us.one_cutoff

    @property
    def screen_ok(self) -> bool:
        """The company's launch policy: a US impact ratio of at least four-fifths (29 CFR 1607.4(D))."""
        return F.passes_four_fifths(self.us.impact, C.UGESP_FOUR_FIFTHS)

    @property
    def eu_ok(self) -> bool:
        """The company's documented EU tolerance on the false-positive gap."""
        return self.eu.fpr_gap <= self.tolerance

    def _per_group(self) -> float:
        return self.evaluations * S.jurisdiction_share * S.group_share

    @property
    def rejected_per_day(self) -> float:
        return sum(F.qualified_rejected_per_day(self._per_group(), g.base_rate, g.fnr)
                   for p in (self.us, self.eu) for g in (p.a, p.b))

    @property
    def advanced_per_day(self) -> float:
        return sum(self._per_group() * g.selection_rate for p in (self.us, self.eu) for g in (p.a, p.b))

    @property
    def harm_ok(self) -> bool:
        return self.rejected_per_day <= S.harm_budget

    @property
    def checks(self) -> tuple[bool, bool, bool, bool]:
        """The four launch checks: US law, the US screen policy, the EU tolerance, the harm budget."""
        return self.one_cutoff, self.screen_ok, self.eu_ok, self.harm_ok

    @property
    def passes(self) -> bool:
        return all(self.checks)


DESIGNS = {"A": Deployment("single", "single", S.threshold, S.better_d_prime),
           "B": Deployment("fourfifths", "single", S.threshold),   # the spec's old key, in the US only
           "C": Deployment("single", "single", S.low_threshold),
           "D": Deployment("calibrated", "calibrated", S.threshold)}


def act2_answer() -> str:
    """The design that passes every launch check (a test proves it is the only one); were a registry
    value to change so that none passes, the one failing the fewest checks."""
    return min(DESIGNS, key=lambda k: (DESIGNS[k].checks.count(False), k))


@lru_cache(maxsize=32)
def blind_curve(d_prime: float) -> tuple[tuple[float, float, float], ...]:
    """(t, impact ratio, FPR) of one cut-off for everyone, t swept over the slider's range; kept per model
    (a threshold move redraws the point, not the curve)."""
    low, high, steps = S.sweep_low, S.sweep_high, int(S.sweep_steps)
    points = (pair(S.base_a, S.base_b, t, t, d_prime) for t in (low + (high - low) * i / steps for i in range(steps + 1)))
    return tuple((p.t_a, p.impact, p.a.fpr) for p in points)


@lru_cache(maxsize=32)
def blind_cutoff_for_four_fifths(d_prime: float = S.d_prime) -> float:
    """The highest one cut-off for everyone whose impact ratio reaches four-fifths (the ratio falls as t rises).
    Source: bisection on the binormal selection rates."""
    low, high = S.sweep_low - S.sweep_high, S.sweep_high
    for _ in range(60):
        middle = (low + high) / 2
        if pair(S.base_a, S.base_b, middle, middle, d_prime).impact >= C.UGESP_FOUR_FIFTHS:
            low = middle
        else:
            high = middle
    return low
