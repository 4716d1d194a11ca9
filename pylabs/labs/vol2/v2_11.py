"""Lab V2-11 · The Federation Paradox.

Core invariant: federated learning moves models, not data: each round every sampled client
downloads the model and uploads an update, K·P·b·(1 + 1/r) bytes, so for a big model and little
raw data per user FL moves far *more* bytes than collecting the data; and only clipping, noise and
an accountant over every round, not federation, bound (ε, δ).

Act I: 100 M phones, a 50 M-parameter bf16 model, K = 10⁴, 24 rounds a day, 5 KB of text per user
per day: FL moves 96× the bytes (upstream: "~1,000×", computing 429,497×); 10× upload compression
gives 52.8×; Gboard's 1.4 M model (the context) 5.4×. Act II: DP-FedAvg, q = K/N, T = 2,000,
δ = 1e-9, ε ≤ 1: only DP certifies; the team's K = 10³, z = 1 gives ε = 0.943 but costs 8 pp.

Choices the spec left open, and why: the RDP → (ε, δ) conversion defaults to the classic one
(Mironov 2017, Prop. 3), which the golden vectors and TF-Privacy's MNIST figure (3.01) use and a
student can check by hand; a control switches to the tighter one TF-Privacy reports today (Balle
et al. 2020), so the page names its conversion and shows it matters (K = 10⁴, z = 1: 1.22 vs 0.99).
K and model size are option lists (four decades; golden rows sit on powers of ten). Δacc is the
spec's labelled heuristic (∝ z/K, 8 pp at K = 10³, z = 1). Act II's traffic uses the context's
model at 24 rounds/day, uncompressed, so Act II never reads Act I's instruments.

Ledger (spec §3; ledger names are lower-case, so K is ``k``, fl_TB_per_day ``fl_tb_per_day``):
results k, rounds_per_day, model_params, compression, fl_tb_per_day, ratio_vs_central, dp_clients,
dp_z, dp_eps, dp_delta, acc_drop_pp; answers a1_predict (act1_prediction, act1_correct) and
a2_predict (act2_decision); failures_active (constraint_hit).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_11_model import (CENTRAL, CONTEXT_MODEL, MODELS, PRECISIONS, S, SCENARIO_TRAFFIC, TEAM,
                                           Z_GRID, Deployment, Traffic, act1_truth, act2_answer, fl_day, ratio)
from pylabs.physics import constants as C
from pylabs.physics import federated, privacy
from pylabs.physics.references import cite

DELTA = ch.power_label(S.delta)  # "10⁻⁹"
ORDER_RANGE = f"{fmt(privacy.ORDERS[0], 'int')}…{fmt(privacy.ORDERS[-1], 'int')}"  # the orders the accountant searches
R10 = fmt(S.reflect_compression, "x")


def client_choice(name: str, label: str, default: float, help: str = "") -> Choice:
    return Choice(name, label, tuple(Option(f"{k:.0f}", fmt(k, "int")) for k in S.client_options),
                  default=f"{default:.0f}", unit="clients", help=help)


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Keyboard model", (
    Option("server", f"A server-class language model: {fmt(S.params, 'params')} parameters in bf16"),
    Option("gboard", f"Gboard's production CIFG model: {fmt(C.GBOARD_CIFG_PARAMS, 'params')} parameters in fp32"),
), default="server", help="Sets the model of Act I's instruments and of Act II's daily traffic.")

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
                        help="Shrinks each client's upload r-fold (top-K, quantisation); the broadcast is not compressed.")


def traffic(s: State) -> Traffic:
    return Traffic(float(s["a1_clients"]), s["a1_rounds"], MODELS[s["a1_params"]],
                   PRECISIONS[s["a1_bytes"]][1], s["a1_compression"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Each round sends the {fmt(S.params, 'params')}-parameter bf16 model to {fmt(S.clients, 'int')} phones "
           f"and collects their updates, {fmt(S.rounds_per_day, 'int')} rounds a day. Collecting the raw text "
           f"instead would upload {fmt(S.raw_bytes_per_user_day, 'B')} per user per day from "
           f"{fmt(S.users, 'int')} users. How do federated learning's daily bytes compare?",
    quantity="FL bytes per day ÷ centralised bytes per day",
    unit_fmt="x",
    options=(
        Range("A", "{range}: FL moves less, since only small updates leave the phone", None, 0.5, 0.1,
              "An update is as large as the model it updates, and every participant also downloads that model."),
        Range("B", "{range}: about the same order as collecting the text", 0.5, 10.0, 1.0,
              "That holds for a small model (see the Gboard context); a model of tens of millions of "
              "parameters is megabytes per client per round."),
        Range("C", "{range}: tens to hundreds of times more", 10.0, 1000.0, 100.0,
              "Text is tiny; models are not. Every round moves the model twice per client."),
        Range("D", "{range}: thousands of times more", 1000.0, None, 3000.0,
              f"That is the size of the upstream lab's {fmt(MODELS['1b'], 'params')}-parameter model with "
              f"{fmt(S.client_options[-1], 'int')} clients per round; real rounds sample thousands of phones."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    r10 = Traffic(S.clients, S.rounds_per_day, S.params, C.BYTES_PER_BF16, S.reflect_compression)
    gboard = Traffic(S.clients, S.rounds_per_day, C.GBOARD_CIFG_PARAMS, C.BYTES_PER_FP32, 1.0)
    return {"ratio_r1": fmt(act1_truth(), "x"), "r10": fmt(S.reflect_compression, "num"), "ratio_r10": fmt(ratio(r10.per_day), "x"),
            "download_share": fmt(SCENARIO_TRAFFIC.download_share, "pct"),
            "fedavg_low": fmt(C.FEDAVG_ROUND_REDUCTION_LOW, "x"), "fedavg_high": fmt(C.FEDAVG_ROUND_REDUCTION_HIGH, "x"),
            "gboard_params": fmt(C.GBOARD_CIFG_PARAMS, "params"), "gboard_ratio": fmt(ratio(gboard.per_day), "x")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The team compresses every upload {R10} (top-K sparsification plus int8). Daily traffic falls "
           "only to about half. Why so little?",
    options=(
        Claim("A", "Compressed updates converge more slowly, so the team must run more rounds.",
              "That can happen in practice, but here the rounds per day are fixed; the halving is pure "
              "arithmetic."),
        Claim("B", "Every sampled phone also downloads the full model each round; compression shrinks only "
                   "the upload half.",
              "A round moves K·P·b·(1 + 1/r): the broadcast K·P·b is {download_share} of the uncompressed "
              "total, so r = {r10} takes the ratio from {ratio_r1} only to {ratio_r10}. What cuts both halves is "
              "fewer rounds (FedAvg's local steps need {fedavg_low} to {fedavg_high} fewer rounds than "
              "synchronised SGD), fewer clients, or a smaller model: Gboard's {gboard_params} model moves "
              "{gboard_ratio} the text."),
        Claim("C", "Phone networks already compress traffic, so a second compression gains nothing.",
              "Model updates are dense floating-point numbers that generic link compression barely shrinks; "
              "the bytes in the formula are the bytes on the air."),
        Claim("D", "The server must forward each client's compressed update to every other client.",
              "FedAvg clients never see each other's updates: the server averages them and broadcasts the "
              "new model, which is the uncompressed half."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_fl_bytes_day", "Federated traffic per day", "B", "B"),
    MetricSpec("a1_ratio", "FL bytes ÷ centralised bytes", "1", "x"),
    MetricSpec("a1_central_bytes_day", "Centralised text upload per day", "B", "B"),
    MetricSpec("a1_download_share", "Broadcast share of FL traffic", "1", "pct"),
    MetricSpec("a1_client_download_s", "Per-phone model download", "s", "s"),
    MetricSpec("a1_client_upload_s", "Per-phone update upload", "s", "s"),
    MetricSpec("a2_epsilon", "Privacy loss ε after all rounds", "1", "num"),
    MetricSpec("a2_acc_drop", "Accuracy drop (heuristic)", "1", "pp"),
    MetricSpec("a2_fl_bytes_day", "Federated traffic per day", "B", "B"),
    MetricSpec("a2_mi_bound", "Best membership attack, at most", "1", "pct"),
    MetricSpec("a2_z_needed", "Noise multiplier for ε = target", "1", "num"),
    MetricSpec("a2_best_order", "Best Rényi order α", "1", "int"),
)}

FAILURES = (
    FailureSpec("a2_utility", "Utility floor broken: the noise costs more than the product allows", act=2),
    FailureSpec("a2_privacy", "Privacy policy broken: ε is above the target", act=2),
    FailureSpec("a2_bandwidth", "Over the network budget", act=2, severity="warn"),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    t = traffic(s)
    fl = t.per_day
    return [metric_grid(
        M["a1_fl_bytes_day"].show(fl, "danger" if fl > CENTRAL else "good"),
        M["a1_ratio"].show(ratio(fl), "danger" if fl > CENTRAL else "good"),
        M["a1_central_bytes_day"].show(CENTRAL, note=f"{fmt(S.users, 'int')} users × {fmt(S.raw_bytes_per_user_day, 'B')} [assumed]"),
        M["a1_download_share"].show(t.download_share, note="untouched by upload compression"),
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
               f"{fmt(t.rounds, 'int')} rounds a day, {fmt(t.clients, 'int')} clients per round move "
               f"{fmt(t.per_day, 'B')} a day, {fmt(ratio(t.per_day), 'x')} the {fmt(CENTRAL, 'B')} of raw text.")
    rows = [(fmt(k, "int"), fmt(a, "B"), fmt(b, "B"), fmt(ratio(b), "x")) for k, a, b in zip(ks, plain, yours)]
    return chart("a1_traffic", "Daily traffic against clients per round", figure, summary,
                 table=(("Clients per round", "FL, r = 1", f"FL, r = {fmt(t.compression, 'num')}", "÷ centralised"), rows))


def act1_math(s: State):
    t = traffic(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"B_{\text{FL}} = R\cdot K\cdot P\cdot b\,\left(1 + \frac{1}{r}\right)",
                 "Each of *R* rounds a day, *K* clients download the model (*P·b* bytes) and upload an "
                 "update compressed *r*-fold."),
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
    stakeholder=lambda: (
        f"Legal wants users' typing to stay on their phones, so we will train our "
        f"{fmt(S.params, 'params')}-parameter next-word model with federated learning across "
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


def act2_bytes(s: State, clients: float) -> float:
    return fl_day(clients, *CONTEXT_MODEL[s["context"]])


ACT2_PREDICTION = Pick(
    id="a2_predict", act=2,
    prompt=f"Policy: every user's whole contribution to training must be protected by (ε, δ)-differential "
           f"privacy with ε ≤ {fmt(S.eps_target, 'num')} at δ = {DELTA}. Which deployment can certify that?",
    quantity="the deployment with a formal guarantee within the policy",
    options=(
        Claim("A", "Centralised training on uploaded text, encrypted in transit and at rest, with audited access.",
              "Encryption protects the pipe and the disk, not the model: nothing bounds what the trained "
              "weights reveal about one user. No noise, no ε."),
        Claim("B", "Federated averaging: the raw text never leaves the phone.",
              "Updates are functions of the text, and a model trained by FedAvg can still memorise a rare "
              "phrase. Keeping data local is good hygiene, not a bound: no noise, no ε."),
        Claim("C", f"DP-FedAvg: clip each phone's update, add Gaussian noise with z = {fmt(S.team_z, 'num')} to the sum "
                   f"of {fmt(S.team_clients, 'int')} clipped updates per round, for {fmt(S.rounds_total, 'int')} rounds.",
              "The accountant gives ε = {team_eps} at δ = {delta} over all {rounds} rounds (best Rényi order "
              "{team_order}), within the policy. The price is utility: by the lab's heuristic the noise costs "
              "{team_acc} of accuracy at this K. The instruments below look for a setting that pays less."),
        Claim("D", "Federated averaging with secure aggregation: the server sees only the sum of thousands of updates.",
              "Secure aggregation hides each update from the server, but the sum, and the model built from it, "
              "carry no bound: no noise, no ε."),
    ),
    decide=act2_answer,
)


def act2_facts() -> dict[str, str]:
    return {"team_eps": fmt(TEAM.epsilon, "num"), "team_order": fmt(TEAM.best_order, "int"),
            "team_acc": fmt(TEAM.acc_drop, "pp"), "rounds": fmt(S.rounds_total, "int"),
            "mi_target": fmt(privacy.membership_advantage_bound(S.eps_target, S.delta), "pct"),
            "e_eps": fmt(math.exp(S.eps_target), "num"), "eps_target": fmt(S.eps_target, "num"), "delta": DELTA,
            "eps_short": fmt(privacy.epsilon(TEAM.q, TEAM.z, S.rounds_total / 10, S.delta), "num"),
            "eps_long": fmt(privacy.epsilon(TEAM.q, TEAM.z, S.rounds_total * 10, S.delta), "num"),
            "short": fmt(S.rounds_total / 10, "int"), "long": fmt(S.rounds_total * 10, "int")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The release note will say the model was trained with user-level (ε = {fmt(S.eps_target, 'num')}, "
           f"δ = {DELTA}) differential privacy. What does that promise one user?",
    options=(
        Claim("A", "No attacker can tell whether my typing was used: any guess is a coin flip.",
              "That would be ε = 0. At ε = {eps_target} an attacker with a 50/50 prior can be right up to {mi_target} "
              "of the time."),
        Claim("B", "Any outcome is at most e^ε times more (or less) likely with my data than without it, "
                   "so a membership attack with a 50/50 prior is right at most (e^ε + δ)/(1 + e^ε) of the time.",
              "e^ε = {e_eps} here, so the best possible attack reaches {mi_target}: a real, bounded risk, not "
              "anonymity. The bound holds whatever the attacker knows."),
        Claim("C", "ε is the share of users who can be re-identified, in percent.",
              "ε is not a percentage of users: it bounds how much any one user's data can shift the "
              "distribution of outcomes, for every user at once."),
        Claim("D", f"ε = {fmt(S.eps_target, 'num')} is spent per round, so after all rounds the guarantee is ε "
                   "in the thousands.",
              "The accountant already composes every round: ε = {eps_target} is the total. Composition does raise it, "
              "slowly at this sampling rate: {eps_short} after {short} rounds, {eps_long} after {long}."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    d = deployment(s)
    eps, acc, day = d.epsilon, d.acc_drop, act2_bytes(s, d.clients)
    parts = [metric_grid(
        M["a2_epsilon"].show(eps, "danger" if eps > S.eps_target else "good",
                             f"target ≤ {fmt(S.eps_target, 'num')}; "
                             f"{privacy.CONVERSION_NAMES[d.conversion]} conversion"),
        M["a2_acc_drop"].show(acc, "danger" if acc > S.acc_limit else "good", f"limit {fmt(S.acc_limit, 'pp')}"),
        M["a2_fl_bytes_day"].show(day, "warn" if day > S.daily_budget_bytes else None,
                                  f"budget {fmt(S.daily_budget_bytes, 'B')}"),
        M["a2_mi_bound"].show(privacy.membership_advantage_bound(eps, S.delta), note="50/50 prior; chance is 50 %"),
        M["a2_z_needed"].show(d.z_needed, note=f"at K = {fmt(d.clients, 'int')}"),
        M["a2_best_order"].show(d.best_order),
    )]
    parts += act2_failures(d, day)
    parts += [act2_chart(d), act2_tradeoff_chart(s, d)]
    return parts


def act2_failures(d: Deployment, day: float) -> list:
    parts = []
    if d.acc_drop > S.acc_limit:
        parts.append(failure(F["a2_utility"], f"The noise on the averaged update costs {fmt(d.acc_drop, 'pp')} of "
                             f"accuracy, over the {fmt(S.acc_limit, 'pp')} limit. Average more clients per round, "
                             "or lower z (which raises ε)."))
    if d.epsilon > S.eps_target:
        parts.append(failure(F["a2_privacy"], f"ε = {fmt(d.epsilon, 'num')} over {fmt(S.rounds_total, 'int')} rounds, "
                             f"above the policy's {fmt(S.eps_target, 'num')}. Raise z to at least "
                             f"{fmt(d.z_needed, 'num')}, or sample fewer clients per round."))
    if day > S.daily_budget_bytes:
        parts.append(failure(F["a2_bandwidth"], f"{fmt(d.clients, 'int')} clients per round move {fmt(day, 'B')} "
                             f"a day, over the {fmt(S.daily_budget_bytes, 'B')} budget. Fewer clients, fewer rounds "
                             "or a smaller model."))
    return parts


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
               f"ε = {fmt(S.eps_target, 'num')} needs z ≥ {fmt(d.z_needed, 'num')}.")
    rows = [(fmt(z, "num"), *(fmt(Deployment(k, z, d.conversion).epsilon, "num") for k in shown)) for z in Z_GRID]
    return chart("a2_epsilon", "Privacy loss against noise, per clients per round", figure, summary,
                 table=(("z", *(f"ε at K = {fmt(k, 'int')}" for k in shown)), rows))


def act2_tradeoff_chart(s: State, d: Deployment):
    ks = list(S.client_options)
    options = [Deployment(k, d.z, d.conversion) for k in ks]
    names = [f"K = {ch.power_label(k)}" for k in ks]
    ok = ["good" if o.epsilon <= S.eps_target and o.acc_drop <= S.acc_limit else "danger" for o in options]
    limit_line, limit_note = ch.hline(S.acc_limit * S.pp_per_unit, "danger", "limit", log=True)
    figure = ch.figure([ch.bars("Accuracy drop", names, [o.acc_drop * S.pp_per_unit for o in options], ok,
                                text=[f"ε {fmt(o.epsilon, 'num')}" for o in options])],
                       x=ch.axis("", "category"), y=ch.axis("Accuracy drop (pp)", "log", dtick=1),
                       shapes=[limit_line], annotations=[limit_note], legend=False)
    passing = [fmt(k, "int") for k, c in zip(ks, ok) if c == "good"]
    summary = (f"At z = {fmt(d.z, 'num')}, " + (f"K = {', '.join(passing)} meets both the ε and accuracy limits"
               if passing else "no K meets both the ε and the accuracy limits") +
               "; more clients per round cut the accuracy drop but raise ε and the daily traffic.")
    rows = [(fmt(k, "int"), fmt(o.epsilon, "num"), fmt(o.acc_drop, "pp"), fmt(act2_bytes(s, k), "B"))
            for o, k in zip(options, ks)]
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
                 "Rényi DP of one round of the subsampled Gaussian mechanism at integer order α, with q = K/N; "
                 f"computed in log space (log-sum-exp) for α = {ORDER_RANGE}."),
        Equation(conversion, f"Compose *T* rounds (RDP adds) and convert to (ε, δ): this page uses the "
                             f"**{privacy.CONVERSION_NAMES[d.conversion]}** conversion."),
        Equation(r"\Pr[\text{attack right}] \le \frac{e^{\varepsilon} + \delta}{1 + e^{\varepsilon}}",
                 "The best membership-inference accuracy with a 50/50 prior, from the (ε, δ) hypothesis-testing region."),
        Equation(rf"\Delta\text{{acc}} = {S.acc_anchor * S.pp_per_unit:g}\,\text{{pp}}\cdot"
                 rf"\frac{{z/K}}{{{S.team_z:g}/{S.team_clients:g}}}",
                 f"A labelled heuristic, not a measurement: the noise on the averaged update scales as z/K, "
                 f"anchored at the team's observed {fmt(S.acc_anchor, 'pp')} for K = {fmt(S.team_clients, 'int')}, "
                 f"z = {fmt(S.team_z, 'num')}."),
    ), rows=(
        ("Sampling rate, *q = K/N*", fmt(d.q, "num")),
        ("Rounds, *T*; *δ*", f"{fmt(S.rounds_total, 'int')}; {DELTA}"),
        ("Best order, *α*", fmt(d.best_order, "int")),
        ("ε, this conversion", fmt(d.epsilon, "num")),
        ("ε, the other conversion", fmt(Deployment(d.clients, d.z, "tight" if d.conversion == "classic" else "classic").epsilon, "num")),
    ), sources=(
        cite("mironov2017", "RDP composition and the classic conversion, Prop. 3"),
        cite("mironov2019", "RDP of the sampled Gaussian mechanism at integer orders"),
        cite("balle2020", "the tighter RDP → (ε, δ) conversion"),
        cite("abadi2016", "DP-SGD and the moments accountant"),
        cite("mcmahan2018", "user-level DP-FedAvg with q = K/N"),
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
        "Gaussian noise *z* times that norm. Sampling only *K* of *N* phones per round amplifies privacy.",
        "An **accountant** adds up the privacy loss of every round in Rényi DP and converts the total to "
        f"(ε, δ). This page uses the classic conversion of {privacy.CONVERSION_NAMES['classic']} by default; a "
        f"control switches to the tighter one of {privacy.CONVERSION_NAMES['tight']}. δ = {DELTA} sits below 1/N = {ch.power_label(1 / S.users)} for {fmt(S.users, 'int')} users.",
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
            "fl_tb_per_day": t.per_day / S.bytes_per_tb, "ratio_vs_central": ratio(t.per_day),
            "dp_clients": d.clients, "dp_z": d.z, "dp_eps": d.epsilon, "dp_delta": S.delta,
            "acc_drop_pp": d.acc_drop * S.pp_per_unit}


def lab_takeaways() -> list[str]:
    f = act1_facts()
    fit = Deployment(S.clients, Deployment(S.clients, S.team_z).z_needed)
    return [
        f"Federated learning moves the model, not the data: at {fmt(S.params, 'params')} parameters and "
        f"{fmt(S.clients, 'int')} clients per round it moves {f['ratio_r1']} the bytes of uploading the text; "
        f"Gboard's {f['gboard_params']} model moves {f['gboard_ratio']}.",
        f"Compressing uploads {R10} gives {f['ratio_r10']}: the broadcast half is untouched. Fewer rounds, "
        "fewer clients or a smaller model cut both halves.",
        "Keeping data on the phone is not a privacy guarantee; clipping, noise and an accountant over every "
        f"round are. The team's DP trial reaches ε = {fmt(TEAM.epsilon, 'num')} but costs {fmt(TEAM.acc_drop, 'pp')} "
        "of accuracy.",
        f"More clients per round cut the noise's cost but raise ε and traffic: {fmt(fit.clients, 'int')} clients "
        f"with z = {fmt(fit.z, 'num')} meet ε ≤ {fmt(S.eps_target, 'num')} with a {fmt(fit.acc_drop, 'pp')} drop.",
        f"ε = {fmt(S.eps_target, 'num')} still lets the best membership attack be right "
        f"{fmt(privacy.membership_advantage_bound(S.eps_target, S.delta), 'pct')} of the time. Say which RDP "
        f"conversion produced an ε: at {fmt(S.clients, 'int')} clients and z = {fmt(S.team_z, 'num')} the classic "
        f"one gives {fmt(Deployment(S.clients, S.team_z).epsilon, 'num')}, the tighter one "
        f"{fmt(Deployment(S.clients, S.team_z, 'tight').epsilon, 'num')}.",
    ]


LAB = Lab(
    id="v2_11", volume=2, number=11, title="The Federation Paradox",
    invariant="Federated learning moves **models, not data**: for big models and small data it costs more "
              "bandwidth, and only **noise plus an accountant**, not federation, gives a formal privacy bound.",
    minutes="30–35 min", chapter="On-device Learning and Privacy", url="vol2/11-federation-paradox/",
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
    connections=(
        "**V2-13 The Privacy Measurement Gap**: the same accountant, and what membership attacks measure in practice.",
        "**V2-17 Constraints Never Lie**: privacy as one of the constraints a production design must meet.",
        "**V2-02 The Interconnect Wall**: the same bytes-per-round arithmetic, inside a data centre.",
    ),
    presets={"context": {"server": {"a1_params": "50m", "a1_bytes": "2"},
                         "gboard": {"a1_params": "gboard", "a1_bytes": "4"}}},
)
