"""Lab V1-02 · The Iron Law (the memory wall and the light barrier).

Core invariant: latency is the sum of what a request moves, what it computes and what it waits
for, T = D/BW + O/R + L (plus the round trip of light when the model is far away). Only the
largest term matters; a faster unit for a small term buys almost nothing.

Act I (the memory wall): a CTO upgraded A100 → H100, 3.17× the dense BF16 compute, for a decoding
service at 5 FLOP per byte. The latency improves by about the bandwidth ratio (1.62×), not the
compute ratio. In the Edge context the same question runs on the Jetson Orin NX, whose INT8 path
doubles the dense tensor rate over FP16 on the same LPDDR5 memory.
Act II (the light barrier): a car's perception model (ResNet-50) served from 3,000 km away cannot
meet a 10 ms budget: the round trip of light in fibre alone is 29.4 ms. The in-vehicle Orin can.

Corrections to the upstream lab (VOL1_00-08 §V1-02): the compute ratio is 3.17× (dense), not 6×;
the upstream story keyed two answers (10–15 % and 0 %) while its own model gave 27.7 %; here one
option holds the physics' 1.62× and a test proves it. Ridges come from dense peaks (295 and 153
FLOP/B, not 590). The Orin's "100 TOPS" is sparse INT8 over the GPU and two DLAs, never an FP16
rate. The fixed overhead defaults to 0.05 ms; sliding it to about 4 ms reproduces the "8 %"
anecdote, which the Act I warning names. Act II reads weights once per batch, so intensity rises
with batch, and 30 ms is the round trip (not one way).

Ledger fields: context, both predictions and reflections (framework), speedup, bound,
distance_km, sla_violated.
"""

from __future__ import annotations

import math

from pylabs.framework import (Act, Claim, Equation, FailureSpec, Lab, MetricSpec, Prediction, Range,
                              Reflection, Slider, State, callout, chart, failure, fmt, math_peek, metric_grid,
                              prose)
from pylabs.framework import charts as ch
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_02_model import (PAIRS, RESNET50_FLOP, SCENARIO_SERVICE, SCENARIO_UPGRADE, S, Service,
                                          act1_truth, act2_truth, perception_intensity, service, upgrade)
from pylabs.physics import constants as C
from pylabs.physics import devices, ironlaw
from pylabs.physics.devices import Device
from pylabs.physics.ironlaw import Upgrade
from pylabs.physics.references import cite


# ---- context: which devices the instruments compare --------------------------------------

CONTEXT = deployment(("cloud", "edge"), default="cloud", help=(
    "Cloud compares the A100 and H100 in Act I and serves Act II from a remote H100. Edge compares the "
    "Jetson Orin NX's FP16 and INT8 paths in Act I and runs Act II in the vehicle."))

ADVERTISED = {"cloud": (C.H100_PEAK_BF16_SPARSE, f"{fmt(C.H100_PEAK_BF16_SPARSE / S.tera, 'num')} TFLOP/s BF16 with "
                                                 "2:4 sparsity"),
              "edge": (C.ORIN_NX_PEAK_INT8_SPARSE_TOTAL, f"{fmt(C.ORIN_NX_PEAK_INT8_SPARSE_TOTAL, 'OP/s')}, INT8 with "
                                                         "2:4 sparsity summed over the GPU and two DLAs")}

# ---- Act I · The memory wall --------------------------------------------------------

# Log sliders in steps of 0.01 decade from a minimum one decade below the default, so the default sits
# exactly on the native range input's grid (the browser snaps the thumb to it).
A1_BYTES = Slider("a1_bytes", "Bytes moved per request", unit="B", min=0.2e9, max=20e9, step=1, default=S.bytes_moved,
                  fmt="GB", scale="log", steps=200, help="Weights and activations read from memory for one request.")
A1_INTENSITY = Slider("a1_intensity", "Arithmetic intensity", unit="FLOP/B", min=0.5, max=5000, step=1,
                      default=S.intensity, fmt="FLOP/B", scale="log", steps=400,
                      help=f"Operations per byte moved. Decoding a language model does "
                           f"{fmt(S.flop_per_param / S.bytes_per_weight, 'num')} per byte for each user in the step.")
A1_OVERHEAD = Slider("a1_overhead", "Fixed overhead per request", unit="s", min=0, max=5e-3, step=0.01e-3,
                     default=S.overhead_s, fmt="ms", help="Kernel launches, framework and scheduling, the same on both.")


ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Each decoding step reads {fmt(S.bytes_moved, 'GB')} and does {fmt(S.intensity, 'FLOP/B')}, with "
           f"{fmt(S.overhead_s, 'ms')} of fixed overhead. How many times faster is one step on the H100 than on "
           "the A100?",
    quantity="A100 latency ÷ H100 latency",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the compute upgrade shows up almost in full", 2.5, None, 3.2,
              "The tensor cores are {compute_ratio} faster, but at {intensity} the H100 spends {memory_share} "
              "of each step moving bytes; only the memory bandwidth ratio, {bandwidth_ratio}, reaches the latency."),
        Range("B", "{range}: only part of the upgrade shows up", 1.3, 2.5, 1.6,
              "The step sits far below both ridge points ({ridge_old} and {ridge_new}), so memory time sets the "
              "latency and the gain follows the bandwidth ratio, {bandwidth_ratio}, not the compute ratio."),
        Range("C", "{range}: fixed overheads swallow most of it", 1.05, 1.3, 1.1,
              "The {overhead} of overhead is a small share here. Overhead becomes the wall only near "
              "{anecdote_overhead}, which is how an upgrade ends up showing a gain as small as {anecdote_cut}."),
        Range("D", "{range}: no measurable change", None, 1.05, 1.0,
              "Memory bandwidth also grew, by {bandwidth_ratio}, and memory time is most of the step."),
    ),
    truth=act1_truth,
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="Why does this upgrade fall so far short of its compute ratio?",
    options=(
        Claim("A", "The H100 throttles under load, so it never reaches its datasheet peak.",
              "Even at the full datasheet peak the compute term is {compute_new} of a {total_new} step: there "
              "is almost no compute time left to save."),
        Claim("B", "The request is below both ridge points: memory time dominates, and memory bandwidth grew far "
                   "less than compute.",
              "At {intensity} the memory term is {memory_share} of the H100's latency. Below the ridge "
              "({ridge_new} on the H100) extra FLOP/s wait for bytes."),
        Claim("C", "Fixed per-request overhead dominates the latency.",
              "At {overhead} it is a small share of {total_new}. It takes about {anecdote_overhead} of "
              "overhead to shrink the gain to {anecdote_cut}: the next wall, not this one."),
        Claim("D", "The software stack is not yet tuned for the new tensor cores.",
              "Better kernels raise the compute rate, and compute is {compute_share} of the step: even "
              "infinitely fast kernels leave the memory term."),
    ),
    answer_letter="B",
)

M = {m.name: m for m in (
    MetricSpec("a1_speedup", "Latency speedup", "1", "x"),
    MetricSpec("a1_compute_ratio", "Peak compute ratio (dense)", "1", "x"),
    MetricSpec("a1_bandwidth_ratio", "Memory bandwidth ratio", "1", "x"),
    MetricSpec("a1_memory_share", "Memory's share of the new latency", "1", "pct"),
    MetricSpec("a1_latency_after", "Latency after the upgrade", "s", "ms"),
    MetricSpec("a1_ridge_after", "Ridge point after the upgrade", "FLOP/B", "FLOP/B"),
    MetricSpec("a1_latency_before", "Latency before the upgrade", "s", "ms"),
    MetricSpec("a1_cut", "Latency removed", "1", "pct"),
    MetricSpec("a2_latency", "Frame to answer", "s", "ms"),
    MetricSpec("a2_rtt", "Round trip of light in fibre", "s", "ms"),
    MetricSpec("a2_inference", "Inference (memory, compute, overhead)", "s", "ms"),
    MetricSpec("a2_max_distance", "Farthest site within the SLA", "m", "km"),
    MetricSpec("a2_intensity", "Arithmetic intensity", "FLOP/B", "FLOP/B"),
    MetricSpec("a2_per_image", "Inference time per image", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a1_upgrade_wasted", "The upgrade bought almost nothing", act=1, severity="warn"),
    FailureSpec("a2_sla_violated", "The SLA is broken: the answer arrives too late", act=2),
)
F = {f.name: f for f in FAILURES}


def act1_upgrade(s: State) -> Upgrade:
    return upgrade(s["context"], s["a1_bytes"], s["a1_intensity"], s["a1_overhead"])


def act1_instruments(s: State) -> list:
    u = act1_upgrade(s)
    _, _, before_name, after_name = PAIRS[s["context"]]
    parts = [metric_grid(
        M["a1_speedup"].show(u.speedup, "warn" if u.cut < S.wasted_cut else None, f"{before_name} → {after_name}"),
        M["a1_compute_ratio"].show(u.compute_ratio),
        M["a1_bandwidth_ratio"].show(u.bandwidth_ratio),
        M["a1_memory_share"].show(u.after.memory_share, "warn" if u.after.bound == "memory" else None,
                                  f"{u.after.bound}-bound"),
        M["a1_latency_after"].show(u.after.total_s, note=after_name),
        M["a1_ridge_after"].show(u.new.ridge, note=f"{after_name}, dense peak"),
        M["a1_latency_before"].show(u.before.total_s, note=before_name),
        M["a1_cut"].show(u.cut),
    )]
    if u.cut < S.wasted_cut:
        parts.append(failure(F["a1_upgrade_wasted"],
                             f"{fmt(u.compute_ratio, 'x')} the compute removes only {fmt(u.cut, 'pct')} of the "
                             f"latency. The {waterfall_leader(u.after)} term sets the time; raise the intensity "
                             "or cut the bytes or the overhead to let the new compute count."))
    parts.append(act1_waterfall(u, before_name, after_name))
    parts.append(act1_roofline(u, s["a1_intensity"], before_name, after_name))
    parts.append(advertised_callout(s["context"], u.new))
    if s["context"] != "cloud":
        parts.append(callout("info", "Your prediction was about the cloud upgrade",
                             prose(f"At these settings the A100 → H100 upgrade gives "
                                   f"{fmt(upgrade('cloud', s['a1_bytes'], s['a1_intensity'], s['a1_overhead']).speedup, 'x')}.")))
    return parts


def waterfall_leader(law: ironlaw.IronLaw) -> str:
    terms = {"memory": law.memory_s, "compute": law.compute_s, "overhead": law.overhead_s}
    return max(terms, key=terms.get)


def act1_waterfall(u: Upgrade, before_name: str, after_name: str):
    rows = [before_name, after_name]
    laws = [u.before, u.after]
    terms = (("Memory, D/BW", "memory_s", "series1"), ("Compute, O/R", "compute_s", "series2"),
             ("Overhead, L", "overhead_s", "muted"))
    traces = [ch.bars(name, rows, [getattr(law, field) * S.ms_per_s for law in laws], colour, horizontal=True)
              for name, field, colour in terms]
    figure = ch.figure(traces, x=ch.axis("Milliseconds per request"), y=ch.axis("", "category", autorange="reversed"),
                       stacked=True, height=S.waterfall_height_px)
    summary = (f"On the {before_name} a request takes {fmt(u.before.total_s, 'ms')}, on the {after_name} "
               f"{fmt(u.after.total_s, 'ms')}; memory is {fmt(u.after.memory_share, 'pct')} of the new latency.")
    table = [(name, fmt(law.memory_s, "ms"), fmt(law.compute_s, "ms"), fmt(law.overhead_s, "ms"), fmt(law.total_s, "ms"))
             for name, law in zip(rows, laws)]
    return chart("a1_waterfall", "Latency waterfall: where each request's time goes", figure, summary,
                 table=(("Device", "Memory", "Compute", "Overhead", "Total"), table))


def act1_roofline(u: Upgrade, intensity: float, before_name: str, after_name: str):
    lo, hi = A1_INTENSITY.min, A1_INTENSITY.max
    xs = sorted({lo * (hi / lo) ** (k / 40) for k in range(41)} | {u.old.ridge, u.new.ridge})
    xs = [x for x in xs if lo <= x <= hi]
    traces = [ch.line(f"{name} roof", xs, [devices.attainable(d.peak_ops, d.mem_bw, x) / S.tera for x in xs], colour)
              for name, d, colour in ((before_name, u.old, "series2"), (after_name, u.new, "series1"))]
    here = devices.attainable(u.new.peak_ops, u.new.mem_bw, intensity) / S.tera
    shape, _ = ch.vline(intensity, "accent")
    ys = [y for t in traces for y in t["y"]]
    # Plotly sets a log axis's range in log10 units
    x = ch.axis("Arithmetic intensity (FLOP/B)", "log", range=[math.log10(lo), math.log10(hi)],
                **ch.decade_ticks(xs, lambda v: fmt(v, "num")))
    y = ch.axis(f"Attainable T{rate_unit(u.new)}", "log", **ch.decade_ticks(ys, lambda v: fmt(v, "num")))
    figure = ch.figure([*traces, ch.point(f"Your request ({after_name})", intensity, here, "accent")], x=x, y=y,
                       shapes=[shape])
    summary = (f"The roofs turn at {fmt(u.old.ridge, 'FLOP/B')} ({before_name}) and {fmt(u.new.ridge, 'FLOP/B')} "
               f"({after_name}); at {fmt(intensity, 'FLOP/B')} the {after_name} reaches "
               f"{fmt(here * S.tera, rate_unit(u.new))} of its {fmt(u.new.peak_ops, rate_unit(u.new))}.")
    rows = [(fmt(x, "FLOP/B"), fmt(devices.attainable(u.old.peak_ops, u.old.mem_bw, x), rate_unit(u.old)),
             fmt(devices.attainable(u.new.peak_ops, u.new.mem_bw, x), rate_unit(u.new))) for x in xs[::8]]
    return chart("a1_roofline", "Roofline: attainable rate against intensity", figure, summary,
                 table=(("Intensity", before_name, after_name), rows))


def rate_unit(dev: Device) -> str:
    """Integer paths count operations (OP/s), floating-point paths FLOP/s."""
    return "OP/s" if "INT8" in dev.precision else "FLOP/s"


def advertised_callout(context: str, new: Device):
    peak, what = ADVERTISED[context]
    return callout("info", "Ridges come from dense peaks",
                   prose(f"The headline figure, {what}, would put the ridge at "
                         f"{fmt(devices.ridge_point(peak, new.mem_bw), 'FLOP/B')}. Dense models run at the dense "
                         f"rate, {fmt(new.peak_ops, rate_unit(new))} {new.precision}, so the roof turns at "
                         f"{fmt(new.ridge, 'FLOP/B')}."))


def act1_facts() -> dict[str, str]:
    u = SCENARIO_UPGRADE
    anecdote = ironlaw.overhead_for_speedup_s(1 / (1 - S.anecdote_cut), u.before, u.after)
    return {"compute_ratio": fmt(u.compute_ratio, "x"), "bandwidth_ratio": fmt(u.bandwidth_ratio, "x"),
            "intensity": fmt(S.intensity, "FLOP/B"), "memory_share": fmt(u.after.memory_share, "pct"),
            "ridge_old": fmt(u.old.ridge, "FLOP/B"), "ridge_new": fmt(u.new.ridge, "FLOP/B"),
            "overhead": fmt(S.overhead_s, "ms"), "anecdote_overhead": fmt(anecdote, "ms"),
            "compute_new": fmt(u.after.compute_s, "ms"), "total_new": fmt(u.after.total_s, "ms"),
            "compute_share": fmt(u.after.compute_s / u.after.total_s, "pct"), "anecdote_cut": fmt(S.anecdote_cut, "pct")}


def act1_math(s: State):
    u = act1_upgrade(s)
    return math_peek("The governing equations · Act I", (
        Equation(r"T = \frac{D}{BW} + \frac{O}{R} + L,\qquad O = I\cdot D",
                 "The Iron Law: bytes over bandwidth, operations over the dense peak, plus fixed overhead. "
                 "The terms are added (no overlap), an upper bound on a well-pipelined kernel."),
        Equation(r"\text{speedup} = \frac{T_{\text{before}}}{T_{\text{after}}}",
                 "Only the terms that shrink make the request faster; the largest term sets the ceiling."),
        Equation(r"I_{\text{ridge}} = \frac{R}{BW}",
                 "Below the ridge a request is memory-bound: more FLOP/s wait for bytes."),
    ), rows=(
        ("Dense peak before → after", f"{fmt(u.old.peak_ops, rate_unit(u.old))} → "
                                      f"{fmt(u.new.peak_ops, rate_unit(u.new))}"),
        ("Bandwidth before → after", f"{fmt(u.old.mem_bw, 'GB/s')} → {fmt(u.new.mem_bw, 'GB/s')}"),
        ("Memory, compute, overhead after", f"{fmt(u.after.memory_s, 'ms')}, {fmt(u.after.compute_s, 'ms')}, "
                                            f"{fmt(u.after.overhead_s, 'ms')}"),
        ("Speedup", fmt(u.speedup, "x")),
    ), sources=(
        cite("williams2009", "ridge point and the memory-bound region"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source, C.REGISTRY["H100_HBM_BW"].source,
        C.REGISTRY["A100_PEAK_BF16_DENSE"].source, C.REGISTRY["A100_HBM_BW"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source, C.REGISTRY["ORIN_NX_MEM_BW"].source,
        C.REGISTRY["ORIN_NX_PEAK_INT8_SPARSE_TOTAL"].source,
    ))


ACT1 = Act(
    number=1, title="The Memory Wall", minutes="12–15 min",
    stakeholder_role="CTO",
    stakeholder=lambda: (
        f"We spent {fmt(S.upgrade_usd, 'usd')} moving our assistant from A100s to H100s: "
        f"{fmt(SCENARIO_UPGRADE.compute_ratio, 'x')} the dense BF16 compute on paper. It decodes a "
        f"{fmt(S.decode_params, 'params')}-parameter model in BF16, so every step reads {fmt(S.bytes_moved, 'GB')} "
        f"of weights, for {fmt(S.users, 'num')} users at once. How much faster will each step be?"),
    scenario=lambda: (
        "Every request pays three bills: **moving bytes** between memory and the chip, **computing** on them, "
        "and a **fixed overhead** for launching the work. The Iron Law adds them up.",
        f"Decoding one token costs {fmt(S.flop_per_param, 'num')} FLOP per parameter and reads each "
        f"{fmt(S.bytes_per_weight, 'num')}-byte weight once, so {fmt(S.users, 'num')} users decoded together do "
        f"{fmt(S.intensity, 'FLOP/B')}. The {fmt(devices.H100.mem_bw, 'GB/s')} of HBM3 on "
        f"the H100 compares with {fmt(devices.A100.mem_bw, 'GB/s')} on the A100.",
    ),
    prediction=ACT1_PREDICTION,
    controls=(A1_BYTES, A1_INTENSITY, A1_OVERHEAD),
    instruments=act1_instruments,
    reflection=ACT1_REFLECTION,
    math_peek=act1_math,
    facts=act1_facts,
    instruments_title="Latency waterfall",
)

# ---- Act II · The light barrier -------------------------------------------------------

A2_DISTANCE = Slider("a2_distance", "Distance to the data centre", unit="m", min=0, max=5_000e3, step=50e3,
                     default=S.distance_m, fmt="km")
A2_ROUTE = Slider("a2_route", "Fibre route over straight line", unit="1", min=1, max=2, step=0.05,
                  default=S.route_factor, fmt="x", help="Fibre follows roads, railways and coasts, so its path is longer than the straight line.")
A2_BATCH = Slider("a2_batch", "Camera frames per inference", unit="images", min=1, max=64, step=1, default=S.batch,
                  fmt="int", scale="log2", help="Weights are read once per batch; every frame waits for the batch.")
A2_SLA = Slider("a2_sla", "Latency budget (SLA)", unit="s", min=5e-3, max=50e-3, step=1e-3, default=S.sla_s, fmt="ms")


def act2_service(s: State) -> Service:
    return service(s["context"], s["a2_distance"], s["a2_route"], s["a2_batch"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"A camera frame goes to an H100 {fmt(S.distance_m, 'km')} away by fibre, runs ResNet-50 alone, and "
           "the answer comes back. How long from frame to answer, at best?",
    quantity="frame-to-answer latency",
    unit_fmt="ms",
    options=(
        Range("A", "{range}: the H100 answers in microseconds", None, 3e-3, 1e-3,
              "The H100's part is tiny ({inference}); the time goes to light crossing {distance} of fibre twice."),
        Range("B", "{range}: the network adds a little", 3e-3, 15e-3, 10e-3,
              "Light in fibre covers {km_per_ms} per millisecond: {distance} there and back takes {rtt}."),
        Range("C", "{range}: the distance dominates", 15e-3, 45e-3, 30e-3,
              "Light in fibre runs at {fibre_speed}, so the round trip alone is {rtt}; inference adds {inference}."),
        Range("D", "{range}: networks are slower than that", 45e-3, None, 60e-3,
              "This is the floor on a straight fibre: {rtt}. Detours, queues and switches add to it, "
              "never subtract."),
    ),
    truth=act2_truth,
)


def act2_facts() -> dict[str, str]:
    v = ironlaw.fibre_speed_m_per_s()
    svc = SCENARIO_SERVICE
    return {"inference": fmt(svc.inference.total_s, "ms"), "distance": fmt(S.distance_m, "km"),
            "rtt": fmt(svc.rtt_s, "ms"), "fibre_speed": fmt(v, "m/s"), "km_per_ms": fmt(v / S.ms_per_s, "km"),
            "sla": fmt(S.sla_s, "ms"), "total": fmt(svc.total_s, "ms"),
            "d_max": fmt(ironlaw.max_distance_m(S.sla_s, svc.inference.total_s), "km"),
            "orin": fmt(service("edge", 0.0, 1.0, S.batch).total_s, "ms")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt="The team proposes fixes for the missed budget. Which one can work?",
    options=(
        Claim("A", "Buy the next GPU generation for the data centre.",
              "Inference is {inference} of {total}; a GPU infinitely fast leaves the {rtt} round trip."),
        Claim("B", "Move the model close to the cars, or into them: the round trip of light is a floor that no "
                   "hardware removes.",
              "Within {d_max} of the cars the budget holds on a straight fibre; in the vehicle the Orin NX "
              "answers in {orin}."),
        Claim("C", "Batch several camera frames per inference to use the GPU better.",
              "Batching raises throughput, but each frame waits for its batch and for the same {rtt} round trip."),
        Claim("D", "Buy a faster network link with more bandwidth.",
              "Bandwidth shortens the time to push the bytes onto the fibre, not the time light takes to cross "
              "it: {rtt} at {fibre_speed}."),
    ),
    answer_letter="B",
)


def a2_overridden(s: State) -> dict[str, str]:
    """In the vehicle there is no network: distance and route do not enter the latency."""
    if s["context"] != "edge":
        return {}
    reason = "Not used in the Edge context: the model runs on the Orin NX in the vehicle, with no network hop."
    return {"a2_distance": reason, "a2_route": reason}


def act2_instruments(s: State) -> list:
    svc = act2_service(s)
    sla = s["a2_sla"]
    late = svc.total_s > sla
    law = svc.inference
    d_max = ironlaw.max_distance_m(sla, law.total_s, s["a2_route"])
    parts = [metric_grid(
        M["a2_latency"].show(svc.total_s, "danger" if late else "good", f"budget {fmt(sla, 'ms')}"),
        M["a2_rtt"].show(svc.rtt_s, "danger" if svc.rtt_s > sla else None,
                         "in the vehicle: none" if s["context"] == "edge" else ""),
        M["a2_inference"].show(law.total_s, note=f"{law.bound}-bound on the {device_name(s['context'])}"),
        M["a2_max_distance"].show(d_max, note="from the H100's inference time" if s["context"] == "cloud" else
                                  "if this device sat in a data centre"),
        M["a2_intensity"].show(perception_intensity(svc.batch)),
        M["a2_per_image"].show(law.total_s / svc.batch),
    )]
    if late:
        parts.append(sla_failure(svc, sla))
    parts.append(act2_chart(s, svc))
    return parts


def device_name(context: str) -> str:
    return "H100" if context == "cloud" else "Orin NX"


def sla_failure(svc: Service, sla: float):
    if svc.rtt_s > sla:
        return failure(F["a2_sla_violated"],
                       f"Light alone needs {fmt(svc.rtt_s, 'ms')} for the round trip, more than the "
                       f"{fmt(sla, 'ms')} budget. No GPU can fix this: move the model closer, or into the vehicle.")
    return failure(F["a2_sla_violated"],
                   f"The answer takes {fmt(svc.total_s, 'ms')} against a {fmt(sla, 'ms')} budget; inference is "
                   f"{fmt(svc.inference.total_s, 'ms')} of it. Smaller batches or a closer site bring it back.")


def act2_chart(s: State, svc: Service):
    kms = list(S.chart_distances_km)
    cloud = [service("cloud", k * S.m_per_km, s["a2_route"], s["a2_batch"]).total_s * S.ms_per_s for k in kms]
    edge = service("edge", 0.0, 1.0, s["a2_batch"]).total_s * S.ms_per_s
    shape, note = ch.hline(s["a2_sla"] * S.ms_per_s, "danger", f"SLA {fmt(s['a2_sla'], 'ms')}")
    here_km = s["a2_distance"] / S.m_per_km if s["context"] == "cloud" else 0.0
    traces = [ch.line("Remote H100", kms, cloud, "series1"),
              ch.line("Orin NX in the vehicle", kms, [edge] * len(kms), "series2", dash="dash"),
              ch.point("Your setting", here_km, svc.total_s * S.ms_per_s, "accent")]
    figure = ch.figure(traces, x=ch.axis("Distance to the model (km)"), y=ch.axis("Frame to answer (ms)"),
                       shapes=[shape], annotations=[note] if note else [])
    summary = (f"The remote H100 answers in {fmt(cloud[0] / S.ms_per_s, 'ms')} next door and "
               f"{fmt(cloud[-1] / S.ms_per_s, 'ms')} at {fmt(kms[-1] * S.m_per_km, 'km')}; the Orin NX in the "
               f"vehicle takes {fmt(edge / S.ms_per_s, 'ms')} wherever the car is.")
    rows = [(fmt(k * S.m_per_km, "km"), fmt(c / S.ms_per_s, "ms"), fmt(edge / S.ms_per_s, "ms"))
            for k, c in zip(kms, cloud)]
    return chart("a2_distance", "Latency against distance", figure, summary,
                 table=(("Distance", "Remote H100", "Orin NX in the vehicle"), rows))


def act2_math(s: State):
    svc = act2_service(s)
    return math_peek("The governing equations · Act II", (
        Equation(r"T = \underbrace{\frac{2\,d\,k\,n_g}{c}}_{\text{RTT}} + \frac{D}{BW} + \frac{O}{R} + L",
                 "Light in fibre travels at c/n_g; *k* is the route's detour over the straight line."),
        Equation(f"D = {fmt(S.bytes_per_weight, 'num')}" + r"P_w + b\,A,\qquad O = b\cdot 2\,\text{MAC}",
                 "Weights are read once per batch of *b* frames; activations *A* are assumed to stay on chip "
                 "(a lower bound), so the intensity O/D grows with the batch."),
        Equation(r"d_{\max} = \frac{(\text{SLA} - t_{\text{inf}})\,c}{2\,k\,n_g}",
                 "The farthest site that can still answer within the budget."),
    ), rows=(
        ("Fibre group index, *n_g*", fmt(C.FIBRE_GROUP_INDEX, "num")),
        ("Light in fibre, *c/n_g*", fmt(ironlaw.fibre_speed_m_per_s(), "m/s")),
        (f"ResNet-50 weights, *{fmt(S.bytes_per_weight, 'num')}P_w*",
         fmt(C.RESNET50_PARAMS * S.bytes_per_weight, "B")),
        ("Operations per frame", fmt(RESNET50_FLOP, "FLOP")),
        ("Round trip, inference", f"{fmt(svc.rtt_s, 'ms')}, {fmt(svc.inference.total_s, 'ms')}"),
    ), sources=(
        C.REGISTRY["FIBRE_GROUP_INDEX"].source, C.REGISTRY["SPEED_OF_LIGHT"].source,
        cite("he2016", "ResNet-50"), C.REGISTRY["RESNET50_PARAMS"].source,
        C.REGISTRY["RESNET50_MACS"].source,
    ))


ACT2 = Act(
    number=2, title="The Light Barrier", minutes="12–15 min",
    stakeholder_role="Autonomy Platform Lead",
    stakeholder=lambda: (
        f"We want to take the perception model (ResNet-50) off the cars and serve it from H100s in our data "
        f"centre, {fmt(S.distance_m, 'km')} away by fibre. An H100 runs ResNet-50 in microseconds. Safety "
        f"requires an answer within {fmt(S.sla_s, 'ms')} of each camera frame. Will it fit?"),
    scenario=lambda: (
        "A remote model adds a term the Iron Law did not have: the **round trip** from the car to the data "
        "centre and back. Light in glass is fast, but not infinitely fast.",
        f"Light in fibre is slower than in vacuum by the glass's group index, {fmt(C.FIBRE_GROUP_INDEX, 'num')}.",
    ),
    prediction=ACT2_PREDICTION,
    controls=(A2_DISTANCE, A2_ROUTE, A2_BATCH, A2_SLA),
    overridden=a2_overridden,
    instruments=act2_instruments,
    reflection=ACT2_REFLECTION,
    math_peek=act2_math,
    facts=act2_facts,
    instruments_title="Latency budget",
)

# ---- the whole lab -------------------------------------------------------------------


def active_failures(s: State) -> frozenset[str]:
    svc = act2_service(s)
    active = {"a1_upgrade_wasted": act1_upgrade(s).cut < S.wasted_cut,
              "a2_sla_violated": svc.total_s > s["a2_sla"]}
    return frozenset(name for name, on in active.items() if on)


def results(s: State) -> dict[str, float | str | bool]:
    u = act1_upgrade(s)
    svc = act2_service(s)
    return {"speedup": u.speedup, "bound": u.after.bound, "distance_km": s["a2_distance"] / S.m_per_km,
            "sla_violated": svc.total_s > s["a2_sla"]}


RECORD_METRICS = (
    MetricSpec("speedup", "Act I latency speedup", "1", "x"),
    MetricSpec("bound", "Act I bound after the upgrade", "1", "num"),
    MetricSpec("distance_km", "Act II distance to the model (km)", "1", "num"),
    MetricSpec("sla_violated", "Act II SLA broken", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    u, f2 = SCENARIO_UPGRADE, act2_facts()
    return [
        f"Latency is the sum of memory, compute and overhead terms; the largest sets the time. At "
        f"{fmt(S.intensity, 'FLOP/B')} the A100 → H100 upgrade, {fmt(u.compute_ratio, 'x')} the dense compute, "
        f"gives {fmt(u.speedup, 'x')}: close to the bandwidth ratio, {fmt(u.bandwidth_ratio, 'x')}.",
        f"Ridge points come from dense peaks: {fmt(devices.H100.ridge, 'FLOP/B')} on the H100, "
        f"{fmt(devices.A100.ridge, 'FLOP/B')} on the A100, {fmt(devices.ORIN_NX.ridge, 'FLOP/B')} on the Orin NX "
        "(FP16). Below the ridge, more FLOP/s wait for bytes.",
        f"Overhead is the next wall: about {act1_facts()['anecdote_overhead']} of fixed overhead shrinks the same "
        f"upgrade to an {fmt(S.anecdote_cut, 'pct')} gain.",
        f"Light in fibre needs {f2['rtt']} to cross {f2['distance']} and back. No GPU removes it; within a "
        f"{f2['sla']} budget the model must sit within {f2['d_max']}, or in the vehicle ({f2['orin']}).",
    ]


LAB = Lab(
    id="v1_02", volume=1, number=2, title="The Iron Law",
    invariant="Latency = bytes ÷ bandwidth + operations ÷ peak + overhead (+ the round trip of light): "
              "**the largest term sets the time**.",
    minutes="25–30 min", chapter="ML Systems", url="vol1/02-iron-law/",
    reading=(
        "**The Iron Law of ML systems**: data movement, computation and overhead as separate terms.",
        "**The roofline**: arithmetic intensity, ridge points and the memory wall.",
        "**Deployment contexts**: why distance and the speed of light push models to the edge.",
    ),
    context=CONTEXT,
    acts=(ACT1, ACT2),
    metrics=tuple(M.values()),
    failures=FAILURES,
    active_failures=active_failures,
    results=results,
    takeaways=lab_takeaways,
    connections=(
        "**V1-01 The Magnitude Awakening**: the same three terms for ResNet-50 on each of the four devices.",
        "**V1-05 The Activation Tax**: activations are bytes too, and they are memory-bound.",
        "**V1-07 The Kernel Fusion Dividend**: fusing kernels cuts both the bytes moved and the overhead term.",
    ),
    record_metrics=RECORD_METRICS,
    context_from=TRACK,
)
