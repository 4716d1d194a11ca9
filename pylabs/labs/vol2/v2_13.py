"""Lab V2-13 · The Privacy Measurement Gap.

Core invariant: not storing the records is not privacy. A trained model leaks membership; a
measured attack is only a *lower* bound on that leak, and only differential privacy *upper*-bounds
every attack, at (e^ε + δ)/(1 + e^ε) with a 50/50 prior. The budget costs accuracy, and more data
buys it back, because subsampling amplifies privacy (ε falls as N grows at fixed batch and epochs).

Act I: the CPO's model (99.5 % train, 70 % test, 10⁶ records) falls to a gap attack at 64.75 %; a
vendor claims DP at ε = 1 holds any attack to a coin flip. The bound at ε = 1 is 73.1 % (≤ 55 %
needs ε ≤ 0.2). Act II: DP-SGD (B = 1,000, E = 10, δ = 1/(10N)) on 10⁶ records with z = 1.15: ε =
0.868 by the RDP accountant (tighter conversion), accuracy 86 % against a 90 % clinical floor. Of the
four plans only 10× the records at the same z (ε = 0.653, 91.5 %) meets both the board's ε ≤ 1 and
the floor; spending the extra data on less noise (z = 0.6) breaks the ε limit (3.22).

Corrections (handbook/labs/v2_13.md §2): ε is an *output* of the RDP accountant in ``physics.privacy``, never a
slider or a single-release Gaussian bound; the gap attack is 0.5 + gap/2, not 0.5 + gap; HIPAA names
no ε (45 CFR 164.514(b)), so ε ≤ 1 is the board's rule; deployment changes time, never accuracy or ε.

Where this lab departs from the spec, and why:
- δ. The spec fixes δ = 10⁻⁶ (the page's first version called it "well below 1/N"), but at N = 10⁶ it
  *is* 1/N (10/N at 10⁷), against the spec's own "δ ≪ 1/n" (handbook/labs/v2_13.md §2). Dwork and Roth (2014, §2.3)
  call δ on the order of 1/N "very dangerous" (it allows publishing a few records outright) and ask
  for δ below the inverse of any polynomial in N. This lab uses
  δ = 1/(10N) in every run, so δ follows N across the records control (10⁻⁷ at 10⁶, 10⁻⁸ at 10⁷).
  The spec's golden rows (handbook/labs/v2_13.md §4) at δ = 10⁻⁶ stay as tests of the accountant; Google's
  dp-accounting (0.6.0, RdpAccountant) reproduces this lab's values at δ = 1/(10N).
- Accuracy. The spec's heuristic 0.94 − 0.08·(10⁶/N)/ε reads ε, so the same run showed 85.7 % under
  the classic conversion and 83 % under the tight one; but accuracy depends on the noise, not on the
  bound proved about it. This lab charges the noise itself: the cost ∝ z/√(B·E·N) (the noise z·C/B on
  each averaged gradient, over T = E·N/B steps; the DP-ERM rate √d/(Nε) of Bassily et al. 2014 gives
  the same shape once ε is written through q, T and z), anchored at the team's measured 86 %, the
  spec's narrated figure. Far from the anchor the cost would pass a guess's 50 % ([assumed] a
  balanced two-class diagnosis); the card then says the heuristic has left its range.
- Story. Both acts are one hospital's 10⁶ records (the spec's Act I said 10⁷, which the bound never
  reads), so δ = 1/(10N) is 10⁻⁷ in both.
- Questions. Act I's prediction asks for the bound at ε = 1 in ordered ranges whose wrong
  ones are published slips (a coin flip; the ratio counted twice; Yeom et al.'s looser e^ε − 1).
  Act II's plans add "10× the records *and* less noise", so the key needs the accountant, not the
  intuition that more data helps; the spec's federated option moves to the reflection's lesson.
- Accountant (review). RDP is loose here and numerical (PLD) accountants prove less, so option C spends
  the extra records on z = 0.6, over ε ≤ 1 under any accountant (see v2_13_model.CANDIDATES).

The RDP → (ε, δ) conversion defaults to the tighter one (Balle et al. 2020), which the RDP accountants
of dp-accounting and Opacus use; a control switches to the classic one (Mironov 2017, Prop. 3) of the
spec's golden rows, and the page names which is shown and checks the board's limit against it (a
classic-only breach says so). Records N is a list of half-decades, so a move asks the accountant for a
few cached values. Training throughput per context is a labelled assumption.

Ledger (handbook/labs/v2_13.md §1; N is ``n``): n, batch, epochs, z, q, steps, dp_eps, dp_delta, mi_cap (Act II's
model), naive_mi (Act I's gap attack), model_acc, policy_ok; answers a1_predict (act1_prediction, act1_correct),
a2_predict (act2_decision); failures_active (constraint_hit).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure, fmt,
                              math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_13_model import (ACT1_DELTA, CANDIDATES, EPS_GRID, NAIVE, TEAM, THROUGHPUT, TWICE_EPS, S,
                                          Training, act1_truth, act2_answer, cap)
from pylabs.physics import constants as C
from pylabs.physics import privacy
from pylabs.physics import units as U
from pylabs.physics.references import cite

DELTA_RULE = f"1/({fmt(S.delta_margin, 'int')}N)"  # δ = 1/(10N)
ORDER_RANGE = f"{fmt(privacy.ORDERS[0], 'int')}…{fmt(privacy.ORDERS[-1], 'int')}"  # the orders the accountant searches
RECORDS = fmt(S.records, "int")


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Where the model is trained and served", (
    Option("on_prem", "On-premises: the hospital's own GPUs; only its clinicians query the model"),
    Option("cloud", "Cloud: rented GPUs; partner clinics query the model through an API"),
), default="on_prem", help="Changes who can query the model and how fast training runs.")

TERMS = {  # "isolation_decides": what Act II's enclave changes (on premises only the clinicians query already)
    "on_prem": {"where": "on the hospital's own GPUs", "queriers": "Only the hospital's clinicians",
                "enclave": "keep training on the hospital's own GPUs, walled off in an isolated enclave",
                "isolation_decides": "who can reach the records"},
    "cloud": {"where": "on rented cloud GPUs", "queriers": "Partner clinics, through an API,",
              "enclave": "move training off the rented cloud GPUs into an isolated on-premises enclave",
              "isolation_decides": "who can reach the records and who can ask"},
}


def terms(context: str) -> dict[str, str]:
    return TERMS[context]


# ---- Act I · The measurement gap -----------------------------------------------------

A1_TRAIN = Slider("a1_train", "Training accuracy", unit="1", min=0.5, max=1.0, step=0.005, default=S.train_acc, fmt="pct")
A1_TEST = Slider("a1_test", "Test accuracy", unit="1", min=0.5, max=1.0, step=0.005, default=S.test_acc, fmt="pct")
A1_EPS = Choice("a1_eps", "DP training at ε", (Option("none", "no DP"),) + tuple(
    Option(f"{e:g}", fmt(e, "num")) for e in S.eps_options), default=f"{S.question_eps:g}", unit="1",
    help="The (ε, δ) guarantee the model would be trained with; 'no DP' is today's model.")
A1_DELTA = Choice("a1_delta", "δ", tuple(Option(f"{d:g}", ch.power_label(d)) for d in S.a1_delta_options),
                  default=f"{ACT1_DELTA:g}", unit="1",
                  help="Roughly, the chance that the privacy loss exceeds ε; kept far below 1/N, here 1/(10N) or less.")


def a1_eps(s: State) -> float:
    """Act I's ε; ∞ for 'no DP' (nothing bounds the attack)."""
    return math.inf if s["a1_eps"] == "none" else float(s["a1_eps"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"A vendor says that retraining with differential privacy at ε = {fmt(S.question_eps, 'num')} "
           f"(δ = {ch.power_label(ACT1_DELTA)}) will hold *any* membership attack to a coin flip. With a 50/50 prior, "
           "what is the highest accuracy the guarantee still allows an attacker?",
    quantity=f"the best membership-attack accuracy an (ε = {fmt(S.question_eps, 'num')}, δ)-DP model allows",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: near a coin flip, as the vendor says", None, 0.60, 0.55,
              "That is the vendor's claim: the bound (e^ε + δ)/(1 + e^ε) is {a1_mi_cap} "
              "at ε = {eps_q}. Holding every attack to {vendor} needs ε ≤ {a1_eps_coinflip}."),
        Range("B", "{range}: a real cap, but far from a coin flip", 0.60, 0.80, 0.70,
              "e^ε = {e_q}: apart from δ's slack, any outcome of training is at most {e_q} times likelier with a "
              "given patient's record than without it, so the odds of a right guess are at most {e_q} to 1: {a1_mi_cap}. The audit's "
              "{a1_naive_mi} sits under that cap."),
        Range("C", "{range}: only a weak cap on a determined attacker", 0.80, 0.95, 0.88,
              "That counts the ratio twice: e^(2ε)/(1 + e^(2ε)) = {twice_cap} is the bound at ε = {twice_eps}. "
              "DP bounds each outcome's likelihood ratio by e^ε once, so at ε = {eps_q} the odds are at most "
              "{e_q} to 1: {a1_mi_cap}."),
        Range("D", "{range}: hardly a cap, near-certain attacks remain", 0.95, None, 0.99,
              "Yeom et al.'s bound, advantage ≤ e^ε − 1 = {yeom_adv}, caps nothing at ε = {eps_q}, but it is "
              "loose: the (ε, δ) hypothesis-testing region (Kairouz et al. 2015) gives {a1_mi_cap}."),
    ),
    truth=act1_truth,
    shown_by="a1_mi_cap",
)


def act1_facts() -> dict[str, str]:
    return {"a1_mi_cap": fmt(act1_truth(), "pct"), "eps_q": fmt(S.question_eps, "num"),
            "vendor": fmt(S.vendor_cap, "pct"), "e_q": fmt(math.exp(S.question_eps), "num"),
            "a1_eps_coinflip": fmt(privacy.epsilon_for_attack_accuracy(S.vendor_cap, ACT1_DELTA), "num"),
            "a1_naive_mi": fmt(NAIVE, "pct"), "twice_eps": fmt(TWICE_EPS, "num"), "twice_cap": fmt(cap(TWICE_EPS), "pct"),
            "yeom_adv": fmt(math.expm1(S.question_eps), "num"), "chance": fmt(S.acc_chance, "pct"),
            "eps_low": fmt(S.eps_options[1], "num")}


CHANCE = fmt(S.acc_chance, "pct")

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Suppose the team regularises until training and test accuracy match, and the gap attack falls to "
           f"{CHANCE}. What may the CPO conclude about the leak?",
    options=(
        Claim("A", "It is gone: with no gap, no attack can tell members from others.",
              "Overfitting is sufficient for membership inference, not necessary (Yeom et al. 2018): attacks that "
              "score each record's own loss find memorised rare records that an average gap hides (Carlini et al. "
              "2022). Without DP nothing caps them; at ε = {eps_q} the cap would be {a1_mi_cap}."),
        Claim("B", f"It is certified: a {CHANCE} audit proves the model as private as ε = 0.",
              "An audit gives a lower bound on ε, never an upper one (Jagielski et al. 2020): a {chance} attack "
              "proves only ε ≥ 0, which every model meets. An audit can refute a DP claim, as the gap attack does "
              "at ε = {eps_low}; it cannot certify one."),
        Claim("C", "Nothing new: a failed attack sets no ceiling, and without DP none exists.",
              "The gap attack is one attack, and its score is a floor on the leak. Attacks that score each "
              "record's own loss can still find members (Carlini et al. 2022), and only DP training caps every "
              "attack: {a1_mi_cap} at ε = {eps_q}."),
        Claim("D", "It grew: a model with no gap underfits, and underfit models leak even more.",
              "Underfitting does not raise the leak; what leaks is the memorisation of individual records, which "
              "a zero *average* gap does not rule out. The audit's {a1_naive_mi} was one attack's score, a floor "
              "on the leak."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_mi_cap", "Any attack, at most (DP bound)", "1", "pct"),
    MetricSpec("a1_naive_mi", "Measured gap attack", "1", "pct"),
    MetricSpec("a1_gap", "Generalization gap", "1", "pp"),
    MetricSpec("a1_eps_coinflip", f"ε that caps attacks at {fmt(S.vendor_cap, 'pct')}", "1", "num"),
    MetricSpec("a2_epsilon", "Privacy loss ε after training", "1", "num"),
    MetricSpec("a2_accuracy", "Model accuracy (heuristic)", "1", "pct"),
    MetricSpec("a2_mi_cap", "Any attack, at most", "1", "pct"),
    MetricSpec("a2_train_time", "Training time", "s", "s"),
    MetricSpec("a2_delta", f"δ = {DELTA_RULE}", "1", "sci"),
    MetricSpec("a2_q", "Sampling rate q = B/N", "1", "sci"),
    MetricSpec("a2_steps", "Steps T = E·N/B", "1", "int"),
    MetricSpec("a2_order", "Best Rényi order α", "1", "int"),
)}

FAILURES = (
    FailureSpec("a1_refuted", "DP claim refuted: a measured attack beats the bound", act=1,
                reach={"a1_eps": "0.2"}, leave={"a1_eps": "1"}),
    FailureSpec("a2_policy", "Privacy policy broken: ε is above the board's limit", act=2,
                reach={"a2_z": 0.8}, leave={"a2_z": 1.15}),
    FailureSpec("a2_clinical", "Below the clinical accuracy floor", act=2, severity="warn",
                reach={}, leave={"a2_records": "10000000"}),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    eps, delta = a1_eps(s), float(s["a1_delta"])
    naive, bound = privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), cap(eps, delta)
    refuted = naive > bound
    parts = [metric_grid(
        M["a1_mi_cap"].show(bound, "danger" if refuted else None,
                            "no DP: nothing bounds it" if eps == math.inf else f"at ε = {fmt(eps, 'num')}, δ = {ch.power_label(delta)}"),
        M["a1_naive_mi"].show(naive, "danger" if naive > S.vendor_cap else None, "a lower bound on the leak"),
        M["a1_gap"].show(abs(s["a1_train"] - s["a1_test"]), note="train − test accuracy"),
        M["a1_eps_coinflip"].show(privacy.epsilon_for_attack_accuracy(S.vendor_cap, delta),
                                  note=f"solves (e^ε + δ)/(1 + e^ε) = {fmt(S.vendor_cap, 'pct')}"),
    )]
    if refuted:
        parts.append(failure(F["a1_refuted"], f"The gap attack reaches {fmt(naive, 'pct')}, above the "
                             f"{fmt(bound, 'pct')} an (ε = {fmt(eps, 'num')})-DP model allows: a model trained this way "
                             "cannot really be that private. Measurements can refute a DP claim, never prove one. "
                             "Raise ε, or shrink the gap."))
    parts += [act1_chart(eps, delta, naive),
              callout("info", "Who can query", f"{terms(s['context'])['queriers']} can query this model.")]
    return parts


def act1_chart(eps: float, delta: float, naive: float):
    caps = [cap(e, delta) * U.PERCENT for e in EPS_GRID]
    traces = [ch.line("DP bound, any attack", EPS_GRID, caps, "series1"),
              ch.line("Measured gap attack", EPS_GRID, [naive * U.PERCENT] * len(EPS_GRID), "danger", dash="dash")]
    if eps != math.inf:
        traces.append(ch.point("Your ε", eps, cap(eps, delta) * U.PERCENT, "accent"))
    vendor, vendor_note = ch.hline(S.vendor_cap * U.PERCENT, "muted", "vendor's claim")
    figure = ch.figure(traces, x=ch.axis("Privacy budget ε", "log", **ch.decade_ticks(EPS_GRID, lambda v: fmt(v, "num"))),
                       y=ch.axis("Attack accuracy (%)", range=[S.pct_axis_low, S.pct_axis_top]), shapes=[vendor], annotations=[vendor_note])
    where = ("with no DP nothing bounds it" if eps == math.inf else
             f"at ε = {fmt(eps, 'num')} the bound allows {fmt(cap(eps, delta), 'pct')}")
    summary = (f"The bound rises from chance towards certainty as ε grows; the measured gap attack reaches "
               f"{fmt(naive, 'pct')}, and {where}.")
    rows = [(fmt(e, "num"), fmt(c / U.PERCENT, "pct")) for e, c in zip(EPS_GRID, caps)]
    return chart("a1_bound", "The DP bound on any membership attack, against ε", figure, summary,
                 table=(("ε", "Best attack, at most"), rows))


def act1_math(s: State):
    eps, delta = a1_eps(s), float(s["a1_delta"])
    return math_peek("The governing equations · Act I", (
        Equation(r"\text{Acc}_{\text{gap}} = \tfrac12 + \tfrac12\,\lvert A_{\text{train}} - A_{\text{test}}\rvert",
                 "Balanced accuracy of the attack that says *member* when the model is right. It measures one "
                 "attack; a common slip, ½ + gap, doubles it."),
        Equation(r"\Pr[\text{attack right}] \le \frac{e^{\varepsilon} + \delta}{1 + e^{\varepsilon}}",
                 "Any attack on an (ε, δ)-DP model, 50/50 prior: the hypothesis-testing region of DP."),
        Equation(r"\varepsilon \le \ln\frac{p - \delta}{1 - p}",
                 "The budget that holds every attack to accuracy *p*."),
    ), rows=(
        ("Gap attack", fmt(privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), "pct")),
        ("ε; δ", f"{'none' if eps == math.inf else fmt(eps, 'num')}; {ch.power_label(delta)}"),
        ("Bound", fmt(cap(eps, delta), "pct")),
    ), sources=(
        cite("yeom2018", "the gap attack; overfitting is sufficient, not necessary; Theorem 1's looser e^ε − 1"),
        cite("kairouz2015", "the (ε, δ) hypothesis-testing region behind the bound"),
        cite("jagielski2020", "measured attacks give lower bounds on ε, which can refute but never prove a DP claim"),
        cite("carlini2022", "attacks on each record's loss that find members an average gap hides"),
        cite("dwork_roth2014", "§2.3: δ on the order of 1/N is very dangerous; δ here is 1/(10N) or less"),
    ))


ACT1 = Act(
    number=1, title="The Measurement Gap", minutes="12–15 min",
    stakeholder_role="Chief Privacy Officer",
    stakeholder=lambda: (
        f"We trained our diagnosis model on {RECORDS} patient records and deleted them "
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
                    help=f"Batch and epochs stay fixed, so q = B/N falls and T = E·N/B rises with N; δ = {DELTA_RULE}.")
A2_Z = Slider("a2_z", "Noise multiplier, z", unit="1", min=0.5, max=5.0, step=0.05, default=S.z, fmt="num",
              help="Noise standard deviation ÷ clip norm C; ε depends on z alone, not on C.")
A2_CONVERSION = Choice("a2_conversion", "RDP → (ε, δ) conversion", (
    Option("tight", f"{privacy.CONVERSION_NAMES['tight']}, the tighter bound"),
    Option("classic", f"{privacy.CONVERSION_NAMES['classic']}, the classic bound"),
), default="tight", help="Both bound the same run's ε from above; the RDP accountants of dp-accounting (TF-Privacy) and "
                            "Opacus use the tighter one.")


def training(s: State) -> Training:
    return Training(float(s["a2_records"]), s["a2_z"], s["a2_conversion"])


def train_time(context: str, records: float) -> float:
    """Wall-clock time of E epochs over N records at the context's [assumed] DP-SGD throughput."""
    return S.epochs * records / THROUGHPUT[context]


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"The board requires ε ≤ {fmt(S.policy_eps, 'num')} at δ = {DELTA_RULE}; clinicians require "
           f"{fmt(S.clinical_floor, 'pct')} accuracy. Batch and epochs stay as they are. Which plan meets both?",
    quantity="the plan that meets the privacy rule and the clinical floor",
    options=(
        Claim("A", f"Ship the current run: {RECORDS} records at z = {fmt(S.z, 'num')}.",
              "It meets the rule, ε = {a2_epsilon}, but the noise costs {a_cost}: {a2_accuracy}, under the "
              "{floor} floor."),
        Claim("B", f"Lower the noise to z = {fmt(S.relaxed_z, 'num')} on the same {RECORDS} records.",
              "Less noise spends privacy: the accountant gives ε = {b_eps}, over the board's limit of {policy}. And the "
              "noise's cost shrinks with z alone, to {b_cost}: {b_acc}, still under the {floor} floor."),
        Claim("C", f"Pool {fmt(S.more_data, 'x')} the records from partner hospitals; lower z to "
                   f"{fmt(S.pooled_z, 'num')}.",
              "The extra records buy accuracy, {c_acc}, but not enough privacy for that much less noise: the "
              "accountant gives ε = {c_eps}, over the board's limit of {policy}."),
        Claim("D", f"Pool {fmt(S.more_data, 'x')} the records from partner hospitals; keep z at {fmt(S.z, 'num')}.",
              "q = B/N falls {more} while T = E·N/B rises {more}: sampling amplifies privacy faster than the "
              "extra steps spend it, and the accountant gives ε = {d_eps}, within the limit of {policy}. The noise's cost "
              "shrinks as 1/√N, to {d_cost}: {d_acc}, above the {floor} floor."),
    ),
    decide=act2_answer,
)


def act2_facts(context: str) -> dict[str, str]:
    a, b, c, d = (CANDIDATES[k] for k in "ABCD")
    other = next(k for k in TERMS if k != context)
    return {"a2_epsilon": fmt(a.epsilon, "num"), "a2_accuracy": fmt(a.accuracy, "pct"), "a_cost": fmt(a.noise_cost, "pp"),
            "a2_mi_cap": fmt(cap(a.epsilon, a.delta), "pct"),
            "b_eps": fmt(b.epsilon, "num"), "b_acc": fmt(b.accuracy, "pct"), "b_cost": fmt(b.noise_cost, "pp"),
            "c_eps": fmt(c.epsilon, "num"), "c_acc": fmt(c.accuracy, "pct"),
            "d_eps": fmt(d.epsilon, "num"), "d_acc": fmt(d.accuracy, "pct"), "d_cost": fmt(d.noise_cost, "pp"),
            "floor": fmt(S.clinical_floor, "pct"), "policy": fmt(S.policy_eps, "num"), "more": fmt(S.more_data, "x"),
            "naive": fmt(NAIVE, "pct"), "where": TERMS[context]["where"], "other_where": TERMS[other]["where"],
            "isolation_decides": TERMS[context]["isolation_decides"],
            "a2_train_time": fmt(train_time(context, S.records), "s"), "t_other": fmt(train_time(other, S.records), "s")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The security lead proposes dropping DP: {enclave}, and let only the hospital's clinicians query the "
           "model. What would isolation buy?",
    options=(
        Claim("A", "It guards the records, not the answers: each query leaks as much as before.",
              "Isolation decides {isolation_decides}, not what an answer reveals. ε comes from z, q and T alone: the team's "
              "run has ε = {a2_epsilon} and caps any attack at {a2_mi_cap} whoever queries it, trained {where} in "
              "{a2_train_time} by the lab's assumed throughput."),
        Claim("B", f"It matches ε ≤ {fmt(S.policy_eps, 'num')}: when no outsider can reach the records, nothing leaks.",
              "Isolation guards the records and the training run; the released model still answers queries, and "
              "the audit's gap attack ({naive}) needed nothing but queries. Without noise nothing bounds what the "
              "answers reveal."),
        Claim("C", "It also lifts accuracy, since an isolated enclave trains on dedicated GPUs.",
              "Where a model trains changes how fast, not what it learns: {a2_train_time} {where} against "
              "{t_other} {other_where}, at the same accuracy and the same ε = {a2_epsilon}."),
        Claim("D", "Nothing at all: isolation is theatre, since the weights leak wherever they sit.",
              "Isolation does protect the raw records from theft; it cannot bound what the model reveals to "
              "whoever can query it. That takes the noise: ε = {a2_epsilon}, any attack at "
              "most {a2_mi_cap}."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    t = training(s)
    parts = [metric_grid(
        M["a2_epsilon"].show(t.epsilon, "good" if t.policy_ok else "danger",
                             f"limit {fmt(S.policy_eps, 'num')}; RDP, {privacy.CONVERSION_NAMES[t.conversion]} conversion"),
        M["a2_accuracy"].show(t.accuracy, "good" if t.clinical_ok else "warn",
                              "a guess: the heuristic has left its range" if t.saturated else
                              f"floor {fmt(S.clinical_floor, 'pct')}; {fmt(S.acc_no_dp, 'pct')} without DP"),
        M["a2_mi_cap"].show(cap(t.epsilon, t.delta), note=f"50/50 prior, δ = {ch.power_label(t.delta)}"),
        M["a2_train_time"].show(train_time(s["context"], t.records),
                                note=f"{fmt(THROUGHPUT[s['context']], 'int')} examples/s [assumed], {TERMS[s['context']]['where']}"),
        M["a2_delta"].show(t.delta, note="far below 1/N"),
        M["a2_q"].show(t.q), M["a2_steps"].show(t.steps), M["a2_order"].show(t.order),
    )]
    if not t.policy_ok:
        parts.append(failure(F["a2_policy"], policy_text(t)))
    if not t.clinical_ok:
        parts.append(failure(F["a2_clinical"], clinical_text(t)))
    return parts + [act2_epsilon_chart(t), act2_accuracy_chart(t)]


def policy_text(t: Training) -> str:
    limit = fmt(S.policy_eps, "num")
    tight = Training(t.records, t.z, "tight")
    if t.conversion == "classic" and tight.policy_ok:
        return (f"The classic conversion proves only ε = {fmt(t.epsilon, 'num')}, over the board's limit of {limit}. The tighter "
                f"conversion proves ε = {fmt(tight.epsilon, 'num')} for the same run: the training is the same, only "
                "the proof is looser. Report the tighter bound, or raise z.")
    more = ", or train on more records (q = B/N falls)" if t.records < S.record_options[-1] else ""
    return (f"The RDP accountant proves only ε = {fmt(t.epsilon, 'num')}, over the board's limit of {limit} (a numerical "
            f"accountant may prove less; the board's rule names RDP). Raise z{more}.")


def clinical_text(t: Training) -> str:
    if t.saturated:
        return (f"By the heuristic the noise's cost, {fmt(t.noise_cost, 'pp')}, would leave the model no better than a "
                f"guess ({fmt(S.acc_chance, 'pct')}): far outside the range it was anchored in. Lower z, or train on more records.")
    return (f"The model reaches {fmt(t.accuracy, 'pct')}, under the {fmt(S.clinical_floor, 'pct')} clinicians need. "
            "The noise's cost falls as z/√N: more records cut it without spending ε; less noise spends ε.")


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
    summary = (f"At fixed batch and epochs, with δ = {DELTA_RULE}, ε falls as N grows: with z = {fmt(t.z, 'num')} and "
               f"{fmt(t.records, 'int')} records it is {fmt(t.epsilon, 'num')} "
               f"({privacy.CONVERSION_NAMES[t.conversion]} conversion).")
    rows = [(fmt(n, "int"), *(fmt(Training(n, z, t.conversion).epsilon, "num") for z in zs)) for n in ns]
    return chart("a2_epsilon", "Privacy loss against training records", figure, summary,
                 table=(("Records", *(f"ε at z = {fmt(z, 'num')}" for z in zs)), rows))


def act2_accuracy_chart(t: Training):
    ns = list(S.record_options)
    runs = [Training(n, t.z, t.conversion) for n in ns]
    traces = [ch.line("No DP", ns, [S.acc_no_dp * U.PERCENT] * len(ns), "muted", dash="dash"),
              ch.line("Clinical floor", ns, [S.clinical_floor * U.PERCENT] * len(ns), "warn", dash="dot"),
              ch.line(f"DP-SGD, z = {fmt(t.z, 'num')}", ns, [r.accuracy * U.PERCENT for r in runs], "series1", markers=True),
              ch.point("Your run", t.records, t.accuracy * U.PERCENT, "accent")]
    figure = ch.figure(traces, x=ch.axis("Training records, N", "log", **ch.decade_ticks(ns)),
                       y=ch.axis("Accuracy (%)", range=[S.pct_axis_low, U.PERCENT]))
    meets = [fmt(r.records, "int") for r in runs if r.policy_ok and r.clinical_ok]
    summary = (f"At z = {fmt(t.z, 'num')}, " + (f"N = {', '.join(meets)} {'meets' if len(meets) == 1 else 'meet'} both the ε limit and the floor"
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
        Equation(conversion, f"Compose *T = E·N/B* steps and convert at δ = {DELTA_RULE}: this page uses the "
                             f"**{privacy.CONVERSION_NAMES[t.conversion]}** conversion. A single-release Gaussian bound "
                             "σ ≥ C·√(2 ln(1.25/δ))/ε is not an accountant: it ignores composition and sampling."),
        Equation(rf"\text{{acc}} = {S.acc_no_dp:g} - {S.acc_no_dp - S.acc_team:.2g}\cdot\frac{{z}}{{{S.z:g}}}"
                 rf"\sqrt{{\frac{{10^{{{round(math.log10(S.records))}}}}}{{N}}}}",
                 "A labelled heuristic, not a measurement: the noise on each averaged gradient is z·C/B, and over "
                 "T = E·N/B steps its cost falls as z/√(B·E·N). It reads the noise, never ε, so both conversions "
                 f"give one accuracy. Anchored at the team's measured {fmt(S.acc_team, 'pct')}; never below a guess, "
                 f"{fmt(S.acc_chance, 'pct')} ([assumed] a balanced two-class diagnosis)."),
    ), rows=(
        ("*q*; *T*; *δ*", f"{fmt(t.q, 'sci')}; {fmt(t.steps, 'int')}; {fmt(t.delta, 'sci')}"),
        ("Best order, *α*", fmt(t.order, "int")),
        ("ε, this conversion", fmt(t.epsilon, "num")),
        ("ε, the other conversion", fmt(other.epsilon, "num")),
        ("Clip norm *C*", f"{fmt(S.clip, 'num')} (scales signal and noise alike; ε does not depend on it)"),
    ), sources=(
        cite("abadi2016", "DP-SGD: per-example clipping, Gaussian noise, the moments accountant"),
        cite("mironov2017", "RDP composition and the classic conversion, Prop. 3"),
        cite("mironov2019", "RDP of the sampled Gaussian mechanism at integer orders"),
        cite("balle2020", "the tighter RDP → (ε, δ) conversion"),
        cite("dp_accounting", "its RdpAccountant reproduces this page's ε; its PLD accountant proves a smaller ε"),
        cite("dwork_roth2014", "§2.3: δ on the order of 1/N is very dangerous, so δ = 1/(10N) here"),
        cite("bassily2014", "private ERM's excess risk falls as √d/(Nε), the heuristic's shape"),
        cite("hipaa_164_514", "HIPAA de-identification: Safe Harbor or Expert Determination; it sets no ε"),
        "Training throughput per context is a scenario assumption, marked [assumed].",
    ))


ACT2 = Act(
    number=2, title="The Privacy Budget", minutes="15–20 min",
    stakeholder_role="Chief Medical Information Officer",
    stakeholder=lambda context: (
        f"Our privacy board now requires DP with ε ≤ {fmt(S.policy_eps, 'num')} at δ = {DELTA_RULE}. We retrained "
        f"on our {RECORDS} records {TERMS[context]['where']} with DP-SGD: batch {fmt(S.batch, 'int')}, "
        f"{fmt(S.epochs, 'int')} epochs, noise z = {fmt(S.z, 'num')}. It is {fmt(TEAM.accuracy, 'pct')} accurate "
        f"against {fmt(S.acc_no_dp, 'pct')} without DP, and clinicians will not use anything under "
        f"{fmt(S.clinical_floor, 'pct')}. What do we do?"),
    scenario=lambda: (
        "**DP-SGD** clips each example's gradient to norm *C*, sums a batch sampled with rate *q = B/N*, and adds "
        "Gaussian noise *z·C*. An **accountant** composes every step in Rényi DP and converts the total to (ε, δ).",
        f"This page reports the tighter conversion of {privacy.CONVERSION_NAMES['tight']} and can switch to the classic "
        f"one of {privacy.CONVERSION_NAMES['classic']}. Both are upper bounds: accountants that track the whole "
        "privacy-loss distribution (dp-accounting's PLD, Opacus's default PRV) prove a smaller ε for the same run. "
        f"δ = {DELTA_RULE} stays far below 1/N: Dwork and Roth (2014) call δ near 1/N very dangerous, since it "
        "allows publishing a few records outright.",
        "**Law**: HIPAA's de-identification standard is Safe Harbor (remove "
        f"{fmt(C.HIPAA_SAFE_HARBOR_IDENTIFIERS, 'int')} kinds of identifiers, with no actual knowledge that the rest "
        "identifies anyone) or an expert's documented finding that the risk of identifying anyone is very small. It "
        f"names no ε. **Policy**: ε ≤ {fmt(S.policy_eps, 'num')} by an RDP accountant, and δ = {DELTA_RULE}, are the "
        "board's own rules. "
        "Not legal advice.",
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
            "dp_eps": t.epsilon, "dp_delta": t.delta, "mi_cap": cap(t.epsilon, t.delta),
            "naive_mi": privacy.gap_attack_accuracy(s["a1_train"], s["a1_test"]), "model_acc": t.accuracy,
            "policy_ok": t.policy_ok}


RECORD_METRICS = (
    MetricSpec("n", "Training records, N", "1", "int"), MetricSpec("batch", "Batch, B", "1", "int"),
    MetricSpec("epochs", "Epochs, E", "1", "int"), MetricSpec("z", "Noise multiplier, z", "1", "num"),
    MetricSpec("q", "Sampling rate, q", "1", "sci"), MetricSpec("steps", "Steps, T", "1", "int"),
    MetricSpec("dp_eps", "ε after training", "1", "num"), MetricSpec("dp_delta", "δ", "1", "sci"),
    MetricSpec("mi_cap", "Any attack, at most", "1", "pct"), MetricSpec("naive_mi", "Measured gap attack", "1", "pct"),
    MetricSpec("model_acc", "Model accuracy (heuristic)", "1", "pct"),
    MetricSpec("policy_ok", "Meets the board's ε limit", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    f, g = act1_facts(), act2_facts(CONTEXT.default)
    classic = Training(S.records, S.z, "classic")
    return [
        f"Deleting the records does not delete what the model memorised: the audit's gap attack reached "
        f"{f['a1_naive_mi']}. A measured attack is a lower bound on the leak, never a proof of privacy.",
        f"DP caps every attack at (e^ε + δ)/(1 + e^ε): {f['a1_mi_cap']} at ε = {f['eps_q']}, not a coin flip; "
        f"holding attacks to {f['vendor']} needs ε ≤ {f['a1_eps_coinflip']}.",
        f"ε is an output of an accountant over every DP-SGD step, at a δ far below 1/N; say which conversion "
        f"produced it (the team's run: {g['a2_epsilon']} by the tighter conversion, {fmt(classic.epsilon, 'num')} by the "
        "classic one; less still by a numerical accountant). The accuracy "
        "is the same under both: it depends on the noise, not on the bound.",
        f"More data buys back accuracy without spending privacy: {g['more']} the records at the same z gives "
        f"ε = {g['d_eps']} and {g['d_acc']}; spending it on much less noise breaks the limit (ε = {g['c_eps']}).",
        "Isolation protects the records and decides who can query; it does not bound what the model reveals to those "
        "who can. Only the noise bounds that.",
    ]


LAB = Lab(
    id="v2_13", volume=2, number=13, title="The Privacy Measurement Gap",
    invariant="A measured attack is a **lower bound** on what a model leaks; only **differential privacy** gives an "
              "upper bound, and its budget costs accuracy that **more data** buys back.",
    minutes="30–35 min", chapter="Security and Privacy", url="vol2/13-privacy-gap/",
    description="A hospital deleted its patient records after training, yet a membership attack still tells who was "
                "in them. What does differential privacy promise an attacker, and what does its budget cost a "
                "clinical model?",
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
    terms=terms,
    hook="A hospital trained a diagnosis model, then deleted the patient records. An audit can still tell who "
         "was in them. What would differential privacy really promise a patient, and what would it cost the "
         "clinicians?",
)
