"""Lab V1-13 · The Tail Latency Trap.

Core invariant: a server's latency is a queue's time in system. In M/M/1 it is exponential
with mean W = 1/(μ − λ), so the P99 is ln 100 ≈ 4.6 means at every load, and both explode as
ρ → 1. A mean that looks comfortable against a P99 SLO is no evidence that the SLO is met; and
when arrivals outrun the servers, every second of overload adds to the wait of all who follow.

Act I (the comfortable mean): one server at 78 % load, a GPU replica of 10 ms (cloud), a Jetson
Orin NX of 20 ms (edge) or the phone's Neural Engine of 25 ms (mobile); the P99 target is ten
service times. The mean (4.5 service times) is under half the target, yet the P99 is 4.6 means
and 11 % of requests miss the SLO. The question asks for P99 ÷ mean, the same in every context.
The instruments sample 20,000 seeded draws (identical in CPython and Pyodide) beside the closed forms.
Act II (the spike): in the cloud, 30 replicas of 25 ms serve 1,000 req/s; launch brings 10,000
req/s and the autoscaler's 30 new replicas serve after 60 s: 528,000 requests queue, and one
arriving then waits 220 s. At the edge (80 req/s on one Orin NX) and on the phone (60 req/s on
one Neural Engine) nothing adds capacity: a minute into the burst the wait is 36 s and 30 s.

Where this departs from the spec (handbook/labs/v1_13.md §5), and why:
* The spike's wait is Q / (c₁μ), not Q / (c₀μ): first in, first out, the backlog ahead of a
  request arriving as the lag ends is served by the new fleet (Newell 1982, ch. 1-2; a FIFO
  M/M/c simulation gives 219 s). The spec's golden row "wait 440 s" uses the old capacity; at
  the doubled fleet it is 220 s, at 600 replicas 22 s. The key (D) holds.
* Act II's ranges C and D part at the lag (1 min), where their claims part: the wait
  τ(λ − c₀μ)/(c₁μ) is under τ exactly when the backlog is served faster than it built.
* Act I asks for P99 ÷ mean, which is the same in every context (the spec's ms ranges fit one
  context only), and its reflection asks what drives the climb the load curve shows.
* Act II's reflection asks why a slow service misses the SLO at any capacity (handbook/labs/v1_13.md §5,
  which the instruments show), not about continuous batching, which they never show.
* The upstream story ("mean 45 ms, SLO met 99 %") contradicts its model (handbook/labs/v1_13.md §5): the
  stakeholder reports only the mean and the complaints. Act I's load is a ρ slider.
* Edge and mobile are one device each (handbook/labs/v1_13.md §5): no replicas and no autoscaler; the levers
  are the service time and admission control. Their service times and bursts are assumptions.
  TinyML is not offered: see ``TRACK_NOTES``.

Ledger fields (handbook/labs/v1_13.md §2): lambda_rps, mu_rps, rho, p99_ms, replicas, autoscale_lag_s,
backlog_req, slo_met (Act II's instruments), and a1_p99_ms.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Claim, Equation, FailureSpec, Lab, MetricSpec, Prediction, Range,
                              Reflection, Slider, State, Toggle, callout, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.framework import charts as ch
from pylabs.framework.formats import listed, plural
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_13_charts import (a1_remedy, act1_curve, act1_histogram, act2_replica_chart,
                                           act2_service_chart, act2_timeline, max_service_card,
                                           min_replicas_card, slo_remedy)
from pylabs.labs.vol1.v1_13_model import (MIN_SLO_HEADROOM, SETTINGS, S, Server, act1_truth, act2_truth,
                                          exponential_beyond, min_replicas, scenario_server, scenario_spike,
                                          spike_of)
from pylabs.physics import constants as C
from pylabs.physics import queueing as q
from pylabs.physics import units as U
from pylabs.physics.references import cite

# ---- context ----------------------------------------------------------------------

CONTEXT = deployment(("cloud", "edge", "mobile"), default="cloud",
                     help="Cloud: a GPU inference fleet behind a load balancer. Edge: one Jetson Orin NX running "
                          "detections when a store's cameras see motion. Mobile: one phone's Neural Engine serving "
                          "its apps. Neither device has replicas or an autoscaler.")
TRACK_NOTES = {"tiny": "This lab's queue is fed by many requests arriving at random. A microcontroller in the "
                       "TinyML track runs one model on its own sensor's frames, which come on the sensor's "
                       "clock, so that queue does not form there: the lab opens in Cloud."}
DEVICE = {"cloud": "GPU replica", "edge": "Orin NX", "mobile": "Neural Engine"}
ASSUMED = {"cloud": "", "edge": " (assumed)", "mobile": " (assumed)"}


def terms(context: str) -> dict[str, str]:
    """The context's words and numbers that the prompts name."""
    setting, sp = SETTINGS[context], scenario_spike(context)
    if setting.fleet:
        setup = (f"At launch, traffic jumps from {fmt(S.base_rps, 'req/s')} to {fmt(sp.arrival_per_s, 'req/s')} "
                 f"on {S.replicas} replicas of {fmt(sp.service_s, 'ms')}. The autoscaler doubles the fleet, but "
                 f"the new replicas serve only {fmt(sp.lag_s, 's')} after the jump.")
        when = "just before they start"
    else:
        setup = (f"A burst brings the {DEVICE[context]} {fmt(sp.arrival_per_s, 'req/s')}, each taking "
                 f"{fmt(sp.service_s, 'ms')}{ASSUMED[context]}, and nothing can add capacity.")
        when = f"{fmt(sp.lag_s, 's')} into the burst"
    levers = "however many replicas serve and however light the load" if setting.fleet else "however light the load"
    return {"a1_mean": fmt(scenario_server(context).mean_s, "ms"), "a2_setup": setup, "a2_when": when,
            "a2_levers": levers}


# ---- Act I · The comfortable mean ---------------------------------------------------------

A1_SERVICE = Slider("a1_service_s", "Mean service time S (μ = 1/S)", unit="s", min=0.001, max=0.1, step=0.001,
                    default=S.service_s, fmt="ms", scale="log", steps=100,
                    help=f"Cloud: one GPU replica. Edge: one Orin NX detection, {fmt(S.edge_service_s, 'ms')} "
                         f"assumed. Mobile: one Neural Engine inference, {fmt(S.npu_service_s, 'ms')} assumed.")
A1_RHO = Slider("a1_rho", "Load ρ = λ/μ (share of time the server is busy)", unit="1", min=0.05, max=0.99,
                step=0.01, default=S.rho, fmt="pct")
A1_SLO = Slider("a1_slo_s", "P99 target (SLO)", unit="s", min=0.02, max=0.5, step=0.01,
                default=SETTINGS["cloud"].slo_s, fmt="ms")


def server(s: State) -> Server:
    return Server(s["a1_service_s"], s["a1_rho"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt="The mean time a request spends in this server is {a1_mean}. Requests arrive at random and service "
           "times vary (M/M/1). The P99 is how many times that mean?",
    quantity="P99 ÷ mean time in system", unit_fmt="x", shown_by="a1_p99_over_mean",
    options=(
        Range("A", "{range}: most requests sit near the mean, so the tail does too", None, 3.0, 2.0,
              "The time in system is exponential, not bunched round its mean: {within_a} of requests finish "
              "within 3 means, so the slowest 1 % lie further out, at {a1_p99_s}."),
        Range("B", "{range}: a few means out, as the random waits stretch the times", 3.0, 7.0, 4.6,
              "The time in system is exponential with mean 1/(μ − λ) = {a1_mean_s}; its P99 is ln 100 ≈ {ratio} "
              "means, {a1_p99_s}, and {a1_over_slo} of requests miss the {slo} SLO."),
        Range("C", "{range}: about ten means, as bursts pile up near full load", 7.0, 20.0, 10.0,
              "An exponential tail thins fast: only {beyond_c} of requests take over 7 means. The P99 is "
              "{ratio} means ({a1_p99_s}), and the load moves the mean, not this ratio."),
        Range("D", "{range}: tens of means, as one slow request holds up the rest", 20.0, None, 30.0,
              "That would need a heavy tail; an exponential leaves {beyond_d} of requests past 20 means. The P99 "
              "is {ratio} means ({a1_p99_s})."),
    ),
    truth=act1_truth,
)


def act1_facts(context: str) -> dict[str, str]:
    srv, slo = scenario_server(context), SETTINGS[context].slo_s
    high = Server(srv.service_s, S.rho_high)
    bound = {o.letter: o.low for o in ACT1_PREDICTION.options}
    return {"a1_mean_s": fmt(srv.mean_s, "ms"), "a1_p99_s": fmt(srv.percentile_s(S.quantile), "ms"),
            "a1_over_slo": fmt(srv.exceed(slo), "pct"), "a1_p99_over_mean": fmt(act1_truth(context), "x"),
            "ratio": fmt(MIN_SLO_HEADROOM, "num"), "slo": fmt(slo, "ms"),
            "within_a": fmt(1 - exponential_beyond(bound["B"]), "pct"),
            "beyond_c": fmt(exponential_beyond(bound["C"]), "pct"),
            "beyond_d": fmt(exponential_beyond(bound["D"]), "pct"),
            "service": fmt(srv.service_s, "ms"), "rho": fmt(S.rho, "pct"), "spare": fmt(srv.spare_per_s, "req/s"),
            "rho_high": fmt(S.rho_high, "pct"), "spare_high": fmt(high.spare_per_s, "req/s"),
            "mean_high": fmt(high.mean_s, "ms")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="On the load curve, the mean and the P99 both climb steeply as the load nears 100 %. What drives "
           "the climb?",
    options=(
        Claim("A", "A busy server slows down, so each request's service takes longer too.",
              "In this model a request's service has the same mean at every load ({service} here): the climb is "
              "all waiting."),
        Claim("B", "The slowest requests slow down most, so the tail pulls away from the mean.",
              "The P99 ÷ mean card stays at {ratio} whatever the load: the tail and the mean rise together."),
        Claim("C", "The spare capacity shrinks toward zero, and waits scale as its inverse.",
              "The mean is 1/(μ − λ): at {rho} load, μ − λ is {spare} and the mean {a1_mean_s}; at {rho_high} it is "
              "{spare_high} and the mean {mean_high}. Halve the spare capacity and every percentile doubles."),
        Claim("D", "Near full load, random arrivals bunch into bigger bursts than at light load.",
              "A Poisson stream is no burstier at a high rate: its gaps are exponential at every rate. What "
              "shrinks is the spare capacity that clears a burst: μ − λ is {spare} at {rho} load and "
              "{spare_high} at {rho_high}."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_p99_s", "P99 time in system", "s", "ms"),
    MetricSpec("a1_mean_s", "Mean time in system", "s", "ms"),
    MetricSpec("a1_over_slo", "Requests slower than the SLO", "1", "pct"),
    MetricSpec("a1_p99_over_mean", "P99 ÷ mean", "1", "x"),
    MetricSpec("a1_lambda", "Arrival rate λ", "1/s", "req/s"),
    MetricSpec("a1_in_system", "Requests in the system, L = λW", "1", "num"),
    MetricSpec("a1_p99_sampled", "P99 of the seeded draws", "s", "ms"),
    MetricSpec("a2_p99_s", "Steady-state P99 under the spike", "s", "ms"),
    MetricSpec("a2_rho_after", "Arrivals ÷ capacity, ρ", "1", "pct"),
    MetricSpec("a2_lag_wait_s", f"Queueing wait as the lag ends (one device: {fmt(S.lag_s, 's')} in)", "s", "s"),
    MetricSpec("a2_backlog", "Requests queued by then", "1", "int"),
    MetricSpec("a2_drain_s", "Time to drain that queue", "s", "s"),
    MetricSpec("a2_min_replicas", "Fewest replicas for the SLO", "1", "int", infinite="none"),
    MetricSpec("a2_shed", "Requests shed by admission control", "1", "pct"),
    MetricSpec("a2_max_service_s", "Slowest service that meets the SLO", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a1_slo_missed", "SLO missed: the P99 is over the target", act=1,
                reach={}, leave={"a1_rho": 0.5}),
    FailureSpec("a2_unstable", "Unstable: arrivals outpace the servers, the queue grows without end", act=2,
                reach={}, leave={"a2_replicas": 251}, contexts=("cloud",)),
    FailureSpec("a2_slo_violated", "SLO violated: the P99 is over the target even when stable", act=2,
                reach={"a2_replicas": 600, "a2_service_s": 0.05}, leave={"a2_service_s": 0.025}, contexts=("cloud",)),
    FailureSpec("a2_spike_backlog", "Backlog: requests wait past the SLO while arrivals exceed capacity", act=2,
                severity="warn",
                reach={}, leave={"a2_spike_rps": 10}),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    srv, slo = server(s), s["a1_slo_s"]
    p99 = srv.percentile_s(S.quantile)
    samples = srv.sample_ms()
    sampled = ch.percentile(samples, 99) / U.MS_PER_S
    parts = [metric_grid(
        M["a1_p99_s"].show(p99, "danger" if p99 > slo else "good", f"SLO {fmt(slo, 'ms')}"),
        M["a1_mean_s"].show(srv.mean_s, note=f"S/(1 − ρ); service alone {fmt(srv.service_s, 'ms')}"),
        M["a1_over_slo"].show(srv.exceed(slo), "danger" if p99 > slo else None, "P(T > SLO) = e^−(μ−λ)·SLO"),
        M["a1_p99_over_mean"].show(p99 / srv.mean_s, note="ln 100, at every load"),
        M["a1_lambda"].show(srv.arrival_per_s, note=f"μ = {fmt(1 / srv.service_s, 'req/s')}"),
        M["a1_in_system"].show(q.mean_queue_length(srv.arrival_per_s, srv.mean_s)),
        M["a1_p99_sampled"].show(sampled, note=f"{len(samples):,} of {S.draws:,} draws shown, seed {S.seed}"),
    )]
    if p99 > slo:
        mean = (f"although the mean is {fmt(srv.mean_s, 'ms')}" if srv.mean_s < slo else
                f"and even the mean, {fmt(srv.mean_s, 'ms')}, is over it")
        parts.append(failure(F["a1_slo_missed"], f"The P99 is {fmt(p99, 'ms')} against the {fmt(slo, 'ms')} "
                                                 f"target, {mean}. {a1_remedy(srv, slo, A1_RHO.min, A1_SERVICE.min)}"))
    parts += [act1_histogram(srv, samples, slo), act1_curve(srv, slo)]
    return parts


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
        ("Service rate, *μ*", fmt(1 / srv.service_s, "req/s")),
        ("Arrival rate, *λ*", fmt(srv.arrival_per_s, "req/s")),
        ("Mean, *W*", fmt(srv.mean_s, "ms")),
        ("P99, closed form", fmt(srv.percentile_s(S.quantile), "ms")),
        ("Draws", f"{S.draws:,} by inversion from Python's Mersenne Twister, seed {S.seed}"),
    ), sources=(
        cite("kleinrock1975", "M/M/1 response time and its exponential distribution"),
        cite("little1961", "L = λW"),
        cite("dean2013", "why the tail, not the mean, is what users feel at scale"),
    ))


SERVICE = {"cloud": "inference service", "edge": "store's camera box", "mobile": "app's on-device model"}
SERVER = {"cloud": "a GPU replica", "edge": "a Jetson Orin NX", "mobile": "the phone's Neural Engine"}


def act1_stakeholder(context: str) -> str:
    srv = scenario_server(context)
    return (f"Our {SERVICE[context]} averages {fmt(srv.mean_s, 'ms')} per request, and our SLO is a P99 of "
            f"{fmt(SETTINGS[context].slo_s, 'ms')}. With the mean under half the target I assumed we had room, "
            "yet complaints about slow responses have tripled. Is the dashboard lying, or are the users?")


def act1_scenario(context: str) -> tuple[str, ...]:
    srv = scenario_server(context)
    return (f"One server, {SERVER[context]} taking {fmt(srv.service_s, 'ms')} per request on average"
            f"{ASSUMED[context]}, completes {fmt(1 / srv.service_s, 'req/s')} (μ) and receives "
            f"{fmt(srv.arrival_per_s, 'req/s')} (λ): it is busy {fmt(S.rho, 'pct')} of the time. Requests arrive "
            "at random (Poisson) and service times vary (exponential): the M/M/1 queue.",
            "A request's time in the system is its wait in the queue plus its own service.")


ACT1 = Act(
    number=1, title="The Comfortable Mean", minutes="12–15 min",
    stakeholder_role="Head of Platform", stakeholder=act1_stakeholder, scenario=act1_scenario,
    prediction=ACT1_PREDICTION,
    controls=(A1_SERVICE, A1_RHO, A1_SLO),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Queue and its tail",
)

# ---- Act II · The spike ---------------------------------------------------------------------

A2_REPLICAS = Slider("a2_replicas", "Replicas once the autoscaler has acted", unit="replicas", min=1, max=600,
                     step=1, default=S.scaled_replicas, fmt="int",
                     help=f"Cloud only: {S.replicas} serve until the lag ends, then this many.")
A2_SPIKE = Slider("a2_spike_rps", "Arrival rate during the spike", unit="1/s", min=10, max=20_000, step=1,
                  default=S.spike_rps, fmt="req/s", scale="log", steps=120)
A2_LAG = Slider("a2_lag_s", "Autoscaler lag: until the new replicas serve", unit="s", min=0, max=300, step=5,
                default=S.lag_s, fmt="s",
                help=f"Cloud only. Kubernetes' autoscaler checks the load every {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} by default; "
                     "starting a replica and loading its model takes the rest.")
A2_SERVICE = Slider("a2_service_s", "Mean service time per request", unit="s", min=0.005, max=S.slow_service_s,
                    step=0.001, default=S.replica_service_s, fmt="ms",
                    help="A smaller or quantised model (V1-10) serves faster.")
A2_ADMIT = Toggle("a2_admission",
                  f"Admission control: refuse requests beyond {fmt(S.admit_max_rho, 'pct')} of the capacity serving")


def spike(s: State) -> q.Spike:
    return spike_of(s["context"], s["a2_spike_rps"], s["a2_service_s"], int(s["a2_replicas"]), s["a2_lag_s"],
                    s["a2_admission"])


def a2_overridden(s: State) -> dict[str, str]:
    if SETTINGS[s["context"]].fleet:
        return {}
    device = DEVICE[s["context"]]
    return {"a2_replicas": f"Not used here: one {device} serves every request; there are no replicas to add.",
            "a2_lag_s": f"Not used here: no autoscaler adds capacity. The planner looks {fmt(S.lag_s, 's')} into "
                        "the burst."}


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt="{a2_setup} How long does a request arriving {a2_when} wait in the queue?",
    quantity=f"queueing wait of a request arriving {fmt(S.lag_s, 's')} into the spike", unit_fmt="s",
    shown_by="a2_lag_wait_s",
    options=(
        Range("A", "{range}: the capacity absorbs the burst as it comes", None, 1.0, 0.2,
              "For {lag}, {arrive} arrive at a capacity of {capacity}: the rest piles up, {a2_backlog} requests, "
              "and a request arriving then waits behind all of them ({a2_lag_wait_s})."),
        Range("B", "{range}: a brief blip while the extra requests spread out", 1.0, 10.0, 5.0,
              "Spreading requests adds no capacity: the queue grows at {excess} for {lag}, to {a2_backlog} "
              "requests, which {after_serves} at {after_rate}: {a2_lag_wait_s}."),
        # C and D part where their claims do: the wait Q/(c₁μ) = τ(λ − c₀μ)/(c₁μ) is under the lag τ
        # exactly when the backlog is served faster than it built
        Range("C", "{range}: the backlog ahead is served faster than it built", 10.0, S.lag_s, 30.0,
              "The {a2_backlog} requests ahead built up at {excess}, and {after_serves} them at {after_rate}, "
              "first in, first out: the wait is {a2_lag_wait_s}. {remedy}"),
        Range("D", "{range}: the backlog ahead takes longer to serve than to build", S.lag_s, None, 300.0,
              "Arrivals run at {rho0} times the capacity: {a2_backlog} requests queue in {lag}, built at {excess}, "
              "and {after_serves} them at {after_rate}, first in, first out: {a2_lag_wait_s}. {remedy}"),
    ),
    truth=act2_truth,
)


def act2_facts(context: str) -> dict[str, str]:
    sp, fleet, slo = scenario_spike(context), SETTINGS[context].fleet, S.act2_slo_s
    before, after = sp.servers_before / sp.service_s, sp.servers_after / sp.service_s
    if fleet:
        need = min_replicas(sp.service_s, sp.arrival_per_s, slo)
        remedy = f"A P99 within {fmt(slo, 'ms')} needs {fmt(need, 'int')} replicas once they serve."
    else:
        fastest = q.mm1_max_service_s(S.quantile, sp.arrival_per_s, slo)
        shed = spike_of(context, sp.arrival_per_s, sp.service_s, 1, S.lag_s, True)
        remedy = (f"A P99 within {fmt(slo, 'ms')} needs service under {fmt(fastest, 'ms')} per request; admission "
                  f"control alone holds the load at {fmt(shed.rho_after, 'pct')}, where the P99 is "
                  f"{fmt(shed.p99_after_s(), 'ms')}.")
    return {"a2_backlog": fmt(sp.backlog, "int"), "a2_lag_wait_s": fmt(sp.lag_end_wait_s, "s"),
            "a2_rho_after": fmt(sp.rho_after, "pct"), "lag": fmt(sp.lag_s, "s"),
            "arrive": fmt(sp.arrival_per_s, "req/s"), "capacity": fmt(before, "req/s"),
            "excess": fmt(sp.arrival_per_s - before, "req/s"), "after_rate": fmt(after, "req/s"),
            "rho0": fmt(q.utilization(sp.arrival_per_s, sp.service_s, sp.servers_before), "num"),
            "after_serves": f"the {sp.servers_after} replicas serve" if fleet else f"the {DEVICE[context]} alone serves",
            "remedy": remedy}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"At the slowest service the planner offers, {fmt(S.slow_service_s, 'ms')} per request, no setting "
           f"brings the P99 under the {fmt(S.act2_slo_s, 'ms')} SLO, {{a2_levers}}. Why?",
    options=(
        Claim("A", "Service times vary: over 1 % of requests outlast the SLO without waiting.",
              "The service time is exponential: e^(−{slo}/{slow}) = {slow_over} of services alone take longer "
              "than {slo}, so its own P99 is ln 100 × {slow} = {slow_p99}, over the SLO with no queue at all. "
              "In this model only faster service (a smaller or quantised model) meets it; a service whose "
              "time varied less would too."),
        Claim("B", "Some requests always wait in the queue, however much capacity serves them.",
              "{no_wait}, yet the P99 only falls to {slow_p99}, the service's own."),
        Claim("C", "The backlog from the spike's first minute keeps the later requests waiting.",
              "The P99 card is the steady state, after any backlog has gone; with admission control there is no "
              "backlog at all, and the P99 still stays at {slow_p99} or more."),
        Claim("D", "At that speed the queue is unstable, whatever capacity or load it gets.",
              "It is stable once arrivals are below the capacity ({stabilisers}), and its P99 then still stays "
              "at {slow_p99} or more."),
    ),
    answer_letter="A",
)


def act2_reflection_facts(context: str) -> dict[str, str]:
    fleet = SETTINGS[context].fleet
    return {"slow": fmt(S.slow_service_s, "ms"), "slow_p99": fmt(MIN_SLO_HEADROOM * S.slow_service_s, "ms"),
            "slo": fmt(S.act2_slo_s, "ms"), "slow_over": fmt(exponential_beyond(S.act2_slo_s / S.slow_service_s), "pct"),
            "no_wait": ("With ample capacity almost no request waits (Erlang C falls toward 0)" if fleet else
                        "At a light load almost no request waits (the chance of waiting, ρ, falls toward 0)"),
            "stabilisers": ("more replicas, a lighter load or admission control" if fleet else
                            "a lighter load or admission control")}


def act2_instruments(s: State) -> list:
    sp, slo, context = spike(s), S.act2_slo_s, s["context"]
    fleet = SETTINGS[context].fleet
    p99 = sp.p99_after_s()
    stable = sp.rho_after < 1
    servers = plural(sp.servers_after, "replica", count_fmt="int") if fleet else f"one {DEVICE[context]}"
    cards = [
        M["a2_p99_s"].show(p99, "danger" if p99 > slo else "good", f"SLO {fmt(slo, 'ms')}" if stable
                           else "unstable: the queue grows without end"),
        M["a2_rho_after"].show(sp.rho_after, "danger" if not stable else None,
                               f"{servers}, {fmt(sp.admitted_after_per_s, 'req/s')} admitted"),
        M["a2_lag_wait_s"].show(sp.lag_end_wait_s, "warn" if sp.lag_end_wait_s > slo else None,
                                f"fluid model: the backlog ahead, served by {servers}" if fleet else
                                f"fluid model, {fmt(sp.lag_s, 's')} into the burst; nothing adds capacity"),
        M["a2_backlog"].show(sp.backlog),
        M["a2_drain_s"].show(sp.drain_s, note="never: arrivals still outpace the capacity" if math.isinf(sp.drain_s) else ""),
        min_replicas_card(M["a2_min_replicas"], sp, slo) if fleet else
        M["a2_max_service_s"].show(*max_service_card(sp, slo)),
        M["a2_shed"].show(sp.shed_after, "warn" if sp.shed_after > 0 else None),
    ]
    parts = [metric_grid(*cards), *act2_failures(sp, p99, slo, context)]
    parts.append(act2_replica_chart(sp, slo) if fleet else act2_service_chart(sp, slo, DEVICE[context], A2_SERVICE.min, A2_SERVICE.max))
    parts.append(act2_timeline(sp, fleet))
    if not fleet:
        parts.append(callout("info", "One device, one queue", prose(
            f"The {DEVICE[context]} serves every request: there is no fleet to grow. Its levers are the service "
            "time (a smaller or quantised model) and admission control, which refuses work beyond "
            f"{fmt(S.admit_max_rho, 'pct')} of its capacity. The scenario's {fmt(SETTINGS[context].spike_rps, 'req/s')} "
            f"burst and {fmt(SETTINGS[context].a2_service_s, 'ms')} service are assumptions, not measurements.")))
    return parts


def act2_failures(sp: q.Spike, p99: float, slo: float, context: str) -> list:
    """Act II's failures, each offering only the levers that are not at their limit and that can clear it."""
    out, fleet = [], SETTINGS[context].fleet
    faster = sp.service_s > A2_SERVICE.min
    if sp.rho_after >= 1:
        levers = (["add replicas"] if fleet and sp.servers_after < A2_REPLICAS.max else []) + \
                 (["serve faster"] if faster else []) + ["turn on admission control"]
        on = plural(sp.servers_after, "replica", count_fmt="int") if fleet else f"the {DEVICE[context]}"
        out.append(failure(F["a2_unstable"],
                           f"{fmt(sp.admitted_after_per_s, 'req/s')} arrive and at most "
                           f"{fmt(sp.servers_after / sp.service_s, 'req/s')} complete on {on}. "
                           f"{listed(levers).capitalize()}."))
    elif p99 > slo:
        out.append(failure(F["a2_slo_violated"],
                           f"Stable at {fmt(sp.rho_after, 'pct')}, but the P99 is {fmt(p99, 'ms')}, over the "
                           f"{fmt(slo, 'ms')} target. {slo_remedy(sp, slo, fleet, faster, A2_REPLICAS.max)}"))
    if sp.lag_end_wait_s > slo:
        when = "before the new replicas serve" if fleet else f"within {fmt(sp.lag_s, 's')} of the burst"
        fix = ("A shorter lag (warm replicas, scaling ahead of a known launch) or admission control" if fleet else
               f"Service under {fmt(1 / sp.arrival_per_s, 'ms')} or admission control" if 1 / sp.arrival_per_s >= A2_SERVICE.min
               else "Admission control")
        out.append(failure(F["a2_spike_backlog"],
                           f"{fmt(sp.backlog, 'int')} requests queue {when}, and one arriving then waits "
                           f"{fmt(sp.lag_end_wait_s, 's')}. {fix} avoids it."))
    return out


def act2_math(s: State):
    sp = spike(s)
    load = q.offered_load(sp.admitted_after_per_s, sp.service_s)
    return math_peek("The governing equations · Act II", (
        Equation(r"C(c,a) = \frac{\frac{a^c}{c!}\frac{c}{c-a}}{\sum_{k<c}\frac{a^k}{k!} + \frac{a^c}{c!}\frac{c}{c-a}},"
                 r"\quad a = \lambda S",
                 "Erlang C: the chance that a request finds all *c* servers busy (computed by the Erlang B "
                 "recursion; with one server it is ρ)."),
        Equation(r"P(T>t) = (1-C)\,e^{-\mu t} + C\,\frac{\theta e^{-\mu t} - \mu e^{-\theta t}}{\theta - \mu},"
                 r"\quad \theta = c\mu - \lambda",
                 "Time in system of M/M/c: a wait (zero, or exponential at θ) plus the service; P99 solves "
                 "P(T > t) = 1 %."),
        Equation(r"Q = (\lambda - c_0\mu)\,\tau,\quad w = \frac{Q}{c_1\mu},\quad t_{\text{drain}} = \frac{Q}{c_1\mu - \lambda}",
                 "The fluid model of an overload lasting τ: the queue grows at the excess rate; first in, first "
                 "out, a request arriving at τ waits while the c₁ servers from then on serve the Q ahead of it."),
    ), rows=(
        ("Offered load *a* (erlangs)", fmt(load, "num")),
        ("Erlang C", erlang_c_text(sp.servers_after, load)),
        ("Backlog, *Q*", fmt(sp.backlog, "int")),
        ("Wait at *τ*, *w*", fmt(sp.lag_end_wait_s, "s")),
        ("Drain time", fmt(sp.drain_s, "s") if math.isfinite(sp.drain_s) else "never: arrivals outrun the fleet"),
    ), sources=(
        cite("kleinrock1975", "M/M/m: Erlang C and the waiting-time distribution"),
        cite("newell1982", "the wait of a request under FIFO from the cumulative arrival and departure curves"),
        C.REGISTRY["K8S_HPA_SYNC_PERIOD"].source + " (the lag also includes starting a replica and loading "
        "its model; 60 s is the scenario's assumption)",
    ))


def erlang_c_text(servers: int, load: float) -> str:
    """Erlang C as a share; a positive chance too small for a float reads as tiny, not 0 %."""
    if load >= servers:
        return "100 % (unstable)"
    waits = q.erlang_c(servers, load)
    return fmt(waits, "pct") if waits > 0 or load == 0 else "< 0.001 %"


def act2_stakeholder(context: str) -> str:
    setting = SETTINGS[context]
    slo = fmt(S.act2_slo_s, "ms")
    if setting.fleet:
        return (f"We serve {fmt(S.base_rps, 'req/s')} with {S.replicas} replicas of "
                f"{fmt(S.replica_service_s, 'ms')} each, and our P99 SLO is {slo}. Marketing expects "
                f"{fmt(S.spike_rps / S.base_rps, 'x')} the traffic on launch day. The autoscaler will double the "
                "fleet when load rises, so I think we are covered. Are we?")
    burst = fmt(setting.spike_rps, "req/s")
    cause = {"edge": f"At opening time, motion on every camera sends the box {burst}",
             "mobile": f"Our new feature will send the Neural Engine {burst} while it runs"}[context]
    return (f"{cause}, {fmt(setting.a2_service_s, 'ms')} each{ASSUMED[context]}, and our P99 SLO is {slo}. "
            "There is no second device to add. Will it cope?")


def act2_scenario(context: str) -> tuple[str, ...]:
    if SETTINGS[context].fleet:
        return ("Each replica is a server; a load balancer sends each request to any free replica, so the fleet is "
                "an M/M/c queue with one shared line.",
                f"New replicas need time to start and load the model: they serve {fmt(S.lag_s, 's')} after the "
                "spike begins. Until then, the old fleet carries everything.")
    return (f"One {DEVICE[context]} serves the requests in turn, first in, first out: an M/M/1 queue. Nothing "
            f"adds capacity while the burst lasts; the planner looks at the queue {fmt(S.lag_s, 's')} in.",)


ACT2 = Act(
    number=2, title="The Spike", minutes="15–20 min",
    stakeholder_role="Operations Lead", stakeholder=act2_stakeholder, scenario=act2_scenario,
    prediction=ACT2_PREDICTION,
    controls=(A2_REPLICAS, A2_SPIKE, A2_LAG, A2_SERVICE, A2_ADMIT),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=lambda context: {**act2_facts(context), **act2_reflection_facts(context)},
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


def results(s: State) -> dict[str, float | bool | None]:
    sp = spike(s)
    p99 = sp.p99_after_s()
    return {"lambda_rps": sp.arrival_per_s, "mu_rps": 1 / sp.service_s, "rho": sp.rho_after,
            "p99_ms": p99 * U.MS_PER_S, "replicas": float(sp.servers_after),
            "autoscale_lag_s": sp.lag_s if SETTINGS[s["context"]].fleet else None,
            "backlog_req": sp.backlog, "slo_met": p99 <= S.act2_slo_s and sp.lag_end_wait_s <= S.act2_slo_s,
            "a1_p99_ms": server(s).percentile_s(S.quantile) * U.MS_PER_S}


RECORD = (
    MetricSpec("lambda_rps", "Arrival rate during the spike", "1/s", "req/s"),
    MetricSpec("mu_rps", "Service rate per server", "1/s", "req/s"),
    MetricSpec("rho", "Arrivals ÷ capacity under the spike", "1", "pct"),
    MetricSpec("p99_ms", "Steady-state P99 under the spike (ms)", "ms", "num"),
    MetricSpec("replicas", "Servers under the spike", "1", "int"),
    MetricSpec("autoscale_lag_s", "Autoscaler lag", "s", "s"),
    MetricSpec("backlog_req", "Requests queued as the lag ends (one device: 1 min in)", "1", "int"),
    MetricSpec("slo_met", "SLO met throughout", "1", "yesno"),
    MetricSpec("a1_p99_ms", "P99 time in system (ms)", "ms", "num"),
)


def lab_takeaways() -> list[str]:
    f1, f2 = act1_facts("cloud"), act2_facts("cloud")
    return [
        f"A mean says little about a tail: at {fmt(S.rho, 'pct')} load a server's mean time in system is "
        f"{fmt(1 / (1 - S.rho), 'num')} service times, its P99 {f1['ratio']} times that, and {f1['a1_over_slo']} of "
        f"requests miss a target of {fmt(S.slo_per_service, 'num')} service times (in the cloud scenario: "
        f"{f1['a1_mean_s']}, {f1['a1_p99_s']} and {f1['slo']}).",
        f"In M/M/1 the P99 is always ln 100 ≈ {f1['ratio']} means; what explodes near ρ = 1 is the mean, "
        "S/(1 − ρ) = 1/(μ − λ), and the tail with it.",
        f"While arrivals outrun the servers, each second adds to the wait of everyone behind: in the cloud launch "
        f"{f2['a2_backlog']} requests queue during the {f2['lag']} lag, and one arriving then waits "
        f"{f2['a2_lag_wait_s']} even once the doubled fleet serves. A device that cannot scale only sheds or serves faster.",
        f"Stability first, then the tail: the cloud fleet needs {fmt(min_replicas(S.replica_service_s, S.spike_rps, S.act2_slo_s), 'int')} "
        f"replicas for a P99 within {fmt(S.act2_slo_s, 'ms')}, and a service whose own P99 (ln 100 · S if exponential) is over the SLO "
        "misses it at any size. Scale ahead of a known spike, or shed load.",
    ]


LAB = Lab(
    id="v1_13", volume=1, number=13, title="The Tail Latency Trap",
    invariant="Latency is a queue's time in system: a comfortable **mean** says little about the **tail**, and "
              "both explode as utilisation nears 1.",
    hook="The dashboard says the average request is fast, well inside the target, yet users keep complaining. "
         "Then launch day brings ten times the traffic. What do the users actually wait?",
    minutes="30–35 min", chapter="Model Serving", url="vol1/13-tail-latency/",
    description="Why a comfortable mean latency says little about the P99, how a queue's tail explodes near full "
                "load, and how many replicas a launch spike really needs.",
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
        "**V1-10 The Compression Frontier**: a smaller or quantised model shortens the service time S.",
        "**V2-08 The Utilization Trap**: the same queue on a GPU cluster, where jobs wait for slots.",
        "**V2-10 The KV-Cache Memory Wall**: batching LLM requests, where continuous batching lets a short answer "
        "leave without waiting for a long one.",
        "**V2-12 The SLO Composition Trap**: tails of many services composed.",
    ),
    presets={"context": {name: {"a1_service_s": st.service_s, "a1_slo_s": st.slo_s, "a2_spike_rps": st.spike_rps,
                                "a2_service_s": st.a2_service_s} for name, st in SETTINGS.items()}},
    record_metrics=RECORD,
    context_from=TRACK,
    terms=terms,
    track_notes=TRACK_NOTES,
)
