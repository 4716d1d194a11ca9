"""Lab V1-15 · There Is No Free Fairness.

Core invariant: with different base rates, a score calibrated within each group cannot also give
equal error rates (FPR = p/(1 − p)·(1 − PPV)/PPV·TPR, Chouldechova 2017; Kleinberg et al. 2016);
one test-score cutoff for both groups gives equal error rates but unequal selection rates; and no
cutoff rule gives everything at once. Which gap to accept is a documented decision, within the law.

Act I (a loan model): test scores z | repaid ~ N(+d/2, 1), z | defaulted ~ N(−d/2, 1) in both groups
(d = 2, AUC 0.921), base rates 35 % and 65 %, one shared cutoff t = 0.5 on the calibrated score.
Accuracy is 85.24 % in both groups (by the scenario's symmetry, not in general), yet group B's
false-positive rate is 2.57× group A's (24.49 % against 9.52 %). Act II (a resume screen that must
keep 80 % recall in every group): the one test-score cutoff at 80 % recall holds equalized odds
exactly, and its adverse-impact ratio of 0.64 is evidence of adverse impact that the Uniform
Guidelines answer with a validation study (29 CFR 1607.4(D), 1607.3(A)), plus audits.

Where this departs from the spec (handbook/labs/v1_15.md §5), and why:
- Law, checked against its text. 42 U.S.C. §2000e–2(l) makes it unlawful, in selecting
  applicants, "to adjust the scores of, use different cutoff scores for, or otherwise alter the
  results of, employment related tests on the basis of race, color, religion, sex, or national
  origin" (the page said "race, sex or national origin"). The spec calls only policy 3 unlawful, but
  a score calibrated within each group adds logit p_g to every test score and turns policy 1's one
  probability cutoff into two test-score cutoffs (z_A 0.31, z_B −0.31). The statute does not name
  calibrated scores, so the page says that reading them as adjusted scores and different cutoff
  scores is the lab's reading (``READING``; review), not a court's or the EEOC's; policy 1 fails the
  team's equalized-odds check at every t anyway, so no key rests on the reading alone. The "lawful"
  check asks for one test-score cutoff for both groups, whatever the policy. The four-fifths rule is
  quoted as 1607.4(D) words it (evidence of adverse impact for the federal agencies; smaller
  differences may still count), validation as 1607.3(A)-(B) word it, disparate impact as
  §2000e–2(k)(1)(A) words it; the page says which checks are law, which federal guidelines, which
  the lab's reading and which the team's policy, and that it is a teaching model, not legal advice.
- Questions. Act I asks a number, group B's FPR ÷ group A's (ranges A < 1.15×, B to 1.6×,
  C to 2.2× around the base rates' own 1.86×, D above: key D); its reflection asks which change equalizes
  the rates at one calibrated cutoff (key A, equal base rates). Act II's key (policy 2 with validation
  and audits) is a `Pick` over a 2 × 2 of cutoff rule (calibrated, one test-score cutoff) and validation
  study (yes, no), so no majority of features points to it (key B); D buys monthly audits instead of
  the study and fails on the ratio alone, but the study is free here, so B passes all D passes (review).
  Its reflection asks what raises that ratio (key C, a lower cutoff: the ratio is (p_A + (1 − p_A)·r) ÷
  (p_B + (1 − p_B)·r) with r = FPR ÷ TPR, not set by TPR − FPR, which grows from 80 % to 84 % recall).
  The CRO no longer says legal signed off on a score calibrated by group; Act I's title names no answer.
- Tails are computed with erfc (``fairness.upper_tail`` in ``rates_at_z``): at the sliders' extremes
  1 − Φ read 0, so a group selected no one, its precision (0/0) showed 100 % and the adverse-impact
  ratio (0/0) 1. Ratios far from 1 print in scientific notation; rates show three figures.
- Audit prices per context (cloud $1.5 K, mobile $4 K) are the spec's, labelled [assumed]; Edge and
  TinyML are not offered (``TRACK_NOTES``). The blind cutoff's recall slider reaches 99 %, so the
  student can find where one cutoff for both groups clears four-fifths (96.9 % recall, FPR 44.5 %).

Ledger (handbook/labs/v1_15.md): p_a, p_b, d, policy, tpr_a, tpr_b, fpr_a, fpr_b, ppv_a, ppv_b, air, eo_gap,
audits_per_year, audit_cost_usd, violations; answers a1_predict, a1_reflect, a2_pick, a2_reflect.
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick, Prediction,
                              Range, Reflection, Slider, State, Toggle, chart, failure, fmt, math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural, words
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_15_law import STATUTE, law_and_policy
from pylabs.labs.vol1.v1_15_model import (AUDIT_USD, CHECKS, EQUAL_BASE, GROUPS, POLICIES, SCENARIO, Pair, S,
                                          Screen, blind_air, calibrated_pair, designs, four_fifths_recall,
                                          policy_pair, shown_rate)
from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics import units as U
from pylabs.physics.references import cite

# ---- context --------------------------------------------------------------------------

WHERE = {"cloud": "as our cloud service, so an audit samples its logs",
         "mobile": "inside our job app on applicants' phones, so an audit samples a fleet of phones"}
CONTEXT = deployment(("cloud", "mobile"), default="cloud", label="Where the models run",
                     labels={"cloud": "Cloud (a hosted service)", "mobile": "Mobile (on applicants' phones)"},
                     help="Sets what one fairness audit costs in Act II (both prices assumed). The error rates "
                          "come from the scores, the same on every device.")
TRACK_NOTES = {track: (
    f"{name} is not offered here: this lab's loan model and resume screen run as a cloud service or inside a "
    "phone app, and only those two have an audit price. The lab opens in Cloud; its error rates come from the "
    "scores and base rates, the same on every device.") for track, name in (("edge", "Edge"), ("tiny", "TinyML"))}

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


M = {m.name: m for m in (
    MetricSpec("a1_fpr_ratio", "False-positive rate, B ÷ A", "1", "x"),
    MetricSpec("a1_fpr_a", "False-positive rate, group A", "1", "pct"),
    MetricSpec("a1_fpr_b", "False-positive rate, group B", "1", "pct"),
    MetricSpec("a1_acc_a", "Accuracy, group A", "1", "pct"),
    MetricSpec("a1_acc_b", "Accuracy, group B", "1", "pct"),
    MetricSpec("a1_fnr_a", "False-negative rate, group A", "1", "pct"),
    MetricSpec("a1_fnr_b", "False-negative rate, group B", "1", "pct"),
    MetricSpec("a1_ppv_a", "Precision (PPV), group A", "1", "pct"),
    MetricSpec("a1_ppv_b", "Precision (PPV), group B", "1", "pct"),
    MetricSpec("a1_identity", "FPR of A from the identity", "1", "pct"),
    MetricSpec("a2_tpr_min", "Lowest recall of a group", "1", "pct"),
    MetricSpec("a2_eo_gap", "Equalized-odds gap", "1", "pp"),
    MetricSpec("a2_air", "Adverse-impact ratio", "1", "num"),
    MetricSpec("a2_cutoff_gap", "Cutoff gap on the test, A − B", "1", "num"),
    MetricSpec("a2_audit_cost", "Audit cost per year", "USD", "usd"),
    MetricSpec("a2_ppv_gap", "Precision gap (B − A)", "1", "pp"),
    MetricSpec("a2_sel_a", "Selected, group A", "1", "pct"),
)}
FAR_RATIO = MetricSpec("a1_fpr_ratio", M["a1_fpr_ratio"].label, "1", "sci")  # 10⁻⁹ or 10⁶ reads as a power


def ratio_spec(value: float) -> MetricSpec:
    """How a ratio of rates reads: 2.57×, or in scientific notation far from 1 (10⁻⁹, not 0.00000000608×)."""
    return M["a1_fpr_ratio"] if S.far_ratio <= value < 1 / S.far_ratio else FAR_RATIO


def ratio_text(value: float) -> str:
    return ratio_spec(value).text(value)


def act1_truth() -> float:
    return SCENARIO.fpr_ratio


def act1_facts() -> dict[str, str]:
    g, pct = SCENARIO, M["a1_fpr_a"].text
    equal = calibrated_pair(EQUAL_BASE, EQUAL_BASE, S.d, S.cutoff)
    sharp = calibrated_pair(S.base_a, S.base_b, A1_D.max, S.cutoff)
    low, high = (calibrated_pair(S.base_a, S.base_b, S.d, t) for t in (A1_T.min, A1_T.max))
    return {"a1_fpr_ratio": ratio_text(g.fpr_ratio), "a1_fpr_a": pct(g.a.fpr), "a1_fpr_b": pct(g.b.fpr),
            "a1_fnr_a": pct(g.a.fnr), "a1_fnr_b": pct(g.b.fnr), "a1_acc_a": pct(F.accuracy(g.a)),
            "shift": f"{fmt(g.cutoff_gap, 'num')} standard deviations", "base_ratio": fmt(S.base_b / S.base_a, "x"),
            "eq_fpr": pct(equal.a.fpr), "half": fmt(EQUAL_BASE, "pct"), "d_max": fmt(A1_D.max, "num"),
            "ratio_sharp": ratio_text(sharp.fpr_ratio), "t_low": fmt(A1_T.min, "num"), "t_high": fmt(A1_T.max, "num"),
            "ratio_low": ratio_text(low.fpr_ratio), "ratio_high": ratio_text(high.fpr_ratio)}


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Both groups take the same test (separation d = {fmt(S.d, 'num')}), and each score is calibrated "
           f"within its group: {fmt(S.base_a, 'pct')} of group A repay, {fmt(S.base_b, 'pct')} of group B. Loans go "
           f"to calibrated scores of {fmt(S.cutoff, 'num')} or more, and accuracy is the same in both groups. How "
           "does group B's false-positive rate (loans to people who default) compare with group A's?",
    quantity="group B's false-positive rate ÷ group A's",
    unit_fmt="x",
    options=(
        Range("A", "{range}: about equal, like the accuracy", None, 1.15, 1.0,
              "Accuracy mixes the two errors, weighted by the base rate: group A's mistakes are mostly refused "
              "repayers (false-negative rate {a1_fnr_a}), group B's mostly approved defaulters (false-positive "
              "rate {a1_fpr_b} against {a1_fpr_a})."),
        Range("B", "{range}: a little higher for group B", 1.15, 1.6, 1.35,
              "The direction is right: calibration sets group B's cutoff lower on the test score, because most "
              "of group B repays. The two cutoffs sit {shift} apart, and in the defaulters' tail that shift is "
              "not a little."),
        Range("C", f"{{range}}: the ratio of the base rates, {fmt(S.base_b, 'pct')} ÷ {fmt(S.base_a, 'pct')}",
              1.6, 2.2, 1.86,
              "The base rates' ratio is {base_ratio}, but a false-positive rate is a tail area: moving group B's "
              "cutoff {shift} down into the defaulters' tail multiplies it by more than that ({a1_fpr_a} to "
              "{a1_fpr_b})."),
        Range("D", "{range}: more than the base rates' ratio", 2.2, None, 3.0,
              "Calibration sets group B's cutoff {shift} lower on the test score, so {a1_fpr_b} of its defaulters "
              "get loans against {a1_fpr_a} in group A; group A pays in refused repayers instead (false-negative "
              "rate {a1_fnr_a} against {a1_fnr_b})."),
    ),
    truth=act1_truth,
    shown_by="a1_fpr_ratio",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Keep each group's score calibrated and one probability cutoff for everyone. Which change would give "
           "the two groups the same false-positive rate?",
    options=(
        Claim("A", "Groups with equal base rates",
              "With equal base rates the calibrated score maps the test score the same way in both groups, so the "
              "one cutoff is one test-score cutoff: both groups at {half} repaying have a false-positive rate of "
              "{eq_fpr}. With unequal base rates, FPR = p/(1 − p)·(1 − PPV)/PPV·TPR holds them apart "
              "(Chouldechova 2017; Kleinberg et al. 2016)."),
        Claim("B", "A sharper test, with a larger separation d",
              "A sharper test lowers both rates, not their ratio to one: at d = {d_max}, the slider's top, group "
              "B's rate is still {ratio_sharp} group A's. Only a perfect test, with no false positives at all, "
              "removes the gap."),
        Claim("C", "A different probability cutoff t",
              "Moving t moves both groups' test-score cutoffs together; they stay {shift} apart, so group B's "
              "rate stays higher at every t: {ratio_low} group A's at t = {t_low}, {ratio_high} at t = {t_high}."),
        Claim("D", "Equal numbers of applicants in each group",
              "The rates are shares of each group, so the number of applicants never enters them; the base rate, "
              "the test and the cutoff do."),
    ),
    answer_letter="A",
)


def act1_instruments(s: State) -> list:
    g = act1_pair(s)
    equal = abs(g.fpr_ratio - 1) < S.equal_ratio   # the card shows a ratio: 0.07 % against 0.15 % is 2.31×
    identity = shown_rate(F.fpr_from_identity(g.a.base_rate, g.a.ppv, g.a.tpr))
    # a false-negative rate is the repayers' lower tail, Φ(z − d/2): as 1 − TPR it read 0 % where it is 10⁻²⁶
    fnr_a, fnr_b = (F.upper_tail(s["a1_d"] / 2 - z) for z in (g.z_a, g.z_b))
    fpr_a, fpr_b = shown_rate(g.a.fpr), shown_rate(g.b.fpr)
    pct = M["a1_fpr_a"].text
    return [metric_grid(
        ratio_spec(g.fpr_ratio).show(g.fpr_ratio, "good" if equal else "warn"),
        M["a1_fpr_a"].show(fpr_a), M["a1_fpr_b"].show(fpr_b),
        M["a1_acc_a"].show(F.accuracy(g.a)), M["a1_acc_b"].show(F.accuracy(g.b)),
        M["a1_fnr_a"].show(shown_rate(fnr_a)), M["a1_fnr_b"].show(shown_rate(fnr_b)),
        M["a1_ppv_a"].show(g.a.ppv), M["a1_ppv_b"].show(g.b.ppv),
        M["a1_identity"].show(identity, note=f"measured {pct(fpr_a)}"),
    ), groups_chart("a1_groups", "The two groups at one calibrated cutoff", g,
                    f"At t = {fmt(s['a1_t'], 'num')}, accuracy is {fmt(F.accuracy(g.a), 'pct')} in group A and "
                    f"{fmt(F.accuracy(g.b), 'pct')} in group B; the false-positive rates are {pct(fpr_a)} "
                    f"and {pct(fpr_b)}.")]


def groups_chart(name: str, title: str, g: Pair, summary: str):
    labels = ["Recall (TPR)", "FPR", "Precision", "Selected"]
    values = {k: [shown_rate(v) for v in (g.group(k).tpr, g.group(k).fpr, g.group(k).ppv, g.group(k).selection_rate)]
              for k in GROUPS}
    traces = [ch.bars(f"Group {k} ({fmt(g.group(k).base_rate, 'pct')} base rate)", labels,
                      [v * U.PERCENT for v in values[k]], colour, text=[fmt(v, "pct") for v in values[k]])
              for k, colour in zip(GROUPS, ("series1", "series2"))]
    figure = ch.figure(traces, ch.axis("", "category"), ch.axis("Percent of the group", range=[0, U.PERCENT * 1.08]),
                       height=int(S.chart_height_px))
    rows = [(n, fmt(a, "pct"), fmt(b, "pct")) for n, a, b in zip(labels, values["A"], values["B"])]
    return chart(name, title, figure, summary, table=(("Measure", "Group A", "Group B"), rows))


def act1_math(s: State):
    g = act1_pair(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"s_g = \sigma(\operatorname{logit} p_g + d\,z),\qquad z_g = \frac{\operatorname{logit} t - \operatorname{logit} p_g}{d}",
                 "A score calibrated within group *g*, and the test-score cutoff a shared probability cutoff *t* means."),
        Equation(r"\mathrm{TPR} = 1 - \Phi(z_g - d/2),\qquad \mathrm{FPR} = 1 - \Phi(z_g + d/2)",
                 "Repayers score N(+d/2, 1), defaulters N(−d/2, 1), in both groups."),
        Equation(r"\mathrm{FPR} = \frac{p}{1-p}\cdot\frac{1-\mathrm{PPV}}{\mathrm{PPV}}\cdot\mathrm{TPR}",
                 "Chouldechova's identity, which holds in each group at any cutoff."),
    ), rows=(
        ("Test-score cutoffs, A / B", f"{fmt(g.z_a, 'num')} / {fmt(g.z_b, 'num')}"),
        ("AUC of the test", fmt(F.auc_binormal(s["a1_d"]), "num")),
        ("Adverse-impact ratio", fmt(g.air, "sci")),
    ), sources=(
        cite("chouldechova2017", "the identity that links FPR, PPV, TPR and the base rate"),
        cite("kleinberg2016", "when calibration within groups and balance for both classes can hold together"),
        "Scores, base rates and d are the scenario's assumptions.",
    ))


ACT1 = Act(
    number=1, title="Two Groups, One Cutoff", minutes="12–15 min",
    stakeholder_role="Chief Risk Officer",
    stakeholder=lambda: (
        "Our loan model is exactly as accurate for both applicant groups, and its scores are calibrated in each. "
        "An advocacy group says the two groups do not get the same mistakes. Who is right, and by how much?"),
    scenario=lambda: (
        "A **false positive** approves a loan to someone who will default; a **false negative** refuses someone "
        "who would repay. **Accuracy** counts both, weighted by the group's base rate.",
        f"**Calibrated within each group**: of a group's applicants scored {fmt(S.example_score, 'num')}, "
        f"{words(S.example_score * 10)} in ten repay. One probability cutoff applies to everyone.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_BASE_A, A1_BASE_B, A1_D, A1_T),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Error rates of both groups",
)

# ---- Act II · The resume screen --------------------------------------------------------

A2_POLICY = Choice("a2_policy", "Screening policy", tuple(Option(k, v) for k, v in POLICIES.items()),
                   default="calibrated", widget="select")
A2_T = Slider("a2_t", "Calibrated cutoff, t (policy 1)", unit="1", min=0.1, max=0.9, step=0.01, default=S.cutoff,
              fmt="num")
A2_RECALL = Slider("a2_recall", "Recall the one test-score cutoff keeps (policy 2)", unit="1", min=0.6, max=0.99,
                   step=0.01, default=S.recall_floor, fmt="pct")
A2_AUDITS = Slider("a2_audits", "Fairness audits per year", unit="1/year", min=0, max=52, step=1,
                   default=S.audits_per_year, fmt="int")
A2_VALIDATED = Toggle("a2_validated", "Validation study of the test", default=False,
                      help="A study showing the test predicts performance in the job, with a search for "
                           "alternatives of less adverse impact (29 CFR 1607.3(B)).")


def act2_overridden(s: State) -> dict[str, str]:
    reasons = {}
    if s["a2_policy"] != "calibrated":
        reasons["a2_t"] = "Used only by policy 1, one calibrated cutoff."
    if s["a2_policy"] != "blind":
        reasons["a2_recall"] = "Used only by policy 2, one test-score cutoff for both groups."
    return reasons


def screen(s: State) -> Screen:
    return Screen(s["a2_policy"], s["a2_validated"], s["a2_audits"], s["context"], s["a2_t"], s["a2_recall"])


def act2_answer(context: str) -> str:
    """The one deployment of the four that passes every check in this context (a test proves it is unique)."""
    return next(k for k, d in designs(context).items() if not d.violations)


def act2_facts(context: str) -> dict[str, str]:
    d = designs(context)
    one, blind = d["A"].pair, d["B"].pair
    ff_recall, limit = four_fifths_recall(), fmt(C.UGESP_FOUR_FIFTHS, "num")
    low = d["C"].pair
    return {"z_a": fmt(one.z_a, "num"), "z_b": fmt(one.z_b, "num"), "tpr_one": fmt(one.a.tpr, "pct"),
            "eo_one": fmt(one.eo_gap, "pp"), "tpr_low": fmt(low.a.tpr, "pct"),
            "z_a_low": fmt(low.z_a, "num"), "z_b_low": fmt(low.z_b, "num"), "eo_low": fmt(low.eo_gap, "pp"),
            "air_t_low": fmt(low.air, "num"), "recall": fmt(S.recall_floor, "pct"), "fpr": fmt(blind.a.fpr, "pct"),
            "air_blind": fmt(blind.air, "num"), "limit": fmt(C.UGESP_FOUR_FIFTHS, "num"),
            "a2_audit_cost": M["a2_audit_cost"].text(d["B"].audit_cost),
            "audit_cost_monthly": M["a2_audit_cost"].text(d["D"].audit_cost),
            "monthly_budget": ("within" if d["D"].checks()["budget"] else "over") + " the "
                              + fmt(S.audit_budget_usd, "usd") + " budget",
            "ppv_a": fmt(blind.a.ppv, "pct"), "ppv_b": fmt(blind.b.ppv, "pct"),
            "recall_high": fmt(S.recall_high, "pct"), "air_high": fmt(blind_air(S.recall_high), "num"),
            "recall_low": fmt(A2_RECALL.min, "pct"), "air_low": fmt(blind_air(A2_RECALL.min), "num"),
            "d_sharp": fmt(A1_D.max, "num"), "air_sharp": fmt(blind_air(S.recall_floor, A1_D.max), "num"),
            "base_ratio": fmt(S.base_a / S.base_b, "num"),
            "air_formula": f"({fmt(S.base_a, 'pct')} + {fmt(1 - S.base_a, 'pct')}·r) ÷ "
                           f"({fmt(S.base_b, 'pct')} + {fmt(1 - S.base_b, 'pct')}·r)",
            "ff_reach": f"no single cutoff reaches {limit}; the ratio nears 1 only as everyone is selected"
            if ff_recall is None else f"the ratio reaches {limit} at {fmt(ff_recall, 'pct')} recall, where "
            f"{fmt(policy_pair('blind', S.cutoff, ff_recall).a.fpr, 'pct')} of the unqualified are selected too"}


ACT2_PREDICTION = Pick(
    id="a2_pick", act=2,
    prompt=f"The screen must keep at least {fmt(S.recall_floor, 'pct')} of each group's qualified applicants, hold "
           f"equalized odds within {fmt(S.eo_tolerance, 'pp')}, follow the US rules above and spend at most "
           f"{fmt(S.audit_budget_usd, 'usd')} a year on audits. Which deployment passes every check?",
    quantity="the deployment that passes every check",
    options=(
        Claim("A", f"One calibrated cutoff, t = {fmt(S.cutoff, 'num')}, for everyone, with a validation study and "
                   "quarterly audits",
              "A score calibrated within each group turns the one probability cutoff into two test-score cutoffs "
              "({z_a} for group A, {z_b} for group B), which this lab reads as different cutoff scores by group. "
              "Apart from the law, it keeps only {tpr_one} of group A's qualified applicants, and the "
              "equalized-odds gap is {eo_one}."),
        Claim("B", f"One test-score cutoff for both groups at {fmt(S.recall_floor, 'pct')} recall, with a validation "
                   "study and quarterly audits",
              "Both groups keep {recall} of their qualified applicants at the same false-positive rate ({fpr}): "
              "equalized odds holds exactly, on one cutoff. The adverse-impact ratio is {air_blind}, under "
              "{limit}: evidence of adverse impact, which the Guidelines answer with the validation study "
              "(1607.3(A)). Quarterly audits cost {a2_audit_cost} a year."),
        Claim("C", f"One calibrated cutoff, t = {fmt(S.lowered_cutoff, 'num')}, for everyone, with quarterly audits "
                   "and no validation study",
              "Lowering t lifts group A's recall to {tpr_low}, but the score still puts the cutoff at {z_a_low} on "
              "the test for group A and {z_b_low} for group B, which this lab reads as different cutoff scores by "
              "group. Apart from the law, the equalized-odds gap is {eo_low}, and an adverse-impact ratio of "
              "{air_t_low} has no validation to answer it."),
        Claim("D", f"One test-score cutoff for both groups at {fmt(S.recall_floor, 'pct')} recall, with monthly "
                   "audits instead of a validation study",
              "Monthly audits cost {audit_cost_monthly} a year, {monthly_budget}, but an audit watches the rates; it "
              "does not validate the test. One cutoff for both groups still selects group A at {air_blind} of group "
              "B's rate, under {limit}: evidence of adverse impact (1607.4(D)), and without a validation study (or "
              "the Guidelines' section 6) the procedure is considered discriminatory (1607.3(A))."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Under one test-score cutoff for both groups, recall and false-positive rate are equal, yet group A is "
           "selected less often than group B. What raises that adverse-impact ratio, with the cutoff still the same "
           "for both groups?",
    options=(
        Claim("A", "Nothing: with equal error rates, the base rates alone set it",
              "Divide each group's selection, p·TPR + (1 − p)·FPR, by the shared recall: the ratio is "
              "{air_formula} with r = FPR ÷ TPR, and the cutoff sets r. The base "
              "rates alone set it only at r = 0; at {recall_high} recall the ratio is {air_high}, not {air_blind}."),
        Claim("B", "A sharper test, separating the qualified applicants better",
              "A sharper test lets fewer unqualified applicants through at the same recall, so FPR ÷ TPR falls and "
              "the ratio with it: at d = {d_sharp} and {recall} recall it is {air_sharp}, nearer the base rates' "
              "own ratio, {base_ratio}."),
        Claim("C", "A lower cutoff, so more unqualified applicants get through",
              "The ratio is {air_formula} with r = FPR ÷ TPR, and a lower cutoff "
              "raises r: {ff_reach}. It rises as the unqualified pass more nearly as often as the qualified."),
        Claim("D", "A higher cutoff, so fewer unqualified applicants get through",
              "A higher cutoff cuts the false-positive rate faster than recall, so FPR ÷ TPR falls and selection "
              "follows the base rates: the ratio falls toward {base_ratio} ({air_low} at {recall_low} recall)."),
    ),
    answer_letter="C",
)

FAILURES = (
    FailureSpec("a2_unlawful", "Different cutoff scores by group (US law)", act=2,
                reach={}, leave={"a2_policy": "blind"}),
    FailureSpec("a2_adverse_impact", "Adverse impact without a validation study", act=2, severity="warn",
                reach={"a2_policy": "blind"}, leave={"a2_recall": 0.97}),
    FailureSpec("a2_recall_floor", "Recall below the floor in a group", act=2,
                reach={}, leave={"a2_policy": "blind"}),
    FailureSpec("a2_eo_gap", "Equalized-odds gap over the tolerance", act=2,
                reach={}, leave={"a2_policy": "blind"}),
    FailureSpec("a2_audit_budget", "Audits over budget", act=2,
                reach={"a2_audits": 40}, leave={"a2_audits": 0}),
    FailureSpec("a2_unaudited", "No audit planned", act=2, severity="warn",
                reach={"a2_audits": 0}, leave={"a2_audits": 52}),
)
FAIL = {f.name: f for f in FAILURES}
CHECK_FAILURE = {"lawful": "a2_unlawful", "impact": "a2_adverse_impact", "recall": "a2_recall_floor",
                 "eo": "a2_eo_gap", "budget": "a2_audit_budget", "audited": "a2_unaudited"}


def act2_instruments(s: State) -> list:
    d = screen(s)
    g, ok = d.pair, d.checks()
    parts = [metric_grid(
        M["a2_tpr_min"].show(min(g.a.tpr, g.b.tpr), "good" if ok["recall"] else "danger",
                             f"floor {fmt(S.recall_floor, 'pct')}"),
        M["a2_eo_gap"].show(g.eo_gap, "good" if ok["eo"] else "danger", f"tolerance {fmt(S.eo_tolerance, 'pp')}"),
        M["a2_air"].show(g.air, None if g.air >= C.UGESP_FOUR_FIFTHS else "warn",
                         f"four-fifths screen {fmt(C.UGESP_FOUR_FIFTHS, 'num')}"),
        M["a2_cutoff_gap"].show(g.cutoff_gap, "good" if ok["lawful"] else "danger",
                                "σ of the test score · " + ("one cutoff for both groups" if ok["lawful"]
                                                            else "different cutoffs by group")),
        M["a2_audit_cost"].show(d.audit_cost, "good" if ok["budget"] else "danger",
                                f"budget {fmt(S.audit_budget_usd, 'usd')}"),
        M["a2_ppv_gap"].show(g.b.ppv - g.a.ppv, note="disclosed, not a check"),
        M["a2_sel_a"].show(g.a.selection_rate, note=f"group B {fmt(g.b.selection_rate, 'pct')}"),
    )]
    parts += act2_failures(d, g, ok)
    parts.append(groups_chart("a2_groups", "The two groups under the policy", g,
                              f"{POLICIES[d.policy]}: recall {fmt(g.a.tpr, 'pct')} in group A and "
                              f"{fmt(g.b.tpr, 'pct')} in group B, selection {fmt(g.a.selection_rate, 'pct')} and "
                              f"{fmt(g.b.selection_rate, 'pct')}."))
    parts.append(law_and_policy())
    return parts


RECALL_FIX = {"calibrated": "lower t, or use one test-score cutoff for both groups",
              "blind": "set the one cutoff for a higher recall",
              "parity": "equal selection rates cap recall in the group with more qualified applicants"}


def act2_failures(d: Screen, g: Pair, ok: dict[str, bool]) -> list:
    cutoffs = f"{fmt(g.z_a, 'num')} for group A and {fmt(g.z_b, 'num')} for group B"
    grounds = "when the groups differ by race, color, religion, sex or national origin"
    lawful = (f"A score calibrated within each group adjusts every score by the group's base rate, and on the "
              f"test's own scale puts the one probability cutoff at two cutoffs, {cutoffs}. This lab reads that as "
              f"the adjusted scores and different cutoff scores that 42 U.S.C. §2000e–2(l) makes unlawful {grounds} "
              "(the statute does not name calibrated scores; see the law notes below)."
              if d.policy == "calibrated" else
              f"Equal selection rates need two cutoffs on the test, {cutoffs}: different cutoff scores by group, "
              f"which 42 U.S.C. §2000e–2(l) makes an unlawful employment practice {grounds}.")
    text = {
        "lawful": lawful,
        "impact": f"Group A is selected at {fmt(g.a.selection_rate, 'pct')} and group B at "
                  f"{fmt(g.b.selection_rate, 'pct')}: a ratio of {fmt(g.air, 'num')}, under four-fifths. The Uniform "
                  "Guidelines generally regard that as evidence of adverse impact (29 CFR 1607.4(D)), and a "
                  "procedure with adverse impact as discriminatory unless it has been validated or their section 6 "
                  "is satisfied (1607.3(A)).",
        "recall": f"Recall is {fmt(g.a.tpr, 'pct')} in group A and {fmt(g.b.tpr, 'pct')} in group B; the team's "
                  f"floor is {fmt(S.recall_floor, 'pct')} in every group: {RECALL_FIX[d.policy]}.",
        "eo": f"Recall differs by {fmt(abs(g.a.tpr - g.b.tpr), 'pp')} and the false-positive rate by "
              f"{fmt(abs(g.a.fpr - g.b.fpr), 'pp')} between the groups, over the team's {fmt(S.eo_tolerance, 'pp')}: "
              "only one test-score cutoff for both groups gives them the same rates.",
        "budget": f"{plural(d.audits, 'audit', count_fmt='int')} at {fmt(AUDIT_USD[d.context], 'usd')} cost "
                  f"{fmt(d.audit_cost, 'usd')} a year, over the {fmt(S.audit_budget_usd, 'usd')} budget.",
        "audited": "With no audit planned, nobody sees the rates drift after launch.",
    }
    return [failure(FAIL[CHECK_FAILURE[k]], text[k]) for k, passed in ok.items() if not passed]


def act2_math(s: State):
    g = screen(s).pair
    return math_peek("The governing equations · Act II", (
        Equation(r"z^{*} = \frac{d}{2} + \Phi^{-1}(1 - \mathrm{TPR}_{\text{floor}})",
                 "Policy 2: one test-score cutoff for both groups, with the recall floor in every group."),
        Equation(r"\frac{\mathrm{SEL}_A}{\mathrm{SEL}_B} = \frac{p_A + (1 - p_A)\,r}{p_B + (1 - p_B)\,r},\qquad "
                 r"r = \frac{\mathrm{FPR}}{\mathrm{TPR}}",
                 "Selection under one cutoff, SEL = p·TPR + (1 − p)·FPR with the same rates in both groups."),
        Equation(r"\text{EO gap} = \max(|\Delta\mathrm{TPR}|, |\Delta\mathrm{FPR}|),\qquad "
                 r"\text{AIR} = \frac{\min_g \mathrm{SEL}_g}{\max_g \mathrm{SEL}_g}",
                 "Equalized odds, and the four-fifths screen on selection rates."),
    ), rows=(
        ("Test-score cutoffs, A / B", f"{fmt(g.z_a, 'num')} / {fmt(g.z_b, 'num')}"),
        ("Recall, A / B", f"{fmt(g.a.tpr, 'pct')} / {fmt(g.b.tpr, 'pct')}"),
        ("False-positive rate, A / B", f"{fmt(g.a.fpr, 'pct')} / {fmt(g.b.fpr, 'pct')}"),
        ("One audit [assumed]", f"cloud {fmt(S.audit_usd_cloud, 'usd')}, on a phone {fmt(S.audit_usd_mobile, 'usd')}"),
    ), sources=(
        cite("hardt2016", "equalized odds"),
        cite("ugesp1978", "the four-fifths rule: evidence of adverse impact for the federal agencies"),
        "US EEOC et al. 1978, *Uniform Guidelines on Employee Selection Procedures, 29 CFR 1607.3(A)–(B)* (a "
        "procedure with adverse impact is discriminatory unless validated; alternatives with less adverse impact).",
        cite("title_vii_2000e2l", "no different cutoff scores by race, color, religion, sex or national origin"),
    ))


ACT2 = Act(
    number=2, title="The Resume Screen", minutes="15–20 min",
    stakeholder_role="VP of Talent",
    stakeholder=lambda: (
        f"Our resume screen must not lose qualified people: at least {fmt(S.recall_floor, 'pct')} of each group's "
        "qualified applicants get an interview. Legal wants it defensible in a US audit, and finance gives us "
        f"{fmt(S.audit_budget_usd, 'usd')} a year for fairness audits. Pick the deployment we ship."),
    scenario=lambda context: (
        f"The screen uses Act I's test (d = {fmt(S.d, 'num')}). Groups A and B differ in a characteristic US "
        f"employment law protects; {fmt(S.base_a, 'pct')} of group A's applicants are qualified, "
        f"{fmt(S.base_b, 'pct')} of group B's. It runs {WHERE[context]}: one audit costs "
        f"{fmt(AUDIT_USD[context], 'usd')} [assumed].",
        f"**US rules** (a summary, not legal advice): it is unlawful \"{STATUTE}\" (42 U.S.C. §2000e–2(l)). A "
        "selection rate under four-fifths of the highest group's is generally regarded by the federal agencies as "
        "evidence of adverse impact (29 CFR 1607.4(D)), and under the Guidelines a procedure with adverse impact "
        "counts as discriminatory unless it has been validated or meets their section 6 (1607.3(A)).",
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


RECORD = (
    MetricSpec("p_a", "Act I group A base rate", "1", "pct"),
    MetricSpec("p_b", "Act I group B base rate", "1", "pct"),
    MetricSpec("d", "Act I test-score separation, d", "1", "num"),
    MetricSpec("policy", "Act II screening policy", "", "num"),
    MetricSpec("tpr_a", "Act II recall, group A", "1", "pct"),
    MetricSpec("tpr_b", "Act II recall, group B", "1", "pct"),
    MetricSpec("fpr_a", "Act II false-positive rate, group A", "1", "pct"),
    MetricSpec("fpr_b", "Act II false-positive rate, group B", "1", "pct"),
    MetricSpec("ppv_a", "Act II precision, group A", "1", "pct"),
    MetricSpec("ppv_b", "Act II precision, group B", "1", "pct"),
    MetricSpec("air", "Act II adverse-impact ratio", "1", "num"),
    MetricSpec("eo_gap", "Act II equalized-odds gap", "1", "pp"),
    MetricSpec("audits_per_year", "Act II audits per year", "1/year", "int"),
    MetricSpec("audit_cost_usd", "Act II audit cost per year", "USD", "usd"),
    MetricSpec("violations", "Act II checks failed", "", "num"),
)


def results(s: State) -> dict[str, float | str | bool | None]:
    d = screen(s)
    g = d.pair
    failed = "; ".join(CHECKS[k][0].lower() for k in d.violations)
    return {"p_a": s["a1_base_a"], "p_b": s["a1_base_b"], "d": s["a1_d"], "policy": POLICIES[d.policy],
            "tpr_a": g.a.tpr, "tpr_b": g.b.tpr, "fpr_a": g.a.fpr, "fpr_b": g.b.fpr, "ppv_a": g.a.ppv,
            "ppv_b": g.b.ppv, "air": g.air, "eo_gap": g.eo_gap, "audits_per_year": d.audits,
            "audit_cost_usd": d.audit_cost, "violations": failed or "none"}


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts(CONTEXT.default)
    return [
        f"In the loan scenario, equal accuracy ({f['a1_acc_a']} in both groups) hid a false-positive rate "
        f"{f['a1_fpr_ratio']} as high in group B ({f['a1_fpr_b']} against {f['a1_fpr_a']}), and the opposite gap in "
        "false negatives.",
        "A score calibrated within groups with different base rates cannot also give them equal error rates: "
        "FPR = p/(1 − p)·(1 − PPV)/PPV·TPR ties each group's rates to its base rate.",
        f"One test-score cutoff for both groups holds equalized odds exactly; its price is an adverse-impact ratio of "
        f"{g['air_blind']} and a precision gap ({g['ppv_a']} against {g['ppv_b']}), answered with a validation study "
        "and audits.",
        "For a US employment test, the statute forbids adjusted scores or different cutoff scores on the basis of "
        "race, color, religion, sex or national origin; one probability cutoff on a within-group calibrated score is "
        "two cutoffs on the test's own scale, which this lab reads as such (the statute does not name calibrated "
        "scores). The four-fifths ratio is the federal agencies' screen for adverse impact, not a definition of "
        "fairness. A teaching model, not legal advice.",
    ]


LAB = Lab(
    id="v1_15", volume=1, number=15, title="There Is No Free Fairness",
    invariant="A score calibrated within each group cannot also give **equal error rates** when the groups' base "
              "rates differ, and equal error rates give **unequal selection rates**: every fairness criterion has a "
              "price, and the law limits which ones a team may pay.",
    minutes="30–35 min", chapter="Responsible AI", url="vol1/15-no-free-fairness/",
    description="Why a loan model that is equally accurate for two groups can still approve bad loans far more "
                "often in one of them, and what a lawful, auditable resume screen looks like when no fairness "
                "criterion comes free.",
    reading=(
        "**Fairness criteria**: calibration, equalized odds, demographic parity.",
        "**The impossibility results**: Chouldechova (2017), Kleinberg et al. (2016).",
        "**Fairness in practice**: audits, documentation and what US law asks of employment tests.",
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
    record_metrics=RECORD,
    context_from=TRACK,
    track_notes=TRACK_NOTES,
    hook="A loan model is exactly as accurate for two groups of applicants. Does it make the same mistakes in both, "
         "and what may a hiring team do about it?",
)
