"""Lab V1-13 · The Tail Latency Trap.

Core invariant: a server's latency is a queue's time in system. In M/M/1 it is exponential
with mean W = 1/(μ − λ), so the P99 is ln 100 ≈ 4.6 means at every load, and both explode as
ρ → 1. A mean that looks comfortable against a P99 SLO is no evidence that the SLO is met; and
a fleet facing a spike needs enough replicas to be stable *before* the queue builds.

Act I (the 45 ms mean): μ = 100/s, λ = 78/s. The mean is 45 ms, under the 100 ms P99 SLO, yet
the P99 is 209 ms and 11 % of requests miss the SLO. The instruments sample 20,000 seeded
draws (identical in CPython and Pyodide) and set them beside the closed forms.
Act II (the launch spike): 30 replicas of 25 ms serve 1,000 req/s; launch brings 10,000 req/s
and the autoscaler's new replicas serve only after 60 s. The 30 replicas are loaded 8.3 times
over: 528,000 requests queue and the last waits 440 s. At least 251 replicas are needed for a
200 ms P99 afterwards (M/M/c, Erlang C).

Choices where the spec left one open, and why:
* The upstream story ("mean 45 ms, SLO met 99 %") contradicts its own model (spec error 1): the
  stakeholder here only reports the mean and the complaints.
* Act I's load is a ρ slider, not λ from 0 to 0.99μ: a slider cannot follow another's value,
  and ρ keeps every setting stable. λ = ρμ is shown as a number.
* Act II asks for a number (the worst wait while the new replicas start) instead of four
  claims: the claims' numbers would have answered the question; the ranges carry the claims.
* The mobile context is one NPU (spec error 14): no replicas and no autoscaler, so those
  controls are disabled with the reason, and the levers are the service time and admission
  control. Its 25 ms inference and 60 req/s burst are the scenario's assumptions.

Ledger fields (spec §3): lambda_rps, mu_rps, rho, p99_ms, replicas, autoscale_lag_s,
backlog_req, slo_met (Act II's instruments), and a1_p99_ms.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Claim, Equation, FailureSpec, Lab, MetricSpec, Prediction, Range,
                              Reflection, Slider, State, Toggle, callout, chart, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_13_model import (MIN_SLO_HEADROOM, S, SCENARIO, SPIKE, Server, act1_truth, act2_truth,
                                          backlog_timeline, load_curve, min_replicas, replica_curve,
                                          replica_span, service_curve)
from pylabs.physics import constants as C
from pylabs.physics import queueing as q
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "mobile"), default="cloud",
                     help="Cloud: a GPU inference fleet behind a load balancer. Mobile: one phone's NPU serving "
                          "the app's requests, with no replicas and no autoscaler.")

# ---- Act I · The 45 ms mean --------------------------------------------------------------

A1_SERVICE = Slider("a1_service_s", "Mean service time S (μ = 1/S)", unit="s", min=0.001, max=0.1, step=0.001,
                    default=S.service_s, fmt="ms", scale="log", steps=100,
                    help=f"Cloud: one GPU replica. Mobile: one NPU inference, {fmt(S.npu_service_s, 'ms')} assumed.")
A1_RHO = Slider("a1_rho", "Load ρ = λ/μ (share of time the server is busy)", unit="1", min=0.05, max=0.99,
                step=0.01, default=S.rho, fmt="pct")
A1_SLO = Slider("a1_slo_s", "P99 target (SLO)", unit="s", min=0.02, max=0.5, step=0.01, default=S.slo_s, fmt="ms")


def server(s: State) -> Server:
    return Server(s["a1_service_s"], s["a1_rho"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The server completes {fmt(1 / S.service_s, 'num')} requests/s and receives "
           f"{fmt(SCENARIO.arrival_per_s, 'num')}, so the mean time a request spends in it is "
           f"{fmt(SCENARIO.mean_s, 'ms')}. Requests arrive at random and service times vary (M/M/1). "
           "What is the P99?",
    quantity=f"P99 time in system at λ = {fmt(SCENARIO.arrival_per_s, 'num')}/s, μ = {fmt(1 / S.service_s, 'num')}/s",
    unit_fmt="ms",
    options=(
        Range("A", "{range}: the tail sits close to the mean", None, 0.07, 0.05,
              "A queue's time in system is spread out: in M/M/1 it is exponential, and an exponential's P99 "
              "is ln 100 = {ratio} times its mean."),
        Range("B", "{range}: about twice the mean", 0.07, 0.15, 0.09,
              "Twice the mean covers only 1 − e⁻² = {twice} of an exponential's requests; the slowest 1 % reach "
              "{ratio} means."),
        Range("C", "{range}: several times the mean", 0.15, 0.3, 0.21,
              "The time in system is exponential with mean 1/(μ − λ) = {mean}; its P99 is ln 100 ≈ {ratio} "
              "means, and {over} of requests miss the {slo} SLO."),
        Range("D", "{range}: the tail is ten times the mean or more", 0.3, None, 0.45,
              "The P99 is {ratio} means, not ten: an exponential's tail falls off fast once past a few means."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    return {"ratio": fmt(MIN_SLO_HEADROOM, "num"), "mean": fmt(SCENARIO.mean_s, "ms"),
            "twice": fmt(-math.expm1(-2), "pct"),
            "over": fmt(SCENARIO.exceed(S.slo_s), "pct"), "slo": fmt(S.slo_s, "ms"),
            "idle": fmt(1 - S.rho, "pct"), "queue": fmt(q.mean_queue_length(SCENARIO.arrival_per_s,
                                                                            SCENARIO.mean_s), "num")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The server is idle {fmt(1 - S.rho, 'pct')} of the time, yet requests queue. Why?",
    options=(
        Claim("A", "The server slows down as it gets busier.",
              "In this model each request takes the same mean service time at every load; the waits come "
              "from the queue in front of it."),
        Claim("B", "Requests arrive at random: they bunch into bursts that briefly outrun the server, and each "
                   "burst leaves a queue that takes time to drain.",
              "Poisson arrivals cluster: the server is idle {idle} of the time, in the gaps, and behind each "
              "burst requests wait. On average {queue} requests are in the system (L = λW)."),
        Claim("C", "The load balancer holds requests back to smooth the load.",
              "There is one server and no balancer here; random arrivals alone make the queue."),
        Claim("D", "Requests only queue above 100 % load; the waits are measurement noise.",
              "Queues form at any load above zero when arrivals are random; at ρ = 1 they grow without bound."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_p99_s", "P99 time in system", "s", "ms"),
    MetricSpec("a1_mean_s", "Mean time in system", "s", "ms"),
    MetricSpec("a1_over_slo", "Requests slower than the SLO", "1", "pct"),
    MetricSpec("a1_p99_over_mean", "P99 ÷ mean", "1", "x"),
    MetricSpec("a1_lambda", "Arrival rate λ", "1/s", "req/s"),
    MetricSpec("a1_in_system", "In the system, L = λW", "1", "num"),
    MetricSpec("a1_p99_sampled", "P99 of the seeded draws", "s", "ms"),
    MetricSpec("a2_p99_s", "P99 once the new replicas serve", "s", "ms"),
    MetricSpec("a2_rho_after", "Utilisation once scaled", "1", "pct"),
    MetricSpec("a2_lag_end_wait_s", "Worst wait before they serve", "s", "s"),
    MetricSpec("a2_backlog", "Requests queued by then", "1", "int"),
    MetricSpec("a2_drain_s", "Time to drain that queue", "s", "s"),
    MetricSpec("a2_min_replicas", "Fewest replicas for the SLO", "1", "int"),
    MetricSpec("a2_shed", "Requests shed by admission control", "1", "pct"),
    MetricSpec("a2_max_service_s", "Slowest service that meets the SLO", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a1_slo_missed", "SLO missed: the P99 is over the target", act=1),
    FailureSpec("a2_unstable", "Unstable: arrivals outpace the servers, the queue grows without end", act=2),
    FailureSpec("a2_slo_violated", "SLO violated: the P99 is over the target even when stable", act=2),
    FailureSpec("a2_spike_backlog", "Spike backlog: requests wait past the SLO before capacity arrives", act=2,
                severity="warn"),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    srv, slo = server(s), s["a1_slo_s"]
    p99 = srv.percentile_s(S.quantile)
    samples = srv.sample_ms()
    sampled = ch.percentile(samples, 99) / S.ms
    parts = [metric_grid(
        M["a1_p99_s"].show(p99, "danger" if p99 > slo else "good", f"SLO {fmt(slo, 'ms')}"),
        M["a1_mean_s"].show(srv.mean_s, note=f"S/(1 − ρ); service alone {fmt(srv.service_s, 'ms')}"),
        M["a1_over_slo"].show(srv.exceed(slo), "danger" if p99 > slo else None, "P(T > SLO) = e^−(μ−λ)·SLO"),
        M["a1_p99_over_mean"].show(p99 / srv.mean_s, note="ln 100, at every load"),
        M["a1_lambda"].show(srv.arrival_per_s, note=f"μ = {fmt(1 / srv.service_s, 'num')} requests/s"),
        M["a1_in_system"].show(q.mean_queue_length(srv.arrival_per_s, srv.mean_s)),
        M["a1_p99_sampled"].show(sampled, note=f"{len(samples):,} of {S.draws:,} draws shown, seed {S.seed}"),
    )]
    if p99 > slo:
        parts.append(failure(F["a1_slo_missed"],
                             f"The P99 is {fmt(p99, 'ms')} against a {fmt(slo, 'ms')} target, although the mean is "
                             f"{fmt(srv.mean_s, 'ms')}. Lower the load or shorten the service time until "
                             f"ln 100 / (μ − λ) is under the target."))
    parts += [act1_histogram(srv, samples, slo), act1_curve(srv, slo)]
    return parts


def act1_histogram(srv: Server, samples: list[float], slo: float):
    end = srv.percentile_s(0.999) * S.ms
    size = end / S.bins
    trace = ch.histogram("Requests", samples, "series1", bins=(0.0, end, size), norm="percent")
    figure = ch.histogram_figure([trace], ch.axis("Time in system (ms)"), ch.axis("Share of requests (%)"),
                                 samples, lambda v: fmt(v / S.ms, "ms"), legend=False)
    if slo * S.ms < end:
        line, note = ch.vline(slo * S.ms, "warn", "SLO")
        figure["layout"]["shapes"].append(line)
        figure["layout"]["annotations"].append(note)
        figure["layout"]["margin"]["t"] = 28
    shown = sum(1 for v in samples if v < end)
    summary = (f"The draws fall off exponentially from zero: half finish within {fmt(ch.percentile(samples, 50) / S.ms, 'ms')}, "
               f"99 % within {fmt(ch.percentile(samples, 99) / S.ms, 'ms')}, and {fmt(srv.exceed(slo), 'pct')} "
               f"take longer than the {fmt(slo, 'ms')} SLO. {shown:,} of {len(samples):,} draws are under "
               f"the chart's right edge (the P99.9).")
    rows = [(f"P{k:g}", fmt(ch.percentile(samples, k) / S.ms, "ms"), fmt(srv.percentile_s(k / S.percent), "ms"))
            for k in S.table_percentiles]
    return chart("a1_histogram", "Time in system: seeded draws with their P50 and P99", figure, summary,
                 table=(("Percentile", "Sampled", "Closed form"), rows))


def act1_curve(srv: Server, slo: float):
    rhos, curve = load_curve(srv.service_s)
    ms = S.ms
    traces = [ch.line("P99", rhos, [c.percentile_s(S.quantile) * ms for c in curve], "danger"),
              ch.line("Mean", rhos, [c.mean_s * ms for c in curve], "series1"),
              ch.point("Your setting (P99)", srv.rho, srv.percentile_s(S.quantile) * ms, "accent")]
    values = [srv.service_s * ms, curve[-1].percentile_s(S.quantile) * ms, slo * ms]
    line, note = ch.hline(slo * ms, "warn", "SLO", log=True)
    figure = ch.figure(traces, x=ch.axis("Load ρ", tickformat=".0%"),
                       y=ch.axis("Time in system (ms)", "log", **ch.decade_ticks(values, lambda v: fmt(v / ms, "ms"))),
                       shapes=[line], annotations=[note])
    knee = max(0.0, 1 - MIN_SLO_HEADROOM * srv.service_s / slo)
    summary = (f"Mean and P99 both grow like 1/(1 − ρ), a constant {fmt(MIN_SLO_HEADROOM, 'num')}× apart; with "
               f"{fmt(srv.service_s, 'ms')} service the P99 stays under {fmt(slo, 'ms')} only below ρ = "
               f"{fmt(knee, 'pct')}.")
    rows = [(fmt(c.rho, "pct"), fmt(c.mean_s, "ms"), fmt(c.percentile_s(S.quantile), "ms")) for c in curve[::6]]
    return chart("a1_load_curve", "Mean and P99 against load", figure, summary,
                 table=(("Load ρ", "Mean", "P99"), rows))


def act1_math(s: State):
    srv = server(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"W = \frac{1}{\mu - \lambda} = \frac{S}{1-\rho}",
                 "Mean time in system of an M/M/1 queue: Poisson arrivals at λ, exponential service at μ = 1/S."),
        Equation(r"P(T > t) = e^{-(\mu-\lambda)\,t},\qquad T_p = \frac{\ln\frac{1}{1-p}}{\mu-\lambda}",
                 f"The time in system is exponential, so P99 = ln 100 · W ≈ {fmt(MIN_SLO_HEADROOM, 'num')} W at "
                 "every load."),
        Equation(r"L = \lambda\,W", "Little's law: requests in the system on average."),
    ), rows=(
        ("Service rate, *μ*", f"{fmt(1 / srv.service_s, 'num')} requests/s"),
        ("Arrival rate, *λ*", f"{fmt(srv.arrival_per_s, 'num')} requests/s"),
        ("Mean, *W*", fmt(srv.mean_s, "ms")),
        ("P99, closed form", fmt(srv.percentile_s(S.quantile), "ms")),
        ("Draws", f"{S.draws:,} by inversion from Python's Mersenne Twister, seed {S.seed}"),
    ), sources=(
        cite("kleinrock1975", "M/M/1 response time and its exponential distribution"),
        cite("little1961", "L = λW"),
        cite("dean2013", "why the tail, not the mean, is what users feel at scale"),
    ))


ACT1 = Act(
    number=1, title="The 45 ms Mean", minutes="12–15 min",
    stakeholder_role="Head of Platform",
    stakeholder=lambda: (
        f"Our inference service averages {fmt(SCENARIO.mean_s, 'ms')} per request, and our SLO is a P99 of "
        f"{fmt(S.slo_s, 'ms')}. With the mean at less than half the target I assumed we had room, yet user "
        "complaints about slow responses have tripled. Is the dashboard lying, or are the users?"),
    scenario=lambda: (
        f"One server completes {fmt(1 / S.service_s, 'num')} requests/s on average (μ) and receives "
        f"{fmt(SCENARIO.arrival_per_s, 'num')} requests/s (λ), so it is busy {fmt(S.rho, 'pct')} of the time. "
        "Requests arrive at random (Poisson) and service times vary (exponential): the M/M/1 queue.",
        "A request's time in the system is its wait in the queue plus its own service.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_SERVICE, A1_RHO, A1_SLO),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Queue and its tail",
)

# ---- Act II · The launch spike --------------------------------------------------------------

A2_REPLICAS = Slider("a2_replicas", "Replicas once the autoscaler has acted", unit="replicas", min=1, max=600,
                     step=1, default=S.scaled_replicas, fmt="int",
                     help=f"{S.replicas} serve until the new ones start.")
A2_SPIKE = Slider("a2_spike_rps", "Arrival rate during the spike", unit="1/s", min=10, max=20_000, step=1,
                  default=S.spike_rps, fmt="req/s", scale="log", steps=120)
A2_LAG = Slider("a2_lag_s", "Autoscaler lag: until the new replicas serve", unit="s", min=0, max=300, step=5,
                default=S.lag_s, fmt="s",
                help=f"Kubernetes' autoscaler checks the load every {fmt(C.K8S_HPA_SYNC_PERIOD, 's')}; starting a "
                     "replica and loading its model takes the rest.")
A2_SERVICE = Slider("a2_service_s", "Mean service time per request", unit="s", min=0.005, max=0.05, step=0.001,
                    default=S.replica_service_s, fmt="ms",
                    help="A smaller or quantised model (V1-10) serves faster.")
A2_ADMIT = Toggle("a2_admission",
                  f"Admission control: refuse requests beyond {fmt(S.admit_max_rho, 'pct')} of the capacity serving")


def spike(s: State) -> q.Spike:
    admit = S.admit_max_rho if s["a2_admission"] else 1.0
    if s["context"] == "mobile":
        return q.Spike(s["a2_spike_rps"], s["a2_service_s"], 1, 1, 0.0, admit)
    return q.Spike(s["a2_spike_rps"], s["a2_service_s"], S.replicas, int(s["a2_replicas"]), s["a2_lag_s"], admit)


def a2_overridden(s: State) -> dict[str, str]:
    if s["context"] != "mobile":
        return {}
    return {"a2_replicas": "Not used on a phone: one NPU serves every request; there are no replicas to add.",
            "a2_lag_s": "Not used on a phone: no autoscaler adds capacity."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"At launch, traffic jumps from {fmt(S.base_rps, 'req/s')} to {fmt(S.spike_rps, 'req/s')}. The "
           f"autoscaler doubles the {S.replicas} replicas, but the new ones serve only "
           f"{fmt(S.lag_s, 's')} after the jump. How long does a request arriving just before they start wait "
           "in the queue?",
    quantity="queueing wait at the end of the autoscaler's lag",
    unit_fmt="s",
    options=(
        Range("A", "{range}: autoscaling keeps up; waits stay near the SLO", None, 1.0, 0.2,
              f"The {S.replicas} replicas can serve {fmt(S.replicas / S.replica_service_s, 'req/s')}; for the whole "
              "lag the rest piles up ({backlog} requests), and autoscaling only helps after it."),
        Range("B", "{range}: a short blip while the load balancer spreads the burst", 1.0, 10.0, 5.0,
              "A load balancer spreads requests, it cannot add capacity: the fleet is loaded {rho0} times over, "
              "and {backlog} requests queue."),
        Range("C", "{range}: painful, but the doubled fleet catches up", 10.0, 120.0, 60.0,
              "The queue grows for the whole lag at {excess} requests/s; and even doubled, the fleet is loaded "
              "{rho1}, so the queue never drains. The SLO needs {min_c} replicas."),
        Range("D", "{range}: the queue runs away until capacity arrives", 120.0, None, 600.0,
              "Arrivals run at {rho0} times the capacity: {backlog} requests queue in the lag, and the last waits "
              "{wait}. The doubled fleet is still overloaded ({rho1}); {min_c} replicas are needed."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    return {"backlog": fmt(SPIKE.backlog, "int"), "wait": fmt(SPIKE.lag_end_wait_s, "s"),
            "rho0": fmt(q.utilization(S.spike_rps, S.replica_service_s, S.replicas), "num"),
            "rho1": fmt(SPIKE.rho_after, "pct"),
            "excess": fmt(S.spike_rps - S.replicas / S.replica_service_s, "int"),
            "min_c": fmt(min_replicas(S.replica_service_s, S.spike_rps, S.act2_slo_s), "int")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="With enough replicas the queue is stable, but each replica runs an LLM with static batches: a short "
           "answer waits until the longest generation in its batch finishes. What removes that head-of-line "
           "blocking?",
    options=(
        Claim("A", "Prefill/decode disaggregation: prompts and generation run on separate GPUs.",
              "That separates two phases of every request (it protects generation from long prompts), but a static "
              "batch still returns its requests together, when the longest one ends."),
        Claim("B", "Continuous (iteration-level) batching: requests join and leave the batch after every decoding "
                   "step.",
              "Orca's iteration-level scheduling returns each request as soon as it is done and fills its slot "
              "at once, so a short answer never waits for a long one, and throughput rises, which lowers ρ."),
        Claim("C", "Larger static batches, so more requests share each pass.",
              "A larger batch holds more requests hostage to its longest member."),
        Claim("D", "More replicas.",
              "More replicas cut the queueing wait, as the instruments show, but inside each batch a short answer "
              "still waits for the longest."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    sp, slo, mobile = spike(s), S.act2_slo_s, s["context"] == "mobile"
    p99 = sp.p99_after_s()
    need = min_replicas(sp.service_s, sp.arrival_per_s, slo)
    stable = sp.rho_after < 1
    cards = [
        M["a2_p99_s"].show(p99, "danger" if p99 > slo else "good", f"SLO {fmt(slo, 'ms')}" if stable
                           else "unstable: the queue grows without end"),
        M["a2_rho_after"].show(sp.rho_after, "danger" if not stable else None,
                               f"{'1 NPU' if mobile else plural(sp.servers_after, 'replica', count_fmt='int')}, "
                               f"{fmt(sp.admitted_after_per_s, 'req/s')} admitted"),
        M["a2_lag_end_wait_s"].show(sp.lag_end_wait_s, "warn" if sp.lag_end_wait_s > slo else None,
                                  "no autoscaler on a phone" if mobile else f"{S.replicas} replicas for {fmt(sp.lag_s, 's')}"),
        M["a2_backlog"].show(sp.backlog),
        M["a2_drain_s"].show(sp.drain_s, note="never: the new capacity is too small" if math.isinf(sp.drain_s) else ""),
        M["a2_max_service_s"].show(q.mm1_max_service_s(S.quantile, sp.admitted_after_per_s, slo), note="M/M/1: μ ≥ λ + ln 100 / SLO")
        if mobile else
        M["a2_min_replicas"].show(need, note="none: the service alone is too slow" if math.isinf(need)
                                  else f"P99 ≤ {fmt(slo, 'ms')} at {fmt(sp.arrival_per_s, 'req/s')}"),
        M["a2_shed"].show(sp.shed_after, "warn" if sp.shed_after > 0 else None),
    ]
    parts = [metric_grid(*cards), *act2_failures(sp, p99, slo)]
    parts.append(act2_service_chart(sp, slo) if mobile else act2_replica_chart(sp, slo))
    parts.append(act2_timeline(sp))
    if mobile:
        parts.append(callout("info", "One phone, one queue", prose(
            "A phone serves one user: there is no fleet to grow. Its levers are the service time (a smaller or "
            "quantised model) and admission control, which refuses work it cannot finish in time. The "
            f"{fmt(S.npu_spike_rps, 'req/s')} burst and the {fmt(S.npu_service_s, 'ms')} inference are this "
            "scenario's assumptions, not measurements.")))
    return parts


def act2_failures(sp: q.Spike, p99: float, slo: float) -> list:
    out = []
    if sp.rho_after >= 1:
        out.append(failure(F["a2_unstable"],
                           f"{fmt(sp.admitted_after_per_s, 'req/s')} arrive and the servers complete at most "
                           f"{fmt(sp.servers_after / sp.service_s, 'req/s')}. Add replicas, serve faster, or turn on "
                           "admission control."))
    elif p99 > slo:
        out.append(failure(F["a2_slo_violated"],
                           f"Stable at {fmt(sp.rho_after, 'pct')}, but the P99 is {fmt(p99, 'ms')}: with "
                           f"{fmt(sp.service_s, 'ms')} of exponential service, the service alone has a P99 of "
                           f"{fmt(MIN_SLO_HEADROOM * sp.service_s, 'ms')}. Serve faster."))
    if sp.lag_end_wait_s > slo:
        out.append(failure(F["a2_spike_backlog"],
                           f"{fmt(sp.backlog, 'int')} requests queue before the new replicas serve, and the last one "
                           f"waits {fmt(sp.lag_end_wait_s, 's')}. A shorter lag (warm replicas, scaling ahead of a "
                           "known launch) or admission control avoids it."))
    return out


def ms_axis(title: str, values_ms: list[float]) -> dict:
    """A log axis in ms with ticks at 1-2-5 steps inside the values' span (always at least two labels)."""
    low, high = min(values_ms), max(values_ms)
    ticks = [m * 10.0 ** e for e in range(-1, 6) for m in (1, 2, 5)]
    inside = [t for t in ticks if low / 1.3 <= t <= high * 1.3] or [t for t in ticks if t >= low][:2]
    span = [math.log10(min(low, inside[0])) - 0.08, math.log10(max(high, inside[-1])) + 0.08]
    return ch.axis(title, "log", range=span, **ch.ticks_at(inside, lambda v: fmt(v / S.ms, "ms")))


def act2_replica_chart(sp: q.Spike, slo: float):
    first, last = replica_span(sp.admitted_after_per_s, sp.service_s, sp.servers_after)
    cs, p99s = replica_curve(sp.admitted_after_per_s, sp.service_s, first, last)
    traces = [ch.line(f"P99 at {fmt(sp.admitted_after_per_s, 'req/s')}", cs, p99s, "series1")]
    slo_line, slo_note = ch.hline(slo * S.ms, "warn", "SLO", log=True)
    shapes, notes = [slo_line], [slo_note]
    if sp.rho_after < 1:
        traces.append(ch.point("Your replicas", sp.servers_after, sp.p99_after_s() * S.ms, "accent"))
    else:
        line, note = ch.vline(sp.servers_after, "danger", "yours: unstable")
        shapes.append(line)
        notes.append({**note, "xanchor": "left", "xshift": 4, "y": 0.5, "yanchor": "middle"})
    x_low = min(first, sp.servers_after)
    figure = ch.figure(traces, x=ch.axis("Replicas", range=[max(0.0, x_low - 0.05 * (last - x_low)), last]),
                       y=ms_axis("P99 time in system (ms)", p99s + [slo * S.ms]),
                       shapes=shapes, annotations=notes)
    summary = (f"Below {plural(first, 'replica', count_fmt='int')} the queue is unstable (no P99 exists); the P99 falls steeply just above, to "
               f"{fmt(p99s[-1] / S.ms, 'ms')} at {cs[-1]} replicas, where the service time dominates.")
    rows = [(str(c), fmt(p / S.ms, "ms")) for c, p in list(zip(cs, p99s))[::6]]
    return chart("a2_replicas_curve", "P99 against replicas once scaled", figure, summary,
                 table=(("Replicas", "P99"), rows))


def act2_service_chart(sp: q.Spike, slo: float):
    low, high = A2_SERVICE.min, A2_SERVICE.max
    stable, p99s = service_curve(sp.admitted_after_per_s, low, high)
    traces = [ch.line("P99 on one NPU", [t * S.ms for t in stable], p99s, "series1")] if stable else []
    if sp.rho_after < 1:
        traces.append(ch.point("Your setting", sp.service_s * S.ms, sp.p99_after_s() * S.ms, "accent"))
    line, note = ch.hline(slo * S.ms, "warn", "SLO", log=True)
    ys = p99s + [slo * S.ms]
    figure = ch.figure(traces, x=ch.axis("Service time per request (ms)", range=[low * S.ms, high * S.ms]),
                       y=ms_axis("P99 time in system (ms)", ys), shapes=[line], annotations=[note])
    limit = 1 / sp.admitted_after_per_s if sp.admitted_after_per_s > 0 else math.inf
    summary = (f"At {fmt(sp.admitted_after_per_s, 'req/s')} the NPU is stable only with service under "
               f"{fmt(limit, 'ms')}; the P99 climbs steeply as the service time approaches that limit.")
    rows = [(fmt(t, "ms"), fmt(p / S.ms, "ms")) for t, p in list(zip(stable, p99s))[::5]]
    return chart("a2_service_curve", "P99 on one NPU against its service time", figure, summary,
                 table=(("Service time", "P99"), rows))


def act2_timeline(sp: q.Spike):
    ts, queue = backlog_timeline(sp)
    traces = [ch.area("Requests queued", ts, queue, "danger")]
    shapes, notes = [], []
    if 0 < sp.lag_s < S.timeline_s:
        line, note = ch.vline(sp.lag_s, "muted", "new replicas")
        shapes, notes = [line], [note]
    figure = ch.figure(traces, x=ch.axis("Seconds after the spike starts"), y=ch.axis("Requests queued"),
                       shapes=shapes, annotations=notes, legend=False)
    figure["layout"]["margin"]["t"] = 28
    drain = "never drains" if math.isinf(sp.drain_s) else f"drains {fmt(sp.drain_s, 's')} after that"
    summary = (f"The queue reaches {fmt(sp.backlog, 'int')} requests when the new capacity arrives and {drain}; "
               f"after {fmt(S.timeline_s, 's')} it holds {fmt(queue[-1], 'int')}.")
    rows = [(fmt(t, "s"), fmt(v, "int")) for t, v in list(zip(ts, queue))[::10]]
    return chart("a2_backlog", "The queue during the spike (fluid model)", figure, summary,
                 table=(("Time", "Queued"), rows))


def act2_math(s: State):
    sp = spike(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"C(c,a) = \frac{\frac{a^c}{c!}\frac{c}{c-a}}{\sum_{k<c}\frac{a^k}{k!} + \frac{a^c}{c!}\frac{c}{c-a}},"
                 r"\quad a = \lambda S",
                 "Erlang C: the chance that a request finds all *c* replicas busy (computed by the Erlang B "
                 "recursion)."),
        Equation(r"P(T>t) = (1-C)\,e^{-\mu t} + C\,\frac{\theta e^{-\mu t} - \mu e^{-\theta t}}{\theta - \mu},"
                 r"\quad \theta = c\mu - \lambda",
                 "Time in system of M/M/c: a wait (zero, or exponential at θ) plus the service; P99 solves "
                 "P(T > t) = 1 %."),
        Equation(r"Q = (\lambda - c_0\mu)\,\tau,\quad w = \frac{Q}{c_0\mu},\quad t_{\text{drain}} = \frac{Q}{c_1\mu - \lambda}",
                 "The fluid model of the lag τ: the queue grows at the excess arrival rate until the new "
                 "capacity serves, then drains at the spare rate."),
    ), rows=(
        ("Offered load, *a*", fmt(q.offered_load(sp.admitted_after_per_s, sp.service_s), "num")),
        ("Erlang C", fmt(q.erlang_c(sp.servers_after, q.offered_load(sp.admitted_after_per_s, sp.service_s)), "pct")),
        ("Backlog, *Q*", fmt(sp.backlog, "int")),
        ("Drain time", fmt(sp.drain_s, "s")),
    ), sources=(
        cite("kleinrock1975", "M/M/m: Erlang C and the waiting-time distribution"),
        cite("yu2022", "iteration-level scheduling (continuous batching)"),
        C.REGISTRY["K8S_HPA_SYNC_PERIOD"].source + " (the lag also includes starting a replica and loading "
        "its model; 60 s is the scenario's assumption)",
    ))


ACT2 = Act(
    number=2, title="The Launch Spike", minutes="15–20 min",
    stakeholder_role="SRE Lead",
    stakeholder=lambda: (
        f"We serve {fmt(S.base_rps, 'req/s')} with {S.replicas} replicas of {fmt(S.replica_service_s, 'ms')} each, "
        f"and our P99 SLO is {fmt(S.act2_slo_s, 'ms')}. Marketing expects {fmt(S.spike_rps / S.base_rps, 'x')} "
        "the traffic on launch day. The autoscaler will double the fleet when load rises, so I think we are "
        "covered. Are we?"),
    scenario=lambda: (
        "Each replica is a server; a load balancer sends each request to any free replica, so the fleet is an "
        "M/M/c queue with one shared line.",
        f"New replicas need time to start and load the model: they serve {fmt(S.lag_s, 's')} after the spike "
        "begins. Until then, the old fleet carries everything.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_REPLICAS, A2_SPIKE, A2_LAG, A2_SERVICE, A2_ADMIT),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Spike planner",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    srv, sp = server(s), spike(s)
    p99 = sp.p99_after_s()
    active = {"a1_slo_missed": srv.percentile_s(S.quantile) > s["a1_slo_s"],
              "a2_unstable": sp.rho_after >= 1,
              "a2_slo_violated": sp.rho_after < 1 and p99 > S.act2_slo_s,
              "a2_spike_backlog": sp.lag_end_wait_s > S.act2_slo_s}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | bool]:
    sp = spike(s)
    p99 = sp.p99_after_s()
    return {"lambda_rps": sp.arrival_per_s, "mu_rps": 1 / sp.service_s, "rho": sp.rho_after,
            "p99_ms": p99 * S.ms, "replicas": float(sp.servers_after), "autoscale_lag_s": sp.lag_s,
            "backlog_req": sp.backlog, "slo_met": p99 <= S.act2_slo_s and sp.lag_end_wait_s <= S.act2_slo_s,
            "a1_p99_ms": server(s).percentile_s(S.quantile) * S.ms}


RECORD = (
    MetricSpec("lambda_rps", "Arrival rate during the spike", "1/s", "req/s"),
    MetricSpec("mu_rps", "Service rate per replica", "1/s", "req/s"),
    MetricSpec("rho", "Utilisation once scaled", "1", "pct"),
    MetricSpec("p99_ms", "P99 once scaled (ms)", "ms", "num"),
    MetricSpec("replicas", "Replicas once scaled", "1", "int"),
    MetricSpec("autoscale_lag_s", "Autoscaler lag", "s", "s"),
    MetricSpec("backlog_req", "Requests queued during the lag", "1", "int"),
    MetricSpec("slo_met", "SLO met throughout", "1", "yesno"),
    MetricSpec("a1_p99_ms", "Act I P99 (ms)", "ms", "num"),
)


def lab_takeaways() -> list[str]:
    facts, f1 = act2_facts(), act1_facts()
    return [
        f"A mean says little about a tail: at λ = {fmt(SCENARIO.arrival_per_s, 'num')}/s and μ = "
        f"{fmt(1 / S.service_s, 'num')}/s the mean is {f1['mean']} and the P99 {fmt(act1_truth(), 'ms')}, so "
        f"{f1['over']} of requests miss a {f1['slo']} SLO.",
        f"In M/M/1 the P99 is always ln 100 ≈ {f1['ratio']} means; what explodes near ρ = 1 is the mean, S/(1 − ρ), "
        "and the tail with it.",
        f"A {fmt(S.spike_rps / S.base_rps, 'x')} spike on {S.replicas} replicas loads them {facts['rho0']} times "
        f"over: in a {fmt(S.lag_s, 's')} autoscaler lag {facts['backlog']} requests queue and the last waits "
        f"{facts['wait']}.",
        f"Stability first: the fleet needs {facts['min_c']} replicas for a {fmt(S.act2_slo_s, 'ms')} P99 at "
        f"{fmt(S.spike_rps, 'req/s')}, and slower service (its P99 alone is ln 100 · S) can make the SLO "
        "unreachable at any size. Scale ahead of a known spike, or shed load.",
    ]


LAB = Lab(
    id="v1_13", volume=1, number=13, title="The Tail Latency Trap",
    invariant="Latency is a queue's time in system: a comfortable **mean** says little about the **tail**, and "
              "both explode as utilisation nears 1.",
    minutes="30–35 min", chapter="Model Serving", url="vol1/13-tail-latency/",
    reading=(
        "**Serving latency**: mean, percentiles and service-level objectives.",
        "**Queueing**: utilisation, Little's law and the M/M/1 queue.",
        "**Capacity planning**: replicas, autoscaling and load shedding.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-10 The Compression Tradeoff**: a smaller or quantised model shortens the service time S.",
        "[**V2-08 The Utilization Trap**](../../vol2/08-utilization-trap/): the same queue on a GPU cluster, "
        "where jobs wait for slots.",
        "[**V2-12 The SLO Composition Trap**](../../vol2/12-slo-composition/): tails of many services composed.",
    ),
    presets={"context": {
        "cloud": {"a1_service_s": S.service_s, "a2_spike_rps": S.spike_rps},
        "mobile": {"a1_service_s": S.npu_service_s, "a2_spike_rps": S.npu_spike_rps}}},
    record_metrics=RECORD,
    context_from=TRACK,
)
