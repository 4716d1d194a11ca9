"""The charts of V1-13 (The Tail Latency Trap): Act I's histogram of seeded draws and its load
curve, Act II's P99 against replicas (a fleet) or against the service time (one device), and the
queue during the spike. Each takes the model's objects and returns a chart component. Act II's two
computed cards (fewest replicas, slowest service) are here too, with their notes, and the levers the
failures offer."""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework.components import MetricCard, MetricSpec
from pylabs.framework import charts as ch
from pylabs.framework.formats import listed, plural
from pylabs.labs.vol1.v1_13_model import (MIN_SLO_HEADROOM, S, Server, backlog_timeline, load_curve,
                                          max_service_s, min_replicas, replica_curve, replica_span, service_curve)
from pylabs.physics import queueing as q
from pylabs.physics import units as U

# ---- Act I ----------------------------------------------------------------------------------


def act1_histogram(srv: Server, samples: list[float], slo: float):
    end = srv.percentile_s(0.999) * U.MS_PER_S
    size = end / S.bins
    trace = ch.histogram("Requests", samples, "series1", bins=(0.0, end, size), norm="percent")
    figure = ch.histogram_figure([trace], ch.axis("Time in system (ms)"), ch.axis("Share of requests (%)"),
                                 samples, lambda v: fmt(v / U.MS_PER_S, "ms"), legend=False)
    if slo * U.MS_PER_S < end:
        line, note = ch.vline(slo * U.MS_PER_S, "warn", "SLO")
        figure["layout"]["shapes"].append(line)
        figure["layout"]["annotations"].append(note)
        figure["layout"]["margin"]["t"] = 28
    shown = sum(1 for v in samples if v < end)
    summary = (f"The draws fall off exponentially from zero: half finish within {fmt(ch.percentile(samples, 50) / U.MS_PER_S, 'ms')}, "
               f"99 % within {fmt(ch.percentile(samples, 99) / U.MS_PER_S, 'ms')}, and {fmt(srv.exceed(slo), 'pct')} "
               f"take longer than the {fmt(slo, 'ms')} SLO. {shown:,} of {len(samples):,} draws are under "
               f"the chart's right edge (the P99.9).")
    rows = [(f"P{k:g}", fmt(ch.percentile(samples, k) / U.MS_PER_S, "ms"), fmt(srv.percentile_s(k / U.PERCENT), "ms"))
            for k in S.table_percentiles]
    return chart("a1_histogram", "Time in system: seeded draws with their P50 and P99", figure, summary,
                 table=(("Percentile", "Sampled", "Closed form"), rows))


def act1_curve(srv: Server, slo: float):
    rhos, curve = load_curve(srv.service_s)
    ms = U.MS_PER_S
    traces = [ch.line("P99", rhos, [c.percentile_s(S.quantile) * ms for c in curve], "danger"),
              ch.line("Mean", rhos, [c.mean_s * ms for c in curve], "series1"),
              ch.point("Your setting (P99)", srv.rho, srv.percentile_s(S.quantile) * ms, "accent")]
    values = [srv.service_s * ms, curve[-1].percentile_s(S.quantile) * ms, slo * ms]
    line, note = ch.hline(slo * ms, "warn", "SLO", log=True)
    figure = ch.figure(traces, x=ch.axis("Load ρ", tickformat=".0%"),
                       y=ch.axis("Time in system (ms)", "log", **ch.decade_ticks(values, lambda v: fmt(v / ms, "ms"))),
                       shapes=[line], annotations=[note])
    knee = 1 - MIN_SLO_HEADROOM * srv.service_s / slo
    within = (f"the P99 stays under {fmt(slo, 'ms')} only below ρ = {fmt(knee, 'pct')}" if knee > 0 else
              f"the P99 is over {fmt(slo, 'ms')} at every load")
    summary = (f"Mean and P99 both climb steeply toward ρ = 1, a constant {fmt(MIN_SLO_HEADROOM, 'num')}× apart; "
               f"with {fmt(srv.service_s, 'ms')} service {within}.")
    rows = [(fmt(c.rho, "pct"), fmt(c.mean_s, "ms"), fmt(c.percentile_s(S.quantile), "ms")) for c in curve[::6]]
    return chart("a1_load_curve", "Mean and P99 against load", figure, summary,
                 table=(("Load ρ", "Mean", "P99"), rows))



# ---- Act II ---------------------------------------------------------------------------------


def ms_axis(title: str, values_ms: list[float]) -> dict:
    """A log axis in ms with ticks at 1-2-5 steps inside the values' span (always at least two labels)."""
    low, high = min(values_ms), max(values_ms)
    ticks = [m * 10.0 ** e for e in range(-1, 6) for m in (1, 2, 5)]
    inside = [t for t in ticks if low / 1.3 <= t <= high * 1.3] or [t for t in ticks if t >= low][:2]
    span = [math.log10(min(low, inside[0])) - 0.08, math.log10(max(high, inside[-1])) + 0.08]
    return ch.axis(title, "log", range=span, **ch.ticks_at(inside, lambda v: fmt(v / U.MS_PER_S, "ms")))


def act2_replica_chart(sp: q.Spike, slo: float):
    shedding = sp.admit_max_rho < 1
    first, last = replica_span(sp.arrival_per_s, sp.service_s, sp.servers_after)
    cs, p99s = replica_curve(sp.arrival_per_s, sp.service_s, 1 if shedding else first, last, sp.admit_max_rho)
    name = "P99 of the requests admitted" if shedding else f"P99 at {fmt(sp.arrival_per_s, 'req/s')}"
    traces = [ch.line(name, cs, p99s, "series1")]
    slo_line, slo_note = ch.hline(slo * U.MS_PER_S, "warn", "SLO", log=True)
    shapes, notes = [slo_line], [slo_note]
    if sp.rho_after < 1:
        traces.append(ch.point("Your replicas", sp.servers_after, sp.p99_after_s() * U.MS_PER_S, "accent"))
    else:
        line, note = ch.vline(sp.servers_after, "danger", "yours: unstable")
        shapes.append(line)
        notes.append({**note, "xanchor": "left", "xshift": 4, "y": 0.5, "yanchor": "middle"})
    x_low = min(first, sp.servers_after)
    figure = ch.figure(traces, x=ch.axis("Replicas", range=[max(0.0, x_low - 0.05 * (last - x_low)), last]),
                       y=ms_axis("P99 time in system (ms)", p99s + [slo * U.MS_PER_S]),
                       shapes=shapes, annotations=notes)
    if shedding:
        sheds = math.ceil(q.offered_load(sp.arrival_per_s, sp.service_s) / sp.admit_max_rho)
        unstable = (f"With admission control every replica count is stable: below {plural(sheds, 'replica', count_fmt='int')} "
                    f"it sheds the excess and runs at {fmt(sp.admit_max_rho, 'pct')}; the P99 falls with more "
                    "replicas, then flattens")
    elif first > 1:
        unstable = (f"Below {plural(first, 'replica', count_fmt='int')} the queue is unstable (no P99 exists); the P99 "
                    "falls steeply just above, then flattens")
    else:
        unstable = "One replica already keeps the queue stable; the P99 falls with more, then flattens"
    summary = f"{unstable}: {fmt(p99s[-1] / U.MS_PER_S, 'ms')} at {cs[-1]:,} replicas."
    rows = [(f"{c:,}", fmt(p / U.MS_PER_S, "ms")) for c, p in list(zip(cs, p99s))[::6]]
    return chart("a2_replicas_curve", "P99 against replicas once scaled", figure, summary,
                 table=(("Replicas", "P99"), rows))


def act2_service_chart(sp: q.Spike, slo: float, device: str, low: float, high: float):
    stable, p99s = service_curve(sp.arrival_per_s, low, high, sp.admit_max_rho)
    traces = [ch.line(f"P99 on one {device}", [t * U.MS_PER_S for t in stable], p99s, "series1")] if stable else []
    if sp.rho_after < 1:
        traces.append(ch.point("Your setting", sp.service_s * U.MS_PER_S, sp.p99_after_s() * U.MS_PER_S, "accent"))
    line, note = ch.hline(slo * U.MS_PER_S, "warn", "SLO", log=True)
    ys = p99s + [slo * U.MS_PER_S]
    figure = ch.figure(traces, x=ch.axis("Service time per request (ms)", range=[low * U.MS_PER_S, high * U.MS_PER_S]),
                       y=ms_axis("P99 time in system (ms)", ys), shapes=[line], annotations=[note])
    if sp.admit_max_rho < 1:
        ceiling = sp.admit_max_rho / sp.arrival_per_s
        shed = (f"slower than {fmt(ceiling, 'ms')} per request it sheds the excess and runs at "
                f"{fmt(sp.admit_max_rho, 'pct')}, where the P99 is {fmt(MIN_SLO_HEADROOM / (1 - sp.admit_max_rho), 'num')} "
                "service times" if ceiling < high else "it sheds nothing in this range")
        summary = (f"With admission control the {device} is stable at every service time at "
                   f"{fmt(sp.arrival_per_s, 'req/s')}: {shed}.")
    else:
        summary = (f"At {fmt(sp.arrival_per_s, 'req/s')} the {device} is stable only with service under "
                   f"{fmt(1 / sp.arrival_per_s, 'ms')}; the P99 climbs steeply as the service time approaches that "
                   "limit.")
    rows = [(fmt(t, "ms"), fmt(p / U.MS_PER_S, "ms")) for t, p in list(zip(stable, p99s))[::5]]
    return chart("a2_service_curve", f"P99 on one {device} against its service time", figure, summary,
                 table=(("Service time", "P99"), rows))


def act2_timeline(sp: q.Spike, fleet: bool):
    ts, queue = backlog_timeline(sp)
    traces = [ch.area("Requests queued", ts, queue, "danger")]
    shapes, notes = [], []
    if 0 < sp.lag_s < S.timeline_s:
        line, note = ch.vline(sp.lag_s, "muted", "new replicas" if fleet else "the planner's minute")
        shapes, notes = [line], [note]
    # a queue is never negative: an empty one is drawn on [0, 1], not Plotly's default [−1, 1]
    y = ch.axis("Requests queued", rangemode="tozero") if max(queue) > 0 else \
        ch.axis("Requests queued", range=[0, 1], tickvals=[0], ticktext=["0"])
    figure = ch.figure(traces, x=ch.axis("Seconds after the spike starts"), y=y,
                       shapes=shapes, annotations=notes, legend=False)
    figure["layout"]["margin"]["t"] = 28
    when = "when the new capacity arrives" if fleet else f"{fmt(sp.lag_s, 's')} in"
    if max(queue) == 0:
        course = "stays empty: " + ("admission control sheds the excess" if sp.shed_after > 0 else "the servers keep up")
    elif sp.backlog == 0:
        course = f"is empty {when}, then grows without end: arrivals outpace the servers"
    elif math.isinf(sp.drain_s):
        course = f"reaches {fmt(sp.backlog, 'int')} requests {when} and never drains"
    else:
        course = f"reaches {fmt(sp.backlog, 'int')} requests {when} and drains {fmt(sp.drain_s, 's')} later"
    summary = f"The queue {course}; after {fmt(S.timeline_s, 's')} it holds {fmt(queue[-1], 'int')}."
    rows = [(fmt(t, "s"), fmt(v, "int")) for t, v in list(zip(ts, queue))[::10]]
    return chart("a2_backlog", "The queue during the spike (fluid model)", figure, summary,
                 table=(("Time", "Queued"), rows))


# ---- Act II's computed cards ---------------------------------------------------------------------


def min_replicas_card(spec: MetricSpec, sp: q.Spike, slo: float) -> MetricCard:
    """The fewest replicas for the SLO at the arrival rate (serving all, when admission control is on);
    "none" when no number of replicas meets it, since the service alone is over the SLO: that is no
    count, and "∞" would say that infinitely many would do."""
    need = min_replicas(sp.service_s, sp.arrival_per_s, slo)
    if math.isinf(need):
        return spec.show(need, None, f"the service alone has a P99 of ln 100 · S = "
                                                              f"{fmt(MIN_SLO_HEADROOM * sp.service_s, 'ms')}, over the SLO")
    served = ", serving all, none shed" if sp.admit_max_rho < 1 else ""
    return spec.show(need, None, f"P99 ≤ {fmt(slo, 'ms')} at {fmt(sp.arrival_per_s, 'req/s')}{served}")


def max_service_card(sp: q.Spike, slo: float) -> tuple[float, None, str]:
    """One device's slowest service for the SLO at the arrival rate, admission control's shedding counted."""
    slowest = max_service_s(sp.arrival_per_s, slo, sp.admit_max_rho)
    if slowest * sp.arrival_per_s > sp.admit_max_rho:
        return slowest, None, (f"at {fmt(sp.arrival_per_s, 'req/s')}, shedding to {fmt(sp.admit_max_rho, 'pct')} load: "
                               f"ln 100 · S / {fmt(1 - sp.admit_max_rho, 'pct')} ≤ SLO")
    return slowest, None, f"at {fmt(sp.arrival_per_s, 'req/s')}; M/M/1: μ ≥ λ + ln 100 / SLO"


# ---- the failures' remedies: only the levers not at their limit ---------------------------------


def a1_remedy(srv: Server, slo: float, rho_min: float, service_min: float) -> str:
    """Act I's way out of a missed SLO, offering only the levers the sliders can still move: the
    P99 is ln 100 · S / (1 − ρ), so the load must fall below 1 − ln 100 · S / SLO (none will do
    once the service alone, ln 100 · S, is over the target) or S below SLO (1 − ρ) / ln 100."""
    knee = 1 - MIN_SLO_HEADROOM * srv.service_s / slo
    service = slo * (1 - srv.rho) / MIN_SLO_HEADROOM
    levers = ([f"lower the load below ρ = {fmt(knee, 'pct')}"] if knee > rho_min else []) + \
             ([f"shorten the service time under {fmt(service, 'ms')}"] if service >= service_min else [])
    alone = (f"The service alone has a P99 of ln 100 · S = {fmt(MIN_SLO_HEADROOM * srv.service_s, 'ms')}, "
             "so no load meets the target at this service time. " if knee <= 0 else "")
    if not levers:
        return alone + "Lower the load and shorten the service time together, until ln 100 · S / (1 − ρ) is under it."
    text = listed(levers)
    return alone + text[0].upper() + text[1:] + "."


def slo_remedy(sp: q.Spike, slo: float, fleet: bool, faster: bool, replicas_max: int) -> str:
    """What clears a stable queue's P99 over the SLO: more replicas where some number of them does
    (up to ``replicas_max``, the slider's end), faster service while the slider allows, else a lighter burst."""
    serve = "serve faster (a smaller or quantised model)"
    if fleet:
        need = min_replicas(sp.service_s, sp.arrival_per_s, slo)
        if math.isinf(need):
            return (f"No number of replicas meets it: the service alone has a P99 of ln 100 · S = "
                    f"{fmt(MIN_SLO_HEADROOM * sp.service_s, 'ms')}. Serve faster (a smaller or quantised model).")
        if need <= replicas_max:
            return f"Add replicas ({fmt(need, 'int')} meet it, serving all) or {serve}."
        return f"Even {fmt(replicas_max, 'int')} replicas miss it at this rate: {serve}."
    if faster:
        return serve[0].upper() + serve[1:] + "."
    return (f"Even the fastest service offered misses it at {fmt(sp.arrival_per_s, 'req/s')}: only a lighter "
            "burst would meet it.")
