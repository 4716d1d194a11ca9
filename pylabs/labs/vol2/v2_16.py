"""Lab V2-16 · The Fairness Impossibility.

Core invariant: in each group FPR = p/(1 − p) · (1 − PPV)/PPV · TPR, so with unequal base rates p
and an imperfect classifier, equal selection rates, equal error rates and equal precision (PPV)
cannot all hold (Chouldechova 2017; Kleinberg et al. 2016). Which to give up is policy.

Act I (moderation): identical binormal scores (d′ = 2.4), base rates 2 % and 10 %. Demographic
parity at 6 % gives FPR 4.57 % vs 0.92 %, 4.96× (the activists' "about 5×"). Act II (hiring, 5 M
screens a day): the US four-fifths rule screens selection rates (29 CFR 1607.4(D)), not equalized
odds; the EU AI Act (Art. 10) asks for a documented bias examination and names no metric, so the
team documents its own |ΔFPR| tolerance (2 pp). At t = 1.8 one threshold has impact ratio 0.474;
the minimal four-fifths fix widens the FPR gap to 3.30 pp, so only per-jurisdiction thresholds on
one calibrated score pass both checks.

Choices, and why: the context switches Act I between measured and equal base rates (where one
threshold meets every criterion: the reflection's point). Act I's operating point is one flag rate
(parity flags that share of each group; the other criteria flag it in group B and derive group A's
threshold), so the control always matters. The spec's Act II option D ("no ML") has no physics to
check; it becomes "predictive parity everywhere". Harm is qualified candidates rejected (N·p·FNR),
half the screens in each jurisdiction and half from each group [assumed].

Ledger (spec §3): results base_rate_a/b, criterion, threshold_a/b, fpr_a/b, tpr_a/b, ppv_a/b
(Act I), us_rule, eu_rule, impact_ratio, eu_fpr_gap, us_ok, eu_ok, qualified_rejected_per_day
(Act II); answers a1_predict (act1_prediction, act1_correct), a2_predict (act2_decision);
failures_active (constraint_hit).
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_16_model import (DESIGNS, S, SCENARIO_DP, Deployment, Pair, a2_pair, act1_pair, act1_truth,
                                          act2_answer, pair)
from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics.references import cite

CRITERIA = {"dp": "Demographic parity", "single": "One threshold", "ppv": "Predictive parity"}
RULES = {"single": "One threshold (equal error rates)", "fourfifths": "Four-fifths fix (lower A's threshold)",
         "dp": "Demographic parity (equal selection)", "ppv": "Predictive parity (equal PPV)"}


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Base rates of the two groups", (
    Option("measured", f"As measured: group A {fmt(S.base_a, 'pct')}, group B {fmt(S.base_b, 'pct')}"),
    Option("equal", f"Counterfactual: both groups {fmt(S.base_equal, 'pct')}"),
), default="measured", help="Sets the base-rate sliders of Act I's instruments.")

# ---- Act I · One flag rate, two error rates ------------------------------------------

A1_CRITERION = Choice("a1_criterion", "Fairness criterion", tuple(Option(k, v) for k, v in CRITERIA.items()),
                      default="dp", help="Demographic parity: equal flag rates. One threshold: equal error "
                                         "rates. Predictive parity: equal precision (PPV).")
A1_FLAG = Slider("a1_flag_rate", "Flag rate", unit="1", min=0.01, max=0.15, step=0.005, default=S.flag_rate,
                 fmt="pct", help="Demographic parity flags this share of each group; the other criteria flag "
                                 "this share of group B and set group A's threshold by the criterion.")
A1_BASE_A = Slider("a1_base_a", "Group A base rate (violating posts)", unit="1", min=0.01, max=0.3, step=0.005,
                   default=S.base_a, fmt="pct")
A1_BASE_B = Slider("a1_base_b", "Group B base rate (violating posts)", unit="1", min=0.01, max=0.3, step=0.005,
                   default=S.base_b, fmt="pct")


def act1_state(s: State) -> Pair:
    return act1_pair(s["a1_criterion"], s["a1_base_a"], s["a1_base_b"], s["a1_flag_rate"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Both groups are flagged at exactly {fmt(S.flag_rate, 'pct')}. Of group A's posts "
           f"{fmt(S.base_a, 'pct')} break the rules, of group B's {fmt(S.base_b, 'pct')}; the classifier's "
           f"scores are distributed the same way in both groups (separation d′ = {fmt(S.d_prime, 'num')}). "
           "How does group A's false-positive rate compare with group B's?",
    quantity="group A's false-positive rate ÷ group B's",
    unit_fmt="x",
    options=(
        Range("A", "{range}: about equal, since equal flag rates treat both groups the same", None, 1.25, 1.0,
              "Equal flag rates are not equal error rates: group A has fewer real violations to fill its "
              "{flag} quota with, so more of its flags land on innocent posts."),
        Range("B", "{range}: somewhat higher for group A", 1.25, 3.0, 2.0,
              "The direction is right, but the base rates differ {base_ratio}; group A's innocent posts "
              "absorb most of its quota."),
        Range("C", "{range}: several times higher for group A", 3.0, 10.0, 5.0,
              "Group A's flags are only {ppv_a} precise against group B's {ppv_b}: the same flag rate on a "
              "rarer problem is mostly false positives ({fpr_a} against {fpr_b})."),
        Range("D", "{range}: an order of magnitude or more", 10.0, None, 20.0,
              "The classifier still catches most of group A's real violations ({tpr_a}), which fill part of "
              "the quota; the gap is large but not that large."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    dp, one = SCENARIO_DP, act1_pair("single", S.base_a, S.base_b, S.flag_rate)
    better = act1_pair("dp", S.base_a, S.base_b, S.flag_rate, S.better_d_prime)
    equal = act1_pair("single", S.base_equal, S.base_equal, S.flag_rate)
    return {"flag": fmt(S.flag_rate, "pct"), "base_ratio": fmt(S.base_b / S.base_a, "x"),
            "ppv_a": fmt(dp.a.ppv, "pct"), "ppv_b": fmt(dp.b.ppv, "pct"), "fpr_a": fmt(dp.a.fpr, "pct"),
            "fpr_b": fmt(dp.b.fpr, "pct"), "tpr_a": fmt(dp.a.tpr, "pct"), "ratio": fmt(dp.fpr_ratio, "x"),
            "one_sel_a": fmt(one.a.selection_rate, "pct"), "one_sel_b": fmt(one.b.selection_rate, "pct"),
            "one_ppv_a": fmt(one.a.ppv, "pct"), "one_ppv_b": fmt(one.b.ppv, "pct"),
            "better": fmt(S.better_d_prime, "num"), "better_ratio": fmt(better.fpr_ratio, "x"),
            "equal": fmt(S.base_equal, "pct"), "base_a": fmt(S.base_a, "pct"), "base_b": fmt(S.base_b, "pct"), "eq_fpr": fmt(equal.a.fpr, "pct"), "eq_ppv": fmt(equal.a.ppv, "pct")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Flag rates, false-positive rates and precision (PPV): what would let all three be equal across "
           "the two groups at once, with a classifier that still makes mistakes?",
    options=(
        Claim("A", "Calibrating the scores within each group.",
              "Calibration gives equal precision at equal scores, which is one of the three criteria. The "
              "identity FPR = p/(1 − p)·(1 − PPV)/PPV·TPR then forces the false-positive rates apart whenever "
              "p differs: one threshold keeps FPR equal but leaves PPV at {one_ppv_a} against {one_ppv_b}."),
        Claim("B", "Only equal base rates: with different p, the identity forbids it.",
              "Equal TPR and PPV force equal FPR only when p/(1 − p) is equal. At {equal} in both groups one "
              "threshold gives the same flag rate, FPR ({eq_fpr}) and PPV ({eq_ppv}) to both: the "
              "counterfactual context shows it. With {base_a} against {base_b}, someone must choose which to give up."),
        Claim("C", "Fixing the bug in the flagging pipeline.",
              "There is no bug: both groups' scores come from the same distributions. Demographic parity "
              "alone produces {fpr_a} against {fpr_b}, {ratio}."),
        Claim("D", "A more accurate classifier.",
              "Better separation shrinks every error but does not remove the conflict: at d′ = {better} "
              "demographic parity still gives group A {better_ratio} group B's false-positive rate. Only a "
              "perfect classifier escapes, and then demographic parity fails instead."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_fpr_ratio", "False-positive rate, A ÷ B", "1", "x"),
    MetricSpec("a1_fpr_a", "False-positive rate, group A", "1", "pct"),
    MetricSpec("a1_fpr_b", "False-positive rate, group B", "1", "pct"),
    MetricSpec("a1_ppv_a", "Precision (PPV), group A", "1", "pct"),
    MetricSpec("a1_ppv_b", "Precision (PPV), group B", "1", "pct"),
    MetricSpec("a1_sel_a", "Flag rate, group A", "1", "pct"),
    MetricSpec("a1_sel_b", "Flag rate, group B", "1", "pct"),
    MetricSpec("a2_us_impact", "US impact ratio (four-fifths screen)", "1", "num"),
    MetricSpec("a2_eu_gap", "EU false-positive gap |ΔFPR|", "1", "pp"),
    MetricSpec("a2_rejected", "Qualified candidates rejected per day", "1/day", "int"),
    MetricSpec("a2_us_gap", "US false-positive gap |ΔFPR|", "1", "pp"),
    MetricSpec("a2_eu_impact", "EU impact ratio", "1", "num"),
    MetricSpec("a2_us_t_a", "Group A's threshold, US", "1", "num"),
)}

FAILURES = (
    FailureSpec("a2_us_adverse_impact", "US check failed: impact ratio below four-fifths", act=2),
    FailureSpec("a2_eu_error_gap", "EU check failed: the error gap is over the documented tolerance", act=2),
    FailureSpec("a2_harm", "Over the harm budget: too many qualified candidates rejected", act=2, severity="warn"),
)
FAIL = {f.name: f for f in FAILURES}


def held(x: float, y: float) -> bool:
    """Two rates the page would show as the same (equal to a tenth of a percentage point)."""
    return abs(x - y) < 1 / (S.pp_per_unit * 10)


def act1_instruments(s: State) -> list:
    g = act1_state(s)
    ratio_tone = "good" if held(g.a.fpr, g.b.fpr) else "danger"
    return [metric_grid(
        M["a1_fpr_ratio"].show(g.fpr_ratio, ratio_tone),
        M["a1_fpr_a"].show(g.a.fpr), M["a1_fpr_b"].show(g.b.fpr),
        M["a1_ppv_a"].show(g.a.ppv, "good" if held(g.a.ppv, g.b.ppv) else None),
        M["a1_ppv_b"].show(g.b.ppv),
        M["a1_sel_a"].show(g.a.selection_rate, "good" if held(g.a.selection_rate, g.b.selection_rate) else None),
        M["a1_sel_b"].show(g.b.selection_rate),
    ), act1_chart(s, g)]


def act1_chart(s: State, g: Pair):
    names = ["Flag rate", "FPR", "FNR", "PPV"]
    value = {"A": [g.a.selection_rate, g.a.fpr, g.a.fnr, g.a.ppv], "B": [g.b.selection_rate, g.b.fpr, g.b.fnr, g.b.ppv]}
    traces = [ch.bars(f"Group {k} ({fmt(s[f'a1_base_{k.lower()}'], 'pct')} base rate)", names,
                      [v * S.pp_per_unit for v in value[k]], colour, text=[fmt(v, "pct") for v in value[k]])
              for k, colour in (("A", "series1"), ("B", "series2"))]
    figure = ch.figure(traces, x=ch.axis("", "category"), y=ch.axis("Percent of the group", range=[0, S.pp_per_unit * 1.05]))
    equal = [n.replace("Flag", "flag") for n, x, y in zip(names, value["A"], value["B"]) if held(x, y)]
    summary = (f"Under {CRITERIA[s['a1_criterion']].lower()}, " +
               (f"{', '.join(equal)} {'match' if len(equal) > 1 else 'matches'} across the groups" if equal
                else "nothing matches across the groups") +
               f"; group A's false-positive rate is {fmt(g.fpr_ratio, 'x')} group B's.")
    rows = [(n, fmt(x, "pct"), fmt(y, "pct")) for n, x, y in zip(names, value["A"], value["B"])]
    return chart("a1_groups", "The two groups under your criterion", figure, summary,
                 table=(("Measure", "Group A", "Group B"), rows))


def act1_math(s: State):
    g = act1_state(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"\mathrm{FPR} = 1 - \Phi(t),\qquad \mathrm{TPR} = 1 - \Phi(t - d')",
                 "Scores: innocent posts N(0, 1), violating posts N(d′, 1) in both groups; flag above *t*."),
        Equation(r"s = p\,\mathrm{TPR} + (1-p)\,\mathrm{FPR},\qquad \mathrm{PPV} = \frac{p\,\mathrm{TPR}}{s}",
                 "Flag rate and precision of a group with base rate *p*."),
        Equation(r"\mathrm{FPR} = \frac{p}{1-p}\cdot\frac{1-\mathrm{PPV}}{\mathrm{PPV}}\cdot\mathrm{TPR}",
                 "The identity: equal PPV and TPR with unequal *p* force unequal FPR."),
    ), rows=(
        ("Thresholds *t*, A / B", f"{fmt(g.t_a, 'num')} / {fmt(g.t_b, 'num')}"),
        ("TPR, A / B", f"{fmt(g.a.tpr, 'pct')} / {fmt(g.b.tpr, 'pct')}"),
        ("FPR from the identity, A / B", f"{fmt(F.fpr_from_identity(g.a.base_rate, g.a.ppv, g.a.tpr), 'pct')} / "
                                         f"{fmt(F.fpr_from_identity(g.b.base_rate, g.b.ppv, g.b.tpr), 'pct')}"),
    ), sources=(
        cite("chouldechova2017", "the PPV–FPR–FNR identity and the impossibility with unequal prevalence"),
        cite("kleinberg2016", "calibration and balance for both classes cannot coexist with unequal base rates"),
        cite("hardt2016", "equalized odds: equal TPR and FPR across groups"),
        f"The binormal scores with d′ = {fmt(S.d_prime, 'num')} are a scenario assumption.",
    ))


ACT1 = Act(
    number=1, title="One Flag Rate, Two Error Rates", minutes="12–15 min",
    stakeholder_role="Trust & Safety Lead",
    stakeholder=lambda: (
        f"We did the fair thing: our moderation model flags exactly {fmt(S.flag_rate, 'pct')} of posts from "
        "both communities. Now activists publish data saying group A's innocent posts are wrongly flagged far "
        "more often than group B's. Engineering swears the model scores both groups the same way. Is their "
        "data wrong, or is our model broken?"),
    scenario=lambda: (
        "**Demographic parity** asks for equal flag rates. **Equalized odds** asks for equal error rates "
        "(FPR and TPR). **Predictive parity** asks that a flag be equally often right (PPV) in each group.",
        "The model is imperfect but identical across groups: the same score distributions, only the groups' "
        "base rates differ. To flag the same share of each group, each group needs its own threshold.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_CRITERION, A1_FLAG, A1_BASE_A, A1_BASE_B),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Confusion-matrix explorer",
)

# ---- Act II · Two jurisdictions, one score -------------------------------------------


def rule_choice(name: str, label: str) -> Choice:
    return Choice(name, label, tuple(Option(k, v) for k, v in RULES.items()), default="single", widget="select",
                  help="Group B keeps the threshold below; the rule sets group A's threshold.")


A2_US_RULE = rule_choice("a2_us_rule", "Thresholds in the US")
A2_EU_RULE = rule_choice("a2_eu_rule", "Thresholds in the EU")
A2_THRESHOLD = Slider("a2_threshold", "Group B's score threshold, t", unit="1", min=1.0, max=3.0, step=0.05,
                      default=S.threshold, fmt="num", help="Higher t: fewer candidates pass the screen.")
A2_TOLERANCE = Slider("a2_tolerance", "EU tolerance on |ΔFPR| (the team's choice)", unit="1", min=0.005, max=0.06,
                      step=0.005, default=S.eu_tolerance, fmt="pp",
                      help="The AI Act prescribes no metric; this is the tolerance the team documents.")
A2_EVALS = Slider("a2_evals", "Screens per day", unit="1/day", min=1e6, max=2e7, step=5e5,
                  default=S.evaluations_per_day, fmt="int")


def deployment(s: State) -> Deployment:
    return Deployment(s["a2_us_rule"], s["a2_eu_rule"], s["a2_threshold"], s["a2_tolerance"], s["a2_evals"])


def act2_facts() -> dict[str, str]:
    d = DESIGNS
    return {"t": fmt(S.threshold, "num"), "tol": fmt(S.eu_tolerance, "pp"), "limit": fmt(C.UGESP_FOUR_FIFTHS, "num"),
            "ir_single": fmt(d["A"].us.impact, "num"), "ir_fix": fmt(d["B"].us.impact, "num"),
            "gap_fix": fmt(d["B"].us.fpr_gap, "pp"), "ta_fix": fmt(d["B"].us.t_a, "num"),
            "gap_dp": fmt(d["C"].eu.fpr_gap, "pp"), "ir_ppv": fmt(d["D"].us.impact, "num"),
            "gap_ppv": fmt(d["D"].eu.fpr_gap, "pp"), "harm_b": fmt(d["B"].rejected_per_day, "int"),
            "fine_hr": fmt(C.EU_AI_ACT_FINE_HIGH_RISK_EUR / S.eur_per_million, "num"),
            "fine_hr_pct": fmt(C.EU_AI_ACT_FINE_HIGH_RISK_TURNOVER, "pct"),
            "fine_pp": fmt(C.EU_AI_ACT_FINE_PROHIBITED_EUR / S.eur_per_million, "num"),
            "fine_pp_pct": fmt(C.EU_AI_ACT_FINE_PROHIBITED_TURNOVER, "pct"), "one": fmt(1.0, "num"),
            "upstream_pct": fmt(S.upstream_fine_turnover, "pct")}


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"Group B's threshold is t = {fmt(S.threshold, 'num')}. The US check: every group's selection rate "
           f"at least {fmt(C.UGESP_FOUR_FIFTHS, 'num')} of the highest group's. The EU check: the documented "
           f"false-positive gap at most {fmt(S.eu_tolerance, 'pp')}. Which deployment passes both?",
    quantity="the deployment that passes the US and the EU checks",
    options=(
        Claim("A", "One threshold for everyone, in every market (equal error rates).",
              "Equal FPR and TPR pass the EU check, but group A is selected far less often: impact ratio "
              "{ir_single}, below {limit}."),
        Claim("B", "Calibrated scores with thresholds per jurisdiction: in the US, group A's threshold is lowered "
                   "just enough for four-fifths; in the EU, one threshold.",
              "US: group A's threshold drops to {ta_fix}, impact ratio {ir_fix}, but the FPR gap widens to "
              "{gap_fix}. EU: one threshold, no gap. Each market's rule is met by its own thresholds on the "
              "same scores."),
        Claim("C", "Demographic parity in every market: equal selection rates.",
              "Impact ratio {one} passes the US screen, but equal selection on unequal base rates opens an FPR gap "
              "of {gap_dp}, over the EU tolerance of {tol}."),
        Claim("D", "Predictive parity in every market: equal precision (PPV).",
              "Equal PPV needs a higher threshold for group A: impact ratio {ir_ppv} fails the US screen and "
              "the FPR gap of {gap_ppv} fails the EU tolerance."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="Legal's first memo said: \"the EU mandates calibration and the US EEOC requires equalized odds.\" "
           "What do the two rules actually ask?",
    options=(
        Claim("A", "Just that: the EU requires calibrated scores and the US requires equal error rates.",
              "Neither is true. The four-fifths rule compares selection rates, and the AI Act names no metric; "
              "a design built on the memo fails the US screen (impact ratio {ir_single} with one threshold)."),
        Claim("B", "The US four-fifths rule compares selection rates and flags a ratio below four-fifths as "
                   "evidence of adverse impact; the EU AI Act requires a documented examination of possible "
                   "biases and their mitigation, and prescribes no fairness metric.",
              "29 CFR 1607.4(D) is a selection-rate screen, evidence rather than proof. AI Act Art. 10 asks "
              "high-risk systems for data governance and bias examination; the {tol} error-gap tolerance is the "
              "team's documented choice. Art. 99 caps fines for such obligations at €{fine_hr} M or {fine_hr_pct} "
              "of turnover (€{fine_pp} M or {fine_pp_pct} for prohibited practices)."),
        Claim("C", "The US rule is equalized odds written as a ratio: each group's TPR and FPR within "
                   f"{fmt(C.UGESP_FOUR_FIFTHS, 'pct')} of the other's.",
              "The rule compares selection rates only. One threshold equalises TPR and FPR exactly and still "
              "fails it, with an impact ratio of {ir_single}."),
        Claim("D", f"The EU AI Act fines {fmt(S.upstream_fine_turnover, 'pct')} of turnover for any model that "
                   "fails a fairness metric.",
              "There is no such metric, and {upstream_pct} is not in the Act: Art. 99 sets €{fine_hr} M or {fine_hr_pct} for "
              "breaches of high-risk obligations and €{fine_pp} M or {fine_pp_pct} for prohibited practices."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    d = deployment(s)
    us, eu, harm = d.us, d.eu, d.rejected_per_day
    parts = [metric_grid(
        M["a2_us_impact"].show(us.impact, "good" if d.us_ok else "danger", f"screen ≥ {fmt(C.UGESP_FOUR_FIFTHS, 'num')}"),
        M["a2_eu_gap"].show(eu.fpr_gap, "good" if d.eu_ok else "danger", f"tolerance {fmt(d.tolerance, 'pp')}"),
        M["a2_rejected"].show(harm, "warn" if harm > S.harm_budget else None, f"budget {fmt(S.harm_budget, 'int')}"),
        M["a2_us_gap"].show(us.fpr_gap, note="no US rule on error rates"),
        M["a2_eu_impact"].show(eu.impact, note="no EU rule on selection rates"),
        M["a2_us_t_a"].show(us.t_a, note=f"group B: {fmt(d.t_b, 'num')}"),
    )]
    parts += act2_failures(d, harm)
    parts.append(act2_chart(d))
    return parts


def act2_failures(d: Deployment, harm: float) -> list:
    parts = []
    if not d.us_ok:
        parts.append(failure(FAIL["a2_us_adverse_impact"], f"Under the US thresholds group A is selected at "
                             f"{fmt(d.us.a.selection_rate, 'pct')}, group B at {fmt(d.us.b.selection_rate, 'pct')}: "
                             f"impact ratio {fmt(d.us.impact, 'num')}. Lower group A's threshold (the four-fifths "
                             "fix) or equalise selection rates."))
    if not d.eu_ok:
        parts.append(failure(FAIL["a2_eu_error_gap"], f"The EU thresholds give false-positive rates of "
                             f"{fmt(d.eu.a.fpr, 'pct')} and {fmt(d.eu.b.fpr, 'pct')}, a gap of {fmt(d.eu.fpr_gap, 'pp')} "
                             f"over the documented {fmt(d.tolerance, 'pp')}. Move the EU thresholds toward one threshold."))
    if harm > S.harm_budget:
        parts.append(failure(FAIL["a2_harm"], f"{fmt(harm, 'int')} qualified candidates a day are screened out, over "
                             f"the budget of {fmt(S.harm_budget, 'int')}. Lower the threshold t: a small FNR times "
                             f"{fmt(d.evaluations, 'int')} screens is a crowd."))
    return parts


def act2_chart(d: Deployment):
    """Impact ratio against the FPR gap as group A's threshold sweeps: no point meets both checks."""
    steps, low, high = 40, d.t_b - S.sweep_below, d.t_b + S.sweep_above
    rules = {rule: a2_pair(rule, d.t_b) for rule in RULES}
    grid = sorted({low + (high - low) * i / steps for i in range(steps + 1)} | {g.t_a for g in rules.values()})
    curve = [pair(S.base_a, S.base_b, t, d.t_b) for t in grid]
    traces = [ch.line("A's threshold swept", [(g.a.fpr - g.b.fpr) * S.pp_per_unit for g in curve],
                      [g.impact for g in curve], "muted")]
    colours = dict(zip(RULES, ("series1", "series2", "series3", "series4")))
    traces += [ch.point(RULES[r].split(" (")[0], (g.a.fpr - g.b.fpr) * S.pp_per_unit, g.impact, colours[r])
               for r, g in rules.items()]
    us_line, us_note = ch.hline(C.UGESP_FOUR_FIFTHS, "danger", "US screen")
    tol = d.tolerance * S.pp_per_unit
    eu_line, eu_note = ch.vline(tol, "warn", "EU ±tolerance")
    eu_note.update(y=0, xanchor="left")  # inside the plot, clear of the legend on a phone
    eu_low, _ = ch.vline(-tol, "warn")
    figure = ch.figure(traces, x=ch.axis("FPR of A − FPR of B (pp)"), y=ch.axis("Impact ratio", range=[0, 1.05]),
                       shapes=[us_line, eu_line, eu_low], annotations=[us_note, eu_note], height=int(S.chart_height_px))
    summary = (f"With group B at t = {fmt(d.t_b, 'num')}, moving group A's threshold trades the impact ratio "
               f"against the false-positive gap; the US screen needs a ratio ≥ {fmt(C.UGESP_FOUR_FIFTHS, 'num')}, "
               f"the EU tolerance a gap within ±{fmt(d.tolerance, 'pp')}.")
    rows = [(RULES[r], fmt(g.t_a, "num"), fmt(g.impact, "num"), fmt(g.fpr_gap, "pp")) for r, g in rules.items()]
    return chart("a2_tradeoff", "Selection parity against error parity", figure, summary,
                 table=(("Rule", "Group A's threshold", "Impact ratio", "|ΔFPR|"), rows))


def act2_math(s: State):
    d = deployment(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\text{impact ratio} = \frac{\min_g s_g}{\max_g s_g} \ge \tfrac{4}{5}",
                 "The US screen (29 CFR 1607.4(D)): selection rates only; a lower ratio is evidence of adverse impact."),
        Equation(r"|\mathrm{FPR}_A - \mathrm{FPR}_B| \le \tau",
                 "The EU check the team documents; the AI Act asks for the examination, not this metric."),
        Equation(r"\text{rejected per day} = \sum N_{j,g}\, p_g\, \mathrm{FNR}_{j,g}",
                 "Qualified candidates screened out, summed over jurisdictions *j* and groups *g*; half the "
                 "screens in each jurisdiction and half from each group [assumed]."),
    ), rows=(
        ("US thresholds, A / B", f"{fmt(d.us.t_a, 'num')} / {fmt(d.t_b, 'num')}"),
        ("EU thresholds, A / B", f"{fmt(d.eu.t_a, 'num')} / {fmt(d.t_b, 'num')}"),
        ("US selection rates, A / B", f"{fmt(d.us.a.selection_rate, 'pct')} / {fmt(d.us.b.selection_rate, 'pct')}"),
        ("FNR in the EU, A / B", f"{fmt(d.eu.a.fnr, 'pct')} / {fmt(d.eu.b.fnr, 'pct')}"),
    ), sources=(
        cite("ugesp1978", "the four-fifths rule on selection rates"),
        cite("eu_ai_act", "Art. 10 bias examination and mitigation; Art. 99 fine ceilings"),
        cite("hardt2016", "equalized odds and group-specific thresholds"),
    ))


ACT2 = Act(
    number=2, title="Two Jurisdictions, One Score", minutes="15–20 min",
    stakeholder_role="Head of Responsible AI, hiring platform",
    stakeholder=lambda: (
        f"We screen {fmt(S.evaluations_per_day, 'int')} job applications a day in {fmt(S.countries, 'int')} "
        "countries with one "
        "calibrated score. Legal wants a single fairness setting for every market that survives a US audit "
        "and an EU conformity review. Which deployment do we ship?"),
    scenario=lambda: (
        f"Qualified applicants are {fmt(S.base_a, 'pct')} of group A and {fmt(S.base_b, 'pct')} of group B; the "
        "score separates them as in Act I. Compliance turned each market's rules into one check: in the US the "
        "**impact ratio** (lowest group's selection rate ÷ highest), in the EU the **false-positive gap** "
        "the team documents in its bias examination.",
        "A threshold rule keeps group B's threshold and sets group A's: one threshold, the minimal "
        "four-fifths fix, equal selection rates, or equal precision.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_US_RULE, A2_EU_RULE, A2_THRESHOLD, A2_TOLERANCE, A2_EVALS),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Threshold planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    d = deployment(s)
    active = {"a2_us_adverse_impact": not d.us_ok, "a2_eu_error_gap": not d.eu_ok,
              "a2_harm": d.rejected_per_day > S.harm_budget}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool]:
    g, d = act1_state(s), deployment(s)
    return {"base_rate_a": s["a1_base_a"], "base_rate_b": s["a1_base_b"], "criterion": s["a1_criterion"],
            "threshold_a": g.t_a, "threshold_b": g.t_b, "fpr_a": g.a.fpr, "fpr_b": g.b.fpr,
            "tpr_a": g.a.tpr, "tpr_b": g.b.tpr, "ppv_a": g.a.ppv, "ppv_b": g.b.ppv,
            "us_rule": d.us_rule, "eu_rule": d.eu_rule, "impact_ratio": d.us.impact, "eu_fpr_gap": d.eu.fpr_gap,
            "us_ok": d.us_ok, "eu_ok": d.eu_ok, "qualified_rejected_per_day": d.rejected_per_day}


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"Equal flag rates are not equal error rates: at {f['flag']} for both groups, group A's false-positive "
        f"rate is {f['fpr_a']} against {f['fpr_b']}, {f['ratio']}, with an identical, unbiased classifier.",
        "FPR = p/(1 − p)·(1 − PPV)/PPV·TPR: with different base rates, equal selection, equal error rates and "
        f"equal precision cannot all hold; one threshold keeps error rates equal but precision is {f['one_ppv_a']} "
        f"against {f['one_ppv_b']}.",
        f"The US four-fifths rule screens selection rates; one threshold gives an impact ratio of {g['ir_single']}. "
        f"The minimal fix passes it and widens the false-positive gap to {g['gap_fix']}.",
        "The EU AI Act asks for a documented bias examination and mitigation, not a metric: the tolerance is "
        "the team's choice, and per-jurisdiction thresholds on one calibrated score meet both markets' rules.",
        f"At scale a small error rate is a crowd: the shipped design screens out {g['harm_b']} qualified "
        "candidates a day.",
    ]


LAB = Lab(
    id="v2_16", volume=2, number=16, title="The Fairness Impossibility",
    invariant="With **different base rates**, equal selection rates, equal error rates and equal precision "
              "**cannot all hold**; which to keep is a policy choice, and laws differ in what they ask.",
    minutes="30–35 min", chapter="Responsible AI", url="vol2/16-fairness-impossibility/",
    reading=(
        "**Fairness criteria**: demographic parity, equalized odds, predictive parity and calibration.",
        "**The impossibility results** of Chouldechova (2017) and Kleinberg et al. (2016).",
        "**Fairness in deployment**: thresholds, audits, and what regulators actually require.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-17 Constraints Never Lie**: fairness as one of the constraints a production design must meet.",
        "**V2-13 The Privacy Measurement Gap**: another guarantee that is a policy choice stated as a number.",
    ),
    presets={"context": {"measured": {"a1_base_a": S.base_a, "a1_base_b": S.base_b},
                         "equal": {"a1_base_a": S.base_equal, "a1_base_b": S.base_equal}}},
)
