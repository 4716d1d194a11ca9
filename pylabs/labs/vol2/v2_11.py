"""Lab V2-11 · The Federation Paradox.

Core invariant: federated learning moves models, not data: each round every sampled client
downloads the model and uploads an update, K·P·b·(1 + 1/r) bytes, so for a big model and little
raw data per user FL moves far *more* bytes than collecting the data; and only clipping, noise and
an accountant over every round, not federation, bound (ε, δ).

Act I: 100 M phones, K = 10⁴, 24 rounds a day, 5 KB of text per user per day, asked of the context's
model: the 50M bf16 model moves 96× the bytes (D: 30× or more; upstream: "~1,000×", computing 429,497×),
Gboard's 1.4M fp32 CIFG model 5.38× (C: 3× to 30×); 10× upload compression only halves it. Act II:
DP-FedAvg, q = K/N, T = 2,000, δ = 1e-9, ε ≤ 1 and ≤ 5 pp of accuracy: of four plans (K, z) only
K = 10⁴, z = 1.5 meets both (B); the reflection asks what ε = 1 promises one user (C: e^ε).

Where this departs from the spec, and why:
- Sampling amplification: "sampling only K of N amplifies privacy" needs a random, secret draw
  (Poisson: each phone joins a round with probability q = K/N); phones that join when idle are no such draw,
  and Gboard's DP models use DP-FTRL and claim no amplification (Xu et al. 2023). The page shows ε at q = 1.
- The spec's ε (K = 10⁴, z = 1: 1.2197, "fails the ε target") is the RDP accountant's upper bound. Google's
  dp-accounting PLD accountant proves ε ≤ 0.04 for that run, so the page calls an ε above the target "not
  certified by this accountant", not broken, and Act II's plans were chosen so that each verdict is the
  same under the classic and tighter RDP conversions and under PLD (tests/labs/test_v2_11.py holds the
  PLD bounds).
- Act II's pick was "which mechanism has an ε" (the only option with noise); it is now four DP-FedAvg plans.

Open choices: the RDP → (ε, δ) conversion defaults to the classic one (Mironov 2017, Prop. 3), which the
golden vectors use; a control switches to the tighter one (Balle et al. 2020). Δacc is the spec's labelled
heuristic (∝ z/K, 8 pp at K = 10³, z = 1). Act II's traffic is the context's model at 24 rounds/day.

Ledger (handbook/labs/v2_11.md §1, lower-case: K is ``k``): results k, rounds_per_day, model_params, compression,
fl_tb_per_day, ratio_vs_central, dp_clients, dp_z, dp_eps, dp_delta, acc_drop_pp; answers a1_predict (act1_prediction,
act1_correct), a2_predict (act2_decision); failures_active (constraint_hit).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_11_model import (CENTRAL, CONTEXT_MODEL, MODELS, PLANS, PRECISIONS, S, TEAM, Z_GRID,
                                           Deployment, Traffic, act1_truth, act1_facts, act2_answer, fl_day, no_amplification_epsilon, posterior, ratio, z_to_set)
from pylabs.physics import constants as C
from pylabs.physics import federated, privacy
from pylabs.physics import units as U
from pylabs.physics.references import REFERENCES, cite

DELTA = ch.power_label(S.delta)  # "10⁻⁹"
ORDER_RANGE = f"{fmt(privacy.ORDERS[0], 'int')}…{fmt(privacy.ORDERS[-1], 'int')}"  # the orders the accountant searches
R10 = fmt(S.reflect_compression, "x")
XU2023 = f"{REFERENCES['xu2023'].authors} {REFERENCES['xu2023'].year}"


def client_choice(name: str, label: str, default: float, help: str = "") -> Choice:
    return Choice(name, label, tuple(Option(f"{k:.0f}", fmt(k, "int")) for k in S.client_options),
                  default=f"{default:.0f}", unit="clients", help=help)


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Keyboard model", (
    Option("server", f"A server-class language model: {fmt(S.params, 'params')} parameters in bf16"),
    Option("gboard", f"Gboard's production CIFG model: {fmt(C.GBOARD_CIFG_PARAMS, 'params')} parameters in fp32"),
), default="server", help="Sets the model of Act I's instruments and of Act II's daily traffic.")


def terms(context: str) -> dict[str, str]:
    params, size = CONTEXT_MODEL[context]
    name = "the" if context == "server" else "Gboard's"
    precision = next(n for n, b in PRECISIONS.values() if b == size)
    return {"model": f"{name} {fmt(params, 'params')}-parameter {precision} model"}

# ---- Act I · The bandwidth paradox -------------------------------------------------

A1_CLIENTS = client_choice("a1_clients", "Clients per round, K", S.clients)
A1_ROUNDS = Slider("a1_rounds", "Rounds per day, R", unit="rounds/day", min=1, max=100, step=1,
                   default=S.rounds_per_day, fmt="int")
A1_PARAMS = Choice("a1_params", "Model parameters, P",
                   tuple(Option(k, fmt(v, "params") + (" (Gboard)" if k == "gboard" else "")) for k, v in MODELS.items()),
                   default="50m", widget="select", unit="params")
A1_BYTES = Choice("a1_bytes", "Bytes per parameter, b",
                  tuple(Option(k, f"{name} · {fmt(b, 'B')}") for k, (name, b) in PRECISIONS.items()),
                  default="2", unit="B")
A1_COMPRESSION = Slider("a1_compression", "Upload compression, r", unit="1", min=1, max=100, step=1,
                        default=S.compression, fmt="x",
                        help="Shrinks each client's update r-fold before it is sent (top-K, quantisation).")


def traffic(s: State) -> Traffic:
    return Traffic(float(s["a1_clients"]), s["a1_rounds"], MODELS[s["a1_params"]],
                   PRECISIONS[s["a1_bytes"]][1], s["a1_compression"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Each round sends {{model}} to {fmt(S.clients, 'int')} phones and collects their updates, "
           f"{fmt(S.rounds_per_day, 'int')} rounds a day. Collecting the raw text instead would upload "
           f"{fmt(S.raw_bytes_per_user_day, 'B')} per user per day from {fmt(S.users, 'int')} users. "
           "How do federated learning's daily bytes compare?",
    quantity="FL bytes per day ÷ centralised bytes per day",
    unit_fmt="x",
    options=(
        Range("A", "{range}: FL sends fewer bytes, as the text stays on the phone", None, 1.0, 0.3,
              "Keeping the text home does not make the traffic small: the model alone is {model_mb}, and "
              "{clients} phones take part in each round, against {raw} of text per user per day."),
        Range("B", "{range}: about the bytes of uploading the text itself", 1.0, 3.0, 1.5,
              "Per round the sampled phones move {round_bytes}; {rounds} rounds a day make {fl_day}, "
              "against {central} of text."),
        Range("C", "{range}: several to tens of times the text's bytes", 3.0, 30.0, 10.0,
              "{fl_day} a day against {central}: {round_bytes} per round for a {model_mb} model, {rounds} "
              "rounds a day."),
        Range("D", "{range}: dozens of times the text's bytes, or far more", 30.0, None, 100.0,
              "{fl_day} a day against {central}: a {model_mb} model sent to {clients} phones a round, "
              "{rounds} rounds a day."),
    ),
    truth=lambda context: act1_truth(context),
    shown_by="a1_ratio",
)


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The team compresses every upload {R10} (top-K sparsification plus int8). Daily traffic falls "
           "only to about half. Why so little?",
    options=(
        Claim("A", "Each phone in the round still pulls the whole model down, and that half is never shrunk.",
              "A round moves K·P·b·(1 + 1/r): the download K·P·b is {download_share} of the uncompressed "
              "total, so r = {r10} takes the ratio from {ratio_r1} only to {ratio_r10}, and no r gets below half. "
              "What cuts both halves is fewer rounds (FedAvg's local steps need {fedavg_low} to {fedavg_high} "
              "fewer rounds than synchronised SGD), fewer phones per round, or a smaller model."),
        Claim("B", "Compressed updates converge more slowly, so the same day needs extra rounds to keep up.",
              "That can happen in training, but here the rounds per day are fixed at {rounds}; the halving is "
              "arithmetic: {ratio_r1} becomes {ratio_r10}."),
        Claim("C", f"The top-K indices and int8 scales eat most of the gain, so uploads shrink far less than {R10}.",
              "The prompt's {r10}× is the upload's size after its indices and scales. Even an upload compressed "
              "to nothing leaves half the traffic: the ratio falls from {ratio_r1} to {ratio_r10}, not tenfold."),
        Claim("D", "The server relays each compressed update on to the other phones, undoing most of the saving.",
              "FedAvg phones never see each other's updates: the server averages them and sends back one new "
              "model, so traffic grows with K, not K², and {ratio_r1} becomes {ratio_r10} at r = {r10}."),
    ),
    answer_letter="A",
)

M = {m.name: m for m in (
    MetricSpec("a1_fl_bytes_day", "Federated traffic per day", "B", "B"),
    MetricSpec("a1_ratio", "FL bytes ÷ centralised bytes", "1", "x"),
    MetricSpec("a1_central_bytes_day", "Centralised text upload per day", "B", "B"),
    MetricSpec("a1_download_share", "Broadcast share of FL traffic", "1", "pct"),
    MetricSpec("a1_client_download_s", "Per-phone model download", "s", "s"),
    MetricSpec("a1_client_upload_s", "Per-phone update upload", "s", "s"),
    MetricSpec("a2_epsilon", "Privacy loss ε after all rounds (RDP bound)", "1", "num"),
    MetricSpec("a2_acc_drop", "Accuracy drop (heuristic)", "1", "pp"),
    MetricSpec("a2_fl_bytes_day", "Federated traffic per day", "B", "B"),
    MetricSpec("a2_mi_bound", "Best membership attack, at most", "1", "pct"),
    MetricSpec("a2_z_needed", "Noise multiplier for ε = target", "1", "num"),
    MetricSpec("a2_best_order", "Best Rényi order α", "1", "int"),
    MetricSpec("a2_eps_no_amp", "ε with no sampling amplification (RDP bound)", "1", "num"),
)}

RECORD_METRICS = (
    MetricSpec("k", "Act I · clients per round, K", "1", "int"), MetricSpec("model_params", "Act I · model parameters, P", "1", "params"),
    MetricSpec("rounds_per_day", "Act I · rounds per day, R", "1", "int"), MetricSpec("compression", "Act I · upload compression, r", "1", "x"),
    MetricSpec("fl_tb_per_day", "Act I · federated traffic per day (TB)", "TB", "sci"),
    MetricSpec("ratio_vs_central", "Act I · FL bytes ÷ centralised bytes", "1", "x"),
    MetricSpec("dp_clients", "Act II · clients per round, K", "1", "int"), MetricSpec("dp_z", "Act II · noise multiplier, z", "1", "num"),
    MetricSpec("dp_eps", "Act II · ε after all rounds (RDP bound)", "1", "num"), MetricSpec("dp_delta", "Act II · δ", "1", "sci"),
    MetricSpec("acc_drop_pp", "Act II · accuracy drop (pp, heuristic)", "pp", "num"),
)

FAILURES = (
    FailureSpec("a2_utility", "Utility floor broken: the noise costs more than the product allows", act=2,
                reach={}, leave={"a2_clients": "10000"}),
    FailureSpec("a2_privacy", "Privacy policy not certified: the accountant's ε is above the target", act=2,
                reach={"a2_clients": "10000"}, leave={"a2_z": 1.1}),
    FailureSpec("a2_bandwidth", "Over the network budget", act=2, severity="warn",
                reach={"a2_clients": "100000"}, leave={"a2_clients": "10000"}, contexts=("server",)),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    t = traffic(s)
    fl = t.per_day
    return [metric_grid(
        M["a1_fl_bytes_day"].show(fl, "danger" if fl > CENTRAL else "good"),
        M["a1_ratio"].show(ratio(fl), "danger" if fl > CENTRAL else "good"),
        M["a1_central_bytes_day"].show(CENTRAL, note=f"{fmt(S.users, 'int')} users × {fmt(S.raw_bytes_per_user_day, 'B')} [assumed]"),
        M["a1_download_share"].show(t.download_share),
        M["a1_client_download_s"].show(federated.client_download_s(t.params, t.bytes_per_param, S.downlink_bytes_per_s),
                                       note=f"at {fmt(S.downlink_bytes_per_s, 'B/s')} [assumed]"),
        M["a1_client_upload_s"].show(federated.client_upload_s(t.params, t.bytes_per_param, t.compression,
                                                               S.uplink_bytes_per_s),
                                     note=f"at {fmt(S.uplink_bytes_per_s, 'B/s')} [assumed]"),
    ), act1_chart(t)]


def act1_chart(t: Traffic):
    ks = list(S.client_options)
    plain = [fl_day(k, t.params, t.bytes_per_param, t.rounds, 1.0) for k in ks]
    yours = [fl_day(k, t.params, t.bytes_per_param, t.rounds, t.compression) for k in ks]
    traces = [ch.line("Centralised text upload", ks, [CENTRAL] * len(ks), "good", dash="dash"),
              ch.line("FL, uploads uncompressed", ks, plain, "series2", markers=True)]
    if t.compression > 1:
        traces.append(ch.line(f"FL, uploads {fmt(t.compression, 'x')} smaller", ks, yours, "series1", markers=True))
    traces.append(ch.point("Your setting", t.clients, t.per_day, "accent"))
    figure = ch.figure(traces, x=ch.axis("Clients per round, K", "log", **ch.decade_ticks(ks)),
                       y=ch.axis("Bytes per day", "log", **ch.decade_ticks(plain + yours + [CENTRAL],
                                                                            lambda v: fmt(v, "B"))))
    summary = (f"With {fmt(t.params, 'params')} parameters at {fmt(t.bytes_per_param, 'B')} each and "
               f"{plural(t.rounds, 'round', count_fmt='int')} a day, {fmt(t.clients, 'int')} clients per round move "
               f"{fmt(t.per_day, 'B')} a day, {fmt(ratio(t.per_day), 'x')} the {fmt(CENTRAL, 'B')} of raw text.")
    rows = [(fmt(k, "int"), fmt(a, "B"), fmt(b, "B"), fmt(ratio(b), "x")) for k, a, b in zip(ks, plain, yours)]
    return chart("a1_traffic", "Daily traffic against clients per round", figure, summary,
                 table=(("Clients per round", "FL, r = 1", f"FL, r = {fmt(t.compression, 'num')}", "÷ centralised"), rows))


def act1_math(s: State):
    t = traffic(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"B_{\text{FL}} = R\cdot K\cdot P\cdot b\,\left(1 + \frac{1}{r}\right)",
                 "*R* rounds a day, *K* phones per round, *P* parameters of *b* bytes, compression *r*."),
        Equation(r"B_{\text{central}} = N\cdot d", "*N* users upload *d* bytes of raw text a day, once."),
        Equation(r"\frac{B_{\text{FL}}}{B_{\text{central}}} = \frac{R\,K\,P\,b\,(1 + 1/r)}{N\,d}",
                 "Model size and participation on top, raw data per user below."),
    ), rows=(
        ("Model, *P·b*", fmt(federated.model_bytes(t.params, t.bytes_per_param), "B")),
        ("Per round, *K·P·b(1 + 1/r)*", fmt(federated.round_bytes(t.clients, t.params, t.bytes_per_param, t.compression), "B")),
        ("FL per day", fmt(t.per_day, "B")),
        ("Centralised per day, *N·d*", fmt(CENTRAL, "B")),
        ("Ratio", fmt(ratio(t.per_day), "x")),
    ), sources=(
        cite("mcmahan2017", "FedAvg: broadcast the model, average client updates; "
                            f"{fmt(C.FEDAVG_ROUND_REDUCTION_LOW, 'num')}–{fmt(C.FEDAVG_ROUND_REDUCTION_HIGH, 'x')} "
                            "fewer rounds than FedSGD"),
        cite("hard2018", f"Gboard's CIFG next-word model, {fmt(C.GBOARD_CIFG_PARAMS, 'params')} parameters, "
                         "trained with FedAvg"),
        "Raw text per user per day and the phones' link speeds are scenario assumptions, marked [assumed].",
    ))


ACT1 = Act(
    number=1, title="The Bandwidth Paradox", minutes="12–15 min",
    stakeholder_role="Keyboard Product Lead",
    stakeholder=lambda context: (
        f"Legal wants users' typing to stay on their phones, so we will train our "
        f"{fmt(CONTEXT_MODEL[context][0], 'params')}-parameter next-word model with federated learning across "
        f"{fmt(S.users, 'int')} phones. The network team asks one question before they sign off: how much "
        "more, or less, traffic is this than just uploading the text we need?"),
    scenario=lambda: (
        "In **federated averaging** the server picks *K* phones per round, sends each the current model, "
        "lets each train on its own text, and averages the updates they send back.",
        "The alternative is the old way: every user uploads the few kilobytes they typed, and training "
        "happens in the data centre.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_CLIENTS, A1_ROUNDS, A1_PARAMS, A1_BYTES, A1_COMPRESSION),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Traffic calculator",
)

# ---- Act II · The privacy budget -------------------------------------------------

A2_CLIENTS = client_choice("a2_clients", "Clients per round, K", S.team_clients,
                           help="Sampling rate q = K / N; the noise on the average shrinks as 1/K.")
A2_Z = Slider("a2_z", "Noise multiplier, z", unit="1", min=0.5, max=3.0, step=0.01, default=S.team_z, fmt="num",
              help="Noise standard deviation ÷ clipping norm of each client's update.")
A2_CONVERSION = Choice("a2_conversion", "RDP → (ε, δ) conversion", (
    Option("classic", f"{privacy.CONVERSION_NAMES['classic']}, the classic bound"),
    Option("tight", f"{privacy.CONVERSION_NAMES['tight']}, the tighter bound"),
), default="classic", help="Both are valid upper bounds; the tighter one is what TF-Privacy reports today.")


def deployment(s: State) -> Deployment:
    return Deployment(float(s["a2_clients"]), s["a2_z"], s["a2_conversion"])


def act2_bytes(s: State, clients: float) -> float:  # the context's model, 24 rounds a day, uncompressed
    return fl_day(clients, *CONTEXT_MODEL[s["context"]])


def plan_text(letter: str) -> str:
    d = PLANS[letter]
    return f"{fmt(d.clients, 'int')} phones per round, noise multiplier z = {fmt(d.z, 'num')}"


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"Policy: user-level ε ≤ {fmt(S.eps_target, 'num')} at δ = {DELTA} over {fmt(S.rounds_total, 'int')} "
           f"rounds, and at most {fmt(S.acc_limit, 'pp')} of accuracy lost. Each phone joins each round "
           f"independently at random, with probability K/{fmt(S.users, 'int')}, in secret. Take the accuracy loss to scale as z/K from the "
           f"trial's {fmt(S.acc_anchor, 'pp')} [heuristic]. Which DP-FedAvg plan meets both limits?",
    quantity="the plan that meets the ε and accuracy limits",
    options=tuple(Claim(letter, plan_text(letter), feedback) for letter, feedback in (
        ("A", "By the accountant ε = {A_eps} (the tighter conversion: {A_tight}), well within the policy; but "
              "three times the trial's noise on the same number of phones costs {A_acc} of accuracy, over the "
              "{acc_limit} limit."),
        ("B", "ε = {B_eps} ({B_tight} by the tighter conversion) and {B_acc} of accuracy: both limits hold. Ten "
              "times the trial's phones cut the noise on the average tenfold, so z can rise by half, which "
              "lowers ε even though each phone is sampled ten times as often."),
        ("C", "{C_acc} of accuracy, but ε = {C_eps} ({C_tight} by the tighter conversion): at so little noise "
              "each round's privacy loss is large, and sampling cannot save it."),
        ("D", "{D_acc} of accuracy, but ε = {D_eps} ({D_tight} by the tighter conversion): with a hundredth of "
              "the users in every round, sampling amplifies little, and even z = {D_z} is not enough."),
    )),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    plans = {}
    for letter, d in PLANS.items():
        plans |= {f"{letter}_eps": fmt(d.epsilon, "num"), f"{letter}_acc": fmt(d.acc_drop, "pp"),
                  f"{letter}_tight": fmt(Deployment(d.clients, d.z, "tight").epsilon, "num"),
                  f"{letter}_z": fmt(d.z, "num")}
    mi = privacy.membership_advantage_bound(S.eps_target, S.delta)
    return {**plans, "acc_limit": fmt(S.acc_limit, "pp"), "rounds": fmt(S.rounds_total, "int"),
            "mi_target": fmt(mi, "pct"), "e_eps": fmt(math.exp(S.eps_target), "num"),
            "eps_target": fmt(S.eps_target, "num"), "delta": DELTA, "prior": fmt(S.informed_prior, "pct"),
            "posterior": fmt(posterior(S.informed_prior, S.eps_target, S.delta), "pct"),
            "eps_short": fmt(privacy.epsilon(TEAM.q, TEAM.z, S.rounds_total / 10, S.delta), "num"),
            "eps_long": fmt(privacy.epsilon(TEAM.q, TEAM.z, S.rounds_total * 10, S.delta), "num"),
            "short": fmt(S.rounds_total / 10, "int"), "long": fmt(S.rounds_total * 10, "int"),
            "no_amp": fmt(no_amplification_epsilon(S.team_z), "num")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The release note will say the model was trained with user-level (ε = {fmt(S.eps_target, 'num')}, "
           f"δ = {DELTA}) differential privacy. What does that promise one user?",
    options=(
        Claim("A", "Whatever an attacker already knows, it guesses whether I took part right at most "
                   f"{fmt(privacy.membership_advantage_bound(S.eps_target, S.delta), 'pct')} of the time.",
              "{mi_target} is the cap for an attacker who starts at 50/50. One already {prior} sure can reach "
              "{posterior}: DP bounds how far my data moves a belief, not where the belief starts."),
        Claim("B", f"At most {fmt(S.eps_target, 'num')} % of users, about one in a hundred, could be singled "
                   "out from the trained model.",
              "ε is not a share of users: it bounds how much any one user's data can shift the outcome, for "
              "every user at once. At ε = {eps_target} an attack with a 50/50 start is right up to {mi_target}."),
        Claim("C", f"My typing makes any training outcome at most e^ε ≈ {fmt(math.exp(S.eps_target), 'num')} "
                   "times likelier, or less likely, plus δ.",
              "That is the definition: e^ε = {e_eps} bounds the odds ratio, whatever the attacker knows, so an "
              "attack from a 50/50 start is right at most {mi_target}: a bounded risk, not anonymity."),
        Claim("D", f"Each of the {fmt(S.rounds_total, 'int')} rounds spends ε = {fmt(S.eps_target, 'num')}, so "
                   "the run as a whole spends ε in the thousands.",
              "The accountant already composes every round: ε = {eps_target} is the total. Composition does "
              "raise it, slowly when each round samples few users: {eps_short} after {short} rounds, {eps_long} "
              "after {long}. With no sampling amplification its RDP bound would be {no_amp}."),
    ),
    answer_letter="C",
)


def act2_instruments(s: State) -> list:
    d = deployment(s)
    eps, acc, day = d.epsilon, d.acc_drop, act2_bytes(s, d.clients)
    no_amp = no_amplification_epsilon(d.z, d.conversion)
    parts = [metric_grid(
        M["a2_epsilon"].show(eps, "danger" if eps > S.eps_target else "good",
                             f"target ≤ {fmt(S.eps_target, 'num')}; "
                             f"{privacy.CONVERSION_NAMES[d.conversion]} conversion"),
        M["a2_acc_drop"].show(acc, "danger" if acc > S.acc_limit else "good",
                              f"limit {fmt(S.acc_limit, 'pp')}" + ("" if acc < 1 else
                                                                   "; over 100 pp, the z/K heuristic is past its range")),
        M["a2_fl_bytes_day"].show(day, "warn" if day > S.daily_budget_bytes else None,
                                  f"budget {fmt(S.daily_budget_bytes, 'B')}; the context's model, "
                                  f"{plural(S.rounds_per_day, 'round', count_fmt='int')} a day, uploads uncompressed"),
        M["a2_mi_bound"].show(privacy.membership_advantage_bound(eps, S.delta), note="50/50 prior; chance is 50 %"),
        M["a2_z_needed"].show(d.z_needed, note=f"at K = {fmt(d.clients, 'int')}" + (
            f"; beyond this slider's {fmt(A2_Z.max, 'num')}" if d.z_needed > A2_Z.max else "")),
        M["a2_best_order"].show(d.best_order),
        M["a2_eps_no_amp"].show(no_amp, "danger" if no_amp > S.eps_target else "good",
                                "if one user could be in every round (q = 1)"),
    )]
    parts += act2_failures(d, day)
    parts += [act2_chart(d), act2_tradeoff_chart(s, d)]
    return parts


def act2_failures(d: Deployment, day: float) -> list:
    parts = []
    if d.acc_drop > S.acc_limit:
        parts.append(failure(F["a2_utility"], acc_text(d.acc_drop) + " " + utility_levers(d)))
    if d.epsilon > S.eps_target:
        parts.append(failure(F["a2_privacy"], f"This accountant bounds ε by {fmt(d.epsilon, 'num')} over "
                             f"{fmt(S.rounds_total, 'int')} rounds, above the policy's {fmt(S.eps_target, 'num')}, "
                             "so it cannot certify the run. " + privacy_levers(d)))
    if day > S.daily_budget_bytes:
        parts.append(failure(F["a2_bandwidth"], f"{fmt(d.clients, 'int')} clients per round move {fmt(day, 'B')} "
                             f"a day, over the {fmt(S.daily_budget_bytes, 'B')} budget. Sample fewer clients per round."))
    return parts


def acc_text(acc: float) -> str:
    """The utility failure's first sentence; past 100 pp (K = 100, z = 3: 240) the heuristic has left its range."""
    if acc < 1:
        return f"The noise on the averaged update costs {fmt(acc, 'pp')} of accuracy, over the {fmt(S.acc_limit, 'pp')} limit."
    return (f"The z/K heuristic puts the noise's cost at {fmt(acc, 'pp')}, more than all the accuracy a model has: "
            f"far past its range and the {fmt(S.acc_limit, 'pp')} limit.")


def utility_levers(d: Deployment) -> str:
    """Only the levers that can still move, each able to clear the limit alone."""
    levers = [text for text, ok in (
        ("average more clients per round", Deployment(S.client_options[-1], d.z).acc_drop <= S.acc_limit),
        ("lower z (which raises ε)", d.z > A2_Z.min and Deployment(d.clients, A2_Z.min).acc_drop <= S.acc_limit)) if ok]
    text = " or ".join(levers)
    return f"{text[:1].upper()}{text[1:]}." if text else ""


def privacy_levers(d: Deployment) -> str:
    """Only levers that clear ε alone from this state; if none does, both together."""
    z_set = z_to_set(d, A2_Z.step)
    fewer = d.clients > S.client_options[0] and Deployment(S.client_options[0], d.z, d.conversion).epsilon <= S.eps_target
    if z_set <= A2_Z.max:
        return f"Raise z to at least {fmt(z_set, 'num')}" + (", or sample fewer clients per round." if fewer else ".")
    top = f"Even z = {fmt(A2_Z.max, 'num')}, this slider's top, leaves ε = {fmt(Deployment(d.clients, A2_Z.max, d.conversion).epsilon, 'num')}"
    return f"{top}: sample fewer clients per round." if fewer else f"{top}: raise z and sample fewer clients together."


def act2_chart(d: Deployment):
    shown = sorted(set(S.curve_clients) | {d.clients})
    colours = dict(zip(shown, ("series1", "series2", "series3", "series4")))
    traces = [ch.line(f"K = {fmt(k, 'int')}", Z_GRID, [Deployment(k, z, d.conversion).epsilon for z in Z_GRID],
                      colours[k]) for k in shown]
    traces.append(ch.point("Your setting", d.z, d.epsilon, "accent"))
    target_line, target_note = ch.hline(S.eps_target, "danger", "policy ε", log=True)
    figure = ch.figure(traces, x=ch.axis("Noise multiplier z"), y=ch.axis("ε after all rounds", "log", dtick=1),
                       shapes=[target_line], annotations=[target_note])
    summary = (f"ε falls as z grows and rises with K: at z = {fmt(d.z, 'num')} and K = {fmt(d.clients, 'int')} "
               f"it is {fmt(d.epsilon, 'num')} ({privacy.CONVERSION_NAMES[d.conversion]} conversion); reaching "
               f"ε = {fmt(S.eps_target, 'num')} needs z ≈ {fmt(d.z_needed, 'num')} "
               + (f"({fmt(z_to_set(d, A2_Z.step), 'num')} on the slider)." if z_to_set(d, A2_Z.step) <= A2_Z.max
                  else f"(beyond the slider's {fmt(A2_Z.max, 'num')})."))
    rows = [(fmt(z, "num"), *(fmt(Deployment(k, z, d.conversion).epsilon, "num") for k in shown)) for z in Z_GRID]
    return chart("a2_epsilon", "Privacy loss against noise, per clients per round", figure, summary,
                 table=(("z", *(f"ε at K = {fmt(k, 'int')}" for k in shown)), rows))


def act2_tradeoff_chart(s: State, d: Deployment):
    ks = list(S.client_options)
    options = [Deployment(k, d.z, d.conversion) for k in ks]
    names = [f"K = {ch.power_label(k)}" for k in ks]
    ok = ["good" if o.epsilon <= S.eps_target and o.acc_drop <= S.acc_limit else "danger" for o in options]
    limit_line, limit_note = ch.hline(S.acc_limit * U.PERCENT, "danger", "limit", log=True)
    figure = ch.figure([ch.bars("Accuracy drop", names, [o.acc_drop * U.PERCENT for o in options], ok,
                                text=[f"ε {fmt(o.epsilon, 'num')}" for o in options])],
                       x=ch.axis("", "category"), y=ch.axis("Accuracy drop (pp)", "log", dtick=1),
                       shapes=[limit_line], annotations=[limit_note], legend=False)
    passing = [fmt(k, "int") for k, c in zip(ks, ok) if c == "good"]
    summary = (f"At z = {fmt(d.z, 'num')}, " + (f"K = {', '.join(passing)} meets both the ε and accuracy limits"
               if passing else "no K meets both the ε and the accuracy limits") +
               "; more clients per round cut the accuracy drop but raise ε and the daily traffic.")
    rows = [(fmt(k, "int"), fmt(o.epsilon, "num"), fmt(o.acc_drop, "pp") + ("" if o.acc_drop < 1 else " (past the heuristic's range)"),
             fmt(act2_bytes(s, k), "B")) for o, k in zip(options, ks)]
    return chart("a2_tradeoff", "The trade-off at your z: accuracy, ε and traffic by K", figure, summary,
                 table=(("Clients per round", "ε", "Accuracy drop", "FL per day"), rows))


def act2_math(s: State):
    d = deployment(s)
    conversion = (r"\varepsilon = \min_{\alpha}\Big[T\,\varepsilon_{\text{RDP}}(\alpha) + \frac{\ln(1/\delta)}{\alpha-1}\Big]"
                  if d.conversion == "classic" else
                  r"\varepsilon = \min_{\alpha}\Big[T\,\varepsilon_{\text{RDP}}(\alpha) + \ln\frac{\alpha-1}{\alpha}"
                  r" - \frac{\ln\delta + \ln\alpha}{\alpha-1}\Big]")
    return math_peek("The governing equations · Act II", (
        Equation(r"\varepsilon_{\text{RDP}}(\alpha) = \frac{1}{\alpha-1}\ln\sum_{k=0}^{\alpha}\binom{\alpha}{k}"
                 r"(1-q)^{\alpha-k}q^{k}\,e^{(k^2-k)/(2z^2)}",
                 "Rényi DP of one round of the subsampled Gaussian mechanism at integer order α, with q = K/N "
                 "(each phone joins each round independently with probability q, the draw secret: Poisson "
                 "sampling, as in DP-FedAvg); "
                 f"computed in log space (log-sum-exp) for α = {ORDER_RANGE}."),
        Equation(conversion, f"Compose *T* rounds (RDP adds) and convert to (ε, δ): this page uses the "
                             f"**{privacy.CONVERSION_NAMES[d.conversion]}** conversion."),
        Equation(r"\Pr[\text{attack right}] \le \frac{e^{\varepsilon} + \delta}{1 + e^{\varepsilon}}",
                 "The best membership-inference accuracy with a 50/50 prior, from the (ε, δ) hypothesis-testing region."),
        Equation(rf"\Delta\text{{acc}} = {S.acc_anchor * U.PERCENT:g}\,\text{{pp}}\cdot"
                 rf"\frac{{z/K}}{{{S.team_z:g}/{S.team_clients:g}}}",
                 f"A labelled heuristic, not a measurement: the noise on the averaged update scales as z/K, "
                 f"anchored at the team's observed {fmt(S.acc_anchor, 'pp')} for K = {fmt(S.team_clients, 'int')}, "
                 f"z = {fmt(S.team_z, 'num')}."),
    ), rows=(
        ("Sampling rate, *q = K/N*", fmt(d.q, "sci")),
        ("Rounds, *T*; *δ*", f"{fmt(S.rounds_total, 'int')}; {DELTA}"),
        ("Best order, *α*", fmt(d.best_order, "int")),
        ("ε, this conversion", fmt(d.epsilon, "num")),
        ("ε, the other conversion", fmt(Deployment(d.clients, d.z, "tight" if d.conversion == "classic" else "classic").epsilon, "num")),
        ("ε with no amplification, *q = 1*", fmt(no_amplification_epsilon(d.z, d.conversion), "num")),
    ), sources=(
        cite("mironov2017", "RDP composition and the classic conversion, Prop. 3"),
        cite("mironov2019", "RDP of the sampled Gaussian mechanism at integer orders"),
        cite("balle2020", "the tighter RDP → (ε, δ) conversion"),
        cite("abadi2016", "DP-SGD and the moments accountant"),
        cite("mcmahan2018", "user-level DP-FedAvg with q = K/N"),
        cite("xu2023", "Gboard's DP language models: DP-FTRL, with no uniform sampling and so no amplification"),
        cite("kairouz2015", "the (ε, δ) hypothesis-testing region behind the attack bound"),
        cite("tf_privacy", "the MNIST tutorial's ε = 3.01 and the accountant's test values, reproduced by this page's code"),
    ))


ACT2 = Act(
    number=2, title="The Privacy Budget", minutes="15–20 min",
    stakeholder_role="Privacy Counsel",
    stakeholder=lambda: (
        f"Our policy needs a formal guarantee: user-level (ε, δ)-DP with ε ≤ {fmt(S.eps_target, 'num')} over the "
        f"whole {fmt(S.rounds_total, 'int')}-round training run. Engineering says the text never leaves the "
        f"phone, so we are covered. Their DP trial, {fmt(S.team_clients, 'int')} clients per round with noise "
        f"z = {fmt(S.team_z, 'num')}, lost {fmt(S.acc_anchor, 'pp')} of accuracy. What can we certify, and at what cost?"),
    scenario=lambda: (
        "**DP-FedAvg** clips each phone's update to a fixed norm, sums the updates of the round, and adds "
        "Gaussian noise *z* times that norm. The accountant credits **amplification by sampling** only if "
        "each of the *N* phones joins each round independently at random, with probability *q = K/N*, and the "
        "draw stays secret. Phones that "
        "join when idle and on Wi-Fi are no such draw: Gboard's production DP models use DP-FTRL and claim no "
        f"amplification ({XU2023}).",
        "An **accountant** adds up the privacy loss of every round in Rényi DP and converts the total to "
        f"(ε, δ), an upper bound: a numerical accountant (PLD, PRV) can prove a smaller ε. This page uses the "
        f"classic conversion of {privacy.CONVERSION_NAMES['classic']} by default; a control switches to the "
        f"tighter one of {privacy.CONVERSION_NAMES['tight']}. δ = {DELTA} is a tenth of 1/N for "
        f"{fmt(S.users, 'int')} users.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_CLIENTS, A2_Z, A2_CONVERSION),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="DP-FedAvg planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    d = deployment(s)
    active = {"a2_utility": d.acc_drop > S.acc_limit, "a2_privacy": d.epsilon > S.eps_target,
              "a2_bandwidth": act2_bytes(s, d.clients) > S.daily_budget_bytes}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    t, d = traffic(s), deployment(s)
    return {"k": t.clients, "rounds_per_day": t.rounds, "model_params": t.params, "compression": t.compression,
            "fl_tb_per_day": t.per_day / U.B_PER_TB, "ratio_vs_central": ratio(t.per_day),
            "dp_clients": d.clients, "dp_z": d.z, "dp_eps": d.epsilon, "dp_delta": S.delta,
            "acc_drop_pp": d.acc_drop * U.PERCENT}


def lab_takeaways(context: str) -> list[str]:
    f, g = act1_facts(context), act2_facts()
    key = PLANS[act2_answer()]
    model = terms(context)["model"]
    return [
        f"Federated learning moves the model, not the data: with {model} and {f['clients']} clients per round "
        f"it moves {f['ratio_r1']} the bytes of uploading the text.",
        f"Compressing uploads {R10} gives {f['ratio_r10']}: the download half is untouched. Fewer rounds, "
        "fewer clients or a smaller model cut both halves.",
        "Keeping data on the phone is not a privacy guarantee; clipping, noise and an accountant over every "
        "round are, and the accountant's credit for sampling holds only for a random, secret draw "
        f"(Gboard's DP models claim none; at z = {fmt(S.team_z, 'num')} the RDP bound for a user in every round is ε = {g['no_amp']}).",
        f"More clients per round let the noise rise: {fmt(key.clients, 'int')} clients with z = {fmt(key.z, 'num')} "
        f"meet ε ≤ {fmt(S.eps_target, 'num')} with a {fmt(key.acc_drop, 'pp')} drop, where the trial's "
        f"{fmt(S.team_clients, 'int')} lost {fmt(TEAM.acc_drop, 'pp')}; the price is traffic.",
        f"At ε = {fmt(S.eps_target, 'num')} the odds ratio is at most e^ε = {g['e_eps']}: an attack from a 50/50 start "
        f"is right up to {g['mi_target']}. Say which accountant produced an ε: at {fmt(S.clients, 'int')} clients and "
        f"z = {fmt(S.team_z, 'num')} the classic RDP conversion gives {fmt(Deployment(S.clients, S.team_z).epsilon, 'num')}, "
        f"the tighter one {fmt(Deployment(S.clients, S.team_z, 'tight').epsilon, 'num')}, and a numerical accountant less.",
    ]


LAB = Lab(
    id="v2_11", volume=2, number=11, title="The Federation Paradox",
    invariant="Federated learning moves **models, not data**: for big models and small data it costs more "
              "bandwidth, and only **noise plus an accountant**, not federation, gives a formal privacy bound.",
    minutes="30–35 min", chapter="On-device Learning and Privacy", url="vol2/11-federation-paradox/",
    description="Why federated learning can move far more bytes than collecting the data, and why only noise plus a "
                "privacy accountant, not federation, gives a formal guarantee.",
    reading=(
        "**Federated averaging**: rounds, client sampling, broadcast and aggregation.",
        "**Communication-efficient FL**: local steps, update compression, and what each one saves.",
        "**Differential privacy for training**: clipping, Gaussian noise, subsampling and accounting.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    record_metrics=RECORD_METRICS,
    terms=terms,
    hook="A keyboard team wants to learn from a hundred million phones' typing without collecting it. What "
         "would federated learning cost the network, next to uploading the text, and what would it take to "
         "promise each user privacy?",
    connections=(
        "**V2-13 The Privacy Measurement Gap**: the same accountant, and what membership attacks measure in practice.",
        "**V2-17 Constraints Never Lie**: privacy as one of the constraints a production design must meet.",
        "**V2-02 The Interconnect Wall**: the same bytes-per-round arithmetic, inside a data centre.",
    ),
    presets={"context": {"server": {"a1_params": "50m", "a1_bytes": "2"},
                         "gboard": {"a1_params": "gboard", "a1_bytes": "4"}}},
)
