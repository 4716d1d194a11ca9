"""The charts of V1-02 (The Iron Law): Act I's latency waterfall and roofline, Act II's latency against
distance. Pure functions of the model's results; the lab module places them on the page."""

from __future__ import annotations

import math

from pylabs.framework import chart, fmt
from pylabs.framework import charts as ch
from pylabs.labs.vol1.v1_02_model import Pair, S, Service, service
from pylabs.physics import devices
from pylabs.physics import units as U
from pylabs.physics.devices import Device
from pylabs.physics.ironlaw import Upgrade


def act1_waterfall(u: Upgrade, before_name: str, after_name: str):
    rows = [before_name, after_name]
    laws = [u.before, u.after]
    parts = (("Memory, D/BW", "memory_s", "series1"), ("Compute, O/R", "compute_s", "series2"),
             ("Overhead, L", "overhead_s", "muted"))
    traces = [ch.bars(name, rows, [getattr(law, field) * U.MS_PER_S for law in laws], colour, horizontal=True)
              for name, field, colour in parts]
    figure = ch.figure(traces, x=ch.axis("Milliseconds per step"), y=ch.axis("", "category", autorange="reversed"),
                       stacked=True, height=S.waterfall_height_px)
    summary = (f"On the {before_name} a step takes {fmt(u.before.total_s, 'ms')}, on the {after_name} "
               f"{fmt(u.after.total_s, 'ms')}; memory is {fmt(u.after.memory_share, 'pct')} of the new step.")
    table = [(name, fmt(law.memory_s, "ms"), fmt(law.compute_s, "ms"), fmt(law.overhead_s, "ms"), fmt(law.total_s, "ms"))
             for name, law in zip(rows, laws)]
    return chart("a1_waterfall", "Latency waterfall: where each step's time goes", figure, summary,
                 table=(("Device", "Memory", "Compute", "Overhead", "Total"), table))


def act1_roofline(u: Upgrade, intensity: float, p: Pair, lo: float, hi_16: float):
    """Both roofs; each side's step at its own intensity (INT8 weights do the same operations on half the bytes)."""
    hi = hi_16 / p.bytes_ratio
    xs = sorted({lo * (hi / lo) ** (k / 40) for k in range(41)} | {u.old.ridge, u.new.ridge})
    xs = [x for x in xs if lo <= x <= hi]
    traces = [ch.line(f"{name} roof", xs, [devices.attainable(d.peak_ops, d.mem_bw, x) / U.TRILLION for x in xs], colour)
              for name, d, colour in ((p.old_name, u.old, "series2"), (p.new_name, u.new, "series1"))]
    new_ai = intensity / p.bytes_ratio
    here = devices.attainable(u.new.peak_ops, u.new.mem_bw, new_ai) / U.TRILLION
    there = devices.attainable(u.old.peak_ops, u.old.mem_bw, intensity) / U.TRILLION
    shape, _ = ch.vline(new_ai, "accent")
    ys = [y for t in traces for y in t["y"]]
    # Plotly sets a log axis's range in log10 units
    x = ch.axis("Arithmetic intensity (operations per byte)", "log", range=[math.log10(lo), math.log10(hi)],
                **ch.decade_ticks(xs, lambda v: fmt(v, "num")))
    y = ch.axis("Attainable (T op/s)", "log",
                **ch.decade_ticks(ys, lambda v: fmt(v, "num")))
    points = [ch.point(f"Your step ({p.old_name})", intensity, there, "series2"),
              ch.point(f"Your step ({p.new_name})", new_ai, here, "accent")]
    figure = ch.figure([*traces, *points], x=x, y=y, shapes=[shape])
    summary = (f"The roofs turn at {fmt(u.old.ridge, 'num')} op/B ({p.old_name}) and {fmt(u.new.ridge, 'num')} op/B "
               f"({p.new_name}); at {fmt(new_ai, 'num')} op/B the {p.new_name} reaches "
               f"{fmt(here * U.TRILLION, rate_unit(u.new))} of its {fmt(u.new.peak_ops, rate_unit(u.new))}.")
    rows = [(f"{fmt(x, 'num')} op/B", fmt(devices.attainable(u.old.peak_ops, u.old.mem_bw, x), rate_unit(u.old)),
             fmt(devices.attainable(u.new.peak_ops, u.new.mem_bw, x), rate_unit(u.new))) for x in xs[::8]]
    return chart("a1_roofline", "Roofline: attainable rate against intensity", figure, summary,
                 table=(("Intensity", p.old_name, p.new_name), rows))


def rate_unit(dev: Device) -> str:
    """Integer paths count operations (OP/s), floating-point paths FLOP/s."""
    return "OP/s" if "INT8" in dev.precision else "FLOP/s"


def act2_chart(context: str, distance_m: float, route: float, batch: float, sla_s: float, svc: Service):
    kms = list(S.chart_distances_km)
    cloud = [service("cloud", k * U.M_PER_KM, route, batch).total_s * U.MS_PER_S for k in kms]
    edge = service("edge", 0.0, 1.0, batch).total_s * U.MS_PER_S
    shape, note = ch.hline(sla_s * U.MS_PER_S, "danger", f"SLA {fmt(sla_s, 'ms')}")
    here_km = distance_m / U.M_PER_KM if context == "cloud" else 0.0
    traces = [ch.line("Remote H100", kms, cloud, "series1"),
              ch.line("Orin NX in the vehicle", kms, [edge] * len(kms), "series2", dash="dash"),
              ch.point("Your setting", here_km, svc.total_s * U.MS_PER_S, "accent")]
    figure = ch.figure(traces, x=ch.axis("Distance to the model (km)", tickformat=","), y=ch.axis("Frame to answer (ms)"),
                       shapes=[shape], annotations=[note] if note else [])
    summary = (f"The remote H100 answers in {fmt(cloud[0] / U.MS_PER_S, 'ms')} next door and "
               f"{fmt(cloud[-1] / U.MS_PER_S, 'ms')} at {fmt(kms[-1] * U.M_PER_KM, 'km')}; the Orin NX in the "
               f"vehicle takes {fmt(edge / U.MS_PER_S, 'ms')} wherever the car is.")
    rows = [(fmt(k * U.M_PER_KM, "km"), fmt(c / U.MS_PER_S, "ms"), fmt(edge / U.MS_PER_S, "ms"))
            for k, c in zip(kms, cloud)]
    return chart("a2_distance", "Latency against distance", figure, summary,
                 table=(("Distance", "Remote H100", "Orin NX in the vehicle"), rows))
