"""V2-08's charts: Act I's mean wait against utilisation, and Act II's notebook promise against pool
size with the busy share of each pool. The lab module (``v2_08``) places them on its page."""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.framework.formats import plural
from pylabs.labs.vol2.v2_08_model import (Layout, S, gpu_utilization, hours, one_slot_wait_s,
                                          smallest_notebook_pool, wait_curve_s)
from pylabs.physics import queueing as q


def on_log_chart_h(waits_s: list[float]) -> list[float | None]:
    """Waits in hours; those below the chart's floor become gaps."""
    return [hours(w) if hours(w) >= S.chart_floor_h else None for w in waits_s]


def act1_chart(c: q.Pool, before: q.Pool, promise_s: float):
    low = min(0.5, math.floor(c.rho * 20 - 1) / 20)   # keep the current point on the chart
    rhos = [low + (0.99 - low) * k / 59 for k in range(60)]
    top = max(3.0, math.log10(max(hours(c.mean_wait_s()), S.chart_floor_h)) + 0.5)
    traces = [ch.line(f"{plural(c.slots, 'slot', count_fmt='int')} (yours)", rhos,
                      on_log_chart_h(wait_curve_s(c, c.slots, rhos)), "series1"),
              ch.line("One slot (M/G/1)", rhos, on_log_chart_h(wait_curve_s(c, 1, rhos)), "muted", dash="dash"),
              ch.line("Job length", [rhos[0], rhos[-1]], [hours(c.service_s)] * 2, "warn", dash="dot"),
              ch.line(f"Promise: {fmt(promise_s, 's')}", [rhos[0], rhos[-1]], [hours(promise_s)] * 2,
                      "good", dash="dot")]
    if before.slots != c.slots:
        traces.append(ch.point("No GPUs added", before.rho, max(hours(before.mean_wait_s()), S.chart_floor_h),
                               "muted"))
    traces.append(ch.point("Your setting", c.rho, max(hours(c.mean_wait_s()), S.chart_floor_h), "accent"))
    figure = ch.figure(traces, x=ch.axis("Utilisation ρ", range=[low, 1.0], tickformat=".0%"),
                       y=ch.axis("Mean wait (hours)", "log", range=[math.log10(S.chart_floor_h), top]))
    summary = (f"With {plural(c.slots, 'slot', count_fmt='int')} the mean wait is {fmt(c.mean_wait_s(), 's')} at "
               f"ρ = {fmt(c.rho, 'pct')}; one slot running a job at a time would predict "
               f"{fmt(one_slot_wait_s(c), 's')}. Both curves bend up steeply as ρ nears 100 %.")
    table_rhos = rhos[::8]
    rows = [(fmt(r, "pct"), fmt(w, "s"), fmt(m, "s")) for r, w, m in
            zip(table_rhos, wait_curve_s(c, c.slots, table_rhos), wait_curve_s(c, 1, table_rhos))]
    return chart("a1_wait_curve", "Mean wait against utilisation", figure, summary,
                 table=(("ρ", plural(c.slots, "slot", count_fmt="int"), "One slot"), rows))


def act2_chart(lay: Layout, sizes: list[float]):
    tails = [Layout(r, 0, lay.training_gpus).interactive_late() for r in sizes]
    shape, note = ch.hline(S.interactive_max_late, "danger", f"limit {fmt(S.interactive_max_late, 'pct')}")
    figure = ch.figure(
        [ch.line("Notebooks waiting over the limit", sizes, tails, "series1", markers=True),
         ch.point("Your pool", lay.interactive_gpus, lay.interactive_late(), "accent")],
        x=ch.axis("Notebook pool (GPUs)", range=[0, sizes[-1] + sizes[0]]),
        y=ch.axis("Share of notebooks", "linear", tickformat=".0%", range=[0, 1.0]),
        shapes=[shape], annotations=[note])
    smallest = smallest_notebook_pool()
    summary = (f"The share of notebooks that wait over {fmt(S.interactive_wait_s, 's')} falls steeply with pool "
               f"size; {fmt(smallest, 'int')} GPUs is the smallest pool under the "
               f"{fmt(S.interactive_max_late, 'pct')} limit. Yours: {fmt(lay.interactive_gpus, 'int')} GPUs, "
               f"{fmt(lay.interactive_late(), 'pct')}.")
    rows = [(fmt(r, "int"), fmt(t, "pct")) for r, t in zip(sizes[:12], tails[:12])]
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
    return chart("a2_busy", "How busy each pool is", figure, summary,
                 table=(("Pool", "Busy"), [(n, fmt(b, "pct")) for n, b in zip(names, busy)]))
