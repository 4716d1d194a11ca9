"""Lab V2-08 · The Utilization Trap.

Core invariant: a GPU cluster is a multi-server queue. The wait before a job starts grows
like 1/(1−ρ) as utilisation nears 1; how early it bends depends on how many jobs fit at once
(c = ⌊GPUs / GPUs per job⌋) and on how much job lengths vary. Plan for the knee, not 95 %.

Act I (the 95 % cluster): 1,024 GPUs at 95 % run mostly 64-GPU, 2-hour jobs (16 slots,
C_s = 1.5) that wait about 3 h. How much do +256 GPUs cut the mean wait? Erlang C (through
the Erlang B recursion) with the Allen–Cunneen factor says 26×, not 1.25×.
Act II (the pool designer): notebooks, sweeps and 256-GPU training gangs share the cluster at
62 % GPU utilisation; the student splits it into dedicated M/M/c pools (c = ⌊R/g⌋) to keep
a 5-minute start promise for notebooks and a 48-hour tail for training.

Choices where the spec left one open, and why:
* Act I asks for a number (how much +25 % GPUs cut the wait), not a four-way diagnosis: the
  ranges carry the diagnoses (A "only in proportion", C queueing physics), the physics proves
  the key, and the feedback can say by how much a student was off.
* Act I's controls are demand (today's utilisation) and added GPUs, not free ρ, λ and S
  sliders (spec error 6): ρ = λS/c always holds, and fragmentation (⌊G/g⌋) shows.
* Act II compares four pool layouts, not FIFO / priority / backfill: every Act II golden
  vector of the spec is an M/M/c partition, while the policies need a stochastic simulator
  whose ranking no closed form proves. The reflection carries the policy lesson (backfill and
  priority cannot create a 256-GPU slot). Pools use exponential lengths (C_s² = 1), as the
  spec's golden vectors do; Act I keeps the variability instrument.

Ledger: context, pool sizes (controls and results), each pool's utilisation, interactive
P(wait > 5 min), training P(wait > 48 h), GPU utilisation, every answer with its correctness
(the Act II pick is the design decision), and the failure states hit (constraints).
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option, Pick,
                              Prediction, Range, Reflection, Slider, State, failure, fmt, math_peek,
                              metric_grid, chart)
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_08_model import (LAYOUTS, MORE_GPUS, NOTEBOOK_BUSY_GPUS, SCENARIO, Layout, S, act1_pool,
                                          act1_truth, act2_decide, gpu_utilization, hours, knee, one_server_wait_s,
                                          wait_curve_s)
from pylabs.physics import constants as C
from pylabs.physics import queueing as q
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Job mix on the cluster", (
    Option("gangs", f"Training gangs: {S.job_gpus}-GPU jobs of about {fmt(S.service_s, 's')}, "
                    "lengths vary widely"),
    Option("small", f"Small jobs: {S.small_job_gpus}-GPU jobs of about {fmt(S.small_service_s, 's')}, "
                    "exponential lengths"),
), default="gangs", help="Sets Act I's job size, length and variability. The same utilisation queues "
                         "very differently when many small jobs fit at once.")

# ---- Act I · The 95 % cluster -------------------------------------------------------

A1_JOB = Slider("a1_job_gpus", "GPUs per job (a gang: all start together)", unit="GPUs", min=8, max=256,
                step=1, default=S.job_gpus, fmt="int", scale="log2")
A1_SERVICE = Slider("a1_service_s", "Mean job length", unit="s", min=1800, max=86400, step=1800,
                    default=S.service_s, fmt="s")
A1_UTIL = Slider("a1_utilization", "Demand (today's utilisation)", unit="1", min=0.5, max=0.99, step=0.01,
                 default=S.utilization, fmt="pct",
                 help=f"The work arriving, as a share of today's {S.cluster_gpus:,} GPUs. Adding GPUs keeps it "
                      "and lowers the utilisation.")
A1_ADDED = Slider("a1_added_gpus", "GPUs added (same demand)", unit="GPUs", min=0, max=1024, step=64,
                  default=0, fmt="int")
A1_SCV = Slider("a1_service_scv", "Job-length variability Cₛ²", unit="1", min=0, max=4, step=0.25,
                default=S.service_scv, fmt="num",
                help="0: every job the same length. 1: exponential lengths. Above 1: a few very long jobs.")


def cluster(s: State) -> q.Pool:
    return act1_pool(s["a1_job_gpus"], s["a1_service_s"], s["a1_utilization"], s["a1_added_gpus"],
                     s["a1_service_scv"])


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Finance can add {S.added_gpus} GPUs (+{fmt(S.added_gpus / S.cluster_gpus, 'pct')}) to the "
           f"{S.cluster_gpus:,}; the work arriving stays the same. How many times shorter does the mean wait "
           f"of the {S.job_gpus}-GPU, {fmt(S.service_s, 's')} jobs get?",
    quantity=f"mean wait today ÷ mean wait with {S.cluster_gpus + S.added_gpus:,} GPUs",
    unit_fmt="x",
    options=(
        Range("A", "{range}: waits fall only in proportion to the added capacity", None, 1.5, 1.25,
              "Capacity and wait are not proportional: near ρ = 1 the wait scales like 1/(1−ρ), and "
              "the added capacity moves ρ from {rho_today} to {rho_more}, off the steep part of the curve."),
        Range("B", "{range}: a real gain, but the scheduler or job hoarding is the deeper cause", 1.5, 5.0, 3.0,
              "No bug is needed to explain the waits: Erlang C at {rho_today} with these jobs gives "
              "{wait_today}, the waits observed."),
        Range("C", f"{{range}}: queueing physics; at {fmt(S.utilization, 'pct')} the wait sits on the steep "
                   "part of 1/(1−ρ)", 5.0, 50.0, 20.0,
              "The wait falls from {wait_today} to {wait_more}: ρ drops from {rho_today} to {rho_more}, "
              "and the spare capacity 1−ρ grows {spare_gain}."),
        Range("D", "{range}: the queue disappears", 50.0, None, 100.0,
              "Jobs still wait at {rho_more}: {p_wait_more} of them find all {slots_more} slots busy."),
    ),
    truth=act1_truth,
)


def act1_facts() -> dict[str, str]:
    more = MORE_GPUS
    return {"rho_today": fmt(SCENARIO.rho, "pct"), "rho_more": fmt(more.rho, "pct"),
            "wait_today": fmt(SCENARIO.mean_wait_s(), "s"), "wait_more": fmt(more.mean_wait_s(), "s"),
            "p_wait_more": fmt(more.p_wait, "pct"), "slots_more": str(more.slots),
            "knee": fmt(knee(), "pct1"), "slots": str(SCENARIO.slots), "job_length": fmt(S.service_s, "s"),
            "scv": fmt(S.service_scv, "num"), "target": fmt(S.wait_target_s, "s"),
            "spare_gain": fmt((1 - more.rho) / (1 - SCENARIO.rho), "x"),
            "cautious_p_wait": fmt(act1_pool(S.job_gpus, S.service_s, S.cautious_utilization, 0,
                                             S.service_scv).p_wait, "pct")}


ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The director promises that these jobs wait under {fmt(S.wait_target_s, 's')} on average. "
           "What utilisation should the cluster be planned for?",
    options=(
        Claim("A", f"{fmt(S.utilization, 'pct')}, as today: the waits come from the scheduler, not the load.",
              "At today's load the physics alone gives {wait_today}; no scheduler removes queueing."),
        Claim("B", f"Just below the knee, a little over {fmt(round(knee(), 1), 'pct')}: above it "
                   "the wait climbs steeply.",
              "The largest ρ with a mean wait under {target} is **{knee}** for {slots} slots of {job_length} "
              "jobs with Cₛ² = {scv}. More slots (smaller jobs) or steadier lengths move the knee right."),
        Claim("C", f"About {fmt(S.cautious_utilization, 'pct')}: below that no job ever waits.",
              "Some jobs wait at any load above zero: at that utilisation {cautious_p_wait} still find every "
              "slot busy. The mean wait is tiny, but the promise is met well before that."),
        Claim("D", "Any utilisation: long jobs make the wait negligible by comparison.",
              "Waits scale with the job length: longer jobs wait proportionally longer at the same ρ."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_wait_s", "Mean wait before a job starts", "s", "s"),
    MetricSpec("a1_rho", "Utilisation ρ of the slots", "1", "pct"),
    MetricSpec("a1_wait_cut", "Wait cut by the added GPUs", "1", "x"),
    MetricSpec("a1_p_wait", "Jobs that wait at all (Erlang C)", "1", "pct"),
    MetricSpec("a1_p90_s", "90th-percentile wait", "s", "s"),
    MetricSpec("a1_one_server_s", "One big server (M/M/1) would predict", "s", "s"),
    MetricSpec("a1_idle_flops", "Peak compute held as headroom", "FLOP/s", "FLOP/s"),
    MetricSpec("a2_interactive_late", f"Notebooks waiting over {fmt(S.interactive_wait_s, 's')}", "1", "pct1"),
    MetricSpec("a2_training_late", f"Training runs waiting over {fmt(S.training_wait_s, 's')}", "1", "pct1"),
    MetricSpec("a2_training_rho", "Training pool: gang slots busy", "1", "pct"),
    MetricSpec("a2_gpu_util", "Cluster GPU utilisation (daily)", "1", "pct"),
    MetricSpec("a2_search_wait_s", "Sweeps: mean wait", "s", "s"),
    MetricSpec("a2_interactive_rho", "Notebook pool: slots busy", "1", "pct"),
)}

FAILURES = (
    FailureSpec("a1_wait_exceeds_job", "The queue outlasts the work: jobs wait longer than they run", act=1),
    FailureSpec("a2_interactive_sla",
                f"Notebook promise broken: too many wait over {fmt(S.interactive_wait_s, 's')}", act=2),
    FailureSpec("a2_training_tail", f"Training runs starve: too many wait over {fmt(S.training_wait_s, 's')}",
                act=2, severity="warn"),
    FailureSpec("a2_search_overloaded", "The sweep pool cannot keep up: its queue grows without end", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    c = cluster(s)
    before = act1_pool(s["a1_job_gpus"], s["a1_service_s"], s["a1_utilization"], 0, s["a1_service_scv"])
    wait, idle_gpus = c.mean_wait_s(), c.units - s["a1_utilization"] * S.cluster_gpus
    cut = max(1.0, min(before.mean_wait_s() / max(wait, S.negligible_wait_s), S.max_wait_cut))
    parts = [metric_grid(
        M["a1_wait_s"].show(wait, "danger" if wait > c.service_s else None, f"jobs run {fmt(c.service_s, 's')}"),
        M["a1_rho"].show(c.rho, note=f"{c.slots} slots of {fmt(c.job_units, 'int')} GPUs"),
        M["a1_wait_cut"].show(cut, note=f"without them: {fmt(before.mean_wait_s(), 's')}"),
        M["a1_p_wait"].show(c.p_wait),
        M["a1_p90_s"].show(c.wait_percentile_s(0.9)),
        M["a1_one_server_s"].show(one_server_wait_s(c), note="the upstream lab's model"),
        M["a1_idle_flops"].show(idle_gpus * C.H100_PEAK_BF16_DENSE,
                                note=f"{fmt(idle_gpus, 'int')} H100s idle on average"),
    )]
    if wait > c.service_s:
        parts.append(failure(F["a1_wait_exceeds_job"],
                             f"At ρ = {fmt(c.rho, 'pct')} a {fmt(c.service_s, 's')} job waits {fmt(wait, 's')} "
                             "on average. Add GPUs or lower the demand until the wait drops below the job."))
    parts.append(act1_chart(c, before))
    return parts


def on_log_chart_h(waits_s: list[float]) -> list[float | None]:
    """Waits in hours; those below the chart's floor become gaps."""
    return [hours(w) if hours(w) >= S.chart_floor_h else None for w in waits_s]


def act1_chart(c: q.Pool, before: q.Pool):
    low = min(0.5, math.floor(c.rho * 20 - 1) / 20)   # keep the current point on the chart
    rhos = [low + (0.99 - low) * k / 59 for k in range(60)]
    top = max(3.0, math.log10(max(hours(c.mean_wait_s()), S.chart_floor_h)) + 0.5)
    traces = [ch.line(f"{c.slots} slots (yours)", rhos, on_log_chart_h(wait_curve_s(c, c.slots, rhos)), "series1"),
              ch.line("One big server", rhos, on_log_chart_h(wait_curve_s(c, 1, rhos)), "muted", dash="dash"),
              ch.line("Job length", [rhos[0], rhos[-1]], [hours(c.service_s)] * 2, "warn", dash="dot")]
    if before.slots != c.slots:
        traces.append(ch.point("No GPUs added", before.rho, max(hours(before.mean_wait_s()), S.chart_floor_h),
                               "muted"))
    traces.append(ch.point("Your setting", c.rho, max(hours(c.mean_wait_s()), S.chart_floor_h), "accent"))
    figure = ch.figure(traces, x=ch.axis("Utilisation ρ", range=[low, 1.0], tickformat=".0%"),
                       y=ch.axis("Mean wait (hours)", "log", range=[math.log10(S.chart_floor_h), top]))
    summary = (f"With {c.slots} slots the mean wait is {fmt(c.mean_wait_s(), 's')} at ρ = {fmt(c.rho, 'pct')}; "
               f"treating the cluster as one server would predict {fmt(one_server_wait_s(c), 's')}. "
               "Both curves bend up steeply as ρ nears 100 %.")
    table_rhos = rhos[::8]
    rows = [(fmt(r, "pct"), fmt(w, "s"), fmt(m, "s")) for r, w, m in
            zip(table_rhos, wait_curve_s(c, c.slots, table_rhos), wait_curve_s(c, 1, table_rhos))]
    return chart("a1_wait_curve", "Mean wait against utilisation", figure, summary,
                 table=(("ρ", f"{c.slots} slots", "One server"), rows))


def act1_math(s: State):
    c = cluster(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"B_0 = 1,\quad B_k = \frac{a\,B_{k-1}}{k + a\,B_{k-1}},\qquad "
                 r"P_W = \frac{c\,B_c}{c - a\,(1 - B_c)}",
                 "Erlang C, the chance that a job finds all *c* slots busy, from the Erlang B recursion "
                 "(stable for thousands of slots). *a = λS* is the mean number of busy slots."),
        Equation(r"W_q \approx P_W\cdot\frac{S}{c\,(1-\rho)}\cdot\frac{C_a^2 + C_s^2}{2},"
                 r"\qquad \rho = \frac{\lambda S}{c}",
                 "Allen–Cunneen: the M/M/c wait, scaled by the variability of arrivals and job lengths "
                 "(exact for exponential lengths, C² = 1)."),
        Equation(r"c = \left\lfloor \frac{\text{GPUs}}{\text{GPUs per job}} \right\rfloor",
                 "A gang needs all its GPUs at once, so a cluster is a queue with *c* slots, not one server."),
    ), rows=(
        ("Slots *c*", str(c.slots)),
        ("Busy slots on average *a*", fmt(c.load_erlangs, "num")),
        ("Utilisation *ρ*", fmt(c.rho, "pct")),
        ("Chance of waiting *P_W*", fmt(c.p_wait, "pct")),
        ("Variability factor", fmt(q.allen_cunneen_factor(1.0, c.service_scv), "num")),
        ("Mean wait *W_q*", fmt(c.mean_wait_s(), "s")),
    ), sources=(
        cite("kleinrock1975", "M/M/c, Erlang B and C"),
        cite("little1961", "a = λS, the mean number of busy slots"),
        cite("allen1990", "the (Cₐ² + Cₛ²)/2 approximation for G/G/c"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
    ))


ACT1 = Act(
    number=1, title=f"The {fmt(S.utilization, 'pct')} Cluster", minutes="12–15 min",
    stakeholder_role="HPC Director",
    stakeholder=lambda: (
        f"Our {S.cluster_gpus:,} H100s run at {fmt(S.utilization, 'pct')} utilisation and the board loves it. "
        f"Most work is {S.job_gpus}-GPU training jobs of about {fmt(S.service_s, 's')}, and they wait about "
        f"{fmt(SCENARIO.mean_wait_s(), 's')} to start. Finance can add {S.added_gpus} GPUs "
        f"(+{fmt(S.added_gpus / S.cluster_gpus, 'pct')}), but I expect that to shave the wait only in "
        "proportion. Is it worth it?"),
    scenario=lambda: (
        f"A job that needs {S.job_gpus} GPUs starts only when {S.job_gpus} are free at once, so the cluster "
        "behaves like a queue "
        f"with ⌊{S.cluster_gpus:,} / {S.job_gpus}⌋ = {SCENARIO.slots} slots. Jobs arrive at random and their "
        "lengths vary: some finish in minutes, some run all day.",
        "Queueing theory (the **M/M/c** model, with the Allen–Cunneen correction for variable lengths) says "
        "how long jobs wait for a slot as a function of the load. Predict before you measure.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_UTIL, A1_ADDED, A1_JOB, A1_SERVICE, A1_SCV),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Queue explorer",
)

# ---- Act II · The pool designer -----------------------------------------------------

A2_INTERACTIVE = Slider("a2_interactive_gpus", f"Notebook pool ({S.interactive[0]}-GPU jobs)", unit="GPUs",
                        min=S.interactive[0], max=256, step=S.interactive[0], default=S.layouts[0][0], fmt="int")
A2_TRAINING = Slider("a2_training_gpus", f"Training pool ({S.training[0]}-GPU gangs)", unit="GPUs",
                     min=S.training[0], max=768, step=S.training[0], default=S.layouts[0][2], fmt="int",
                     help=f"The sweep pool gets whatever the other two leave of the {S.cluster_gpus:,} GPUs.")


def layout(s: State) -> Layout:
    i, t = s["a2_interactive_gpus"], s["a2_training_gpus"]
    return Layout(i, max(0.0, S.cluster_gpus - i - t), t)


def layout_text(letter: str) -> str:
    lay = LAYOUTS[letter]
    return (f"Notebooks {fmt(lay.interactive_gpus, 'int')} · sweeps {fmt(lay.search_gpus, 'int')} · "
            f"training {fmt(lay.training_gpus, 'int')} GPUs")


ACT2_PICK = Pick(
    id="a2_pick", act=2,
    prompt=f"Split the {S.cluster_gpus:,} GPUs into three dedicated pools so that at most "
           f"{fmt(S.interactive_max_late, 'pct')} of notebooks wait over {fmt(S.interactive_wait_s, 's')} and "
           f"at most {fmt(S.training_max_late, 'pct')} of training runs wait over {fmt(S.training_wait_s, 's')}, "
           "leaving as many GPUs as possible to the sweeps. Which split does it?",
    quantity="the split that keeps both promises",
    options=(
        Claim("A", f"{layout_text('A')}: notebooks use {fmt(NOTEBOOK_BUSY_GPUS, 'int')} GPUs at peak on "
                   "average, so this leaves room to spare.",
              "{A_verdict}"),
        Claim("B", f"{layout_text('B')}: with the cluster this lightly loaded, two training gangs are enough.",
              "{B_verdict}"),
        Claim("C", f"{layout_text('C')}: a small dedicated notebook pool and three training gangs.",
              "{C_verdict}"),
        Claim("D", f"{layout_text('D')}: double the notebook pool to be safe.", "{D_verdict}"),
    ),
    decide=act2_decide,
)


def verdict_text(letter: str) -> str:
    lay = LAYOUTS[letter]
    i, t = lay.interactive_late(), lay.training_late()
    within = "within" if i <= S.interactive_max_late else "over"
    parts = [f"Notebooks waiting over {fmt(S.interactive_wait_s, 's')}: **{fmt(i, 'pct1')}** ({within} "
             f"the {fmt(S.interactive_max_late, 'pct')} limit, {lay.interactive.slots} slots at "
             f"{fmt(lay.interactive.rho, 'pct')} busy)."]
    if lay.training.stable:
        parts.append(f"Training runs waiting over {fmt(S.training_wait_s, 's')}: **{fmt(t, 'pct1')}** "
                     f"({lay.training.slots} gang slots at {fmt(lay.training.rho, 'pct')} busy).")
    else:
        parts.append(f"Training: {lay.training.slots} gang slots cannot carry "
                     f"{fmt(lay.training.load_erlangs, 'num')} busy "
                     "gangs on average, so the queue grows without end.")
    if lay.meets_limits() and letter != act2_decide():
        parts.append(f"It keeps both promises, but leaves only {fmt(lay.search_gpus, 'int')} GPUs to the sweeps.")
    return " ".join(parts)


def act2_facts() -> dict[str, str]:
    facts = {f"{k}_verdict": verdict_text(k) for k in LAYOUTS}
    best = LAYOUTS[act2_decide()]
    g_i, s_i, r_i = S.interactive
    smallest = q.min_servers_for_tail(r_i, s_i, S.interactive_wait_s, S.interactive_max_late) * g_i
    facts.update(gpu_util=fmt(gpu_utilization(), "pct"), train_rho=fmt(best.training.rho, "pct"),
                 train_slots=str(best.training.slots), smallest_pool=fmt(smallest, "int"),
                 train_wait=fmt(best.training.mean_wait_s(), "s"))
    return facts


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The cluster's GPUs are busy only {fmt(gpu_utilization(), 'pct')} of the day, yet training runs "
           "wait for hours. Why?",
    options=(
        Claim("A", f"A {S.training[0]}-GPU gang needs a whole slot: the training pool has only a few slots, "
                   "and they are far busier than the GPU average.",
              "The training pool's {train_slots} gang slots are **{train_rho}** busy while the cluster's GPUs "
              "are {gpu_util} busy; with so few slots the mean wait is {train_wait}."),
        Claim("B", "Backfill would fix it: small jobs fill the gaps while a gang waits.",
              "Backfill raises GPU utilisation by running small jobs in the gaps, but it cannot create a "
              f"{S.training[0]}-GPU slot, and it never speeds up the class that is already first in line."),
        Claim("C", "Strict priority for notebooks starves training; remove it and the waits go away.",
              "The pools are dedicated, so no class takes slots from another: the training wait comes from "
              "its own few, busy slots."),
        Claim("D", f"At {fmt(gpu_utilization(), 'pct')} a cluster cannot have a queue; the waits must be a "
                   "reporting error.",
              "GPU utilisation averages over every GPU; the queue of a class depends on its own slots."),
    ),
    answer_letter="A",
)


def act2_instruments(s: State) -> list:
    lay = layout(s)
    i_late, t_late = lay.interactive_late(), lay.training_late()
    i_bad, t_bad = i_late > S.interactive_max_late, t_late > S.training_max_late
    parts = [metric_grid(
        M["a2_interactive_late"].show(i_late, "danger" if i_bad else "good",
                                      f"limit {fmt(S.interactive_max_late, 'pct')}"),
        M["a2_training_late"].show(t_late, "warn" if t_bad else "good",
                                   f"limit {fmt(S.training_max_late, 'pct')}"),
        M["a2_training_rho"].show(lay.training.rho, None if lay.training.stable else "danger",
                                  f"{lay.training.slots} slots of {fmt(lay.training.job_units, 'int')} GPUs"),
        M["a2_gpu_util"].show(gpu_utilization(), note="the same for every split"),
        M["a2_interactive_rho"].show(lay.interactive.rho, None if lay.interactive.stable else "danger",
                                     f"{lay.interactive.slots} slots"),
        search_wait_metric(lay.search),
    )]
    if i_bad:
        parts.append(failure(F["a2_interactive_sla"],
                             f"{fmt(i_late, 'pct1')} of notebooks wait over {fmt(S.interactive_wait_s, 's')} in a "
                             f"pool of {lay.interactive.slots} slots. Small pools need headroom: add GPUs to the "
                             "notebook pool."))
    if t_bad:
        parts.append(failure(F["a2_training_tail"],
                             f"{fmt(t_late, 'pct1')} of training runs wait over {fmt(S.training_wait_s, 's')}: "
                             f"{lay.training.slots} gang slots at {fmt(lay.training.rho, 'pct')}. Give training "
                             "another gang slot."))
    if not lay.search.stable:
        parts.append(failure(F["a2_search_overloaded"],
                             f"The sweeps get {fmt(lay.search.units, 'int')} GPUs ({lay.search.slots} slots) for "
                             f"{fmt(lay.search.load_erlangs, 'num')} busy "
                             "jobs on average. Shrink another pool."))
    parts += [act2_chart(lay), busy_chart(lay)]
    return parts


def search_wait_metric(pool: q.Pool):
    if pool.stable:
        return M["a2_search_wait_s"].show(pool.mean_wait_s(),
                                          note=f"{fmt(pool.units, 'int')} GPUs, {pool.slots} slots")
    return M["a2_search_wait_s"].show(0.0, "danger", "no bound: the pool is overloaded")


def act2_chart(lay: Layout):
    r = A2_INTERACTIVE
    sizes = [r.min + r.step * k for k in range(int((r.max - r.min) / r.step) + 1)]
    tails = [Layout(r, 0, lay.training_gpus).interactive_late() for r in sizes]
    shape, note = ch.hline(S.interactive_max_late, "danger", f"limit {fmt(S.interactive_max_late, 'pct')}")
    figure = ch.figure(
        [ch.line("Notebooks waiting over the limit", sizes, tails, "series1", markers=True),
         ch.point("Your pool", lay.interactive_gpus, lay.interactive_late(), "accent")],
        x=ch.axis("Notebook pool (GPUs)", range=[0, r.max + r.step]),
        y=ch.axis("Share of notebooks", "linear", tickformat=".0%", range=[0, 1.0]),
        shapes=[shape], annotations=[note])
    g_i, s_i, r_i = S.interactive
    smallest = q.min_servers_for_tail(r_i, s_i, S.interactive_wait_s, S.interactive_max_late) * g_i
    summary = (f"The share of notebooks that wait over {fmt(S.interactive_wait_s, 's')} falls steeply with pool "
               f"size; {fmt(smallest, 'int')} GPUs is the smallest pool under the "
               f"{fmt(S.interactive_max_late, 'pct')} limit. Yours: {fmt(lay.interactive_gpus, 'int')} GPUs, "
               f"{fmt(lay.interactive_late(), 'pct1')}.")
    rows = [(fmt(r, "int"), fmt(t, "pct1")) for r, t in zip(sizes[:12], tails[:12])]
    return chart("a2_notebook_pool", "Notebook promise against pool size", figure, summary,
                 table=(("Pool GPUs", "Waiting over the limit"), rows))


def busy_chart(lay: Layout):
    pools = (("Notebook slots", lay.interactive), ("Sweep slots", lay.search), ("Training slots", lay.training))
    names = ["Cluster GPUs"] + [name for name, _ in pools]
    busy = [gpu_utilization()] + [min(1.0, pool.rho) for _, pool in pools]
    colors = ["muted"] + ["series1" if pool.stable else "danger" for _, pool in pools]
    bars = ch.bars("Busy share", names, busy, colors, text=[fmt(b, "pct") for b in busy], horizontal=True)
    bars["textangle"] = 0  # never rotate a label to squeeze it into a short bar
    figure = ch.figure([bars],
                       x=ch.axis("Busy", tickformat=".0%", range=[0, 1.05]),
                       y=ch.axis("", "category", automargin=True, autorange="reversed"), legend=False)
    summary = (f"The cluster's GPUs are {fmt(gpu_utilization(), 'pct')} busy over a day; the training pool's "
               f"{lay.training.slots} gang slots are {fmt(min(1.0, lay.training.rho), 'pct')} busy.")
    return chart("a2_busy", "GPUs against slots: how busy each pool is", figure, summary,
                 table=(("Pool", "Busy"), [(n, fmt(b, "pct")) for n, b in zip(names, busy)]))


def act2_math(s: State):
    lay = layout(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"P(W_q > t) = P_W(c, a)\; e^{-(c/S - \lambda)\,t}",
                 "The wait tail of an M/M/c pool: a job waits at all with probability *P_W*, and then for an "
                 "exponential time whose rate is the slots' spare capacity."),
        Equation(r"c = \left\lfloor R / g \right\rfloor,\qquad \rho_{\text{slots}} = \frac{\lambda S}{c} "
                 r"\;\ge\; \rho_{\text{GPUs}} = \frac{\lambda S g}{R}",
                 "A pool of *R* GPUs runs ⌊R/g⌋ gangs of *g*; leftover GPUs are stranded, so slots are busier "
                 "than GPUs."),
    ), rows=tuple((f"{name} pool", f"{fmt(pool.units, 'int')} GPUs · {pool.slots} slots · "
                                   f"{fmt(pool.rho, 'pct') if pool.stable else 'overloaded'}")
                  for name, pool in (("Notebook", lay.interactive), ("Sweep", lay.search),
                                     ("Training", lay.training))),
        sources=(cite("kleinrock1975", "the M/M/c waiting-time distribution"),
                 C.REGISTRY["DGX_H100_GPUS_PER_NODE"].source + f" (the {S.interactive[0]}-GPU notebook job is "
                 f"{notebook_nodes()})"))


def notebook_nodes() -> str:
    """How many DGX H100 nodes one notebook job fills: "one node" at the scenario's size."""
    nodes = S.interactive[0] / C.DGX_H100_GPUS_PER_NODE
    return "one node" if nodes == 1 else f"{fmt(nodes, 'num')} nodes"


ACT2 = Act(
    number=2, title="The Pool Designer", minutes="20–25 min",
    stakeholder_role="VP of Research Computing",
    stakeholder=lambda: (
        f"Three kinds of work share our {S.cluster_gpus:,} GPUs: notebooks ({S.interactive[0]} GPUs, "
        f"{fmt(S.interactive[1], 's')}, {fmt(S.interactive[2] * S.hour_s, 'num')} an hour at peak), "
        f"hyperparameter sweeps ({S.search[0]} GPUs, {fmt(S.search[1], 's')}, "
        f"{fmt(S.search[2] * S.day_s, 'num')} a day) and training runs ({S.training[0]} GPUs, "
        f"{fmt(S.training[1], 's')}, {fmt(S.training[2] * S.day_s, 'num')} a day). Over a day the GPUs are "
        f"only {fmt(gpu_utilization(), 'pct')} busy, yet everyone complains about waiting. "
        "I want dedicated pools with promises I can keep."),
    scenario=lambda: (
        "Each pool is its own queue: notebooks, sweeps and training never take each other's GPUs. "
        "A pool of *R* GPUs runs ⌊R/g⌋ jobs of *g* GPUs at once.",
        "Job lengths in each pool are taken as exponential (Cₛ² = 1); Act I showed that more variable "
        "lengths lengthen every wait.",
    ),
    prediction=ACT2_PICK,
    controls=(A2_INTERACTIVE, A2_TRAINING),
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Pool designer",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    c, lay = cluster(s), layout(s)
    active = {"a1_wait_exceeds_job": c.mean_wait_s() > c.service_s,
              "a2_interactive_sla": lay.interactive_late() > S.interactive_max_late,
              "a2_training_tail": lay.training_late() > S.training_max_late,
              "a2_search_overloaded": not lay.search.stable}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float]:
    c, lay = cluster(s), layout(s)
    pools = {"interactive": lay.interactive, "search": lay.search, "training": lay.training}
    out = {"a1_wait_s": c.mean_wait_s(), "a1_rho": c.rho, "gpu_util": gpu_utilization(),
           "interactive_p_wait_gt_5min": lay.interactive_late(), "train_p_wait_gt_48h": lay.training_late()}
    for name, pool in pools.items():
        out[f"pool_gpus_{name}"] = pool.units
        out[f"rho_{name}"] = pool.rho if pool.stable else 1.0
    return out


def lab_takeaways() -> list[str]:
    """Shown before any question is locked, so they teach the mechanism without the answers."""
    return [
        "A GPU cluster is a multi-server queue: a gang of g GPUs needs one of ⌊GPUs/g⌋ slots, and the wait "
        "grows like 1/(1−ρ) as the slots fill.",
        f"Treating the cluster as one server is the classic mistake: at {fmt(SCENARIO.rho, 'pct')} it predicts "
        f"{fmt(one_server_wait_s(SCENARIO), 's')} for jobs that really wait {fmt(SCENARIO.mean_wait_s(), 's')}.",
        "Near ρ = 1 a modest amount of extra capacity cuts the wait far more than in proportion; plan for the "
        "knee of the curve, which more slots or steadier job lengths move to the right.",
        f"GPU utilisation hides gang queues: a cluster {fmt(gpu_utilization(), 'pct')} busy can still have a "
        f"few {S.training[0]}-GPU slots that are much busier.",
        "Small pools need headroom: a pool that must start jobs within minutes has to sit mostly idle.",
    ]


LAB = Lab(
    id="v2_08", volume=2, number=8, title="The Utilization Trap",
    invariant="Waiting time grows like **1/(1−ρ)** as utilisation nears 1; how early it bends depends on how "
              "many jobs fit at once and how much their lengths vary.",
    minutes="35–40 min", chapter="Fleet Orchestration", url="vol2/08-utilization-trap/",
    reading=(
        "**Queueing fundamentals**: arrival rate, service time, utilisation and Little's law.",
        "**Multi-server queues**: Erlang C, and why a cluster is not one big server.",
        "**Cluster scheduling**: gangs, partitions, priority and backfill.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V2-10 The KV-Cache Memory Wall**: the same queue on serving replicas, where the wait is latency.",
        "**V2-12 The SLO Composition Trap**: turning wait tails into service-level objectives.",
        "**V2-07 The Checkpoint Reckoning**: the other tax on a big cluster's utilisation.",
    ),
    presets={"context": {
        "gangs": {"a1_job_gpus": S.job_gpus, "a1_service_s": S.service_s, "a1_service_scv": S.service_scv},
        "small": {"a1_job_gpus": S.small_job_gpus, "a1_service_s": S.small_service_s,
                  "a1_service_scv": S.small_service_scv}}},
)
