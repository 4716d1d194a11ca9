"""Lab V1-15 · There Is No Free Fairness.

Core invariant: with different base rates, a score calibrated within each group gives equal
accuracy but unequal error rates (FPR = p/(1 − p)·(1 − PPV)/PPV·TPR, Chouldechova 2017); one
group-blind cutoff gives equal error rates but unequal selection rates; and no cutoff rule gives
everything at once. Which gap to accept is a documented decision.

Act I (a loan model): test scores z | repaid ~ N(+d/2, 1), z | defaulted ~ N(−d/2, 1) in both groups
(d = 2, AUC 0.921), base rates 35 % and 65 %, one shared cutoff t = 0.5 on the calibrated score.
Accuracy is 85.24 % in both groups, yet group B's false-positive rate is 2.57× group A's
(24.49 % against 9.52 %). Act II (a resume screen that must keep 80 % recall in every group): one
calibrated cutoff misses the recall floor; group-specific cutoffs for equal selection are unlawful
for US employment tests (42 U.S.C. §2000e-2(l)); one group-blind test-score cutoff at 80 % recall
holds equalized odds exactly, and its adverse-impact ratio of 0.64 is evidence the four-fifths
rule asks the employer to answer with a documented validation (29 CFR 1607.4(D)), plus audits.

Choices, and why: the spec's Act I question ("which check") becomes a number, group B's FPR ÷
group A's, so a miss is measured. The spec's Act II key (policy 2 with validation and audits)
becomes a `Pick` decided by the checks: recall ≥ 80 % per group, EO gap ≤ 5 pp, lawful, audits
within $50 K, and an adverse-impact ratio ≥ 0.8 or a documented validation. Audit prices per
context (cloud $1.5 K, mobile $4 K) are scenario assumptions. Act II's groups keep Act I's scenario
(35 % / 65 %, d = 2) so the spec's golden rows appear on the page.

Ledger (spec §V1-15): p_a, p_b, d, policy, tpr_a, tpr_b, fpr_a, fpr_b, ppv_a, ppv_b, air, eo_gap,
audits_per_year, audit_cost_usd, violations; answers a1_predict, a1_reflect, a2_pick, a2_reflect.
"""

from __future__ import annotations

from dataclasses import dataclass

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, Toggle, chart, failure, fmt,
                              math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics.references import cite


@dataclass(frozen=True)
class Scenario:
    """The stakeholders' stated inputs; [A] marks assumptions of the story."""

    base_a: float = 0.35          # share of group A who repay (Act I) / are qualified (Act II)
    base_b: float = 0.65
    d: float = 2.0                # test-score separation, the same in both groups
    cutoff: float = 0.5           # Act I: approve when the calibrated score is at least t
    recall_floor: float = 0.80    # Act II: every group keeps at least 80 % of its qualified applicants
    eo_tolerance: float = 0.05    # the team's equalized-odds tolerance
    audit_budget_usd: float = 50e3
    audits_per_year: float = 4.0  # quarterly
    audit_usd_cloud: float = 1.5e3   # [A] one audit of a cloud service
    audit_usd_mobile: float = 4e3    # [A] one audit of an on-device model (fleet sampling)
    pp_per_unit: float = 100.0
    chart_height_px: float = 340.0
    tolerance: float = 1e-12      # a rate equal to its floor up to rounding passes


S = Scenario()
GROUPS = ("A", "B")
AUDIT_USD = {"cloud": S.audit_usd_cloud, "mobile": S.audit_usd_mobile}
POLICIES = {
    "calibrated": "One calibrated cutoff for everyone",
    "blind": "One group-blind test-score cutoff at the recall floor",
    "parity": "Group-specific cutoffs for equal selection rates",
}


@dataclass(frozen=True)
class Pair:
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
        return self.b.fpr / max(self.a.fpr, S.tolerance)

    def group(self, name: str) -> F.GroupRates:
        return self.a if name == "A" else self.b


def calibrated_pair(p_a: float, p_b: float, d: float, t: float) -> Pair:
    z_a, z_b = F.calibrated_cutoff_z(t, p_a, d), F.calibrated_cutoff_z(t, p_b, d)
    return Pair(F.rates_at_z(p_a, z_a, d), F.rates_at_z(p_b, z_b, d), z_a, z_b)


def policy_pair(policy: str, cutoff: float = S.cutoff, recall: float = S.recall_floor) -> Pair:
    """Act II's groups under a policy (Act I's scenario: 35 % / 65 %, d = 2)."""
    if policy == "calibrated":
        return calibrated_pair(S.base_a, S.base_b, S.d, cutoff)
    if policy == "blind":
        z = F.z_for_tpr(recall, S.d)
        return Pair(F.rates_at_z(S.base_a, z, S.d), F.rates_at_z(S.base_b, z, S.d), z, z)
    blind = policy_pair("blind", cutoff, recall)   # the same number of interviews as policy 2
    selection = (blind.a.selection_rate + blind.b.selection_rate) / 2
    z_a, z_b = F.z_for_selection(S.base_a, selection, S.d), F.z_for_selection(S.base_b, selection, S.d)
    return Pair(F.rates_at_z(S.base_a, z_a, S.d), F.rates_at_z(S.base_b, z_b, S.d), z_a, z_b)


SCENARIO = calibrated_pair(S.base_a, S.base_b, S.d, S.cutoff)

# ---- context --------------------------------------------------------------------------

CONTEXT = deployment(("cloud", "mobile"), default="cloud", label="Where the model runs",
                     help="Sets what one fairness audit costs in Act II: a cloud service is sampled from its "
                          "logs; an on-device model needs a sampled fleet (both assumed).")

# ---- Act I · Equal accuracy, unequal errors -------------------------------------------

A1_BASE_A = Slider("a1_base_a", "Group A base rate (repay)", unit="1", min=0.05, max=0.95, step=0.01,
                   default=S.base_a, fmt="pct")
A1_BASE_B = Slider("a1_base_b", "Group B base rate (repay)", unit="1", min=0.05, max=0.95, step=0.01,
                   default=S.base_b, fmt="pct")
A1_D = Slider("a1_d", "Test-score separation, d", unit="1", min=0.5, max=3.0, step=0.05, default=S.d, fmt="num",
              help="The same in both groups: the test is equally informative for everyone.")
A1_T = Slider("a1_t", "Approval cutoff on the calibrated score, t", unit="1", min=0.1, max=0.9, step=0.01,
              default=S.cutoff, fmt="num")


def act1_pair(s: State) -> Pair:
    return calibrated_pair(s["a1_base_a"], s["a1_base_b"], s["a1_d"], s["a1_t"])


def act1_truth() -> float:
    return SCENARIO.fpr_ratio


def act1_facts() -> dict[str, str]:
    g = SCENARIO
    equal = calibrated_pair(0.5, 0.5, S.d, S.cutoff)
    return {"acc": fmt(F.accuracy(g.a), "pct1"), "fpr_a": fmt(g.a.fpr, "pct1"), "fpr_b": fmt(g.b.fpr, "pct1"),
            "fnr_a": fmt(g.a.fnr, "pct1"), "fnr_b": fmt(g.b.fnr, "pct1"), "ppv_a": fmt(g.a.ppv, "pct1"),
            "ppv_b": fmt(g.b.ppv, "pct1"), "ratio": fmt(g.fpr_ratio, "x"), "air": fmt(g.air, "num"),
            "auc": fmt(F.auc_binormal(S.d), "num"), "eq_fpr": fmt(equal.a.fpr, "pct1")}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Both groups take the same test (separation d = {fmt(S.d, 'num')}) and each applicant's score is "
           f"calibrated to their group: {fmt(S.base_a, 'pct')} of group A repay, {fmt(S.base_b, 'pct')} of group B. "
           f"Loans are approved at a calibrated score of {fmt(S.cutoff, 'num')} or more, and the model is exactly as "
           "accurate in both groups. How does group B's false-positive rate (loans approved to people who "
           "default) compare with group A's?",
    quantity="group B's false-positive rate ÷ group A's",
    unit_fmt="x",
    options=(
        Range("A", "{range}: equal accuracy means equal error rates", None, 1.25, 1.0,
              "Accuracy mixes two errors weighted by the base rate. The same accuracy can hide a false-positive "
              "rate that is high in one group and a false-negative rate that is high in the other."),
        Range("B", "{range}: somewhat higher for group B", 1.25, 2.0, 1.5,
              "The direction is right: a calibrated score moves group B's cutoff down, because most of group B "
              "repays. The shift is larger than this."),
        Range("C", "{range}: two to four times group A's", 2.0, 4.0, 3.0,
              "Group B's cutoff sits lower on the test score, so more of its defaulters pass ({fpr_b} against "
              "{fpr_a}); group A pays in false negatives instead ({fnr_a} against {fnr_b})."),
        Range("D", "{range}: many times group A's", 4.0, None, 6.0,
              "The test separates both groups well (AUC {auc}), which bounds how far the two error rates can "
              "drift apart at one calibrated cutoff."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Could a better-designed score give both groups equal accuracy, equal false-positive and "
           "false-negative rates and equal precision at once?",
    options=(
        Claim("A", "Yes: this score is simply not calibrated.",
              "It is calibrated within each group by construction: an applicant with score 0.5 repays half the "
              "time in either group. Calibration is what produces the unequal error rates here."),
        Claim("B", "Not while the base rates differ and the test is imperfect: FPR = p/(1 − p)·(1 − PPV)/PPV·TPR "
                   "ties the rates to the base rate.",
              "Equal precision and equal recall with unequal p force unequal false-positive rates "
              "(Chouldechova 2017). With equal base rates, one cutoff gives both groups the same FPR ({eq_fpr}): "
              "move the base-rate sliders together to see it."),
        Claim("C", "Yes: the test measures group B more precisely.",
              "The test's separation d is the same in both groups; only the base rates differ."),
        Claim("D", "Yes: move the cutoff until the error rates meet.",
              "One calibrated cutoff moves both groups' test-score cutoffs together; they stay "
              "(logit p_B − logit p_A)/d apart wherever t is."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_fpr_ratio", "False-positive rate, B ÷ A", "1", "x"),
    MetricSpec("a1_fpr_a", "False-positive rate, group A", "1", "pct1"),
    MetricSpec("a1_fpr_b", "False-positive rate, group B", "1", "pct1"),
    MetricSpec("a1_acc_a", "Accuracy, group A", "1", "pct1"),
    MetricSpec("a1_acc_b", "Accuracy, group B", "1", "pct1"),
    MetricSpec("a1_fnr_a", "False-negative rate, group A", "1", "pct1"),
    MetricSpec("a1_fnr_b", "False-negative rate, group B", "1", "pct1"),
    MetricSpec("a1_ppv_a", "Precision (PPV), group A", "1", "pct1"),
    MetricSpec("a1_ppv_b", "Precision (PPV), group B", "1", "pct1"),
    MetricSpec("a1_identity", "FPR of A from the identity", "1", "pct1"),
    MetricSpec("a2_tpr_min", "Lowest recall of a group", "1", "pct1"),
    MetricSpec("a2_eo_gap", "Equalized-odds gap", "1", "pp"),
    MetricSpec("a2_air", "Adverse-impact ratio", "1", "num"),
    MetricSpec("a2_audit_cost", "Audit cost per year", "USD", "usd"),
    MetricSpec("a2_ppv_gap", "Precision gap (B − A)", "1", "pp"),
    MetricSpec("a2_sel_a", "Selected, group A", "1", "pct1"),
)}


def act1_instruments(s: State) -> list:
    g = act1_pair(s)
    equal = abs(g.a.fpr - g.b.fpr) < 1 / (S.pp_per_unit * 10)
    identity = F.fpr_from_identity(g.a.base_rate, g.a.ppv, g.a.tpr)
    return [metric_grid(
        M["a1_fpr_ratio"].show(g.fpr_ratio, "good" if equal else "danger"),
        M["a1_fpr_a"].show(g.a.fpr), M["a1_fpr_b"].show(g.b.fpr),
        M["a1_acc_a"].show(F.accuracy(g.a)), M["a1_acc_b"].show(F.accuracy(g.b)),
        M["a1_fnr_a"].show(g.a.fnr), M["a1_fnr_b"].show(g.b.fnr),
        M["a1_ppv_a"].show(g.a.ppv), M["a1_ppv_b"].show(g.b.ppv),
        M["a1_identity"].show(identity, note=f"measured {fmt(g.a.fpr, 'pct1')}"),
    ), groups_chart("a1_groups", "The two groups at one calibrated cutoff", g,
                    f"At t = {fmt(s['a1_t'], 'num')}, accuracy is {fmt(F.accuracy(g.a), 'pct1')} and "
                    f"{fmt(F.accuracy(g.b), 'pct1')}; the false-positive rates are {fmt(g.a.fpr, 'pct1')} and "
                    f"{fmt(g.b.fpr, 'pct1')}.")]


def groups_chart(name: str, title: str, g: Pair, summary: str):
    labels = ["Recall (TPR)", "FPR", "Precision", "Selected"]
    values = {k: [g.group(k).tpr, g.group(k).fpr, g.group(k).ppv, g.group(k).selection_rate] for k in GROUPS}
    traces = [ch.bars(f"Group {k} ({fmt(g.group(k).base_rate, 'pct')} base rate)", labels,
                      [v * S.pp_per_unit for v in values[k]], colour, text=[fmt(v, "pct") for v in values[k]])
              for k, colour in zip(GROUPS, ("series1", "series2"))]
    figure = ch.figure(traces, ch.axis("", "category"), ch.axis("Percent of the group", range=[0, S.pp_per_unit * 1.08]),
                       height=int(S.chart_height_px))
    rows = [(n, fmt(a, "pct1"), fmt(b, "pct1")) for n, a, b in zip(labels, values["A"], values["B"])]
    return chart(name, title, figure, summary, table=(("Measure", "Group A", "Group B"), rows))


def act1_math(s: State):
    g = act1_pair(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"s_g = \sigma(\operatorname{logit} p_g + d\,z),\qquad z_g = \frac{\operatorname{logit} t - \operatorname{logit} p_g}{d}",
                 "A score calibrated within group *g*, and the test-score cutoff a shared probability cutoff *t* means."),
        Equation(r"\mathrm{TPR} = 1 - \Phi(z_g - d/2),\qquad \mathrm{FPR} = 1 - \Phi(z_g + d/2)",
                 "Repayers score N(+d/2, 1), defaulters N(−d/2, 1), in both groups."),
        Equation(r"\mathrm{FPR} = \frac{p}{1-p}\cdot\frac{1-\mathrm{PPV}}{\mathrm{PPV}}\cdot\mathrm{TPR}",
                 "The identity: equal PPV and TPR with unequal *p* force unequal FPR."),
    ), rows=(
        ("Test-score cutoffs, A / B", f"{fmt(g.z_a, 'num')} / {fmt(g.z_b, 'num')}"),
        ("AUC of the test", fmt(F.auc_binormal(s["a1_d"]), "num")),
        ("Adverse-impact ratio", fmt(g.air, "num")),
    ), sources=(
        cite("chouldechova2017", "the identity that links FPR, PPV, TPR and the base rate"),
        cite("kleinberg2016", "calibration within groups and balanced error rates cannot coexist"),
        "Scores, base rates and d are the scenario's assumptions.",
    ))


ACT1 = Act(
    number=1, title="Equal Accuracy, Unequal Errors", minutes="12–15 min",
    stakeholder_role="Chief Risk Officer",
    stakeholder=lambda: (
        "Legal signed off on our loan model: it is exactly as accurate for both applicant groups, and its scores "
        "are calibrated. An advocacy group says one group gets far more bad loans approved than the other. "
        "Both cannot be true. Which is it?"),
    scenario=lambda: (
        "A **false positive** approves a loan to someone who will default; a **false negative** refuses someone "
        "who would repay. **Accuracy** counts both kinds of mistake together, weighted by the base rate.",
        "The score is **calibrated within each group**: among applicants with score 0.7, seven in ten repay, "
        "in either group. Loans go to everyone at or above one probability cutoff.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_BASE_A, A1_BASE_B, A1_D, A1_T),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Confusion matrices of both groups",
)

# ---- Act II · The resume screen --------------------------------------------------------

A2_POLICY = Choice("a2_policy", "Screening policy", tuple(Option(k, v) for k, v in POLICIES.items()),
                   default="calibrated", widget="select")
A2_T = Slider("a2_t", "Calibrated cutoff, t (policy 1)", unit="1", min=0.1, max=0.9, step=0.01, default=S.cutoff,
              fmt="num")
A2_RECALL = Slider("a2_recall", "Recall the blind cutoff keeps (policy 2)", unit="1", min=0.6, max=0.95, step=0.01,
                   default=S.recall_floor, fmt="pct")
A2_AUDITS = Slider("a2_audits", "Fairness audits per year", unit="1/year", min=0, max=24, step=1,
                   default=S.audits_per_year, fmt="int")
A2_VALIDATED = Toggle("a2_validated", "Documented validation and adverse-impact analysis", default=False,
                      help="A study showing the test predicts job performance: what the Uniform Guidelines ask "
                           "of a selection procedure with adverse impact.")


def act2_overridden(s: State) -> dict[str, str]:
    reasons = {}
    if s["a2_policy"] != "calibrated":
        reasons["a2_t"] = "Used only by policy 1, one calibrated cutoff."
    if s["a2_policy"] != "blind":
        reasons["a2_recall"] = "Used only by policy 2, the group-blind cutoff."
    return reasons


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
        return {"recall": min(g.a.tpr, g.b.tpr) >= S.recall_floor - S.tolerance, "eo": g.eo_gap <= S.eo_tolerance,
                "lawful": self.policy != "parity", "budget": self.audit_cost <= S.audit_budget_usd,
                "impact": g.air >= C.UGESP_FOUR_FIFTHS or self.validated, "audited": self.audits >= 1}

    @property
    def violations(self) -> list[str]:
        return [k for k, ok in self.checks().items() if not ok]


def screen(s: State) -> Screen:
    return Screen(s["a2_policy"], s["a2_validated"], s["a2_audits"], s["context"], s["a2_t"], s["a2_recall"])


DESIGNS = {"A": Screen("calibrated", True), "B": Screen("parity", True), "C": Screen("blind", True),
           "D": Screen("blind", False, audits=12)}


def act2_answer() -> str:
    """The one deployment of the four that passes every check (a test proves it is unique)."""
    return next(k for k, d in DESIGNS.items() if not d.violations)


def act2_facts() -> dict[str, str]:
    one, parity, blind = DESIGNS["A"].pair, DESIGNS["B"].pair, DESIGNS["C"].pair
    return {"tpr_one": fmt(one.a.tpr, "pct1"), "eo_one": fmt(one.eo_gap, "pp"), "eo_parity": fmt(parity.eo_gap, "pp"),
            "tpr_parity": fmt(min(parity.a.tpr, parity.b.tpr), "pct1"), "air_blind": fmt(blind.air, "num"),
            "ppv_a": fmt(blind.a.ppv, "pct1"), "ppv_b": fmt(blind.b.ppv, "pct1"), "fpr": fmt(blind.a.fpr, "pct1"),
            "cost": fmt(DESIGNS["C"].audit_cost, "usd"), "limit": fmt(C.UGESP_FOUR_FIFTHS, "num"),
            "recall": fmt(S.recall_floor, "pct")}


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"The resume screen must keep at least {fmt(S.recall_floor, 'pct')} of qualified applicants in every group, "
           f"hold equalized odds within {fmt(S.eo_tolerance, 'pp')}, stay lawful for a US employment test and "
           f"spend at most {fmt(S.audit_budget_usd, 'usd')} a year on audits. Which deployment do you ship?",
    quantity="the deployment that passes every check",
    options=(
        Claim("A", f"One calibrated cutoff for everyone (t = {fmt(S.cutoff, 'num')}), validated, audited quarterly.",
              "Calibration keeps only {tpr_one} of group A's qualified applicants, under the floor, and the "
              "equalized-odds gap is {eo_one}."),
        Claim("B", "Group-specific cutoffs that select both groups equally, validated, audited quarterly.",
              "Different cutoffs by group for an employment test are unlawful under 42 U.S.C. §2000e-2(l), and "
              "equal selection opens an equalized-odds gap of {eo_parity}."),
        Claim("C", f"One group-blind test-score cutoff at {fmt(S.recall_floor, 'pct')} recall, with a documented validation and "
                   "adverse-impact analysis, audited quarterly.",
              "Both groups keep {recall} of their qualified applicants at the same false-positive rate ({fpr}): "
              "equalized odds holds exactly. The adverse-impact ratio is {air_blind}, under {limit}: the "
              "validation is the employer's answer to that evidence. Quarterly audits cost {cost}."),
        Claim("D", "The same group-blind cutoff, audited monthly instead, without the validation study.",
              "More audits do not answer an adverse-impact ratio of {air_blind}: under the Uniform Guidelines "
              "the employer must show the test is job-related, which is the validation this option drops."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Why not simply select both groups at the same rate (demographic parity)?",
    options=(
        Claim("A", "It is the fairest option; only the law is in the way.",
              "Law aside, equal selection costs qualified applicants: recall falls to {tpr_parity} in one group."),
        Claim("B", "Equal selection with different base rates turns away qualified applicants in the group with "
                   "more of them, and needs group-specific cutoffs, which US law forbids for employment tests.",
              "Equal selection rates open an equalized-odds gap of {eo_parity}; the group-blind cutoff keeps "
              "recall equal and discloses the precision gap ({ppv_a} against {ppv_b}) instead."),
        Claim("C", "It cannot be computed without knowing the base rates.",
              "It can: each group's cutoff is set to hit the common selection rate."),
        Claim("D", "Selection rates are already equal under the blind cutoff.",
              "They are not: the adverse-impact ratio is {air_blind}."),
    ),
    answer_letter="B",
)

FAILURES = (
    FailureSpec("a2_recall_floor", "Recall below the floor in a group", act=2),
    FailureSpec("a2_eo_gap", "Equalized-odds gap over the tolerance", act=2),
    FailureSpec("a2_unlawful", "Unlawful for a US employment test", act=2),
    FailureSpec("a2_audit_budget", "Audits over budget", act=2),
    FailureSpec("a2_adverse_impact", "Adverse impact without a documented validation", act=2, severity="warn"),
    FailureSpec("a2_unaudited", "No audit planned", act=2, severity="warn"),
)
FAIL = {f.name: f for f in FAILURES}
CHECK_FAILURE = {"recall": "a2_recall_floor", "eo": "a2_eo_gap", "lawful": "a2_unlawful", "budget": "a2_audit_budget",
                 "impact": "a2_adverse_impact", "audited": "a2_unaudited"}


def act2_instruments(s: State) -> list:
    d = screen(s)
    g, ok = d.pair, d.checks()
    parts = [metric_grid(
        M["a2_tpr_min"].show(min(g.a.tpr, g.b.tpr), "good" if ok["recall"] else "danger",
                             f"floor {fmt(S.recall_floor, 'pct')}"),
        M["a2_eo_gap"].show(g.eo_gap, "good" if ok["eo"] else "danger", f"tolerance {fmt(S.eo_tolerance, 'pp')}"),
        M["a2_air"].show(g.air, None if g.air >= C.UGESP_FOUR_FIFTHS else "warn",
                         f"four-fifths screen {fmt(C.UGESP_FOUR_FIFTHS, 'num')}"),
        M["a2_audit_cost"].show(d.audit_cost, "good" if ok["budget"] else "danger",
                                f"budget {fmt(S.audit_budget_usd, 'usd')}"),
        M["a2_ppv_gap"].show(g.b.ppv - g.a.ppv, note="disclosed, not a check"),
        M["a2_sel_a"].show(g.a.selection_rate, note=f"group B {fmt(g.b.selection_rate, 'pct1')}"),
    )]
    parts += act2_failures(d, g, ok)
    parts.append(groups_chart("a2_groups", "The two groups under the policy", g,
                              f"{POLICIES[d.policy]}: recall {fmt(g.a.tpr, 'pct1')} and {fmt(g.b.tpr, 'pct1')}, "
                              f"selection {fmt(g.a.selection_rate, 'pct1')} and {fmt(g.b.selection_rate, 'pct1')}."))
    return parts


def act2_failures(d: Screen, g: Pair, ok: dict[str, bool]) -> list:
    text = {
        "recall": f"Recall is {fmt(g.a.tpr, 'pct1')} in group A and {fmt(g.b.tpr, 'pct1')} in group B, under the "
                  f"{fmt(S.recall_floor, 'pct')} floor: lower the cutoff, or use one group-blind cutoff at the floor.",
        "eo": f"The groups' recall or false-positive rates differ by {fmt(g.eo_gap, 'pp')}: one test-score cutoff for "
              "both groups closes the gap.",
        "lawful": "42 U.S.C. §2000e-2(l) forbids different cutoff scores by race, sex or national origin on "
                  "employment-related tests.",
        "budget": f"{fmt(d.audits, 'int')} audits at {fmt(AUDIT_USD[d.context], 'usd')} cost {fmt(d.audit_cost, 'usd')}, "
                  f"over {fmt(S.audit_budget_usd, 'usd')}.",
        "impact": f"The adverse-impact ratio is {fmt(g.air, 'num')}, under {fmt(C.UGESP_FOUR_FIFTHS, 'num')}: evidence of "
                  "adverse impact (29 CFR 1607.4(D)) that calls for a documented validation of the test.",
        "audited": "Without audits nobody sees the gaps drift after launch.",
    }
    return [failure(FAIL[CHECK_FAILURE[k]], text[k]) for k, passed in ok.items() if not passed]


def act2_math(s: State):
    g = screen(s).pair
    return math_peek("The governing equations · Act II", (
        Equation(r"z^{*} = \frac{d}{2} + \Phi^{-1}(1 - \mathrm{TPR}_{\text{floor}})",
                 "Policy 2: one group-blind test-score cutoff with the recall floor in every group."),
        Equation(r"\text{EO gap} = \max(|\Delta\mathrm{TPR}|, |\Delta\mathrm{FPR}|),\qquad "
                 r"\text{AIR} = \frac{\min_g \mathrm{SEL}_g}{\max_g \mathrm{SEL}_g}",
                 "Equalized odds and the four-fifths screen on selection rates."),
    ), rows=(
        ("Test-score cutoffs, A / B", f"{fmt(g.z_a, 'num')} / {fmt(g.z_b, 'num')}"),
        ("Recall, A / B", f"{fmt(g.a.tpr, 'pct1')} / {fmt(g.b.tpr, 'pct1')}"),
        ("False-positive rate, A / B", f"{fmt(g.a.fpr, 'pct1')} / {fmt(g.b.fpr, 'pct1')}"),
        ("One audit [assumed]", f"cloud {fmt(S.audit_usd_cloud, 'usd')}, on device {fmt(S.audit_usd_mobile, 'usd')}"),
    ), sources=(
        cite("hardt2016", "equalized odds"),
        cite("ugesp1978", "the four-fifths rule and validation of selection procedures with adverse impact"),
        cite("title_vii_2000e2l", "no different cutoff scores by group on employment tests"),
    ))


ACT2 = Act(
    number=2, title="The Resume Screen", minutes="15–20 min",
    stakeholder_role="VP of Talent",
    stakeholder=lambda: (
        f"Our resume screen must not lose qualified people: at least {fmt(S.recall_floor, 'pct')} of them in every "
        "group get through to an interview. Legal wants it defensible in a US audit, and finance gave us "
        f"{fmt(S.audit_budget_usd, 'usd')} a year for fairness audits. Pick the policy we ship."),
    scenario=lambda: (
        "The screening test is Act I's: the same separation in both groups, with base rates of "
        f"{fmt(S.base_a, 'pct')} and {fmt(S.base_b, 'pct')} qualified applicants.",
        "**Equalized odds** asks for equal recall and equal false-positive rates; the **adverse-impact ratio** "
        "compares selection rates (the US four-fifths screen).",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_POLICY, A2_T, A2_RECALL, A2_AUDITS, A2_VALIDATED),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Screening policy",
    overridden=act2_overridden,
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset(CHECK_FAILURE[k] for k in screen(s).violations)


def results(s: State) -> dict[str, float | str | bool | None]:
    d = screen(s)
    g = d.pair
    return {"p_a": s["a1_base_a"], "p_b": s["a1_base_b"], "d": s["a1_d"], "policy": d.policy,
            "tpr_a": g.a.tpr, "tpr_b": g.b.tpr, "fpr_a": g.a.fpr, "fpr_b": g.b.fpr, "ppv_a": g.a.ppv,
            "ppv_b": g.b.ppv, "air": g.air, "eo_gap": g.eo_gap, "audits_per_year": d.audits,
            "audit_cost_usd": d.audit_cost, "violations": ", ".join(d.violations) or "none"}


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"Equal accuracy ({f['acc']} in both groups) hid a false-positive rate {f['ratio']} as high in group B "
        f"({f['fpr_b']} against {f['fpr_a']}) and the opposite gap in false negatives.",
        "A score calibrated within groups with different base rates cannot also give equal error rates: "
        "FPR = p/(1 − p)·(1 − PPV)/PPV·TPR.",
        f"One group-blind test-score cutoff holds equalized odds exactly; its price is an adverse-impact ratio of "
        f"{g['air_blind']} and a precision gap ({g['ppv_a']} against {g['ppv_b']}), documented and audited.",
        "Group-specific cutoffs for US employment tests are unlawful (42 U.S.C. §2000e-2(l)); the four-fifths rule "
        "screens selection rates, it does not define fairness.",
    ]


LAB = Lab(
    id="v1_15", volume=1, number=15, title="There Is No Free Fairness",
    invariant="With **different base rates**, a calibrated score gives **equal accuracy but unequal error "
              "rates**, and equal error rates give unequal selection: every fairness choice has a price.",
    minutes="30–35 min", chapter="Responsible AI", url="vol1/15-no-free-fairness/",
    reading=(
        "**Fairness criteria**: calibration, equalized odds, demographic parity.",
        "**The impossibility results**: Chouldechova (2017), Kleinberg et al. (2016).",
        "**Fairness in practice**: audits, documentation and what the law asks of selection procedures.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-16 The Fairness Impossibility**](../../vol2/16-fairness-impossibility/): the same identity at "
        "platform scale, across jurisdictions.",
        "**V1-16 The Architect's Audit**: fairness as one of the constraints a design must meet.",
    ),
    context_from=TRACK,
)
