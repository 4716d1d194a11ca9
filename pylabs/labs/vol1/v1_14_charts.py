"""V1-14's three charts: the drift monitor's PSI at each check with the accuracy beside it, the
yearly cost against the retraining interval, and the three products' cadences at the scenario's
inputs. The lab module (``v1_14``) places them; the model (``v1_14_model``) computes their numbers."""

from __future__ import annotations

import math
from functools import lru_cache

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_14_model import DAY, PRODUCTS, WEEK, Product, S, accuracy_at, cost_curve, scenario_product
from pylabs.physics import drift as D

PRODUCT_NAMES = {"cloud": "cloud API", "edge": "edge fleet", "mobile": "mobile app"}
GRID = [k / 2 for k in range(1, int(2 * S.complaint_weeks) + 1)]  # half-weeks: smooth on the log axis
ACCURACY = [accuracy_at(w * WEEK) for w in GRID]  # the measured decline: the same on every move
DAY_TICKS = {"tickvals": [d for d, _ in S.day_ticks], "ticktext": [t for _, t in S.day_ticks]}


def psi_text(value: float) -> str:
    """A PSI for the table: below the chart's floor it reads "< 0.001", not thirty zeros."""
    return f"< {fmt(S.psi_floor, 'num')}" if value < S.psi_floor else fmt(value, "num")


def act1_chart(mon, det: D.Detection):
    """Population and sampled PSI at each check of ``mon`` (a ``Monitor``), and the accuracy."""
    grid = GRID
    population = [max(D.binned_psi(mon.drift_per_week * w, S.bins), S.psi_floor) for w in grid]
    weeks = [t / WEEK for t, _ in det.checks]
    sampled = [max(p, S.psi_floor) for _, p in det.checks]
    shape, note = ch.hline(mon.threshold, "danger", f"alarm {fmt(mon.threshold, 'num')}", log=True)
    traces = [ch.line("Population PSI", grid, population, "series1"),
              ch.scatter("Sampled PSI at each check", weeks, sampled, "series2", size=7),
              ch.on_right(ch.line("Accuracy (right)", grid, ACCURACY, "muted",
                                  dash="dash"))]
    if det.alarm_s is not None:
        traces.append(ch.point("First alarm", det.alarm_s / WEEK, max(det.alarm_psi(), S.psi_floor), "accent"))
    ticks = {"tickvals": list(S.psi_ticks), "ticktext": [fmt(v, "num") for v in S.psi_ticks]}
    figure = ch.figure(traces, x=ch.axis("Weeks since launch", range=[0, S.complaint_weeks + 0.5]),
                       y=ch.axis("PSI (log)", "log", range=[-3, 1.5], **ticks), shapes=[shape], annotations=[note])
    figure = ch.with_right_axis(figure, ch.axis("Accuracy", tickformat=".0%",
                                                range=[S.acc_complaint - 0.01, S.acc_start + 0.01]))
    when = (f"the first alarm comes at week {fmt(det.alarm_s / WEEK, 'int')}" if det.alarm_s is not None
            else "no check reaches the threshold")
    reaches = (f"reaches {fmt(mon.threshold, 'num')} at {fmt(mon.crossing_s, 'weeks')}"
               if math.isfinite(mon.crossing_s) else f"never reaches {fmt(mon.threshold, 'num')}")
    summary = (f"At {fmt(mon.drift_per_week, 'num')} σ per week the population PSI {reaches}; checking every "
               f"{fmt(mon.check_weeks * WEEK, 'weeks')} on {fmt(mon.window, 'int')} records, {when}, while accuracy "
               f"slides from {fmt(S.acc_start, 'pct')} to {fmt(S.acc_complaint, 'pct')} by week "
               f"{S.complaint_weeks:.0f}.")
    rows = [(fmt(t / WEEK, "int"), psi_text(D.binned_psi(mon.drift_per_week * round(t / WEEK), S.bins)), psi_text(p),
             fmt(accuracy_at(t), "pct")) for t, p in det.checks]
    return chart("a1_psi", "PSI at each check, and accuracy", figure, summary,
                 table=(("Week", "Population PSI", "Sampled PSI", "Accuracy"), rows))


def act2_cost_chart(p: Product, t: float):
    days, retrain, stale = cost_curve(p)
    shapes, notes = [], []
    # T* labelled on its left and the floor on its right, inside the plot's top edge (clear of the
    # legend), so the two stay apart when they are close
    for x, colour, label, side in ((p.t_star / DAY, "muted", "T*", "right"), (p.t_max / DAY, "danger", "floor", "left")):
        if S.day_ticks[0][0] <= x <= S.day_ticks[-1][0]:
            shape, note = ch.vline(x, colour, label)
            shapes.append(shape)
            notes.append({**note, "x": math.log10(x), "xanchor": side, "y": 0.99, "yanchor": "top"})
    traces = [ch.line("Retraining", days, retrain, "series1"), ch.line("Staleness", days, stale, "series2"),
              ch.line("Total", days, [a + b for a, b in zip(retrain, stale)], "ink"),
              ch.point("Your cadence", t / DAY, p.annual(t), "accent")]
    costs = [*retrain, *stale]
    figure = ch.figure(traces, x=ch.axis("Retrain every", "log", **DAY_TICKS),
                       y=ch.axis("Cost per year", "log", **ch.decade_ticks(costs, lambda v: fmt(v, "usd"))),
                       shapes=shapes, annotations=notes)
    summary = (f"The yearly total is lowest at T* = {fmt(p.t_star, 'days')}, and the floor allows at most "
               f"{fmt(p.t_max, 'days')}. Your {fmt(t, 'days')} costs {fmt(p.annual(t), 'usd')} a year.")
    rows = [(fmt(d * DAY, "days"), fmt(a, "usd"), fmt(b, "usd"), fmt(a + b, "usd"))
            for d, a, b in zip(days[::3], retrain[::3], stale[::3])]
    return chart("a2_cost", "Yearly cost against the retraining interval", figure, summary,
                 table=(("Every", "Retraining", "Staleness", "Total"), rows))


@lru_cache(maxsize=1)
def act2_products_chart():
    """The three products at the scenario's inputs: the same on every move, so drawn once."""
    names = ["Cloud<br>API", "Edge<br>fleet", "Mobile<br>app"]
    prods = [scenario_product(c) for c in PRODUCTS]
    traces = [ch.bars("T* (cheapest)", names, [p.t_star / DAY for p in prods], "series1"),
              ch.bars("T_max (floor)", names, [p.t_max / DAY for p in prods], "danger"),
              ch.bars("Cheapest safe", names, [p.t_op / DAY for p in prods], "good")]
    span = [math.log10(S.day_ticks[0][0]), math.log10(max(p.t_max for p in prods) / DAY) + 0.15]
    figure = ch.figure(traces, x=ch.axis("", "category", tickangle=0),
                       y=ch.axis("Days", "log", range=span, **DAY_TICKS))
    summary = ("At the scenario's inputs the cheapest safe cadences are "
               + ", ".join(f"{fmt(p.t_op, 'days')} for the {PRODUCT_NAMES[c]}" for c, p in zip(PRODUCTS, prods))
               + ".")
    rows = [(PRODUCT_NAMES[c], fmt(p.retrain_usd, "usd"), fmt(p.t_star, "days"), fmt(p.t_max, "days"),
             fmt(p.t_op, "days"), fmt(p.annual(p.t_op), "usd")) for c, p in zip(PRODUCTS, prods)]
    return chart("a2_products", "Cadence by product (the scenario's inputs)", figure, summary,
                 table=(("Product", "Per retrain", "T*", "T_max", "Cheapest safe", "Per year"), rows))
