"""Lab V2-12 · The SLO Composition Trap.

Core invariant: service-level objectives do not compose by adding or copying. A request that
fans out to N shards is as slow as the slowest, so per-shard tails compound:
P(slow) = 1 − (1 − p)^N. A request that passes N hops in a chain adds their latencies, and
tails rarely coincide, so the sum of per-hop P99s over-provisions. Under overload, retries
multiply the load by (1 + r)^k, and only shedding acts fast enough to keep goodput.

Act I (the fan-out): five shards each meet P99 = 100 ms; what share of page requests are
slower than 100 ms? 1 − 0.99⁵ = 4.9 %. The instruments sample both topologies (fan-out as the
maximum, a chain as the sum of lognormal hops) with a fixed seed and set them beside the closed
forms; the reflection inverts the formula into a per-shard budget.
Act II (the retry storm): inference receives 150 % of its capacity, clients time out after 2 s
and retry 3 times at 2 layers. The student picks the fix: only circuit breakers and load
shedding act before the queue's delay passes the timeout (4 s), after which goodput is zero.

Corrections of the upstream lab (spec §2) and choices: the question is asked of a fan-out, where
1 − Π(1 − p) is exact, and the chain (sampled P99 ≈ 324 ms against a 500 ms sum of P99s) is an
instrument. The context is the hop's shape: lognormal (the spec's) or exponential (the chain's
sum is Erlang, a closed form that checks the sampler); the fan-out share does not depend on it.
The cascade is reachable: without shedding any overload zeroes goodput once the queue's delay
passes the timeout, unless the autoscaler arrives first; retries are bounded by (1 + r)^k.

Ledger: topology, n_services, p_svc, e2e_violation, per_svc_budget, overload, retries, layers,
shedding, goodput_frac, t_collapse_s, the answers (act1_prediction, act1_correct,
act2_decision) and the failure states hit (constraint_hit).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, Toggle, chart, failure, fmt,
                              math_peek, metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_12_model import (CHAIN, FIXES, HOPS, HPA_LAG_S, N_AXIS, SCENARIO_STORM, Composition, S,
                                          act1_truth, act2_decide, fix_goodput, goodput_series)
from pylabs.physics import constants as C
from pylabs.physics import latency as L
from pylabs.physics import queueing as q
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------------

CONTEXT = Choice("context", "Latency of one service", (
    Option("lognormal", f"Lognormal: median {fmt(S.hop_median_s, 'ms')}, P99 {fmt(S.hop_p99_s, 'ms')}"),
    Option("exponential", f"Exponential: P99 {fmt(S.hop_p99_s, 'ms')} (a memoryless service)"),
), default="lognormal", help="The shape of one service's latency. Both have the same P99; the exponential "
                             "has a lower median and a longer tail relative to it.")


def hop(s: State) -> L.Hop:
    return HOPS[s["context"]]


# ---- Act I · The fan-out ------------------------------------------------------------------

A1_TOPOLOGY = Choice("a1_topology", "How the services combine", (
    Option("fanout", "Fan-out: the request waits for all of them"),
    Option("serial", "Chain: the request visits them one after another"),
), default="fanout", help="Fan-out: the end-to-end SLO is the per-service threshold. Chain: it is the sum "
                          "of the per-service thresholds, the budget an SRE would write down.")
A1_N = Slider("a1_services", "Services N", unit="1", min=2, max=100, step=1, default=S.shards, fmt="int")
A1_P = Slider("a1_p_svc", "Per-service violation p", unit="1", min=0.001, max=0.05,
              step=0.001, default=S.p_svc, fmt="pct",
              help="The share of requests slower than each service's threshold: the threshold is its (1 − p) quantile.")
A1_COMMON = Slider("a1_common", "Common-cause share ρ", unit="1", min=0, max=1, step=0.05, default=0, fmt="pct",
                   help="The share of requests in which one shared cause (a GC storm, a hot switch) makes every "
                        "service draw the same latency; otherwise they are independent.")


def composition(s: State) -> Composition:
    return Composition(hop(s), s["a1_topology"], int(s["a1_services"]), s["a1_p_svc"], s["a1_common"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"The search page fans out to {S.shards} shards and waits for all of them. Each shard meets its "
           f"SLO: P99 = {fmt(S.hop_p99_s, 'ms')}, so it is slower than that on {fmt(S.p_svc, 'pct')} of "
           f"requests. What share of page requests take longer than {fmt(S.hop_p99_s, 'ms')}?",
    quantity=f"page requests slower than {fmt(S.hop_p99_s, 'ms')}", unit_fmt="pct",
    options=(
        Range("A", "{range}: about what each shard promises; anything more is a bug", None, 0.015, 0.01,
              "Every shard keeps its promise, yet a page is slow when *any* of its {n} shards is: "
              "1 − (1 − p)^N = {truth}. No bug is needed."),
        Range("B", "{range}: the shards' tails compound; each page waits for the slowest", 0.015, 0.07, 0.05,
              "Right: P(no shard slow) = (1 − p)^N, so {truth} of pages are slow. At Google's scale of "
              "{leaves} leaves the same {leaf_slow} gives {tail_100}."),
        Range("C", f"{{range}}: the {fmt(S.hop_p99_s, 'ms')} target is simply too tight for this service",
              0.07, 0.2, 0.1,
              "The target is met by every shard; what grows is the chance that one of {n} is slow: {truth}, "
              "not more."),
        Range("D", "{range}: most pages; only the median (P50) is a meaningful target", 0.2, None, 0.5,
              "That happens only at far larger fan-out ({tail_100} at {leaves} shards); with {n} shards it is "
              "{truth}. Medians hide the tail users feel."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    budget = L.per_service_budget(S.page_target, S.shards)
    tail_100 = L.fanout_slow_fraction(C.TAIL_AT_SCALE_LEAF_SLOW, int(C.TAIL_AT_SCALE_LEAVES))
    return {"n": str(S.shards), "truth": fmt(act1_truth(), "pct"), "leaves": fmt(C.TAIL_AT_SCALE_LEAVES, "int"),
            "leaf_slow": fmt(C.TAIL_AT_SCALE_LEAF_SLOW, "pct"),
            "tail_100": fmt(tail_100, "pct"), "budget": fmt(budget, "pct"), "target": fmt(S.page_target, "pct"),
            "budget_ms": fmt(HOPS["lognormal"].quantile(1 - budget), "ms"), "budget_q": fmt(1 - budget, "pct"), "slo": fmt(S.hop_p99_s, "ms"),
            "reflect_fan": fmt(L.fanout_slow_fraction(1 - S.reflect_quantile, S.shards), "pct"),
            "chain_p99": fmt(CHAIN.sampled().quantile(0.99), "ms"), "chain_slo": fmt(CHAIN.slo_s, "ms")}


P_REFLECT = "P" + f"{S.reflect_quantile:.0%}".removesuffix("%")  # the percentile's name: "P95"

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Product wants at most {fmt(S.page_target, 'pct')} of pages slower than {fmt(S.hop_p99_s, 'ms')}. "
           f"What must each of the {S.shards} shards promise?",
    options=(
        Claim("A", f"P99 ≤ {fmt(S.hop_p99_s, 'ms')}, as today: {fmt(S.page_target, 'pct')} per shard keeps the "
                   "page at the same rate.",
              "That is today's promise, and it gives {truth} slow pages: the shards' tails compound."),
        Claim("B", "A tighter tail: each shard may be slow on at most 1 − (1 − p)^(1/N) of requests, "
                   f"about 1/{fmt(S.shards, 'int')} of the page's budget.",
              "Right: {budget} per shard, so each shard's {budget_q} quantile must be under {slo}. Today's "
              "shards reach {budget_ms} there, so they must get faster."),
        Claim("C", f"{P_REFLECT} ≤ {fmt(S.hop_p99_s, 'ms')}: with {S.shards} shards the slow ones average out.",
              f"Nothing averages in a fan-out: the page takes the maximum. At {P_REFLECT} per shard "
              "{reflect_fan} of pages would be slow."),
        Claim("D", "No per-shard targets at all: only the page's P99 matters.",
              "The page's tail is made of the shards' tails; without a budget per shard of {budget} no team "
              "knows what to fix."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_violation", "Requests over the end-to-end SLO", "1", "pct"),
    MetricSpec("a1_p99_s", "End-to-end P99 (sampled)", "s", "ms"),
    MetricSpec("a1_upstream", "Upstream formula 1 − (1 − p)^N", "1", "pct"),
    MetricSpec("a1_budget", f"Per-service budget for a {fmt(S.page_target, 'pct')} fan-out", "1", "pct"),
    MetricSpec("a1_threshold_s", "Per-service threshold (its 1 − p quantile)", "s", "ms"),
    MetricSpec("a1_p50_s", "End-to-end median (sampled)", "s", "ms"),
    MetricSpec("a2_goodput", "Goodput: demand answered in time", "1", "pct"),
    MetricSpec("a2_t_collapse_s", "Queue delay passes the timeout after", "s", "s"),
    MetricSpec("a2_load", "Load on inference (× capacity)", "1", "x"),
    MetricSpec("a2_amplification", "Worst-case retry amplification", "1", "x"),
    MetricSpec("a2_hpa_s", "Autoscaler adds pods after", "s", "s"),
)}

FAILURES = (
    FailureSpec("a1_tail_is_typical", "Slow is the norm: most requests miss the end-to-end SLO", act=1,
                severity="warn"),
    FailureSpec("a2_cascade", f"CASCADE: goodput below {fmt(S.goodput_floor, 'fraction')} of the demand", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    c = composition(s)
    sample = c.sampled()
    budget = L.per_service_budget(S.page_target, c.n)
    exact = "exact for a fan-out" if c.topology == "fanout" else f"the chain's real share: {fmt(c.violation, 'pct')}"
    parts = [metric_grid(
        M["a1_violation"].show(c.violation, "danger" if c.violation > S.typical_violation else None,
                               f"SLO {fmt(c.slo_s, 'ms')}; sampled: {sample.count_above(c.slo_s):,} of {S.draws:,}"),
        M["a1_p99_s"].show(sample.quantile(0.99), "warn" if sample.quantile(0.99) > c.slo_s else "good",
                           f"closed form {fmt(c.p99_curve(c.n), 'ms')}"),
        M["a1_upstream"].show(c.upstream, note=exact),
        M["a1_budget"].show(budget, note=f"each service's P({fmt(1 - budget, 'pct')}) under the threshold"),
        M["a1_threshold_s"].show(c.threshold_s, note=f"{c.n} services"),
        M["a1_p50_s"].show(sample.quantile(0.5)),
    )]
    if c.violation > S.typical_violation:
        parts.append(failure(F["a1_tail_is_typical"],
                             f"{fmt(c.violation, 'pct')} of requests miss the {fmt(c.slo_s, 'ms')} SLO with {c.n} "
                             "services: the per-service tail has become the typical request. Fewer services in the "
                             "fan-out, or a tighter per-service budget, brings it back."))
    parts.append(act1_chart(c, sample))
    return parts


def int_label(v: float) -> str:
    return fmt(v, "int")


def x_label(v: float) -> str:
    return fmt(v, "x")


def act1_chart(c: Composition, sample: L.Sampled | L.FanoutSampled):
    other = Composition(c.hop, "serial" if c.topology == "fanout" else "fanout", c.n, c.p_svc, c.common)
    fan, chain = (c, other) if c.topology == "fanout" else (other, c)
    ns = list(N_AXIS)
    ms = S.ms_per_s
    chain_p99 = {n: chain.p99_curve(n) for n in ns}
    fan_p99 = {n: fan.p99_curve(n) for n in ns}
    traces = [ch.line("Chain: sum of per-service P99s", ns, [n * c.hop.quantile(0.99) * ms for n in ns],
                      "muted", dash="dash"),
              ch.line("Chain: real P99", ns, [chain_p99[n] * ms for n in ns], "series2"),
              ch.line("Fan-out: real P99", ns, [fan_p99[n] * ms for n in ns], "series1"),
              ch.point("Yours (sampled)", c.n, sample.quantile(0.99) * ms, "accent")]
    figure = ch.figure(traces, x=ch.axis("Services N", "log", **ch.ticks_at(S.n_ticks, int_label)),
                       y=ch.axis("End-to-end P99 (ms)", "log", **ch.ticks_at(S.ms_ticks, int_label)))
    summary = (f"Summing {c.n} P99s budgets {fmt(c.n * c.hop.quantile(0.99), 'ms')} for a chain whose real P99 is "
               f"{fmt(chain.p99_curve(c.n), 'ms')}; a fan-out of {c.n} has a P99 of {fmt(fan.p99_curve(c.n), 'ms')} "
               f"against one service's {fmt(c.hop.quantile(0.99), 'ms')}.")
    rows = [(str(n), fmt(n * c.hop.quantile(0.99), "ms"), fmt(chain_p99[n], "ms"), fmt(fan_p99[n], "ms")) for n in ns]
    return chart("a1_p99_curve", "End-to-end P99 against the number of services", figure, summary,
                 table=(("N", "Sum of P99s", "Chain P99", "Fan-out P99"), rows))


def act1_math(s: State):
    c = composition(s)
    mu, sigma = L.fenton_wilkinson(c.hop, c.n)
    return math_peek("The governing equations · Act I", (
        Equation(r"P_{\text{slow}} = (1-\rho)\,\bigl[1-(1-p)^N\bigr] + \rho\,p",
                 "A fan-out is slow when any shard is; a common cause (share ρ) makes them slow together."),
        Equation(r"p_{\text{svc}} = 1-(1-p_{\text{target}})^{1/N}",
                 "The per-shard budget that keeps a fan-out at its target."),
        Equation(r"\sigma_S^2 = \ln\!\Bigl(1+\frac{N\,\mathrm{Var}[X]}{(N\,\mathrm{E}[X])^2}\Bigr),\quad "
                 r"\mu_S = \ln(N\,\mathrm{E}[X]) - \tfrac{\sigma_S^2}{2}",
                 "Fenton–Wilkinson: a chain's sum matched by one lognormal; the sampled P99 checks it."),
    ), rows=(("Hop σ (lognormal)", fmt(HOPS["lognormal"].sigma, "num")),
             ("Chain sum μ_S, σ_S", f"{fmt(mu, 'num')}, {fmt(sigma, 'num')}"),
             ("Samples", f"{S.draws:,}, seed {S.seed}")),
        sources=(cite("dean2013", f"fan-out of {fmt(C.TAIL_AT_SCALE_LEAVES, 'int')} leaves, each slow "
                                  f"{fmt(C.TAIL_AT_SCALE_LEAF_SLOW, 'pct')} of the time: "
                                  f"{fmt(C.TAIL_AT_SCALE_SLOW_REQUESTS, 'pct')} of requests slow"),
                 cite("fenton1960", "the moment-matched lognormal sum")))


ACT1 = Act(
    number=1, title="The Fan-out", minutes="15–20 min",
    stakeholder_role="SRE lead, search",
    stakeholder=lambda: (
        f"Our search page asks {S.shards} index shards in parallel and renders when the last one answers. "
        f"Every shard team shows me a green dashboard: P99 = {fmt(S.hop_p99_s, 'ms')}, as promised. "
        f"Yet the page misses {fmt(S.hop_p99_s, 'ms')} far more often than that. Is a shard lying?"),
    scenario=lambda: (
        f"Each shard's latency is lognormal with median {fmt(S.hop_median_s, 'ms')} and P99 "
        f"{fmt(S.hop_p99_s, 'ms')}; the shards are independent unless you add a common cause.",
        "The instruments sample both a fan-out (the slowest shard) and a chain (the sum of hops) with a fixed "
        "seed and set them beside the closed forms.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_TOPOLOGY, A1_N, A1_P, A1_COMMON),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Composition explorer",
)

# ---- Act II · The retry storm ---------------------------------------------------------------

A2_OVERLOAD = Slider("a2_overload", "Demand ÷ capacity x", unit="1", min=1.1, max=2.0, step=0.05,
                     default=S.overload, fmt="x")
A2_TIMEOUT = Slider("a2_timeout_s", "Client timeout", unit="s", min=0.5, max=30, step=0.5, default=S.timeout_s,
                    fmt="s")
A2_RETRIES = Slider("a2_retries", "Retries per layer r", unit="1", min=0, max=5, step=1, default=S.retries,
                    fmt="int", help="Ignored while the circuit breaker is on: the retry budget caps retries instead.")
A2_LAYERS = Slider("a2_layers", "Retrying layers k", unit="1", min=1, max=3, step=1, default=S.layers, fmt="int",
                   help="Client, gateway, service: each layer that retries multiplies the attempts. Ignored while "
                        "the circuit breaker is on.")
A2_SHED = Toggle("a2_shedding", "Circuit breakers, bulkheads and load shedding", default=False,
                 help="The queue is bounded: what cannot be served in time is rejected at once, and callers stop "
                      "retrying while the breaker is open.")
A2_BUDGET = Slider("a2_budget", "Retry budget (retries ÷ requests)", unit="1", min=0, max=0.5, step=0.05,
                   default=C.SRE_RETRY_BUDGET_RATIO, fmt="pct",
                   help="Only with the circuit breaker on; without it the retries per layer apply.")


def storm(s: State) -> q.Overload:
    return q.Overload(s["a2_overload"], s["a2_timeout_s"], int(s["a2_retries"]), int(s["a2_layers"]),
                      s["a2_shedding"], s["a2_budget"])


ACT2_PICK = Pick(
    id="a2_pick", act=2,
    prompt=f"Inference is receiving {fmt(S.overload, 'x')} its capacity. Which fix keeps at least "
           f"{fmt(S.goodput_floor, 'pct')} of requests answered within the {fmt(S.timeout_s, 's')} timeout?",
    quantity="the fix that keeps goodput",
    options=(
        Claim("A", "Order more GPU capacity: new nodes join the pool.", "{A_verdict}"),
        Claim("B", "Circuit breakers and bulkheads: shed what cannot be served in time, cap retries.",
              "{B_verdict}"),
        Claim("C", "Better monitoring and alerts, so the on-call sees the overload sooner.", "{C_verdict}"),
        Claim("D", "The horizontal pod autoscaler: it adds pods when load rises.", "{D_verdict}"),
    ),
    decide=act2_decide,
)

FIX_NAMES = {"A": "new capacity", "B": "shedding", "C": "monitoring", "D": "the autoscaler"}


def verdict_text(letter: str) -> str:
    fixed, lag = FIXES[letter]
    good = fix_goodput(letter)
    if fixed.shedding:
        return (f"Goodput **{fmt(good, 'pct')}** of the demand: the tier stays busy at capacity, every answer is "
                f"fresh, and retries add only {fmt(fixed.budget, 'pct')} ({fmt(fixed.load(HPA_LAG_S), 'x')} capacity offered).")
    when = "never adds capacity" if math.isinf(lag) else f"acts after {fmt(lag, 's')}"
    return (f"Goodput **{fmt(good, 'pct')}**: the queue's delay passes the timeout after "
            f"{fmt(fixed.t_collapse_s, 's')}, while {FIX_NAMES[letter]} {when}. By then every request times out and "
            f"is retried, up to {fmt(fixed.amplification, 'x')} attempts: {fmt(fixed.load(lag), 'x')} capacity.")


def act2_facts() -> dict[str, str]:
    facts = {f"{k}_verdict": verdict_text(k) for k in FIXES}
    facts.update(amp=fmt(SCENARIO_STORM.amplification, "x"), r=str(S.retries), k=str(S.layers),
                 add=fmt(1 + S.retries * S.layers, "x"), t_c=fmt(SCENARIO_STORM.t_collapse_s, "s"),
                 per_layer=fmt(1 + S.retries, "x"), load=fmt(SCENARIO_STORM.load(HPA_LAG_S), "x"))
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Clients retry {S.retries} times, and {S.layers} layers retry. How much load can that put on "
           "inference, per user request?",
    options=(
        Claim("A", "Each layer makes up to 1 + r attempts at the layer below, and the layers multiply: (1 + r)^k.",
              "Right: {per_layer} per layer, {amp} across {k} layers, so {load} capacity is offered once "
              "every request times out."),
        Claim("B", "Retries add across layers: 1 + r·k attempts.",
              "Layers multiply, not add: each of the upper layer's attempts triggers its own retries below, "
              "{amp} rather than {add}."),
        Claim("C", f"{S.retries} retries mean {S.retries}× the load.",
              "Each request is also tried once before its retries: {per_layer} per layer, {amp} across {k} layers."),
        Claim("D", "None: retries fire only after a timeout, and timeouts are rare.",
              "Overload makes timeouts universal: after {t_c} every request times out, and every one is retried."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    st = storm(s)
    good, t_c = st.goodput_frac(HPA_LAG_S), st.t_collapse_s
    parts = [metric_grid(
        M["a2_goodput"].show(good, "danger" if good < S.goodput_floor else "good",
                             f"floor {fmt(S.goodput_floor, 'pct')}"),
        collapse_metric(st),
        M["a2_load"].show(st.load(HPA_LAG_S), "danger" if st.load(HPA_LAG_S) > 1 else None,
                          "breaker on: demand plus the retry budget" if st.shedding else "after retries"),
        M["a2_amplification"].show(1 + st.budget if st.shedding else st.amplification,
                                   note="capped by the budget" if st.shedding else f"(1 + {st.retries})^{st.layers}"),
        M["a2_hpa_s"].show(HPA_LAG_S, "good" if st.rescued(HPA_LAG_S) or st.shedding else "danger",
                           "in time" if st.rescued(HPA_LAG_S) else
                           ("not needed to keep goodput" if st.shedding else "after the collapse")),
    )]
    if good < S.goodput_floor:
        parts.append(failure(F["a2_cascade"],
                             f"The queue's delay passes the {fmt(st.timeout_s, 's')} timeout after {fmt(t_c, 's')}, "
                             f"before the autoscaler's {fmt(HPA_LAG_S, 's')}: every answer is late, every request is "
                             f"retried ({fmt(st.load(HPA_LAG_S), 'x')} capacity offered), and goodput is zero. Turn on "
                             "shedding, or give the autoscaler time (a longer timeout, a milder overload)."))
    parts += [act2_chart(st), load_chart(st)]
    return parts


def collapse_metric(st: q.Overload):
    if st.shedding:
        return M["a2_t_collapse_s"].show(st.timeout_s, "good", "never: the queue is bounded below the timeout")
    return M["a2_t_collapse_s"].show(st.t_collapse_s, "danger" if not st.rescued(HPA_LAG_S) else "warn",
                                     f"timeout {fmt(st.timeout_s, 's')} ÷ (x − 1)")


def act2_chart(st: q.Overload):
    marks = sorted({0.0, S.horizon_s, HPA_LAG_S} | ({st.t_collapse_s} if st.t_collapse_s < S.horizon_s else set()))
    times = sorted({t for m in marks for t in (max(0.0, m - S.step_s), m)})
    shed = q.Overload(st.overload, st.timeout_s, st.retries, st.layers, True, st.budget)
    shape, note = ch.vline(HPA_LAG_S, "warn", "autoscaler")
    figure = ch.figure(
        [ch.line("Your setting", times, goodput_series(st, times), "series1"),
         ch.line("With shedding", times, goodput_series(shed, times), "good", dash="dash")],
        x=ch.axis("Seconds into the overload", range=[0, S.horizon_s]),
        y=ch.axis("Answered in time", tickformat=".0%", range=[0, 1.05]),
        shapes=[shape], annotations=[note] if note else [])
    collapse = "never" if math.isinf(st.t_collapse_s) else f"at {fmt(st.t_collapse_s, 's')}"
    summary = (f"Goodput over the first minute: the queue's delay passes the timeout {collapse}; the autoscaler "
               f"acts at {fmt(HPA_LAG_S, 's')}; shedding holds {fmt(q.shed_served_fraction(st.overload), 'pct')}.")
    rows = [(fmt(t, "s"), fmt(g, "pct"), fmt(h, "pct"))
            for t, g, h in zip(times, goodput_series(st, times), goodput_series(shed, times))]
    return chart("a2_goodput_time", "Goodput in the first minute of the overload", figure, summary,
                 table=(("Time", "Your setting", "With shedding"), rows))


def load_chart(st: q.Overload):
    names = ["Demand", "Retry storm", "Breaker + budget"]
    loads = [st.overload, st.overload * st.amplification, st.overload * (1 + st.budget)]
    colors = ["series1", "danger", "good"]
    bars = ch.bars("Offered load", names, loads, colors, text=[fmt(v, "x") for v in loads])
    shape, _ = ch.hline(1.0, "ink", "", log=True)
    figure = ch.figure([bars], x=ch.axis("", "category"),
                       y=ch.axis("Offered load (× capacity)", "log", **ch.ticks_at(S.load_ticks, x_label, "capacity")),
                       shapes=[shape], legend=False)
    summary = (f"Demand is {fmt(st.overload, 'x')} capacity; a retry storm offers {fmt(loads[1], 'x')}; a breaker "
               f"with a {fmt(st.budget, 'pct')} retry budget offers {fmt(loads[2], 'x')}.")
    return chart("a2_load", "What reaches inference", figure, summary,
                 table=(("Case", "Offered load"), [(n, fmt(v, "x")) for n, v in zip(names, loads)]))


def act2_math(s: State):
    st = storm(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t_c = \frac{T_o}{x-1}",
                 "Arrivals at *x* times capacity grow the queue's delay by (x − 1) seconds per second; past the "
                 "timeout *T_o* every answer is late."),
        Equation(r"A = (1+r)^k",
                 "Each of *k* retrying layers makes up to 1 + r attempts at the layer below."),
        Equation(r"\text{goodput} = \min(1, 1/x),\qquad \text{load} = x\,(1+b)",
                 "Shedding at the queue limit keeps the tier busy with fresh work; a retry budget *b* caps retries."),
    ), rows=(("Collapse time", "never (bounded queue)" if st.shedding else fmt(st.t_collapse_s, "s")),
             ("Autoscaler lag", f"{S.hpa_sync_periods} × {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} + "
                                f"{fmt(S.pod_start_s, 's')} = {fmt(HPA_LAG_S, 's')}"),
             ("Amplification", fmt(st.amplification, "x"))),
        sources=(cite("sre_overload", f"retry budgets of {fmt(C.SRE_RETRY_ATTEMPTS_PER_REQUEST, 'int')} attempts "
                                      f"per request and {fmt(C.SRE_RETRY_BUDGET_RATIO, 'pct')} per client"),
                 cite("k8s_hpa", f"the controller's {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} sync period"),
                 cite("kleinrock1975", "fluid view of an overloaded queue")))


ACT2 = Act(
    number=2, title="The Retry Storm", minutes="15–20 min",
    stakeholder_role="Head of inference platform",
    stakeholder=lambda: (
        f"A launch sent {fmt(S.overload, 'x')} our inference capacity. Clients time out after "
        f"{fmt(S.timeout_s, 's')} and retry {S.retries} times, and the gateway retries too. The gateway queue "
        f"filled, nothing came back in time, and we were down for {fmt(S.outage_h * S.hour_s, 's')}. "
        "Before the next launch: what do we change?"),
    scenario=lambda: (
        "The inference tier serves requests first in, first out at a fixed capacity; demand above it queues.",
        f"The autoscaler needs {S.hpa_sync_periods} readings {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} apart and a "
        f"{fmt(S.pod_start_s, 's')} pod start; new GPU nodes take {fmt(S.provision_s, 's')} [assumptions].",
    ),
    prediction=ACT2_PICK,
    controls=(A2_OVERLOAD, A2_TIMEOUT, A2_RETRIES, A2_LAYERS, A2_SHED, A2_BUDGET),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Overload simulator",
)

# ---- the whole lab -------------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    active = {"a1_tail_is_typical": composition(s).violation > S.typical_violation,
              "a2_cascade": storm(s).goodput_frac(HPA_LAG_S) < S.goodput_floor}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool]:
    c, st = composition(s), storm(s)
    return {"topology": c.topology, "n_services": c.n, "p_svc": c.p_svc, "e2e_violation": c.violation,
            "per_svc_budget": L.per_service_budget(S.page_target, c.n), "e2e_p99_s": c.sampled().quantile(0.99),
            "overload": st.overload, "retries": st.retries, "layers": st.layers, "shedding": st.shedding,
            "goodput_frac": st.goodput_frac(HPA_LAG_S), "t_collapse_s": st.t_collapse_s}


def lab_takeaways() -> list[str]:
    """Shown once every question is locked."""
    return [
        f"A fan-out is as slow as its slowest shard: {S.shards} shards at {fmt(S.p_svc, 'pct')} each make "
        f"{fmt(act1_truth(), 'pct')} of requests slow, and {fmt(C.TAIL_AT_SCALE_LEAVES, 'int')} make "
        f"{fmt(L.fanout_slow_fraction(C.TAIL_AT_SCALE_LEAF_SLOW, int(C.TAIL_AT_SCALE_LEAVES)), 'pct')}.",
        f"A chain adds latencies, and tails rarely coincide: {S.shards} hops with P99 {fmt(S.hop_p99_s, 'ms')} have "
        f"an end-to-end P99 near {fmt(CHAIN.sampled().quantile(0.99), 'ms')}, not {fmt(CHAIN.slo_s, 'ms')}. "
        "Summing P99s is exact only when every hop is slow together.",
        f"Budget a fan-out per shard as 1 − (1 − p)^(1/N): {fmt(L.per_service_budget(S.page_target, S.shards), 'pct')} "
        f"each for a {fmt(S.page_target, 'pct')} page.",
        f"Overload past the timeout drives goodput to zero within seconds ({fmt(SCENARIO_STORM.t_collapse_s, 's')} "
        f"here) and retries multiply the load by (1 + r)^k; the fix must act in seconds: shedding and "
        "circuit breakers, not autoscaling.",
    ]


LAB = Lab(
    id="v2_12", volume=2, number=12, title="The SLO Composition Trap",
    invariant="Tails **compound in a fan-out** (1 − (1 − p)^N) and **add, but rarely coincide, in a chain**; "
              "retries multiply overload by **(1 + r)^k**.",
    minutes="30–40 min", chapter="Operations at Scale", url="vol2/12-slo-composition/",
    reading=(
        "**Service-level objectives**: SLIs, SLOs, error budgets and percentiles.",
        "**Tail latency at scale**: fan-out, hedged requests and why P99 matters.",
        "**Overload and cascading failures**: retries, circuit breakers, load shedding.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-08 The Utilization Trap**: the queue whose tail becomes a latency SLO.",
        "**V2-10 The KV-Cache Memory Wall**: serving capacity, the other side of overload.",
        "**V2-07 The Checkpoint Reckoning**: failures at scale, in training rather than serving.",
    ),
    record_metrics=(MetricSpec("e2e_p99_s", "End-to-end P99 (sampled)", "s", "ms"),
                    MetricSpec("t_collapse_s", "Queue delay passes the timeout after", "s", "s")),
)
