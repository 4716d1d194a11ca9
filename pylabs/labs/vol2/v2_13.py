"""Lab V2-13 · The Privacy Measurement Gap.

Core invariant: not storing the records is not privacy. A trained model leaks membership; a
measured attack is only a *lower* bound on that leak, and only differential privacy *upper*-bounds
every attack, at (e^ε + δ)/(1 + e^ε) with a 50/50 prior. The budget costs accuracy, and more data
buys it back, because subsampling amplifies privacy (ε falls as 1/√N at fixed batch and epochs).

Act I: the CPO's model (99.5 % train, 70 % test) falls to a gap attack at 64.75 %; a vendor claims
DP at ε = 1 holds any attack to 50–55 %. The bound at ε = 1 is 73.1 % (≤ 55 % needs ε ≤ 0.2).
Act II: DP-SGD (B = 1,000, E = 10, δ = 1e-6) on 1 M records with z = 1.15: ε = 0.962 by the RDP
accountant, accuracy 85.7 % against a 90 % clinical floor. Only 10× the data (ε = 0.633, 92.7 %)
meets both the board's ε ≤ 1 and the floor.

Corrections (VOL2 §V2-13 §2): ε is an *output* of the RDP accountant in ``physics.privacy``, never a
slider or a single-release Gaussian bound; the gap attack is 0.5 + gap/2, not 0.5 + gap; HIPAA names
no ε (45 CFR 164.514(b)), so ε ≤ 1 is the board's rule; deployment changes time, never accuracy or ε.

Choices the spec left open, and why: Act I asks for a number, the best possible attack at ε = 1,
rather than the spec's four-claim pick, because the upstream's worst error *is* that number; a
range question puts the student's intuition beside the bound and measures the miss (its option C
is still the right one, and the spec's option texts live on in the feedback). The RDP → (ε, δ)
conversion is the classic one (Mironov 2017, Prop. 3), which reproduces every golden vector; a
control switches to the tighter one (Balle et al. 2020) and the page always names which is used.
Records N is an option list of half-decades (the golden rows sit on it), so each slider move asks
the accountant for at most a handful of new, cached values. The accuracy model is the spec's
labelled heuristic 0.94 − 0.08·(10⁶/N)/ε (shape from the DP-ERM rate of Bassily et al. 2014),
clamped at 0 far from its anchor. Training throughput per context is a labelled assumption.

Ledger (spec §3; names are lower case, so N is ``n``): n, batch, epochs, z, q, steps, dp_eps,
dp_delta, mi_cap (of the Act II model), naive_mi (Act I's gap attack), model_acc, policy_ok;
answers a1_predict (act1_prediction, act1_correct), a2_predict (act2_decision); failures_active
(constraint_hit).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_13_model import (CANDIDATES, EPS_GRID, NAIVE, TEAM, THROUGHPUT, S, Training, act1_truth,
                                          act2_answer, cap)
from pylabs.physics import constants as C
from pylabs.physics import privacy
from pylabs.physics.references import cite

DELTA = ch.power_label(S.delta)
ORDER_RANGE = f"{fmt(privacy.ORDERS[0], 'int')}…{fmt(privacy.ORDERS[-1], 'int')}"  # the orders the accountant searches


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Where the model is trained and served", (
    Option("on_prem", "On-premises: the hospital's own GPUs; only its clinicians query the model"),
    Option("cloud", "Cloud: rented GPUs; partner clinics query the model through an API"),
), default="on_prem", help="Changes who can query the model and how fast training runs; not ε, not accuracy.")

CONTEXT_NOTES = {
    "on_prem": "Only the hospital's clinicians can query this model: fewer attackers, the same leak per query.",
    "cloud": "Partner clinics query this model through an API: more possible attackers, the same leak per query.",
}

# ---- Act I · The measurement gap -----------------------------------------------------

A1_TRAIN = Slider("a1_train", "Training accuracy", unit="1", min=0.5, max=1.0, step=0.005, default=S.train_acc,
                  fmt="pct")
A1_TEST = Slider("a1_test", "Test accuracy", unit="1", min=0.5, max=1.0, step=0.005, default=S.test_acc, fmt="pct")
A1_EPS = Choice("a1_eps", "DP training at ε", (Option("none", "no DP"),) + tuple(
    Option(f"{e:g}", fmt(e, "num")) for e in S.eps_options), default="none", unit="1",
    help="The (ε, δ) guarantee the model would be trained with; 'no DP' is today's model.")
A1_DELTA = Choice("a1_delta", "δ", tuple(Option(f"{d:g}", ch.power_label(d)) for d in S.delta_options),
                  default=f"{S.delta:g}", unit="1", help="The small chance the ε bound fails; it barely moves the cap.")


def a1_eps(s: State) -> float:
    """Act I's ε; ∞ for 'no DP' (nothing bounds the attack)."""
    return math.inf if s["a1_eps"] == "none" else float(s["a1_eps"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"A vendor says that retraining with differential privacy at ε = {fmt(S.question_eps, 'num')} "
           f"(δ = {DELTA}) will hold *any* membership attack to a coin flip. With a 50/50 prior, what is the "
           "highest accuracy the guarantee still allows an attacker?",
    quantity="the best membership-attack accuracy an (ε = 1, δ)-DP model allows",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: close to a coin flip, as the vendor says", None, S.vendor_cap, 0.525,
              "That is the vendor's (and the upstream lab's) claim, and it is false: the bound "
              "(e^ε + δ)/(1 + e^ε) is {cap_q} at ε = {eps_q}. Holding every attack to {vendor} needs "
              "ε ≤ {eps_vendor}."),
        Range("B", "{range}: below today's measured attack", S.vendor_cap, 0.65, 0.60,
              "e^ε = {e_q} at ε = {eps_q}: an outcome may be {e_q} times likelier with a patient's record than "
              "without it, so the cap is {cap_q}, above the {naive} the audit measured."),
        Range("C", "{range}: DP bounds the attack, but well above chance", 0.65, 0.80, 0.73,
              "(e^ε + δ)/(1 + e^ε) = {cap_q}. DP turns an unknown leak into a bounded one; a "
              "near coin flip needs ε ≤ {eps_vendor}."),
        Range("D", "{range}: ε = 1 barely constrains an attacker", 0.80, None, 0.90,
              "That is the regime of larger budgets: ε = {eps_3} allows {cap_3}. At ε = {eps_q} the cap is {cap_q}."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    eps3 = S.eps_options[3]
    return {"cap_q": fmt(act1_truth(), "pct"), "eps_q": fmt(S.question_eps, "num"),
            "vendor": fmt(S.vendor_cap, "pct"), "eps_vendor": fmt(privacy.epsilon_for_attack_accuracy(S.vendor_cap, S.delta), "num"),
            "e_q": fmt(math.exp(S.question_eps), "num"), "naive": fmt(NAIVE, "pct"),
            "eps_3": fmt(eps3, "num"), "cap_3": fmt(cap(eps3), "pct"),
            "gap": fmt(S.train_acc - S.test_acc, "pp")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The team regularises until training and test accuracy match. The gap attack falls to a coin flip. "
           "Is the model now private?",
    options=(
        Claim("A", "Yes: with no generalization gap there is nothing left for an attacker to use.",
              "The gap attack is one attack. Overfitting is sufficient for membership inference, not necessary "
              "(Yeom et al. 2018): attacks on each record's own loss or confidence find memorised rare cases that "
              "an average gap hides."),
        Claim("B", "No: a measured attack is only a lower bound on the leak. A stronger attack can still find "
                   "members, and only DP bounds every attack.",
              "The audit's {gap} gap gave a {naive} attack, a floor on the risk. Without DP nothing caps it; with "
              "ε = {eps_q} the cap is {cap_q}, whatever attack is tried."),
        Claim("C", "Yes, provided the records are deleted after training.",
              "The model is a function of the records; deleting them leaves what the weights memorised, which "
              "is exactly what a membership attack queries."),
        Claim("D", "No: a zero gap means the model underfits, and underfit models leak more.",
              "Underfitting does not leak more; the point is that a zero *average* gap proves nothing about "
              "individual records. The audit's {naive} was one attack's score, not a ceiling."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_naive_mi", "Measured gap attack", "1", "pct"),
    MetricSpec("a1_mi_cap", "Any attack, at most (DP bound)", "1", "pct"),
    MetricSpec("a1_gap", "Generalization gap", "1", "pp"),
    MetricSpec("a1_eps_coinflip", f"ε that caps attacks at {fmt(S.vendor_cap, 'pct')}", "1", "num"),
    MetricSpec("a2_epsilon", "Privacy loss ε after training", "1", "num"),
    MetricSpec("a2_accuracy", "Model accuracy (heuristic)", "1", "pct"),
    MetricSpec("a2_mi_cap", "Any attack, at most", "1", "pct"),
    MetricSpec("a2_train_time", "Training time", "s", "s"),
    MetricSpec("a2_q", "Sampling rate q = B/N", "1", "num"),
    MetricSpec("a2_steps", "Steps T = E·N/B", "1", "int"),
    MetricSpec("a2_order", "Best Rényi order α", "1", "int"),
)}

FAILURES = (
    FailureSpec("a1_refuted", "DP claim refuted: a measured attack beats the bound", act=1),
    FailureSpec("a2_policy", "Privacy policy broken: ε is above the board's limit", act=2),
    FailureSpec("a2_clinical", "Below the clinical accuracy floor", act=2, severity="warn"),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    eps, delta = a1_eps(s), float(s["a1_delta"])
    naive, bound = privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), cap(eps, delta)
    refuted = naive > bound
    parts = [metric_grid(
        M["a1_naive_mi"].show(naive, "danger" if naive > S.vendor_cap else None, "a lower bound on the leak"),
        M["a1_mi_cap"].show(bound, "danger" if refuted else None,
                            "no DP: nothing bounds it" if eps == math.inf else f"at ε = {fmt(eps, 'num')}, δ = {ch.power_label(delta)}"),
        M["a1_gap"].show(abs(s["a1_train"] - s["a1_test"]), note="train − test accuracy"),
        M["a1_eps_coinflip"].show(privacy.epsilon_for_attack_accuracy(S.vendor_cap, delta), note=f"solves (e^ε + δ)/(1 + e^ε) = {fmt(S.vendor_cap, 'pct')}"),
    )]
    if refuted:
        parts.append(failure(F["a1_refuted"], f"The gap attack reaches {fmt(naive, 'pct')}, above the "
                             f"{fmt(bound, 'pct')} an (ε = {fmt(eps, 'num')})-DP model allows: a model trained this way "
                             "cannot really be that private. Measurements can refute a DP claim, never prove one. "
                             "Raise ε, or shrink the gap."))
    parts += [act1_chart(eps, delta, naive), callout("info", "Who can attack", CONTEXT_NOTES[s["context"]])]
    return parts


def act1_chart(eps: float, delta: float, naive: float):
    caps = [cap(e, delta) * S.pct for e in EPS_GRID]
    traces = [ch.line("DP bound, any attack", EPS_GRID, caps, "series1"),
              ch.line("Measured gap attack", EPS_GRID, [naive * S.pct] * len(EPS_GRID), "danger", dash="dash")]
    if eps != math.inf:
        traces.append(ch.point("Your ε", eps, cap(eps, delta) * S.pct, "accent"))
    vendor, vendor_note = ch.hline(S.vendor_cap * S.pct, "muted", "vendor's claim")
    figure = ch.figure(traces, x=ch.axis("Privacy budget ε", "log", **ch.decade_ticks(EPS_GRID, lambda v: fmt(v, "num"))),
                       y=ch.axis("Attack accuracy (%)", range=[S.pct_axis_low, S.pct_axis_top]), shapes=[vendor], annotations=[vendor_note])
    where = ("with no DP nothing bounds it" if eps == math.inf else
             f"at ε = {fmt(eps, 'num')} the bound allows {fmt(cap(eps, delta), 'pct')}")
    summary = (f"The bound rises from chance towards certainty as ε grows; the measured gap attack reaches "
               f"{fmt(naive, 'pct')}, and {where}.")
    rows = [(fmt(e, "num"), fmt(c / S.pct, "pct")) for e, c in zip(EPS_GRID, caps)]
    return chart("a1_bound", "The DP bound on any membership attack, against ε", figure, summary,
                 table=(("ε", "Best attack, at most"), rows))


def act1_math(s: State):
    eps, delta = a1_eps(s), float(s["a1_delta"])
    return math_peek("The governing equations · Act I", (
        Equation(r"\text{Acc}_{\text{gap}} = \tfrac12 + \tfrac12\,\lvert A_{\text{train}} - A_{\text{test}}\rvert",
                 "Balanced accuracy of the attack that says *member* when the model is right. It measures one "
                 "attack; the upstream's ½ + gap doubled it."),
        Equation(r"\Pr[\text{attack right}] \le \frac{e^{\varepsilon} + \delta}{1 + e^{\varepsilon}}",
                 "Any attack on an (ε, δ)-DP model, 50/50 prior: the hypothesis-testing region of DP."),
        Equation(r"\varepsilon \le \ln\frac{p - \delta}{1 - p}",
                 "The budget that holds every attack to accuracy *p*."),
    ), rows=(
        ("Gap attack", fmt(privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), "pct")),
        ("ε; δ", f"{'none' if eps == math.inf else fmt(eps, 'num')}; {ch.power_label(delta)}"),
        ("Bound", fmt(cap(eps, delta), "pct")),
    ), sources=(
        cite("yeom2018", "the gap attack; overfitting is sufficient, not necessary, for membership inference"),
        cite("kairouz2015", "the (ε, δ) hypothesis-testing region behind the bound"),
        cite("jagielski2020", "measured attacks give lower bounds on ε, which can refute but never prove a DP claim"),
    ))


ACT1 = Act(
    number=1, title="The Measurement Gap", minutes="12–15 min",
    stakeholder_role="Chief Privacy Officer",
    stakeholder=lambda: (
        f"We trained our diagnosis model on {fmt(S.act1_records, 'int')} patient records and deleted them "
        f"afterwards. An external audit still ran a membership attack: it reached {fmt(NAIVE, 'pct')} "
        f"(training accuracy {fmt(S.train_acc, 'pct')}, test {fmt(S.test_acc, 'pct')}). A vendor now sells us "
        f"DP at ε = {fmt(S.question_eps, 'num')} and promises that attacks drop to a coin flip. Is that true?"),
    scenario=lambda: (
        "A **membership-inference attack** guesses whether a record was in the training set. The simplest one "
        "says *member* whenever the model is right, which works because models are more accurate on what they "
        "memorised.",
        "**Differential privacy** bounds how much any one record can change what training produces, by a factor "
        "e^ε (plus a small failure chance δ). That bound caps *every* attack, measured or not.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_TRAIN, A1_TEST, A1_EPS, A1_DELTA),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Attack versus guarantee",
)

# ---- Act II · The privacy budget -----------------------------------------------------

A2_RECORDS = Choice("a2_records", "Training records, N", tuple(Option(f"{n:.0f}", fmt(n, "int")) for n in S.record_options),
                    default=f"{S.records:.0f}", widget="select", unit="records",
                    help="Batch and epochs stay fixed, so q = B/N falls and T = E·N/B rises with N.")
A2_Z = Slider("a2_z", "Noise multiplier, z", unit="1", min=0.5, max=5.0, step=0.05, default=S.z, fmt="num",
              help="Noise standard deviation ÷ clip norm C; ε depends on z alone, not on C.")
A2_CONVERSION = Choice("a2_conversion", "RDP → (ε, δ) conversion", (
    Option("classic", f"{privacy.CONVERSION_NAMES['classic']}, the classic bound"),
    Option("tight", f"{privacy.CONVERSION_NAMES['tight']}, the tighter bound"),
), default="classic", help="Both are valid upper bounds; TF-Privacy reports the tighter one today.")


def training(s: State) -> Training:
    return Training(float(s["a2_records"]), s["a2_z"], s["a2_conversion"])


def train_time(s: State, records: float) -> float:
    return S.epochs * records / THROUGHPUT[s["context"]]


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The board requires ε ≤ {fmt(S.policy_eps, 'num')} at δ = {DELTA}; clinicians require "
           f"{fmt(S.clinical_floor, 'pct')} accuracy. Which plan meets both?",
    quantity="the plan that meets the privacy rule and the clinical floor",
    options=(
        Claim("A", "Ship the current DP-SGD run: the accuracy loss is simply the price of privacy.",
              "It meets the rule (ε = {a_eps}) but reaches {a_acc}, under the {floor} floor."),
        Claim("B", f"Keep z = {fmt(S.z, 'num')}, batch and epochs; train on {fmt(S.more_data, 'x')} the records "
                   "from partner hospitals.",
              "q = B/N falls {more} while T = E·N/B rises {more}; ε grows about as q·√T, so it falls to {b_eps}, "
              "and the heuristic's noise cost shrinks with N·ε: accuracy {b_acc}. More data buys back accuracy without spending privacy."),
        Claim("C", f"Lower the noise to z = {fmt(S.relaxed_z, 'num')} on the same records.",
              "Accuracy reaches {c_acc}, but the accountant gives ε = {c_eps}, over the board's {policy}."),
        Claim("D", "Federated learning across the hospitals, no noise: the records never leave each site.",
              "Accuracy stays at {no_dp}, but without noise and an accountant nothing bounds ε: federation is "
              "not a privacy guarantee (Lab V2-11)."),
    ),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    a, b, c = CANDIDATES["A"], CANDIDATES["B"], CANDIDATES["C"]
    return {"a_eps": fmt(a.epsilon, "num"), "a_acc": fmt(a.accuracy, "pct"), "b_eps": fmt(b.epsilon, "num"),
            "b_acc": fmt(b.accuracy, "pct"), "c_eps": fmt(c.epsilon, "num"), "c_acc": fmt(c.accuracy, "pct"),
            "floor": fmt(S.clinical_floor, "pct"), "policy": fmt(S.policy_eps, "num"), "more": fmt(S.more_data, "x"),
            "no_dp": fmt(S.acc_no_dp, "pct"), "b_cap": fmt(cap(b.epsilon), "pct"), "naive": fmt(NAIVE, "pct"),
            "t_prem": fmt(S.epochs * b.records / THROUGHPUT["on_prem"], "s"),
            "t_cloud": fmt(S.epochs * b.records / THROUGHPUT["cloud"], "s")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The security lead proposes dropping DP: train on-premises in an isolated enclave and let only the "
           "hospital's clinicians query the model. What does isolation buy?",
    options=(
        Claim("A", "The same protection as ε ≤ 1: no outsider can reach the records.",
              "Isolation guards the records and the training run; the released model still answers queries, and "
              "the audit's gap attack ({naive}) needed nothing but queries."),
        Claim("B", "It guards the records and narrows who can query, but the model leaks membership to whoever "
                   "does; ε belongs to the training algorithm, not to where it runs.",
              "Only the noise bounds the leak. The {more}-data plan gives ε = {b_eps} and caps any attack "
              "at {b_cap}, on-premises or in the cloud; the location changes training time ({t_prem} on-premises "
              "against {t_cloud} in the cloud, by the lab's assumed throughput)."),
        Claim("C", "It also raises accuracy, because on-premises training adds no cloud overhead.",
              "Where a model trains changes how fast, not what it learns: {t_prem} on-premises against {t_cloud} "
              "in the cloud, the same accuracy and the same ε = {b_eps}."),
        Claim("D", "Nothing at all: isolation is security theatre.",
              "Isolation does protect the raw records from theft; it just cannot bound what the model reveals. "
              "That takes DP: ε = {b_eps} caps any attack at {b_cap}."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    t = training(s)
    eps, acc = t.epsilon, t.accuracy
    parts = [metric_grid(
        M["a2_epsilon"].show(eps, "good" if t.policy_ok else "danger",
                             f"limit {fmt(S.policy_eps, 'num')}; {privacy.CONVERSION_NAMES[t.conversion]} conversion"),
        M["a2_accuracy"].show(acc, "good" if t.clinical_ok else "warn",
                              f"floor {fmt(S.clinical_floor, 'pct')}; {fmt(S.acc_no_dp, 'pct')} without DP"),
        M["a2_mi_cap"].show(cap(eps), note=f"50/50 prior, δ = {DELTA}"),
        M["a2_train_time"].show(train_time(s, t.records),
                                note=f"{fmt(THROUGHPUT[s['context']], 'int')} examples/s [assumed]"),
        M["a2_q"].show(t.q), M["a2_steps"].show(t.steps), M["a2_order"].show(t.order),
    )]
    if not t.policy_ok:
        parts.append(failure(F["a2_policy"], f"The accountant gives ε = {fmt(eps, 'num')}, over the board's "
                             f"{fmt(S.policy_eps, 'num')}. Raise z, or train on more records (q = B/N falls)."))
    if not t.clinical_ok:
        parts.append(failure(F["a2_clinical"], f"The model reaches {fmt(acc, 'pct')}, under the "
                             f"{fmt(S.clinical_floor, 'pct')} clinicians need. More records cut the noise's cost "
                             "without spending more ε; less noise spends ε."))
    return parts + [act2_epsilon_chart(t), act2_accuracy_chart(t)]


EPS_TICKS = (0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 50.0)  # 1-2-5 ticks; Plotly shows those in range


def act2_epsilon_chart(t: Training):
    ns = list(S.record_options)
    zs = sorted(set(S.curve_z) | {t.z})
    colours = dict(zip(zs, ("series2", "series3", "series1")))
    traces = [ch.line(f"z = {fmt(z, 'num')}", ns, [Training(n, z, t.conversion).epsilon for n in ns],
                      "series1" if z == t.z else colours[z], markers=z == t.z) for z in zs]
    traces += [ch.line("Board's limit", ns, [S.policy_eps] * len(ns), "danger", dash="dot"),
               ch.point("Your run", t.records, t.epsilon, "accent")]
    figure = ch.figure(traces, x=ch.axis("Training records, N", "log", **ch.decade_ticks(ns)),
                       y=ch.axis("ε after training", "log", tickvals=list(EPS_TICKS),
                                 ticktext=[fmt(v, "num") for v in EPS_TICKS]))
    summary = (f"At fixed batch and epochs, ε falls as N grows: with z = {fmt(t.z, 'num')} and "
               f"{fmt(t.records, 'int')} records it is {fmt(t.epsilon, 'num')} "
               f"({privacy.CONVERSION_NAMES[t.conversion]} conversion).")
    rows = [(fmt(n, "int"), *(fmt(Training(n, z, t.conversion).epsilon, "num") for z in zs)) for n in ns]
    return chart("a2_epsilon", "Privacy loss against training records", figure, summary,
                 table=(("Records", *(f"ε at z = {fmt(z, 'num')}" for z in zs)), rows))


def acc_axis_low(runs: list[Training]) -> float:
    """The accuracy axis starts at 50 % unless a run falls lower (the heuristic far from its anchor)."""
    return min(50.0, 10.0 * math.floor(min(r.accuracy for r in runs) * 10.0) - 5.0)


def act2_accuracy_chart(t: Training):
    ns = list(S.record_options)
    runs = [Training(n, t.z, t.conversion) for n in ns]
    traces = [ch.line("No DP", ns, [S.acc_no_dp * S.pct] * len(ns), "muted", dash="dash"),
              ch.line("Clinical floor", ns, [S.clinical_floor * S.pct] * len(ns), "warn", dash="dot"),
              ch.line(f"DP-SGD, z = {fmt(t.z, 'num')}", ns, [r.accuracy * S.pct for r in runs], "series1", markers=True),
              ch.point("Your run", t.records, t.accuracy * S.pct, "accent")]
    figure = ch.figure(traces, x=ch.axis("Training records, N", "log", **ch.decade_ticks(ns)),
                       y=ch.axis("Accuracy (%)", range=[acc_axis_low(runs), S.pct]))
    meets = [fmt(r.records, "int") for r in runs if r.policy_ok and r.clinical_ok]
    summary = (f"At z = {fmt(t.z, 'num')}, " + (f"N = {', '.join(meets)} meets both the ε limit and the floor"
               if meets else "no N on the list meets both the ε limit and the floor") +
               "; more records close the gap to the no-DP model.")
    rows = [(fmt(r.records, "int"), fmt(r.epsilon, "num"), fmt(r.accuracy, "pct")) for r in runs]
    return chart("a2_accuracy", "Accuracy against training records at your z", figure, summary,
                 table=(("Records", "ε", "Accuracy"), rows))


def act2_math(s: State):
    t = training(s)
    conversion = (r"\varepsilon = \min_{\alpha}\Big[T\,\varepsilon_{\text{RDP}}(\alpha) + \frac{\ln(1/\delta)}{\alpha-1}\Big]"
                  if t.conversion == "classic" else
                  r"\varepsilon = \min_{\alpha}\Big[T\,\varepsilon_{\text{RDP}}(\alpha) + \ln\frac{\alpha-1}{\alpha}"
                  r" - \frac{\ln\delta + \ln\alpha}{\alpha-1}\Big]")
    other = Training(t.records, t.z, "tight" if t.conversion == "classic" else "classic")
    return math_peek("The governing equations · Act II", (
        Equation(r"\varepsilon_{\text{RDP}}(\alpha) = \frac{1}{\alpha-1}\ln\sum_{k=0}^{\alpha}\binom{\alpha}{k}"
                 r"(1-q)^{\alpha-k}q^{k}\,e^{(k^2-k)/(2z^2)}",
                 "Rényi DP of one DP-SGD step (Poisson sampling at q = B/N, noise z·C on the clipped sum), integer "
                 f"α = {ORDER_RANGE}, in log space."),
        Equation(conversion, f"Compose *T = E·N/B* steps and convert: this page uses the "
                             f"**{privacy.CONVERSION_NAMES[t.conversion]}** conversion. A single-release Gaussian bound "
                             "σ ≥ C·√(2 ln(1.25/δ))/ε is not an accountant: it ignores composition and sampling."),
        Equation(rf"\text{{acc}} = {S.acc_no_dp:g} - {S.acc_drop_anchor:g}\cdot\frac{{10^{{{round(math.log10(S.anchor_records))}}}}}{{N}}\cdot\frac{{1}}{{\varepsilon}}",
                 "A labelled heuristic, not a measurement: the DP-ERM excess risk falls as 1/(Nε), anchored at "
                 f"{fmt(TEAM.accuracy, 'pct')} for the team's run."),
    ), rows=(
        ("*q*; *T*; *δ*", f"{fmt(t.q, 'num')}; {fmt(t.steps, 'int')}; {DELTA}"),
        ("Best order, *α*", fmt(t.order, "int")),
        ("ε, this conversion", fmt(t.epsilon, "num")),
        ("ε, the other conversion", fmt(other.epsilon, "num")),
        ("Clip norm *C*", f"{fmt(S.clip, 'num')} (scales signal and noise alike; ε does not depend on it)"),
    ), sources=(
        cite("abadi2016", "DP-SGD: per-example clipping, Gaussian noise, the moments accountant"),
        cite("mironov2017", "RDP composition and the classic conversion, Prop. 3"),
        cite("mironov2019", "RDP of the sampled Gaussian mechanism at integer orders"),
        cite("balle2020", "the tighter RDP → (ε, δ) conversion"),
        cite("tf_privacy", "published accountant values, reproduced by this page's code"),
        cite("bassily2014", "private ERM's excess risk falls with Nε (the heuristic's shape)"),
        cite("hipaa_164_514", "HIPAA de-identification sets no ε; the ε ≤ 1 rule is the board's"),
        "Training throughput per context is a scenario assumption, marked [assumed].",
    ))


ACT2 = Act(
    number=2, title="The Privacy Budget", minutes="15–20 min",
    stakeholder_role="Chief Medical Information Officer",
    stakeholder=lambda: (
        f"Our privacy board now requires DP with ε ≤ {fmt(S.policy_eps, 'num')} (HIPAA itself names no ε). We "
        f"retrained on our {fmt(S.records, 'int')} records with DP-SGD: batch {fmt(S.batch, 'int')}, "
        f"{fmt(S.epochs, 'int')} epochs, noise z = {fmt(S.z, 'num')}. It is {fmt(TEAM.accuracy, 'pct')} accurate "
        f"against {fmt(S.acc_no_dp, 'pct')} without DP, and clinicians will not use anything under "
        f"{fmt(S.clinical_floor, 'pct')}. What do we do?"),
    scenario=lambda: (
        "**DP-SGD** clips each example's gradient to norm *C*, sums a batch sampled with rate *q = B/N*, and adds "
        "Gaussian noise *z·C*. An **accountant** composes every step in Rényi DP and converts the total to (ε, δ).",
        f"This page uses the classic conversion of {privacy.CONVERSION_NAMES['classic']} by default; a control "
        f"switches to the tighter one of {privacy.CONVERSION_NAMES['tight']}. δ = {DELTA} sits well below 1/N.",
        "HIPAA's de-identification rule is Safe Harbor (remove "
        f"{fmt(C.HIPAA_SAFE_HARBOR_IDENTIFIERS, 'int')} kinds of identifiers) or an expert's determination that "
        "re-identification risk is very small; it names no ε, so the ε limit is the board's own rule.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_RECORDS, A2_Z, A2_CONVERSION),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="DP-SGD planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    t = training(s)
    refuted = privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]) > cap(a1_eps(s), float(s["a1_delta"]))
    active = {"a1_refuted": refuted, "a2_policy": not t.policy_ok, "a2_clinical": not t.clinical_ok}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool]:
    t = training(s)
    return {"n": t.records, "batch": S.batch, "epochs": S.epochs, "z": t.z, "q": t.q, "steps": t.steps,
            "dp_eps": t.epsilon, "dp_delta": S.delta, "mi_cap": cap(t.epsilon),
            "naive_mi": privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), "model_acc": t.accuracy,
            "policy_ok": t.policy_ok}


RECORD_METRICS = (
    MetricSpec("n", "Training records, N", "1", "int"), MetricSpec("batch", "Batch, B", "1", "int"),
    MetricSpec("epochs", "Epochs, E", "1", "int"), MetricSpec("z", "Noise multiplier, z", "1", "num"),
    MetricSpec("q", "Sampling rate, q", "1", "num"), MetricSpec("steps", "Steps, T", "1", "int"),
    MetricSpec("dp_eps", "ε after training", "1", "num"), MetricSpec("dp_delta", "δ", "1", "num"),
    MetricSpec("mi_cap", "Any attack, at most", "1", "pct"), MetricSpec("naive_mi", "Measured gap attack", "1", "pct"),
    MetricSpec("model_acc", "Model accuracy (heuristic)", "1", "pct"),
)


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts()
    return [
        f"Deleting the records does not delete what the model memorised: the audit's gap attack reached {f['naive']}. "
        "A measured attack is a lower bound on the leak, never a proof of privacy.",
        f"DP caps every attack at (e^ε + δ)/(1 + e^ε): {f['cap_q']} at ε = {f['eps_q']}, not a coin flip; "
        f"holding attacks to {f['vendor']} needs ε ≤ {f['eps_vendor']}.",
        "ε is an output of an accountant over every DP-SGD step, never a single-release formula; say which "
        f"conversion produced it (here {fmt(TEAM.epsilon, 'num')} classic, {fmt(Training(S.records, S.z, 'tight').epsilon, 'num')} tighter).",
        f"More data buys back accuracy without spending privacy: {fmt(S.more_data, 'x')} the records gives "
        f"ε = {g['b_eps']} and {g['b_acc']}, meeting both the rule and the floor.",
        "Isolation and federation protect the records, not what the model reveals; only the noise bounds that.",
    ]


LAB = Lab(
    id="v2_13", volume=2, number=13, title="The Privacy Measurement Gap",
    invariant="A measured attack is a **lower bound** on what a model leaks; only **differential privacy** gives an "
              "upper bound, and its budget costs accuracy that **more data** buys back.",
    minutes="30–35 min", chapter="Security and Privacy", url="vol2/13-privacy-gap/",
    reading=(
        "**Membership inference**: what it measures, and why overfitting is sufficient but not necessary.",
        "**Differential privacy**: the (ε, δ) definition and what it promises an attacker.",
        "**DP-SGD**: clipping, noise, subsampling, and accounting over every step.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-11 The Federation Paradox**: the same accountant, for user-level DP-FedAvg.",
        "**V2-17 Constraints Never Lie**: privacy as one constraint among many in a production design.",
    ),
    record_metrics=RECORD_METRICS,
)
