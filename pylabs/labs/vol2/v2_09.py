"""Lab V2-09 · You Can't Optimize What You Can't Measure.

Core invariant: a speed-up k on a part that takes a fraction f of the step
gives 1 / ((1 − f) + f/k) end to end, and never more than 1 / (1 − f); the
part to work on is the one the profile shows is largest, and the fix to buy
first is the one with the most gain per engineer-week.

Act I (the profiling revelation): a 3× attention kernel on 12 % of the step
buys +8.7 % throughput; the same 3× on the 45 % all-reduce buys +42.9 %.
Act II (the distributed optimiser): a 512-GPU run at 35 % MFU with a
Megatron-consistent bubble (PP = 8, m = 21); four levers, one cost model,
an 8-week budget and a 50 % MFU target that no single fix reaches (the best,
searched at any setting, is the compression the budget can pay for). The
interleaving lever offers only schedules Megatron-LM runs: v divides each
stage's 10 layers, and m = 21 needs micro-batch groups of 11 (schedules.py).

Ledger fields: context, both predictions and reflections, the final lever
settings, the Act I gain and the bottleneck's share, the Act II MFU, cost,
return per week and number of fixes, failure states reached.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Choice, Claim, Equation, FailureSpec, Lab, MetricSpec, Option,
                              Prediction, Range, Reflection, Slider, State, callout, chart, failure,
                              fmt, math_peek, metric_grid, prose)
from pylabs.framework.formats import plural
from pylabs.framework import charts as ch
from pylabs.labs.vol2.v2_09_model import (A1_SHARES, AR_LEFT, BASE, BEST, GROUP, HALF_ALLREDUCE, HALF_BUBBLE,
                                         HOTSPOT, K0, K_GRID, LAYERS, M_GRID, OTHERS, PARTS, PER_STAGE, TIME_CUT,
                                         V_OPTIONS, W_GRID, Plan, S, act1_truth, act2_truth, ceiling_gain,
                                         cheapest_target_plan, combination_path, gain, lever_weeks)
from pylabs.physics import amdahl, pipeline
from pylabs.physics import constants as C
from pylabs.physics.references import cite


A1_LABELS = {"attention": "Attention kernel", "allreduce": "Gradient all-reduce", "optimizer": "Optimizer step",
             "data": "Data loading", "launch": "Kernel launch and sync"}
A1_COLORS = {"attention": "series1", "allreduce": "series2", "optimizer": "series3", "data": "accent",
             "launch": "muted"}  # series4 equals series1 in the dark palette, so it is not used

# ---- context ----------------------------------------------------------------------

CONTEXT = Choice("context", "Global batch", (
    Option("locked", "Run in flight: the global batch is locked"),
    Option("fresh", "New run: the global batch may grow"),
), default="locked", help="A locked batch leaves interleaving as the only pipeline lever in Act II; a new run "
                         "may also add micro-batches, at the price of re-tuning the learning rate.")

# ---- Act I · The profiling revelation ------------------------------------------------


def share_text(part: str) -> str:
    return f"{A1_LABELS[part].lower()} ({fmt(A1_SHARES[part], 'pct')})"


A1_TARGET = Choice("a1_target", "Part of the step to speed up",
                   tuple(Option(p, f"{A1_LABELS[p]} · {fmt(A1_SHARES[p], 'pct')}") for p in A1_SHARES),
                   default="attention", widget="select", unit="share of step time")
A1_K = Slider("a1_k", "Speed-up of that part, k", unit="1", min=1.5, max=10, step=0.5, default=S.kernel_speedup,
              fmt="x")

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Suppose the same {S.kernel_weeks:.0f} weeks had gone into the gradient all-reduce "
           f"({fmt(A1_SHARES['allreduce'], 'pct')} of the step) and made it {fmt(K0, 'x')} faster, the same "
           "factor as the kernel. By how much would training throughput have risen?",
    quantity=f"Throughput gain from a {fmt(K0, 'x')} faster all-reduce",
    unit_fmt="pct",
    options=(
        Range("A", f"{{range}}: about what the kernel gave; a {fmt(K0, 'x')} part is a {fmt(K0, 'x')} part",
              None, 0.15, 0.10,
              f"What matters is the share of the step the part holds: the all-reduce holds "
              f"{fmt(A1_SHARES['allreduce'], 'pct')}, attention only {fmt(A1_SHARES['attention'], 'pct')}."),
        Range("B", "{range}: a few times the kernel's gain", 0.15, 0.30, 0.22,
              f"The gain grows faster than the share: cutting {fmt(1 - 1 / K0, 'pct')} of the "
              f"{fmt(A1_SHARES['allreduce'], 'pct')} it takes leaves {fmt(AR_LEFT, 'pct')} of the step, so "
              "throughput rises by the inverse of that."),
        Range("C", f"{{range}}: a large share sped up, still far from {fmt(K0, 'x')}", 0.30, 0.60, 0.45,
              f"Amdahl gives {fmt(act1_truth(), 'pct')}: {fmt(act1_truth() / gain('attention', K0), 'x')} the "
              "kernel's gain for the same factor, because the profile's largest part was the all-reduce."),
        Range("D", f"{{range}}: most of the {fmt(K0, 'x')} shows up end to end", 0.60, None, 1.0,
              f"The other {fmt(1 - A1_SHARES['allreduce'], 'pct')} of the step does not move: even an instant "
              f"all-reduce caps the gain at {fmt(ceiling_gain('allreduce'), 'pct')}."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt=f"The kernel cut the step time by exactly {fmt(TIME_CUT, 'pct')}, yet throughput rose by "
           f"{fmt(gain('attention', K0), 'pct')}. Why do the two numbers differ?",
    options=(
        Claim("A", f"Profiling noise: the measured {fmt(TIME_CUT, 'pct')} sits within error of the predicted "
                   f"{fmt(gain('attention', K0), 'pct')}.",
              "Nothing here is noisy: both numbers follow exactly from f = {f_att} and k = {k0}."),
        Claim("B", f"Throughput is work per unit time: the step now takes {fmt(1 - TIME_CUT, 'pct')} of its old "
                   f"time, so throughput rises by 1/{fmt(1 - TIME_CUT, 'num')} − 1.",
              "Time saved is f(1 − 1/k) = **{time_cut}**; the step takes {time_left} of its old time, so "
              "throughput rises by **{gain_att}**. A saving of s always buys s/(1 − s) more throughput."),
        Claim("C", f"The kernel is {fmt(K0, 'x')} faster only in isolation; inside the full step it runs slower.",
              "Amdahl's law with the full k = {k0} reproduces the {time_cut} exactly: the kernel kept its speed-up."),
        Claim("D", "Amdahl's law is an upper bound that real systems never reach.",
              "Here it is not a bound but the exact accounting of a step whose other parts did not change."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_share", "Share of the step it takes", "1", "pct"),
    MetricSpec("a1_time_saved", "Step time saved", "1", "pct"),
    MetricSpec("a1_gain", "Throughput gain", "1", "pct"),
    MetricSpec("a1_ceiling", "Ceiling as k → ∞", "1", "pct"),
    MetricSpec("a1_hotspot_gain", "Same k on the largest part", "1", "pct"),
    MetricSpec("a1_impact", "Largest part's gain ÷ this gain", "1", "x"),
    MetricSpec("a2_mfu", "Model FLOP utilisation", "1", "pct"),
    MetricSpec("a2_tflops", "Useful FLOP/s per GPU", "FLOP/s", "FLOP/s"),
    MetricSpec("a2_gain", "MFU gained", "1", "pp"),
    MetricSpec("a2_weeks", "Engineering cost (engineer-weeks)", "week", "num"),
    MetricSpec("a2_roi", "MFU gained per engineer-week", "1/week", "pp"),
    MetricSpec("a2_bubble", "Pipeline bubble, share of the old step", "1", "pct"),
    MetricSpec("a2_fixes", "Fixes in the plan", "fixes", "int"),
)}

FAILURES = (FailureSpec("a2_over_budget", "Budget exceeded: the plan needs more engineer-weeks than the quarter has",
                        act=2),)
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


def step_chart(name: str, title: str, after: str, parts: dict[str, tuple[str, float, float]], summary: str):
    """Stacked bars of the step before and after, each part as a share of the old step time."""
    rows = ["Before", after]
    traces = [ch.bars(label, rows, [old, new], color, text=[fmt(old, "pct"), fmt(new, "pct")], horizontal=True)
              for label, (color, old, new) in parts.items()]
    figure = ch.figure(traces, x=ch.axis("Share of the old step time", tickformat=".0%"),
                       y=ch.axis("", "category", autorange="reversed"), stacked=True)
    table = [(label, fmt(old, "pct"), fmt(new, "pct")) for label, (_, old, new) in parts.items()]
    return chart(name, title, figure, summary, table=(("Part", "Before", "After"), table))


def act1_profile_chart(part: str, k: float):
    parts = {A1_LABELS[p]: (A1_COLORS[p], f, f / k if p == part else f) for p, f in A1_SHARES.items()}
    left = 1 / amdahl.amdahl_speedup(A1_SHARES[part], k)
    summary = (f"Making the {A1_LABELS[part].lower()} {fmt(k, 'x')} faster shrinks the step to {fmt(left, 'pct')} "
               f"of its old length; the other parts keep their {fmt(1 - A1_SHARES[part], 'pct')}.")
    return step_chart("a1_profile", f"The step before and after: {A1_LABELS[part].lower()} {fmt(k, 'x')} faster",
                      "After", parts, summary)


def act1_k_chart(part: str, k: float):
    ks = [1 + i / 4 for i in range(37)]
    shown = [part] if part == HOTSPOT else [part, HOTSPOT]
    traces, shapes, notes = [], [], []
    for p in shown:
        traces.append(ch.line(A1_LABELS[p], ks, [gain(p, x) for x in ks], A1_COLORS[p]))
        shape, note = ch.hline(ceiling_gain(p), A1_COLORS[p], f"ceiling {fmt(ceiling_gain(p), 'pct')}")
        shapes.append(shape)
        notes.append(note)
    traces.append(ch.point("Your setting", k, gain(part, k), "ink"))
    figure = ch.figure(traces, x=ch.axis("Speed-up of the part, k"),
                       y=ch.axis("End-to-end throughput gain", tickformat=".0%", rangemode="tozero"),
                       shapes=shapes, annotations=notes)
    summary = (f"The gain flattens fast: at k = {fmt(ks[-1], 'x')} the {A1_LABELS[part].lower()} gives "
               f"{fmt(gain(part, ks[-1]), 'pct')}, against a ceiling of {fmt(ceiling_gain(part), 'pct')}.")
    rows = [(fmt(x, "x"), *(fmt(gain(p, x), "pct") for p in shown)) for x in ks[::4]]
    return chart("a1_speedup_vs_k", "Throughput gain against the speed-up factor", figure, summary,
                 table=(("k", *(A1_LABELS[p] for p in shown)), rows))


def act1_facts() -> dict[str, str]:
    return {"f_att": fmt(A1_SHARES["attention"], "pct"), "k0": fmt(K0, "x"), "time_cut": fmt(TIME_CUT, "pct"),
            "time_left": fmt(1 - TIME_CUT, "pct"), "gain_att": fmt(gain("attention", K0), "pct")}


def act1_math(s: State):
    part, k = s["a1_target"], s["a1_k"]
    f = A1_SHARES[part]
    return math_peek("The governing equations · Act I", (
        Equation(r"S = \frac{1}{(1-f) + f/k}",
                 "Amdahl's law: a part that takes a fraction *f* of the step becomes *k* times faster."),
        Equation(r"\frac{\Delta T}{T} = f\left(1 - \frac{1}{k}\right),\qquad S - 1 = \frac{\Delta T/T}{1 - \Delta T/T}",
                 f"Time saved and throughput gained differ: {fmt(TIME_CUT, 'pct')} less time is "
                 f"{fmt(gain('attention', K0), 'pct')} more throughput."),
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
              help=f"Divides the bubble by v; each micro-batch crosses v× more stage boundaries. Megatron-LM "
                   f"needs each stage's {PER_STAGE} layers to split into v equal chunks, and at least p = {S.pp} "
                   f"micro-batches: with m = {S.microbatches} its default groups of p leave a last group of "
                   f"{S.microbatches % S.pp}, so it runs groups of {GROUP} "
                   "(--microbatch-group-size-per-virtual-pipeline-stage).")
A2_M = Slider("a2_m", "Micro-batches per step, m", unit="micro-batches", min=S.microbatches,
              max=M_GRID[-1], step=S.microbatches, default=S.microbatches, fmt="int",
              help="New run only: in a run in flight the global batch, and so m, stays put.")
A2_K = Slider("a2_k", "Gradient compression: all-reduce ÷ k", unit="1", min=1, max=K_GRID[-1], step=S.compression_step,
              default=1, fmt="x")
A2_W = Slider("a2_workers", "Data prefetch workers per GPU", unit="workers", min=S.prefetch_workers, max=W_GRID[-1], step=1,
              default=S.prefetch_workers, fmt="int", help="Loader throughput grows as the square root of the workers.")


PART_LABELS = {"compute": "Compute", "allreduce": "All-reduce", "bubble": "Pipeline bubble", "data": "Data loading"}
PART_COLORS = {"compute": "series1", "allreduce": "series2", "bubble": "danger", "data": "series3"}


def a2_overridden(s: State) -> dict[str, str]:
    """A run in flight keeps its global batch, so the micro-batch lever does not apply."""
    if s["context"] == "fresh":
        return {}
    return {"a2_m": f"Not used: a run in flight keeps its global batch, so m stays at {S.microbatches}. "
                    "Switch the context to a new run to move it."}


def plan(s: State) -> Plan:
    m = int(s["a2_m"]) if s["context"] == "fresh" else S.microbatches
    return Plan(int(s["a2_v"]), m, s["a2_k"], int(s["a2_workers"]))


def describe(p: Plan) -> str:
    parts = [f"interleaving v = {p.v}" if p.v > 1 else "", f"{p.m} micro-batches" if p.m != S.microbatches else "",
             f"compression {fmt(p.k, 'x')}" if p.k > 1 else "", f"{p.workers} prefetch workers"
             if p.workers != S.prefetch_workers else ""]
    return " with ".join(x for x in parts if x) or "no change"


def deepest_phrase(p: Plan) -> str:
    """One lever at its deepest, for the feedback: the micro-batch count is astronomical, so say what it does."""
    if p.v > 1:
        return f"interleaving (v = {p.v}) gives"
    if p.m != S.microbatches:
        return "more micro-batches, with the bubble all but gone, give"
    if p.k > 1:
        return f"compression ({fmt(p.k, 'x')}) gives"
    return f"prefetching ({p.workers} workers) gives"


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"Leadership wants {fmt(S.target_mfu, 'pct')} MFU. Suppose the team puts the whole "
           f"{S.budget_weeks:.0f}-week budget into one fix, any lever at any setting. What is the highest MFU a "
           "single fix can reach?",
    quantity=f"Best MFU from one fix within {S.budget_weeks:.0f} engineer-weeks",
    unit_fmt="pct",
    options=(
        Range("A", "{range}: the pipeline bubble is the fix, and it is small", None, 0.40, 0.38,
              f"Interleaving is the cheapest fix, but the bubble is only {fmt(BASE['bubble'], 'pct')} "
              f"of the step. Compressing the all-reduce goes much further: {fmt(BEST.mfu, 'pct')}."),
        Range("B", "{range}: one fix buys a few points", 0.40, 0.44, 0.42,
              f"Halving the all-reduce already gives {fmt(HALF_ALLREDUCE.mfu, 'pct')}; a {fmt(BEST.k, 'x')} "
              f"compression still fits the budget and gives {fmt(BEST.mfu, 'pct')}."),
        Range("C", "{range}: close, but short of the target", 0.44, 0.50, 0.47,
              f"Compression {fmt(BEST.k, 'x')} for {plural(BEST.weeks, 'engineer-week')} gives "
              f"{fmt(BEST.mfu, 'pct')}: the all-reduce is the largest share outside compute, yet one fix stops "
              "short of the target."),
        Range("D", "{range}: one well-chosen fix is enough", 0.50, None, 0.55,
              f"The budget stops every single fix short: {plural(S.budget_weeks, 'engineer-week')} buy at most "
              f"{fmt(BEST.k, 'x')} compression, {fmt(BEST.mfu, 'pct')}; at their deepest, "
              + "; ".join(f"{deepest_phrase(q)} {fmt(q.mfu, 'pct')}" for q in OTHERS)
              + f". Compression alone would reach {fmt(S.target_mfu, 'pct')} only with the all-reduce gone "
              "entirely, which no budget buys."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    return {
        "gain_v": fmt(HALF_BUBBLE.mfu - S.mfu, "pp"), "weeks_v": fmt(HALF_BUBBLE.weeks, "num"),
        "roi_v": fmt(HALF_BUBBLE.roi, "pp"), "weeks_v_text": plural(HALF_BUBBLE.weeks, "engineer-week"), "gain_k": fmt(HALF_ALLREDUCE.mfu - S.mfu, "pp"),
        "weeks_k": fmt(HALF_ALLREDUCE.weeks, "num"), "roi_k": fmt(HALF_ALLREDUCE.roi, "pp"),
        "bubble": fmt(BASE["bubble"], "pct"), "allreduce": fmt(S.allreduce_share, "pct"),
        "m_weeks": fmt(lever_weeks("microbatches", 2 * S.microbatches), "num"),
    }


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"Halving the bubble (interleaving, v = {HALF_BUBBLE.v}) gains fewer MFU points than halving the "
           f"all-reduce (compression {fmt(HALF_ALLREDUCE.k, 'x')}), yet it returns more points per engineer-week. "
           "Why is it the first fix to buy?",
    options=(
        Claim("A", "The bubble is a hardware fault, so fixing it returns GPUs the cluster had lost.",
              "The bubble is scheduled idle time: stages wait while the pipeline fills and drains. No GPU is broken."),
        Claim("B", "The bubble is scheduled idle time: re-scheduling removes half of it for "
                   f"{plural(HALF_BUBBLE.weeks, 'engineer-week')} of work, while compression costs "
                   f"{plural(HALF_ALLREDUCE.weeks, 'engineer-week')} of integration and validation.",
              "Halving a part saves half its share, so the all-reduce ({allreduce}) gains more than the bubble "
              "({bubble}): {gain_k} against {gain_v}. But interleaving costs {weeks_v_text} and "
              "compression {weeks_k}, so the bubble returns **{roi_v}** per week and compression {roi_k}."),
        Claim("C", "Adding micro-batches is free: one line of configuration, no risk.",
              "Not free. At a fixed micro-batch size it grows the global batch, so the learning rate must be "
              "re-tuned ({m_weeks} engineer-weeks in this lab's cost model); at a fixed global batch it shrinks the "
              "micro-batches and the matrix multiplies run less efficiently. Interleaving keeps the batch and pays "
              "in v× more point-to-point messages."),
        Claim("D", "The bubble is the largest part of the step outside compute.",
              "It is not: the all-reduce takes {allreduce}, the bubble {bubble}. ROI is gain divided by cost, "
              "and here the cost decides."),
    ),
    answer_letter="B",
)


def act2_instruments(s: State) -> list:
    p = plan(s)
    weeks_tone = "danger" if p.weeks > S.budget_weeks else None
    parts = [metric_grid(
        M["a2_mfu"].show(p.mfu, "good" if p.meets_target() else None, f"was {fmt(S.mfu, 'pct')}"),
        M["a2_tflops"].show(p.mfu * C.H100_PEAK_BF16_DENSE, note=f"of {fmt(C.H100_PEAK_BF16_DENSE, 'FLOP/s')} dense"),
        M["a2_gain"].show(p.mfu - S.mfu),
        M["a2_weeks"].show(p.weeks, weeks_tone, f"budget {fmt(S.budget_weeks, 'num')}"),
        M["a2_roi"].show(p.roi),
        M["a2_bubble"].show(p.shares()["bubble"], note=f"v·m = {p.v * p.m}"),
        M["a2_fixes"].show(p.fixes, "danger" if p.fixes > S.max_fixes else None, f"at most {S.max_fixes}"),
    )]
    if p.weeks > S.budget_weeks:
        costly = max(p.costs, key=p.costs.get)
        parts.append(failure(F["a2_over_budget"],
                             f"The plan needs {plural(p.weeks, 'engineer-week')}; the quarter has "
                             f"{fmt(S.budget_weeks, 'num')}. The {PART_LABELS[costly].lower()} fix alone costs "
                             f"{fmt(p.costs[costly], 'num')}. Scale a lever back, or drop the fix with the lowest "
                             "return per week."))
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
        return callout("warn", f"{goal} reached, with too many projects", prose(
            f"{fmt(p.mfu, 'pct')} MFU needs {p.fixes} fixes; the team can run {S.max_fixes}. Drop the fix that "
            "returns least per week."))
    if not reveal:
        return callout("info", f"Short of {goal}", prose(
            f"{fmt(S.target_mfu - p.mfu, 'pp')} to go, with at most {plural(S.max_fixes, 'fix', 'fixes')} and "
            f"{plural(S.budget_weeks, 'engineer-week')}. Which levers, and how far?"))
    return callout("info", f"Short of {goal}", prose(
        f"{fmt(S.target_mfu - p.mfu, 'pp')} to go. The cheapest plan that gets there: {describe(cheap)}, "
        f"{fmt(cheap.mfu, 'pct')} for {plural(cheap.weeks, 'engineer-week')}."))


def act2_profile_chart(p: Plan):
    base, new = BASE, p.shares()
    parts = {PART_LABELS[x]: (PART_COLORS[x], base[x], new[x]) for x in PARTS}
    summary = (f"The step shrinks to {fmt(1 / p.speedup, 'pct')} of its old length; compute keeps its "
               f"{fmt(base['compute'], 'pct')}, so MFU rises from {fmt(S.mfu, 'pct')} to {fmt(p.mfu, 'pct')}."
               if p.weeks > 0 else
               f"No lever is moved yet: the step is as profiled, and MFU stays at {fmt(S.mfu, 'pct')}.")
    return step_chart("a2_profile", "The step before and after your plan", "After", parts, summary)


def lever_paths(fresh: bool) -> dict[str, list[Plan]]:
    paths = {"Interleaving, v": [Plan(v=v) for v in V_OPTIONS],
             "Compression, k": [Plan(k=k) for k in K_GRID],
             "Prefetch workers": [Plan(workers=int(w)) for w in W_GRID]}
    if fresh:
        paths["Micro-batches, m"] = [Plan(m=int(m)) for m in M_GRID]
    return paths


def act2_roi_chart(p: Plan, fresh: bool):
    colors = {"Interleaving, v": "danger", "Micro-batches, m": "muted", "Compression, k": "series2",
              "Prefetch workers": "series3"}
    traces = [ch.line(name, [q.weeks for q in path], [q.mfu for q in path], colors[name], markers=True)
              for name, path in lever_paths(fresh).items()]
    combo = combination_path(p)
    traces.append(ch.line("Your plan, fix by fix", [w for w, _ in combo], [m for _, m in combo], "accent", dash="dash"))
    traces.append(ch.point("Your plan", p.weeks, p.mfu, "accent"))
    budget, budget_note = ch.vline(S.budget_weeks, "danger", "budget")
    target, target_note = ch.hline(S.target_mfu, "good", f"target {fmt(S.target_mfu, 'pct')}")
    target_note.update(x=0, xanchor="left")  # clear of the budget line on narrow screens
    figure = ch.figure(traces, x=ch.axis("Engineer-weeks", range=[0, max(S.budget_weeks + 2, p.weeks + 1)]),
                       y=ch.axis("MFU", tickformat=".0%"), shapes=[budget, target],
                       annotations=[budget_note, target_note])
    summary = (f"Steeper is better value: halving the bubble returns {fmt(HALF_BUBBLE.roi, 'pp')} per week, "
               f"halving the all-reduce {fmt(HALF_ALLREDUCE.roi, 'pp')}. "
               + (f"Your plan reaches {fmt(p.mfu, 'pct')} for {plural(p.weeks, 'engineer-week')}." if p.weeks > 0
                  else "Move a lever to place your plan."))
    rows = [(name, f"{fmt(q.weeks, 'num')} wk", fmt(q.mfu, "pct"), fmt(q.roi, "pp"))
            for name, path in lever_paths(fresh).items() for q in path[1:]]
    return chart("a2_mfu_vs_weeks", "MFU against engineering weeks", figure, summary,
                 table=(("Lever", "Cost", "MFU", "Per week"), rows))


def act2_math(s: State):
    p = plan(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"\frac{t_{\text{bubble}}}{t_{\text{step}}} = c\cdot\frac{p-1}{v\,m}",
                 "Pipeline bubble as a share of the step: *c* is the compute share, *p* the stages, *m* the "
                 "micro-batches per step, *v* the virtual stages per GPU of the interleaved schedule."),
        Equation(r"S = \frac{1}{\sum_i f_i / k_i},\qquad \text{MFU}' = \text{MFU}\cdot S",
                 "Amdahl per part of the step. The useful FLOPs stay the same, so MFU rises with the speed-up."),
        Equation(r"\text{MFU} = \frac{\text{tokens/s}\cdot 6N}{n_{\text{GPU}}\cdot C_{\text{dense}}}",
                 "Model FLOP utilisation counts useful FLOPs against the dense BF16 peak."),
        Equation(r"\text{ROI} = \frac{\Delta\,\text{MFU}}{\text{engineer-weeks}}",
                 "Return per week; the weeks come from the lab's cost model (assumptions, not measurements)."),
    ), rows=(
        ("Bubble, *c(p − 1)/(vm)*", f"{fmt(S.compute_share, 'pct')} × {S.pp - 1}/({p.v}·{p.m}) = "
                                    f"{fmt(p.shares()['bubble'], 'pct')}"),
        ("All-reduce ÷ *k*", fmt(p.shares()["allreduce"], "pct")),
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
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source,
        "Cost model, √workers loader scaling and the profile: pedagogical estimates of this lab, not sourced facts.",
    ))


ACT2 = Act(
    number=2, title="Distributed Performance Analysis", minutes="20–25 min",
    stakeholder_role="Production ML Lead, Foundation Models",
    stakeholder=lambda: (
        f"Our {S.gpus}-GPU H100 cluster trains a {S.params_billions:.0f}B model at {fmt(S.mfu, 'pct')} MFU: "
        f"{fmt(S.mfu * C.H100_PEAK_BF16_DENSE, 'FLOP/s')} of useful work per GPU. The Nsight trace says compute "
        f"{fmt(S.compute_share, 'pct')}, all-reduce {fmt(S.allreduce_share, 'pct')}, pipeline bubble "
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
        f"virtual stage; more micro-batches (new run only) {fmt(S.microbatch_weeks, 'num')} plus "
        f"{fmt(S.microbatch_doubling_weeks, 'num')} per doubling, for re-tuning the learning rate; gradient "
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


def lab_takeaways() -> list[str]:
    cheap = cheapest_target_plan(False)
    return [
        f"Profile first. A {fmt(K0, 'x')} kernel on {fmt(A1_SHARES['attention'], 'pct')} of the step buys "
        f"{fmt(gain('attention', K0), 'pct')}; the same {fmt(K0, 'x')} on the {fmt(A1_SHARES[HOTSPOT], 'pct')} "
        f"all-reduce buys {fmt(act1_truth(), 'pct')}, {fmt(act1_truth() / gain('attention', K0), 'x')} the impact.",
        f"Time saved is not throughput gained: {fmt(TIME_CUT, 'pct')} less time is "
        f"{fmt(gain('attention', K0), 'pct')} more throughput.",
        f"The ceiling is 1/(1 − f): no attention kernel, however fast, gives more than "
        f"{fmt(ceiling_gain('attention'), 'pct')}.",
        f"A Megatron-consistent bubble of {fmt(BASE['bubble'], 'pct')} of the step needs "
        f"(p − 1)/m = {S.pp - 1}/{S.microbatches} at {fmt(S.compute_share, 'pct')} compute. Interleaving halves it "
        f"for {plural(HALF_BUBBLE.weeks, 'engineer-week')}: {fmt(HALF_BUBBLE.roi, 'pp')} per week, against "
        f"{fmt(HALF_ALLREDUCE.roi, 'pp')} for halving the all-reduce.",
        f"The best single fix reaches {fmt(BEST.mfu, 'pct')}; {fmt(S.target_mfu, 'pct')} takes two: "
        f"{describe(cheap)}, {fmt(cheap.weeks, 'num')} of the "
        f"{fmt(S.budget_weeks, 'num')} engineer-weeks (under this lab's cost model).",
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
)
