"""Lab V2-09 · You Can't Optimize What You Can't Measure.

Core invariant: a speed-up k on a part that takes a fraction f of the step
gives 1 / ((1 − f) + f/k) end to end, and never more than 1 / (1 − f); the
part to work on is the one the profile shows is largest, and the fix to buy
first is the one with the most gain per engineer-week.

Act I (the profiling revelation): a 3× attention kernel on 12 % of the step
buys +8.7 % throughput; the same 3× on the 45 % all-reduce buys +42.9 %
(key B of four ordered ranges). The reflection asks why 8 % less time is
8.7 % more throughput (key C); the equations panel's row that says so waits
for its lock.
Act II (the distributed optimiser): a 512-GPU run at 35 % MFU with a
Megatron-consistent bubble (PP = 8, m = 21); four levers, one cost model,
an 8-week budget and a 50 % MFU target. The prediction asks for the best
single fix in the context locked in: in the next run (the default), 4× the
micro-batches reach 52.8 % (key D); in a run in flight, 5× compression
reaches 46.1 % (key C). The reflection asks why compression alone never
reaches 50 % (key A: 50 % needs the step at 70 %, and the all-reduce is 30 %).
The interleaving lever offers only schedules Megatron-LM runs: v divides each
stage's 10 layers, and m = 21 needs micro-batch groups of 11 (schedules.py).

Departures from the spec (handbook/labs/v2_09.md §5, handbook/labs/v2_09.md §2): the spec's model keeps
the all-reduce's share fixed when m grows, while its new-run context grows the
global batch; at a fixed micro-batch size the all-reduce runs once per step
(PyTorch DDP no_sync, gradient accumulation) and serves m/21 times the
samples, as handbook/labs/v2_09.md §2 notes ("doubling m ... doubles tokens per step"). So
in a new run more micro-batches alone reach the target (63 of them, 50.0 %,
1.79 weeks), not 41.2 % at best. The growth is capped at an assumed 4×, and
the takeaway names the critical batch size (McCandlish et al. 2018).

Ledger fields: context, both predictions and reflections, the final lever
settings, the Act I gain and the bottleneck's share, the Act II MFU, cost,
return per week and number of fixes, failure states reached.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, failure, fmt, math_peek,
                              metric_grid, prose)
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_09_charts import A1_LABELS, act1_k_chart, act1_profile_chart, act2_profile_chart, act2_roi_chart
from pylabs.labs.vol2.v2_09_model import (A1_SHARES, BASE, GROUP, HALF_ALLREDUCE, HALF_BUBBLE, HOTSPOT, K0,
                                         K_GRID, LAYERS, M_GRID, PER_STAGE, TIME_CUT, V_OPTIONS, W_GRID, Plan, S,
                                         act1_truth, act2_truth, best_single_fix, ceiling_gain,
                                         cheapest_target_plan, deepest_fixes, drops_that_keep_the_target, gain)
from pylabs.physics import amdahl, pipeline
from pylabs.physics import constants as C
from pylabs.physics.references import cite


# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Global batch", (
    Option("locked", "Run in flight: the global batch is locked"),
    Option("fresh", f"Next run: the global batch may grow up to {S.microbatch_factor_max}×"),
), default="fresh", help="A locked batch leaves interleaving as the only pipeline lever in Act II; the next run "
                        "may also add micro-batches, at the price of re-tuning the learning rate.")


def terms(context: str) -> dict[str, str]:
    return {"run": "the run in flight, its global batch locked" if context == "locked" else
            f"the next run, whose global batch may grow up to {S.microbatch_factor_max}×"}

# ---- Act I · The profiling revelation ------------------------------------------------


def share_text(part: str) -> str:
    return f"{A1_LABELS[part].lower()} ({fmt(A1_SHARES[part], 'pct')})"


A1_TARGET = Choice("a1_target", "Part of the step to speed up",
                   tuple(Option(p, f"{A1_LABELS[p]} · {fmt(A1_SHARES[p], 'pct')}") for p in A1_SHARES),
                   default="attention", widget="select", unit="share of step time")
A1_K = Slider("a1_k", "Speed-up of that part, k", unit="1", min=1.5, max=10, step=0.5, default=S.kernel_speedup,
              fmt="x")

AR, ATT = A1_SHARES["allreduce"], A1_SHARES["attention"]

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Suppose the same {S.kernel_weeks:.0f} weeks had gone into the gradient all-reduce "
           f"({fmt(AR, 'pct')} of the step) and made it {fmt(K0, 'x')} faster, the same "
           "factor as the kernel. By how much would training throughput have risen?",
    quantity=f"Throughput gain from a {fmt(K0, 'x')} faster all-reduce",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: the kernel's gain, scaled up by the larger share", None, 0.35, 0.30,
              f"A {fmt(K0, 'x')} all-reduce gives back f(1 − 1/k) = {fmt(amdahl.time_reduction(AR, K0), 'pct')} "
              f"of the step, and the kernel's {fmt(gain('attention', K0), 'pct')} scaled by "
              f"{fmt(AR, 'pct')}/{fmt(ATT, 'pct')} is {fmt(gain('attention', K0) * AR / ATT, 'pct')}; neither is "
              f"the gain. Amdahl's law gives 1/((1 − f) + f/k) − 1 = {fmt(act1_truth(), 'pct')}."),
        Range("B", f"{{range}}: large, yet far below the part's own {fmt(K0, 'x')}", 0.35, 0.65, 0.45,
              f"Amdahl's law gives 1/({fmt(1 - AR, 'num')} + {fmt(AR, 'num')}/{fmt(K0, 'num')}) − 1 = "
              f"**{fmt(act1_truth(), 'pct')}**: {fmt(act1_truth() / gain('attention', K0), 'x')} the kernel's "
              f"{fmt(gain('attention', K0), 'pct')} for the same factor, because the all-reduce was the "
              "profile's largest part."),
        Range("C", "{range}: the share times the extra speed, f·(k − 1)", 0.65, 1.20, 0.90,
              f"f·(k − 1) = {fmt(AR * (K0 - 1), 'pct')} treats the whole step as if it sped up. The other "
              f"{fmt(1 - AR, 'pct')} does not move: {fmt(K0, 'x')} gives {fmt(act1_truth(), 'pct')}, and even "
              f"an instant all-reduce at most {fmt(ceiling_gain('allreduce'), 'pct')}."),
        Range("D", f"{{range}}: most of the {fmt(K0, 'x')} shows up end to end", 1.20, None, 2.0,
              f"The other {fmt(1 - AR, 'pct')} of the step does not move: {fmt(K0, 'x')} gives "
              f"{fmt(act1_truth(), 'pct')}, and even an instant all-reduce caps the gain at "
              f"{fmt(ceiling_gain('allreduce'), 'pct')}."),
    ),
    truth=act1_truth,
    shown_by="a1_hotspot_gain",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The kernel cut the step time by {fmt(TIME_CUT, 'pct')}, and throughput rose by "
           f"{fmt(gain('attention', K0), 'pct')}. Why do the two numbers differ?",
    options=(
        Claim("A", f"Profiling noise: {fmt(TIME_CUT, 'pct')} and {fmt(gain('attention', K0), 'pct')} agree "
                   "within a step-time measurement's error.",
              "Nothing here is noisy: both numbers follow exactly from f = {f_att} and k = {k0}."),
        Claim("B", "Inside the full step the new kernel ran slower than in its benchmark alone.",
              "Amdahl's law with the full k = {k0} reproduces the {time_cut} exactly: the kernel kept its speed-up."),
        Claim("C", f"Throughput counts steps per second: 1/{fmt(1 - TIME_CUT, 'num')} of the old rate is "
                   f"{fmt(gain('attention', K0), 'pct')} more.",
              "Time saved is f(1 − 1/k) = **{time_cut}**; the step takes {time_left} of its old time, so it "
              "runs 1/{time_left_num} as often: **{gain_att}** more throughput. A saving s buys s/(1 − s)."),
        Claim("D", f"Amdahl's law is an upper bound; the {fmt(gain('attention', K0), 'pct')} is its promise, "
                   "not a measurement.",
              "Here it is not a bound but the exact accounting: the measured {time_cut} shorter step means "
              "{gain_att} more steps in the same time."),
    ),
    answer_letter="C",
)

M = {m.name: m for m in (
    MetricSpec("a1_share", "Share of the step it takes", "1", "pct"),
    MetricSpec("a1_time_saved", "Step time saved", "1", "pct"),
    MetricSpec("a1_gain", "Throughput gain", "1", "pct"),
    MetricSpec("a1_ceiling", "Ceiling, however fast the part", "1", "pct"),
    MetricSpec("a1_hotspot_gain", "Same k on the largest part", "1", "pct"),
    MetricSpec("a1_impact", "Largest part's gain ÷ this gain", "1", "x"),
    MetricSpec("a2_mfu", "Model FLOP utilisation", "1", "pct"),
    MetricSpec("a2_tflops", "Useful FLOP/s per GPU", "FLOP/s", "FLOP/s"),
    MetricSpec("a2_gain", "MFU gained", "1", "pp"),
    MetricSpec("a2_weeks", "Engineering cost (engineer-weeks)", "week", "num"),
    MetricSpec("a2_roi", "MFU gained per engineer-week", "1/week", "pp", infinite="no fix yet"),
    MetricSpec("a2_bubble", "Pipeline bubble per sample, share of the old step", "1", "pct"),
    MetricSpec("a2_fixes", "Fixes in the plan", "fixes", "int"),
    MetricSpec("a2_best_single", "Best single fix in the budget", "1", "pct"),
)}

FAILURES = (FailureSpec("a2_over_budget", "Budget exceeded: the plan needs more engineer-weeks than the quarter has",
                        act=2,
                        reach={"a2_k": 5, "a2_v": "2"}, leave={"a2_v": "1"}),)
F = {f.name: f for f in FAILURES}


def act1_instruments(s: State) -> list:
    part, k = s["a1_target"], s["a1_k"]
    here, best = gain(part, k), gain(HOTSPOT, k)
    parts = [metric_grid(
        M["a1_share"].show(A1_SHARES[part]),
        M["a1_time_saved"].show(amdahl.time_reduction(A1_SHARES[part], k)),
        M["a1_gain"].show(here, "good" if part == HOTSPOT else "warn"),
        M["a1_ceiling"].show(ceiling_gain(part), note="1/(1 − f) − 1"),
        M["a1_hotspot_gain"].show(best, note=A1_LABELS[HOTSPOT]),
        M["a1_impact"].show(best / here),
    )]
    if part == HOTSPOT:
        att = gain("attention", k)
        parts.append(callout("success", "On the bottleneck", prose(
            f"The {share_text(part)} is the largest part of the step. At k = {fmt(k, 'x')} it gives "
            f"**{fmt(here, 'pct')}**, {fmt(here / att, 'x')} what the same factor on attention gives "
            f"({fmt(att, 'pct')}). No k can take it past {fmt(ceiling_gain(part), 'pct')}.")))
    else:
        parts.append(callout("warn", "Not the bottleneck", prose(
            f"The {share_text(part)} buys **{fmt(here, 'pct')}** at k = {fmt(k, 'x')}, and at most "
            f"{fmt(ceiling_gain(part), 'pct')} however fast it gets. The same factor on the "
            f"{share_text(HOTSPOT)} gives {fmt(best, 'pct')}: {fmt(best / here, 'x')} the impact.")))
    parts += [act1_profile_chart(part, k), act1_k_chart(part, k)]
    return parts


def act1_facts() -> dict[str, str]:
    return {"f_att": fmt(A1_SHARES["attention"], "pct"), "k0": fmt(K0, "x"), "time_cut": fmt(TIME_CUT, "pct"),
            "time_left": fmt(1 - TIME_CUT, "pct"), "time_left_num": fmt(1 - TIME_CUT, "num"),
            "gain_att": fmt(gain("attention", K0), "pct")}


def act1_math(s: State):
    part, k = s["a1_target"], s["a1_k"]
    f = A1_SHARES[part]
    return math_peek("The governing equations · Act I", (
        Equation(r"S = \frac{1}{(1-f) + f/k}",
                 "Amdahl's law: a part that takes a fraction *f* of the step becomes *k* times faster."),
        Equation(r"\frac{\Delta T}{T} = f\left(1 - \frac{1}{k}\right),\qquad S - 1 = \frac{\Delta T/T}{1 - \Delta T/T}",
                 f"Time saved and throughput gained differ: {fmt(TIME_CUT, 'pct')} less time is "
                 f"{fmt(gain('attention', K0), 'pct')} more throughput.")
        if s.locked(ACT1_REFLECTION.id) else  # it answers the reflection, so it waits for its lock
        Equation(r"\frac{\Delta T}{T} = f\left(1 - \frac{1}{k}\right)", "The share of the step saved."),
        Equation(r"S_{\max} = \lim_{k\to\infty} S = \frac{1}{1-f}",
                 "The ceiling: even an instant part leaves the rest of the step."),
    ), rows=(
        ("Part, *f*", f"{A1_LABELS[part]} · {fmt(f, 'pct')}"),
        ("Speed-up, *k*", fmt(k, "x")),
        ("Time saved, *ΔT/T*", fmt(amdahl.time_reduction(f, k), "pct")),
        ("Speed-up, *S*", fmt(amdahl.amdahl_speedup(f, k), "x")),
        ("Ceiling, *1/(1 − f)*", fmt(amdahl.amdahl_ceiling(f), "x")),
    ), sources=(
        "Amdahl 1967, *Validity of the single processor approach to achieving large scale computing capabilities*.",
        "Hennessy and Patterson, *Computer Architecture: A Quantitative Approach*, ch. 1 (Amdahl's law).",
        "The profile shares are the scenario's stated trace, not measurements of a particular system.",
    ))


ACT1 = Act(
    number=1, title="The Profiling Revelation", minutes="12–15 min",
    stakeholder_role="Senior Performance Engineer, LLM Training",
    stakeholder=lambda: (
        f"We spent {S.kernel_weeks:.0f} weeks on a custom attention kernel. Benchmarked alone it is "
        f"{fmt(K0, 'x')} faster than the old one. We shipped it, and the training step got "
        f"{fmt(TIME_CUT, 'pct')} shorter. Not {fmt(K0, 'x')}: {fmt(TIME_CUT, 'pct')}. The team is crushed. "
        "Before we pick the next project, what did we miss?"),
    scenario=lambda: (
        "Their profiler splits one training step into five parts: "
        + ", ".join(share_text(p) for p in A1_SHARES) + ".",
        "A part that takes a fraction *f* of the step and becomes *k* times faster leaves (1 − f) + f/k of the "
        "step: **Amdahl's law**. The rest of the step does not care how fast the kernel is.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_TARGET, A1_K),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Profile-guided Amdahl explorer",
)

# ---- Act II · Distributed performance analysis ----------------------------------------

A2_V = Choice("a2_v", "Interleaved schedule: virtual stages per GPU, v",
              tuple(Option(str(v), "1 · plain 1F1B" if v == 1 else f"{v} · {plural(PER_STAGE // v, 'layer')} per chunk")
                    for v in V_OPTIONS), default="1", unit="stages",
              help=f"Divides the bubble by v; each micro-batch crosses v× more stage boundaries, which this lab "
                   "charges no time for (an upper bound: Narayanan et al. 2021 report 10+ % more throughput from "
                   "interleaving). Megatron-LM "
                   f"needs each stage's {PER_STAGE} layers to split into v equal chunks, and at least p = {S.pp} "
                   f"micro-batches: with m = {S.microbatches} its default groups of p leave a last group of "
                   f"{S.microbatches % S.pp}, so it runs groups of {GROUP} "
                   "(--microbatch-group-size-per-virtual-pipeline-stage).")
A2_M = Slider("a2_m", "Micro-batches per step, m", unit="micro-batches", min=S.microbatches,
              max=M_GRID[-1], step=S.microbatches, default=S.microbatches, fmt="int",
              help="Next run only: in a run in flight the global batch, and so m, stays put.")
A2_K = Slider("a2_k", "Gradient compression: all-reduce ÷ k", unit="1", min=1, max=K_GRID[-1], step=S.compression_step,
              default=1, fmt="x")
A2_W = Slider("a2_workers", "Data prefetch workers per GPU", unit="workers", min=S.prefetch_workers, max=W_GRID[-1], step=1,
              default=S.prefetch_workers, fmt="int", help="Loader throughput grows as the square root of the workers.")


FIX_LABELS = {"bubble": "pipeline fix", "allreduce": "compression", "data": "prefetching"}


def a2_overridden(s: State) -> dict[str, str]:
    """A run in flight keeps its global batch, so the micro-batch lever does not apply."""
    if s["context"] == "fresh":
        return {}
    return {"a2_m": f"Not used: a run in flight keeps its global batch, so m stays at {S.microbatches}. "
                    "In the next-run context (chosen at the top, before the first lock) it can grow."}


def plan(s: State) -> Plan:
    m = int(s["a2_m"]) if s["context"] == "fresh" else S.microbatches
    return Plan(int(s["a2_v"]), m, s["a2_k"], int(s["a2_workers"]))


def describe(p: Plan) -> str:
    parts = [f"interleaving v = {p.v}" if p.v > 1 else "", f"{p.m} micro-batches" if p.m != S.microbatches else "",
             f"compression {fmt(p.k, 'x')}" if p.k > 1 else "", f"{p.workers} prefetch workers"
             if p.workers != S.prefetch_workers else ""]
    return " with ".join(x for x in parts if x) or "no change"


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Leadership wants {fmt(S.target_mfu, 'pct')} MFU. In {{run}}, suppose the team puts the whole "
           f"{S.budget_weeks:.0f}-week budget into one fix, at the deepest setting it pays for. What is the "
           "highest MFU a single fix can reach?",
    quantity=f"Best MFU from one fix within {S.budget_weeks:.0f} engineer-weeks",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: a point or two, since the bubble is small", None, 0.40, 0.38,
              "The deepest interleaving (v = {v_deep}) gives {mfu_v}, and the loader at {w_deep} workers "
              "{mfu_w}. {best_line}"),
        Range("B", "{range}: a few points, from halving the all-reduce", 0.40, 0.44, 0.42,
              "Halving the all-reduce gives {mfu_k2} for {weeks_k2}. {best_line}"),
        Range("C", "{range}: close to the target, and still short of it", 0.44, 0.50, 0.47,
              "{best_line} {target_line}"),
        Range("D", "{range}: one fix reaches the target on its own", 0.50, None, 0.55,
              "{best_line} {target_line}"),
    ),
    truth=act2_truth,
    shown_by="a2_best_single",
)


def best_line(context: str) -> str:
    best = best_single_fix(context == "fresh")
    if best.m != S.microbatches:
        return (f"{best.m} micro-batches ({fmt(best.m / S.microbatches, 'x')}) for "
                f"{plural(best.weeks, 'engineer-week')} give **{fmt(best.mfu, 'pct')}**: the all-reduce runs once "
                "per step, so more micro-batches per step spread it over more work, and the bubble's share falls "
                "as (p − 1)/m. MFU counts FLOPs, not progress: past the critical batch size a larger batch needs "
                "more tokens for the same loss (McCandlish et al. 2018), so the learning-rate re-tuning the weeks "
                "pay for must confirm it.")
    return (f"The budget buys at most {fmt(best.k, 'x')} compression, **{fmt(best.mfu, 'pct')}**; no other lever "
            "alone goes further.")


def act2_facts(context: str) -> dict[str, str]:
    fresh = context == "fresh"
    best = best_single_fix(fresh)
    deep = {q.lever: q for q in deepest_fixes(fresh)}
    return {
        "v_deep": str(deep["v"].v), "mfu_v": fmt(deep["v"].mfu, "pct"),
        "w_deep": str(deep["w"].workers), "mfu_w": fmt(deep["w"].mfu, "pct"),
        "mfu_k2": fmt(HALF_ALLREDUCE.mfu, "pct"), "weeks_k2": plural(HALF_ALLREDUCE.weeks, "engineer-week"),
        "best_line": best_line(context),
        "target_line": (f"One fix is enough here, with {fmt(best.mfu - S.target_mfu, 'pp')} to spare." if fresh else
                        f"No single fix reaches {fmt(S.target_mfu, 'pct')} in a run in flight: it takes two."),
        "k_deep": fmt(deep["k"].k, "x"), "mfu_k_deep": fmt(deep["k"].mfu, "pct"),
        "need": fmt(S.mfu / S.target_mfu, "pct"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"On the chart, the compression line stays below {fmt(S.target_mfu, 'pct')} MFU at every ratio, even "
           "past the budget. Why can compression alone not reach the target?",
    options=(
        Claim("A", f"{fmt(S.target_mfu, 'pct')} needs a step {fmt(S.mfu / S.target_mfu, 'pct')} as long, and the "
                   f"all-reduce is only {fmt(S.allreduce_share, 'pct')} of it.",
              "MFU rises as the step shrinks, and {need} of the old step is the whole all-reduce gone: compression "
              "approaches it only as k grows without end ({k_deep} gives {mfu_k_deep})."),
        Claim("B", "Encoding and decoding the gradients add time to every step, and more as k grows.",
              "This lab's model charges no encoding time (a real codec would make things worse, not better): even "
              "an instant all-reduce leaves the step at {need} of its old length, exactly the target, never "
              "beyond it."),
        Claim("C", "Compressed gradients slow convergence, and MFU books the extra steps as lost work.",
              "MFU counts useful FLOP/s against the peak; it does not see convergence. Compression here removes "
              "time from the step, and the step still cannot shrink enough."),
        Claim("D", f"Past k = 2 the bubble's {fmt(BASE['bubble'], 'pct')} is the largest part left, and it sets "
                   "the limit.",
              "The bubble does not grow when the all-reduce shrinks; the limit is the other parts together: "
              "compute, bubble and data loading are {need} of the old step."),
    ),
    answer_letter="A",
)


def over_budget_text(p: Plan) -> str:
    """The way back inside the budget, offering only moves that clear it from this plan."""
    costly = max(p.costs, key=p.costs.get)
    head = (f"The plan needs {plural(p.weeks, 'engineer-week')}; the quarter has {fmt(S.budget_weeks, 'num')}. "
            f"The largest item is the {FIX_LABELS[costly]}, {plural(p.costs[costly], 'engineer-week')}.")
    if p.fixes == 1:
        return head + f" Scale the {FIX_LABELS[costly]} back to a setting the budget pays for."
    droppable = [q for q in p.alone() if p.weeks - q.weeks <= S.budget_weeks]
    if not droppable:
        return head + " Dropping any one fix still leaves the plan over budget: drop one and scale another back."
    weakest = min(droppable, key=lambda q: q.roi)
    return head + (f" Drop {describe(weakest)} ({fmt(weakest.roi, 'pp')} per week alone), or scale the levers "
                   "back until the weeks fit.")


def act2_instruments(s: State) -> list:
    p = plan(s)
    best = best_single_fix(s["context"] == "fresh")
    weeks_tone = "danger" if p.weeks > S.budget_weeks else None
    parts = [metric_grid(
        M["a2_mfu"].show(p.mfu, "good" if p.meets_target() else None, f"was {fmt(S.mfu, 'pct')}"),
        M["a2_tflops"].show(p.mfu * C.H100_PEAK_BF16_DENSE, note=f"of {fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')} dense"),
        M["a2_gain"].show(p.mfu - S.mfu),
        M["a2_weeks"].show(p.weeks, weeks_tone, f"budget {fmt(S.budget_weeks, 'num')}"),
        M["a2_roi"].show(p.roi if p.weeks else math.inf),  # 0/0 with no fix: say so, not "0 pp" (class 51)
        M["a2_bubble"].show(p.shares()["bubble"], note=f"v·m = {p.v * p.m}"),
        M["a2_fixes"].show(p.fixes, "danger" if p.fixes > S.max_fixes else None, f"at most {S.max_fixes}"),
        M["a2_best_single"].show(best.mfu, note=describe(best)),
    )]
    if p.weeks > S.budget_weeks:
        parts.append(failure(F["a2_over_budget"], over_budget_text(p)))
    parts.append(target_callout(p, s["context"] == "fresh", reveal=s.locked(ACT2_REFLECTION.id)))
    parts += [act2_profile_chart(p), act2_roi_chart(p, s["context"] == "fresh")]
    return parts


def target_callout(p: Plan, fresh: bool, reveal: bool):
    """How far the plan is from the target; the cheapest plan is named only once the act's last
    question is locked, so the callout does not hand over the design the student is to find."""
    goal, cheap = fmt(S.target_mfu, "pct"), cheapest_target_plan(fresh)
    if p.meets_target():
        return callout("success", "Target met", prose(
            f"**{fmt(p.mfu, 'pct')}** MFU with {plural(p.fixes, 'fix', 'fixes')} in "
            f"{plural(p.weeks, 'engineer-week')}. The cheapest plan that reaches {goal} costs "
            f"{plural(cheap.weeks, 'engineer-week')}."))
    if p.mfu > S.target_mfu or math.isclose(p.mfu, S.target_mfu):
        if p.fixes <= S.max_fixes:
            return None  # only the budget is broken, and the failure callout says so
        drops = " or the ".join(FIX_LABELS[x] for x in drops_that_keep_the_target(p, fresh))
        return callout("warn", f"{goal} reached, with too many projects", prose(
            f"{fmt(p.mfu, 'pct')} MFU needs {p.fixes} fixes; the team can run {S.max_fixes}. Drop the {drops} "
            f"and take the others further: {plural(S.max_fixes, 'fix', 'fixes')} can still reach {goal} inside "
            "the budget."))
    if not reveal:
        return callout("info", f"Short of {goal}", prose(
            f"{fmt(S.target_mfu - p.mfu, 'pp')} to go, with at most {plural(S.max_fixes, 'fix', 'fixes')} and "
            f"{plural(S.budget_weeks, 'engineer-week')}. Which levers, and how far?"))
    return callout("info", f"Short of {goal}", prose(
        f"{fmt(S.target_mfu - p.mfu, 'pp')} to go. The cheapest plan that gets there: {describe(cheap)}, "
        f"{fmt(cheap.mfu, 'pct')} for {plural(cheap.weeks, 'engineer-week')}."))


def act2_math(s: State):
    p = plan(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\frac{t_{\text{bubble}}}{t_{\text{step}}} = c\cdot\frac{p-1}{v\,m}",
                 "Pipeline bubble as a share of the step: *c* is the compute share, *p* the stages, *m* the "
                 "micro-batches per step, *v* the virtual stages per GPU of the interleaved schedule."),
        Equation(r"\frac{t_{\text{all-reduce}}}{\text{sample}} \propto \frac{1}{k}\cdot\frac{m_0}{m}",
                 f"The gradient all-reduce runs once per step, after the last micro-batch; with *m* micro-batches "
                 f"of a fixed size instead of *m*₀ = {S.microbatches}, one all-reduce serves *m*/*m*₀ times the "
                 "samples (a larger global batch: gradient accumulation)."),
        Equation(r"S = \frac{1}{\sum_i f_i / k_i},\qquad \text{MFU}' = \text{MFU}\cdot S",
                 "Amdahl per part, time per sample of work. The useful FLOPs per sample stay the same, so MFU "
                 "rises with the speed-up."),
        Equation(r"\text{MFU} = \frac{\text{tokens/s}\cdot 6N}{n_{\text{GPU}}\cdot C_{\text{dense}}}",
                 "Model FLOP utilisation counts useful FLOPs against the dense BF16 peak."),
        Equation(r"\text{ROI} = \frac{\Delta\,\text{MFU}}{\text{engineer-weeks}}",
                 "Return per week; the weeks come from the lab's cost model (assumptions, not measurements)."),
    ), rows=(
        ("Bubble, *c(p − 1)/(vm)*", f"{fmt(S.compute_share, 'pct')} × {S.pp - 1}/({p.v}·{p.m}) = "
                                    f"{fmt(p.shares()['bubble'], 'pct')}"),
        (f"All-reduce ÷ (*k*·*m*/{S.microbatches})", fmt(p.shares()["allreduce"], "pct")),
        (f"Data loading ÷ √(w/{S.prefetch_workers})", fmt(p.shares()["data"], "pct")),
        ("Speed-up, *S*", fmt(p.speedup, "x")),
        ("MFU", f"{fmt(p.mfu, 'pct')} = {fmt(p.mfu * C.H100_PEAK_BF16_DENSE, 'FLOP/s')} per GPU"),
        ("Cost", " + ".join(f"{fmt(w, 'num')}" for w in p.costs.values()) + f" = {fmt(p.weeks, 'num')} wk"),
        ("Return", f"{fmt(p.roi, 'pp')} per week"),
    ), sources=(
        cite("narayanan2021", "Sec. 2.2: bubble (p − 1)/m; interleaving divides it by v"),
        cite("megatron_schedules", "the interleaved schedule runs when p ≤ N ≤ m and m mod N is 0 or at "
                                   "least p, for a micro-batch group N (default p); v divides each stage's layers"),
        C.REGISTRY["LLAMA3_70B_LAYERS"].source + ".",
        cite("palm2022", "App. B, model FLOP utilisation"),
        "PyTorch DistributedDataParallel `no_sync` (pytorch/pytorch#21736): gradients accumulate over micro-batches "
        "and are all-reduced once per step. Megatron Core's `distributed` package likewise all-reduces (or "
        "reduce-scatters) the data-parallel gradients once, before the optimizer step "
        "(docs.nvidia.com/megatron-core/developer-guide/latest/api-guide/distributed.html).",
        cite("mccandlish2018", "past the critical batch size a larger batch buys little more progress per step"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        "Cost model, √workers loader scaling and the profile: pedagogical estimates of this lab, not sourced facts.",
    ))


ACT2 = Act(
    number=2, title="Distributed Performance Analysis", minutes="20–25 min",
    stakeholder_role="Production ML Lead, Foundation Models",
    stakeholder=lambda: (
        f"Our {S.gpus}-GPU H100 cluster trains a {S.params_billions:.0f}B model at {fmt(S.mfu, 'pct')} MFU: "
        f"{fmt(S.mfu * C.H100_PEAK_BF16_DENSE, 'FLOP/s')} of useful work per GPU. The Nsight trace says compute "
        f"{fmt(S.compute_share, 'pct')}, exposed all-reduce {fmt(S.allreduce_share, 'pct')}, pipeline bubble "
        f"{fmt(BASE['bubble'], 'pct')}, data loading {fmt(S.data_share, 'pct')}. Leadership wants "
        f"{fmt(S.target_mfu, 'pct')}. I have {S.budget_weeks:.0f} engineer-weeks this quarter and people for "
        f"{S.max_fixes} projects. Where do I start, and can we get there?"),
    scenario=lambda: (
        f"The run uses {S.pp} pipeline stages ({PER_STAGE} of the model's {LAYERS} layers each) and "
        f"{S.microbatches} micro-batches per step. Megatron's 1F1B "
        f"schedule idles each stage for (p − 1)/m = {fmt(pipeline.bubble_over_ideal(S.pp, S.microbatches), 'pct')} "
        f"of its compute time, which is the trace's {fmt(BASE['bubble'], 'pct')} of the step.",
        f"MFU counts useful FLOPs against the dense peak, {fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')}. Compute takes "
        f"{fmt(S.compute_share, 'pct')} of the step at {fmt(S.mfu, 'pct')} MFU, so the compute phases run at "
        f"{fmt(S.mfu / S.compute_share, 'pct')} of peak: that is the MFU left if everything else vanished.",
        "**The cost model is an estimate of this lab, not a measured fact.** In engineer-weeks: interleaving "
        f"{fmt(S.interleave_weeks, 'num')} for v = {HALF_BUBBLE.v} and {fmt(S.interleave_step_weeks, 'num')} per further "
        f"virtual stage; more micro-batches of the same size (next run only, up to {S.microbatch_factor_max}× "
        f"[assumed]) {fmt(S.microbatch_weeks, 'num')} plus {fmt(S.microbatch_doubling_weeks, 'num')} per doubling, "
        "for re-tuning the learning rate of the larger global batch; gradient "
        f"compression {fmt(S.compression_weeks, 'num')} plus {fmt(S.compression_step_weeks, 'num')} per unit of "
        f"ratio; prefetching {fmt(S.prefetch_weeks, 'num')} plus {fmt(S.prefetch_worker_weeks, 'num')} per worker "
        f"beyond {S.prefetch_workers}, with loader throughput growing as √workers. Your team's numbers will "
        "differ; the method does not.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_V, A2_M, A2_K, A2_W),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Distributed performance optimiser",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    return frozenset({"a2_over_budget"} if plan(s).weeks > S.budget_weeks else set())


def results(s: State) -> dict[str, float]:
    part, k = s["a1_target"], s["a1_k"]
    p = plan(s)
    return {"a1_target_share": A1_SHARES[part], "a1_gain": gain(part, k),
            "a1_bottleneck_share": A1_SHARES[HOTSPOT], "a1_bottleneck_gain": gain(HOTSPOT, k),
            "a1_on_bottleneck": float(part == HOTSPOT),
            "a2_mfu": p.mfu, "a2_weeks": p.weeks, "a2_roi": p.roi, "a2_fixes": float(p.fixes),
            "a2_target_met": float(p.meets_target())}


def lab_takeaways(context: str) -> list[str]:
    cheap, best = cheapest_target_plan(context == "fresh"), best_single_fix(context == "fresh")
    return [
        f"Profile first. A {fmt(K0, 'x')} kernel on {fmt(A1_SHARES['attention'], 'pct')} of the step buys "
        f"{fmt(gain('attention', K0), 'pct')}; the same {fmt(K0, 'x')} on the {fmt(A1_SHARES[HOTSPOT], 'pct')} "
        f"all-reduce buys {fmt(act1_truth(), 'pct')}, {fmt(act1_truth() / gain('attention', K0), 'x')} the impact.",
        f"Time saved is not throughput gained: {fmt(TIME_CUT, 'pct')} less time is "
        f"{fmt(gain('attention', K0), 'pct')} more throughput.",
        f"The ceiling is 1/(1 − f): no attention kernel, however fast, gives more than "
        f"{fmt(ceiling_gain('attention'), 'pct')}, and no compression alone lifts MFU to "
        f"{fmt(S.mfu / (1 - S.allreduce_share), 'pct')}.",
        f"A Megatron-consistent bubble of {fmt(BASE['bubble'], 'pct')} of the step needs "
        f"(p − 1)/m = {S.pp - 1}/{S.microbatches} at {fmt(S.compute_share, 'pct')} compute. Interleaving halves it "
        f"for {plural(HALF_BUBBLE.weeks, 'engineer-week')}: {fmt(HALF_BUBBLE.roi, 'pp')} per week, against "
        f"{fmt(HALF_ALLREDUCE.roi, 'pp')} for halving the all-reduce.",
        (f"In the next run one fix reaches {fmt(S.target_mfu, 'pct')}: {describe(cheap)}, for "
         f"{plural(cheap.weeks, 'engineer-week')}, as one all-reduce per step serves a larger global batch. MFU counts "
         "FLOPs, not progress: past the critical batch size a larger batch needs more tokens for the same loss "
         "(McCandlish et al. 2018)." if context == "fresh" else
         f"In a run in flight the best single fix reaches {fmt(best.mfu, 'pct')}; {fmt(S.target_mfu, 'pct')} "
         f"takes two: {describe(cheap)}, {fmt(cheap.weeks, 'num')} of the {fmt(S.budget_weeks, 'num')} "
         "engineer-weeks (under this lab's cost model)."),
    ]


LAB = Lab(
    record_metrics=(
        MetricSpec("a1_target_share", "Share of the step the team's target takes", "1", "pct"),
        MetricSpec("a1_bottleneck_share", "Share of the step the bottleneck takes", "1", "pct"),
        MetricSpec("a1_bottleneck_gain", "Throughput gain from the same fix on the bottleneck", "1", "pct"),
        MetricSpec("a1_on_bottleneck", "Fix aimed at the bottleneck", "1", "yesno"),
        MetricSpec("a2_target_met", "Plan reaches the MFU target", "1", "yesno"),
    ),
    id="v2_09", volume=2, number=9, title="You Can't Optimize What You Can't Measure",
    invariant="A part that takes a fraction **f** of the step can speed the whole up by at most **1/(1 − f)**; "
              "measure the shares first, then buy the fix with the most gain per week.",
    minutes="35–40 min", chapter="Performance Engineering", url="vol2/09-measure-first/",
    description="Amdahl's law as a profiling discipline, from one kernel to a 512-GPU run, with a cost model for "
                "every fix.",
    afterword="The engineering costs in Act II come from a simple cost model stated in the lab's scenario. They are\n"
              "teaching estimates, not measurements of any team or product: change them for your own team, and the\n"
              "method (profile, compute the gain of each fix, divide by its cost) stays the same.",
    reading=(
        "**Amdahl's law**: the speed-up of a whole from the speed-up of a part, and its ceiling.",
        "**Profiling distributed training**: where a step's time goes (compute, collectives, bubbles, input).",
        "**Pipeline schedules**: 1F1B, the bubble (p − 1)/m, and interleaved stages.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "[**V2-02 The Interconnect Wall**](../02-interconnect-wall/): why the all-reduce takes so large a share across nodes.",
        "[**V2-05 The Parallelism Paradox**](../05-parallelism-paradox/): where the pipeline bubble comes from, and what tensor and pipeline "
        "parallelism cost.",
        "V2-08 The Utilization Trap (a later lab): MFU, and why busy GPUs are not the same as useful FLOPs.",
        "V2-10 The KV-Cache Memory Wall (a later lab): the same measure-first method applied to serving.",
    ),
    presets={"context": {"locked": {"a2_m": S.microbatches}}},
    terms=terms,
    hook=f"A {fmt(K0, 'x')} faster attention kernel made the training step only {fmt(TIME_CUT, 'pct')} shorter. "
         "Where should the next weeks of engineering go, and how far can they take utilisation?",
)
