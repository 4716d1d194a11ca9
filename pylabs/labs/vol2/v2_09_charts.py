"""The charts of V2-09 (You Can't Optimize What You Can't Measure): the step before and after a change,
the gain against the speed-up factor (Act I), and MFU against engineering weeks (Act II). Each takes
the numbers it draws and returns a chart component with its summary and data table."""

from __future__ import annotations

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_09_model import (A1_SHARES, BASE, HALF_ALLREDUCE, HALF_BUBBLE, HOTSPOT, K_GRID, M_GRID,
                                         PARTS, V_OPTIONS, W_GRID, Plan, S, ceiling_gain, combination_path, gain)
from pylabs.physics import amdahl

A1_LABELS = {"attention": "Attention kernel", "allreduce": "Gradient all-reduce", "optimizer": "Optimizer step",
             "data": "Data loading", "launch": "Kernel launch and sync"}
A1_COLORS = {"attention": "series1", "allreduce": "series2", "optimizer": "series3", "data": "accent",
             "launch": "muted"}  # series4 equals series1 in the dark palette, so it is not used

PART_LABELS = {"compute": "Compute", "allreduce": "All-reduce", "bubble": "Pipeline bubble", "data": "Data loading"}
PART_COLORS = {"compute": "series1", "allreduce": "series2", "bubble": "danger", "data": "series3"}



def step_chart(name: str, title: str, after: str, parts: dict[str, tuple[str, float, float]], summary: str,
               axis: str = "Share of the old step time"):
    """Stacked bars of the step before and after, each part as a share of the old step time."""
    rows = ["Before", after]
    traces = [ch.bars(label, rows, [old, new], color, text=[fmt(old, "pct"), fmt(new, "pct")], horizontal=True)
              for label, (color, old, new) in parts.items()]
    figure = ch.figure(traces, x=ch.axis(axis, tickformat=".0%"),
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


def act2_profile_chart(p: Plan):
    base, new = BASE, p.shares()
    parts = {PART_LABELS[x]: (PART_COLORS[x], base[x], new[x]) for x in PARTS}
    summary = (f"The time per sample shrinks to {fmt(1 / p.speedup, 'pct')} of the old step's; compute keeps its "
               f"{fmt(base['compute'], 'pct')}, so MFU rises from {fmt(S.mfu, 'pct')} to {fmt(p.mfu, 'pct')}."
               if p.weeks > 0 else
               f"No lever is moved yet: the step is as profiled, and MFU stays at {fmt(S.mfu, 'pct')}.")
    return step_chart("a2_profile", "The step before and after your plan, per sample of work", "After", parts,
                      summary, "Time per sample (old step = 100 %)")


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
    # at the right end, above the line: the micro-batch path climbs through the target near the left
    top = max([q.mfu for path in lever_paths(fresh).values() for q in path] + [p.mfu, S.target_mfu]) + 0.02
    figure = ch.figure(traces, x=ch.axis("Engineer-weeks", range=[0, max(S.budget_weeks + 2, p.weeks + 1)]),
                       y=ch.axis("MFU", tickformat=".0%", range=[S.mfu - 0.02, top]), shapes=[budget, target],
                       annotations=[budget_note, target_note])
    summary = (f"Steeper is better value: halving the bubble returns {fmt(HALF_BUBBLE.roi, 'pp')} per week, "
               f"halving the all-reduce {fmt(HALF_ALLREDUCE.roi, 'pp')}. "
               + (f"Your plan reaches {fmt(p.mfu, 'pct')} for {plural(p.weeks, 'engineer-week')}." if p.weeks > 0
                  else "Move a lever to place your plan."))
    rows = [(name, f"{fmt(q.weeks, 'num')} wk", fmt(q.mfu, "pct"), fmt(q.roi, "pp"))
            for name, path in lever_paths(fresh).items() for q in path[1:]]
    return chart("a2_mfu_vs_weeks", "MFU against engineering weeks", figure, summary,
                 table=(("Lever", "Cost", "MFU", "Per week"), rows))
