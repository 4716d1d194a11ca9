"""Lab V1-02 · The Iron Law (the memory wall and the light barrier).

Core invariant: latency is the sum of what a request moves, what it computes and what it waits
for, T = D/BW + O/R + L (plus the round trip of light when the model is far away). Only the
largest term matters; a faster unit for a small term buys almost nothing.

Act I (the memory wall): one decoding step of a 1B-parameter model (2 GB of 16-bit weights, 5
operations per byte for 5 users, 0.05 ms of overhead) before and after an upgrade. Cloud: A100 →
H100, 3.17× the dense BF16 compute and 1.64× the bandwidth, gives 1.618×. Edge: the Jetson Orin NX
moved from FP16 to INT8 weights (1 GB, widened to FP16 in the kernel) on the same 102.4 GB/s LPDDR5 and
the same FP16 tensor cores, gives 1.932×. The
prediction asks for that speedup in the context locked in; the reflection asks which term the
saving came from (reading the weights, in both contexts).
Act II (the light barrier): the plan serves a car's perception model (ResNet-50) from H100s
3,000 km away with a 10 ms budget. The prediction asks how far away, on a straight fibre, an H100
can sit and still answer within the budget (1,014 km: the round trip of light in glass); the
reflection asks which of the team's fixes can work. The question is about the remote H100 in both
contexts (its prompt says so); in the Edge context the instruments also show the car's own Orin NX.

Contexts: Cloud and Edge. Mobile and TinyML are explained on the page (track_notes): the phone's
memory bandwidth is an assumption (Apple publishes none), so an upgrade question would rest on a
guess, and a microcontroller holds neither a 2 GB model nor ResNet-50.

Corrections to the upstream lab and to the spec (handbook/labs/v1_02.md §5):
- The compute ratio is 3.17× (dense), not 6×; the upstream story keyed two answers (10–15 % and
  0 %) while its own model gave 27.7 %; here one option holds the physics' 1.618×. Ridges come from
  dense peaks (295 and 153 FLOP/B, not 590). The Orin's "100 TOPS" is sparse INT8 over the GPU and
  two DLAs, never an FP16 rate.
- The Edge upgrade read the same 2 GB on both sides and showed "1.02×". INT8
  weights halve D: 20.25 → 10.48 ms, 1.932×. Review: on the INT8 tensor path (1.995×) the story's 2×
  compute ratio sat in the key; W8A16 (TensorRT-LLM) keeps the FP16 rate, so that belief gives A.
- Act I's ranges ran from highest (A) to lowest; they run A lowest to D highest now, and
  Act II asks for the farthest site (a distance whose ranges each hold one mistake about light)
  instead of the latency of the plan, which the story made easy to place.
- The fixed overhead defaults to 0.05 ms; sliding it to about 4 ms reproduces the upstream "8 %"
  anecdote (the takeaways say so). Act II reads weights once per batch, so intensity rises with
  batch, and 30 ms is the round trip (not one way).
- The Act I warning offered "cut the bytes" as a lever; with overhead the largest term, fewer bytes
  make the gain smaller. It now names only the levers that raise the gain and are not at their limit.

Ledger fields: context, predictions and reflections, speedup, bound, distance_km, sla_violated.
"""

from __future__ import annotations

from pylabs.framework import (Act, Claim, Equation, FailureSpec, Lab, MetricSpec, Prediction, Range,
                              Reflection, Slider, State, callout, failure, fmt, math_peek, metric_grid,
                              prose)
from pylabs.labs.vol1.contexts import TRACK, deployment
from pylabs.labs.vol1.v1_02_charts import act1_roofline, act1_waterfall, act2_chart, rate_unit
from pylabs.labs.vol1.v1_02_model import (CONTEXTS, PAIRS, RESNET50_FLOP, SCENARIO_SERVICE, SCENARIO_UPGRADE, S,
                                          Service, act1_truth, act2_truth, farthest_h100_m, perception_intensity,
                                          scenario_upgrade, service, upgrade)
from pylabs.physics import constants as C
from pylabs.physics import devices, ironlaw
from pylabs.physics import units as U
from pylabs.physics.devices import Device
from pylabs.physics.ironlaw import Upgrade
from pylabs.physics.references import cite


# ---- context: which devices the instruments compare --------------------------------------

CONTEXT = deployment(CONTEXTS, default="cloud", help=(
    "Cloud compares the A100 and the H100 in Act I; Edge compares the Jetson Orin NX with FP16 and with INT8 "
    "weights. "
    "Act II's plan is a remote H100 in both; Edge also shows the car's own Orin NX."))
TRACK_NOTES = {
    "mobile": ("Mobile is not offered here: Apple publishes no memory bandwidth for the A17 Pro, and this lab's "
               "upgrade question turns on bandwidth, so its answer would rest on an assumption. The lab opens in "
               "Cloud (A100 → H100); before your first lock you can pick Edge (Jetson Orin NX) above."),
    "tiny": (f"TinyML is not offered here: the Cortex-M7 board holds {fmt(C.STM32H743_FLASH_BYTES, 'iB')} of "
             f"flash, and Act I's model needs {fmt(S.bytes_moved, 'GB')} and Act II's ResNet-50 "
             f"{fmt(C.RESNET50_PARAMS * S.bytes_per_weight, 'B')}. The lab opens in Cloud; before your first lock "
             "you can pick Edge (Jetson Orin NX) above."),
}


def terms(context: str) -> dict[str, str]:
    """The words of each context that the questions name (the scenario's, never an answer)."""
    p = PAIRS[context]
    weights = (f"{fmt(S.bytes_moved, 'GB')} of BF16 weights on both GPUs" if p.bytes_ratio == 1 else
               f"{fmt(S.bytes_moved, 'GB')} of FP16 weights ({fmt(S.bytes_moved * p.bytes_ratio, 'GB')} as INT8 weights)")
    return {"old": p.old_name, "new": p.new_name, "weights": weights}


ADVERTISED = {"cloud": (C.H100_PEAK_BF16_SPARSE, f"{fmt(C.H100_PEAK_BF16_SPARSE, 'FLOP/s')} BF16 with "
                                                 "2:4 sparsity"),
              "edge": (C.ORIN_NX_PEAK_INT8_SPARSE_TOTAL, f"{fmt(C.ORIN_NX_PEAK_INT8_SPARSE_TOTAL, 'OP/s')}, INT8 with "
                                                         "2:4 sparsity summed over the GPU and two DLAs")}

# ---- Act I · The memory wall --------------------------------------------------------

# Log sliders in steps of 0.01 decade from a minimum one decade below the default, so the default sits
# exactly on the native range input's grid (the browser snaps the thumb to it).
A1_BYTES = Slider("a1_bytes", "16-bit weights read per step", unit="B", min=0.2e9, max=20e9, step=1,
                  default=S.bytes_moved, fmt="GB", scale="log", steps=200,
                  help="Every weight is read once per decoding step. INT8 weights (Edge) are half as many bytes.")
A1_INTENSITY = Slider("a1_intensity", "Operations per byte of 16-bit weights", unit="op/B", min=0.5, max=5000,
                      step=1, default=S.intensity, fmt="num", scale="log", steps=400,
                      help=f"Decoding does {fmt(S.flop_per_param, 'num')} operations per parameter for each user in "
                           "the step; INT8 weights do the same operations on half the bytes.")
A1_OVERHEAD = Slider("a1_overhead", "Fixed overhead per step", unit="s", min=0, max=5e-3, step=0.01e-3,
                     default=S.overhead_s, fmt="ms", help="Kernel launches, framework and scheduling, the same on both.")

ACT1_PREDICTION = Prediction(
    id="a1_predict", act=1,
    prompt=f"Each decoding step reads {{weights}} and does {fmt(S.intensity, 'num')} operations per 16-bit byte, "
           f"with {fmt(S.overhead_s, 'ms')} of fixed overhead. How many times faster is one step on the {{new}} than "
           "on the {old}?",
    quantity="step time before ÷ step time after",
    unit_fmt="x",
    options=(
        Range("A", "{range}: the step is barely faster than before", None, 1.15, 1.05,
              "The step takes {a1_latency_before} on the {old} and {a1_latency_after} on the {new}: "
              "{a1_speedup}. {what_changed} The fixed overhead, {overhead}, is too small to swallow the gain."),
        Range("B", "{range}: a modest gain, well short of double", 1.15, 1.4, 1.27,
              "The step takes {a1_latency_before} on the {old} and {a1_latency_after} on the {new}: "
              "{a1_speedup}. {what_changed}"),
        Range("C", "{range}: a large gain, up to about twice", 1.4, 2.3, 1.8,
              "The step takes {a1_latency_before} on the {old} and {a1_latency_after} on the {new}: "
              "{a1_speedup}. {what_changed}"),
        Range("D", "{range}: more than twice as fast as before", 2.3, None, 3.0,
              "The step takes {a1_latency_before} on the {old} and {a1_latency_after} on the {new}: "
              "{a1_speedup}. {what_changed} The peak rate reaches the step only "
              "past the ridge, {ridge_new} op/B on the {new}."),
    ),
    truth=act1_truth,
    shown_by="a1_speedup",
)

ACT1_REFLECTION = Reflection(
    id="a1_reflect", act=1,
    prompt="The waterfall splits each step into three terms. Where did most of the time the upgrade saved "
           "come from?",
    options=(
        Claim("A", "The compute term: faster tensor cores finish the multiplies sooner.",
              "{compute_change} At {intensity_new} op/B the {new} is far below its ridge ({ridge_new}), so arithmetic was "
              "never much of the step."),
        Claim("B", "The fixed overhead: newer software launches each step sooner.",
              "The overhead is {overhead} on both sides in this model: it saved nothing. Of the {saved} saved, "
              "{memory_saved} came from the memory term."),
        Claim("C", "All three terms alike: a newer path speeds the whole step up.",
              "The terms did not move alike: memory {memory_factor}, compute {compute_factor}, overhead 1×. "
              "What counts is each term's size: memory gave {memory_saved} of the {saved} saved."),
        Claim("D", "Reading the weights, which took most of the step on both sides.",
              "Memory time went {memory_before} → {memory_after}: {memory_saved} of the {saved} saved "
              "({memory_why}). Below the ridge ({ridge_new} op/B on the {new}) extra operations per second "
              "wait for bytes."),
    ),
    answer_letter="D",
)

M = {m.name: m for m in (
    MetricSpec("a1_speedup", "Step speedup", "1", "x"),
    MetricSpec("a1_compute_ratio", "Peak rate ratio (dense)", "1", "x"),
    MetricSpec("a1_bandwidth_ratio", "Memory bandwidth ratio", "1", "x"),
    MetricSpec("a1_memory_share", "Memory's share of the new step", "1", "pct"),
    MetricSpec("a1_latency_after", "Step time after", "s", "ms"),
    MetricSpec("a1_ridge_after", "Ridge point after (op/B)", "op/B", "num"),
    MetricSpec("a1_latency_before", "Step time before", "s", "ms"),
    MetricSpec("a1_cut", "Step time removed", "1", "pct"),
    MetricSpec("a2_latency", "Frame to answer", "s", "ms"),
    MetricSpec("a2_rtt", "Round trip of light in fibre", "s", "ms"),
    MetricSpec("a2_inference", "Inference (memory, compute, overhead)", "s", "ms"),
    MetricSpec("a2_max_distance", "Farthest H100 site within the SLA", "m", "km"),
    MetricSpec("a2_intensity", "Arithmetic intensity (FLOP/B)", "FLOP/B", "num"),
    MetricSpec("a2_per_image", "Inference time per image", "s", "ms"),
)}

FAILURES = (
    FailureSpec("a1_upgrade_wasted", "The upgrade bought almost nothing", act=1, severity="warn",
                reach={"a1_overhead": 0.005}, leave={"a1_overhead": 5e-05}, contexts=("cloud",)),
    FailureSpec("a2_sla_violated", "The SLA is broken: the answer arrives too late", act=2,
                reach={}, leave={"a2_distance": 500000}, contexts=("cloud",)),
)
F = {f.name: f for f in FAILURES}


def act1_upgrade(s: State) -> Upgrade:
    return upgrade(s["context"], s["a1_bytes"], s["a1_intensity"], s["a1_overhead"])


def act1_instruments(s: State) -> list:
    u = act1_upgrade(s)
    p = PAIRS[s["context"]]
    parts = [metric_grid(
        M["a1_speedup"].show(u.speedup, "warn" if u.cut < S.wasted_cut else None, f"{p.old_name} → {p.new_name}"),
        M["a1_compute_ratio"].show(u.compute_ratio),
        M["a1_bandwidth_ratio"].show(u.bandwidth_ratio),
        M["a1_memory_share"].show(u.after.memory_share, "warn" if u.after.bound == "memory" else None,
                                  f"{u.after.bound}-bound"),
        M["a1_latency_after"].show(u.after.total_s, note=p.new_name),
        M["a1_ridge_after"].show(u.new.ridge, note=f"{p.new_name}, dense peak"),
        M["a1_latency_before"].show(u.before.total_s, note=p.old_name),
        M["a1_cut"].show(u.cut),
    )]
    if u.cut < S.wasted_cut:
        parts.append(failure(F["a1_upgrade_wasted"], wasted_text(s, u)))
    if s["a1_bytes"] > p.old.mem_bytes:
        parts.append(callout("warn", "These weights do not fit",
                             prose(f"{fmt(s['a1_bytes'], 'GB')} of 16-bit weights exceed the "
                                   f"{fmt(p.old.mem_bytes, 'GB')} of memory on the {p.old_name}, shared with its CPU; the figures "
                                   "above are what the Iron Law would give, not a run that could happen.")))
    parts.append(act1_waterfall(u, p.old_name, p.new_name))
    parts.append(act1_roofline(u, s["a1_intensity"], p, A1_INTENSITY.min, A1_INTENSITY.max))
    parts.append(advertised_callout(s["context"], u.new))
    return parts


def wasted_text(s: State, u: Upgrade) -> str:
    """Only levers that raise the gain, have room and fit the largest term."""
    leader = waterfall_leader(u.after)
    levers = []
    if leader == "compute" and s["a1_intensity"] > A1_INTENSITY.min:
        levers.append("lower the operations per byte, so that reading the weights counts again")
    if leader == "overhead" and s["a1_overhead"] > A1_OVERHEAD.min:
        levers.append("lower the fixed overhead")
    if leader == "overhead" and s["a1_bytes"] < A1_BYTES.max:
        levers.append("read more bytes per step, which dilutes the overhead")
    if leader == "overhead" and u.compute_ratio > 1 and s["a1_intensity"] < A1_INTENSITY.max:
        levers.append("raise the operations per byte")
    what = (f"{fmt(u.compute_ratio, 'x')} the peak rate" if u.compute_ratio > 1 else "Half the weight bytes")
    text = f"{what} removes only {fmt(u.cut, 'pct')} of the step. The {leader} term is the largest"
    text += " and the same on both sides" if leader == "overhead" or u.compute_ratio == 1 else ""
    if not levers:
        return text + "; every slider that would raise the gain is at its limit."
    return text + "; to let the upgrade count, " + ", or ".join(levers) + "."


def waterfall_leader(law: ironlaw.IronLaw) -> str:
    terms_s = {"memory": law.memory_s, "compute": law.compute_s, "overhead": law.overhead_s}
    return max(terms_s, key=terms_s.get)


def advertised_callout(context: str, new: Device):
    peak, what = ADVERTISED[context]
    return callout("info", "Ridges come from dense peaks",
                   prose(f"The headline figure, {what}, would put the ridge at "
                         f"{fmt(devices.ridge_point(peak, new.mem_bw), 'num')} op/B. This step's dense multiplies run "
                         f"at {fmt(new.peak_ops, rate_unit(new))} {new.precision}, so the roof turns at "
                         f"{fmt(new.ridge, 'num')} op/B."))


def act1_facts(context: str) -> dict[str, str]:
    u, p = scenario_upgrade(context), PAIRS[context]
    b, a = u.before, u.after
    saved = b.total_s - a.total_s
    if p.bytes_ratio == 1:
        changed = (f"The dense peak rate grew {fmt(u.compute_ratio, 'x')} and the memory bandwidth "
                   f"{fmt(u.bandwidth_ratio, 'x')}; the step reads the same {fmt(S.bytes_moved, 'GB')}.")
        memory_why = f"the same bytes at {fmt(u.bandwidth_ratio, 'x')} the bandwidth"
    else:
        changed = (f"The peak rate stayed {fmt(p.new.peak_ops, rate_unit(p.new))} and the bandwidth "
                   f"{fmt(p.new.mem_bw, 'GB/s')}; only the bytes changed: the step reads "
                   f"{fmt(S.bytes_moved * p.bytes_ratio, 'GB')} instead of {fmt(S.bytes_moved, 'GB')}.")
        memory_why = f"{fmt(S.bytes_moved * p.bytes_ratio, 'GB')} instead of {fmt(S.bytes_moved, 'GB')} at the same bandwidth"
    return {"a1_speedup": fmt(u.speedup, "x"), "a1_latency_before": fmt(b.total_s, "ms"),
            "a1_latency_after": fmt(a.total_s, "ms"), "old": p.old_name, "new": p.new_name,
            "what_changed": changed,
            "ridge_new": fmt(u.new.ridge, "num"), "intensity_new": fmt(S.intensity / p.bytes_ratio, "num"),
            "overhead": fmt(S.overhead_s, "ms"), "saved": fmt(saved, "ms"),
            "compute_before": fmt(b.compute_s, "ms"), "compute_after": fmt(a.compute_s, "ms"),
            "compute_saved": fmt(b.compute_s - a.compute_s, "ms"),
            "compute_change": (f"The compute term went {fmt(b.compute_s, 'ms')} → {fmt(a.compute_s, 'ms')}: "
                               f"{fmt(b.compute_s - a.compute_s, 'ms')} of the {fmt(saved, 'ms')} saved."
                               if u.compute_ratio != 1 else
                               f"The compute term stayed {fmt(a.compute_s, 'ms')}: the multiplies run on the same "
                               f"tensor cores, so it saved none of the {fmt(saved, 'ms')}."),
            "memory_before": fmt(b.memory_s, "ms"), "memory_after": fmt(a.memory_s, "ms"),
            "memory_saved": fmt(b.memory_s - a.memory_s, "ms"), "memory_why": memory_why,
            "memory_factor": fmt(b.memory_s / a.memory_s, "x"), "compute_factor": fmt(b.compute_s / a.compute_s, "x")}


def anecdote_overhead_s() -> float:
    """The overhead at which the cloud upgrade shrinks to the upstream story's 8 % gain."""
    u = SCENARIO_UPGRADE
    return ironlaw.overhead_for_speedup_s(1 / (1 - S.anecdote_cut), u.before, u.after)


def act1_math(s: State):
    u = act1_upgrade(s)
    p = PAIRS[s["context"]]
    return math_peek("The governing equations · Act I", (
        Equation(r"T = \frac{D}{BW} + \frac{O}{R} + L,\qquad O = I\cdot D_{16}",
                 "The Iron Law: bytes over bandwidth, operations over the dense peak, plus fixed overhead. "
                 "The terms are added (no overlap), an upper bound on a well-pipelined kernel. *I* counts "
                 "operations per byte of 16-bit weights, so both sides do the same operations."),
        Equation(r"D_{\text{INT8}} = \tfrac{1}{2}\,D_{16}",
                 "Weight-only INT8 (Edge): one byte per weight instead of two, widened to FP16 inside the kernel, "
                 "so the multiplies keep the FP16 rate (the widening is counted as free)."),
        Equation(r"\text{speedup} = \frac{T_{\text{before}}}{T_{\text{after}}},\qquad I_{\text{ridge}} = \frac{R}{BW}",
                 "Only the terms that shrink make the step faster. Below the ridge a step is memory-bound."),
    ), rows=(
        ("Dense peak before → after", f"{fmt(u.old.peak_ops, rate_unit(u.old))} → "
                                      f"{fmt(u.new.peak_ops, rate_unit(u.new))}"),
        ("Bandwidth before → after", f"{fmt(u.old.mem_bw, 'GB/s')} → {fmt(u.new.mem_bw, 'GB/s')}"),
        ("Bytes per step before → after", f"{fmt(s['a1_bytes'], 'GB')} → {fmt(s['a1_bytes'] * p.bytes_ratio, 'GB')}"),
        ("Memory, compute, overhead after", f"{fmt(u.after.memory_s, 'ms')}, {fmt(u.after.compute_s, 'ms')}, "
                                            f"{fmt(u.after.overhead_s, 'ms')}"),
        ("Speedup", fmt(u.speedup, "x")),
    ), sources=(
        cite("williams2009", "ridge point and the memory-bound region"),
        cite("trtllm_precision", "weight-only INT8 (W8A16): INT8 weights, FP16 arithmetic"),
        C.REGISTRY["H100_PEAK_BF16_DENSE"].source, C.REGISTRY["H100_HBM_BW"].source,
        C.REGISTRY["A100_PEAK_BF16_DENSE"].source, C.REGISTRY["A100_HBM_BW"].source,
        C.REGISTRY["ORIN_NX_PEAK_FP16_DENSE"].source,
        C.REGISTRY["ORIN_NX_MEM_BW"].source, C.REGISTRY["ORIN_NX_PEAK_INT8_SPARSE_TOTAL"].source,
    ))


def act1_stakeholder(context: str) -> str:
    if context == "edge":
        return (f"Our robot's assistant decodes a {fmt(S.decode_params, 'params')}-parameter model on a Jetson "
                f"Orin NX in FP16: {fmt(S.bytes_moved, 'GB')} of weights read every step, for "
                f"{fmt(S.users, 'num')} users at once. We are storing the weights in INT8 instead: each is "
                "widened back to FP16 inside the kernel, so the multiplies stay on the same FP16 tensor cores. "
                "How much faster will each step be?")
    return (f"We spent {fmt(S.upgrade_usd, 'usd')} moving our assistant from A100s to H100s: "
            f"{fmt(SCENARIO_UPGRADE.compute_ratio, 'x')} the dense BF16 compute on paper. It decodes a "
            f"{fmt(S.decode_params, 'params')}-parameter model in BF16, so every step reads {fmt(S.bytes_moved, 'GB')} "
            f"of weights, for {fmt(S.users, 'num')} users at once. How much faster will each step be?")


def act1_scenario(context: str) -> tuple[str, ...]:
    p = PAIRS[context]
    return (
        "Every step pays three bills: **moving bytes** between memory and the chip, **computing** on them, "
        "and a **fixed overhead** for launching the work. The Iron Law adds them up.",
        f"Decoding one token costs {fmt(S.flop_per_param, 'num')} operations per parameter, and each weight is "
        "read once per step. " + (f"The {p.old_name} has {fmt(p.old.mem_bw, 'GB/s')} of memory bandwidth, the "
                                  f"{p.new_name} {fmt(p.new.mem_bw, 'GB/s')}." if p.old.mem_bw != p.new.mem_bw else
                                  f"Both run on the same Orin NX: {fmt(p.old.mem_bw, 'GB/s')} of LPDDR5 and "
                                  f"{fmt(p.old.peak_ops, rate_unit(p.old))} of dense FP16 tensor cores."),
    )


ACT1 = Act(
    number=1, title="The Upgrade", minutes="12–15 min",
    stakeholder_role="CTO",
    stakeholder=act1_stakeholder,
    scenario=act1_scenario,
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
                  default=S.route_factor, fmt="x",
                  help="Fibre follows roads, railways and coasts, so its path is longer than the straight line.")
A2_BATCH = Slider("a2_batch", "Camera frames per inference", unit="images", min=1, max=64, step=1, default=S.batch,
                  fmt="int", scale="log2", help="Weights are read once per batch; every frame waits for the batch.")
A2_SLA = Slider("a2_sla", "Latency budget (SLA)", unit="s", min=5e-3, max=50e-3, step=1e-3, default=S.sla_s, fmt="ms")


def act2_service(s: State) -> Service:
    return service(s["context"], s["a2_distance"], s["a2_route"], s["a2_batch"])


ACT2_PREDICTION = Prediction(
    id="a2_predict", act=2,
    prompt=f"An H100 in a data centre runs ResNet-50 on each camera frame, one frame at a time. On a straight "
           f"fibre, how far from the cars can it be and still answer every frame within {fmt(S.sla_s, 'ms')}?",
    quantity="farthest H100 site within the budget",
    unit_fmt="km",
    options=(
        Range("A", "{range}: well under half the planned distance", None, 1_200e3, 800e3,
              "Light in fibre covers {km_per_ms} per millisecond ({fibre_speed}). After {inference} of "
              "inference (at datasheet peaks; a slower real run only shortens it), {left} of the budget is left "
              "for the way there and back: {a2_max_distance}."),
        Range("B", "{range}: about half the planned distance", 1_200e3, 1_800e3, 1_500e3,
              "That is the reach at the speed of light in vacuum, {vacuum}. Glass slows light by its group "
              "index, {group_index}, so the farthest site is {a2_max_distance}."),
        Range("C", "{range}: the planned distance would fit", 1_800e3, 4_000e3, 3_000e3,
              "One crossing fits: {one_way} one way in fibre. But the answer must come back, so the budget "
              "covers the distance twice: {a2_max_distance}."),
        Range("D", "{range}: well past the planned site", 4_000e3, None, 5_000e3,
              "Light is fast, not instant: {distance} and back takes {rtt} in fibre, about three times the "
              "budget. The farthest site is {a2_max_distance}."),
    ),
    truth=act2_truth,
    shown_by="a2_max_distance",
)


def act2_facts() -> dict[str, str]:
    v = ironlaw.fibre_speed_m_per_s()
    svc = SCENARIO_SERVICE
    d_max = act2_truth()
    left = S.sla_s - svc.inference.total_s
    return {"inference": fmt(svc.inference.total_s, "ms"), "distance": fmt(S.distance_m, "km"),
            "rtt": fmt(svc.rtt_s, "ms"), "fibre_speed": fmt(v, "m/s"), "km_per_ms": fmt(v / U.MS_PER_S, "km"),
            "sla": fmt(S.sla_s, "ms"), "total": fmt(svc.total_s, "ms"), "left": fmt(left, "ms"),
            "a2_max_distance": fmt(d_max, "km"), "group_index": fmt(C.FIBRE_GROUP_INDEX, "num"),
            "vacuum": fmt(left * C.SPEED_OF_LIGHT / 2, "km"), "one_way": fmt(left * v, "km"),
            "orin": fmt(service("edge", 0.0, 1.0, S.batch).total_s, "ms"),
            "bigger_batch": fmt(service("cloud", S.distance_m, S.route_factor, S.batch_example).total_s, "ms"),
            "batch_example": fmt(S.batch_example, "int"),
            "h100_share": fmt(svc.inference.total_s / svc.total_s, "pct")}


ACT2_REFLECTION = Reflection(
    id="a2_reflect", act=2,
    prompt=f"The plan serves every frame from {fmt(S.distance_m, 'km')} away. Which of the team's fixes can meet "
           f"the {fmt(S.sla_s, 'ms')} budget?",
    options=(
        Claim("A", "Buy the next GPU generation for the data centre.",
              "Inference is {inference} of the {total}; an infinitely fast GPU still leaves the {rtt} round trip."),
        Claim("B", "Serve from sites near the cars, or on the car itself.",
              "Within {a2_max_distance} of the cars the budget holds on a straight fibre; on the car the "
              "Orin NX answers in {orin}, with no round trip at all."),
        Claim("C", "Batch several camera frames into each H100 inference.",
              "Batching raises throughput, not speed: with {batch_example} frames per inference a frame takes "
              "{bigger_batch}, and the {rtt} round trip is still there."),
        Claim("D", "Lease a fibre link with more bandwidth to the site.",
              "Bandwidth shortens the time to put a frame's bytes on the fibre, not the time light takes to "
              "cross it: {rtt} at {fibre_speed}."),
    ),
    answer_letter="B",
)


def a2_overridden(s: State) -> dict[str, str]:
    """In the vehicle there is no network: distance and route do not enter the latency."""
    if s["context"] != "edge":
        return {}
    reason = ("Not used for the car's Orin NX, which has no network hop; the remote H100 on the chart and its "
              "farthest-site card still follow the route.")
    return {"a2_distance": reason}


def act2_instruments(s: State) -> list:
    svc = act2_service(s)
    sla = s["a2_sla"]
    late = svc.total_s > sla
    law = svc.inference
    edge = s["context"] == "edge"
    parts = [metric_grid(
        M["a2_latency"].show(svc.total_s, "danger" if late else "good", f"budget {fmt(sla, 'ms')}"),
        M["a2_max_distance"].show(farthest_h100_m(sla, s["a2_route"], s["a2_batch"]),
                                  note="inference too slow for the budget" if
                                  farthest_h100_m(sla, s["a2_route"], s["a2_batch"]) == 0 else "on this route"),
        M["a2_rtt"].show(svc.rtt_s, "danger" if svc.rtt_s > sla else None, "in the vehicle: none" if edge else ""),
        M["a2_inference"].show(law.total_s, note=f"{law.bound}-bound on the {device_name(s['context'])}, at "
                                                 "datasheet peaks: a floor"),
        M["a2_intensity"].show(perception_intensity(svc.batch)),
        M["a2_per_image"].show(law.total_s / svc.batch),
    )]
    if late:
        parts.append(sla_failure(s, svc))
    parts.append(act2_chart(s["context"], s["a2_distance"], s["a2_route"], s["a2_batch"], s["a2_sla"], svc))
    return parts


def device_name(context: str) -> str:
    return "H100" if context == "cloud" else "Orin NX"


def sla_failure(s: State, svc: Service):
    """The levers named are those that can still clear the budget."""
    sla = s["a2_sla"]
    if svc.rtt_s > sla:
        return failure(F["a2_sla_violated"],
                       f"Light alone needs {fmt(svc.rtt_s, 'ms')} for {fmt(s['a2_distance'], 'km')} and back, more "
                       f"than the budget of {fmt(sla, 'ms')}, whatever the inference takes.")
    levers = []
    if s["a2_batch"] > A2_BATCH.min:
        levers.append("fewer frames per inference")
    if s["context"] == "cloud" and s["a2_distance"] > A2_DISTANCE.min:
        levers.append("a nearer site")
    if sla < A2_SLA.max:
        levers.append("a looser budget")
    text = (f"The answer takes {fmt(svc.total_s, 'ms')} against the budget of {fmt(sla, 'ms')}; inference is "
            f"{fmt(svc.inference.total_s, 'ms')} of it.")
    return failure(F["a2_sla_violated"], text + (f" What brings it back: {', or '.join(levers)}." if levers else ""))


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
    number=2, title="The Remote Model", minutes="12–15 min",
    stakeholder_role="Autonomy Platform Lead",
    stakeholder=lambda: (
        f"We want to take the perception model (ResNet-50) off the cars and serve it from H100s in our data "
        f"centre, {fmt(S.distance_m, 'km')} away by fibre. Safety requires an answer within "
        f"{fmt(S.sla_s, 'ms')} of each camera frame. Will it fit?"),
    scenario=lambda: (
        "A remote model adds a term the Iron Law did not have: the **round trip** from the car to the data "
        "centre and back.",
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
    return {"speedup": u.speedup, "bound": u.after.bound, "distance_km": s["a2_distance"] / U.M_PER_KM,
            "sla_violated": svc.total_s > s["a2_sla"]}


RECORD_METRICS = (
    MetricSpec("speedup", "Act I step speedup", "1", "x"),
    MetricSpec("bound", "Act I bound after the upgrade", "1", "num"),
    MetricSpec("distance_km", "Act II distance to the model (km)", "1", "num"),
    MetricSpec("sla_violated", "Act II SLA broken", "1", "yesno"),
)


def lab_takeaways() -> list[str]:
    u, edge, f2 = SCENARIO_UPGRADE, scenario_upgrade("edge"), act2_facts()
    return [
        f"Latency is the sum of memory, compute and overhead terms; the largest sets the time. At "
        f"{fmt(S.intensity, 'num')} operations per byte the A100 → H100 upgrade, {fmt(u.compute_ratio, 'x')} the "
        f"dense compute, gives {fmt(u.speedup, 'x')}: close to the bandwidth ratio, {fmt(u.bandwidth_ratio, 'x')}. "
        f"On the Orin NX, INT8 weights halve the bytes on the same bandwidth: {fmt(edge.speedup, 'x')}.",
        f"Ridge points come from dense peaks: {fmt(devices.H100.ridge, 'num')} FLOP/B on the H100, "
        f"{fmt(devices.A100.ridge, 'num')} FLOP/B on the A100, {fmt(devices.ORIN_NX.ridge, 'num')} FLOP/B on the "
        "Orin NX (FP16). Below the ridge, more operations per second wait for bytes.",
        f"Overhead is the next wall: about {fmt(anecdote_overhead_s(), 'ms')} of fixed overhead shrinks the same "
        f"upgrade to an {fmt(S.anecdote_cut, 'pct')} gain.",
        f"Light in fibre needs {f2['rtt']} to cross {f2['distance']} and back. No GPU removes it; within a "
        f"{f2['sla']} budget an H100 must sit within {f2['a2_max_distance']} of the cars, or the model runs in the "
        f"vehicle ({f2['orin']} on the Orin NX).",
    ]


LAB = Lab(
    id="v1_02", volume=1, number=2, title="The Iron Law",
    invariant="Latency = bytes ÷ bandwidth + operations ÷ peak + overhead (+ the round trip of light): "
              "**the largest term sets the time**.",
    minutes="25–30 min", chapter="ML Systems", url="vol1/02-iron-law/",
    description="Why latency follows the largest of memory, compute and overhead, and why the speed of light in "
                "fibre is a floor no GPU removes.",
    reading=(
        "**The Iron Law of ML systems**: data movement, computation and overhead as separate terms.",
        "**The roofline**: arithmetic intensity and ridge points.",
        "**Deployment contexts**: cloud, edge and the network between them.",
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
    terms=terms,
    track_notes=TRACK_NOTES,
    hook="A GPU upgrade triples the compute on paper: how much faster does each step get? And can a data "
         "centre 3,000 km away answer a car's camera in time?",
)
