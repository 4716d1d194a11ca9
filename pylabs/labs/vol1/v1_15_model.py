"""The scenario and model of V1-15 (There Is No Free Fairness): both groups' rates under one
calibrated cutoff (Act I) and under each screening policy, and the Act II deployments checked
against the law, the federal guidelines and the team's policy. The lab module (``v1_15``) reads
like its page; this is its model (numbers in, numbers out)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pylabs.physics import constants as C
from pylabs.physics import fairness as F


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs; [A] marks assumptions of the story."""

    base_a: float = 0.35          # share of group A who repay (Act I) / are qualified (Act II)
    base_b: float = 0.65
    d: float = 2.0                # test-score separation, the same in both groups
    cutoff: float = 0.5           # Act I: approve when the calibrated score is at least t
    lowered_cutoff: float = 0.4   # Act II option C: the calibrated cutoff lowered until both groups reach 80 % recall
    example_score: float = 0.7    # the scenario's example of what a calibrated score means
    recall_floor: float = 0.80    # Act II: every group keeps at least 80 % of its qualified applicants
    recall_high: float = 0.95     # a lower cutoff the Act II reflection's feedback quotes
    eo_tolerance: float = 0.05    # the team's equalized-odds tolerance
    audit_budget_usd: float = 50e3
    audits_per_year: float = 4.0  # quarterly
    audits_monthly: float = 12.0  # Act II option D: monthly audits in place of a validation study
    audit_usd_cloud: float = 1.5e3   # [A] one audit of a cloud service (its logs sampled)
    audit_usd_mobile: float = 4e3    # [A] one audit of an on-device model (a fleet of phones sampled)
    chart_height_px: float = 340.0
    tolerance: float = 1e-12      # a rate equal to its floor, or two equal cutoffs, up to rounding
    equal_ratio: float = 0.01     # two false-positive rates within 1 % of each other read as equal
    selection_match: float = 1e-9  # a cutoff found by bisection selects its target rate to this relative error
    far_ratio: float = 1e-3       # a ratio of rates under 1/1,000 or over 1,000 prints as a power of ten


S = Scenario()
GROUPS = ("A", "B")
AUDIT_USD = {"cloud": S.audit_usd_cloud, "mobile": S.audit_usd_mobile}
POLICIES = {
    "calibrated": "One calibrated cutoff for everyone",
    "blind": "One test-score cutoff for both groups",
    "parity": "Cutoffs per group for equal selection rates",
}


@dataclass(frozen=True)
class Pair:
    """Both groups at their test-score cutoffs."""

    a: F.GroupRates
    b: F.GroupRates
    z_a: float
    z_b: float

    @property
    def air(self) -> float:
        return F.impact_ratio([self.a.selection_rate, self.b.selection_rate])

    @property
    def eo_gap(self) -> float:
        return F.equalized_odds_gap(self.a, self.b)

    @property
    def fpr_ratio(self) -> float:
        """Group B's false-positive rate ÷ group A's (both positive: the tails are computed exactly)."""
        return self.b.fpr / self.a.fpr

    @property
    def cutoff_gap(self) -> float:
        """Group A's test-score cutoff − group B's, in standard deviations of the test score."""
        return self.z_a - self.z_b

    @property
    def one_cutoff(self) -> bool:
        return abs(self.cutoff_gap) <= S.tolerance

    def group(self, name: str) -> F.GroupRates:
        return self.a if name == "A" else self.b


def calibrated_pair(p_a: float, p_b: float, d: float, t: float) -> Pair:
    """One probability cutoff t on a score calibrated within each group: a test-score cutoff per group."""
    z_a, z_b = F.calibrated_cutoff_z(t, p_a, d), F.calibrated_cutoff_z(t, p_b, d)
    return Pair(F.rates_at_z(p_a, z_a, d), F.rates_at_z(p_b, z_b, d), z_a, z_b)


def policy_pair(policy: str, cutoff: float = S.cutoff, recall: float = S.recall_floor) -> Pair:
    """Act II's groups under a policy (Act I's test and base rates: 35 % / 65 %, d = 2)."""
    if policy == "calibrated":
        return calibrated_pair(S.base_a, S.base_b, S.d, cutoff)
    if policy == "blind":
        z = F.z_for_tpr(recall, S.d)
        return Pair(F.rates_at_z(S.base_a, z, S.d), F.rates_at_z(S.base_b, z, S.d), z, z)
    return parity_pair()


@lru_cache(maxsize=1)
def parity_pair() -> Pair:
    """Cutoffs per group that select both groups at one rate: as many interviews as the one test-score
    cutoff at the recall floor (two bisections, made once)."""
    blind = policy_pair("blind")
    selection = (blind.a.selection_rate + blind.b.selection_rate) / 2
    z_a, z_b = (cutoff_selecting(p, selection) for p in (S.base_a, S.base_b))
    return Pair(F.rates_at_z(S.base_a, z_a, S.d), F.rates_at_z(S.base_b, z_b, S.d), z_a, z_b)


def cutoff_selecting(base_rate: float, selection: float, d: float = S.d) -> float:
    """The test-score cutoff at which a group is selected at ``selection``, checked: ``fairness``'s
    bisection raises for a rate out of its range (±10σ), and a rate it reaches only roughly raises
    here too, so no cutoff reads as one that selects the rate when it does not (defect class 9)."""
    z = F.z_for_selection(base_rate, selection, d)
    reached = F.rates_at_z(base_rate, z, d).selection_rate
    if abs(reached - selection) > S.selection_match * selection:
        raise F.FairnessError(f"no cutoff selects {selection} of a group with base rate {base_rate} (d = {d}): "
                              f"the search stopped at z = {z:.3g}, selecting {reached:.3g}")
    return z


def shown_rate(value: float) -> float:
    """A rate from the normal tails lies strictly inside (0, 1), but 1 − 10⁻²⁴ (a false-negative rate at
    the sliders' corners) is 1.0 in floating point and read "100 %" beside a recall of "< 0.001 %": shown
    as the largest float under 1, it reads "> 99.99 %"."""
    return min(value, math.nextafter(1.0, 0.0))


SCENARIO = calibrated_pair(S.base_a, S.base_b, S.d, S.cutoff)
EQUAL_BASE = 0.5   # Act I's counterfactual: both groups repay at the same rate


def blind_air(recall: float, d: float = S.d) -> float:
    """The adverse-impact ratio of one test-score cutoff for both groups at this recall."""
    return F.blind_impact_ratio(S.base_a, S.base_b, recall, d)


def four_fifths_recall() -> float | None:
    """The recall at which one test-score cutoff for both groups reaches the four-fifths ratio, or None
    where no single cutoff reaches it (the ratio nears 1 only as everyone is selected)."""
    return recall_for_ratio(C.UGESP_FOUR_FIFTHS)


@lru_cache(maxsize=4)
def recall_for_ratio(ratio: float) -> float | None:
    try:
        return F.tpr_for_impact_ratio(S.base_a, S.base_b, S.d, ratio)
    except F.FairnessError:   # out of one cutoff's reach: said so, not shown as the search's end
        return None


# ---- Act II: a deployment and its checks --------------------------------------------------

# each check, what it asks and whose rule it is (the page says which is law and which is policy)
CHECKS = {
    "lawful": ("Different cutoff scores by group", "law"),
    "impact": ("Adverse impact without a validation study", "federal guidelines"),
    "recall": ("Recall below the floor in a group", "team policy"),
    "eo": ("Equalized-odds gap over the tolerance", "team policy"),
    "budget": ("Audits over budget", "team policy"),
    "audited": ("No audit planned", "team policy"),
}


@dataclass(frozen=True)
class Screen:
    policy: str
    validated: bool
    audits: float = S.audits_per_year
    context: str = "cloud"
    cutoff: float = S.cutoff
    recall: float = S.recall_floor

    @property
    def pair(self) -> Pair:
        return policy_pair(self.policy, self.cutoff, self.recall)

    @property
    def audit_cost(self) -> float:
        return self.audits * AUDIT_USD[self.context]

    def checks(self) -> dict[str, bool]:
        g = self.pair
        return {"lawful": g.one_cutoff, "impact": g.air >= C.UGESP_FOUR_FIFTHS or self.validated,
                "recall": min(g.a.tpr, g.b.tpr) >= S.recall_floor - S.tolerance, "eo": g.eo_gap <= S.eo_tolerance,
                "budget": self.audit_cost <= S.audit_budget_usd, "audited": self.audits >= 1}

    @property
    def violations(self) -> list[str]:
        return [k for k, ok in self.checks().items() if not ok]


def designs(context: str) -> dict[str, Screen]:
    """Act II's four proposals, in the context predicted in (it sets the audit price)."""
    return {"A": Screen("calibrated", True, context=context), "B": Screen("blind", True, context=context),
            "C": Screen("calibrated", False, context=context, cutoff=S.lowered_cutoff),
            "D": Screen("blind", False, S.audits_monthly, context=context)}
