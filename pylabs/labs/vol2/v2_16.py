"""Lab V2-16 · The Fairness Impossibility.

Core invariant: in each group FPR = p/(1 − p) · (1 − PPV)/PPV · TPR, so with unequal base rates p
and an imperfect classifier, equal selection rates, equal error rates and equal precision (PPV)
cannot all hold (Chouldechova 2017; Kleinberg et al. 2016). Which to give up is a policy choice,
made within the law.

Act I (moderation): identical binormal scores (d′ = 2.4), base rates 2 % and 10 %. Demographic
parity at 6 % gives group B's innocent posts 0.202× group A's false-positive rate (0.92 % against
4.57 %: the spec's 4.96×, asked the other way round). The context switches to equal base rates,
where the same flag rate needs the same cut-off and the ratio is 1.

Act II (hiring, 5 M screens a day, half in the US, half in the EU [assumed]). Where this departs
from the spec, and why: the spec's key, "calibrated scores + jurisdiction
thresholds" (group A's US cut-off lowered from 1.8 to 1.48 to pass the four-fifths rule), is
unlawful for US employment tests: 42 U.S.C. §2000e–2(l) (Title VII §703(l), Civil Rights Act of
1991 §106) makes it unlawful "to adjust the scores of, use different cutoff scores for, or
otherwise alter the results of, employment related tests on the basis of race, color, religion,
sex, or national origin". And the four-fifths rule is no target: a ratio below it "will generally
be regarded by the Federal enforcement agencies as evidence of adverse impact" (29 CFR 1607.4(D)),
and a procedure with adverse impact must be validated (1607.3(A)) or replaced by an alternative
with less adverse impact (1607.3(B)). The score is not calibrated within groups either (
S3): above t = 1.8 a flag is right 29 % of the time in group A and 69 % in group B. So the
launch checks say which is law (one cut-off on the same score for every group) and which is the
company's policy (an impact ratio of at least four-fifths while its validation study runs, a
documented EU error-gap tolerance, a harm budget); the lawful design that passes them is one
group-blind cut-off lowered to t = 0.75 (the highest that reaches four-fifths is 0.777), and its
price is shown: a quarter of all applicants advanced, few of them qualified. The page says it is
not legal advice.

Choices, and why: Act I's operating point is one flag rate (parity flags that share of each group;
the other criteria flag it in group B and derive group A's threshold). The spec's Act II option D
("no ML") has no physics to check; the options are four deployments a team would propose, no two the
same design with one lever moved further (the more extreme would be the only possible unique key). Harm is
qualified candidates rejected (N·p·FNR), half the screens from each group [assumed].

Ledger (handbook/labs/v2_16.md §1): results base_rate_a/b, criterion, threshold_a/b, fpr_a/b, tpr_a/b, ppv_a/b
(Act I), us_rule, eu_rule, cutoff, d_prime, us_threshold_a, impact_ratio, eu_fpr_gap, one_cutoff,
screen_ok, eu_ok, qualified_rejected_per_day, advanced_per_day (Act II); answers a1_predict
(act1_prediction, act1_correct), a2_predict (act2_decision); failures_active (constraint_hit).
"""

from __future__ import annotations

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_16_law import group_cutoff_law, law_and_policy
from pylabs.labs.vol2.v2_16_model import (CONTEXT_BASE_RATES, DESIGNS, S, Deployment, Pair, act1_pair, held,
                                          act1_scenario, act1_truth, act2_answer, blind_cutoff_for_four_fifths, blind_curve)
from pylabs.physics import constants as C
from pylabs.physics import fairness as F
from pylabs.physics import units as U
from pylabs.physics.references import cite

CRITERIA = {"dp": "Demographic parity", "single": "One threshold", "ppv": "Predictive parity"}
RULES = {"single": "One cut-off for everyone", "calibrated": "Calibrated within each group",
         "fourfifths": "Lower group A's to four-fifths", "dp": "Equal selection rates",
         "ppv": "Equal precision (PPV)"}

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Base rates in Act I", (
    Option("measured", f"As measured: group A {fmt(S.base_a, 'pct')}, group B {fmt(S.base_b, 'pct')}"),
    Option("equal", f"Counterfactual: both groups {fmt(S.base_equal, 'pct')}"),
), default="measured", help="Sets the base rates of Act I's question and instruments; Act II's applicants "
                           "are as its scenario states.")


def terms(context: str) -> dict[str, str]:
    base_a, base_b = CONTEXT_BASE_RATES[context]
    return {"base_a": fmt(base_a, "pct"), "base_b": fmt(base_b, "pct")}


# ---- Act I · One flag rate for two communities -------------------------------------

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
    prompt=f"Both groups' posts are flagged at exactly {fmt(S.flag_rate, 'pct')}. Of group A's posts {{base_a}} "
           "break the rules, of group B's {base_b}; the classifier's scores are distributed the same way in both "
           f"groups (separation d′ = {fmt(S.d_prime, 'num')}). How does group B's false-positive rate compare "
           "with group A's?",
    quantity="group B's false-positive rate ÷ group A's",
    unit_fmt="x",
    options=(
        Range("A", "{range}: group B's innocent posts are flagged far less often", None, 0.5, 0.25, "{lead_A} {why}"),
        Range("B", "{range}: group B's innocent posts are flagged somewhat less often", 0.5, 0.9, 0.7, "{lead_B} {why}"),
        Range("C", "{range}: about as often, since both groups are flagged alike", 0.9, 1.1, 1.0, "{lead_C} {why}"),
        Range("D", "{range}: more often, as more of group B's posts break the rules", 1.1, None, 1.5, "{lead_D} {why}"),
    ),
    truth=act1_truth,
    shown_by="a1_fpr_ratio",
)

# Why each belief holds or fails, in each context (the numbers follow in {why}).
ACT1_LEADS = {
    "measured": {
        "A": "Each group fills the same quota from its own pool: group B's many violating posts take most of its "
             "flags, so its cut-off sits higher and few innocent posts clear it.",
        "B": "Less often, and by more than a little: the cut-offs differ, and innocent scores thin out fast in "
             "the upper tail.",
        "C": "Equal flag rates are not equal error rates: group A has fewer violating posts to fill its quota, "
             "so more of its flags land on innocent posts.",
        "D": "The classifier scores innocent posts alike in both groups; group B's violating posts fill its "
             "quota and push its cut-off up, so its innocent posts fare better, not worse.",
    },
    "equal": {
        "A": "With equal base rates nothing differs between the groups: the same flag rate needs the same cut-off.",
        "B": "With equal base rates nothing differs between the groups: neither group's innocent posts fare better.",
        "C": "Equal base rates and the same scores: the same flag rate needs the same cut-off in both groups.",
        "D": "Only a higher base rate could move group B's cut-off, and here the base rates are equal.",
    },
}


def act1_facts(context: str) -> dict[str, str]:
    g, m = act1_scenario(context), act1_scenario("measured")
    one = act1_scenario("measured", "single")
    better = act1_scenario("measured", "dp", S.better_d_prime)
    cal = act1_scenario("measured", "calibrated")
    equal = act1_scenario("equal", "single")
    cutoffs = (f"both groups' cut-offs sit at t = {fmt(g.t_a, 'num')}" if g.one_cutoff else
               f"group B's cut-off sits at t = {fmt(g.t_b, 'num')}, group A's at {fmt(g.t_a, 'num')}")
    facts = {f"lead_{k}": v for k, v in ACT1_LEADS[context].items()}
    facts["why"] = (f"With {fmt(g.a.base_rate, 'pct')} and {fmt(g.b.base_rate, 'pct')} of posts breaking the "
                    f"rules, {cutoffs}: {fmt(g.b.fpr, 'pct')} of group B's innocent posts are flagged against "
                    f"{fmt(g.a.fpr, 'pct')} of group A's.")
    return {**facts, "m_base_a": fmt(S.base_a, "pct"), "m_base_b": fmt(S.base_b, "pct"),
            "m_fpr_a": fmt(m.a.fpr, "pct"), "m_fpr_b": fmt(m.b.fpr, "pct"),
            "one_ppv_a": fmt(one.a.ppv, "pct"), "one_ppv_b": fmt(one.b.ppv, "pct"),
            "better": fmt(S.better_d_prime, "num"), "better_ratio": fmt(1 / better.fpr_ratio, "x"),
            "flag": fmt(S.flag_rate, "pct"), "cal_t_a": fmt(cal.t_a, "num"), "cal_t_b": fmt(cal.t_b, "num"),
            "cal_sel_a": fmt(cal.a.selection_rate, "pct"), "cal_fpr_a": fmt(cal.a.fpr, "pct"),
            "cal_fpr_b": fmt(cal.b.fpr, "pct"), "cal_ppv_a": fmt(cal.a.ppv, "pct"), "cal_ppv_b": fmt(cal.b.ppv, "pct"),
            "d": fmt(S.d_prime, "num"),
            "equal": fmt(S.base_equal, "pct"), "eq_fpr": fmt(equal.a.fpr, "pct"), "eq_ppv": fmt(equal.a.ppv, "pct")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Flag rates, false-positive rates and precision (PPV): what would let all three match across the two "
           "groups at once, with a classifier that still makes mistakes?",
    options=(
        Claim("A", "Scores calibrated within each group, then one cut-off on that score.",
              "Calibration makes a score mean the same chance in both groups, which is none of the three. "
              "Flagging {flag} of group B (t = {cal_t_b}) and group A at the same calibrated chance moves group "
              "A's cut-off up to t = {cal_t_a}: flag rates {cal_sel_a} against {flag}, false-positive rates "
              "{cal_fpr_a} against {cal_fpr_b}, precision {cal_ppv_a} against {cal_ppv_b}, at {m_base_a} and {m_base_b}."),
        Claim("B", "Equal base rates in both groups: nothing about the model can do it.",
              "Equal TPR and PPV force equal FPR only when p/(1 − p) is equal. At {equal} in both groups one "
              "cut-off gives both the same flag rate, FPR ({eq_fpr}) and precision ({eq_ppv}), as the "
              "counterfactual context shows; at {m_base_a} against {m_base_b}, someone must choose which to give up."),
        Claim("C", "Fixing a pipeline bug that scores one group's posts more harshly.",
              "There is no bug: both groups' scores come from the same distributions, and demographic parity "
              "alone gives group A's innocent posts {m_fpr_a} and group B's {m_fpr_b} at {m_base_a} and {m_base_b}."),
        Claim("D", "A classifier sharp enough that its remaining mistakes stop mattering.",
              "Better separation shrinks every error but keeps the conflict: at d′ = {better}, demographic parity "
              "flags group A's innocent posts at {better_ratio} group B's rate, a wider gap than at d′ = {d}. Only a "
              "perfect classifier escapes, and then demographic parity fails instead."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_fpr_ratio", "False-positive rate, B ÷ A", "1", "x"),
    MetricSpec("a1_fpr_a", "False-positive rate, group A", "1", "pct"),
    MetricSpec("a1_fpr_b", "False-positive rate, group B", "1", "pct"),
    MetricSpec("a1_ppv_a", "Precision (PPV), group A", "1", "pct"),
    MetricSpec("a1_ppv_b", "Precision (PPV), group B", "1", "pct"),
    MetricSpec("a1_sel_a", "Flag rate, group A", "1", "pct"),
    MetricSpec("a1_sel_b", "Flag rate, group B", "1", "pct"),
    MetricSpec("a2_us_impact", "US impact ratio (four-fifths screen)", "1", "num"),
    MetricSpec("a2_us_t_a", "Group A's cut-off, US", "1", "num"),
    MetricSpec("a2_eu_gap", "EU false-positive gap |ΔFPR|", "1", "pp"),
    MetricSpec("a2_rejected", "Qualified candidates rejected per day", "1/day", "num"),
    MetricSpec("a2_advanced", "Applicants advanced per day", "1/day", "num"),
    MetricSpec("a2_ppv_a", "Qualified among group A's advanced (US)", "1", "pct"),
    MetricSpec("a2_ppv_b", "Qualified among group B's advanced (US)", "1", "pct"),
)}

FAILURES = (
    FailureSpec("a2_group_cutoffs", "Cut-offs that differ by group", act=2,
                reach={"a2_us_rule": "fourfifths"}, leave={"a2_us_rule": "single"}),
    FailureSpec("a2_us_adverse_impact", "Launch check failed: US impact ratio below four-fifths", act=2,
                reach={}, leave={"a2_threshold": 0.75}),
    FailureSpec("a2_eu_error_gap", "EU check failed: the error gap is over the documented tolerance", act=2,
                reach={"a2_eu_rule": "fourfifths"}, leave={"a2_eu_rule": "single"}),
    FailureSpec("a2_harm", "Over the harm budget: too many qualified candidates rejected", act=2, severity="warn",
                reach={"a2_threshold": 2.2}, leave={"a2_threshold": 1.8}),
)
FAIL = {f.name: f for f in FAILURES}


def out_of_reach(s: State, g: Pair) -> list:
    """Predictive parity where group B's precision is below group A's base rate, the floor of group A's
    precision (PPV → p as t → −∞; it can always rise, PPV → 1): the cards would read as if it held."""
    if s["a1_criterion"] != "ppv" or held(g.a.ppv, g.b.ppv):
        return []
    return [callout("warn", "Predictive parity is out of reach here",
                    f"At these base rates and this flag rate, group B's flags are right {fmt(g.b.ppv, 'pct')} of the "
                    f"time, but group A's precision never falls below its base rate ({fmt(g.a.base_rate, 'pct')}). "
                    f"Group A's cut-off goes as low as it can, flagging {fmt(g.a.selection_rate, 'pct')} of its "
                    "posts: the cards show that nearest point, not parity.")]


def act1_instruments(s: State) -> list:
    g = act1_state(s)
    ratio_tone = "good" if held(g.a.fpr, g.b.fpr) else "danger"
    return out_of_reach(s, g) + [metric_grid(
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
                      [v * U.PERCENT for v in value[k]], colour, text=[fmt(v, "pct") for v in value[k]])
              for k, colour in (("A", "series1"), ("B", "series2"))]
    figure = ch.figure(traces, x=ch.axis("", "category"), y=ch.axis("Percent of the group", range=[0, U.PERCENT * 1.05]))
    equal = [n.replace("Flag", "flag") for n, x, y in zip(names, value["A"], value["B"]) if held(x, y)]
    summary = (f"Under {CRITERIA[s['a1_criterion']].lower()}, " +
               (f"{', '.join(equal)} {'match' if len(equal) > 1 else 'matches'} across the groups" if equal
                else "nothing matches across the groups") +
               f"; group B's false-positive rate is {fmt(g.fpr_ratio, 'x')} group A's.")
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
    number=1, title="One Flag Rate for Two Communities", minutes="12–15 min",
    stakeholder_role="Trust & Safety Lead",
    stakeholder=lambda: (
        f"We did the fair thing: our moderation model flags exactly {fmt(S.flag_rate, 'pct')} of posts from "
        "both communities. Activists say it treats the two communities' innocent posts differently and will "
        "publish their data next week. Engineering swears the model scores both groups the same way. Who is "
        "right?"),
    scenario=lambda: (
        "**Demographic parity** asks for equal flag rates. **Equalized odds** asks for equal error rates "
        "(FPR and TPR). **Predictive parity** asks that a flag be equally often right (PPV) in each group.",
        "The model is imperfect but identical across groups: the same score distributions in both, only the "
        "share of posts that break the rules may differ.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_CRITERION, A1_FLAG, A1_BASE_A, A1_BASE_B),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Confusion-matrix explorer",
)

# ---- Act II · A screen for two markets ------------------------------------------------


def rule_choice(name: str, label: str) -> Choice:
    return Choice(name, label, tuple(Option(k, v) for k, v in RULES.items()), default="single", widget="select",
                  help="Group B keeps the cut-off t below; the rule sets group A's.")


A2_US_RULE = rule_choice("a2_us_rule", "Group A's cut-off in the US")
A2_EU_RULE = rule_choice("a2_eu_rule", "Group A's cut-off in the EU")
A2_THRESHOLD = Slider("a2_threshold", "Cut-off on the score, t", unit="1", min=0.0, max=3.0, step=0.05,
                      default=S.threshold, fmt="num", help="Higher t: fewer applicants pass the screen.")
A2_D_PRIME = Slider("a2_d_prime", "Model separation, d′", unit="1", min=1.5, max=4.0, step=0.1,
                    default=S.d_prime, fmt="num", help="A sharper model: qualified and unqualified scores further apart.")
A2_TOLERANCE = Slider("a2_tolerance", "EU tolerance on |ΔFPR| (the team's choice)", unit="1", min=0.005, max=0.06,
                      step=0.005, default=S.eu_tolerance, fmt="pp",
                      help="The AI Act prescribes no metric; this is the tolerance the team documents.")
A2_EVALS = Slider("a2_evals", "Screens per day", unit="1/day", min=1e6, max=2e7, step=5e5,
                  default=S.evaluations_per_day, fmt="int")


def deployment(s: State) -> Deployment:
    return Deployment(s["a2_us_rule"], s["a2_eu_rule"], s["a2_threshold"], s["a2_d_prime"], s["a2_tolerance"],
                      s["a2_evals"])


def act2_facts() -> dict[str, str]:
    d, today = DESIGNS, Deployment("single", "single")
    low = d["C"]
    return {"t": fmt(S.threshold, "num"), "t_low": fmt(S.low_threshold, "num"), "limit": fmt(C.UGESP_FOUR_FIFTHS, "num"),
            "tol": fmt(S.eu_tolerance, "pp"), "ir_today": fmt(today.us.impact, "num"),
            "ir_sharp": fmt(d["A"].us.impact, "num"), "ir_ff": fmt(d["B"].us.impact, "num"),
            "t_ff": fmt(d["B"].us.t_a, "num"), "gap_ff": fmt(d["B"].us.fpr_gap, "pp"),
            "pgap_today": fmt(today.us.precision_gap, "pp"), "pgap_low": fmt(low.us.precision_gap, "pp"),
            "pgap_sharp": fmt(d["A"].us.precision_gap, "pp"),
            "ir_low": fmt(low.us.impact, "num"), "harm_low": fmt(low.rejected_per_day, "num"),
            "adv_low": fmt(low.advanced_per_day, "num"), "adv_share_low": fmt(low.advanced_per_day / low.evaluations, "pct"),
            "adv_today": fmt(today.advanced_per_day, "num"),
            "ppv_low_a": fmt(low.us.a.ppv, "pct"), "ppv_low_b": fmt(low.us.b.ppv, "pct"),
            "ppv_today_a": fmt(today.us.a.ppv, "pct"), "ppv_today_b": fmt(today.us.b.ppv, "pct"),
            "t_cal": fmt(d["D"].us.t_a, "num"), "ir_cal": fmt(d["D"].us.impact, "num"), "gap_cal": fmt(d["D"].eu.fpr_gap, "pp"),
            "t_blind": fmt(blind_cutoff_for_four_fifths(), "num"), "zero_gap": fmt(0.0, "pp"),
            "base_a": fmt(S.base_a, "pct"), "base_b": fmt(S.base_b, "pct"), "base_ratio": fmt(S.base_a / S.base_b, "num"),
            "lr_today": fmt(today.us.pass_ratio, "num"), "lr_low": fmt(low.us.pass_ratio, "num"),
            "lr_sharp": fmt(d["A"].us.pass_ratio, "num"), "sharp": fmt(S.better_d_prime, "num")}


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt="Which deployment passes all four launch checks?",
    quantity="the deployment that passes every launch check",
    options=(
        Claim("A", f"Keep the cut-off at t = {fmt(S.threshold, 'num')} and ship a sharper model, "
                   f"d′ = {fmt(S.better_d_prime, 'num')}.",
              "A sharper model catches more of both groups' qualified applicants, yet the impact ratio falls to "
              "{ir_sharp}, below today's {ir_today} and the launch policy's {limit}."),
        Claim("B", "In the US, lower only group A's cut-off, to reach four-fifths.",
              "The US ratio reaches {ir_ff} and the EU keeps one cut-off, but in the US group A now meets "
              "t = {t_ff} and group B t = {t}: different cutoff scores by group, which 42 U.S.C. §2000e–2(l) "
              "makes unlawful for an employment test. It also opens a US false-positive gap of {gap_ff}. One "
              "cut-off for everyone reaches {limit} at t = {t_blind} or lower."),
        Claim("C", f"Lower the cut-off from t = {fmt(S.threshold, 'num')} to {fmt(S.low_threshold, 'num')}, "
                   "for both groups alike.",
              "It passes every check: the same cut-off for both groups, an impact ratio of {ir_low}, no "
              "false-positive gap, {harm_low} qualified candidates rejected a day. The price: {adv_low} "
              "applicants advanced a day ({adv_share_low} of all screened; {adv_today} today), and only "
              "{ppv_low_a} of group A's and {ppv_low_b} of group B's are qualified."),
        Claim("D", "Calibrate the score within each group; one probability cut-off.",
              "Calibrating within each group moves group A's cut-off up to t = {t_cal}: an impact ratio of "
              "{ir_cal} and a false-positive gap of {gap_cal}, over the EU tolerance of {tol}. It also adjusts "
              "scores by group, which the US statute forbids. The raw score is not calibrated within groups: "
              "above t = {t}, {ppv_today_a} of group A's and {ppv_today_b} of group B's passes are qualified."),
    ),
    decide=act2_answer,
)

ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="With one cut-off for everyone, the impact ratio rose as the cut-off fell and fell as the model got "
           "sharper. What sets it?",
    options=(
        Claim("A", "How much lower the model scores group A's applicants than group B's.",
              "Qualified applicants' scores follow the same distribution in both groups, and so do the "
              "unqualified's; group A only has fewer qualified applicants ({base_a} against {base_b})."),
        Claim("B", "The false-positive gap between the groups, which grows as t falls.",
              "With one cut-off both groups' false-positive rates are equal at every t: the gap stays at "
              "{zero_gap} from t = {t} down to t = {t_low}."),
        Claim("C", "The precision gap between the groups: the ratio rises as it narrows.",
              "The precision gap narrowed both times, from {pgap_today} at t = {t} to {pgap_low} at t = {t_low}, "
              "and to {pgap_sharp} with the sharper model, yet the ratio rose the first time ({ir_today} to "
              "{ir_low}) and fell the second ({ir_sharp})."),
        Claim("D", "How often unqualified applicants pass, relative to qualified ones.",
              "A group selects p·TPR + (1 − p)·FPR, with the same TPR and FPR in both groups, so the ratio "
              "depends only on FPR/TPR: near 0 it follows the qualified shares ({base_ratio}), near 1 it tends to "
              "1. Lowering t raised FPR/TPR from {lr_today} to {lr_low}; the sharper model lowered it to {lr_sharp}."),
    ),
    answer_letter="D",
)


def act2_instruments(s: State) -> list:
    d = deployment(s)
    us, eu, harm = d.us, d.eu, d.rejected_per_day
    parts = [metric_grid(
        M["a2_us_impact"].show(us.impact, "good" if d.screen_ok else "danger",
                               f"launch policy ≥ {fmt(C.UGESP_FOUR_FIFTHS, 'num')}"),
        M["a2_us_t_a"].show(us.t_a, "good" if d.one_cutoff else "danger", f"group B: {fmt(d.t_b, 'num')}"),
        M["a2_eu_gap"].show(eu.fpr_gap, "good" if d.eu_ok else "danger", f"tolerance {fmt(d.tolerance, 'pp')}"),
        M["a2_rejected"].show(harm, "warn" if harm > S.harm_budget else None, f"budget {fmt(S.harm_budget, 'int')}"),
        M["a2_advanced"].show(d.advanced_per_day, note=f"{fmt(d.advanced_per_day / d.evaluations, 'pct')} of screens"),
        M["a2_ppv_a"].show(us.a.ppv), M["a2_ppv_b"].show(us.b.ppv),
    )]
    parts += act2_failures(d, harm)
    parts += [act2_chart(d), law_and_policy()]
    return parts


def act2_failures(d: Deployment, harm: float) -> list:
    parts = []
    differ = [(market, p) for market, p in (("US", d.us), ("EU", d.eu)) if not p.one_cutoff]
    if differ:
        said = "; ".join(f"{market}: group A {fmt(p.t_a, 'num')}, group B {fmt(p.t_b, 'num')}" for market, p in differ)
        parts.append(failure(FAIL["a2_group_cutoffs"], f"The same score meets different cut-offs by group ({said}).",
                             *group_cutoff_law({m for m, _ in differ})))
    if not d.screen_ok:
        parts.append(failure(FAIL["a2_us_adverse_impact"], f"In the US group A is selected at "
                             f"{fmt(d.us.a.selection_rate, 'pct')}, group B at {fmt(d.us.b.selection_rate, 'pct')}: "
                             f"impact ratio {fmt(d.us.impact, 'num')}. Below four-fifths the federal agencies generally "
                             "see evidence of adverse impact (29 CFR 1607.4(D)), and the company's policy is to launch "
                             "only above it until the screen is validated. Levers that hold every group to the same "
                             "cut-off: validate the test's job relatedness, or lower the one cut-off for everyone."))
    if not d.eu_ok:
        parts.append(failure(FAIL["a2_eu_error_gap"], f"The EU cut-offs give false-positive rates of "
                             f"{fmt(d.eu.a.fpr, 'pct')} and {fmt(d.eu.b.fpr, 'pct')}, a gap of {fmt(d.eu.fpr_gap, 'pp')} "
                             f"over the documented {fmt(d.tolerance, 'pp')}. The same cut-off for both groups closes it."))
    if harm > S.harm_budget:
        parts.append(failure(FAIL["a2_harm"], f"{fmt(harm, 'num')} qualified candidates a day are screened out, over "
                             f"the budget of {fmt(S.harm_budget, 'int')}. Lower the cut-off t: a small miss rate times "
                             f"{fmt(d.evaluations, 'int')} screens is a crowd."))
    return parts


def act2_chart(d: Deployment):
    """The impact ratio of one cut-off for everyone as t sweeps, for the chosen model and today's."""
    models = dict.fromkeys((d.d_prime, S.d_prime))
    traces = [ch.line(f"One cut-off, d′ = {fmt(k, 'num')}", [t for t, _, _ in blind_curve(k)],
                      [r for _, r, _ in blind_curve(k)], colour) for k, colour in zip(models, ("series1", "series3"))]
    traces.append(ch.point("Your US deployment", d.t_b, d.us.impact, "accent"))
    us_line, us_note = ch.hline(C.UGESP_FOUR_FIFTHS, "danger", "four-fifths")
    figure = ch.figure(traces, x=ch.axis("Cut-off t (group B's)"),
                       y=ch.axis("US impact ratio", range=[0, 1.05]), shapes=[us_line], annotations=[us_note],
                       height=int(S.chart_height_px))
    summary = (f"With one cut-off for everyone and d′ = {fmt(d.d_prime, 'num')}, the impact ratio reaches "
               f"four-fifths at t = {fmt(blind_cutoff_for_four_fifths(d.d_prime), 'num')} or lower; your US "
               f"deployment is at {fmt(d.us.impact, 'num')}.")
    rows = [(fmt(t, "num"), fmt(r, "num"), fmt(f, "pct")) for t, r, f in blind_curve(d.d_prime)[::6]]
    return chart("a2_tradeoff", "The impact ratio of one cut-off", figure, summary,
                 table=(("Cut-off t", "Impact ratio", "FPR, both groups"), rows))


def act2_math(s: State):
    d = deployment(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\text{impact ratio} = \frac{\min_g s_g}{\max_g s_g},\qquad s_g = p_g\,\mathrm{TPR} + (1-p_g)\,\mathrm{FPR}",
                 "With one cut-off, TPR and FPR are the same in both groups."),
        Equation(r"\Pr(\text{qualified}\mid s, g) = \sigma\!\left(\operatorname{logit} p_g + d's - \tfrac{d'^2}{2}\right)",
                 "A score calibrated within group *g*: the same *s* means a different chance in each group."),
        Equation(r"\text{rejected per day} = \sum N_{j,g}\, p_g\, \mathrm{FNR}_{j,g}",
                 "Qualified candidates screened out, summed over markets *j* and groups *g*; half the "
                 "screens in each market and half from each group [assumed]."),
    ), rows=(
        ("US cut-offs, A / B", f"{fmt(d.us.t_a, 'num')} / {fmt(d.t_b, 'num')}"),
        ("EU cut-offs, A / B", f"{fmt(d.eu.t_a, 'num')} / {fmt(d.t_b, 'num')}"),
        ("US selection rates, A / B", f"{fmt(d.us.a.selection_rate, 'pct')} / {fmt(d.us.b.selection_rate, 'pct')}"),
        ("FPR ÷ TPR, group B (US)", fmt(d.us.b.fpr / d.us.b.tpr, "num")),
    ), sources=(
        cite("title_vii_2000e2l", "no different cutoff scores or adjusted scores by protected group"),
        cite("ugesp1978", "the four-fifths rule: evidence of adverse impact, not a legal definition"),
        cite("ugesp1978_3", "adverse impact calls for validation or an alternative with less of it"),
        cite("eu_ai_act", "Art. 10 bias examination and mitigation; Art. 99 fine ceilings"),
        cite("eu_race_directive", "direct discrimination (Art. 2) and positive action (Art. 5)"),
    ))


ACT2 = Act(
    number=2, title="A Screen for Two Markets", minutes="15–20 min",
    stakeholder_role="Head of Responsible AI, hiring platform",
    stakeholder=lambda: (
        f"We screen {fmt(S.evaluations_per_day, 'int')} job applications a day in the US and the EU with one "
        "model and one score. Legal's first memo on what the rules ask was wrong; its second lists the launch "
        "checks below. Which deployment do we ship?"),
    scenario=lambda: (
        "Groups A and B differ in a protected characteristic (race, color, religion, sex or national origin, in "
        f"US law). Qualified applicants are {fmt(S.base_a, 'pct')} "
        f"of group A and {fmt(S.base_b, 'pct')} of group B, the score separates them as in Act I "
        f"(d′ = {fmt(S.d_prime, 'num')}), and today everyone at t = {fmt(S.threshold, 'num')} or above goes on to "
        "interviews. Half the screens are in the US, half in the EU [assumed].",
        "Launch checks. **US law**: no different cut-offs or adjusted scores by group for an employment test "
        "(42 U.S.C. §2000e–2(l)). "
        "**Company policy**: a US impact ratio (lowest group's selection rate ÷ highest) of at least "
        f"{fmt(C.UGESP_FOUR_FIFTHS, 'num')}, the four-fifths level below which federal agencies generally see "
        f"evidence of adverse impact; an EU false-positive gap of at most {fmt(S.eu_tolerance, 'pp')}, as "
        f"documented in its AI Act bias examination; at most {fmt(S.harm_budget, 'int')} qualified candidates "
        "rejected a day. Not legal advice.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_US_RULE, A2_EU_RULE, A2_THRESHOLD, A2_D_PRIME, A2_TOLERANCE, A2_EVALS),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Threshold planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    d = deployment(s)
    active = {"a2_group_cutoffs": not (d.us.one_cutoff and d.eu.one_cutoff), "a2_us_adverse_impact": not d.screen_ok,
              "a2_eu_error_gap": not d.eu_ok, "a2_harm": not d.harm_ok}
    return frozenset(name for name, on in active.items() if on)


RECORD = tuple(MetricSpec(name, label, unit, f) for name, label, unit, f in (
    ("base_rate_a", "Act I · Group A base rate", "1", "pct"), ("base_rate_b", "Act I · Group B base rate", "1", "pct"),
    ("threshold_a", "Act I · Group A's threshold", "1", "num"), ("threshold_b", "Act I · Group B's threshold", "1", "num"),
    ("fpr_a", "Act I · False-positive rate, group A", "1", "pct"), ("fpr_b", "Act I · False-positive rate, group B", "1", "pct"),
    ("tpr_a", "Act I · True-positive rate, group A", "1", "pct"), ("tpr_b", "Act I · True-positive rate, group B", "1", "pct"),
    ("ppv_a", "Act I · Precision, group A", "1", "pct"), ("ppv_b", "Act I · Precision, group B", "1", "pct"),
    ("criterion", "Act I · Fairness criterion", "1", "num"), ("us_rule", "Act II · US rule for group A's cut-off", "1", "num"),
    ("eu_rule", "Act II · EU rule for group A's cut-off", "1", "num"), ("cutoff", "Act II · Cut-off t", "1", "num"),
    ("d_prime", "Act II · Model separation d′", "1", "num"), ("us_threshold_a", "Act II · Group A's cut-off, US", "1", "num"),
    ("impact_ratio", "Act II · US impact ratio", "1", "num"), ("eu_fpr_gap", "Act II · EU false-positive gap", "1", "pp"),
    ("one_cutoff", "Act II · One cut-off for every group (US law)", "1", "yesno"),
    ("screen_ok", "Act II · Impact ratio at least four-fifths (policy)", "1", "yesno"),
    ("eu_ok", "Act II · EU gap within tolerance (policy)", "1", "yesno"),
    ("qualified_rejected_per_day", "Act II · Qualified candidates rejected per day", "1/day", "num"),
    ("advanced_per_day", "Act II · Applicants advanced per day", "1/day", "num"),
))


def results(s: State) -> dict[str, float | str | bool]:
    g, d = act1_state(s), deployment(s)
    return {"base_rate_a": s["a1_base_a"], "base_rate_b": s["a1_base_b"], "criterion": CRITERIA[s["a1_criterion"]],
            "threshold_a": g.t_a, "threshold_b": g.t_b, "fpr_a": g.a.fpr, "fpr_b": g.b.fpr,
            "tpr_a": g.a.tpr, "tpr_b": g.b.tpr, "ppv_a": g.a.ppv, "ppv_b": g.b.ppv,
            "us_rule": RULES[d.us_rule], "eu_rule": RULES[d.eu_rule], "cutoff": d.t_b, "d_prime": d.d_prime,
            "us_threshold_a": d.us.t_a, "impact_ratio": d.us.impact, "eu_fpr_gap": d.eu.fpr_gap,
            "one_cutoff": float(d.one_cutoff), "screen_ok": float(d.screen_ok), "eu_ok": float(d.eu_ok),
            "qualified_rejected_per_day": d.rejected_per_day, "advanced_per_day": d.advanced_per_day}


def lab_takeaways() -> list[str]:
    f, g = act1_facts("measured"), act2_facts()
    return [
        f"Equal flag rates are not equal error rates: at {fmt(S.flag_rate, 'pct')} for both groups, group B's "
        f"innocent posts are flagged at {f['m_fpr_b']} against group A's {f['m_fpr_a']}, with an identical, "
        "unbiased classifier.",
        "FPR = p/(1 − p)·(1 − PPV)/PPV·TPR: with different base rates, equal selection, equal error rates and "
        f"equal precision cannot all hold. One cut-off keeps error rates equal but leaves precision at "
        f"{f['one_ppv_a']} against {f['one_ppv_b']}, and the same raw score means a different chance in each "
        "group: it is not calibrated within groups.",
        f"The four-fifths rule is a screen, not a target: a ratio under it (here {g['ir_today']}) is evidence of "
        "adverse impact that the employer answers by validating the test or finding a use of it with less impact. "
        "Cut-offs that differ by group are no answer for a US employment test: the statute forbids them.",
        f"With one cut-off the impact ratio depends only on how often unqualified applicants pass, relative to "
        f"qualified ones (FPR ÷ TPR): "
        f"reaching four-fifths took t = {g['t_low']}, advancing {g['adv_share_low']} of applicants, most of them "
        f"unqualified; a sharper model lowered it to {g['ir_sharp']}.",
        "Which fairness criterion to keep is policy, made within the law; which statements here are law and which "
        "are policy is stated beside them (a teaching model, not legal advice).",
    ]


LAB = Lab(
    id="v2_16", volume=2, number=16, title="The Fairness Impossibility",
    invariant="With **different base rates** and an imperfect classifier, equal selection rates, equal error "
              "rates and equal precision **cannot all hold**; which to keep is a policy choice, made within "
              "what the law allows.",
    minutes="30–35 min", chapter="Responsible AI", url="vol2/16-fairness-impossibility/",
    description="Why equal selection rates, equal error rates and equal precision cannot all hold when groups' base "
                "rates differ, and what US law, the four-fifths rule and the EU AI Act ask of a hiring screen.",
    reading=(
        "**Fairness criteria**: demographic parity, equalized odds, predictive parity and calibration.",
        "**The impossibility results** of Chouldechova (2017) and Kleinberg et al. (2016).",
        "**Fairness in deployment**: thresholds, audits, and what the law and regulators ask.",
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
        "**V1-15 There Is No Free Fairness**: the price of a calibrated score, and the same US statute for a résumé screen.",
        "**V2-13 The Privacy Measurement Gap**: another guarantee that is a policy choice stated as a number.",
    ),
    presets={"context": {"measured": {"a1_base_a": S.base_a, "a1_base_b": S.base_b},
                         "equal": {"a1_base_a": S.base_equal, "a1_base_b": S.base_equal}}},
    terms=terms,
    record_metrics=RECORD,
    hook="A moderation model scores two communities' posts the same way and flags the same share of each; "
         "activists say it treats their innocent posts differently. Who is right, and what may a hiring screen "
         "do about such gaps?",
)
