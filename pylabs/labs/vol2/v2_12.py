"""Lab V2-12 · The SLO Composition Trap.

Core invariant: service-level objectives do not compose by adding or copying. A chain adds its
hops' latencies, and slow hops rarely coincide, so the sum of per-hop P99s over-provisions. A
fan-out is as slow as its slowest service, so tails compound: P(slow) = 1 − (1 − p)^N. Under
overload, retries multiply the load by up to (1 + r)^k, and only shedding acts in time.

Act I (composing): five services in a chain each meet P99 = 100 ms; what is the request's P99?
Well under the 500 ms sum: sampled 324 ms for lognormal hops (325.1 ms exact), 250 ms for
exponential ones (Erlang: 252.0 ms). The explorer samples a chain and a fan-out with a fixed seed
beside the closed forms; the reflection asks for a fan-out's per-service budget (0.201 %).
Act II (the retry storm): inference receives 1.5× its capacity, clients time out after 2 s and
retry 3 times at 2 layers. Of four fixes, only load shedding with circuit breakers keeps goodput
at 50 % or more throughout (66.7 %): the queue's delay passes the timeout after 4 s and the first
request gives up at 6 s, before the autoscaler (35 s) or new nodes (10 min); alerts add no
capacity. The reflection asks what timeout lets the autoscaler alone save the tier: over 11.67 s.

Corrections of the upstream lab (handbook/labs/v2_12.md §2), departures from the spec, and why:
* The spec asks Act I of a fan-out (4.9 % of pages slow). With its key at A, the lowest range,
  that range would also hold the naive "1 %, as each promises"; so Act I asks the upstream lab's
  chain question, whose naive answers (the sum, or more) are wrong, and the fan-out moves to
  the reflection (its per-service budget, the spec's reflection).
* The model's departures (exact Erlang sums, Fenton–Wilkinson's far tail, when capacity comes in
  time) are in ``v2_12_model``'s docstring.
* Act II's fixes are instruments (a multi-choice of all four), so the pick's key is not the one
  fix the page offers a switch for. Goodput is read at its lowest while the overload lasts; a tier
  that sheds serves 1/x of demand until capacity arrives and all of it after (the spec's 1/x held
  even after the autoscaler arrived). After the collapse, capacity that matches demand does not
  restore goodput: the retries offer x(1 + r)^k (a metastable failure, Bronson et al. 2021).
* Review: the Act I reflection asks for the loosest promise; C, the "rule of the extra 9" (Treynor
  et al. 2017, ACM Queue 15(2)), also meets it (0.499 %), so the odd one out is not the key.
* "At Google's scale of 100 leaves" is Dean and Barroso's example (100 servers, each slow 1 % of
  the time: 63 % of requests slow), now cited as theirs.

Ledger: topology, n_services, p_svc, e2e_violation, per_svc_budget, e2e_p99_s, overload, retries,
layers, fixes, shedding, goodput_frac, t_collapse_s, the answers and the failures hit (handbook/labs/v2_12.md §2).
"""

from __future__ import annotations

import math
from functools import partial

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, MultiChoice, Option,
                              Pick, Prediction, Range, Reflection, Slider, State, chart, failure, fmt, math_peek,
                              metric_grid)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_12_model import (CHAINS, FIX_LAGS, FIX_OF, HOPS, HPA_LAG_S, N_AXIS, SCENARIO_STORM,
                                          Composition, S, act1_truth, act2_decide, capacity_lag_s, chain_exact_p99,
                                          closed_form, fix_goodput, goodput_series, storm_with, timeout_to_wait_for)
from pylabs.physics import constants as C
from pylabs.physics import latency as L
from pylabs.physics import queueing as q
from pylabs.physics import units as U
from pylabs.physics.references import cite

FIVE, SLO, SUM_SLO = fmt(S.shards, "words"), fmt(S.hop_p99_s, "ms"), fmt(S.shards * S.hop_p99_s, "ms")


# ---- context ----------------------------------------------------------------------------

SHAPES = {"lognormal": f"lognormal (median {fmt(S.hop_median_s, 'ms')})", "exponential": "exponential"}
CONTEXT = Choice("context", "Latency of one service", (
    Option("lognormal", f"Lognormal: median {fmt(S.hop_median_s, 'ms')}, P99 {SLO}"),
    Option("exponential", f"Exponential: P99 {SLO} (a memoryless service)"),
), default="lognormal", help="The shape of one service's latency. Both have the same P99; the exponential "
                             "has a lower median and a longer tail relative to it.")


def terms(context: str) -> dict[str, str]:
    return {"shape": SHAPES[context]}


# ---- Act I · Composing ------------------------------------------------------------------

A1_TOPOLOGY = Choice("a1_topology", "How the services combine", (
    Option("serial", "Chain: the request visits them one after another"),
    Option("fanout", "Fan-out: the request waits for all of them"),
), default="serial", help="Chain: the end-to-end SLO is the sum of the per-service thresholds, the budget an "
                          "SRE would write down. Fan-out: it is the per-service threshold itself.")
A1_N = Slider("a1_services", "Services N", unit="1", min=2, max=100, step=1, default=S.shards, fmt="int")
A1_P = Slider("a1_p_svc", "Per-service violation p", unit="1", min=0.001, max=0.05,
              step=0.001, default=S.p_svc, fmt="pct",
              help="The share of requests slower than each service's threshold: the threshold is its (1 − p) quantile.")
A1_COMMON = Slider("a1_common", "Common-cause share ρ", unit="1", min=0, max=1, step=0.05, default=0, fmt="pct",
                   help="The share of requests in which one shared cause (a GC storm, a hot switch) makes every "
                        "service draw the same latency; otherwise they are independent.")


def composition(s: State) -> Composition:
    return Composition(HOPS[s["context"]], s["a1_topology"], int(s["a1_services"]), s["a1_p_svc"], s["a1_common"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Checkout calls {FIVE} services one after another. Each has {{shape}} latency with P99 = {SLO}. "
           "What is the P99 of the whole checkout request?",
    quantity="the chain's end-to-end P99", unit_fmt="ms", shown_by="a1_p99_s",
    options=(
        Range("A", f"{{range}}: well below the sum of the {FIVE} P99s", None, 0.4, 0.3,
              "Right: the explorer samples **{a1_p99_s}**, {chain_share} of the {chain_slo} sum ({chain_exact}). "
              "Each hop is slow on {p} of requests, and a request is rarely unlucky at several hops at once."),
        Range("B", f"{{range}}: somewhat below the sum of the {FIVE} P99s", 0.4, 0.475, 0.45,
              "The chain is faster than that: **{a1_p99_s}** ({chain_exact}), {chain_share} of the sum. A "
              "request near {chain_slo} needs several hops near their own P99 together, each only {p} of the time."),
        Range("C", f"{{range}}: about the sum of the {FIVE} P99s", 0.475, 0.525, 0.5,
              "{chain_slo} is the P99 only if every hop is slow on the same requests (set ρ to {all}). "
              "Independent hops are not: the sampled P99 is **{a1_p99_s}** ({chain_exact})."),
        Range("D", f"{{range}}: above the sum, as the {FIVE} tails compound", 0.525, None, 0.55,
              "Adding latencies does not compound their tails: a slow hop is mostly paired with fast ones. "
              "The sampled P99 is **{a1_p99_s}** ({chain_exact}), under the {chain_slo} sum."),
    ),
    truth=act1_truth,
)

BUDGET = L.per_service_budget(S.page_target, S.shards)
BUDGET_P = "P" + fmt(1 - BUDGET, "pct").removesuffix(" %")            # the per-service percentile: "P99.8"
EXTRA_NINE = S.page_target / 10  # option C: one more nine than the search, "P99.9"
P_EXTRA_NINE = "P" + fmt(1 - EXTRA_NINE, "pct").removesuffix(" %")


def act1_facts(context: str) -> dict[str, str]:
    chain = CHAINS[context]
    return {"n": FIVE, "n_num": str(S.shards), "p": fmt(S.p_svc, "pct"), "all": fmt(1.0, "pct"), "a1_p99_s": fmt(act1_truth(context), "ms"), "chain_slo": fmt(chain.slo_s, "ms"),
            "chain_share": fmt(act1_truth(context) / chain.slo_s, "pct"),
            "chain_exact": f"{closed_form(HOPS[context])}: {fmt(chain_exact_p99(context), 'ms')}",
            "fan_share": fmt(L.fanout_slow_fraction(S.p_svc, S.shards), "pct"),
            "budget": fmt(BUDGET, "pct"), "target": fmt(S.page_target, "pct"), "budget_p": BUDGET_P, "slo": SLO,
            "extra_nine": fmt(EXTRA_NINE, "pct"),
            "extra_nine_fan": fmt(L.fanout_slow_fraction(EXTRA_NINE, S.shards), "pct")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"Search sends each query to the same {FIVE} services at once and waits for all of them (a fan-out). "
           f"Product wants at most {fmt(S.page_target, 'pct')} of searches slower than {SLO}. What is the loosest "
           "promise each service can make that still meets it?",
    options=(
        Claim("A", f"P99 ≤ {SLO}, as today: each one's {fmt(S.p_svc, 'pct')} is the search's "
                   f"{fmt(S.page_target, 'pct')}.",
              "That is today's promise, and it leaves {fan_share} of searches slow: a search is slow when any of "
              "its {n} services is."),
        Claim("B", f"{BUDGET_P} ≤ {SLO}: each gets about 1/{S.shards} of the search's budget.",
              "Right: at {budget} each, 1 − (1 − {budget})^{n_num} = {target}. Each service must answer within {slo} "
              "at its {budget_p}, whatever the shape of its latency."),
        Claim("C", f"{P_EXTRA_NINE} ≤ {SLO}: one nine more than the search, as for any dependency.",
              "That meets the goal with room to spare, so it is not the loosest: at {extra_nine} each, "
              "1 − (1 − {extra_nine})^{n_num} = {extra_nine_fan} of searches are slow, about half the {target} "
              "allowed. The 'rule of the extra 9' (Treynor et al. 2017) is a margin for availability; the "
              "budget itself is {budget} each, {budget_p}."),
        Claim("D", "No per-service target: only the search's own P99 counts.",
              "The search's tail is made of the services' tails; without a budget of {budget} each, no team "
              "knows what it must fix."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_p99_s", "End-to-end P99 (sampled)", "s", "ms"),
    MetricSpec("a1_violation", "Requests over the end-to-end SLO", "1", "pct"),
    MetricSpec("a1_upstream", "Upstream formula 1 − (1 − p)^N", "1", "pct"),
    MetricSpec("a1_threshold_s", "Per-service threshold (its 1 − p quantile)", "s", "ms"),
    MetricSpec("a1_p50_s", "End-to-end median (sampled)", "s", "ms"),
    MetricSpec("a2_goodput", "Lowest goodput: demand answered in time", "1", "pct"),
    MetricSpec("a2_t_collapse_s", "Queue delay passes the timeout after", "s", "s"),
    MetricSpec("a2_shed", "Turned away at once (shed)", "1", "pct"),
    MetricSpec("a2_load", "Load on inference at its worst (× capacity)", "1", "x"),
    MetricSpec("a2_amplification", "Worst-case retry amplification", "1", "x"),
    MetricSpec("a2_capacity_s", "New capacity arrives after", "s", "s"),
)}

FAILURES = (
    FailureSpec("a1_tail_is_typical", "Slow is the norm: most requests miss the end-to-end SLO", act=1,
                severity="warn",
                reach={"a1_topology": "fanout", "a1_services": 100}, leave={"a1_services": 5}),
    FailureSpec("a2_cascade", f"CASCADE: goodput below {fmt(S.goodput_floor, 'fraction')} of the demand", act=2,
                reach={}, leave={"a2_fixes": ["shedding"]}),
)
F = {f.name: f for f in FAILURES}


def violation_note(c: Composition, sample) -> str:
    sampled = f"sampled: {sample.count_above(c.slo_s):,} of {S.draws:,}"
    if c.topology == "fanout":
        return f"SLO {fmt(c.slo_s, 'ms')}; {sampled}"
    low = "" if c.hop.kind == "exponential" else ", low in the far tail"
    return f"SLO {fmt(c.slo_s, 'ms')}; {closed_form(c.hop)}{low}: {fmt(c.violation, 'sci')}; {sampled}"


def p99_note(c: Composition) -> str:
    return f"{'exact' if c.topology == 'fanout' else closed_form(c.hop)}: {fmt(c.p99_curve(c.n), 'ms')}"


def act1_instruments(s: State) -> list:
    c = composition(s)
    sample = c.sampled()
    p99 = sample.quantile(0.99)
    exact = "exact for a fan-out" if c.topology == "fanout" else f"the chain's share is {fmt(c.violation, 'pct')}"
    parts = [metric_grid(
        M["a1_p99_s"].show(p99, "warn" if p99 > c.slo_s else "good", p99_note(c)),
        M["a1_violation"].show(c.violation, "danger" if c.violation > S.typical_violation else None,
                               violation_note(c, sample)),
        M["a1_upstream"].show(c.upstream, note=exact),
        M["a1_threshold_s"].show(c.threshold_s, note=f"{c.n} services"),
        M["a1_p50_s"].show(sample.quantile(0.5)),
    )]
    if c.violation > S.typical_violation:
        parts.append(failure(F["a1_tail_is_typical"],
                             f"{fmt(c.violation, 'pct')} of requests miss the {fmt(c.slo_s, 'ms')} SLO with {c.n} "
                             "services: the per-service tail has become the typical request. Fewer services in the "
                             "fan-out, or a smaller per-service violation p, brings it back."))
    parts.append(act1_chart(c, sample))
    return parts


int_label, x_label = partial(fmt, name="int"), partial(fmt, name="x")  # chart tick labels


def act1_chart(c: Composition, sample):
    other = Composition(c.hop, "serial" if c.topology == "fanout" else "fanout", c.n, c.p_svc, c.common)
    fan, chain = (c, other) if c.topology == "fanout" else (other, c)
    ns = list(N_AXIS)
    ms = U.MS_PER_S
    chain_p99 = {n: chain.p99_curve(n) for n in ns}
    fan_p99 = {n: fan.p99_curve(n) for n in ns}
    traces = [ch.line("Chain: sum of per-service P99s", ns, [n * c.hop.quantile(0.99) * ms for n in ns],
                      "muted", dash="dash"),
              ch.line("Chain: P99 (closed form)", ns, [chain_p99[n] * ms for n in ns], "series2"),
              ch.line("Fan-out: P99 (exact)", ns, [fan_p99[n] * ms for n in ns], "series1"),
              ch.point("Yours (sampled)", c.n, sample.quantile(0.99) * ms, "accent")]
    figure = ch.figure(traces, x=ch.axis("Services N", "log", **ch.ticks_at(S.n_ticks, int_label)),
                       y=ch.axis("End-to-end P99 (ms)", "log", **ch.ticks_at(S.ms_ticks, int_label)))
    summary = (f"Summing {c.n} P99s budgets {fmt(c.n * c.hop.quantile(0.99), 'ms')} for a chain whose P99 is "
               f"{fmt(chain.p99_curve(c.n), 'ms')}; a fan-out of {c.n} has a P99 of {fmt(fan.p99_curve(c.n), 'ms')} "
               f"against one service's {fmt(c.hop.quantile(0.99), 'ms')}.")
    rows = [(str(n), fmt(n * c.hop.quantile(0.99), "ms"), fmt(chain_p99[n], "ms"), fmt(fan_p99[n], "ms")) for n in ns]
    return chart("a1_p99_curve", "End-to-end P99 against the number of services", figure, summary,
                 table=(("N", "Sum of P99s", "Chain P99", "Fan-out P99"), rows))


def act1_math(s: State):
    c = composition(s)
    mu, sigma = L.fenton_wilkinson(HOPS["lognormal"], c.n)
    lam = HOPS["exponential"].rate_per_s
    return math_peek("The governing equations · Act I", (
        Equation(r"P_{\text{slow}} = (1-\rho)\,\bigl[1-(1-p)^N\bigr] + \rho\,p",
                 "A fan-out is slow when any service is; a common cause (share ρ) makes them slow together."),
        Equation(r"P(S_N > t) = \sum_{k=0}^{N-1} e^{-\lambda t}\frac{(\lambda t)^k}{k!}",
                 "Exponential hops: a chain's sum is Erlang, exactly."),
        Equation(r"\sigma_S^2 = \ln\!\Bigl(1+\frac{N\,\mathrm{Var}[X]}{(N\,\mathrm{E}[X])^2}\Bigr),\quad "
                 r"\mu_S = \ln(N\,\mathrm{E}[X]) - \tfrac{\sigma_S^2}{2}",
                 "Lognormal hops: Fenton–Wilkinson matches the sum's mean and variance with one lognormal, an "
                 "approximation that understates the far tail; the samples check it."),
    ), rows=(("Hop σ (lognormal)", fmt(HOPS["lognormal"].sigma, "num")),
             ("Hop rate λ (exponential)", f"{fmt(lam, 'num')} per s"),
             (f"Chain sum μ_S, σ_S (N = {c.n})", f"{fmt(mu, 'num')}, {fmt(sigma, 'num')}"),
             ("Samples", f"{S.draws:,}, seed {S.seed}")),
        sources=(cite("dean2013", f"their example: {fmt(C.TAIL_AT_SCALE_LEAVES, 'int')} servers, each slow "
                                  f"{fmt(C.TAIL_AT_SCALE_LEAF_SLOW, 'pct')} of the time, make "
                                  f"{fmt(C.TAIL_AT_SCALE_SLOW_REQUESTS, 'pct')} of requests slow"),
                 cite("fenton1960", "the moment-matched lognormal sum"),
                 cite("kleinrock1975", "the Erlang distribution of a sum of exponentials")))


ACT1 = Act(
    number=1, title="Five Promises", minutes="15–20 min",
    stakeholder_role="SRE lead, checkout",
    stakeholder=lambda: (
        f"Checkout calls {FIVE} services in turn, and every team's dashboard is green: P99 = {SLO}. We promised "
        f"the page P99 = {SUM_SLO}, their sum. An architect says that leaves no headroom and wants more. "
        "Before I sign: what will checkout's P99 really be?"),
    scenario=lambda context: (
        f"Each service's latency is {SHAPES[context]} with P99 {SLO}; the services are independent unless you add "
        "a common cause.",
        "The explorer samples a chain (the sum of hops) and a fan-out (the slowest of them) with a fixed seed and "
        "sets them beside the closed forms.",
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
                    fmt="int", help="Ignored while load shedding is on: the retry budget caps retries instead.")
A2_LAYERS = Slider("a2_layers", "Retrying layers k", unit="1", min=1, max=3, step=1, default=S.layers, fmt="int",
                   help="Client, gateway, service: each layer that retries multiplies the attempts. Ignored while "
                        "load shedding is on.")
A2_FIXES = MultiChoice("a2_fixes", "Fixes in place when the launch arrives", (
    Option("nodes", f"New GPU nodes, joining after {fmt(S.provision_s, 's')}"),
    Option("autoscaler", f"Pod autoscaler, adding pods after {fmt(HPA_LAG_S, 's')}"),
    Option("shedding", "Load shedding with circuit breakers"),
    Option("alerts", "Alerts to the on-call engineer"),
), default=(), help="None ticked is the outage as it happened. New capacity matches the demand when it arrives; "
                    "shedding keeps the queue bounded and caps retries by the budget.")
A2_BUDGET = Slider("a2_budget", "Retry budget (retries ÷ requests)", unit="1", min=0, max=0.5, step=0.05,
                   default=C.SRE_RETRY_BUDGET_RATIO, fmt="pct",
                   help="Only with load shedding on; without it the retries per layer apply.")


def fixes(s: State) -> tuple[str, ...]:
    return tuple(s["a2_fixes"])


def storm(s: State) -> q.Overload:
    return storm_with(fixes(s), s["a2_overload"], s["a2_timeout_s"], int(s["a2_retries"]), int(s["a2_layers"]),
                      s["a2_budget"])


ACT2_PICK = Pick(
    id="a2_pick", act=2,
    prompt=f"Inference is receiving {fmt(S.overload, 'x')} its capacity. With only one of these in place, which "
           f"keeps at least {fmt(S.goodput_floor, 'pct')} of requests answered within the {fmt(S.timeout_s, 's')} "
           "timeout, second by second?",
    quantity="the fix that keeps goodput",
    options=(
        Claim("A", "Order more GPU nodes, so the pool grows to meet the launch's demand.", "{A_verdict}"),
        Claim("B", "Let the autoscaler add inference pods as utilisation climbs.", "{B_verdict}"),
        Claim("C", "Bound the queue, turn the excess away at once, open breakers.", "{C_verdict}"),
        Claim("D", "Page the on-call within seconds, from alerts on queue depth.", "{D_verdict}"),
    ),
    decide=act2_decide,
)

FIX_NAMES = {"nodes": "new nodes", "autoscaler": "the autoscaler", "shedding": "shedding", "alerts": "alerting"}
ADDS = {"nodes": "add", "autoscaler": "adds", "alerts": "adds"}  # the verb that agrees with the fix's name


def verdict_text(letter: str) -> str:
    fix = FIX_OF[letter]
    fixed, lag = storm_with((fix,)), capacity_lag_s((fix,))
    good = fix_goodput(letter)
    if fixed.shedding:
        return (f"Goodput at its lowest **{fmt(good, 'pct')}** of the demand: the tier stays busy at capacity, turns "
                f"the rest away at once, and retries add only {fmt(fixed.budget, 'pct')} "
                f"({fmt(fixed.load(lag), 'x')} capacity offered).")
    when = f"{ADDS[fix]} no capacity" if math.isinf(lag) else f"{ADDS[fix]} capacity after {fmt(lag, 's')}"
    return (f"Goodput at its lowest **{fmt(good, 'pct')}**: the queue's delay passes the timeout after "
            f"{fmt(fixed.t_collapse_s, 's')} and the first request gives up at {fmt(fixed.t_late_s, 's')}, while "
            f"{FIX_NAMES[fix]} {when}. From then on every request times out "
            f"and is retried, up to {fmt(fixed.amplification, 'num')} attempts each: {fmt(fixed.load(lag), 'x')} capacity.")


def act2_facts() -> dict[str, str]:
    facts = {f"{k}_verdict": verdict_text(k) for k in FIX_OF}
    lag, x = FIX_LAGS["autoscaler"], S.overload
    facts.update(lag=fmt(lag, "s"), t_star=fmt(timeout_to_wait_for(lag, x), "s"), x_less=fmt(x - 1, "num"),
                 x_num=fmt(x, "num"), backlog=fmt(lag * (x - 1), "s"), demand=fmt(x, "x"), full=fmt(1.0, "pct"))
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Suppose the autoscaler is the only fix and demand is {fmt(S.overload, 'x')} capacity. How long must "
           "the client timeout be for the autoscaler to save the tier?",
    options=(
        Claim("A", f"Over {fmt(HPA_LAG_S * (S.overload - 1), 's')}: the delay the backlog has when the pods arrive.",
              "That is the backlog's delay at the old capacity, {backlog}; the pods serve the same queue, so it "
              "drains at {demand} capacity and no request waits more than {t_star}. Any timeout above {t_star} "
              "is enough, not only one above {backlog}."),
        Claim("B", "No timeout will do: the retries swamp whatever is added.",
              "Above {t_star} no request has given up when the pods arrive at {lag}: nothing has been retried, "
              "and goodput returns to {full}."),
        Claim("C", f"Over {fmt(HPA_LAG_S, 's')}: it must outlast the autoscaler's lag.",
              "No request waits the whole lag: the delay grows by x − 1 = {x_less} s per second, and once the "
              "pods serve the queue at {demand} capacity the longest wait is {t_star}; any timeout above that is "
              "enough."),
        Claim("D", f"Over {fmt(timeout_to_wait_for(HPA_LAG_S, S.overload), 's')}: the longest wait once the pods help.",
              "Right: the first request gives up at t_c + T_o = x·T_o/(x − 1), which must come after {lag}, so "
              "T_o > {lag} × {x_less} ÷ {x_num} = {t_star}. Users would then wait up to {t_star} for an answer, "
              "which is why shedding, not a longer timeout, is the fix."),
    ),
    answer_letter="D",
)


def act2_instruments(s: State) -> list:
    st, lag = storm(s), capacity_lag_s(fixes(s))
    good = st.goodput_frac(lag)
    cards = [M["a2_goodput"].show(good, "danger" if good < S.goodput_floor else "good",
                                  f"floor {fmt(S.goodput_floor, 'pct')}"),
             collapse_metric(st, lag),
             M["a2_load"].show(st.load(lag), "danger" if st.load(lag) > 1 else None,
                               "demand plus the retry budget" if st.shedding else
                               ("before capacity arrives" if st.rescued(lag) else "after retries")),
             M["a2_amplification"].show(1 + st.budget if st.shedding else st.amplification,
                                        note="capped by the budget" if st.shedding else
                                        f"(1 + {st.retries})^{st.layers}")]
    if not math.isinf(lag):
        cards.append(M["a2_capacity_s"].show(lag, "good" if st.recovers(lag) else "danger",
                                             "in time" if st.recovers(lag) else "after the collapse"))
    parts = [metric_grid(*cards)]
    if good < S.goodput_floor:
        parts.append(failure(F["a2_cascade"], cascade_text(st, lag, fixes(s))))
    parts += [act2_chart(st, lag), load_chart(st)]
    return parts


def collapse_metric(st: q.Overload, lag: float):
    if st.shedding:
        return M["a2_shed"].show(1 - q.shed_served_fraction(st.overload), "warn",
                                 "the queue stays under the timeout")
    note = (f"at today's capacity; the capacity at {fmt(lag, 's')} comes first: no request gives up" if st.rescued(lag)
            else f"timeout {fmt(st.timeout_s, 's')} ÷ (x − 1); the first request gives up at {fmt(st.t_late_s, 's')}")
    return M["a2_t_collapse_s"].show(st.t_collapse_s, "warn" if st.rescued(lag) else "danger", note)


def cascade_text(st: q.Overload, lag: float, chosen: tuple[str, ...]) -> str:
    help_at = "and no fix adds capacity" if math.isinf(lag) else f"before new capacity at {fmt(lag, 's')}"
    return (f"Requests arriving after {fmt(st.t_collapse_s, 's')} queue longer than the {fmt(st.timeout_s, 's')} "
            f"timeout; the first gives up at {fmt(st.t_late_s, 's')}, {help_at}. From then on every answer is late, "
            f"every request is retried ({fmt(st.load(lag), 'x')} capacity offered), and goodput is zero. To leave "
            f"it, turn on load shedding, or {autoscaler_lever(st, 'autoscaler' in chosen)}.")


def autoscaler_lever(st: q.Overload, on: bool) -> str:
    """How the autoscaler could be given time from here, naming only levers not at their limit
    (and no threshold: the Act II reflection asks for it)."""
    if not on and st.t_late_s > HPA_LAG_S:
        return "add the autoscaler"
    room = [lever for lever, free in (("a longer timeout", st.timeout_s < A2_TIMEOUT.max),
                                      ("a milder overload", st.overload > A2_OVERLOAD.min)) if free]
    return f"{'give the autoscaler' if on else 'add the autoscaler and give it'} time ({' or '.join(room)})"


def act2_chart(st: q.Overload, lag: float):
    arrives = lag < S.horizon_s
    marks = {0.0, S.horizon_s} | ({lag} if arrives else set()) | \
        ({st.t_late_s} if st.t_late_s < S.horizon_s and not st.rescued(lag) else set())
    times = sorted({t for m in marks for t in (max(0.0, m - S.step_s), m)})
    shed = q.Overload(st.overload, st.timeout_s, st.retries, st.layers, True, st.budget)
    shapes, notes = [], []
    if arrives:
        shape, note = ch.vline(lag, "warn", "new capacity")
        shapes, notes = [shape], [note] if note else []
    figure = ch.figure(
        [ch.line("Your setting", times, goodput_series(st, lag, times), "series1"),
         ch.line("Shedding, same capacity", times, goodput_series(shed, lag, times), "good", dash="dash")],
        x=ch.axis("Seconds into the overload", range=[0, S.horizon_s]),
        y=ch.axis("Answered in time", tickformat=".0%", range=[0, 1.05]), shapes=shapes, annotations=notes)
    collapse = ("no request waits past the timeout" if st.shedding else
                f"no request gives up, as capacity comes at {fmt(lag, 's')}" if st.rescued(lag) else
                f"the first request gives up at {fmt(st.t_late_s, 's')}")
    capacity = f"new capacity arrives at {fmt(lag, 's')}" if arrives else "no new capacity arrives in the minute"
    summary = (f"Goodput over the first minute: {collapse}; {capacity}; "
               f"shedding holds {fmt(q.shed_served_fraction(st.overload), 'pct')} "
               f"{'until then' if arrives else 'throughout'}.")
    rows = list(dict.fromkeys((fmt(t, "s"), fmt(g, "pct"), fmt(h, "pct"))  # a step shows twice; a repeat once
                              for t, g, h in zip(times, goodput_series(st, lag, times), goodput_series(shed, lag, times))))
    return chart("a2_goodput_time", "Goodput in the first minute of the overload", figure, summary,
                 table=(("Time", "Your setting", "Shedding, same capacity"), rows))


def load_chart(st: q.Overload):
    names = ["Demand", "Retry storm", "Shedding + budget"]
    loads = [st.overload, st.overload * st.amplification, st.overload * (1 + st.budget)]
    colors = ["series1", "danger", "good"]
    bars = ch.bars("Offered load", names, loads, colors, text=[fmt(v, "x") for v in loads])
    shape, _ = ch.hline(1.0, "ink", "", log=True)
    figure = ch.figure([bars], x=ch.axis("", "category"),
                       y=ch.axis("Offered load (× capacity)", "log", **ch.ticks_at(S.load_ticks, x_label, "capacity")),
                       shapes=[shape], legend=False)
    summary = (f"Demand is {fmt(st.overload, 'x')} capacity; a retry storm offers {fmt(loads[1], 'x')}; shedding "
               f"with a {fmt(st.budget, 'pct')} retry budget offers {fmt(loads[2], 'x')}.")
    return chart("a2_load", "What reaches inference", figure, summary,
                 table=(("Case", "Offered load"), [(n, fmt(v, "x")) for n, v in zip(names, loads)]))


def act2_math(s: State):
    st = storm(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"t_c = \frac{T_o}{x-1}",
                 "Arrivals at *x* times capacity grow the queue's delay by (x − 1) seconds per second; requests "
                 "arriving after *t_c* wait longer than the timeout *T_o*, and the first gives up *T_o* later."),
        Equation(r"A = (1+r)^k",
                 "Each of *k* retrying layers makes up to 1 + r attempts at the layer below."),
        Equation(r"\text{goodput} = \min(1, 1/x),\qquad \text{load} = x\,(1+b)",
                 "Shedding at the queue limit keeps the tier busy with fresh work until capacity arrives; a retry "
                 "budget *b* caps retries."),
    ), rows=(("Delay passes the timeout", "never (bounded queue)" if st.shedding else fmt(st.t_collapse_s, "s")),
             ("First request gives up", "never (bounded queue)" if st.shedding else fmt(st.t_late_s, "s")),
             ("Autoscaler lag", f"{S.hpa_sync_periods} × {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} + "
                                f"{fmt(S.pod_start_s, 's')} = {fmt(HPA_LAG_S, 's')}"),
             ("Amplification", fmt(st.amplification, "x"))),
        sources=(cite("sre_overload", f"retry budgets of {fmt(C.SRE_RETRY_ATTEMPTS_PER_REQUEST, 'int')} attempts "
                                      f"per request and {fmt(C.SRE_RETRY_BUDGET_RATIO, 'pct')} per client"),
                 cite("k8s_hpa", f"the controller's {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} sync period"),
                 cite("bronson2021", "retries that keep a system overloaded after the trigger is gone"),
                 cite("kleinrock1975", "fluid view of an overloaded queue")))


ACT2 = Act(
    number=2, title="The Retry Storm", minutes="15–20 min",
    stakeholder_role="Head of inference platform",
    stakeholder=lambda: (
        f"A launch sent {fmt(S.overload, 'x')} our inference capacity. Clients time out after "
        f"{fmt(S.timeout_s, 's')} and retry {S.retries} times, and the gateway retries too. The gateway queue "
        f"filled, nothing came back in time, and we were down for {fmt(S.outage_h * U.S_PER_HOUR, 's')}. "
        "Before the next launch: what do we change?"),
    scenario=lambda: (
        "The inference tier serves requests first in, first out at a fixed capacity; demand above it queues.",
        f"The autoscaler needs {S.hpa_sync_periods} readings {fmt(C.K8S_HPA_SYNC_PERIOD, 's')} apart and a "
        f"{fmt(S.pod_start_s, 's')} pod start; new GPU nodes take {fmt(S.provision_s, 's')} [assumptions].",
    ),
    prediction=ACT2_PICK,
    controls=(A2_OVERLOAD, A2_TIMEOUT, A2_RETRIES, A2_LAYERS, A2_FIXES, A2_BUDGET),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Overload simulator",
)


# ---- the whole lab -------------------------------------------------------------------------

def active_failures(s: State) -> frozenset[str]:
    active = {"a1_tail_is_typical": composition(s).violation > S.typical_violation,
              "a2_cascade": storm(s).goodput_frac(capacity_lag_s(fixes(s))) < S.goodput_floor}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool | None]:
    c, st, lag = composition(s), storm(s), capacity_lag_s(fixes(s))
    return {"topology": "chain" if c.topology == "serial" else "fan-out", "n_services": c.n, "p_svc": c.p_svc,
            "e2e_violation": c.violation, "per_svc_budget": L.per_service_budget(S.page_target, c.n),
            "e2e_p99_s": c.sampled().quantile(0.99), "overload": st.overload, "retries": st.retries,
            "layers": st.layers, "fixes": ", ".join(FIX_NAMES[f] for f in fixes(s)) or "none",
            "shedding": st.shedding, "goodput_frac": st.goodput_frac(lag),
            "t_collapse_s": None if st.shedding else st.t_collapse_s}


RECORD_METRICS = (
    MetricSpec("topology", "Services composed as", "1", "num"), MetricSpec("n_services", "Services N", "1", "int"),
    MetricSpec("p_svc", "Per-service violation p", "1", "pct"),
    MetricSpec("e2e_violation", "Requests over the end-to-end SLO", "1", "pct"),
    MetricSpec("per_svc_budget", f"Per-service budget for a {fmt(S.page_target, 'pct')} fan-out", "1", "pct"),
    MetricSpec("e2e_p99_s", "End-to-end P99, sampled", "s", "ms"), MetricSpec("overload", "Demand ÷ capacity x", "1", "x"),
    MetricSpec("retries", "Retries per layer r", "1", "int"), MetricSpec("layers", "Retrying layers k", "1", "int"),
    MetricSpec("fixes", "Fixes in place", "1", "num"), MetricSpec("shedding", "Load shedding on", "1", "yesno"),
    MetricSpec("goodput_frac", "Lowest goodput", "1", "pct"),
    MetricSpec("t_collapse_s", "Queue delay passed the timeout after", "s", "s"),
)


def lab_takeaways() -> list[str]:
    """Shown once every question is locked."""
    chains = {name: fmt(chain_exact_p99(name), "ms") for name in CHAINS}
    return [
        f"A chain adds latencies, and slow hops rarely coincide: {FIVE} hops with P99 {SLO} have an end-to-end "
        f"P99 near {chains['lognormal']} (lognormal) or {chains['exponential']} (exponential), not {SUM_SLO}. "
        "Summing P99s is exact only when every hop is slow together.",
        f"A fan-out is as slow as its slowest service: {FIVE} at {fmt(S.p_svc, 'pct')} each make "
        f"{fmt(L.fanout_slow_fraction(S.p_svc, S.shards), 'pct')} of requests slow, and Dean and Barroso's "
        f"{fmt(C.TAIL_AT_SCALE_LEAVES, 'int')} servers make "
        f"{fmt(L.fanout_slow_fraction(C.TAIL_AT_SCALE_LEAF_SLOW, int(C.TAIL_AT_SCALE_LEAVES)), 'pct')}.",
        f"Budget a fan-out per service as 1 − (1 − p)^(1/N): {fmt(BUDGET, 'pct')} each for "
        f"{fmt(S.page_target, 'pct')} of requests.",
        f"Overload past the timeout drives goodput to zero within seconds ({fmt(SCENARIO_STORM.t_late_s, 's')} "
        "here) and retries multiply the load by up to (1 + r)^k, so capacity that arrives later is swamped. The "
        "fix must act in seconds: shedding and circuit breakers, not autoscaling.",
    ]


LAB = Lab(
    id="v2_12", volume=2, number=12, title="The SLO Composition Trap",
    invariant="Tails **add, but rarely coincide, in a chain** and **compound in a fan-out** (1 − (1 − p)^N); "
              "retries multiply overload by up to **(1 + r)^k**.",
    minutes="30–40 min", chapter="Operations at Scale", url="vol2/12-slo-composition/",
    description="How per-service latency SLOs combine when services are called in a chain or all at once, and what "
                "retries do to an overloaded inference tier.",
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
    record_metrics=RECORD_METRICS,
    terms=terms,
    hook=f"Five services each promise P99 = {SLO}. What does a request that needs all five see, and what happens "
         "when a launch sends more traffic than they can serve?",
)
